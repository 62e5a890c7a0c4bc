"""Playing styles of the Three Towers bots: a bias added to the heuristic's worth of each action.

The play-testers (rules text, Part A) found it "easier to plunder the enemy's tower and build
nothing oneself". To measure that claim the bots can play in a *style*: the heuristic's value
of each of the mover's actions (A1-A4, ``heuristic.turn_value``) plus the style's bias, so a
style changes only which action a seat takes on its turn, never how it answers, defends or
chooses a bonus. A style is a bot setting: ``heuristic:style=raider`` in ``tavern arena`` and
the lab, ``ismcts:style=raider`` for the hard bot (the search compares only the moves the style
allows, anchored on the styled heuristic's move; its playouts play the plain heuristic).

- ``builder``: never raids; builds as the heuristic does.
- ``raider``: never starts or adds to a tower; raids whenever a raid is not plainly a loss.
- ``mixed``: mostly raids: raids as the raider does, but starts a tower when nothing else is
  worth much (building is valued ``MIXED_BUILD_DAMP`` points lower) and finishes one it has.
- ``noble``: plays toward R28's nobility points: never spends its nobility on a redeal, and a
  raid (whose warrior comes back into the nobility when it goes through, R9) is worth the
  option's points more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from taverntable.games.three_towers import TowersMove, TowersView
from taverntable.games.three_towers.moves import (
    Add,
    Build,
    Raid,
    RedealJacks,
    RedealKings,
    RedealQueens,
    RedealWarriors,
)

FORBIDDEN = -1e9  # below every value the heuristic gives a legal move
RAID_URGE = 30.0  # a raider raids whenever a raid is not plainly a loss
MIXED_BUILD_DAMP = 20.0  # a mixed seat builds only when its other actions are worth little
NOBILITY_REDEALS = (RedealWarriors, RedealJacks, RedealQueens, RedealKings)
FINISHING = 500.0  # the heuristic values a finishing card near 1,000 (``heuristic.FINISH``)

Bias = Callable[[TowersView, TowersMove, float], float]  # view, move, its heuristic value


def _builder(view: TowersView, move: TowersMove, value: float) -> float:
    return FORBIDDEN if isinstance(move, Raid) else 0.0


def _raider(view: TowersView, move: TowersMove, value: float) -> float:
    if isinstance(move, Build | Add):
        return FORBIDDEN
    return RAID_URGE if isinstance(move, Raid) else 0.0


def _mixed(view: TowersView, move: TowersMove, value: float) -> float:
    if isinstance(move, Raid):
        return RAID_URGE
    if isinstance(move, Build | Add) and value < FINISHING:
        return -MIXED_BUILD_DAMP
    return 0.0


def _noble(view: TowersView, move: TowersMove, value: float) -> float:
    if isinstance(move, NOBILITY_REDEALS):
        return FORBIDDEN
    if isinstance(move, Raid):
        return float(view.rules.nobility_points)
    return 0.0


@dataclass(frozen=True, slots=True)
class Style:
    """A named style: its bias and a line for people."""

    name: str
    bias: Bias
    words: str


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("builder", _builder, "builds, never raids"),
        Style("raider", _raider, "raids, never builds"),
        Style("mixed", _mixed, "mostly raids, builds when nothing else is worth much"),
        Style("noble", _noble, "keeps its nobility (R28), raids for warriors"),
    )
}


def check_style(style: str) -> str:
    """``style`` if it is one ("" is the plain heuristic); ValueError naming the styles."""
    if style and style not in STYLES:
        raise ValueError(f"unknown style {style!r} (styles: {', '.join(STYLES)})")
    return style


def allowed(style: str, view: TowersView, move: TowersMove, value: float) -> bool:
    """Whether ``style`` ever plays ``move`` on its turn."""
    return not style or STYLES[style].bias(view, move, value) > FORBIDDEN / 2


def styled_values(
    style: str, view: TowersView, values: dict[TowersMove, float]
) -> dict[TowersMove, float]:
    """The heuristic's values of the mover's actions with the style's bias added."""
    if not style:
        return values
    bias = STYLES[style].bias
    return {m: v + bias(view, m, v) for m, v in values.items()}
