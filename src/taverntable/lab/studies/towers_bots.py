"""Bots the Three Towers lab studies need and the bot registry does not offer: the heuristic with a
style (a raider, a builder) or with a kind of action forbidden (no redeals).

They change only the mover's choice of action (A1–A4) and otherwise play as the heuristic
(``bots.three_towers.heuristic``), so a comparison isolates that one habit. They live in the lab,
not the registry: they are measuring instruments, not opponents for people.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from taverntable.bots import make_bot
from taverntable.bots.three_towers.fast.play_out import fast_table, play_out_heuristic
from taverntable.bots.three_towers.heuristic import decide, turn_value
from taverntable.bots.three_towers.tactics import Knowledge
from taverntable.engine import Bot, PlayedOut, play_out
from taverntable.games.three_towers import TowersMove, TowersState, TowersView
from taverntable.games.three_towers.moves import (
    Add,
    Build,
    Raid,
    RedealJacks,
    RedealJoker,
    RedealKings,
    RedealQueens,
    RedealWarriors,
)

FORBIDDEN = -1e9  # below every value the heuristic gives a legal move
RAID_URGE = 30.0  # a raider raids whenever a raid is not plainly a loss
NOBILITY_REDEALS = (RedealWarriors, RedealJacks, RedealQueens, RedealKings)
ALL_REDEALS = (RedealJoker, *NOBILITY_REDEALS)

Bias = Callable[[TowersMove], float]


def _raider(move: TowersMove) -> float:
    # "Easier to plunder the enemy's tower and build nothing oneself" (Part A, play-testers).
    if isinstance(move, Build | Add):
        return FORBIDDEN
    return RAID_URGE if isinstance(move, Raid) else 0.0


def _builder(move: TowersMove) -> float:
    return FORBIDDEN if isinstance(move, Raid) else 0.0


def _no_redeals(move: TowersMove) -> float:
    return FORBIDDEN if isinstance(move, ALL_REDEALS) else 0.0


def _no_nobility_redeals(move: TowersMove) -> float:
    return FORBIDDEN if isinstance(move, NOBILITY_REDEALS) else 0.0


STYLES: dict[str, Bias] = {
    "raider": _raider,
    "builder": _builder,
    "no-redeals": _no_redeals,
    "no-nobility-redeals": _no_nobility_redeals,
}


class StyledHeuristicBot:
    """The heuristic, with ``bias`` added to the value of each of the mover's actions."""

    def __init__(self, name: str, bias: Bias) -> None:
        self.name = name
        self._bias = bias

    def choose(self, view: TowersView, rng: random.Random) -> TowersMove:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        if view.phase != "turn":
            move = decide(view)
            return move if move in legal else rng.choice(legal)
        know = Knowledge.of(view)
        # max keeps the first of equals, as the heuristic's own turn() does: play repeats.
        return max(legal, key=lambda m: turn_value(know, m) + self._bias(m))


def lab_bot(name: str) -> Bot:
    """A lab style by name, else a registry bot for Three Towers (BotError if neither)."""
    if name in STYLES:
        return StyledHeuristicBot(name, STYLES[name])
    return make_bot(name, "three-towers")


def play_lab_out(
    state: TowersState, names: list[str], rng: random.Random, max_moves: int
) -> PlayedOut:
    """``play_out`` with the lab bots ``names`` by seat; a table of the heuristic alone is
    played by the kernel and replayed by the engine (``bots.three_towers.fast.play_out``: the same
    game) unless ``TAVERNTABLE_FAST=0``."""
    bots = [lab_bot(name) for name in names]
    if fast_table(state, bots):
        return play_out_heuristic(state, rng, max_moves=max_moves, checked=False)
    return play_out(state, bots, rng, max_moves=max_moves)
