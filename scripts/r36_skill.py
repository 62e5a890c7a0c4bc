"""Skill under a rule set (issue 28 item 5's fifth target): the hard bot against the heuristic,
two players, seats alternating, the lab's move cap (``towers_revised.skill_margins``); the hard
bot's mean margin (its score less the heuristic's) with a normal 95% interval and its win
share. ``nice -n 19 python scripts/r36_skill.py --name NAME --seed 5 --games 80 [--preset P]
[--options JSON]`` prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics

from taverntable.games.three_towers import rules_from
from taverntable.lab.studies.towers_revised import skill_margins


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--name", required=True)
    p.add_argument("--preset", default="three-towers")
    p.add_argument("--options", default="{}")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--games", type=int, default=80)
    a = p.parse_args()
    rules = rules_from(a.preset, **json.loads(a.options))
    margins, wins, stalled = skill_margins(rules, a.seed, a.games)
    m = statistics.fmean(margins)
    h = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    out = {
        "name": a.name,
        "margin": [round(m, 1), round(m - h, 1), round(m + h, 1), len(margins)],
        "hard_wins": [wins, len(margins)],
        "stalled": stalled,
    }
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
