"""``tavern serve`` as a real process: killed with SIGKILL mid-deal and started again, it brings
every table back where it was, and the clients go on with their seats' tokens."""

from __future__ import annotations

import asyncio
import json
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
