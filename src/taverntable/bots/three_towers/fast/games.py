"""Whole Three Towers games played by the heuristic bot in the kernel (``heuristic``),
its decision at an engine position, and the switch that lets the lab use them.

``heuristic_games`` plays what ``TowersState.start(rules, players, rng=rng, dealer=…)`` and
``play_out(state, [ThreeTowersHeuristicBot()] * players, rng)`` play, game after game with the
first dealer moving one seat each game: the same moves and results, ``rng`` left where the engine
leaves it (the heuristic draws nothing from it). ``decision(state)`` is the kernel's move for the
seat to decide in an engine position, as ``ThreeTowersHeuristicBot(style).choose`` makes it from
that seat's view.

Callers take this path when ``fast_bots_on()`` (``bots.tonk.fast.deals``: numba compiles the kernels
and ``TAVERNTABLE_FAST`` is not ``0``).
"""

from __future__ import annotations

import random
from typing import cast

from taverntable.bots.three_towers.fast.heuristic import STYLE_CODES, U_SIZE, decide_styled
from taverntable.bots.three_towers.fast.heuristic import heuristic_games as _heuristic_games
from taverntable.fast.jit import int_array
from taverntable.games.three_towers import TowersMove, TowersState
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.fast.play import RandomGames, move_of, play_games
from taverntable.games.three_towers.fast.state import load
from taverntable.games.three_towers.rules import TowersRules


def heuristic_games(
    rules: TowersRules,
    players: int,
    rng: random.Random,
    games: int,
    *,
    first_dealer: int = 0,
    record: bool = False,
) -> RandomGames:
    """Play ``games`` games with every seat the heuristic bot, chance steps from ``rng`` (first
    dealer ``first_dealer``, then the next seat each game); with ``record`` every step is kept
    for ``RandomGames.games``."""
    return play_games(_heuristic_games, rules, players, rng, games, first_dealer, record)


def decision(state: TowersState, style: str = "") -> TowersMove:
    """The kernel heuristic's move for ``state.decider`` (a decision, not a chance step), in the
    style ``style`` (``bots.three_towers.styles``; "" the plain heuristic)."""
    st = load(state)
    kinds, xa, xb = (int_array(k.MAX_LEGAL) for _ in range(3))
    count = k.legal_moves(st, kinds, xa, xb)
    if count == 0:
        raise ValueError(f"no decision to make in phase {state.phase!r}")
    pick = decide_styled(st, kinds, xa, xb, count, int_array(U_SIZE), STYLE_CODES[style])
    return cast(TowersMove, move_of(int(kinds[pick]), int(xa[pick]), int(xb[pick])))
