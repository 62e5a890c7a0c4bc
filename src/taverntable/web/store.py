"""Storage of tables, seats, deals and moves: SQLAlchemy 2 (async), SQLite by default.

Every move is written (and committed) before anyone is told of it, so a server killed at any
moment loses nothing it acknowledged; starting again replays each table's stored deals. A deal is
stored as its record's header (``docs/record-format.md``: rules, players, dealer, stake, cards)
and its moves one row each, so that a finished deal downloads as a record ``tavern replay``
accepts. Seat tokens are kept as SHA-256 digests: the database alone seats nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    event,
    make_url,
    or_,
    select,
    update,
)
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import (
    DataError,
    DBAPIError,
    IntegrityError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

MIGRATIONS = Path(__file__).parent / "migrations"
T = TypeVar("T")

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("settings", JSON, nullable=False),  # stake, match length, timers, bot level
    Column("host_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False),  # lobby, playing, finished, expired
    Column("match", Integer, nullable=False, default=1),
    Column("created", Float, nullable=False),
)

seats_t = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # person, bot
    Column("name", String(128), nullable=True),
    Column("level", String(16), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("account_id", String(32), nullable=True),  # a signed-in person's seat (0003)
)

deals_t = Table(
    "deals",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("match", Integer, nullable=False),
    Column("header", JSON, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("result", JSON, nullable=True),
    Column("returns", JSON, nullable=True),
)

moves_t = Table(
    "moves",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", Text, nullable=False),
)

# Several server processes (issue 12): the process that owns a table, until ``expires`` (Unix
# time); ``epoch`` grows with every change of owner, and every write of the owner checks it.
leases_t = Table(
    "leases",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("expires", Float, nullable=False),
)


class LeaseLost(Exception):
    """This process no longer owns the table: another took it over (its lease expired)."""


Fence = tuple[str, str, int]  # (table id, owner, epoch): writes only while the lease is ours
# A move waiting for the group commit: its row, the deal it ends (if any), the table's future.
Pending = tuple[dict[str, Any], dict[str, Any] | None, "asyncio.Future[None]"]


def digest(token: str) -> str:
    """What is stored of a secret token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredSeat:
    seat: int
    kind: str
    name: str | None
    level: str | None
    token_hash: str | None
    account_id: str | None = None


@dataclass
class StoredDeal:
    number: int
    match: int
    header: dict[str, Any]
    finished: bool
    result: dict[str, Any] | None
    returns: list[float] | None
    moves: list[tuple[int, str]]


@dataclass
class StoredTable:
    id: str
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    host_hash: str
    status: str
    match: int
    created: float
    seats: list[StoredSeat]
    deals: list[StoredDeal]


