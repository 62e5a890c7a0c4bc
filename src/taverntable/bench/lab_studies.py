"""The lab studies through the engine and on the fast path, interleaved in one run (issue 14).

``python -m taverntable.bench.lab_studies`` plays the same games of each study of the Tonk and
Three Towers families (its ``small`` configuration, the lab's per-game seeds) in rounds: each
round plays a batch of games with ``TAVERNTABLE_FAST=0`` (the engine) and the same batch on the
fast path, the order alternating between rounds so that a drift of the machine's load falls on
both. It prints each path's games per second of process CPU time, the ratio of the totals and
the mean of the rounds' ratios with its 95% interval (Student's t over rounds), and checks that
both paths wrote the same rows (JSON text). A study with no fast path (``tonk-deal-wins``) shows
a ratio near 1; in ``towers-options`` only the tables of the heuristic alone take the fast path
(the lab's styled bots, the raider, the builder and the treated no-redeals seats, play through
the engine).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from taverntable.fast.jit import FAST_ENV, fast_bots_on
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.seeds import game_seed
from taverntable.lab.core.stats import mean_ci95
from taverntable.lab.core.studies import STUDIES, Study, play_function


@dataclass(frozen=True, slots=True)
class StudyTiming:
    """One study's timing: CPU seconds per round of each path, games per round, and whether
    every round's rows were the same on both paths."""

    study: str
    games: int  # per round
    engine: tuple[float, ...]
    fast: tuple[float, ...]
    same_rows: bool

    def figures(self) -> dict[str, Any]:
        rounds = len(self.engine)
        engine, fast = sum(self.engine), sum(self.fast)
        mean, low, high = mean_ci95([e / f for e, f in zip(self.engine, self.fast, strict=True)])
        return {
            "study": self.study,
            "games": self.games * rounds,
            "rounds": rounds,
            "engine_games_per_s": self.games * rounds / engine,
            "fast_games_per_s": self.games * rounds / fast,
            "ratio": engine / fast,
            "ratio_mean": mean,
            "ratio_low": low,
            "ratio_high": high,
            "same_rows": self.same_rows,
        }


def lab_studies() -> list[Study]:
    """Every registered family's studies, in the registry's order."""
    return list(STUDIES.values())


def play_batch(study: Study, config: StudyConfig, indices: range, fast: bool) -> tuple[float, str]:
    """Play games ``indices`` of ``config`` on one path: the CPU seconds and the rows' JSON."""
    os.environ[FAST_ENV] = "1" if fast else "0"
    play = play_function(study)
    start = time.process_time()
    rows = [play(config, i, game_seed(config.seed, i)) for i in indices]
    elapsed = time.process_time() - start
    return elapsed, json.dumps(rows)


def time_study(study: Study, games: int, rounds: int, seed: int) -> StudyTiming:
    """Round after round, ``games`` games on each path (module docstring)."""
    config = replace(study.config("small"), seed=seed)
    play_batch(study, config, range(1), fast=True)  # compile, or load numba's cache
    engine: list[float] = []
    fast: list[float] = []
    same = True
    for r in range(rounds):
        indices = range(r * games, (r + 1) * games)
        order = (False, True) if r % 2 == 0 else (True, False)
        texts = {}
        for on in order:
            elapsed, texts[on] = play_batch(study, config, indices, on)
            (fast if on else engine).append(elapsed)
        same = same and texts[False] == texts[True]
    return StudyTiming(study.name, games, tuple(engine), tuple(fast), same)


def line(f: dict[str, Any]) -> str:
    """One study's figures as a line of text."""
    return (
        f"{f['study']:15} engine {f['engine_games_per_s']:>10,.1f} games/s  fast "
        f"{f['fast_games_per_s']:>10,.1f} games/s  ratio {f['ratio']:5.2f}x (rounds: mean "
        f"{f['ratio_mean']:.2f}x, 95% {f['ratio_low']:.2f}–{f['ratio_high']:.2f}; "
        f"{f['games']} games each path, {f['rounds']} rounds)  rows "
        + ("identical" if f["same_rows"] else "DIFFER")
    )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m taverntable.bench.lab_studies",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument(
        "--only",
        action="append",
        metavar="STUDY",
        help="time only these studies (repeat; default every study)",
    )
    p.add_argument(
        "--games",
        type=int,
        help="games per round and path (default: each study's bench_games, "
        + ", ".join(f"{s.name} {s.bench_games}" for s in lab_studies())
        + ")",
    )
    p.add_argument("--rounds", type=int, default=5, help="rounds of each path (default 5)")
    p.add_argument("--seed", type=int, default=1, help="the study seed (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    args = p.parse_args(argv)
    studies = lab_studies()
    if args.only:
        unknown = set(args.only) - {s.name for s in studies}
        if unknown:
            p.error(
                f"unknown study: {', '.join(sorted(unknown))} "
                f"(known: {', '.join(s.name for s in studies)})"
            )
        studies = [s for s in studies if s.name in args.only]
    if args.rounds < 1 or (args.games is not None and args.games < 1):
        p.error("--games and --rounds must be at least 1")
    if not fast_bots_on():
        print(
            "note: numba is not compiling the kernels: the fast path is the pure-Python fallback",
            file=sys.stderr,
        )
    saved = os.environ.get(FAST_ENV)
    report = []
    try:
        for study in studies:
            games = args.games or study.bench_games
            figures = time_study(study, games, args.rounds, args.seed).figures()
            report.append(figures)
            if not args.json:
                print(line(figures), flush=True)
    finally:
        if saved is None:
            os.environ.pop(FAST_ENV, None)
        else:
            os.environ[FAST_ENV] = saved
    if args.json:
        print(json.dumps(report))
    return 0 if all(f["same_rows"] for f in report) else 1


if __name__ == "__main__":
    sys.exit(main())
