"""``tavern serve`` as a real process: killed with SIGKILL mid-deal and started again, it brings
every table back where it was, and the clients go on with their seats' tokens."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
from typing import Any

import httpx2
import websockets

from taverntable.records import replay_record

from web_helpers import (
    Player,
    check_messages,
    create,
    free_port,
    join,
    records,
    server_process,
    ws_url,
)
from web_helpers import start as start_table


async def play_until_waiting(url: str, other: str, seed: int, moves: int) -> dict[str, Any]:
    """Two people play ``moves`` moves between them, then stop when the first one is to move;
    returns the last update the first one saw (the table now waits for it)."""
    mover = Player(url, 0, seed, stop_after=moves)
    helper = Player(other, 1, seed + 1)
    task = asyncio.create_task(helper.run())
    await mover.run()
    task.cancel()
    updates = [m for m in mover.messages if m["type"] == "update"]
    return updates[-1]


async def first_update(url: str) -> dict[str, Any]:
    async with websockets.connect(url) as ws:
        async with asyncio.timeout(20):
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "update":
                    return dict(message)


def test_a_server_killed_with_sigkill_loses_nothing(database: str) -> None:
    port = free_port()
    with server_process(database, port) as proc:
        base = proc.base  # type: ignore[attr-defined]
        made = create(
            base,
            "tor",
            [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
            host_seat=0,
            host_name="Anna",
            deals=50,
            absent_seconds=3600,
        )
        table = made["table"]["id"]
        other = join(base, table, "Bence")
        start_table(base, table, made["host_token"])
        url0, url1 = ws_url(base, table, made["token"]), ws_url(base, table, other["token"])
        before = asyncio.run(play_until_waiting(url0, url1, 11, 12))
        summary = httpx2.get(f"{base}/api/tables/{table}").json()
        assert summary["status"] == "playing" and summary["turn"]["seat"] == 0
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    with server_process(database, port) as proc:
        base = proc.base  # type: ignore[attr-defined]
        again = httpx2.get(f"{base}/api/tables/{table}").json()
        assert again["sheet"] == summary["sheet"] and again["deal"] == summary["deal"]
        assert again["turn"] is not None and again["turn"]["seat"] == 0
        after = asyncio.run(
            first_update(url0.replace(url0.split("/ws/")[0], base.replace("http", "ws")))
        )
        # Exactly where it was: the same deal, the same moves, the same view of seat 0.
        assert after["version"] == before["version"] and after["view"] == before["view"]
        # Play on until two more deals have begun (the match is long).
        more = before["deal"] + 2
        players = [
            Player(ws_url(base, table, made["token"]), 0, 21, stop_at_deal=more),
            Player(ws_url(base, table, other["token"]), 1, 22, stop_at_deal=more),
        ]

        async def finish() -> None:
            await asyncio.gather(*(p.run() for p in players))

        asyncio.run(finish())
        deals = records(base, table)
        final = httpx2.get(f"{base}/api/tables/{table}").json()
    assert len(deals) == len(final["sheet"]) >= before["deal"] + 1
    assert [d["result"] for d in deals] == [d["result"] for d in final["sheet"]]
    net = [sum(replay_record(d).result["net"][s] for d in deals) for s in range(3)]
    assert final["balances"] == net
    for p in players:
        assert check_messages(deals, p) > 0


async def play_on(url: str, seed: int, seen: list[int], stop: asyncio.Event) -> None:
    """A person who plays a random legal move 20 ms after each update that offers some (under
    the server's 30 messages a second), until ``stop`` or the connection is gone; ``seen``
    gets the version of every update."""
    rng = random.Random(seed)
    with contextlib.suppress(websockets.ConnectionClosed, OSError):
        async with websockets.connect(url, max_size=None, compression=None) as ws:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] != "update":
                    continue
                seen.append(message["version"])
                legal = message["view"]["legal_moves"]
                if legal and not stop.is_set():
                    await asyncio.sleep(0.02)
                    move = {"type": "move", "move": rng.choice(legal)}
                    await ws.send(json.dumps({**move, "version": message["version"]}))


def test_every_move_a_client_saw_survives_a_sigkill_under_load(database: str) -> None:
    """Issue 23, item 4: eight tables of two people play as fast as they may (their moves go
    in group commits; on SQLite in the event loop's own thread, which never checkpoints), and
    the server is killed with SIGKILL while moves are in flight. Every update a client
    received was stored before it was sent: started again, each table stands at the last
    version any of its clients saw, or later (a move stored but not yet sent), never before."""
    port = free_port()
    tables = []
    with server_process(database, port) as proc:
        base = proc.base  # type: ignore[attr-defined]
        for _ in range(8):
            made = create(
                base,
                "tonk",
                [{"kind": "person"}, {"kind": "person"}],
                host_seat=0,
                host_name="Anna",
                absent_seconds=3600,
            )
            table = made["table"]["id"]
            other = join(base, table, "Bence")
            start_table(base, table, made["host_token"])
            tables.append(
                (table, [ws_url(base, table, made["token"]), ws_url(base, table, other["token"])])
            )
        seen: dict[str, list[int]] = {table: [] for table, _ in tables}

        async def play_then_kill() -> None:
            stop = asyncio.Event()
            tasks = [
                asyncio.create_task(play_on(url, 100 + 2 * k + seat, seen[table], stop))
                for k, (table, urls) in enumerate(tables)
                for seat, url in enumerate(urls)
            ]
            await asyncio.sleep(3.0)
            before = sum(len(v) for v in seen.values())
            await asyncio.sleep(0.5)
            assert sum(len(v) for v in seen.values()) > before + 20, "no moves in flight"
            proc.send_signal(signal.SIGKILL)  # mid-flight: the clients are still playing
            stop.set()
            await asyncio.wait_for(asyncio.gather(*tasks), 30)

        asyncio.run(play_then_kill())
        proc.wait(10)
    with server_process(database, port) as proc:
        base = proc.base  # type: ignore[attr-defined]
        for table, _ in tables:
            after = asyncio.run(first_update(f"{base.replace('http', 'ws')}/ws/{table}"))
            assert after["version"] >= max(seen[table]), (table, after["version"], seen[table][-3:])