def default_url(data_dir: Path) -> str:
    """The SQLite file in the user's data folder."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{data_dir / 'tavern.sqlite3'}"


PG_POOL = 15  # PostgreSQL connections kept by a process (and 5 more at a peak)


class Store:
    """The server's database."""

    def __init__(self, url: str, busy_timeout: float = 30.0, group_window: float = 0.0) -> None:
        """``group_window``: seconds a group commit waits for more moves after its first (0:
        written at the end of the loop's turn). Each move still waits for its own commit
        before its update goes out; a busy server's moves share fewer transactions for it
        (``tavern serve --group-commit-ms``, issue 23 seventh pass)."""
        self.url = url
        self.group_window = group_window
        # PostgreSQL: connections kept for as many writes in flight as a busy process has
        # (SQLAlchemy's default keeps 5 and opens and closes up to 10 more, a connection and TLS
        # handshake each: 5 % of a cluster's CPU at 500 tables, issue 23).
        kept = {"pool_size": PG_POOL, "max_overflow": 5} if url.startswith("postgres") else {}
        self.engine: AsyncEngine = create_async_engine(url, **kept)
        # SQLite has one writer at a time: writers queue here instead of timing out on its
        # lock while the event loop is busy elsewhere ("database is locked").
        self._writer = asyncio.Lock() if url.startswith("sqlite") else None
        self.writes = 0  # write transactions committed (for the load figures)
        # Moves waiting for the next group commit (see add_move), with the futures their
        # tables await.
        self._pending: list[Pending] = []
        self._flusher: asyncio.Task[None] | None = None
        self._flush_soon = False  # a ``_flush_here`` is scheduled
        # SQLite: deals' headers waiting for the same group commit (``start_deal``), and the
        # tasks writing those it could not take (``_start_deal_apart``).
        self._deals: list[tuple[tuple[Any, ...], Sequence[tuple[Any, ...]], asyncio.Future[int]]]
        self._deals = []
        self._apart: set[asyncio.Task[None]] = set()
        self.renewals = 0  # of which lease renewals (a process's fixed cost, not a move's)
        # The moves' and deals' writes on SQLite (``SqliteMoves``), and on PostgreSQL an engine
        # of single statements, each its own transaction (one round trip, no BEGIN, no COMMIT).
        self._moves: SqliteMoves | None = None
        self._autocommit: AsyncEngine | None = None
        self._pg: PgMoves | None = None
        if url.startswith("postgresql+asyncpg"):
            self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            self._pg = PgMoves(self._autocommit)
        if url.startswith("sqlite"):
            # How long a write waits for another writer's lock (another process's, or a
            # backup's) before it fails.
            pragmas = _sqlite_pragmas(round(busy_timeout * 1000))
            event.listen(self.engine.sync_engine, "connect", pragmas)
            path = make_url(url).database
            if path and path != ":memory:" and not path.startswith("file:"):
                self._moves = SqliteMoves(path, busy_timeout)

    def write(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        """A write transaction (committed on leaving), queued behind SQLite's one writer: for
        the stores that share this database (``accounts.py``)."""
        return self._write()

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction (committed on leaving)."""
        if self._writer is None:
            async with self.engine.begin() as conn:
                yield conn
        else:
            async with self._writer, self.engine.begin() as conn:
                yield conn
        self.writes += 1

    async def open(self) -> None:
        """Bring the schema to the newest version (Alembic; ``migrations/``)."""
        async with self.engine.begin() as conn:
            await conn.run_sync(_migrate)

    async def close(self) -> None:
        if self._flusher is not None:
            await self._flusher  # the moves already acknowledged are written first
        if self._apart:
            await asyncio.gather(*self._apart, return_exceptions=True)
        if self._moves is not None:
            self._moves.close()
        if self._pg is not None:
            await self._pg.close()
        await self.engine.dispose()

    async def create_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        host_hash: str,
        seats: Sequence[StoredSeat],
        lease: tuple[str, float] | None = None,
    ) -> None:
        """A new table and its seats; with ``lease`` (owner, seconds), owned from the start
        (epoch 1), so that no other process takes it for an orphan in between."""
        async with self._write() as conn:
            await conn.execute(
                tables_t.insert().values(
                    id=table_id,
                    game=game,
                    options=options,
                    settings=settings,
                    host_hash=host_hash,
                    status="lobby",
                    match=1,
                    created=time.time(),
                )
            )
            await conn.execute(
                seats_t.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "level": s.level,
                        "token_hash": s.token_hash,
                        "account_id": s.account_id,
                    }
                    for s in seats
                ],
            )
            if lease is not None:
                await conn.execute(
                    leases_t.insert().values(
                        table_id=table_id, owner=lease[0], epoch=1, expires=time.time() + lease[1]
                    )
                )

    async def claim_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        account_id: str | None = None,
    ) -> bool:
        """Give an open person seat a name and a token (and the account of a signed-in
        person); False when it was taken meanwhile."""
        async with self._write() as conn:
            result = await conn.execute(
                update(seats_t)
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    seats_t.c.kind == "person",
                    seats_t.c.token_hash.is_(None),
                )
                .values(name=name, token_hash=token_hash, account_id=account_id)
            )
            return bool(result.rowcount)

    async def set_status(
        self, table_id: str, status: str, match: int | None = None, fence: Fence | None = None
    ) -> None:
        values: dict[str, Any] = {"status": status}
        if match is not None:
            values["match"] = match
        async with self._write() as conn:
            await _fenced(conn, fence)
            await conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    async def start_deal(
        self,
        table_id: str,
        number: int,
        match: int,
        header: dict[str, Any],
        moves: Sequence[tuple[int, str]] = (),
        fence: Fence | None = None,
        result: dict[str, Any] | None = None,
        returns: Sequence[float] | None = None,
    ) -> int:
        """A new deal's record header (and any moves made in setting it up, and its result when
        it ended at once: a win on the deal, T4), in one transaction; returns its number.

        That is ``number`` unless the table has a deal or moves numbered so already: a write
        whose commit was reported failed but happened, or a database of a server that went on
        without its deal's header (issue 24). Then the deal takes the next free number, so
        that no table is ever stuck on a number it cannot write."""
        deal = (
            table_id,
            number,
            match,
            json.dumps(header),
            result is not None,
            None if result is None else json.dumps(result),
            None if result is None else json.dumps(list(returns or ())),
        )
        rows = [(table_id, k, seat, m) for k, (seat, m) in enumerate(moves)]
        if self._moves is not None and fence is None:
            # Joins the moves' group commit (``_flush_here``): a deal's header was a transaction
            # of its own, a fifth of the CPU of a load test's five-move deals (issue 23,
            # seventh pass).
            written: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            self._deals.append((deal, rows, written))
            self._flush_here_soon()
            return await written
        if self._pg is not None and fence is None:
            ks, seats, texts = ([r[i] for r in rows] for i in (1, 2, 3))
            number = int(await self._pg.run(PG_START_DEAL, (*deal, ks, seats, texts), True))
            self.writes += 1
            return number
        if self._pg is not None:
            assert fence is not None
            ks, seats, texts = ([r[i] for r in rows] for i in (1, 2, 3))
            started = int(
                await self._pg.run(PG_FENCED_START_DEAL, (*deal, ks, seats, texts, *fence), True)
            )
            if not started:  # 0: the lease was lost, nothing written
                raise LeaseLost(f"table {fence[0]} is no longer owned by {fence[1]}")
            self.writes += 1
            return started
        async with self._write() as conn:
            await _fenced(conn, fence)
            sql = DriverSql.of(conn)
            used = await conn.exec_driver_sql(sql.last_deal, (table_id,))
            moved = await conn.exec_driver_sql(sql.last_moved, (table_id,))
            number = max(number, (used.scalar() or 0) + 1, (moved.scalar() or 0) + 1)
            await conn.exec_driver_sql(sql.insert_deal, (deal[0], number, *deal[2:]))
            if rows:
                await conn.exec_driver_sql(
                    sql.insert_move,
                    [(t, number, k, seat, m) for t, k, seat, m in rows],
                )
        return number

    async def add_move(
        self,
        table_id: str,
        deal: int,
        number: int,
        seat: int,
        move: str,
        result: dict[str, Any] | None = None,
        returns: Sequence[float] | None = None,
        fence: Fence | None = None,
    ) -> None:
        """One move (and, when it ended the deal, the result), stored when this returns.

        A table of one process (no fence) joins a group commit: the moves that arrive while a
        transaction is being written go together in the next one, so a busy server writes one
        transaction for many tables' moves instead of one each (each table still awaits its
        own move before it applies the next, and the move happened only once this returns).
        On PostgreSQL a fenced write (several processes) joins the group commit too, each
        move with its own lease checked in the group's one statement (``PG_FENCED_MOVES``; a
        move whose lease is lost raises LeaseLost and is not written, the others are); on
        SQLite it checks its lease in a transaction of its own."""
        if fence is None or self._pg is not None:
            finish = (
                None
                if result is None
                else {
                    "table_id": table_id,
                    "number": deal,
                    "result": result,
                    "returns": list(returns or ()),
                }
            )
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._pending.append(
                (
                    {
                        "table_id": table_id,
                        "deal": deal,
                        "number": number,
                        "seat": seat,
                        "move": move,
                        "fence": fence,
                    },
                    finish,
                    done,
                )
            )
            if self._moves is not None:
                # SQLite: the group is written by a callback at the loop turn's end, without
                # a task a move (issue 23, sixth pass; ``_flush_here``).
                self._flush_here_soon()
            elif self._flusher is None or self._flusher.done():
                self._flusher = asyncio.create_task(self._flush())
            await done
            return
        async with self._write() as conn:
            await _fenced(conn, fence)
            sql = DriverSql.of(conn)
            await conn.exec_driver_sql(sql.insert_move, (table_id, deal, number, seat, move))
            if result is not None:
                await conn.exec_driver_sql(
                    sql.end_deal,
                    (json.dumps(result), json.dumps(list(returns or ())), table_id, deal),
                )

    def _flush_here_soon(self) -> None:
        """SQLite: ``_flush_here`` at the end of this loop turn (``group_window`` later when
        set), once however many moves and deals ask for it meanwhile."""
        if not self._flush_soon:
            self._flush_soon = True
            if self.group_window > 0:
                asyncio.get_running_loop().call_later(self.group_window, self._flush_here)
            else:
                asyncio.get_running_loop().call_soon(self._flush_here)

    def _flush_here(self) -> None:
        """The waiting moves and deals' headers in one transaction on SQLite's connection in
        the loop's own thread, now; anything else (the writer's lock held by another write,
        the database locked by another connection, an error) goes the way each went alone:
        the moves to ``_flush``'s task, which hands a locked database to the thread, retries a
        failed group move by move and says why; each deal to a task of its own
        (``_start_deal_apart``)."""
        self._flush_soon = False
        moves, writer = self._moves, self._writer
        deals, self._deals = self._deals, []
        busy = self._flusher is not None and not self._flusher.done()
        if moves is not None and writer is not None and not writer.locked() and not busy:
            group, self._pending = self._pending, []
            rows, ends = _group_rows(group)
            try:
                numbers = moves.run_here(moves.group(rows, ends, [d[:2] for d in deals]))
            except Exception:  # written by none: each goes its own way again
                self._pending = group + self._pending
            else:
                self.writes += 1
                for row, _, done in group:
                    _settle(done, row, set())
                for (_, _, started), number in zip(deals, numbers, strict=True):
                    if not started.done():
                        started.set_result(number)
                return
        for header, its_moves, started in deals:
            task = asyncio.create_task(self._start_deal_apart(header, its_moves, started))
            self._apart.add(task)
            task.add_done_callback(self._apart.discard)
        if self._pending and not busy:
            self._flusher = asyncio.create_task(self._flush())

    async def _start_deal_apart(
        self, deal: tuple[Any, ...], rows: Sequence[tuple[Any, ...]], started: asyncio.Future[int]
    ) -> None:
        """A deal's header in a transaction of its own, behind SQLite's writer lock (what a
        group commit could not write); its number or its error to ``started``."""
        assert self._moves is not None and self._writer is not None
        try:
            async with self._writer:
                number = await self._moves.run(self._moves.deal(deal, rows))
        except BaseException as e:
            if not started.done():
                started.set_exception(e)
            if not isinstance(e, Exception):
                raise
            return
        self.writes += 1
        if not started.done():
            started.set_result(number)

    async def _flush(self) -> None:
        """Write the waiting moves, group by group, until none waits (the first group once
        ``group_window`` has passed)."""
        if self.group_window > 0:
            await asyncio.sleep(self.group_window)
        while self._pending:
            group, self._pending = self._pending, []
            try:
                lost = await self._write_moves(group)
            except Exception as e:
                # One table's bad row (a unique violation, say) must not cost the other tables
                # their moves: each move again in a transaction of its own.
                await self._write_singly(group, e)
            else:
                for row, _, done in group:
                    _settle(done, row, lost)

    async def _write_moves(self, group: Sequence[Pending]) -> set[str]:
        """Moves of several tables (one each) and the deals they end, in one transaction;
        returns the tables of the fenced moves not written, their leases lost.

        A move's write was most of its cost to the server (issue 23), so it skips SQLAlchemy's
        statement machinery: on SQLite the whole transaction is one call of the standard
        library's ``sqlite3`` (``SqliteMoves``: in the event loop's thread), elsewhere the same
        two statements go to the driver as they are (``exec_driver_sql``: no compiling, no
        cache key), in a transaction of SQLAlchemy's (its errors, its pool)."""
        rows, ends = _group_rows(group)
        if self._moves is not None:
            assert self._writer is not None
            async with self._writer:
                await self._moves.run(self._moves.moves(rows, ends))
            self.writes += 1
            return set()
        if self._pg is not None:
            fences = [row["fence"] for row, _, _ in group]
            if all(f is None for f in fences):
                columns = [[r[i] for r in rows] for i in range(5)]
                ended = [[e[i] for e in ends] for i in (2, 3, 0, 1)]
                await self._pg.run(PG_MOVES, (*columns, *ended))
                self.writes += 1
                return set()
            return await self._write_fenced(group)
        async with self._write() as conn:
            sql = DriverSql.of(conn)
            await conn.exec_driver_sql(sql.insert_move, rows)
            for values in ends:
                await conn.exec_driver_sql(sql.end_deal, values)
        return set()

    async def _write_fenced(self, group: Sequence[Pending]) -> set[str]:
        """A group commit of fenced moves on PostgreSQL (several processes): one statement,
        each move written only while its table's lease is the writer's (``PG_FENCED_MOVES``);
        returns the tables whose leases were lost (their moves and deals' ends not written).
        Through SQLAlchemy's connection, one statement a move, the fenced write was a third of
        a cluster process's CPU (issue 23, fourth pass)."""
        rows = [row for row, _, _ in group]
        ends = [finish for _, finish, _ in group if finish is not None]
        assert self._pg is not None
        held = await self._pg.fetch(
            PG_FENCED_MOVES,
            (
                [r["table_id"] for r in rows],
                [r["deal"] for r in rows],
                [r["number"] for r in rows],
                [r["seat"] for r in rows],
                [r["move"] for r in rows],
                [r["fence"][1] for r in rows],
                [r["fence"][2] for r in rows],
                [e["table_id"] for e in ends],
                [e["number"] for e in ends],
                [json.dumps(e["result"]) for e in ends],
                [json.dumps(e["returns"]) for e in ends],
            ),
        )
        self.writes += 1
        mine = {r[0] for r in held}
        return {r["table_id"] for r in rows} - mine

    async def _write_singly(self, group: Sequence[Pending], error: Exception) -> None:
        """After a group failed: each move alone, so only the moves that fail are refused. When
        the database itself is away (not one row's fault), the rest of the group fails with it
        at once instead of waiting for it once per move."""
        if len(group) == 1 or not _row_fault(error):
            for _, _, done in group:
                if not done.done():
                    done.set_exception(error)
            return
        for k, entry in enumerate(group):
            done = entry[2]
            try:
                lost = await self._write_moves([entry])
            except Exception as e:
                if not done.done():
                    done.set_exception(e)
                if not _row_fault(e):
                    await self._write_singly(group[k + 1 :], e)
                    return
            else:
                _settle(done, entry[0], lost)

    # --- leases (several server processes) -------------------------------------------------

    async def acquire(self, table_id: str, node: str, seconds: float) -> int | None:
        """Own ``table_id`` for ``seconds`` if nobody does (or its lease ran out, or it is ours);
        returns the lease's epoch, or None when another process holds it."""
        now = time.time()
        async with self._write() as conn:
            # FOR UPDATE: waits for the owner's writes in flight (their lease check holds the
            # row's KEY SHARE lock), and the owner's next write waits for this one, then sees it.
            row = (
                await conn.execute(
                    select(leases_t).where(leases_t.c.table_id == table_id).with_for_update()
                )
            ).first()
            if row is None:
                try:
                    await conn.execute(
                        leases_t.insert().values(
                            table_id=table_id, owner=node, epoch=1, expires=now + seconds
                        )
                    )
                except IntegrityError:  # another process made it at the same moment
                    return None
                return 1
            if row.owner != node and row.expires >= now:
                return None
            epoch = row.epoch if row.owner == node else row.epoch + 1
            done = await conn.execute(
                update(leases_t)
                .where(
                    leases_t.c.table_id == table_id,
                    leases_t.c.epoch == row.epoch,
                    leases_t.c.owner == row.owner,
                )
                .values(owner=node, epoch=epoch, expires=now + seconds)
            )
            return epoch if done.rowcount else None

    async def renew(self, node: str, table_ids: Sequence[str], seconds: float) -> set[str]:
        """Extend this process's leases; returns the tables it still owns."""
        if not table_ids:
            return set()
        async with self._write() as conn:
            rows = await conn.execute(
                update(leases_t)
                .where(leases_t.c.owner == node, leases_t.c.table_id.in_(list(table_ids)))
                .values(expires=time.time() + seconds)
                .returning(leases_t.c.table_id)
            )
            held = {r.table_id for r in rows}
        self.renewals += 1
        return held

    async def release(self, node: str, table_ids: Sequence[str]) -> None:
        """Give leases up at once (a process shutting down cleanly)."""
        if table_ids:
            async with self._write() as conn:
                await conn.execute(
                    update(leases_t)
                    .where(leases_t.c.owner == node, leases_t.c.table_id.in_(list(table_ids)))
                    .values(expires=0.0)
                )

    async def owner(self, table_id: str) -> tuple[str, int, float] | None:
        """(owner, epoch, expires) of a table's lease; a table that never had one has an empty
        owner whose lease has run out; None: no such table."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(leases_t).where(leases_t.c.table_id == table_id))
            ).first()
            if row is not None:
                return (row.owner, row.epoch, row.expires)
            exists = (
                await conn.execute(select(tables_t.c.id).where(tables_t.c.id == table_id))
            ).first()
            return None if exists is None else ("", 0, 0.0)

    async def status(self, table_id: str) -> str | None:
        """A table's status (None: no such table)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id))
            ).first()
            return None if row is None else str(row.status)

    async def orphans(self) -> list[str]:
        """Tables in the lobby or in play whose lease ran out (their process is gone), or that
        never had one (made by a lone server before this one joined a cluster)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables_t.c.id)
                .outerjoin(leases_t, tables_t.c.id == leases_t.c.table_id)
                .where(
                    or_(leases_t.c.expires.is_(None), leases_t.c.expires < time.time()),
                    tables_t.c.status.in_(["lobby", "playing"]),
                )
            )
            return [r.id for r in rows]

    async def open_tables(self) -> list[str]:
        """Every table in the lobby or in play, newest first (the lobby of a cluster)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables_t.c.id)
                .where(tables_t.c.status.in_(["lobby", "playing"]))
                .order_by(tables_t.c.created.desc())
                .limit(200)
            )
            return [r.id for r in rows]

    async def load_all(
        self, statuses: Sequence[str] = ("lobby", "playing", "finished")
    ) -> list[StoredTable]:
        """Every table with one of ``statuses``, with its seats, deals and moves."""
        async with self.engine.connect() as conn:
            rows = (
                (await conn.execute(select(tables_t).where(tables_t.c.status.in_(list(statuses)))))
                .mappings()
                .all()
            )
            out = []
            for row in rows:
                out.append(await self._load(conn, dict(row)))
            return out

    async def load(self, table_id: str) -> StoredTable | None:
        async with self.engine.connect() as conn:
            row = (
                (await conn.execute(select(tables_t).where(tables_t.c.id == table_id)))
                .mappings()
                .first()
            )
            return None if row is None else await self._load(conn, dict(row))

    async def _load(self, conn: Any, row: dict[str, Any]) -> StoredTable:
        tid = row["id"]
        seats = [
            StoredSeat(r.seat, r.kind, r.name, r.level, r.token_hash, r.account_id)
            for r in (
                await conn.execute(
                    select(seats_t).where(seats_t.c.table_id == tid).order_by(seats_t.c.seat)
                )
            ).all()
        ]
        deals = []
        for d in (
            await conn.execute(
                select(deals_t).where(deals_t.c.table_id == tid).order_by(deals_t.c.number)
            )
        ).all():
            moves = [
                (m.seat, m.move)
                for m in (
                    await conn.execute(
                        select(moves_t.c.seat, moves_t.c.move)
                        .where(moves_t.c.table_id == tid, moves_t.c.deal == d.number)
                        .order_by(moves_t.c.number)
                    )
                ).all()
            ]
            deals.append(
                StoredDeal(
                    d.number,
                    d.match,
                    _json(d.header),
                    bool(d.finished),
                    _json(d.result),
                    _json(d.returns),
                    moves,
                )
            )
        return StoredTable(
            tid,
            row["game"],
            _json(row["options"]),
            _json(row["settings"]),
            row["host_hash"],
            row["status"],
            row["match"],
            row["created"],
            seats,
            deals,
        )


