"""How rounds and games of Three Towers end, as data (R13, R14): the records' ``result``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .cards import TEXT

EndKind = Literal["towers", "rounds"]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round's count: each seat's round points, the finished tower, the stores counted."""

    points: tuple[int, ...]
    builder: int  # the seat that finished a tower, or -1
    tower: int  # the finished tower's base ace, or -1
    stores: tuple[tuple[int, ...], ...]  # turned face up for the count (R19)

    def to_json(self) -> dict[str, Any]:
        tower = None if self.builder < 0 else [self.builder, TEXT[self.tower]]
        return {"points": list(self.points), "tower": tower}


@dataclass(frozen=True, slots=True)
class GameResult:
    """The game's end: why, the winners, final scores and finished towers per seat."""

    end: EndKind
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    towers: tuple[int, ...]
    rounds: tuple[RoundResult, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``result`` object of the records spec."""
        return {
            "end": self.end,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "towers": list(self.towers),
            "rounds": [r.to_json() for r in self.rounds],
        }
