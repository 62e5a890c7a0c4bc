"""The server's database: Alembic migrations (a database of the first server is brought up to
date, its tables kept) and table leases (only the owner writes; a taken-over table fences its old
owner out)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import sqlalchemy
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

from taverntable.web.store import LeaseLost, Store, StoredSeat, _fenced, database_fault

from web_helpers import drop_postgres, fresh_postgres, postgres_url, sqlite_url

FIRST_SCHEMA = [  # what the first server's create_all made, with its version in tavern_meta
    "CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(32) NOT NULL, options JSON "
    "NOT NULL, settings JSON NOT NULL, host_hash VARCHAR(64) NOT NULL, status VARCHAR(16) NOT "
    "NULL, match INTEGER NOT NULL, created FLOAT NOT NULL)",
    "CREATE TABLE seats (table_id VARCHAR(32) REFERENCES tables(id), seat INTEGER, kind "
    "VARCHAR(8) NOT NULL, name VARCHAR(128), level VARCHAR(16), token_hash VARCHAR(64), "
    "PRIMARY KEY (table_id, seat))",
    "CREATE TABLE deals (table_id VARCHAR(32) REFERENCES tables(id), number INTEGER, match "
    "INTEGER NOT NULL, header JSON NOT NULL, finished BOOLEAN NOT NULL, result JSON, returns "
    "JSON, PRIMARY KEY (table_id, number))",
    "CREATE TABLE moves (table_id VARCHAR(32), deal INTEGER, number INTEGER, seat INTEGER NOT "
    "NULL, move TEXT NOT NULL, PRIMARY KEY (table_id, deal, number))",
    "CREATE TABLE tavern_meta (key VARCHAR(32) PRIMARY KEY, value VARCHAR(64) NOT NULL)",
    "INSERT INTO tavern_meta VALUES ('schema', '1')",
    "INSERT INTO tables VALUES ('old', 'tonk', '{}', '{}', 'h', 'lobby', 1, 0.0)",
]


def run(coro: object) -> object:
    return asyncio.run(coro)  # type: ignore[arg-type]


def on_two_stores_of_a_fresh_postgres(check: Callable[[Store, Store], Awaitable[None]]) -> None:
    """Run ``check`` with two processes' stores open on a new PostgreSQL database, then close
    them and drop the database."""
    pytest.importorskip("asyncpg")
    url = fresh_postgres(postgres_url())

    async def opened() -> None:
        a, b = Store(url), Store(url)
        await a.open()
        await b.open()
        try:
            await check(a, b)
        finally:
            await a.close()
            await b.close()

    try:
        run(opened())
    finally:
        drop_postgres(url)


def test_a_database_of_the_first_server_is_brought_up_to_date(database: str) -> None:
    async def check() -> None:
        engine = create_async_engine(database)
        async with engine.begin() as conn:
            for statement in FIRST_SCHEMA:
                await conn.execute(sqlalchemy.text(statement))
        await engine.dispose()
        store = Store(database)
        await store.open()
        await store.open()  # a second start finds it up to date
        loaded = await store.load("old")
        assert loaded is not None and loaded.game == "tonk"
        async with store.engine.connect() as conn:
            version = (
                await conn.execute(sqlalchemy.text("SELECT version_num FROM alembic_version"))
            ).scalar_one()
            names = await conn.run_sync(lambda c: sqlalchemy.inspect(c).get_table_names())
        assert version == "0004" and "leases" in names and "tavern_meta" not in names
        # 0003: accounts, their sessions, matches and ratings, and the seat's account
        assert {"accounts", "sessions", "plays", "ratings"} <= set(names)
        assert loaded.seats == [] or loaded.seats[0].account_id is None
        assert await store.orphans() == ["old"]  # no lease yet: any process may take it
        await store.close()

    run(check())


def test_only_the_owner_writes_and_a_takeover_fences_the_old_owner_out(database: str) -> None:
    async def check() -> None:
        a, b = Store(database), Store(database)
        await a.open()
        await b.open()
        await a.create_table(
            "t", "tonk", {}, {}, "h", [StoredSeat(0, "person", None, None, None)], ("A", 0.3)
        )
        assert await b.acquire("t", "B", 10) is None  # A holds it
        await a.start_deal("t", 1, 1, {"x": 1}, fence=("t", "A", 1))
        await a.add_move("t", 1, 0, 0, "draw stock", fence=("t", "A", 1))
        assert await a.renew("A", ["t"], 0.3) == {"t"}
        time.sleep(0.4)  # A stops renewing: its lease runs out
        assert await b.orphans() == ["t"]
        assert await b.acquire("t", "B", 10) == 2
        assert await a.renew("A", ["t"], 10) == set()
        with pytest.raises(LeaseLost):
            await a.add_move("t", 1, 1, 0, "discard QH", fence=("t", "A", 1))
        await b.add_move("t", 1, 1, 0, "discard KH", fence=("t", "B", 2))
        loaded = await b.load("t")
        assert loaded is not None and loaded.deals[0].moves == [
            (0, "draw stock"),
            (0, "discard KH"),
        ]
        assert await b.owner("t") == ("B", 2, pytest.approx(time.time() + 10, abs=2))
        await a.close()
        await b.close()

    run(check())


def test_moves_of_many_tables_arriving_together_are_stored_in_one_group(database: str) -> None:
    """A single process's moves that arrive while a transaction is being written are committed
    together (the 200-table load), each one stored when its table's call returns, in order."""

    async def check() -> None:
        store = Store(database)
        await store.open()
        names = [f"t{k}" for k in range(12)]
        for name in names:
            await store.create_table(
                name, "tonk", {}, {}, "h", [StoredSeat(0, "person", None, None, None)]
            )
            await store.start_deal(name, 1, 1, {"x": 1})
        before = store.writes
        await asyncio.gather(*(store.add_move(name, 1, 0, 0, "draw stock") for name in names))
        await asyncio.gather(
            *(store.add_move(name, 1, 1, 0, "discard QH", {"winner": 0}, [1.0]) for name in names)
        )
        assert store.writes - before < 2 * len(names)  # grouped: fewer commits than moves
        for name in names:
            loaded = await store.load(name)
            assert loaded is not None
            assert loaded.deals[0].moves == [(0, "draw stock"), (0, "discard QH")]
            assert loaded.deals[0].finished and loaded.deals[0].result == {"winner": 0}
        await store.close()

    run(check())


