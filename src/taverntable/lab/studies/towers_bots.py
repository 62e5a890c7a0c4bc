"""Bots the Three Towers lab studies name: the registry's (``hard``), a bot with settings as the
arena writes it (``heuristic:style=raider``, ``ismcts:style=builder``), the styles by their names
alone (``raider``, ``builder``, ``mixed``, ``noble``: ``bots.three_towers.styles``), and the
heuristic with a kind of action forbidden (no redeals).

The last change only the mover's choice of action (A1–A4) and otherwise play as the heuristic
(``bots.three_towers.heuristic``), so a comparison isolates that one habit. They live in the lab,
not the registry: they are measuring instruments, not opponents for people.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from taverntable.bots import make_bot
from taverntable.bots.three_towers.fast.play_out import fast_table, play_out_heuristic
from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot, decide, turn_value
from taverntable.bots.three_towers.styles import STYLES as PLAY_STYLES
from taverntable.bots.three_towers.tactics import Knowledge
from taverntable.engine import Bot, PlayedOut, play_out
from taverntable.games.three_towers import TowersMove, TowersState, TowersView
from taverntable.games.three_towers.moves import (
    RedealJacks,
    RedealJoker,
    RedealKings,
    RedealQueens,
    RedealWarriors,
)

FORBIDDEN = -1e9  # below every value the heuristic gives a legal move
NOBILITY_REDEALS = (RedealWarriors, RedealJacks, RedealQueens, RedealKings)
ALL_REDEALS = (RedealJoker, *NOBILITY_REDEALS)

Bias = Callable[[TowersMove], float]


def _no_redeals(move: TowersMove) -> float:
    return FORBIDDEN if isinstance(move, ALL_REDEALS) else 0.0


def _no_nobility_redeals(move: TowersMove) -> float:
    return FORBIDDEN if isinstance(move, NOBILITY_REDEALS) else 0.0


STYLES: dict[str, Bias] = {
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
    """A lab bot by name, a style of the heuristic by its name, a bot with settings
    (``heuristic:style=raider``), else a registry bot for Three Towers (BotError, or the arena's
    ArenaError for a bad setting)."""
    if name in STYLES:
        return StyledHeuristicBot(name, STYLES[name])
    if name in PLAY_STYLES:
        return ThreeTowersHeuristicBot(name)
    if ":" in name:
        from taverntable.lab.arena.bots import build_bot

        return build_bot(name, "three-towers")
    return make_bot(name, "three-towers")


def play_lab_out(
    state: TowersState, names: list[str], rng: random.Random, max_moves: int
) -> PlayedOut:
    """``play_out`` with the lab bots ``names`` by seat; a table of the heuristic alone, plain
    or in its styles, is played by the kernel and replayed by the engine
    (``bots.three_towers.fast.play_out``: the same game) unless ``TAVERNTABLE_FAST=0``."""
    bots = [lab_bot(name) for name in names]
    if (styles := fast_table(state, bots)) is not None:
        return play_out_heuristic(state, rng, max_moves=max_moves, checked=False, styles=styles)
    return play_out(state, bots, rng, max_moves=max_moves)