@dataclass(frozen=True)
class DriverSql:
    """The statements of a deal's and a move's writes as the driver takes them (issue 23: a
    move's write without SQLAlchemy's compiling and cache keys), in the driver's parameter
    style: ``?`` (sqlite3), ``$1`` … (asyncpg)."""

    insert_move: str
    end_deal: str
    insert_deal: str
    last_deal: str
    last_moved: str
    fence: str

    @staticmethod
    def of(conn: AsyncConnection) -> DriverSql:
        return PG_SQL if conn.dialect.name == "postgresql" else SQLITE_SQL

    def numbered(self) -> DriverSql:
        """The same with ``$1``, ``$2`` … for each ``?``."""

        def number(statement: str) -> str:
            parts = statement.split("?")
            return parts[0] + "".join(f"${k}{part}" for k, part in enumerate(parts[1:], 1))

        return DriverSql(*(number(getattr(self, f)) for f in self.__dataclass_fields__))


SQLITE_SQL = DriverSql(
    insert_move="INSERT INTO moves (table_id, deal, number, seat, move) VALUES (?, ?, ?, ?, ?)",
    end_deal="UPDATE deals SET finished = TRUE, result = ?, returns = ? "
    "WHERE table_id = ? AND number = ?",
    insert_deal="INSERT INTO deals (table_id, number, match, header, finished, result, returns) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)",
    last_deal="SELECT max(number) FROM deals WHERE table_id = ?",
    last_moved="SELECT max(deal) FROM moves WHERE table_id = ?",
    fence="UPDATE leases SET epoch = ? WHERE table_id = ? AND owner = ? AND epoch = ?",
)
# On PostgreSQL the lease check takes the lease row's KEY SHARE lock and writes nothing: the
# renewal (an UPDATE of ``expires``: a NO KEY UPDATE lock) does not wait for the moves in flight,
# nor they for it, while a takeover (``acquire``: FOR UPDATE) still waits for every write in
# flight and is then seen by the next one (issue 23: the renewal queued behind the moves' row
# locks and the leases lapsed under load).
PG_SQL = dataclasses.replace(
    SQLITE_SQL.numbered(),
    fence="SELECT 1 FROM leases WHERE epoch = $1 AND table_id = $2 AND owner = $3 "
    "AND epoch = $4 FOR KEY SHARE",
)