def test_a_group_window_gathers_moves_arriving_apart_and_each_waits_for_its_commit(
    database: str,
) -> None:
    """``group_window``: moves of several tables arriving 10 ms apart share one commit within
    the window (without it, more: the loop is idle between them), and none returns before it
    is stored; SQLite's deals' headers join the same commit."""

    async def check(window: float) -> tuple[int, int]:
        store = Store(database, group_window=window)
        await store.open()
        names = [f"w{window}-{k}" for k in range(6)]
        for name in names:
            await store.create_table(
                name, "tonk", {}, {}, "h", [StoredSeat(0, "person", None, None, None)]
            )
        before = store.writes
        numbers = await asyncio.gather(*(store.start_deal(name, 1, 1, {"x": 1}) for name in names))
        assert numbers == [1] * len(names)
        deals = store.writes - before

        async def move(k: int, name: str) -> None:
            await asyncio.sleep(0.01 * k)
            await store.add_move(name, 1, 0, 0, "draw stock")
            loaded = await store.load(name)  # stored once the call returns
            assert loaded is not None and loaded.deals[0].moves == [(0, "draw stock")]

        before = store.writes
        await asyncio.gather(*(move(k, name) for k, name in enumerate(names)))
        moves = store.writes - before
        await store.close()
        return deals, moves

    deals, moves = run(check(0.25))  # type: ignore[misc]
    assert moves == 1
    if database.startswith("sqlite"):
        assert deals == 1  # the headers of six tables in one transaction
    _, apart = run(check(0.0))  # type: ignore[misc]
    assert apart > moves


