"""Issue 28 point 2: does playing toward R28 pay? The heuristic that values R28's nobility points
against the same heuristic blind to them (it sees its view with ``nobility_points`` 0), both
playing under R28, two players, paired seeds (each seed twice, the seats swapped).

    nice -n 19 python scripts/r28_value.py --points 5 --pairs 200 --seed 1

Prints one JSON line: the valued bot's margin over the blind one (score points a game, mean of
the pairs' means, normal 95% interval over pairs), its share of the games with one winner
(Wilson 95%) and n.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys

from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.games.three_towers import TowersMove, TowersState, TowersView, rules_from
from taverntable.lab.core.seeds import game_seed
from taverntable.lab.core.stats import wilson


class BlindToR28:
    """The heuristic deciding as if R28 were off (its view's rules say ``nobility_points`` 0)."""

    name = "heuristic:blind-r28"

    def __init__(self) -> None:
        self.bot = ThreeTowersHeuristicBot()

    def choose(self, view: TowersView, rng: random.Random) -> TowersMove:
        blind = dataclasses.replace(view, rules=dataclasses.replace(view.rules, nobility_points=0))
        return self.bot.choose(blind, rng)


def one_game(options: dict[str, object], seed: int, valued_seat: int) -> tuple[float, int]:
    """The valued bot's score minus the blind one's, and 1/0/-1 won/lost/shared."""
    game = get_game("three-towers")
    rules = rules_from("three-towers", **options)
    rng = random.Random(seed)
    state = game.start(rules, 2, rng=rng, dealer=1)
    assert isinstance(state, TowersState)
    bots: list[object] = [BlindToR28(), BlindToR28()]
    bots[valued_seat] = ThreeTowersHeuristicBot()
    play_out(state, bots, rng)  # type: ignore[arg-type]
    assert state.result is not None
    scores, winners = state.result.scores, state.result.winners
    other = 1 - valued_seat
    won = 0 if len(winners) != 1 else (1 if winners[0] == valued_seat else -1)
    return float(scores[valued_seat] - scores[other]), won


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--points", type=int, default=5, help="R28 nobility_points (with --preset's)")
    p.add_argument("--revised", action="store_true", help="the revised preset's other options")
    p.add_argument("--pairs", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    options: dict[str, object] = {"nobility_points": a.points}
    if a.revised:
        revised = get_game("three-towers-revised").rules().differences()
        options = {**revised, **options}
    pair_means: list[float] = []
    wins = decided = 0
    for i in range(a.pairs):
        seed = game_seed(a.seed, 100_000 + i)  # none of the lab studies' indices
        both = [one_game(options, seed, seat) for seat in (0, 1)]
        pair_means.append(sum(m for m, _ in both) / 2)
        for _, won in both:
            decided += won != 0
            wins += won == 1
    n = len(pair_means)
    mean = sum(pair_means) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in pair_means) / (n - 1)) if n > 1 else math.nan
    half = 1.96 * sd / math.sqrt(n)
    low, high = wilson(wins, decided)
    print(
        json.dumps(
            {
                "options": options,
                "pairs": n,
                "games": 2 * n,
                "margin": round(mean, 1),
                "margin_95": [round(mean - half, 1), round(mean + half, 1)],
                "win_share": round(wins / decided, 3) if decided else None,
                "win_share_95": [round(low, 3), round(high, 3)],
                "decided": decided,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
