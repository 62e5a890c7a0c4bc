"""The differential test of Three Towers' fast path: the same random games through the checking
engine and through the kernel, from the same seeds, compared step by step and result by result.

The engine side is the reference: ``TowersState.start(rules, n, rng=rng, dealer=…)`` and
``play_out(state, random_policy, rng)`` with every move checked (``apply``), as the engine's
bench plays them. The fast side is ``towers.random_games`` on a ``Random`` of the same seed.
Every step is compared, chance steps included (the seat; the move; a deal's or shuffle's deck
by its fingerprint; a Thief's stolen cards), then the result (end, winners, scores, towers per
seat, rounds).

The tables (``tables``): 2, 3 and 4 players and 4 in teams (R3, R15), each with every
combination of ``defence`` (R9), ``nobility_points`` 0 or 5 (R28), ``tower_goal`` 30 or 15
(R29) and ``own_store_visible`` (R16). Random games run long (some 11,000 moves with 3 players,
rounds of some 65 moves until a seat has three towers), so most games are played with a round
limit (``max_rounds``, R14: the lab's kind of game) and some without (games that end by towers).

``python -m taverntable.fast.towers_differential --games 100000`` runs the long comparison.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.engine import play_out, random_policy
from taverntable.games.three_towers import THREE_TOWERS, TowersRules, TowersState

from .jit import COMPILED
from .towers import RandomGames, comparable, random_games

# Games per kernel call (each recorded step takes three ints).
_BATCH = 16
_OPTIONS: dict[str, tuple[object, ...]] = {
    "defence": ("rank", "any"),
    "nobility_points": (0, 5),
    "tower_goal": (30, 15),
    "own_store_visible": (True, False),
}
# (players, teams): R3's table sizes and R15's pairs.
SEATINGS = ((2, False), (3, False), (4, False), (4, True))


@dataclass(frozen=True, slots=True)
class Table:
    """Rules and a number of players."""

    rules: TowersRules
    players: int


def tables(max_rounds: int | None = None) -> list[Table]:
    """Every seating with every combination of the options that change play."""
    names = list(_OPTIONS)
    return [
        Table(
            THREE_TOWERS.with_options(
                teams=teams, max_rounds=max_rounds, **dict(zip(names, values, strict=True))
            ),
            n,
        )
        for n, teams in SEATINGS
        for values in itertools.product(*_OPTIONS.values())
    ]


def presets_and_flips(max_rounds: int | None = None) -> list[Table]:
    """Each seating with the preset's options, and with one option changed: the short
    comparison's tables."""
    out = []
    for n, teams in SEATINGS:
        base = THREE_TOWERS.with_options(teams=teams, max_rounds=max_rounds)
        out.append(Table(base, n))
        for name, values in _OPTIONS.items():
            other = next(v for v in values if v != getattr(base, name))
            out.append(Table(base.with_options(**{name: other}), n))
    return out


@dataclass(frozen=True, slots=True)
class Comparison:
    """What one comparison found: games, moves and steps compared, the first difference."""

    games: int
    moves: int
    steps: int
    difference: str | None


def compare(table: Table, seed: int, games: int, *, checked: bool = True) -> Comparison:
    """Play ``games`` games from ``seed`` on both paths; stop at the first difference. Without
    ``checked`` the engine plays its legal moves with ``apply_unchecked`` (the same transitions
    without the second check and the events, about twice as fast: for long runs)."""
    return compare_played(table, seed, games, random_games, random_policy, checked=checked)


# A kernel's games: (rules, players, rng, games, first_dealer=, record=) -> its batch.
KernelGames = Callable[..., RandomGames]