def test_fenced_moves_of_many_tables_are_one_group_each_with_its_lease_checked() -> None:
    """A process of several on PostgreSQL commits its tables' moves together too (issue 23,
    fourth pass): fewer statements than moves, each move (and the deal it ends) stored when its
    table's call returns; a table whose lease another process took is refused (LeaseLost) and
    nothing of its move is written, while the other tables' moves of the same group are."""

    async def check(a: Store, b: Store) -> None:
        names = [f"t{k}" for k in range(12)]
        for name in names:
            seat = StoredSeat(0, "person", None, None, None)
            await a.create_table(name, "tonk", {}, {}, "h", [seat], ("A", 10))
            await a.start_deal(name, 1, 1, {"x": 1}, fence=(name, "A", 1))
        before = a.writes
        await asyncio.gather(
            *(a.add_move(name, 1, 0, 0, "draw stock", fence=(name, "A", 1)) for name in names)
        )
        assert a.writes - before < len(names)  # grouped: fewer statements than moves
        await a.release("A", ["t3"])
        assert await b.acquire("t3", "B", 10) == 2
        with pytest.raises(LeaseLost):
            await a.start_deal("t3", 2, 1, {"x": 2}, fence=("t3", "A", 1))
        moves = [
            a.add_move(name, 1, 1, 0, "discard QH", {"winner": 0}, [1.0], (name, "A", 1))
            for name in names
        ]
        done = await asyncio.gather(*moves, return_exceptions=True)
        assert [type(d) for d in done] == [
            LeaseLost if name == "t3" else type(None) for name in names
        ]
        for name in names:
            loaded = await b.load(name)
            assert loaded is not None
            if name == "t3":  # nothing of the refused move: not the move, not the end
                assert loaded.deals[0].moves == [(0, "draw stock")]
                assert not loaded.deals[0].finished and len(loaded.deals) == 1
            else:
                assert loaded.deals[0].moves == [(0, "draw stock"), (0, "discard QH")]
                assert loaded.deals[0].finished and loaded.deals[0].result == {"winner": 0}

    on_two_stores_of_a_fresh_postgres(check)


def test_postgresql_moves_go_over_one_kept_connection_that_a_failure_replaces() -> None:
    """One process on PostgreSQL writes its moves and deals' starts on one connection kept out
    of the pool (``PgMoves``): the same connection for every write; a row's fault is
    SQLAlchemy's ``IntegrityError`` and keeps it; a connection the server ends fails that
    write with a database fault (the move refused, nothing lost that was acknowledged) and the
    next write takes a new connection."""
    pytest.importorskip("asyncpg")
    url = fresh_postgres(postgres_url())

    async def check() -> None:
        store = Store(url)
        await store.open()
        await store.create_table(
            "t", "tonk", {}, {}, "h", [StoredSeat(0, "person", None, None, None)]
        )
        await store.start_deal("t", 1, 1, {"x": 1})
        await store.add_move("t", 1, 0, 0, "draw stock")
        pg = store._pg
        assert pg is not None and pg._driver is not None
        first = pg._driver
        await store.add_move("t", 1, 1, 0, "discard QH")
        assert pg._driver is first  # kept
        with pytest.raises(IntegrityError):
            await store.add_move("t", 1, 1, 0, "discard QH")  # the same move's number again
        assert pg._driver is first  # a row's fault keeps the connection
        admin = create_async_engine(url, isolation_level="AUTOCOMMIT")
        async with admin.connect() as conn:
            pid = first.get_server_pid()
            await conn.execute(sqlalchemy.text(f"SELECT pg_terminate_backend({int(pid)})"))
        await admin.dispose()
        with pytest.raises(Exception) as refused:
            for k in range(2, 50):  # the backend takes a moment to go
                await store.add_move("t", 1, k, 0, "draw stock")
                await asyncio.sleep(0.05)
        assert database_fault(refused.value) and not isinstance(refused.value, IntegrityError)
        stored = await store.load("t")
        assert stored is not None
        k = len(stored.deals[0].moves)
        await store.add_move("t", 1, k, 0, "draw stock")  # a new connection
        assert pg._driver is not None and pg._driver is not first
        stored = await store.load("t")
        assert stored is not None and stored.deals[0].moves[-1] == (0, "draw stock")
        assert len(stored.deals[0].moves) == k + 1
        await store.close()

    try:
        run(check())
    finally:
        drop_postgres(url)


