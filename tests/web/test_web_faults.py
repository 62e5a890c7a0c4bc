"""The server under database faults (issue 24, item 1): a write that fails costs at most the
moves made while the database was away, never a table. A deal begins only once its header is
stored, deals are numbered on from the highest stored, and one table's bad row never fails the
other tables' moves that were written with it."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from sqlalchemy.exc import IntegrityError, OperationalError

from taverntable.records import replay_record
from taverntable.web.botpool import BotPool
from taverntable.web.hub import Hub
from taverntable.web.protocol.api import CreateTable, SeatSpec
from taverntable.web.store import Store, StoredSeat, moves_t
from taverntable.web.tables import Table
from taverntable.web.usage import Limits

from web_helpers import QUICK, drop_postgres, fresh_postgres, postgres_url, sqlite_url

# Bot tables nobody watches play on here (they would pause after a minute).
PLAY_ON = Limits(unwatched_seconds=0.0)

BOTS = [SeatSpec(kind="bot", level="easy") for _ in range(3)]


class Faults:
    """Counts a store's refused writes (deal headers and moves), with when they happened."""

    def __init__(self, store: Store) -> None:
        self.deals: list[float] = []
        self.moves: list[float] = []
        # Run before a deal's header is written (a fault at the moment a deal begins).
        self.at_deal: Callable[[], Awaitable[None]] | None = None
        store.start_deal = self._count(store.start_deal, self.deals)  # type: ignore[method-assign]
        store.add_move = self._count(store.add_move, self.moves)  # type: ignore[method-assign]

    def _count(
        self, write: Callable[..., Awaitable[Any]], into: list[float]
    ) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            if into is self.deals and self.at_deal is not None:
                await self.at_deal()
            try:
                return await write(*args, **kwargs)
            except Exception:
                into.append(time.monotonic())
                raise

        return counted

    def since(self, moment: float) -> int:
        return sum(1 for t in self.deals + self.moves if t >= moment)


async def bot_tables(hub: Hub, count: int, deals: int | None = None) -> list[Table]:
    """``count`` started Tonk tables of three easy bots."""
    tables = []
    for _ in range(count):
        made = await hub.create(CreateTable(game="tonk", seats=BOTS, deals=deals))
        await made.table.start()
        tables.append(made.table)
    return tables


