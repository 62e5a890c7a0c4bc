"""``tavern bench``: the engine's speed (random legal games per game of the registry,
``random_play``), then each game family's (``Game.benches``: ``bench/tonk/``,
``bench/three_towers/``: the fast path's beside the engine's, the plain-Python yardstick, the
ISMCTS search's simulations per second), one bench after the other, each for
``--seconds`` of CPU time. A fast-path bench run with the engine's bench of the same game (and the
yardstick) also reports the ratio of their moves per second, measured in the same run."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from taverntable.extras import install_hint
from taverntable.games import all_games
from taverntable.plugins.lab import BenchKit

from .peers import add_peer_ratios, peer_benches, ratio_key
from .random_play import random_play_benches
from .timing import SLICE, Bench

# Each family's bench kit (``Game.benches``), once however many of its games the registry has.
KITS: list[BenchKit] = list(
    {game.benches.path: game.benches.load() for game in all_games() if game.benches}.values()
)
BENCHES: dict[str, Bench] = {
    **random_play_benches(),
    **{name: bench for kit in KITS for name, bench in kit.benches().items()},
    **peer_benches(),
}
FAST_PREFIX = "fast-"
# Each search bench's baselines (``SearchBench.ratio_to``), by name.
SEARCH_RATIOS: dict[str, tuple[str, ...]] = {
    spec.name: spec.ratio_to for kit in KITS for spec in kit.searches if spec.ratio_to
}
# The benches a peer's moves per second are compared with (``peers.add_peer_ratios``).
PEER_YARDSTICKS = tuple(name for kit in KITS for name in kit.peer_yardsticks)
# A search bench's ratio to a baseline is kept under this prefix and the baseline's name.
RATIO_PREFIX = "ratio:"
# Every line's name is padded to the longest, so that the figures stand in columns.
NAME_WIDTH = max(map(len, BENCHES))


def add_parser(subparsers: Any) -> None:
    """Register ``tavern bench``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "bench",
        help="measure engine speed: random legal games per second, per game",
        description="Measure the engine's speed on one core: random legal games through the "
        "full rule-checking engine (games/s and moves/s for each game), the same games on the "
        "fast path (fast-NAME, compiled by numba where installed) beside a plain-Python "
        "yardstick (draws and discards on bit masks, no rules), the ISMCTS search "
        "(simulations/s), and OpenSpiel's crazy_eights and gin_rummy played at random through "
        "pyspiel as peers (with the rl extra). Each bench runs for --seconds of CPU "
        "time, one after the other, so all of them take about "
        f"{len(BENCHES)} × --seconds. Benches: {', '.join(BENCHES)}.",
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=3.0,
        help="CPU seconds for each bench, not in all (default 3)",
    )
    p.add_argument(
        "--players",
        type=int,
        default=3,
        help="players per game, brought within each game's own range (default 3)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--only",
        action="append",
        metavar="NAME[,NAME...]",
        help="run only these benches (comma-separated or repeated)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def chosen_benches(only: list[str] | None) -> list[str]:
    """The benches --only names (commas or repeats), in the table's order; ValueError for an
    unknown name."""
    if not only:
        return list(BENCHES)
    names = {name.strip() for text in only for name in text.split(",") if name.strip()}
    unknown = sorted(names - set(BENCHES))
    if unknown:
        raise ValueError(
            f"unknown bench {', '.join(map(repr, unknown))} (known: {', '.join(BENCHES)})"
        )
    if not names:
        raise ValueError(f"--only names no bench (known: {', '.join(BENCHES)})")
    return [name for name in BENCHES if name in names]


def run(args: argparse.Namespace) -> int:
    """Run the benches and print the figures."""
    # A NaN compares false with everything and an infinite budget never runs out: both hang.
    if not (math.isfinite(args.seconds) and args.seconds > 0):
        print(
            f"tavern bench: --seconds must be a positive number of CPU seconds, not {args.seconds}",
            file=sys.stderr,
        )
        return 2
    low = min(game.min_players for game in all_games())
    high = max(game.max_players for game in all_games())
    if not low <= args.players <= high:
        print(
            f"tavern bench: --players must be {low}..{high} (no game seats more or fewer)",
            file=sys.stderr,
        )
        return 2
    try:
        names = chosen_benches(args.only)
    except ValueError as e:
        print(f"tavern bench: {e}", file=sys.stderr)
        return 2
    report: dict[str, dict[str, float]] = {}
    for name in names:
        report[name] = BENCHES[name](args.seconds, args.players, args.seed)
        add_ratios(name, report)
        add_peer_ratios(name, report, PEER_YARDSTICKS)
        if not args.json:
            print(figures_line(name, report[name]))
    if args.json:
        print(json.dumps(report))
    return 0


def add_ratios(name: str, report: dict[str, dict[str, float]]) -> None:
    """A fast-path bench's moves/s over the engine's for the same game (``engine_ratio``) and
    over the yardstick's (``yardstick_ratio``), and a search bench's sims/s over each of its
    baselines' (``ratio:NAME``), when those ran before it in this run."""
    for other in SEARCH_RATIOS.get(name, ()):
        if other in report:
            report[name][RATIO_PREFIX + other] = (
                report[name]["sims_per_s"] / report[other]["sims_per_s"]
            )
    if not name.startswith(FAST_PREFIX):
        return
    figures = report[name]
    for key, other in (
        ("engine_ratio", name.removeprefix(FAST_PREFIX)),
        ("yardstick_ratio", "yardstick"),
    ):
        if other in report:
            figures[key] = figures["moves_per_s"] / report[other]["moves_per_s"]


def figures_line(name: str, figures: dict[str, float]) -> str:
    """One bench's figures as a line of text."""
    players = f"{figures['players']:.0f} players, one core"
    if "unavailable" in figures:
        return f"{name:{NAME_WIDTH}} not run: pyspiel is not installed ({install_hint('rl')})"
    if "decisions_per_s" in figures:
        ratios = [
            f"{what} {figures[ratio_key(what)]:.2f}x it"
            for what in PEER_YARDSTICKS
            if ratio_key(what) in figures
        ]
        return (
            f"{name:{NAME_WIDTH}} {figures['games_per_s']:>10,.0f} games/s "
            f"{figures['moves_per_s']:>10,.0f} transitions/s "
            f"({figures['decisions_per_s']:,.0f} decisions/s, "
            f"{figures['moves_per_game']:.1f} transitions/game, {players})"
            + (f"; {', '.join(ratios)}" if ratios else "")
        )
    if "sims_per_s" in figures:
        ratios = [
            f"{value:.1f}x {key.removeprefix(RATIO_PREFIX)}"
            for key, value in figures.items()
            if key.startswith(RATIO_PREFIX)
        ]
        return (
            f"{name:{NAME_WIDTH}} {figures['sims_per_s']:>10,.0f} sims/s "
            f"{figures['searches_per_s']:>10,.1f} searches/s "
            f"({figures['iterations_per_search']:.0f} iterations/search, {players})"
            + (f"; {', '.join(ratios)}" if ratios else "")
        )
    if "rounds_per_game" in figures:
        line = (
            f"{name:{NAME_WIDTH}} {figures['games_per_s']:>10,.1f} games/s "
            f"{figures['moves_per_s']:>10,.0f} moves/s "
            f"({figures['rounds_per_game']:.1f} rounds/game, "
            f"{figures['moves_per_game']:.0f} moves/game, {players})"
        )
    else:
        line = (
            f"{name:{NAME_WIDTH}} {figures['games_per_s']:>10,.0f} games/s "
            f"{figures['moves_per_s']:>10,.0f} moves/s "
            f"({figures['moves_per_game']:.1f} moves/game, {players}; "
            f"fastest {SLICE} s: {figures['best_moves_per_s']:,.0f} moves/s)"
        )
    if "compiled" in figures:
        line += " compiled" if figures["compiled"] else " pure Python (no numba)"
    ratios = [
        f"{figures[key]:.1f}x the {what}"
        for key, what in (("engine_ratio", "engine"), ("yardstick_ratio", "yardstick"))
        if key in figures
    ]
    return line + (f"; {', '.join(ratios)}" if ratios else "")
