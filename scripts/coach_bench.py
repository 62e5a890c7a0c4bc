"""The coach's cost (issue 27, item 4): CPU seconds of ``review_record`` per Tonk deal and per
Three Towers game, with the fast path (numba) and the default budget.

Deals and games are played by the heuristic bots from seeds (Tonk in the kernel), dumped as
records and reviewed for one seat (seat 0, what a person asks for) and for every seat. The first
review of a process pays for loading the kernels and the drop model's tables (numba's cache on
disk; a bot-pool worker pays it once): it is measured apart, on a deal not counted.

    python scripts/coach_bench.py --deals 20 --games 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from taverntable.bots.registry import make_bot
from taverntable.coach.review import decision_counts, review_record
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.records import dump_record


def record_of(game: str, players: int, seed: int) -> dict[str, Any]:
    g = get_game(game)
    state = g.start(g.rules(), players, rng=random.Random(seed), dealer=seed % players)
    bots = [make_bot("heuristic", game) for _ in range(players)]
    play_out(state, bots, random.Random(seed + 1))
    record: dict[str, Any] = dump_record(state, [f"P{s}" for s in range(players)])
    return record


def cpu(record: dict[str, Any], seats: list[int], worlds: int | None) -> tuple[float, int]:
    start = time.process_time()
    decisions = 0
    for seat in seats:
        decisions += len(review_record(record, seat, worlds=worlds).decisions)
    return time.process_time() - start, decisions


def report(name: str, times: list[float], decisions: list[int]) -> None:
    print(
        f"{name}: {len(times)} reviews, CPU s median {statistics.median(times):.2f}, "
        f"mean {statistics.fmean(times):.2f}, max {max(times):.2f}; decisions per review "
        f"median {statistics.median(decisions):.0f}, max {max(decisions)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="Tonk deals (3 players)")
    parser.add_argument("--games", type=int, default=4, help="Three Towers games (2 players)")
    parser.add_argument("--worlds", type=int, default=None, help="default: the coach's")
    parser.add_argument("--seed", type=int, default=9100)
    args = parser.parse_args()
    from taverntable.fast.jit import fast_bots_on

    print(f"fast path: {fast_bots_on()}")
    warm = record_of("tonk", 3, args.seed - 1)
    first, _ = cpu(warm, [0], args.worlds)
    towers_warm = record_of("three-towers", 2, args.seed - 1)
    first_towers, _ = cpu(towers_warm, [0], 2)
    print(f"first review in the process (loading): tonk {first:.2f} s, towers {first_towers:.2f} s")
    for label, game, players, count in (
        ("tonk 3p", "tonk", 3, args.deals),
        ("three-towers 2p", "three-towers", 2, args.games),
    ):
        one: list[float] = []
        one_n: list[int] = []
        every: list[float] = []
        every_n: list[int] = []
        for i in range(count):
            record = record_of(game, players, args.seed + 2 * i)
            t, n = cpu(record, [0], args.worlds)
            one.append(t)
            one_n.append(n)
            seats = sorted(decision_counts(record))
            t, n = cpu(record, seats, args.worlds)
            every.append(t)
            every_n.append(n)
        report(f"{label}, seat 0", one, one_n)
        report(f"{label}, every seat", every, every_n)


if __name__ == "__main__":
    main()
