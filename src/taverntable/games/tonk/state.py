"""One Tonk deal: dealing it (T2, T3) and the contract's calls on a position (T4–T11).

``legal_moves``, ``check`` and ``apply`` are the one path for legality: ``apply`` always checks
first. The layers under this class: the data (``position.py``), the move generator and the
checks (``movegen``, ``legality``), the transitions (``transitions.play``, returning the events
each step causes) and the filter (``view``). None of them imports this module.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from taverntable.cards import CARDS, FULL_DECK_MASK
from taverntable.engine import DealError, TavernError

from . import scoring
from .events import Events, opening_events
from .legality import check_move
from .movegen import legal_moves
from .moves import TonkMove, parse_move
from .phases import OVER, PLAY, START
from .position import TonkPosition
from .rules import MAX_PLAYERS, MIN_PLAYERS, TonkRules
from .spreads import SUIT_VALUES
from .transitions import play, start_turn
from .view import SEAT_FIELDS, VIEW_FIELDS, TonkView, public_json, seat_json, seat_own_json, view_of

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


class TonkState(TonkPosition):
    """A Tonk deal in progress. Build one with ``TonkState.deal`` or ``TonkState.from_cards``."""

    __slots__ = ()

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
            start_turn(self, False)  # the opening's events are ``opening_events``
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

    def parse_move(self, text: str) -> TonkMove:
        """Parse a move in the records notation."""
        return parse_move(text)

    # --- legality: one path (movegen and legality modules) ----------------------------------

    def legal_moves(self) -> Sequence[TonkMove]:
        """Every legal move of the seat on turn (empty when the deal is over); do not modify."""
        return legal_moves(self)

    def check(self, move: TonkMove) -> None:
        """Raise IllegalMove naming the rule unless ``move`` is legal for the seat on turn."""
        check_move(self, move)

    # --- transitions --------------------------------------------------------------------------

    def apply(self, move: TonkMove) -> Events:
        """Check ``move``, then play it for the seat on turn; returns what happened."""
        check_move(self, move)
        return play(self, move, True)

    def apply_unchecked(self, move: TonkMove) -> None:
        """Play a move the engine itself generated (search playouts), skipping the second check;
        as in Three Towers, anything taken from outside goes through ``apply``."""
        play(self, move, False)

    def apply_text(self, text: str) -> TonkMove:
        """Parse, check and apply a move written in the records notation; returns the move."""
        move = parse_move(text)
        self.apply(move)
        return move

    def sample_chance(self, rng: random.Random) -> TonkMove:
        """Tonk has no chance step after the deal: ``current_seat`` is never ``CHANCE``."""
        raise TavernError("a Tonk deal has no chance steps after the deal (T3)")

    def opening_events(self) -> Events:
        """T3/T4: the deal (each hand seen by its seat), the upcard, any win on the deal."""
        return opening_events(self)

    def returns(self) -> tuple[float, ...]:
        """T2: each seat's net gain in stakes (units over the stake); sums to zero."""
        if self.result is None:
            raise TavernError("the deal is not over")
        return tuple(x / self.stake for x in self.result.net)

    # --- hidden information -------------------------------------------------------------------

    def view(self, seat: int) -> TonkView:
        """What ``seat`` may see (see ``taverntable.games.tonk.view``)."""
        return view_of(self, seat)

    # The server's frames (issue 23): every seat's view JSON of a move, from one public part.
    history_json = staticmethod(TonkView.history_json)

    def public_json(self, history: list[list[Any]] | None = None) -> dict[str, Any]:
        """``self.view(SPECTATOR).public_json(history)``, without the view."""
        return public_json(self, history)

    def seat_json(self, public: dict[str, Any], seat: int) -> dict[str, Any]:
        """``self.view(seat).to_json()``, without the view; ``public``: ``public_json()``."""
        return seat_json(self, seat, public)

    # A view's JSON fields in order and a seat's own among them (the server's frames).
    view_fields = VIEW_FIELDS
    seat_fields = SEAT_FIELDS

    def seat_own_json(self, seat: int) -> dict[str, Any]:
        """The fields of ``self.view(seat).to_json()`` in ``seat_fields``, without the view."""
        return seat_own_json(self, seat)
