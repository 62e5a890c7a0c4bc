"""A move's server cost in-process: N tables of three people, each person a fake connection
that plays a random legal move (after a random think) whenever its table says it is its turn.

Every move goes the way a WebSocket client's does past the socket: ``client._handle`` (the
frame's parsing and checks), ``Table.play`` (the engine, the write to a real store, each
seat's frame) and the connection's queue, drained by a task per connection as ``client._write``
does (without a socket). It prints the process's CPU time per move (user + system, every
thread: ``time.process_time``) over the measured seconds; the load average is printed beside it.

    python scripts/bench_moves.py --tables 200 --seconds 10
    python scripts/bench_moves.py --against /tmp/old-checkout   # A/B: old and new, alternating

With ``--against PATH`` it runs itself ``--rounds`` times for each side (PYTHONPATH at
``PATH/src`` and at this checkout's, in turn) and prints each round and the ratio new / old of
the medians: both sides on the same machine, minutes apart at most.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


async def bench(
    tables: int, seconds: float, think: float, database: str | None, group_ms: float = 0.0
) -> dict[str, float]:
    from taverntable.web.botpool import BotPool
    from taverntable.web.client import RateLimit, _handle
    from taverntable.web.hub import Hub
    from taverntable.web.protocol.api import CreateTable, SeatSpec
    from taverntable.web.seats import Connection
    from taverntable.web.store import Store
    from taverntable.web.tables import Pace
    from taverntable.web.usage import NO_LIMITS

    folder = tempfile.mkdtemp(prefix="tavern-bench-")
    url = database or f"sqlite+aiosqlite:///{folder}/bench.sqlite3"
    store = Store(url, group_window=group_ms / 1000) if group_ms else Store(url)  # old checkouts
    hub = Hub(store, BotPool(1), Pace(0.0, 0.0, 0.0), NO_LIMITS)
    await hub.open()
    people = [SeatSpec(kind="person") for _ in range(3)]
    moves = 0
    counting = False
    stop = asyncio.Event()

    async def drain(conn: Connection, table: object, rng: random.Random) -> None:
        """The connection's writer, and its person: a move when it is their turn."""
        limit = RateLimit(10**6, 10**6)
        nonlocal moves
        while (frame := await conn.queue.get()) is not None:
            if stop.is_set():
                return
            state = table.state  # type: ignore[attr-defined]
            if state is None or state.is_over or state.current_seat != conn.seat:
                continue
            if not frame.startswith('{"type":"update"'):
                continue
            version = table.version  # type: ignore[attr-defined]
            await asyncio.sleep(rng.expovariate(1 / think))
            if stop.is_set() or table.version != version:  # type: ignore[attr-defined]
                continue
            move = str(rng.choice(state.legal_moves()))
            text = json.dumps({"type": "move", "move": move, "version": version})
            reply = await _handle(table, conn, text, limit)  # type: ignore[arg-type]
            if reply is None and counting:
                moves += 1

    tasks = []
    for t in range(tables):
        made = await hub.create(CreateTable(game="tonk", seats=people))
        table = made.table
        for seat in range(3):
            conn = Connection(seat)
            tasks.append(asyncio.create_task(drain(conn, table, random.Random(t * 3 + seat))))
            table.attach(conn)
        await table.start()
    await asyncio.sleep(min(3.0, seconds / 3))  # every table under way
    counting = True
    deals0 = sum(t.deal_no for t in hub.tables.values())
    cpu0, wall0, load0 = time.process_time(), time.monotonic(), os.getloadavg()[0]
    await asyncio.sleep(seconds)
    cpu1, wall1 = time.process_time(), time.monotonic()
    counted = moves
    deals = sum(t.deal_no for t in hub.tables.values()) - deals0
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await hub.close()
    return {
        "moves": counted,
        "moves_per_s": round(counted / (wall1 - wall0), 1),
        "moves_per_deal": round(counted / max(1, deals), 1),
        "cpu_us_per_move": round((cpu1 - cpu0) / max(1, counted) * 1e6, 1),
        "cpu_share": round((cpu1 - cpu0) / (wall1 - wall0), 3),
        "load": round(load0, 2),
        "writes": hub.store.writes,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--think", type=float, default=1.0, help="mean seconds before each move")
    p.add_argument("--database", help="default: SQLite in a temporary folder")
    p.add_argument(
        "--group-commit-ms", type=float, default=0.0, help="the store's group window (serve's)"
    )
    p.add_argument("--against", help="an older checkout: run both, alternating, and compare")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.against is None:
        import uvloop

        figures = uvloop.run(
            bench(args.tables, args.seconds, args.think, args.database, args.group_commit_ms)
        )
        print(json.dumps(figures) if args.json else figures)
        return 0
    here = Path(__file__).resolve().parent.parent
    sides = {"old": Path(args.against) / "src", "new": here / "src"}
    results: dict[str, list[float]] = {"old": [], "new": []}
    command = [sys.executable, __file__, "--json", "--tables", str(args.tables)]
    command += ["--seconds", str(args.seconds), "--think", str(args.think)]
    command += ["--group-commit-ms", str(args.group_commit_ms)]
    if args.database:
        command += ["--database", args.database]
    for k in range(args.rounds):
        for side, src in sides.items():
            env = {**os.environ, "PYTHONPATH": str(src)}
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            results[side].append(figures["cpu_us_per_move"])
            print(f"round {k + 1} {side}: {figures}", flush=True)
    old, new = statistics.median(results["old"]), statistics.median(results["new"])
    print(f"median µs CPU a move: old {old}, new {new}; new / old = {new / old:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
