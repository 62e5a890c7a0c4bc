"""What accounts cost at the server (issue 25's speed goals), on SQLite in a temporary folder:

- My games: the first page (20 matches, newest first, with their seats and deals) for a person
  with MATCHES matches among OTHERS other people's, a page read many times; the query plan
  shows the index ``ix_plays_account_started`` (goal: under 100 ms);
- the end of a rated match of two people and a bot (goal: the rating update adds under 5 ms):
  the table tells everyone who won as before accounts, then ``MatchBook.match_finished``
  writes both people's results and ratings in one transaction, timed here on its own.

    python scripts/bench_history.py [--matches 10000] [--others 20000] [--repeat 50]

Run by hand; not a timed test. The figures are wall-clock milliseconds (median and worst) and,
for the end of a match, this process's CPU time (which a loaded machine does not inflate the way
it does the wall clock: every statement waits for a core there).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sqlalchemy import text

from taverntable.games import get_game
from taverntable.web.accounts import plays_t
from taverntable.web.history import MatchBook
from taverntable.web.seats import Seat
from taverntable.web.store import Store, deals_t, seats_t, tables_t

ME = "bench-person"


async def fill(store: Store, matches: int, others: int) -> None:
    """MATCHES three-seat tables where ME sat, each of one match of four deals, and OTHERS rows
    of other people's matches."""
    rng = random.Random(1)
    now = time.time()
    async with store.write() as conn:
        for start in range(0, matches, 1000):
            ids = [f"t{k:06d}" for k in range(start, min(matches, start + 1000))]
            await conn.execute(
                tables_t.insert(),
                [
                    {
                        "id": t,
                        "game": "tonk",
                        "options": {},
                        "settings": {},
                        "host_hash": "h",
                        "status": "finished",
                        "match": 1,
                        "created": now - k,
                    }
                    for k, t in enumerate(ids)
                ],
            )
            await conn.execute(
                seats_t.insert(),
                [
                    {
                        "table_id": t,
                        "seat": s,
                        "kind": "person" if s < 2 else "bot",
                        "name": f"P{s}",
                        "level": None if s < 2 else "medium",
                        "token_hash": None,
                        "account_id": ME if s == 0 else None,
                    }
                    for t in ids
                    for s in range(3)
                ],
            )
            await conn.execute(
                deals_t.insert(),
                [
                    {"table_id": t, "number": d, "match": 1, "header": {}, "finished": True}
                    for t in ids
                    for d in range(1, 5)
                ],
            )
            await conn.execute(
                plays_t.insert(),
                [
                    {
                        "account_id": ME,
                        "table_id": t,
                        "match": 1,
                        "seat": 0,
                        "game": "tonk",
                        "preset": "tonk",
                        "rated": False,
                        "started": now - rng.random() * 3e7,
                        "status": "finished",
                        "place": 1,
                        "total": 1.0,
                    }
                    for t in ids
                ],
            )
        rows = [
            {
                "account_id": f"other-{k % 500}",
                "table_id": f"o{k:07d}",
                "match": 1,
                "seat": 0,
                "game": "tonk",
                "preset": "tonk",
                "rated": False,
                "started": now - rng.random() * 3e7,
                "status": "finished",
            }
            for k in range(others)
        ]
        for start in range(0, len(rows), 5000):
            await conn.execute(plays_t.insert(), rows[start : start + 5000])


def figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return f"median {statistics.median(ms):.2f} ms, worst {ms[-1]:.2f} ms ({len(ms)} runs)"


async def bench(matches: int, others: int, repeat: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite+aiosqlite:///{Path(folder) / 'bench.sqlite3'}")
        await store.open()
        await fill(store, matches, others)
        book = MatchBook(store)
        async with store.engine.connect() as conn:
            plan = (
                await conn.execute(
                    text(
                        "EXPLAIN QUERY PLAN SELECT * FROM plays WHERE account_id = :a "
                        "ORDER BY started DESC, table_id DESC LIMIT 21"
                    ),
                    {"a": ME},
                )
            ).all()
        await book.games(ME, 1)  # the first read warms SQLite's page cache
        page_times = []
        for _ in range(repeat):
            started = time.perf_counter()
            items, more = await book.games(ME, 1)
            page_times.append(time.perf_counter() - started)
        assert len(items) == 20 and more

        # The end of a rated match: two people and a medium bot, a fresh row each time.
        game = get_game("tonk")
        rate_times, rate_cpu, plain_times, plain_cpu = [], [], [], []
        for k in range(repeat):
            table = SimpleNamespace(
                id=f"rated{k}",
                match=1,
                game=game,
                rules=game.rules(),
                settings=SimpleNamespace(rated=True),
                seats=[
                    Seat(0, "person", "A", None, "x", "anna"),
                    Seat(1, "person", "B", None, "y", "bence"),
                    Seat(2, "bot", None, "medium", None),
                ],
                balances=lambda: [2.0, -1.0, -1.0],
                fence=None,
            )
            async with store.write() as conn:
                await conn.execute(
                    plays_t.insert(),
                    [
                        {
                            "account_id": who,
                            "table_id": table.id,
                            "match": 1,
                            "seat": seat,
                            "game": "tonk",
                            "preset": "tonk",
                            "rated": True,
                            "started": time.time(),
                            "status": "playing",
                        }
                        for seat, who in ((0, "anna"), (1, "bence"))
                    ],
                )
            # What the end of a match wrote before accounts: the table marked finished.
            started, cpu = time.perf_counter(), time.process_time()
            await store.set_status(table.id, "finished")
            plain_times.append(time.perf_counter() - started)
            plain_cpu.append(time.process_time() - cpu)
            started, cpu = time.perf_counter(), time.process_time()
            changes = await book.match_finished(table, 1, table.balances())  # type: ignore[arg-type]
            rate_times.append(time.perf_counter() - started)
            rate_cpu.append(time.process_time() - cpu)
            assert set(changes) == {0, 1, 2}
        await store.close()
    return {
        "plan": [" ".join(str(c) for c in row) for row in plan],
        "page": page_times,
        "rate": rate_times,
        "rate_cpu": rate_cpu,
        "plain": plain_times,
        "plain_cpu": plain_cpu,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/bench_history.py")
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--others", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    if args.matches < 21 or args.repeat < 1 or args.others < 0:
        parser.error("--matches must be at least 21, --repeat at least 1, --others not negative")
    out = asyncio.run(bench(args.matches, args.others, args.repeat))
    print(f"My games, first page of {args.matches:,} matches ({args.others:,} others' rows):")
    print("  " + figures(out["page"]))
    print("  query plan: " + " | ".join(out["plan"]))
    print("The end of a rated match (2 people + a bot):")
    print("  what the table does before it tells everyone who won (marks itself finished, as")
    print("  before accounts): " + figures(out["plain"]))
    print(f"    CPU median {statistics.median(out['plain_cpu']) * 1000:.2f} ms")
    print("  the ratings add nothing to that: after the broadcast, one transaction completes")
    print("  both rows and updates both ratings, and a second table frame carries them:")
    print("    " + figures(out["rate"]))
    print(f"    CPU median {statistics.median(out['rate_cpu']) * 1000:.2f} ms")
    print("  rate_match alone (openskill): python -m taverntable.ratings.bench")
    return 0


if __name__ == "__main__":
    sys.exit(main())
