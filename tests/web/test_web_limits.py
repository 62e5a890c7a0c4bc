"""Limits on anonymous use (issue 24, item 7): table creation throttled per client address
(HTTP 429), tables in the lobby nobody opens closed, tables nobody watches paused until someone
opens them, and only live tables loaded at start (a finished one when it is opened)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taverntable.web.app import create_app
from taverntable.web.botpool import BotPool
from taverntable.web.hub import BadRequest, Hub
from taverntable.web.protocol.api import CreateTable, SeatSpec
from taverntable.web.seats import Connection
from taverntable.web.store import Store
from taverntable.web.usage import Limits, Throttle

from web_helpers import QUICK, sqlite_url

BOTS = [SeatSpec(kind="bot", level="easy") for _ in range(3)]
PEOPLE = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]


async def until_true(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def test_the_throttle_counts_a_sliding_window_per_key() -> None:
    throttle = Throttle(3, 600.0)
    assert [throttle.allow(["address:a"], now=t) for t in (0, 1, 2)] == [None] * 3
    assert throttle.allow(["address:a"], now=3) == pytest.approx(597)  # the first one's age
    assert throttle.allow(["address:b"], now=3) is None  # another address has its own count
    assert throttle.allow(["address:a"], now=600.5) is None  # the first one left the window
    # Every key of a request is checked before any is counted: an account at its limit
    # refuses a request from a fresh address, and that address's count is not touched.
    for t in (10, 11, 12):
        assert throttle.allow([f"address:c{t}", "account:7"], now=t) is None
    assert throttle.allow(["address:d", "account:7"], now=13) is not None
    assert throttle.allow(["address:d"], now=14) is None
    throttle.forget_old(now=10_000)
    assert throttle._events == {}


def test_table_creation_is_throttled_per_address(tmp_path: Path) -> None:
    app = create_app(sqlite_url(tmp_path), QUICK, limits=Limits(tables_per_window=3))
    with TestClient(app) as client:
        body = {"game": "tonk", "seats": [*PEOPLE, {"kind": "bot", "level": "easy"}]}
        assert [client.post("/api/tables", json=body).status_code for _ in range(3)] == [201] * 3
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 429
        assert refused.json()["code"] == "too-many-tables"
        assert "at most 3 new tables every 10 minutes" in refused.json()["error"]
        assert 0 < int(refused.headers["Retry-After"]) <= 600
        assert len(client.get("/api/tables").json()) == 3  # the refused one was not made


def test_a_table_nobody_opens_is_closed_and_its_page_says_so(tmp_path: Path) -> None:
    async def check() -> None:
        limits = Limits(lobby_seconds=0.4, sweep_seconds=0.05)
        hub = Hub(Store(sqlite_url(tmp_path)), BotPool(1), QUICK, limits)
        await hub.open()
        left = (await hub.create(CreateTable(game="tonk", seats=BOTS))).table
        opened = (await hub.create(CreateTable(game="tonk", seats=BOTS))).table
        conn = Connection(None)
        opened.attach(conn)  # someone has it open: it stays, however long
        await until_true(lambda: left.id not in hub.tables, 10, "the unopened table closed")
        assert opened.id in hub.tables and await hub.store.status(left.id) == "expired"
        with pytest.raises(BadRequest, match="was closed: nobody opened it") as refused:
            await hub.summary(left.id)
        assert refused.value.status == 404
        assert [t.id for t in await hub.lobby()] == [opened.id]
        # Once its last client leaves, the opened one goes the same way.
        opened.detach(conn)
        await until_true(lambda: opened.id not in hub.tables, 10, "the left table closed")
        await hub.close()

    asyncio.run(check())


def test_a_table_nobody_watches_pauses_until_someone_opens_it(tmp_path: Path) -> None:
    async def check() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), BotPool(1), QUICK, Limits(unwatched_seconds=0.3))
        await hub.open()
        table = (await hub.create(CreateTable(game="tonk", seats=BOTS))).table
        await table.start()  # bots only, no deal limit: it would play for ever
        await until_true(lambda: table.paused, 10, "the pause")
        paused_at = table.version
        await asyncio.sleep(0.5)
        assert table.version == paused_at  # not one move while nobody watches
        conn = Connection(None)
        table.attach(conn)
        await until_true(lambda: table.version > paused_at, 10, "play resumed")
        assert not table.paused
        table.detach(conn)
        await until_true(lambda: table.paused, 10, "the pause once the watcher left")
        await hub.close()

    asyncio.run(check())


def test_only_live_tables_are_loaded_at_start_and_a_finished_one_when_opened(
    tmp_path: Path,
) -> None:
    async def check() -> None:
        url = sqlite_url(tmp_path)
        hub = Hub(Store(url), BotPool(1), QUICK)
        await hub.open()
        done = (await hub.create(CreateTable(game="tonk", seats=BOTS, deals=2))).table
        waiting = (await hub.create(CreateTable(game="tonk", seats=BOTS))).table
        await done.start()
        await until_true(lambda: done.status == "finished", 60, "the match's end")
        sheet = done.sheet
        await hub.close()
        again = Hub(Store(url), BotPool(1), QUICK)
        await again.open()
        assert set(again.tables) == {waiting.id}  # the finished one stays in the database
        summary = await again.summary(done.id)  # … until someone opens it
        assert summary.status == "finished" and [r.deal for r in summary.sheet] == [1, 2]
        assert again.tables[done.id].sheet == sheet
        stored = await again.store.load(done.id)
        assert stored is not None and all(d.finished for d in stored.deals)
        await again.close()

    asyncio.run(check())


def test_a_finished_table_nobody_has_open_leaves_memory(tmp_path: Path) -> None:
    async def check() -> None:
        limits = Limits(finished_seconds=0.3, sweep_seconds=0.05)
        hub = Hub(Store(sqlite_url(tmp_path)), BotPool(1), QUICK, limits)
        await hub.open()
        table = (await hub.create(CreateTable(game="tonk", seats=BOTS, deals=1))).table
        await table.start()
        await until_true(lambda: table.id not in hub.tables, 30, "the finished table forgotten")
        assert (await hub.summary(table.id)).status == "finished"  # loaded again on demand
        await hub.close()

    asyncio.run(check())
