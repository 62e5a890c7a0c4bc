"""Play a slice of the designer study (`tavern lab run designer --size full`) game by game.

The slice: the first ``--hard`` games of each hard variant and the first ``--heuristic`` games
of each heuristic or styled one, at the full study's game indices and seeds (so its rows are
the full run's rows for those games). ``--rows FILE`` writes each game's row as a JSON line
(sorted keys: two runs' files compare with ``cmp``); ``--timing`` prints the process CPU
seconds a game by kind (``time.process_time``, after one warm-up game of each kind, which
also lets numba load or compile its kernels) and the full study projected from them.

    PYTHONPATH=src nice -n 19 python scripts/designer_slice.py --rows /tmp/rows.jsonl --timing

Compare timings only side by side (two runs started together): the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from taverntable.lab.core.seeds import game_seed
from taverntable.lab.core.studies import get_study
from taverntable.lab.studies.towers_designer import HARD, VARIANTS, play

FULL_PASSES = 1000  # the full study's passes through the variants


def is_hard(name: str) -> bool:
    """Whether a variant seats the hard bot (``towers_designer.play``'s test)."""
    return any(b == HARD or b.startswith("ismcts") for b in VARIANTS[name].bots)


def slice_indices(variants: tuple[str, ...], hard: int, heuristic: int) -> list[tuple[int, str]]:
    """(game index, variant) of the slice, in index order: a variant at position k plays at
    indices pass * len(variants) + k, the hard ones on every ``every``-th pass."""
    n = len(variants)
    out = []
    for k, name in enumerate(variants):
        every = VARIANTS[name].every
        first = hard if is_hard(name) else heuristic
        out += [((p * every) * n + k, name) for p in range(first)]
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hard", type=int, default=2, help="games a hard variant (default 2)")
    parser.add_argument("--heuristic", type=int, default=10, help="games a heuristic variant")
    parser.add_argument("--rows", type=Path, help="write the rows here, one JSON line a game")
    parser.add_argument("--timing", action="store_true", help="CPU s a game by kind")
    args = parser.parse_args(argv)
    if args.hard < 0 or args.heuristic < 0:
        print("designer_slice: --hard and --heuristic must be 0 or more", file=sys.stderr)
        return 2
    config = get_study("designer").config("full")
    if config.games != FULL_PASSES * len(config.variants):
        print(f"designer_slice: the full study has {config.games} games", file=sys.stderr)
        return 2
    games = slice_indices(config.variants, args.hard, args.heuristic)
    if args.timing:  # one game of each kind first: numba's kernels loaded, caches warm
        for kind in (True, False):
            index = next((i for i, name in games if is_hard(name) is kind), None)
            if index is not None:  # ``--hard 0`` or ``--heuristic 0``: none of that kind
                play(config, index, game_seed(config.seed, index))
    cpu = {True: 0.0, False: 0.0}
    count = {True: 0, False: 0}
    out = args.rows.open("w") if args.rows else None
    for index, name in games:
        start = time.process_time()
        row, _ = play(config, index, game_seed(config.seed, index))
        cpu[is_hard(name)] += time.process_time() - start
        count[is_hard(name)] += 1
        if out is not None:
            out.write(json.dumps({"index": index, **row}, sort_keys=True) + "\n")
    if out is not None:
        out.close()
    if args.timing:
        hard = cpu[True] / max(1, count[True])
        heur = cpu[False] / max(1, count[False])
        full_hard = sum(FULL_PASSES // VARIANTS[v].every for v in config.variants if is_hard(v))
        full_heur = sum(FULL_PASSES for v in config.variants if not is_hard(v))
        total = hard * full_hard + heur * full_heur
        print(
            f"hard: {count[True]} games, {hard:.3f} CPU s a game; heuristic: {count[False]} "
            f"games, {heur * 1000:.1f} CPU ms a game; full study ({full_hard:,} hard, "
            f"{full_heur:,} heuristic games): {hard * full_hard:,.0f} + {heur * full_heur:,.0f}"
            f" = {total:,.0f} CPU s, {total / 2 / 60:.1f} min on 2 cores"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
