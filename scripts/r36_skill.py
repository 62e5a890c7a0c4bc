"""Skill under a rule set (issue 28 item 5's fifth target): the hard bot against the heuristic,
two players, seats alternating, the lab's move cap (``towers_revised.HARD_MOVE_CAP``); the hard
bot's mean margin (its score less the heuristic's) with a normal 95% interval and its win
share. ``nice -n 19 python scripts/r36_skill.py --name NAME --seed 5 --games 80 [--preset P]
[--options JSON]`` prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics

from taverntable.games import get_game
from taverntable.games.three_towers import TowersState, rules_from
from taverntable.lab.core.seeds import game_seed
from taverntable.lab.studies.towers_bots import play_lab_out
from taverntable.lab.studies.towers_revised import HARD_MOVE_CAP, PLAYERS


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--name", required=True)
    p.add_argument("--preset", default="three-towers")
    p.add_argument("--options", default="{}")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--games", type=int, default=80)
    a = p.parse_args()
    rules = rules_from(a.preset, **json.loads(a.options))
    game = get_game("three-towers")
    margins: list[int] = []
    wins = stalled = 0
    for g in range(a.games):
        rng = random.Random(game_seed(a.seed, 10**6 + g))
        hard = g % 2
        bots = ["heuristic", "hard"] if hard else ["hard", "heuristic"]
        state = game.start(rules, PLAYERS, rng=rng, dealer=g % PLAYERS)
        assert isinstance(state, TowersState)
        played = play_lab_out(state, bots, rng, HARD_MOVE_CAP)
        if played.capped or state.result is None:
            stalled += 1
            continue
        s = state.result.scores
        margins.append(s[hard] - s[1 - hard])
        wins += state.result.winners == (hard,)
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