# PostgreSQL, a lone process: a group commit's moves (columns $1-$5) and the deals they end
# ($6-$9: table, number, result, returns), and a deal's start (its header row as
# ``Store.start_deal`` makes it, $1-$7, its number the first free one from $2 on, then its
# setting up's moves as columns: number, seat, move), each one statement: one round trip, and
# a transaction of its own (PostgreSQL's data-modifying WITH: all of it, or none).
PG_MOVES = """
WITH ins AS (
    INSERT INTO moves (table_id, deal, number, seat, move)
    SELECT * FROM unnest($1::varchar[], $2::int[], $3::int[], $4::int[], $5::text[])
), ends AS (
    UPDATE deals SET finished = TRUE, result = e.result::json, returns = e.returns::json
    FROM unnest($6::varchar[], $7::int[], $8::text[], $9::text[])
        AS e(table_id, number, result, returns)
    WHERE deals.table_id = e.table_id AND deals.number = e.number
)
SELECT 1
"""
# PostgreSQL, a process of several: a group commit of fenced moves, as ``PG_MOVES`` with each
# move's lease ($1-$5 the moves, $6-$7 each one's owner and epoch; $8-$11 the deals they end)
# checked in the same statement: a move and its deal's end are written only while its table's
# lease row is the writer's, and that row's KEY SHARE lock (``PG_SQL.fence``) is held to the
# statement's end, its own transaction. It answers the tables whose leases held; a move of any
# other table was not written (LeaseLost). One round trip for the moves of many tables, on the
# kept connection of ``PgMoves`` (issue 23, fourth pass; one statement a move through
# SQLAlchemy's pool before).
PG_FENCED_MOVES = """
WITH m AS (
    SELECT * FROM unnest(
        $1::varchar[], $2::int[], $3::int[], $4::int[], $5::text[], $6::varchar[], $7::int[]
    ) AS m(table_id, deal, number, seat, move, owner, epoch)
), f AS MATERIALIZED (
    SELECT table_id FROM leases
    WHERE (table_id, owner, epoch) IN (SELECT table_id, owner, epoch FROM m)
    FOR KEY SHARE
), ins AS (
    INSERT INTO moves (table_id, deal, number, seat, move)
    SELECT m.table_id, m.deal, m.number, m.seat, m.move FROM m
    WHERE m.table_id IN (SELECT table_id FROM f)
), ends AS (
    UPDATE deals SET finished = TRUE, result = e.result::json, returns = e.returns::json
    FROM unnest($8::varchar[], $9::int[], $10::text[], $11::text[])
        AS e(table_id, number, result, returns)
    WHERE deals.table_id = e.table_id AND deals.number = e.number
        AND e.table_id IN (SELECT table_id FROM f)
)
SELECT table_id FROM f
"""
# A deal's start, one statement, for a lone process (``PG_START_DEAL``) and a process of several
# (``PG_FENCED_START_DEAL``: the lease checked in the statement, $11-$13 table, owner, epoch, as
# in ``PG_FENCED_MOVES``; it answers the deal's number, 0 when the lease was lost and nothing
# written). The same header row and moves: the fenced one only takes its rows FROM the lease.
_PG_DEAL = """
WITH {fence}d AS (
    INSERT INTO deals (table_id, number, match, header, finished, result, returns)
    SELECT $1::varchar, GREATEST(
        $2::int,
        COALESCE((SELECT max(number) FROM deals WHERE table_id = $1::varchar), 0) + 1,
        COALESCE((SELECT max(deal) FROM moves WHERE table_id = $1::varchar), 0) + 1
    ), $3::int, $4::json, $5::boolean, $6::json, $7::json
    {source}RETURNING number
), m AS (
    INSERT INTO moves (table_id, deal, number, seat, move)
    SELECT $1::varchar, d.number, u.k, u.seat, u.move
    FROM d, unnest($8::int[], $9::int[], $10::text[]) AS u(k, seat, move)
)
SELECT {answer}
"""
PG_START_DEAL = _PG_DEAL.format(fence="", source="", answer="number FROM d")
PG_FENCED_START_DEAL = _PG_DEAL.format(
    fence="""f AS MATERIALIZED (
    SELECT 1 FROM leases
    WHERE table_id = $11::varchar AND owner = $12::varchar AND epoch = $13::int FOR KEY SHARE
), """,
    source="FROM f\n    ",
    answer="COALESCE((SELECT number FROM d), 0)",
)