def compare_played(
    table: Table,
    seed: int,
    games: int,
    kernel_games: KernelGames,
    players: Any,
    *,
    checked: bool = True,
    same_generator: bool = False,
) -> Comparison:
    """Play ``games`` games from ``seed`` through the engine (``play_out`` with ``players``, a
    policy or one bot a seat) and with ``kernel_games`` from a generator of the same seed;
    compare every step (the seat and the move), then each result (end, winners, scores, towers,
    rounds, moves), and with ``same_generator`` where the two left their generators; stop at the
    first difference."""
    rules, n = table.rules, table.players
    fast_rng, rng = random.Random(seed), random.Random(seed)
    moves = steps = played = 0
    while played < games:
        batch = kernel_games(
            rules, n, fast_rng, min(_BATCH, games - played), first_dealer=played % n, record=True
        )
        for game in batch.games():
            g = played
            state = TowersState.start(rules, n, rng=rng, dealer=g % n)
            made = play_out(state, players, rng, checked=checked).moves
            where = f"{rules!r}, {n} players, seed {seed}, game {g}"
            engine = tuple((seat, comparable(move)) for seat, move in state.history)
            mine = game.history or ()
            if engine != mine:
                i = next(
                    (i for i, (a, b) in enumerate(zip(engine, mine, strict=False)) if a != b),
                    min(len(engine), len(mine)),
                )
                return Comparison(
                    g,
                    moves,
                    steps,
                    f"{where}: step {i} differs (seat, move): "
                    f"engine {_step(engine, i)}, fast {_step(mine, i)}; the steps "
                    f"before: {'; '.join(map(str, engine[max(0, i - 4) : i]))}",
                )
            result = state.result
            assert result is not None
            expected = (
                result.end,
                result.winners,
                result.scores,
                result.towers,
                len(result.rounds),
                made,
            )
            got = (game.end, game.winners, game.scores, game.towers, game.rounds, game.moves)
            if expected != got:
                return Comparison(
                    g,
                    moves,
                    steps,
                    f"{where}: results differ (end, winners, "
                    f"scores, towers, rounds, moves): engine {expected}, "
                    f"fast {got}",
                )
            moves += made
            steps += len(engine)
            played += 1
    if same_generator and fast_rng.random() != rng.random():
        return Comparison(
            played,
            moves,
            steps,
            f"{rules!r}, {n} players, seed {seed}: the generators were left at different places",
        )
    return Comparison(games, moves, steps, None)


def _step(steps: Sequence[object], i: int) -> str:
    return str(steps[i]) if i < len(steps) else "(the game is over)"


def compare_many(
    table_list: Sequence[Table], games: int, seed: int, *, checked: bool = True
) -> Iterator[Comparison]:
    """About ``games`` games in all, spread evenly over the tables."""
    each = -(-games // len(table_list))
    for i, table in enumerate(table_list):
        yield compare(table, seed + i, each, checked=checked)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the long comparison over every table; exit 1 at a difference."""
    p = argparse.ArgumentParser(
        prog="python -m taverntable.fast.towers_differential",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument(
        "--games",
        type=int,
        default=100_000,
        help="games with the round limit, in all (default 100,000)",
    )
    p.add_argument(
        "--rounds", type=int, default=3, help="their round limit, max_rounds (default 3)"
    )
    p.add_argument(
        "--full",
        type=int,
        default=None,
        help="games without a round limit, played to three towers (default: 1%% of "
        "--games, at least one per table)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--unchecked",
        action="store_true",
        help="the engine applies its legal moves without the second check and the "
        "events (the same transitions, faster)",
    )
    p.add_argument(
        "--progress",
        action="store_true",
        help="a line after each table: the games and moves compared so far",
    )
    args = p.parse_args(argv)
    full = args.full if args.full is not None else max(len(tables()), args.games // 100)
    if args.games < 0 or full < 0 or args.games + full < 1:
        print(
            "--games and --full must not be negative, and one of them at least 1", file=sys.stderr
        )
        return 2
    if args.rounds < 1:
        print("--rounds must be at least 1", file=sys.stderr)
        return 2
    kind = "compiled (numba)" if COMPILED else "pure Python"
    runs = [
        (f"max_rounds {args.rounds}", args.games, args.rounds, args.seed),
        ("without a round limit", full, None, args.seed + 10_000),
    ]
    for label, games, max_rounds, seed in runs:
        if games == 0:
            continue
        start = time.perf_counter()
        played = moves = steps = 0
        for c in compare_many(tables(max_rounds), games, seed, checked=not args.unchecked):
            played += c.games
            moves += c.moves
            steps += c.steps
            if c.difference is not None:
                print(c.difference)
                return 1
            if args.progress:
                print(
                    f"  {played:,} games ({label}), {moves:,} moves: the same so far "
                    f"({time.perf_counter() - start:.0f} s)",
                    flush=True,
                )
        engine = "unchecked" if args.unchecked else "checked"
        print(
            f"{played:,} games ({label}), {moves:,} moves, {steps:,} steps with the chance "
            f"steps: the same on both paths (fast path {kind}, engine {engine}; "
            f"{time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
