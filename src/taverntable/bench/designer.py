"""The designer's study (issue 28 item 7), timed by kind of variant and projected to its full
size: ``python -m taverntable.bench.designer``.

Each variant of ``towers_designer.VARIANTS`` plays a few of its own games (the lab's play
function, its indices and seeds: the games the full study plays first), timed in process CPU
seconds on the path the lab takes (the kernel for the heuristic and its styles where numba
compiled it; the hard bot's search in Python with the kernel's playouts). The variants are
grouped by kind (heuristic, styled heuristic, hard bot) and table size, and the full study's
CPU time is projected as each variant's planned games (``planned_games``: 1,000 a heuristic
variant, 1,000 / ``every`` a hard one) times its CPU seconds a game, over the cores given: a
projection for a quiet machine (a loaded one shares its cores), however many variants the
table holds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.bots.three_towers.styles import STYLES
from taverntable.lab.core.seeds import game_seed
from taverntable.lab.core.studies import get_study
from taverntable.lab.studies.towers_designer import VARIANTS, planned_games, play, sits_out
from taverntable.lab.studies.towers_options import Variant


def kind_of(variant: Variant) -> str:
    """``hard``, ``styled`` or ``heuristic``, and the table size: ``hard 2p``."""
    bots = variant.bots
    if any(b == "hard" or b.startswith("ismcts") for b in bots):
        kind = "hard"
    elif any(b in STYLES or "style=" in b for b in bots):
        kind = "styled"
    else:
        kind = "heuristic"
    return f"{kind} {variant.players}p"


@dataclass(frozen=True, slots=True)
class VariantTiming:
    name: str
    kind: str
    games: int  # timed
    seconds: float  # CPU seconds for them
    planned: int  # games in the full study

    @property
    def per_game(self) -> float:
        return self.seconds / self.games


def time_variants(names: Sequence[str], games: int, hard_games: int) -> list[VariantTiming]:
    """Each variant's first ``games`` played games (``hard_games`` for the hard bot's) of the
    full study, timed."""
    study = get_study("designer")
    config = study.config("full")
    planned = planned_games(config)
    n = len(config.variants)
    out = []
    for name in names:
        k = config.variants.index(name)
        variant = VARIANTS[name]
        kind = kind_of(variant)
        want = hard_games if kind.startswith("hard") else games
        indices = [i for i in range(k, config.games, n) if not sits_out(config, i)][:want]
        play(config, indices[0], game_seed(config.seed, indices[0]))  # compiled, warmed
        start = time.process_time()
        for i in indices:
            play(config, i, game_seed(config.seed, i))
        out.append(
            VariantTiming(name, kind, len(indices), time.process_time() - start, planned[name])
        )
    return out


def figures(timings: Sequence[VariantTiming], cores: int) -> dict[str, Any]:
    """Games per CPU second by kind and the projected full study."""
    kinds: dict[str, dict[str, float]] = {}
    for t in timings:
        k = kinds.setdefault(t.kind, {"games": 0, "seconds": 0.0, "planned": 0, "projected": 0.0})
        k["games"] += t.games
        k["seconds"] += t.seconds
        k["planned"] += t.planned
        k["projected"] += t.planned * t.per_game
    for k in kinds.values():
        k["games_per_cpu_s"] = k["games"] / k["seconds"]
    cpu = sum(k["projected"] for k in kinds.values())
    return {
        "variants": len(timings),
        "kinds": kinds,
        "full_games": sum(t.planned for t in timings),
        "projected_cpu_s": cpu,
        "cores": cores,
        "projected_wall_s": cpu / cores,
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m taverntable.bench.designer",
        description="the designer study's games per CPU second by kind, and its full size's "
        "CPU time projected for a quiet machine",
    )
    p.add_argument("--games", type=int, default=40, help="games timed per heuristic variant")
    p.add_argument("--hard-games", type=int, default=4, help="games timed per hard variant")
    p.add_argument("--cores", type=int, default=2, help="cores of the projection (default 2)")
    p.add_argument("--variant", action="append", help="only these variants (repeatable)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    names = args.variant or list(VARIANTS)
    unknown = [n for n in names if n not in VARIANTS]
    if unknown or args.games < 1 or args.hard_games < 1 or args.cores < 1:
        print(f"unknown variants {unknown} or counts below 1", file=sys.stderr)
        return 2
    timings = time_variants(names, args.games, args.hard_games)
    found = figures(timings, args.cores)
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    for t in timings:
        print(f"{t.name:44} {t.kind:14} {1000 * t.per_game:8.1f} ms a game ({t.games} timed)")
    print()
    for kind, k in sorted(found["kinds"].items()):
        print(
            f"{kind:14} {k['games_per_cpu_s']:8.1f} games per CPU s; full study "
            f"{int(k['planned']):,} games, {k['projected']:,.0f} CPU s"
        )
    print(
        f"full study: {found['variants']} variants, {found['full_games']:,} games, "
        f"{found['projected_cpu_s']:,.0f} CPU s: {found['projected_wall_s'] / 60:.1f} min on "
        f"{args.cores} quiet cores (a projection)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
