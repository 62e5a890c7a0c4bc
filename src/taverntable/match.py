"""A match: deals one after another, each seat's running total, the deal passing on.

Every game plays a match the same way through the contract: ``Game.start`` deals, the one loop
plays the deal, ``Game.next_dealer`` says who deals next (T2, T4, R3), and a finished deal adds
``returns() × stake`` to each seat's total (Tonk: units won or lost, T2; Three Towers: points,
R14). A *deal* here is whatever one state plays (``Game.length``: a Tonk deal, a whole Three
Towers game). ``MatchLength`` says when a match is over; the terminal (``play/session.py``) keeps
a ``Match``, and the server's table (``web/tables.py``) books its deals and ends its matches with
the same ``deal_points`` and ``MatchLength``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from taverntable.engine import DealError, Game, GameState


@dataclass(frozen=True)
class Vocabulary:
    """The words for a match and its parts, defined once for every layer (the terminal here,
    the browser's ``word.*`` strings in its four languages, which a test keeps equal in
    English): Tonk plays a match of deals; Three Towers a match of games, each of rounds."""

    match: str  # the whole series: "match 2"
    deal: str  # one state of the game (``Game.length``): "deal 3", "game 1"
    part: str  # what a deal is told in: a Tonk deal, a Three Towers round


VOCABULARY: dict[str, Vocabulary] = {
    "deal": Vocabulary(match="match", deal="deal", part="deal"),
    "game": Vocabulary(match="match", deal="game", part="round"),
}


def vocabulary(game: Game) -> Vocabulary:
    """The words of ``game``'s matches (by ``Game.length``)."""
    return VOCABULARY[game.length]


@dataclass(frozen=True)
class MatchLength:
    """How long a match is: ``deals`` finished deals, or until the deal after which a seat's
    total reaches ``target``; with neither, it goes on until the players leave."""

    deals: int | None = None
    target: float | None = None

    def reached(self, finished: int, totals: Sequence[float]) -> bool:
        """Whether a match with ``finished`` deals and these totals is over."""
        if self.deals is not None and finished >= self.deals:
            return True
        return self.target is not None and any(total >= self.target for total in totals)


def deal_points(returns: Sequence[float], stake: int) -> list[float]:
    """What a finished deal adds to each seat's total: its returns times the stake (Tonk's
    returns are in stakes, T2; Three Towers plays for points, with a stake of 1)."""
    return [r * stake for r in returns]


@dataclass
class Match:
    """The deals of a match and where it stands: ``totals`` (each seat's sum of ``deal_points``),
    ``finished`` (deals booked, those of a resumed match included) and ``dealer``, who deals
    the next deal. ``deals`` are this match's states, the one being played last."""

    game: Game
    rules: Any
    num_players: int
    stake: int = 1
    dealer: int = 0
    totals: list[float] = field(default_factory=list)
    finished: int = 0
    deals: list[GameState[Any, Any]] = field(default_factory=list)
    booked: int = 0  # how many of ``deals`` are in the totals

    def __post_init__(self) -> None:
        self.game.check_players(self.rules, self.num_players)
        if not 0 <= self.dealer < self.num_players:
            raise DealError(f"dealer must be a seat 0..{self.num_players - 1}")
        if not self.totals:
            self.totals = [0.0] * self.num_players

    @property
    def current(self) -> GameState[Any, Any] | None:
        """The deal being played, if any."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1]
        return None

    def new_deal(self, rng: random.Random) -> GameState[Any, Any]:
        """Deal the next deal (``Game.start``, shuffled by ``rng``) by ``dealer``."""
        state = self.game.start(
            self.rules, self.num_players, rng=rng, dealer=self.dealer, stake=self.stake
        )
        self.take_up(state)
        return state

    def take_up(self, state: GameState[Any, Any]) -> None:
        """Go on with a deal dealt elsewhere (a saved game resumed, a stacked deck)."""
        if self.current is not None:
            raise DealError("the current deal is not over yet")
        self.deals.append(state)
        self.settle_if_over()  # a deal may end as it is dealt (T4)

    def settle_if_over(self) -> list[float] | None:
        """After a move ends the current deal: book it and pass the deal on, once; its points."""
        if self.deals and self.deals[-1].is_over and self.booked < len(self.deals):
            self.booked = len(self.deals)
            return self.book(self.deals[-1])
        return None

    def book(self, state: GameState[Any, Any]) -> list[float]:
        """A finished deal in the totals (a deal of this match, or one read back from a saved
        match), the deal passed on; its points."""
        points = deal_points(state.returns(), self.stake)
        for seat, gain in enumerate(points):
            self.totals[seat] += gain
        self.finished += 1
        self.dealer = self.game.next_dealer(state)
        return points