class SqliteMoves:
    """The moves' and deals' writes on SQLite, with the standard library's ``sqlite3`` and
    without SQLAlchemy's machinery around each statement (issue 23: that and aiosqlite's
    hand-offs to its thread, one a statement, were most of a move's cost to the server).

    A transaction is first tried in the event loop's own thread, on a connection that does not
    wait for a lock (``busy_timeout=0``): with WAL and ``synchronous=NORMAL`` a commit is a
    write into the write-ahead log, no ``fsync``, tens of microseconds, less than a hand-off
    to a thread costs. When another connection holds the write lock (another process, a
    backup; this process's own writers queue on ``Store._writer``), it is rolled back and
    tried again in a thread of its own, on a connection that waits for the lock as the other
    writes do (``busy_timeout``), so the event loop never waits for a lock. The loop's
    connection never checkpoints (``wal_autocheckpoint=0``: a checkpoint ``fsync``s the
    database file); the thread checkpoints every ``CHECKPOINT_EVERY`` commits, passively
    (writers go on meanwhile).

    What a commit survives: once it returns, the transaction is in the log file (the operating
    system's cache), so it survives the server being killed (SIGKILL) or crashing; a crash of
    the operating system or a power cut may lose the last commits (``synchronous=NORMAL``;
    ``FULL`` would ``fsync`` each). Errors are SQLAlchemy's (``IntegrityError``,
    ``OperationalError`` …), as the other writes' are."""

    CHECKPOINT_EVERY = 1000

    def __init__(self, path: str, busy_timeout: float) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="tavern-moves")
        self._here: sqlite3.Connection | None = None  # the event loop's: never waits
        self._there: sqlite3.Connection | None = None  # the thread's: waits for the lock
        self._commits = 0
        self.handed_off = 0  # transactions the loop's connection found locked

    def _connect(self, busy_timeout: float, checkpoints: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(f"PRAGMA busy_timeout={round(busy_timeout * 1000)}")
        conn.execute("PRAGMA foreign_keys=ON")
        if not checkpoints:
            conn.execute("PRAGMA wal_autocheckpoint=0")
        return conn

    def _thread_connection(self) -> sqlite3.Connection:
        if self._there is None:
            self._there = self._connect(self.busy_timeout, True)
        return self._there

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` in one transaction on the loop's connection, else (the database locked)
        in the thread's; SQLAlchemy's errors."""
        try:
            if self._here is None:
                self._here = self._connect(0.0, False)
            try:
                done = _transaction(self._here, work)
            except sqlite3.OperationalError as e:
                if e.sqlite_errorcode not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise
                self.handed_off += 1
                loop = asyncio.get_running_loop()
                done = await loop.run_in_executor(
                    self.thread, lambda: _transaction(self._thread_connection(), work)
                )
        except sqlite3.Error as e:
            raise DBAPIError.instance(None, None, e, sqlite3.Error) from e
        self._committed()
        return done

    def run_here(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` in one transaction on the loop's connection, or ``sqlite3``'s error (the
        database locked, say: then ``run``)."""
        if self._here is None:
            self._here = self._connect(0.0, False)
        done = _transaction(self._here, work)
        self._committed()
        return done

    def _committed(self) -> None:
        self._commits += 1
        if self._commits % self.CHECKPOINT_EVERY == 0:
            self.thread.submit(self._checkpoint)

    def _checkpoint(self) -> None:
        """The log's pages into the database file, without waiting for writers (in the
        thread); a failure only leaves the log longer until the next."""
        with contextlib.suppress(sqlite3.Error):
            self._thread_connection().execute("PRAGMA wal_checkpoint(PASSIVE)")

    @staticmethod
    def moves(
        rows: Sequence[tuple[Any, ...]], ends: Sequence[tuple[Any, ...]]
    ) -> Callable[[sqlite3.Connection], None]:
        """The moves ``rows`` and the deals they end (``ends``)."""

        def work(conn: sqlite3.Connection) -> None:
            conn.executemany(SQLITE_SQL.insert_move, rows)
            for params in ends:
                conn.execute(SQLITE_SQL.end_deal, params)

        return work

    @classmethod
    def group(
        cls,
        rows: Sequence[tuple[Any, ...]],
        ends: Sequence[tuple[Any, ...]],
        deals: Sequence[tuple[tuple[Any, ...], Sequence[tuple[Any, ...]]]],
    ) -> Callable[[sqlite3.Connection], list[int]]:
        """A group commit: the deals' headers (each as ``deal`` writes it) and the moves
        ``rows`` with the deals they end; the work returns the deals' numbers in order."""
        written = cls.moves(rows, ends)
        starts = [cls.deal(deal, moves) for deal, moves in deals]

        def work(conn: sqlite3.Connection) -> list[int]:
            numbers = [start(conn) for start in starts]
            written(conn)
            return numbers

        return work

    @staticmethod
    def deal(
        deal: tuple[Any, ...], rows: Sequence[tuple[Any, ...]]
    ) -> Callable[[sqlite3.Connection], int]:
        """A deal's header row ``deal`` (its number the first free one from ``deal[1]`` on,
        see ``Store.start_deal``) and its moves ``rows`` (without the deal's number); the
        work returns the deal's number."""

        def work(conn: sqlite3.Connection) -> int:
            used = conn.execute(SQLITE_SQL.last_deal, (deal[0],)).fetchone()
            moved = conn.execute(SQLITE_SQL.last_moved, (deal[0],)).fetchone()
            number = int(max(deal[1], (used[0] or 0) + 1, (moved[0] or 0) + 1))
            conn.execute(SQLITE_SQL.insert_deal, (deal[0], number, *deal[2:]))
            conn.executemany(
                SQLITE_SQL.insert_move, [(t, number, k, seat, m) for t, k, seat, m in rows]
            )
            return number

        return work

    def close(self) -> None:
        """Close the connections and end the thread (once; a closed writer writes no more)."""

        def closing() -> None:
            if self._there is not None:
                self._there.close()
                self._there = None

        with contextlib.suppress(RuntimeError):  # closed already
            self.thread.submit(closing).result()
        self.thread.shutdown()
        if self._here is not None:
            self._here.close()
            self._here = None


