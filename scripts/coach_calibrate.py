"""How far the coach's values at a drop decision are from what happens (issue 27, item 5a's
check of the playing-on bias the coach takes from the hard bot, ``TonkFamily.playing_on_bias``).

Heuristic self-play tonk deals (3 players, in the kernel) from seeds of their own (below the
evidence's); in each, one start of a turn where a drop is legal (T6), at random. The coach
values it from the seat's view with no bias; then the real deal is played on twice from the real
state: the drop, and the coach's best move that plays on followed by heuristic play. Printed:
the mean of (predicted - real) for the drop, for playing on, and for their difference, over the
decisions whose predicted difference is within one stake of zero (those the bias can turn).

    nice -n 10 python scripts/coach_calibrate.py --decisions 1000 --worlds 100 --seed 250000
"""

from __future__ import annotations

import argparse
import random
import time

from taverntable.bots.tonk.fast.deals import fast_seats, play_deal, replay
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.coach.stats import mean_interval
from taverntable.coach.tonk import TonkFamily
from taverntable.coach.values import value_moves
from taverntable.engine import play_out
from taverntable.games.tonk import PRESETS, Drop, TonkState

PLAYERS = 3


class Unbiased(TonkFamily):
    def playing_on_bias(self, view: object) -> float:
        return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=250000)
    args = parser.parse_args()
    rules = PRESETS["tonk"]
    bots = [TonkHeuristicBot() for _ in range(PLAYERS)]
    seats = fast_seats(bots)
    assert seats is not None
    family = Unbiased()
    game = family.adapter(True)
    drop_err: list[float] = []
    on_err: list[float] = []
    diff_err: list[float] = []
    start = time.process_time()
    deal_seed = args.seed
    while len(diff_err) < args.decisions:
        deal_seed += 1
        dealer = deal_seed % PLAYERS
        deal = play_deal(
            rules, PLAYERS, seats, deal_rng=deal_seed, bot_rng=deal_seed, dealer=dealer
        )
        if deal.capped:
            continue
        final = replay(rules, deal, PLAYERS, deal_seed)
        state = TonkState.deal(rules, PLAYERS, rng=deal_seed, dealer=dealer)
        starts = []
        for seat, move in final.history:
            if Drop() in state.legal_moves():
                starts.append((state.clone(), seat))
            state.apply_unchecked(move)
        if not starts:
            continue
        pick = random.Random(f"calibrate:{deal_seed}")
        at, seat = starts[int(pick.random() * len(starts))]
        view = at.view(seat)
        moves = list(view.legal_moves)
        sampled = value_moves(family, game, view, moves, args.worlds, pick)
        means = [sum(v) / len(v) for v in sampled.values]
        d = moves.index(Drop())
        on = max((i for i in range(len(moves)) if i != d), key=lambda i: means[i])
        predicted = means[on] - means[d]
        if abs(predicted) > 1.0:
            continue
        real = []
        for move in (moves[d], moves[on]):
            branch = at.clone()
            branch.apply(move)
            if branch.result is None:
                play_out(branch, bots, random.Random(f"continue:{deal_seed}"))
            assert branch.result is not None
            real.append(float(branch.result.net[seat]))
        drop_err.append(means[d] - real[0])
        on_err.append(means[on] - real[1])
        diff_err.append(predicted - (real[1] - real[0]))
    cpu = time.process_time() - start
    print(
        f"deals {args.seed + 1}..{deal_seed}, {len(diff_err)} drop decisions within one stake, "
        f"worlds {args.worlds}, {cpu:.0f} CPU s"
    )
    for name, errs in (("drop", drop_err), ("playing on", on_err), ("on - drop", diff_err)):
        iv = mean_interval(errs)
        print(f"  predicted - real, {name}: {iv.mean:+.3f} [{iv.low:+.3f}, {iv.high:+.3f}] stakes")


if __name__ == "__main__":
    main()
