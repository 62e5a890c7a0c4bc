"""The third towers-revised search (issue 28 item 5, R36): the lab's Optuna search
(``lab/studies/towers_revised.search``) over a narrowed space, from the second preset's fixed
options. ``nice -n 19 python scripts/r36_search.py --folder DIR --trials N [--seed 4]``.

The space: R36 round_cap (none or 10 to 150 by 10), R14 max_rounds 5 to 8, R29 tower_goal 60 to
100 by 5, R28 nobility 0 to 30 by 5, R30 jokers 0 to 20 by 5; fixed at the second preset's values
(the base): own store hidden (R16), ♠ jacks defend (R32) and raid (R34). A stopped run resumes
from its ``search.jsonl``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from taverntable.lab.core.config import StudyConfig
from taverntable.lab.studies import towers_revised as tr

SEARCHED = {
    "round_cap": (0, 150, 10),
    "max_rounds": (5, 8, 1),
    "tower_goal": (60, 100, 5),
    "nobility_points": (0, 30, 5),
    "joker_points": (0, 20, 5),
}
_ALL = tr.option_space
BASE = {"own_store_visible": False, "spade_jack_defends": True, "spade_jack_raids": True}


def space(players: int = tr.PLAYERS) -> list[tr.Dimension]:
    out = []
    for d in _ALL(players):
        if d.name in SEARCHED:
            low, high, step = SEARCHED[d.name]
            out.append(tr.Dimension(d.name, d.default, low=low, high=high, step=step))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--seed", type=int, default=4)
    a = parser.parse_args()
    tr.option_space = space  # type: ignore[assignment]
    tr.STARTUP = 8
    config = StudyConfig(
        study="towers-revised", presets=("three-towers",), players=(2,), seed=a.seed, options=BASE
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
