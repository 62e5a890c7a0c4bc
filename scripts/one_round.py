"""Issue 28 point 6: why "one round decides" (the lab's measure: the winner's lead in its best
round is at least its final lead, ``towers_options.summarise``) does not move with the rule
options. Two-player heuristic games; for each rule set: the share one round decides, and of
those decided by one round, the share whose deciding round is the last (with R14's 150, which
``summarise`` adds to the last round) or a ♥ tower's (R13 doubles the builder's round); and the
share a counterfactual reading would give with each round's lead capped at ``--cap`` points,
and without the 150 (the same games, the 150 taken from the scores).

    nice -n 19 python scripts/one_round.py --games 300 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.games.three_towers import TowersState, rules_from
from taverntable.lab.core.seeds import game_seed
from taverntable.lab.core.stats import wilson

HEARTS = 1
WIN_BONUS = 150


def leads(state: TowersState) -> list[int]:
    """Each round's lead of the winner over the other seat, the 150 with the last round."""
    result = state.result
    assert result is not None
    w = max(range(2), key=lambda s: result.scores[s])
    out = [r.points[w] - r.points[1 - w] for r in result.rounds]
    out[-1] += bonus(state)
    return out


def bonus(state: TowersState) -> int:
    """R14's 150 in the lead of the seat ``leads`` reads as the winner (0 without a third
    tower)."""
    result = state.result
    assert result is not None
    if result.end != "towers":
        return 0
    w = max(range(2), key=lambda s: result.scores[s])
    b = result.rounds[-1].builder
    return WIN_BONUS * ((b == w) - (b == 1 - w))


def study(options: dict[str, object], games: int, seed: int, cap: int) -> dict[str, object]:
    game = get_game("three-towers")
    rules = rules_from("three-towers", **options)
    bots = [ThreeTowersHeuristicBot(), ThreeTowersHeuristicBot()]
    decided = one = last = hearts = capped_decided = capped_one = bare_decided = bare_one = 0
    for i in range(games):
        rng = random.Random(game_seed(seed, 200_000 + i))
        state = game.start(rules, 2, rng=rng, dealer=i % 2)
        assert isinstance(state, TowersState)
        play_out(state, bots, rng)
        assert state.result is not None
        ls = leads(state)
        lead = sum(ls)
        if lead > 0:
            decided += 1
            k = max(range(len(ls)), key=lambda j: ls[j])
            if ls[k] >= lead:
                one += 1
                last += k == len(ls) - 1
                r = state.result.rounds[k]
                hearts += r.builder >= 0 and r.tower // 13 == HEARTS
        # Without R14's 150 (the same games read again: the bots would play the same).
        bare = [*ls[:-1], ls[-1] - bonus(state)]
        if sum(bare) > 0:
            bare_decided += 1
            bare_one += max(bare) >= sum(bare)
        c = [max(-cap, min(cap, x)) for x in ls]
        if sum(c) > 0:
            capped_decided += 1
            capped_one += max(c) >= sum(c)
    lo, hi = wilson(one, decided)
    blo, bhi = wilson(bare_one, bare_decided)
    clo, chi = wilson(capped_one, capped_decided)
    return {
        "options": options,
        "games": games,
        "decided": decided,
        "one_round": round(one / decided, 3),
        "one_round_95": [round(lo, 3), round(hi, 3)],
        "of_those_last_round": round(last / one, 3) if one else None,
        "of_those_hearts_tower": round(hearts / one, 3) if one else None,
        f"capped_{cap}": round(capped_one / capped_decided, 3) if capped_decided else None,
        f"capped_{cap}_95": [round(clo, 3), round(chi, 3)],
        "capped_decided": capped_decided,
        "without_150": round(bare_one / bare_decided, 3) if bare_decided else None,
        "without_150_95": [round(blo, 3), round(bhi, 3)],
        "without_150_decided": bare_decided,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cap", type=int, default=60)
    a = p.parse_args(argv)
    revised = get_game("three-towers-revised").rules().differences()
    for options in ({}, revised):
        print(json.dumps(study(options, a.games, a.seed, a.cap)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