class PgMoves:
    """The moves' group commits and the deals' starts on PostgreSQL (one process), each one
    statement (its own transaction: autocommit) on one connection kept out of the pool for
    them and sent to asyncpg as it is. Through SQLAlchemy each write cost a pool checkout and
    return and its result machinery: 470 µs of CPU against 55 µs here (one run, this machine;
    ``docs/scaling.md``). One statement at a time on the connection (a lock: asyncpg runs
    one); a connection that fails is dropped (invalidated in the pool) and the next write takes
    a new one. asyncpg's errors come back as SQLAlchemy's (``IntegrityError``, ``DataError``,
    ``OperationalError``), so a fault is handled as every other write's."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._kept: AsyncConnection | None = None
        self._driver: Any = None  # the asyncpg connection under ``_kept``
        self._lock = asyncio.Lock()

    async def run(
        self, sql: str, args: Sequence[Any], value: bool = False, rows: bool = False
    ) -> Any:
        """``sql`` with ``args``; committed when this returns (its first row's first value
        with ``value``, its rows with ``rows``)."""
        async with self._lock:
            try:
                if self._driver is None:
                    self._kept = await self.engine.connect()
                    self._driver = (await self._kept.get_raw_connection()).driver_connection
                if value:
                    return await self._driver.fetchval(sql, *args)
                if rows:
                    return await self._driver.fetch(sql, *args)
                await self._driver.execute(sql, *args)
                return None
            except Exception as e:
                error = _pg_error(e, sql)
                if not _row_fault(error):
                    await self._drop()
                if error is e:
                    raise
                raise error from e

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """``sql``'s rows, as ``run``."""
        rows: list[Any] = await self.run(sql, args, rows=True)
        return rows

    async def _drop(self) -> None:
        kept, self._kept, self._driver = self._kept, None, None
        if kept is not None:
            with contextlib.suppress(Exception):
                await kept.invalidate()
            with contextlib.suppress(Exception):
                await kept.close()

    async def close(self) -> None:
        async with self._lock:
            kept, self._kept, self._driver = self._kept, None, None
            if kept is not None:
                with contextlib.suppress(Exception):
                    await kept.close()


