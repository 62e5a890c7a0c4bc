"""The differential test of the Three Towers heuristic in the kernel (``heuristic``): whole
heuristic games and single decisions through the engine's Python bot and through the kernel,
from the same seeds.

- Games (``games``): ``TowersState.start(rules, n, rng=rng, dealer=…)`` and ``play_out(state,
  bots, rng)`` with every seat a ``ThreeTowersHeuristicBot`` (every move checked), against
  ``games.heuristic_games`` on a ``Random`` of the same seed: every step compared (the seat and
  the move; chance steps by the deck's fingerprint or the stolen cards), then the result (end,
  winners, scores, towers per seat, rounds, moves) and where each left its generator.
- Decisions (``positions``): positions of random games (``random_policy``: trades with jokers,
  redeals, the ♣ and dark choices and R17's passes come far more often than between heuristic
  bots). At each one the bot's ``choose(view_of(state, seat), rng)`` and the kernel's
  ``decision(state)`` must be the same move; and the kernel must make it again on a world
  sampled from that view (``sample_world``: hidden cards redealt), so it reads only what the
  seat sees.

The tables are the Three Towers kernel's (``games/three_towers/fast/differential.py``: every
option it plays at 2, 3 and 4 players and 4 in teams), the games with a round limit (R14); the
harness is ``fast/differential.py``.

``python -m taverntable.bots.three_towers.fast.differential --games 5000 --positions 200000``
runs the long comparison.
"""

from __future__ import annotations

import random
import sys

from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.engine import CHANCE, random_policy
from taverntable.fast.differential import (
    Comparison,
    Part,
    Subject,
    Table,
    decision_difference,
    main,
)
from taverntable.games.three_towers import TowersState, sample_world, view_of
from taverntable.games.three_towers.fast import differential as game

from .games import decision, heuristic_games


def compare_games(table: Table, seed: int, games: int) -> Comparison:
    """Play ``games`` heuristic games from ``seed`` on both paths (every move checked); stop at
    the first difference, and check that both left their generator at the same place."""
    bots = [ThreeTowersHeuristicBot() for _ in range(table.players)]
    return game.compare_played(table, seed, games, heuristic_games, bots, same_generator=True)


def compare_decisions(table: Table, seed: int, positions: int) -> Comparison:
    """Compare the heuristic's decision at ``positions`` positions of random games from
    ``seed`` where the seat to decide has a choice."""
    found = Comparison()
    bot = ThreeTowersHeuristicBot()
    rules, n = table.rules, table.players
    g = 0
    while found["positions"] < positions:
        rng = random.Random(seed * 7919 + g)
        state = TowersState.start(rules, n, rng=rng, dealer=g % n)
        while (seat := state.current_seat) is not None and found["positions"] < positions:
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if len(legal := state.legal_moves()) > 1:
                view = view_of(state, seat)
                mine = bot.choose(view, random.Random(0))
                fast = decision(state)
                world = decision(sample_world(view, random.Random(seed + g)))
                where = (
                    f"{rules!r}, {n} players, seed {seed}, game {g}, move "
                    f"{len(state.history)} (seat {seat}, {state.phase}, {len(legal)} "
                    "legal moves)"
                )
                differs = decision_difference(where, mine, fast, world)
                if differs is not None:
                    found.difference = differs
                    return found
                found.counts["positions"] += 1
                found.kinds[state.phase] += 1
            state.apply(random_policy(state, rng))
        g += 1
    return found


SUBJECT = Subject(
    name="Three Towers heuristic",
    module=__name__,
    presets=game.SUBJECT.presets,
    played=game.SUBJECT.played,
    seats=game.SUBJECT.seats,
    parts=(
        Part("games", "heuristic games", 5_000, compare_games, fixed={"max_rounds": game.ROUNDS}),
        Part(
            "positions",
            "decisions at random-play positions",
            100_000,
            compare_decisions,
            fixed={"max_rounds": game.ROUNDS},
        ),
    ),
)


if __name__ == "__main__":
    sys.exit(main(SUBJECT))
