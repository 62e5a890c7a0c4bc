"""A Three Towers position as data: every zone, whose decision it is, the scores (R1–R3, R16).

This module is the bottom of the state's layers. The rules read and change a position through
the modules above it (``movegen``, ``legality`` and ``chance`` read it; ``transitions`` and the
modules it calls change it and return the events they cause; ``view`` filters it), and
``state.TowersState`` adds the contract's calls on top. Nothing here imports them.

Zones hold card codes (``cards.py``) and may hold equal cards twice. Hands are kept sorted so
that equal states compare equal; the deck is a list with its top card *last* (drawing is
``pop()``); a tower lists its cards from the base ace up.

Whose decision it is: ``mover`` is the seat whose turn it is; ``decider`` is the seat that must
decide now — the mover, a seat answering a trade, a defender, the Witch's owner, a builder
choosing bonus cards — or ``CHANCE`` (-1) when the next step is random: a round's deal, the
shuffle after a redeal, the cards a Thief steals.
"""

from __future__ import annotations

from typing import Self

from taverntable.engine import DealError

from .cards import full_deck
from .moves import Hidden, TowersMove
from .phases import CHANCE, CHANCE_PHASES, DEAL, OVER, Attack, TradeState
from .results import GameResult, RoundResult
from .rules import TowersRules


class TowersPosition:
    """The data of a Three Towers game; ``TowersState`` (``state.py``) is the one to play."""

    __slots__ = (
        "_legal",
        "_legal_set",
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
    # The deciding seat's legal moves (``movegen.legal_moves``) and their set (``check``),
    # computed once per position: every move clears them.
    _legal: list[TowersMove] | None
    _legal_set: frozenset[TowersMove] | None

    def __init__(self) -> None:
        raise TypeError("use TowersState.new(...) or TowersState.start(...)")

    @classmethod
    def new(cls, rules: TowersRules, num_players: int, *, dealer: int = 0) -> Self:
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
        self.deck = full_deck(rules.decks)
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
        return self

    def clone(self) -> Self:
        """An independent copy."""
        other = object.__new__(type(self))
        for name in TowersPosition.__slots__:
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
    def game(self) -> str:
        """The registry name of the game."""
        return "three-towers"

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

    def store_seen_by(self, *seats: int) -> int:
        """The seats that see cards go face down into these seats' stores (R16: a seat sees its
        own store with ``own_store_visible``): the first seat always, the others if so."""
        mask = 1 << seats[0]
        if self.rules.own_store_visible:
            for s in seats[1:]:
                mask |= 1 << s
        return mask

    def all_cards(self) -> list[int]:
        """Every card in every zone (the invariant: always the 108 cards of R1, R35's 162)."""
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