def _group_rows(
    group: Sequence[Pending],
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """A group commit's move rows and the rows of the deals its moves end."""
    rows = [
        (row["table_id"], row["deal"], row["number"], row["seat"], row["move"])
        for row, _, _ in group
    ]
    ends = [
        (
            json.dumps(finish["result"]),
            json.dumps(finish["returns"]),
            finish["table_id"],
            finish["number"],
        )
        for _, finish, _ in group
        if finish is not None
    ]
    return rows, ends


def _settle(done: asyncio.Future[None], row: dict[str, Any], lost: set[str]) -> None:
    """A group commit's move answered: stored, or LeaseLost when its fenced table's lease was
    found lost (nothing of it written)."""
    if done.done():
        return
    if row["table_id"] in lost:
        fence = row["fence"]
        done.set_exception(LeaseLost(f"table {fence[0]} is no longer owned by {fence[1]}"))
    else:
        done.set_result(None)


def _pg_error(error: Exception, sql: str) -> Exception:
    """An asyncpg error as SQLAlchemy's (as its dialect would raise it); others as they are."""
    import asyncpg  # type: ignore[import-untyped]

    if isinstance(error, SQLAlchemyError | OSError | TimeoutError):
        return error
    if isinstance(error, asyncpg.IntegrityConstraintViolationError):
        return IntegrityError(sql, None, error)
    if isinstance(error, asyncpg.DataError):
        return DataError(sql, None, error)
    # InternalClientError: what asyncpg raises now and then on a connection whose backend was
    # just terminated (seen under load): the connection is gone, a database fault as the others.
    if isinstance(
        error, asyncpg.PostgresError | asyncpg.InterfaceError | asyncpg.InternalClientError
    ):
        return OperationalError(sql, None, error)
    return error


def _transaction(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work`` between BEGIN and COMMIT (rolled back if it fails)."""
    conn.execute("BEGIN")
    try:
        done = work(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return done


async def _fenced(conn: AsyncConnection, fence: Fence | None) -> None:
    """LeaseLost unless the lease is still the writer's. The update takes the lease row's lock,
    so a process taking the table over waits until this write is committed, then sees it."""
    if fence is None:
        return
    table_id, owner, epoch = fence
    done = await conn.exec_driver_sql(DriverSql.of(conn).fence, (epoch, table_id, owner, epoch))
    held = done.first() is not None if done.returns_rows else done.rowcount > 0
    if not held:
        raise LeaseLost(f"table {table_id} is no longer owned by {owner}")


def database_fault(error: BaseException) -> bool:
    """The database refused or failed a statement, or could not be reached: the write did not
    happen (or is not known to have), and it may succeed again later."""
    return isinstance(error, (SQLAlchemyError, OSError, TimeoutError))


def brief(error: BaseException) -> str:
    """A database error in one short line, for a log: SQLAlchemy's own text repeats the
    statement, its parameters and a link, over several lines."""
    cause = getattr(error, "orig", None) or error
    text = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {text[0][:200] if text else ''}"


def _row_fault(error: Exception) -> bool:
    """A failure of the rows written (a constraint, a value), not of the database being away."""
    return isinstance(error, (IntegrityError, DataError))


def _json(value: Any) -> Any:
    """JSON columns come back decoded on every backend; a text column (older SQLite drivers)
    is decoded here."""
    return json.loads(value) if isinstance(value, str) else value


def _sqlite_pragmas(busy_ms: int) -> Callable[[DBAPIConnection, ConnectionPoolEntry], None]:
    """WAL: readers do not wait for the writer, and a commit survives the process being killed
    (``synchronous=NORMAL`` risks only an operating-system crash, not SIGKILL)."""

    def pragmas(dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return pragmas


def _migrate(connection: Any) -> None:
    """Alembic's upgrade to the newest revision on ``connection``. A database made by the first
    server (its version in ``tavern_meta``, before Alembic) is marked as revision 0001 first."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    names = set(inspect(connection).get_table_names())
    if "tavern_meta" in names and "alembic_version" not in names:
        command.stamp(config, "0001")
    command.upgrade(config, "head")
