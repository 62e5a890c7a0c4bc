"""The differential test of the Three Towers heuristic in the kernel (``towers_heuristic``):
whole heuristic games and single decisions through the engine's Python bot and through the
kernel, from the same seeds.

- Games: ``TowersState.start(rules, n, rng=rng, dealer=…)`` and ``play_out(state, bots, rng)``
  with every seat a ``ThreeTowersHeuristicBot`` (every move checked), against
  ``towers_bots.heuristic_games`` on a ``Random`` of the same seed: every step compared (the
  seat and the move; chance steps by the deck's fingerprint or the stolen cards), then the result
  (end, winners, scores, towers per seat, rounds, moves) and where each left its generator.
- Decisions: positions of random games (``random_policy``: trades with jokers, redeals, the ♣
  and dark choices and R17's passes come far more often than between heuristic bots). At each
  one the bot's ``choose(view_of(state, seat), rng)`` and the kernel's ``decision(state)`` must
  be the same move; and the kernel must make it again on a world sampled from that view
  (``sample_world``: hidden cards redealt), so it reads only what the seat sees.

The tables are ``towers_differential``'s: 2, 3 and 4 players and 4 in teams (R3, R15) with
every combination of ``defence`` (R9), ``nobility_points`` (R28), ``tower_goal`` (R29) and
``own_store_visible`` (R16), the games with a round limit (R14).

``python -m taverntable.fast.towers_bots_differential --games 5000 --positions 200000`` runs the
long comparison.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.engine import CHANCE, random_policy
from taverntable.games.three_towers import TowersState, sample_world, view_of

from .differential import decision_difference
from .jit import COMPILED
from .towers_bots import decision, heuristic_games
from .towers_differential import Comparison, Table, compare_played, presets_and_flips, tables


def compare_games(table: Table, seed: int, games: int) -> Comparison:
    """Play ``games`` heuristic games from ``seed`` on both paths (every move checked); stop at
    the first difference, and check that both left their generator at the same place."""
    bots = [ThreeTowersHeuristicBot() for _ in range(table.players)]
    return compare_played(table, seed, games, heuristic_games, bots, same_generator=True)


@dataclass(slots=True)
class DecisionComparison:
    """Positions compared, the moves by phase, and the first difference if any."""

    positions: int = 0
    phases: Counter[str] = field(default_factory=Counter)
    difference: str | None = None


def compare_decisions(
    table: Table, seed: int, games: int, into: DecisionComparison | None = None
) -> DecisionComparison:
    """Compare the heuristic's decision at every position of ``games`` random games from
    ``seed`` where the seat to decide has a choice."""
    found = into if into is not None else DecisionComparison()
    bot = ThreeTowersHeuristicBot()
    rules, n = table.rules, table.players
    for g in range(games):
        rng = random.Random(seed * 7919 + g)
        state = TowersState.start(rules, n, rng=rng, dealer=g % n)
        while (seat := state.current_seat) is not None:
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
                found.positions += 1
                found.phases[state.phase] += 1
            state.apply(random_policy(state, rng))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the long comparison over every table; exit 1 at a difference."""
    p = argparse.ArgumentParser(
        prog="python -m taverntable.fast.towers_bots_differential",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument(
        "--games",
        type=int,
        default=5_000,
        help="heuristic games to compare, in all (default 5,000)",
    )
    p.add_argument(
        "--rounds", type=int, default=3, help="their round limit, max_rounds (default 3)"
    )
    p.add_argument(
        "--positions",
        type=int,
        default=100_000,
        help="decisions at positions of random play to compare, about (default 100,000)",
    )
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.games < 0 or args.positions < 0 or args.rounds < 1:
        print("--games and --positions must not be negative, --rounds at least 1", file=sys.stderr)
        return 2
    start = time.perf_counter()
    every = tables(args.rounds)
    played = moves = 0
    each = -(-args.games // len(every)) if args.games else 0
    for i, table in enumerate(every if each else []):
        c = compare_games(table, args.seed + i, each)
        played, moves = played + c.games, moves + c.moves
        if c.difference is not None:
            print(c.difference)
            return 1
    found = DecisionComparison()
    round_ = 0
    while found.positions < args.positions:
        for i, table in enumerate(every):
            compare_decisions(table, args.seed + 1000 * round_ + i, 1, found)
            if found.difference is not None:
                print(found.difference)
                return 1
            if found.positions >= args.positions:
                break
        round_ += 1
    kind = "compiled (numba)" if COMPILED else "pure Python"
    phases = ", ".join(f"{name} {count:,}" for name, count in sorted(found.phases.items()))
    print(
        f"{played:,} heuristic games ({moves:,} moves, max_rounds {args.rounds}) and "
        f"{found.positions:,} decisions at random-play positions ({phases}): the same on both "
        f"paths (fast path {kind}; {time.perf_counter() - start:.0f} s)"
    )
    return 0


def short_tables(max_rounds: int) -> list[Table]:
    """The CI comparison's tables: each seating with the preset and one option changed."""
    return presets_and_flips(max_rounds)


if __name__ == "__main__":
    sys.exit(main())