def test_a_renewal_does_not_wait_for_a_move_in_flight_but_a_takeover_does() -> None:
    """On PostgreSQL the lease check of a write holds the lease row's KEY SHARE lock: the
    owner's renewal (and its giving the lease up) goes through while the write is in flight,
    and a takeover waits for the write, then wins (issue 23: the renewal queued behind the
    moves' row locks and the leases lapsed under load)."""

    # Row locks: PostgreSQL's only (SQLite has one writer at a time).
    async def check(a: Store, b: Store) -> None:
        await a.create_table(
            "t", "tonk", {}, {}, "h", [StoredSeat(0, "person", None, None, None)], ("A", 10)
        )
        await a.start_deal("t", 1, 1, {"x": 1}, fence=("t", "A", 1))
        async with a.engine.begin() as in_flight:
            await _fenced(in_flight, ("t", "A", 1))  # a write of A's, not committed yet
            assert await asyncio.wait_for(a.renew("A", ["t"], 10), 10) == {"t"}
            await asyncio.wait_for(a.release("A", ["t"]), 10)
            takeover = asyncio.create_task(b.acquire("t", "B", 10))
            await asyncio.sleep(1.0)
            assert not takeover.done()  # it waits for the write in flight
        assert await asyncio.wait_for(takeover, 10) == 2
        with pytest.raises(LeaseLost):
            await a.add_move("t", 1, 0, 0, "draw stock", fence=("t", "A", 1))

    on_two_stores_of_a_fresh_postgres(check)


def test_a_deals_header_that_cannot_join_the_group_is_written_on_its_own(tmp_path: Path) -> None:
    """SQLite: a header that finds the writers' lock held (another write in progress) is
    written by a task of its own once the lock is free, and a group that fails (here a move
    whose table is unknown to a constraint) leaves each header to its own write."""

    async def check() -> None:
        store = Store(sqlite_url(tmp_path))
        await store.open()
        for name in ("a", "b"):
            await store.create_table(
                name, "tonk", {}, {}, "h", [StoredSeat(0, "person", None, None, None)]
            )
        assert store._writer is not None
        async with store._writer:  # another write holds SQLite's one writer
            started = asyncio.ensure_future(store.start_deal("a", 1, 1, {"x": 1}))
            await asyncio.sleep(0.05)
            assert not started.done()
        assert await started == 1
        await store.start_deal("b", 1, 1, {"x": 2})
        # A group whose move collides with a stored one fails as a whole: the header beside it
        # is still written (on its own), and the colliding move alone is refused.
        await store.add_move("a", 1, 0, 0, "draw stock")
        again = asyncio.ensure_future(store.add_move("a", 1, 0, 0, "draw stock"))
        header = asyncio.ensure_future(store.start_deal("b", 2, 1, {"x": 3}))
        assert await header == 2
        with pytest.raises(IntegrityError):
            await again
        loaded = await store.load("b")
        assert loaded is not None and [d.number for d in loaded.deals] == [1, 2]
        await store.close()

    run(check())


@pytest.mark.parametrize("window", ["-1", "1001", "soon"])
def test_a_group_window_out_of_range_is_refused(
    window: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tavern serve --group-commit-ms``: 0 to 1000 ms, else one line and exit 2."""
    from taverntable.cli import main

    try:
        code = main(["serve", "--group-commit-ms", window])
    except SystemExit as e:  # argparse's own exit, for a value that is no number
        code = e.code
    assert code == 2
    assert "--group-commit-ms" in capsys.readouterr().err