async def until_true(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def check_stored(store: Store, table_ids: list[str]) -> None:
    """Every stored move belongs to a stored deal (no deal played on without its header), and
    every finished deal replays as a record (``tavern replay``) to its stored result."""
    async with store.engine.connect() as conn:
        rows = (await conn.execute(sqlalchemy.select(moves_t.c.table_id, moves_t.c.deal))).all()
    by_table: dict[str, set[int]] = {}
    for table_id, deal in rows:
        by_table.setdefault(table_id, set()).add(deal)
    for table_id in table_ids:
        stored = await store.load(table_id)
        assert stored is not None
        numbers = [d.number for d in stored.deals]
        assert numbers == sorted(set(numbers))
        assert by_table.get(table_id, set()) <= set(numbers), "moves of a deal never stored"
        for deal in stored.deals:
            if deal.finished:
                record = {**deal.header, "moves": [[s, m] for s, m in deal.moves]}
                assert replay_record(record).record["result"] == deal.result


async def play_through_a_fault(
    url: str,
    fault: Callable[[Faults], contextlib.AbstractAsyncContextManager[None]],
    busy_timeout: float = 30.0,
) -> None:
    """Eight bot tables play at full speed; ``fault`` breaks the database until both a deal's
    header and moves have been refused; then the server is restarted and every table must play
    on, with no write refused any more."""
    hub = Hub(Store(url, busy_timeout), BotPool(1), QUICK, PLAY_ON)
    await hub.open()
    faults = Faults(hub.store)
    tables = await bot_tables(hub, 8)
    ids = [t.id for t in tables]
    await until_true(lambda: all(t.deal_no >= 2 for t in tables), 60, "every table's second deal")
    async with fault(faults):
        pass
    released = time.monotonic()
    assert faults.deals and faults.moves  # the fault did hit deals' starts and moves
    at_release = {t.id: t.deal_no for t in tables}
    await until_true(
        lambda: all(t.deal_no >= at_release[t.id] + 2 for t in tables), 60, "play after the fault"
    )
    assert faults.since(released + 1.0) == 0  # once the database is back, nothing is refused
    await hub.close()
    # A restart: every table comes back and plays on, none stuck on a number it cannot write.
    again = Hub(Store(url, busy_timeout), BotPool(1), QUICK, PLAY_ON)
    await again.open()
    refused = Faults(again.store)
    restored = [again.tables[i] for i in ids]
    at_start = {t.id: t.deal_no for t in restored}
    await until_true(
        lambda: all(t.deal_no >= at_start[t.id] + 3 for t in restored), 60, "play after restart"
    )
    assert refused.deals == [] and refused.moves == []
    for table in restored:
        await table.stop()
    await check_stored(again.store, ids)
    await again.close()


def test_a_database_locked_longer_than_a_writes_timeout_stalls_no_table(tmp_path: Path) -> None:
    """SQLite: another connection holds ``BEGIN IMMEDIATE`` for many times a write's timeout
    (the audit's 100 s lock against the 30 s default, scaled down: 0.2 s)."""
    url = sqlite_url(tmp_path)

    @contextlib.asynccontextmanager
    async def locked(faults: Faults) -> AsyncIterator[None]:
        other = sqlite3.connect(
            tmp_path / "tavern.sqlite3", isolation_level=None, check_same_thread=False, timeout=10
        )

        async def lock() -> None:
            if not other.in_transaction:
                await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")

        # Taken as a deal begins, so that a deal's header is refused as well as the moves of
        # the tables in the middle of a deal (a table only tries the write it is at: with a
        # deal's header as quick to write as a move, a lock taken at any moment often found
        # no table between two deals).
        faults.at_deal = lock
        await until_true(lambda: other.in_transaction, 60, "a deal's start")
        faults.at_deal = None
        try:
            await until_true(lambda: bool(faults.deals) and len(faults.moves) >= 3, 60, "refusals")
            await asyncio.sleep(1.0)
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()

    asyncio.run(play_through_a_fault(url, locked, busy_timeout=0.2))


def test_a_postgresql_restart_under_load_stalls_no_table() -> None:
    """PostgreSQL: every connection of the server is terminated from another connection, again
    and again, as a restart of the database does (``pg_ctl restart -m fast``)."""
    url = fresh_postgres(postgres_url())

    @contextlib.asynccontextmanager
    async def restarts(faults: Faults) -> AsyncIterator[None]:
        from sqlalchemy.ext.asyncio import create_async_engine

        admin = create_async_engine(url, isolation_level="AUTOCOMMIT")
        kill = sqlalchemy.text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        try:
            async with admin.connect() as conn:
                one_at_a_time = asyncio.Lock()

                async def restart() -> None:
                    async with one_at_a_time:
                        await conn.execute(kill)
                        await asyncio.sleep(0.05)  # the backends take a moment to exit

                # Restarts again and again for 3 s, and one whenever a deal begins, until a
                # deal's header has been refused.
                faults.at_deal = restart
                until = time.monotonic() + 3.0
                while time.monotonic() < until:
                    await restart()
                await until_true(lambda: bool(faults.deals), 60, "a deal's header refused")
                faults.at_deal = None
            yield
        finally:
            await admin.dispose()

    try:
        asyncio.run(play_through_a_fault(url, restarts))
    finally:
        drop_postgres(url)


def test_a_deal_whose_header_is_refused_is_dealt_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store refuses the second deal's header once: the table stays at its first deal,
    deals again, and its four deals are numbered 1 to 4, each stored with its moves (before
    the fix the table played deal 2 on without a header, and a restart numbered the next deal
    2 again: unique violations for ever)."""

    async def check() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), BotPool(1), QUICK, PLAY_ON)
        await hub.open()
        real = hub.store.start_deal
        calls = 0

        async def refuse_once(*args: Any, **kwargs: Any) -> int:
            nonlocal calls
            calls += 1
            if calls == 2:
                raise OperationalError("INSERT INTO deals", {}, Exception("database is locked"))
            return await real(*args, **kwargs)

        monkeypatch.setattr(hub.store, "start_deal", refuse_once)
        (table,) = await bot_tables(hub, 1, deals=4)
        await until_true(lambda: table.status == "finished", 60, "the match's end")
        assert calls == 5  # four deals and the one refused
        stored = await hub.store.load(table.id)
        assert stored is not None
        assert [d.number for d in stored.deals] == [1, 2, 3, 4]
        assert all(d.finished for d in stored.deals)
        assert [row["deal"] for row in table.sheet] == [1, 2, 3, 4]
        await check_stored(hub.store, [table.id])
        await hub.close()
        again = Hub(Store(sqlite_url(tmp_path)), BotPool(1), QUICK, PLAY_ON)
        await again.open()
        assert table.id not in again.tables  # finished: loaded when someone opens it
        restored = await again.find(table.id)
        assert restored.deal_no == 4 and restored.sheet == table.sheet
        await again.close()

    asyncio.run(check())


def test_deals_are_numbered_on_from_the_highest_stored(database: str) -> None:
    """A table restored from a database where a deal is missing (its header was never stored,
    its moves were: a server before the fix) numbers its next deal past every stored one."""

    async def check() -> None:
        store = Store(database)
        await store.open()
        await store.create_table(
            "t", "tonk", {}, {}, "h", [StoredSeat(0, "person", None, None, None)]
        )
        assert await store.start_deal("t", 1, 1, {"x": 1}) == 1
        async with store.engine.begin() as conn:  # deal 2's moves, without deal 2
            await conn.execute(
                moves_t.insert().values(table_id="t", deal=2, number=0, seat=0, move="draw stock")
            )
        assert await store.start_deal("t", 2, 1, {"x": 2}) == 3
        assert await store.start_deal("t", 3, 1, {"x": 3}) == 4  # a lost commit's number
        await store.close()

    asyncio.run(check())


def test_one_tables_bad_row_does_not_fail_the_other_tables_moves(database: str) -> None:
    """Twelve tables' moves go in one group commit; one of them collides with a row stored
    already: only that table's move is refused, the eleven others are stored."""

    async def check() -> None:
        store = Store(database)
        await store.open()
        names = [f"t{k}" for k in range(12)]
        for name in names:
            await store.create_table(
                name, "tonk", {}, {}, "h", [StoredSeat(0, "person", None, None, None)]
            )
            await store.start_deal(name, 1, 1, {"x": 1})
        await store.add_move("t5", 1, 0, 0, "draw stock")  # t5's move 0 is stored already
        results = await asyncio.gather(
            *(store.add_move(name, 1, 0, 0, "draw discard") for name in names),
            return_exceptions=True,
        )
        refused = [n for n, r in zip(names, results, strict=True) if r is not None]
        assert refused == ["t5"] and isinstance(results[5], IntegrityError)
        for name in names:
            loaded = await store.load(name)
            assert loaded is not None
            expected = "draw stock" if name == "t5" else "draw discard"
            assert loaded.deals[0].moves == [(0, expected)]
        await store.close()

    asyncio.run(check())
