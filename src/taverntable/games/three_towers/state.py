"""One Three Towers game: the state, construction, the turn flow and the refill (R3, R11, R12).

Zones hold card codes (``cards.py``) and may hold equal cards twice. Hands are kept sorted so
that equal states compare equal; the deck is a list with its top card *last* (drawing is
``pop()``); a tower lists its cards from the base ace up. ``legal_moves``, ``check`` and
``apply`` are the one path for legality: ``check`` refuses whatever ``legal_moves`` does not
list (chance steps are checked on their own) and ``apply`` always checks first.

Whose decision it is: ``mover`` is the seat whose turn it is; ``decider`` is the seat that must
decide now — the mover, a seat answering a trade, a defender, the Witch's owner, a builder
choosing bonus cards — or ``CHANCE`` (-1) when the next step is random: a round's deal, the
shuffle after a redeal, the cards a Thief steals. Chance steps are moves of seat -1 whose text
records the outcome (``sample_chance`` draws one), so a record replays identically.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import TYPE_CHECKING

from taverntable.engine import EVERYONE, DealError, Event, TavernError

from .cards import DECK_SIZE, HAND_SIZE, TEXT, full_deck
from .chance import check_chance, sample
from .legality import explain
from .movegen import generate
from .moves import Deal, Hidden, TowersMove, parse_move, redact
from .phases import CHANCE, CHANCE_PHASES, DEAL, OVER, TURN, Attack, TradeState
from .reasons import refuse
from .rules import TowersRules
from .scoring import end_round
from .transitions import play, seen_by

if TYPE_CHECKING:
    from .scoring import GameResult, RoundResult
    from .view import TowersView

__all__ = ["CHANCE", "DealError", "TowersState", "check_deck"]


class TowersState:
    """A Three Towers game in progress. Build one with ``TowersState.new`` or ``.start``."""

    __slots__ = (
        "_legal",
        "_legal_set",
        "_log",
        "attack",
        "dealer",
        "decider",
        "deck",
        "finished",
        "first_dealer",
        "hands",
        "history",
        "history_vis",
        "known",
        "marks",
        "mover",
        "nobility",
        "num_players",
        "passes",
        "phase",
        "picks",
        "result",
        "round_no",
        "round_start",
        "rounds",
        "rules",
        "scores",
        "shown",
        "stores",
        "tower_ace",
        "towers",
        "trade",
    )

    rules: TowersRules
    num_players: int
    dealer: int
    first_dealer: int  # the dealer of round 1 (records)
    round_no: int  # rounds dealt so far; the current round's number
    phase: str
    mover: int
    decider: int
    hands: list[list[int]]  # sorted
    stores: list[list[int]]
    known: list[list[int]]  # per store: the cards it got in public (R16), a part of it
    nobility: list[list[int]]  # sorted
    towers: list[list[int]]  # base ace first
    deck: list[int]  # top card last
    trade: TradeState | None
    attack: Attack | None
    picks: int  # cards chosen so far in a ♣ take or dark give (R13)
    passes: int  # consecutive passes (R17)
    shown: list[tuple[int, tuple[int, ...]]]  # hands shown under R6 this round
    finished: int  # the seat that finished a tower this round, or -1
    tower_ace: int  # that tower's base ace (its bonus, R13), or -1
    scores: list[int]
    marks: list[int]  # finished towers per seat
    rounds: list[RoundResult]
    result: GameResult | None
    history: list[tuple[int, TowersMove | Hidden]]
    history_vis: list[int]  # per entry: bit mask of the seats that saw it whole (R16)
    round_start: int  # index in ``history`` of this round's deal
    _legal: list[TowersMove] | None
    _legal_set: frozenset[TowersMove] | None
    _log: list[Event] | None  # the events of the move being applied; None on the fast path

    def __init__(self) -> None:
        raise TypeError("use TowersState.new(...) or TowersState.start(...)")

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: TowersRules, num_players: int, *, dealer: int = 0) -> TowersState:
        """A game before its first deal: the next step is the chance move ``deal``."""
        rules.check_players(num_players)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < num_players:
            raise DealError(f"dealer must be a seat 0..{num_players - 1}, not {dealer!r}")
        self = object.__new__(cls)
        n = num_players
        self.rules = rules
        self.num_players = n
        self.dealer = dealer
        self.first_dealer = dealer
        self.round_no = 0
        self.phase = DEAL
        self.mover = (dealer + 1) % n
        self.decider = CHANCE
        self.hands = [[] for _ in range(n)]
        self.stores = [[] for _ in range(n)]
        self.known = [[] for _ in range(n)]
        self.nobility = [[] for _ in range(n)]
        self.towers = [[] for _ in range(n)]
        self.deck = full_deck()
        self.trade = None
        self.attack = None
        self.picks = 0
        self.passes = 0
        self.shown = []
        self.finished = -1
        self.tower_ace = -1
        self.scores = [0] * n
        self.marks = [0] * n
        self.rounds = []
        self.result = None
        self.history = []
        self.history_vis = []
        self.round_start = 0
        self._legal = None
        self._legal_set = None
        self._log = None
        return self

    @classmethod
    def start(
        cls,
        rules: TowersRules,
        num_players: int,
        *,
        rng: random.Random | int | None = None,
        deck: Sequence[int] | None = None,
        dealer: int = 0,
    ) -> TowersState:
        """A game with its first round dealt from ``deck`` (top first) or shuffled by ``rng``."""
        state = cls.new(rules, num_players, dealer=dealer)
        if deck is None:
            r = rng if isinstance(rng, random.Random) else random.Random(rng)
            state.apply(state.sample_chance(r))
        else:
            state.apply(Deal(tuple(deck)))
        return state

    def clone(self) -> TowersState:
        """An independent copy."""
        other = object.__new__(TowersState)
        for name in TowersState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [h[:] for h in self.hands]
        other.stores = [s[:] for s in self.stores]
        other.known = [k[:] for k in self.known]
        other.nobility = [b[:] for b in self.nobility]
        other.towers = [t[:] for t in self.towers]
        other.deck = self.deck[:]
        other.trade = None if self.trade is None else self.trade.copy()
        other.shown = self.shown[:]
        other.scores = self.scores[:]
        other.marks = self.marks[:]
        other.rounds = self.rounds[:]
        other.history = self.history[:]
        other.history_vis = self.history_vis[:]
        return other

    # --- queries ------------------------------------------------------------------------------

    @property
    def current_seat(self) -> int | None:
        """The seat to decide, CHANCE (-1) for a random step, or None when the game is over."""
        return None if self.phase == OVER else self.decider

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES

    def partner(self, seat: int) -> int:
        """R15: the partner's seat, or -1 without teams."""
        return (seat + 2) % 4 if self.rules.teams else -1

    def opponents(self, seat: int) -> list[int]:
        """Every seat but this one and its partner."""
        p = self.partner(seat)
        return [s for s in range(self.num_players) if s != seat and s != p]

    def team_marks(self, seat: int) -> int:
        """R14/R15: the finished towers of a seat, with its partner's."""
        p = self.partner(seat)
        return self.marks[seat] + (self.marks[p] if p >= 0 else 0)

    def all_cards(self) -> list[int]:
        """Every card in every zone (the invariant: always the 108 cards of R1)."""
        out = [
            c
            for zone in (self.hands, self.stores, self.nobility, self.towers)
            for z in zone
            for c in z
        ]
        out += self.deck
        if self.trade is not None:
            out += [c for _, cards in self.trade.laid for c in cards]
        if self.attack is not None:
            out.append(self.attack.card)
        return out

    def parse_move(self, text: str) -> TowersMove:
        """Parse a move in the record notation."""
        return parse_move(text)

    # --- legality -----------------------------------------------------------------------------

    def legal_moves(self) -> list[TowersMove]:
        """Every legal move of the deciding seat; empty at a chance step and when over.

        At a chance step use ``sample_chance``; ``check`` accepts any outcome the rules allow.
        """
        if self._legal is None:
            self._legal = generate(self)
        return self._legal

    def check(self, move: TowersMove) -> None:
        """Raise IllegalMove naming the rule unless ``move`` is legal now."""
        if self.phase == OVER:
            raise refuse("R14", "towers.game_over")
        if self.phase in CHANCE_PHASES:
            check_chance(self, move)
            return
        if self._legal_set is None:
            self._legal_set = frozenset(self.legal_moves())
        if move not in self._legal_set:
            raise explain(self, move)

    # --- transitions --------------------------------------------------------------------------

    def apply(self, move: TowersMove) -> list[Event]:
        """Check ``move``, then play it for the deciding seat (or chance); returns what happened:
        the move as every seat may read it, then the cards it moved (``docs/contract.md``)."""
        self.check(move)
        return self.apply_known(move)

    def apply_known(self, move: TowersMove) -> list[Event]:
        """``apply`` without the check, for a move already known to be legal (the fast path's
        replay of the moves the kernel chose, ``bots.three_towers.fast.play_out``): the same
        transition and events. The legal moves are what a check costs, and the replay need not list
        them."""
        seat = self.decider
        everyone = (1 << self.num_players) - 1
        public = str(move) if seen_by(self, move) == everyone else redact(move).text
        log = self._log = [Event("move", seat, move=public)]
        try:
            self.apply_unchecked(move)
        finally:
            self._log = None
        return log

    def apply_text(self, text: str) -> TowersMove:
        """Parse, check and apply a move in the record notation; returns the move."""
        move = parse_move(text)
        self.apply(move)
        return move

    def apply_unchecked(self, move: TowersMove) -> None:
        """Play a move already known to be legal (the random player's fast path, no events)."""
        self.history.append((self.decider, move))
        self.history_vis.append(seen_by(self, move))
        self._legal = None
        self._legal_set = None
        play(self, move)

    def sample_chance(self, rng: random.Random) -> TowersMove:
        """A random outcome of the chance step now (uniform, as shuffling and stealing are)."""
        return sample(self, rng)

    def opening_events(self) -> tuple[Event, ...]:
        """Nothing: a round's deal is the chance move ``deal``, whose events ``apply`` returns."""
        return ()

    def returns(self) -> tuple[float, ...]:
        """R14: each seat's final score in points (its own; partners' are not added)."""
        if self.result is None:
            raise TavernError("the game is not over")
        return tuple(float(x) for x in self.result.scores)

    # --- pieces the transition modules share --------------------------------------------------

    @property
    def noting(self) -> bool:
        """Whether the move being applied logs events (``apply``, not ``apply_unchecked``)."""
        return self._log is not None

    def note(
        self,
        kind: str,
        seat: int | None,
        cards: Sequence[int],
        source: str,
        dest: str,
        seen: int = EVERYONE,
        data: dict[str, object] | None = None,
    ) -> None:
        """Log an event of the move being applied (nothing on the unchecked fast path)."""
        if self._log is not None:
            self._log.append(
                Event(kind, seat, tuple(TEXT[c] for c in cards), source, dest, seen, "", data)
            )

    def draw(self, seat: int, count: int) -> int:
        """Draw up to ``count`` cards from the deck; returns how many were missing."""
        deck, hand = self.deck, self.hands[seat]
        got = min(count, len(deck))
        drawn = deck[len(deck) - got :]
        del deck[len(deck) - got :]
        for c in drawn:
            insort(hand, c)
        if got and self.noting:
            # Sorted, as the hand is: the order they lay in the deck is nobody's business.
            self.note("draw", seat, sorted(drawn), "deck", f"hand:{seat}", 1 << seat)
        return count - got

    def to_store(
        self, seat: int, cards: Sequence[int], source: str, kind: str, seen: int = EVERYONE
    ) -> None:
        """Cards into a store from ``source``; ``seen`` the seats that saw which (R16)."""
        self.stores[seat].extend(cards)
        if seen == EVERYONE:
            self.known[seat].extend(cards)
        if cards:
            self.note(kind, seat, cards, source, f"store:{seat}", seen)

    def to_nobility(self, seat: int, cards: Sequence[int], source: str, kind: str) -> None:
        """Warriors into a nobility, in public (R7, R9)."""
        nobility = self.nobility[seat]
        nobility.extend(cards)
        nobility.sort()
        if cards:
            self.note(kind, seat, cards, source, f"nobility:{seat}")

    def take_from_hand(self, seat: int, cards: Sequence[int], dest: str = "") -> None:
        """Cards out of a hand; with ``dest``, laid there in public (a lead, a tower, an attack)."""
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        if dest:
            self.note("lay", seat, cards, f"hand:{seat}", dest)

    def store_seen_by(self, *seats: int) -> int:
        """The seats that see cards go face down into these seats' stores (R16: a seat sees its
        own store with ``own_store_visible``): the first seat always, the others if so."""
        mask = 1 << seats[0]
        if self.rules.own_store_visible:
            for s in seats[1:]:
                mask |= 1 << s
        return mask

    def end_turn(self) -> None:
        """R12: refill to 7 in seat order from the mover; a short deck ends the round."""
        n, mover = self.num_players, self.mover
        short = False
        for i in range(n):
            s = (mover + i) % n
            need = HAND_SIZE - len(self.hands[s])
            if need > 0 and self.draw(s, need):
                short = True
        if short:
            end_round(self)
            return
        self.mover = (mover + 1) % n
        self.decider = self.mover
        self.phase = TURN

    def deal_round(self, cards: Sequence[int]) -> None:
        """R1/R3: a new round from 108 cards (top first), 7 each, one at a time from the
        dealer's left."""
        n = self.num_players
        for zone in (self.hands, self.stores, self.known, self.nobility, self.towers):
            for z in zone:
                z.clear()
        self.deck = list(reversed(cards))
        self.round_no += 1
        self.round_start = len(self.history) - 1
        self.shown = []
        self.finished = -1
        self.tower_ace = -1
        self.passes = 0
        self.picks = 0
        self.trade = None
        self.attack = None
        first = (self.dealer + 1) % n
        for k in range(HAND_SIZE * n):
            insort(self.hands[(first + k) % n], self.deck.pop())
        if self.noting:
            for k in range(n):
                s = (first + k) % n
                self.note("deal", s, self.hands[s], "deck", f"hand:{s}", 1 << s)
        self.mover = first
        self.decider = first
        self.phase = TURN

    # --- hidden information -------------------------------------------------------------------

    @property
    def game(self) -> str:
        """The registry name of the game."""
        return "three-towers"

    def view(self, seat: int) -> TowersView:
        """What ``seat`` may see (R16; see ``view.py``)."""
        from .view import view_of

        return view_of(self, seat)


def check_deck(cards: Sequence[int]) -> None:
    """R1: a round's deck is the 108 cards, each standard card twice and four jokers."""
    if len(cards) != DECK_SIZE or sorted(cards) != sorted(full_deck()):
        raise DealError(
            f"a deck must hold the 108 cards of R1 (each card twice and 4 jokers); "
            f"this one holds {len(cards)}"
        )
