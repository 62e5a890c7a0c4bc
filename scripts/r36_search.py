"""The third towers-revised search (issue 28 item 5, R36) alone, into a folder of its own: the
lab's Optuna search (``lab/studies/towers_revised.search``), whose space is the study's
(``search_space``: R36, R14 5-8, R29 60-100, R28, R30, from ``SEARCH_FIXED``: own store hidden,
♠ jacks defend and raid). ``tavern lab run towers-revised --seed 4`` runs the same search
before its games. ``nice -n 19 python scripts/r36_search.py --folder DIR --trials N [--seed 4]``.
A stopped run resumes from its ``search.jsonl``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from taverntable.lab.core.config import StudyConfig
from taverntable.lab.studies import towers_revised as tr


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--trials", type=int, default=tr.TRIALS)
    parser.add_argument("--seed", type=int, default=4)
    a = parser.parse_args()
    config = StudyConfig(
        study="towers-revised", presets=("three-towers",), players=(2,), seed=a.seed
    )
    tr.search(
        config,
        a.folder,
        trials=a.trials,
        workers=tr.SEARCH_WORKERS,
        tell=lambda line: print(line, flush=True),
    )


if __name__ == "__main__":
    main()
