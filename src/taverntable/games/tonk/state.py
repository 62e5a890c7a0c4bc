"""One Tonk deal: the state, the move generator, the checks and the transitions (T3–T11).

Hands are bit masks of card indices (``taverntable.cards``); the stock and the pile are lists with
their top card last, so drawing is ``list.pop()``. ``legal_moves``, ``check`` and ``apply`` are the
one path for legality: ``apply`` always checks first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from taverntable.cards import CARDS, FULL_DECK_MASK, Card, cards_of
from taverntable.engine import DealError, Event, TavernError

from . import scoring
from .events import move_events, opening_events
from .legality import check_move
from .movegen import OVER, PLAY, SET, START, generate
from .moves import Discard, Draw, Drop, End, Hit, Spread, TonkMove, parse_move
from .rules import MAX_PLAYERS, MIN_PLAYERS, TonkRules
from .scoring import Result
from .spreads import SUIT_VALUES, spread_kind

if TYPE_CHECKING:
    from .view import TonkView

__all__ = ["OVER", "PLAY", "START", "DealError", "TonkState"]

HAND_SIZE = 5


def check_players(n: int) -> None:
    """T2: 2 to 10 players."""
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise DealError(f"Tonk needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n} (T2)")


def check_stake(stake: object) -> None:
    """T2: a stake is a whole number of units, at least 1."""
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 1:
        raise DealError(f"the stake must be a whole number of at least 1, not {stake!r} (T2)")


def deal_from_deck(
    deck: Sequence[int], n: int, dealer: int
) -> tuple[list[list[int]], int, list[int]]:
    """T3: 5 cards each, one at a time from the seat after the dealer; then the upcard; the rest is
    the stock (top first). Returns (hands in seat order, upcard, stock)."""
    check_players(n)
    if sorted(deck) != list(range(52)):
        raise DealError("the deck must hold each of the 52 cards exactly once")
    hands: list[list[int]] = [[] for _ in range(n)]
    for k in range(HAND_SIZE * n):
        hands[(dealer + 1 + k) % n].append(deck[k])
    return hands, deck[HAND_SIZE * n], list(deck[HAND_SIZE * n + 1 :])


def shuffled_deck(rng: random.Random) -> list[int]:
    """A shuffled deck of the 52 card indices, top first.

    Sorting by random keys is uniform (ties have probability ~2**-40) and about twice as fast as
    ``rng.shuffle``, which makes the deal the cheap part of a random game.
    """
    rand = rng.random
    return sorted(_DECK, key=lambda _: rand())


_DECK = tuple(range(52))
_BIT = tuple(1 << i for i in range(52))


class TonkState:
    """A Tonk deal in progress. Build one with ``TonkState.deal`` or ``TonkState.from_cards``."""

    __slots__ = (
        "_legal",
        "_values",
        "current_seat_",
        "dealer",
        "drawn",
        "hands",
        "history",
        "hit_locked",
        "initial_hands",
        "initial_stock",
        "known",
        "last_draw_taken",
        "num_players",
        "phase",
        "pile",
        "pile_card",
        "result",
        "rules",
        "spread_mask",
        "spread_owner",
        "spread_suit",
        "spread_this_turn",
        "stake",
        "stock",
        "upcard",
    )

    rules: TonkRules
    num_players: int
    dealer: int
    stake: int
    hands: list[int]
    stock: list[int]  # top card last
    pile: list[int]  # top card last
    spread_owner: list[int]
    spread_mask: list[int]
    spread_suit: list[int]
    current_seat_: int
    phase: str  # START, PLAY or OVER
    pile_card: int  # the card taken from the pile this turn, or -1
    spread_this_turn: bool
    last_draw_taken: bool  # T11: the last stock card was drawn this turn
    hit_locked: list[bool]  # T6 hit_lock: a spread of this seat was hit since its last turn
    known: list[int]  # cards each seat took from the pile and still holds (public knowledge)
    history: list[tuple[int, TonkMove]]
    drawn: list[int]  # for each move, the card drawn from the stock, or -1
    result: Result | None
    initial_hands: tuple[tuple[int, ...], ...]
    upcard: int
    initial_stock: tuple[int, ...]  # top first
    _values: tuple[int, ...]  # hand value of each 13-bit suit mask
    _legal: Sequence[TonkMove] | None

    def __init__(self) -> None:
        raise TypeError("use TonkState.deal(...) or TonkState.from_cards(...)")

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def from_cards(
        cls,
        rules: TonkRules,
        hands: Sequence[Sequence[int]],
        upcard: int,
        stock: Sequence[int],
        *,
        dealer: int = 0,
        stake: int = 1,
    ) -> TonkState:
        """Start a deal from known cards (stock top first) and settle any T4 win on the deal."""
        n = len(hands)
        check_players(n)
        if not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, not {dealer}")
        check_stake(stake)
        seen = 0
        for seat, hand in enumerate(hands):
            if len(hand) != HAND_SIZE:
                raise DealError(f"seat {seat} holds {len(hand)} cards; a hand is {HAND_SIZE} (T3)")
        for c in [*(c for h in hands for c in h), upcard, *stock]:
            if seen >> c & 1:
                raise DealError(f"{CARDS[c]} is dealt twice")
            seen |= 1 << c
        if seen != FULL_DECK_MASK:
            raise DealError("the hands, upcard and stock must hold all 52 cards")
        return cls._start(rules, tuple(map(tuple, hands)), upcard, tuple(stock), dealer, stake)

    @classmethod
    def _start(
        cls,
        rules: TonkRules,
        hands: tuple[tuple[int, ...], ...],
        upcard: int,
        stock: tuple[int, ...],
        dealer: int,
        stake: int,
    ) -> TonkState:
        """Set up a deal whose cards are already known to be one whole deck.

        This runs once per deal, so in random play it costs as much as the moves: it keeps the
        caller's tuples as the initial cards and computes the totals inline.
        """
        n = len(hands)
        self = object.__new__(cls)
        self.rules = rules
        self.num_players = n
        self.dealer = dealer
        self.stake = stake
        v = self._values = SUIT_VALUES[rules.face_values]
        self.hands = masks = [sum(map(_BIT.__getitem__, h)) for h in hands]
        self.stock = list(stock[::-1])
        self.pile = [upcard]
        self.spread_owner, self.spread_mask, self.spread_suit = [], [], []
        self.current_seat_ = (dealer + 1) % n
        self.phase = START
        self.pile_card = -1
        self.spread_this_turn = False
        self.last_draw_taken = False
        self.hit_locked = [False] * n
        self.known = [0] * n
        self.history, self.drawn = [], []
        self.result = None
        self.initial_hands = hands
        self.upcard = upcard
        self.initial_stock = stock
        self._legal = None
        totals = [
            v[m & 0x1FFF] + v[m >> 13 & 0x1FFF] + v[m >> 26 & 0x1FFF] + v[m >> 39] for m in masks
        ]
        self.result = scoring.deal_time_result(rules, self.hands, totals, stake)
        if self.result is not None:
            self.phase = OVER
        else:
            self._start_turn()
        return self

    @classmethod
    def deal(
        cls,
        rules: TonkRules,
        num_players: int,
        *,
        rng: random.Random | int | None = None,
        deck: Sequence[int] | None = None,
        dealer: int = 0,
        stake: int = 1,
    ) -> TonkState:
        """T3: deal a stacked ``deck`` (top first) or one shuffled by ``rng`` (Random or seed)."""
        if deck is not None:
            hands, upcard, stock = deal_from_deck(deck, num_players, dealer)
            return cls.from_cards(rules, hands, upcard, stock, dealer=dealer, stake=stake)
        check_players(num_players)
        if not 0 <= dealer < num_players:
            raise DealError(f"dealer must be a seat 0..{num_players - 1}, not {dealer}")
        check_stake(stake)
        r = rng if isinstance(rng, random.Random) else random.Random(rng)
        cards = tuple(shuffled_deck(r))
        # Our own shuffle is one whole deck: deal it without validating it again.
        n5 = HAND_SIZE * num_players
        first = (dealer + 1) % num_players
        dealt = tuple(
            cards[(s - first) % num_players : n5 : num_players] for s in range(num_players)
        )
        return cls._start(rules, dealt, cards[n5], cards[n5 + 1 :], dealer, stake)

    def clone(self) -> TonkState:
        """An independent copy (the history is shared up to now, then diverges)."""
        other = object.__new__(TonkState)
        for name in TonkState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.spread_owner = self.spread_owner[:]
        other.spread_mask = self.spread_mask[:]
        other.spread_suit = self.spread_suit[:]
        other.hit_locked = self.hit_locked[:]
        other.known = self.known[:]
        other.history = self.history[:]
        other.drawn = self.drawn[:]
        other._legal = None
        return other

    # --- queries ------------------------------------------------------------------------------

    @property
    def current_seat(self) -> int | None:
        """The seat on turn, or None when the deal is over."""
        return None if self.phase == OVER else self.current_seat_

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def game(self) -> str:
        """The registry name of the game: the rules' preset."""
        return self.rules.preset

    def total(self, seat: int) -> int:
        """T1: the value of a seat's hand (cards on the table never count)."""
        v = self._values
        m = self.hands[seat]
        return v[m & 0x1FFF] + v[m >> 13 & 0x1FFF] + v[m >> 26 & 0x1FFF] + v[m >> 39]

    def hand(self, seat: int) -> list[Card]:
        """A seat's cards in canonical order."""
        return cards_of(self.hands[seat])

    @property
    def spreads(self) -> list[tuple[int, int]]:
        """(owner, card mask) of every spread, by spread number."""
        return list(zip(self.spread_owner, self.spread_mask, strict=True))

    def parse_move(self, text: str) -> TonkMove:
        """Parse a move in the records notation."""
        return parse_move(text)

    # --- legality: one path (movegen and legality modules) ----------------------------------

    def legal_moves(self) -> Sequence[TonkMove]:
        """Every legal move of the seat on turn (empty when the deal is over); do not modify."""
        if self._legal is None:
            self._legal = generate(self)
        return self._legal

    def check(self, move: TonkMove) -> None:
        """Raise IllegalMove naming the rule unless ``move`` is legal for the seat on turn."""
        check_move(self, move)

    # --- transitions --------------------------------------------------------------------------

    def apply(self, move: TonkMove) -> tuple[Event, ...]:
        """Check ``move``, then play it for the seat on turn; returns what happened."""
        check_move(self, move)
        seat = self.current_seat_
        self._apply_checked(move)
        return move_events(self, seat, move)

    def apply_unchecked(self, move: TonkMove) -> None:
        """Play a move the engine itself generated (search playouts), skipping the second check;
        as in Three Towers, anything taken from outside goes through ``apply``."""
        self._apply_checked(move)

    def apply_text(self, text: str) -> TonkMove:
        """Parse, check and apply a move written in the records notation; returns the move."""
        move = parse_move(text)
        self.apply(move)
        return move

    def sample_chance(self, rng: random.Random) -> TonkMove:
        """Tonk has no chance step after the deal: ``current_seat`` is never ``CHANCE``."""
        raise TavernError("a Tonk deal has no chance steps after the deal (T3)")

    def opening_events(self) -> tuple[Event, ...]:
        """T3/T4: the deal (each hand seen by its seat), the upcard, any win on the deal."""
        return opening_events(self)

    def returns(self) -> tuple[float, ...]:
        """T2: each seat's net gain in stakes (units over the stake); sums to zero."""
        if self.result is None:
            raise TavernError("the deal is not over")
        return tuple(x / self.stake for x in self.result.net)

    def _apply_checked(self, move: TonkMove) -> None:
        seat = self.current_seat_
        self._legal = None
        self.history.append((seat, move))
        drawn = -1
        # Cases in order of frequency in play: the match tries them top to bottom.
        match move:
            case Discard(card=card):
                self._take_from_hand(seat, card.mask)
                self.pile.append(card.index)
                if not self._check_out(seat, by_discard=True):
                    self._end_turn()
            case Draw(source="stock") if not self.stock:
                # T11 (stock_end "empty", checked legal): the player declines the pile's top
                # card instead of drawing from the empty stock; the deal ends at once.
                self._finish(scoring.stock_result(self._totals(), self.stake))
            case Draw(source="stock"):
                drawn = self.stock.pop()
                self.hands[seat] |= 1 << drawn
                self.phase = PLAY
                if not self.stock and self.rules.stock_end == "last_draw":
                    self.last_draw_taken = True
            case Draw():
                top = self.pile.pop()
                self.pile_card = top
                self.hands[seat] |= 1 << top
                self.known[seat] |= 1 << top
                self.phase = PLAY
            case Drop():
                self._finish(scoring.drop_result(seat, self._totals(), self.stake))
            case Spread(cards=cards):
                self._take_from_hand(seat, cards)
                kind = spread_kind(cards)
                assert kind is not None
                self.spread_owner.append(seat)
                self.spread_mask.append(cards)
                self.spread_suit.append(SET if kind[0] == "set" else kind[1])
                self.spread_this_turn = True
                self._check_out(seat, by_discard=False)
            case Hit(spread=number, cards=cards):
                self._take_from_hand(seat, cards)
                self.spread_mask[number] |= cards
                owner = self.spread_owner[number]
                if owner != seat and self.rules.hit_lock:
                    self.hit_locked[owner] = True
                self._check_out(seat, by_discard=False)
            case End():
                self._end_turn()
        self.drawn.append(drawn)

    def _take_from_hand(self, seat: int, cards: int) -> None:
        self.hands[seat] &= ~cards
        self.known[seat] &= ~cards

    def _check_out(self, seat: int, *, by_discard: bool) -> bool:
        """T10: an empty hand wins at once."""
        if self.hands[seat]:
            return False
        double = self.rules.tonk_out_double and not by_discard
        amount = self.stake * (2 if double else 1)
        self._finish(scoring.out_result(seat, self._totals(), amount))
        return True

    def _end_turn(self) -> None:
        seat = self.current_seat_
        self.hit_locked[seat] = False
        if self.last_draw_taken:
            # T11: the deal ends after the turn that drew the last stock card.
            self._finish(scoring.stock_result(self._totals(), self.stake))
            return
        self.current_seat_ = (seat + 1) % self.num_players
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = START
        self.pile_card = -1
        self.spread_this_turn = False
        if not self.stock and not self.pile:
            # T11 (stock_end "empty"): with no pile card to take either, the player on turn would
            # have to draw from the empty stock, so the deal ends as if they had declined (L2).
            self._finish(scoring.stock_result(self._totals(), self.stake))

    def _finish(self, result: Result) -> None:
        self.result = result
        self.phase = OVER
        self._legal = ()

    def _totals(self) -> list[int]:
        return [self.total(s) for s in range(self.num_players)]

    # --- hidden information -------------------------------------------------------------------

    def view(self, seat: int) -> TonkView:
        """What ``seat`` may see (see ``taverntable.games.tonk.view``)."""
        from .view import view_of

        return view_of(self, seat)


def _text(mask: int) -> str:
    return " ".join(c.text for c in cards_of(mask))
