"""Fresh-seed measurement of rule sets for the towers-revised verdict (issue 28 item 5, R36):
``towers_revised.measure_rules``' games (the lab's own functions on the same seeds: rounds and
the first seat's edge from a kernel batch of heuristic games, one round from engine games, each
style pairing with seats alternating) with their counts and 95% intervals (Wilson for shares,
normal for the mean).
``nice -n 19 python scripts/r36_measure.py --name NAME --seed 5 --games 800 --round-games 600
--style-games 200 [--options JSON]`` prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics

from taverntable.games.three_towers import rules_from
from taverntable.lab.studies import towers_revised as tr


def wilson(k: int, n: int) -> list[float]:
    if n == 0:
        return [math.nan, math.nan]
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(c - h, 4), round(c + h, 4)]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--name", required=True)
    p.add_argument("--options", default="{}")
    p.add_argument("--preset", default="three-towers")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--games", type=int, default=800)
    p.add_argument("--round-games", type=int, default=600)
    p.add_argument("--style-games", type=int, default=200)
    a = p.parse_args()
    rules = rules_from(a.preset, **json.loads(a.options))
    rounds, firsts = tr.plain_games(rules, a.seed, a.games)
    mean = statistics.fmean(rounds)
    half = 1.96 * statistics.stdev(rounds) / math.sqrt(len(rounds))
    out: dict[str, object] = {
        "name": a.name,
        "rules": rules.differences(),
        "rounds": [round(mean, 3), round(mean - half, 3), round(mean + half, 3), len(rounds)],
        "first_wins": [sum(firsts), len(firsts), wilson(sum(firsts), len(firsts))],
    }
    one, decided = tr.one_round_counts(rules, a.seed, a.games, a.round_games)
    out["one_round"] = [one, decided, wilson(one, decided)]
    for x, y in tr.PAIRINGS:
        wins, played = tr.style_counts(rules, a.seed, 2 * a.games, a.style_games, x, y)
        best = max(wins, key=lambda s: wins[s])
        out[f"style:{x}-{y}"] = [best, wins[best], played, wilson(wins[best], played)]
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
