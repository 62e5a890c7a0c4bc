"""Several ``tavern serve`` processes sharing tables: PostgreSQL for the tables and moves, Redis
for the messages between processes (``docs/scaling.md``).

Any process accepts any client. Each table has one *owner* process at a time, by a lease in the
database renewed every second (``LEASE_SECONDS``); only the owner applies moves, and every write
it makes checks the lease, so a process that lost its table can write nothing more to it. A
client of another process talks to a ``RemoteTable``: its moves go to the owner (a request on
the owner's channel, answered on the sender's), and the owner's updates come back on the
table's channel, one message per move holding each watched seat's update, which each process
hands to its own clients of that seat. When the owner dies its lease runs out; the first
process to take it over loads the table from the stored moves, says so on the table's
channel, and the other processes' clients go on with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Coroutine, Sequence
from typing import Any

import redis.asyncio as aioredis
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

from .accounts import Account
from .botpool import BotPool
from .bus import ALIVE_SECONDS, Bus, BusError
from .hub import BadRequest, Created, Endpoint, Hub, check_table_id, is_host_token
from .protocol.api import BotFigures, CreateTable, Health
from .protocol.frames import Channel, Phrase, Reason, UpdateMessage
from .protocol.summary import TableSummary
from .seats import Connection
from .store import LeaseLost, Store, brief, database_fault, digest, leases_t
from .tables import MoveRefused, Pace, Table, seat_key
from .throttle import RedisSignIns
from .usage import Limits

log = logging.getLogger("taverntable.web")

LEASE_SECONDS = 4.0  # a table whose owner has not renewed in this time is taken over
TICK = 1.0  # leases are renewed, orphans looked for and dead processes' clients dropped
BEAT = 0.5  # the event loop says it runs (``LeaseKeeper.beat``) this often
LOOP_LATE = 0.5  # an event loop this late on its beat is logged (at most every WARN_EVERY)
RENEWAL_LATE = 1.0  # a renewal this late (or this slow) is logged
WARN_EVERY = 10.0
# An event loop silent this long is taken for hung: its process stops renewing its leases and
# its alive key, so the other processes take its tables over (LEASE_SECONDS later). Far above
# any stall of a busy loop (1.5-2.5 s were seen at 200 tables on a saturated machine), so a
# process never loses its tables only because it is busy.
STALLED = 20.0


# A forwarded move whose owner did not answer within the bus's wait (``bus.REPLY_SECONDS``).
NO_ANSWER = (
    "the table's server did not answer in time; the next update says whether the move was made"
)


def node_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


def lobby_key(summary: TableSummary) -> tuple[Any, ...]:
    """What a lobby shows of a table (``static/js/lobby.js``: its status and its seats' names,
    kinds, claims and connections), for ``BusOutlet.table``."""
    seats = tuple(
        (s.name, s.kind, s.level, s.claimed, s.connected, s.account) for s in summary.seats
    )
    return (summary.status, summary.match, summary.settings.private, summary.lesson, seats)


class BusOutlet:
    """A table's messages for the other processes (``tables.Outlet``)."""

    def __init__(self, bus: Bus, tables: dict[str, Table]) -> None:
        self.bus = bus
        self.tables = tables  # the hub's: whether another process's client watches a table
        self.listed: dict[str, tuple[Any, ...]] = {}  # each table's summary as last stored

    def updates(self, table_id: str, by_seat: dict[str, str]) -> None:
        self.bus.to_table(table_id, {"op": "updates", "by_seat": by_seat})

    def table(self, table_id: str, summary: TableSummary, frame: str) -> None:
        """The ``table`` frame to the other processes' clients, if any watches; the summary
        kept for the lobby only when what a lobby shows of it changed (issue 23, fourth pass:
        the owner stored it at every deal's start and end, 0.6 Redis writes a move with the
        load test's players). Its deal, balances and sheet in ``tt:summary:ID`` may then be
        behind: a table's own summary is asked of its owner (``ClusterHub.summary``)."""
        table = self.tables.get(table_id)
        if table is None or table.remote:
            self.bus.to_table(table_id, {"op": "table", "frame": frame})
        self.store_summary(table_id, summary)

    def store_summary(self, table_id: str, summary: TableSummary, always: bool = False) -> None:
        key = lobby_key(summary)
        if always or self.listed.get(table_id) != key:
            self.listed[table_id] = key
            self.bus.put_summary(table_id, summary.model_dump_json())

    def forget(self, table_id: str) -> None:
        self.listed.pop(table_id, None)

    def deliver(self, table_id: str, node: str, cid: int, frames: list[str]) -> None:
        self.bus.to_node(node, {"op": "deliver", "table": table_id, "cid": cid, "frames": frames})


class RemoteTable:
    """This process's stand-in for a table another process owns (``hub.Endpoint``)."""

    def __init__(self, hub: ClusterHub, table_id: str, owner: str) -> None:
        self.hub = hub
        self.id = table_id
        self.owner = owner
        self.conns: dict[int, Connection] = {}

    def attach(self, conn: Connection) -> None:
        self.conns[conn.cid] = conn
        self._announce(conn)

    def detach(self, conn: Connection) -> None:
        if self.conns.pop(conn.cid, None) is not None:
            self.hub.bus.to_node(
                self.owner,
                {"op": "detach", "table": self.id, "cid": conn.cid, "node": self.hub.node},
            )
        if not self.conns:
            self.hub.forget(self)

    async def play(
        self, seat: int | None, text: str, version: int | None, check_only: bool = False
    ) -> None:
        """The move goes to the owner; its refusal comes back as MoveRefused."""
        request = {
            "op": "move",
            "table": self.id,
            "seat": seat,
            "text": text,
            "version": version,
            "check": check_only,
        }
        for _ in range(2):
            table = self.hub.tables.get(self.id)
            if table is not None:  # this process took the table over meanwhile
                await table.play(seat, text, version, check_only)
                return
            try:
                reply = await self.hub.bus.request(self.owner, request)
            except BusError:
                await self.hub.repoint(self)  # its owner may be gone: look again (and adopt)
                # Not "nothing changed": the owner may still apply the move (it was sent, only
                # its answer is late); the next update says whether it was made.
                raise MoveRefused("no-answer", NO_ANSWER) from None
            refused = reply.get("error")
            if refused is None:
                return
            if refused["code"] != "moved":
                reason, update = refused.get("reason"), refused.get("update")
                raise MoveRefused(
                    refused["code"],
                    refused["message"],
                    refused.get("rule"),
                    None if reason is None else Reason.model_validate(reason),
                    None if update is None else UpdateMessage.model_validate(update),
                )
            await self.hub.point(self)  # the table has another owner now: once more there
        raise MoveRefused("server-error", "the table is changing servers; try again")

    async def say(
        self,
        seat: int | None,
        handle: str,
        channel: Channel | None,
        text: str | None,
        phrase: Phrase | None,
    ) -> None:
        """A chat message goes to the owner, which stores it and sends it to every process;
        its refusal comes back as MoveRefused."""
        request = {
            "op": "say",
            "table": self.id,
            "seat": seat,
            "handle": handle,
            "channel": channel,
            "text": text,
            "phrase": phrase,
        }
        for _ in range(2):
            table = self.hub.tables.get(self.id)
            if table is not None:
                await table.say(seat, handle, channel, text, phrase)
                return
            try:
                reply = await self.hub.bus.request(self.owner, request)
            except BusError:
                await self.hub.repoint(self)
                raise MoveRefused(
                    "server-error", "the table's server did not answer; try again in a moment"
                ) from None
            refused = reply.get("error")
            if refused is None:
                return
            if refused["code"] != "moved":
                raise MoveRefused(refused["code"], refused["message"])
            await self.hub.point(self)
        raise MoveRefused("server-error", "the table is changing servers; try again")

    def receive(self, message: dict[str, Any]) -> None:
        """A message on the table's channel; the frames in it come encoded by the owner."""
        op = message["op"]
        if op == "updates":
            by_seat = message["by_seat"]
            for conn in self.conns.values():
                update = by_seat.get(seat_key(conn.seat))
                if update is not None:
                    conn.push(update)
        elif op == "table":
            for conn in self.conns.values():
                conn.push(message["frame"])
        elif op == "owner" and message["node"] != self.owner:
            self.owner = message["node"]
            for conn in self.conns.values():
                self._announce(conn)

    def deliver(self, cid: int, frames: list[str]) -> None:
        conn = self.conns.get(cid)
        if conn is not None:
            for frame in frames:
                conn.push(frame)

    def _announce(self, conn: Connection) -> None:
        self.hub.bus.to_node(
            self.owner,
            {
                "op": "attach",
                "table": self.id,
                "cid": conn.cid,
                "seat": conn.seat,
                "node": self.hub.node,
            },
        )


class LeaseKeeper:
    """Renews a process's leases and its alive key from a thread of its own, on a database
    connection and a Redis client of its own (issue 23).

    In the event loop, with the moves, the renewal waited for the loop, for the pool's
    connections and for the row locks of the moves in flight; at 1,000 tables on two busy
    processes it ran 10-40 s late, every lease lapsed and the other process took the tables
    over while their owner was still playing them. Here it is one statement a second for all of
    the process's tables, which nothing of the moves' traffic waits in front of. The loop still
    has a say: it beats every ``BEAT`` seconds, and a loop silent for ``STALLED`` seconds (hung,
    not busy) lets its leases and alive key run out. A process killed takes this thread with it:
    its tables are taken over ``LEASE_SECONDS`` after its last renewal, as before."""

    def __init__(self, hub: ClusterHub) -> None:
        self.hub = hub
        self.beat = time.monotonic()  # the event loop's last beat (``ClusterHub._beating``)
        self.renewals = 0
        self.late = 0.0  # the latest renewal's delay past its due time, seconds
        self.worst = 0.0  # the worst delay since the last warning
        self.warned = 0.0
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the thread's
        self.main: asyncio.AbstractEventLoop | None = None  # the hub's
        self.stopping: asyncio.Event | None = None
        self.ready = threading.Event()

    def start(self) -> None:
        self.main = asyncio.get_running_loop()
        self.beat = time.monotonic()
        self.thread = threading.Thread(target=self._run, name="leases", daemon=True)
        self.thread.start()
        self.ready.wait(5.0)

    async def stop(self) -> None:
        if self.thread is None:
            return
        if self.loop is not None and self.stopping is not None:
            with contextlib.suppress(RuntimeError):  # its loop already ended
                self.loop.call_soon_threadsafe(self.stopping.set)
        await asyncio.to_thread(self.thread.join, 10.0)
        self.thread = None

    def _run(self) -> None:
        asyncio.run(self._keep())

    async def _keep(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.stopping = asyncio.Event()
        self.ready.set()
        engine = create_async_engine(self.hub.store.url, poolclass=NullPool)
        redis = aioredis.from_url(self.hub.bus.url, decode_responses=True)
        conn: AsyncConnection | None = None
        due = time.monotonic()
        hung = False
        try:
            while not self.stopping.is_set():
                due += TICK
                now = time.monotonic()
                if due > now:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.stopping.wait(), due - now)
                    if self.stopping.is_set():
                        break
                if time.monotonic() - self.beat > STALLED:
                    if not hung:
                        log.error(
                            "the event loop has not run for %.0f s: letting this process's "
                            "leases and alive key run out",
                            time.monotonic() - self.beat,
                        )
                    hung = True
                    due = time.monotonic()
                    continue
                hung = False
                try:
                    if conn is None:
                        conn = await engine.connect()
                        await conn.execution_options(isolation_level="AUTOCOMMIT")
                    await asyncio.wait_for(self._renew(conn, due), LEASE_SECONDS)
                    await redis.set(f"tt:alive:{self.hub.node}", "1", px=int(ALIVE_SECONDS * 1000))
                except Exception as e:
                    log.warning("the lease renewal failed (%s)", brief(e))
                    if conn is not None:
                        with contextlib.suppress(Exception):
                            await conn.close()
                        conn = None
                if time.monotonic() > due + TICK:  # late or slow: start again from now
                    due = time.monotonic()
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
            await engine.dispose()
            with contextlib.suppress(Exception):
                await redis.aclose()

    async def _renew(self, conn: AsyncConnection, due: float) -> None:
        """One statement for all the process's tables; the lost ones go back to the loop."""
        for _ in range(3):
            try:
                mine = tuple(self.hub.tables)  # the loop's dict, read at once (the GIL)
                break
            except RuntimeError:  # changed size meanwhile
                continue
        else:
            return
        if mine:
            rows = await conn.execute(
                update(leases_t)
                .where(leases_t.c.owner == self.hub.node, leases_t.c.table_id.in_(mine))
                .values(expires=time.time() + LEASE_SECONDS)
                .returning(leases_t.c.table_id)
            )
            await conn.commit()  # nothing to commit (AUTOCOMMIT): ends SQLAlchemy's own
            held = {r.table_id for r in rows}
            lost = [t for t in mine if t not in held]
            if lost and self.main is not None:
                self.main.call_soon_threadsafe(self.hub.leases_lost, lost)
        self.renewals += 1
        self.late = time.monotonic() - due  # how long after its due time it was done
        self.worst = max(self.worst, self.late)
        if self.worst > RENEWAL_LATE and time.monotonic() - self.warned > WARN_EVERY:
            log.warning(
                "the lease renewal ran late: up to %.1f s after its time (%d tables)",
                self.worst,
                len(mine),
            )
            self.warned, self.worst = time.monotonic(), 0.0


class ClusterHub(Hub):
    """The tables of one process among several (``docs/scaling.md``)."""

    def __init__(
        self,
        store: Store,
        bots: BotPool,
        pace: Pace,
        redis_url: str,
        limits: Limits | None = None,
    ) -> None:
        super().__init__(store, bots, pace, limits)
        self.node = node_name()
        self.bus = Bus(redis_url, self.node)
        self.outlet = BusOutlet(self.bus, self.tables)
        # Wrong passwords counted for the whole cluster: an attempt may land on any process.
        self.signins = RedisSignIns(self.bus.redis)
        self.remotes: dict[str, RemoteTable] = {}
        self.cids = 0
        self.ticker: asyncio.Task[None] | None = None
        self.beater: asyncio.Task[None] | None = None
        self.keeper = LeaseKeeper(self)
        self.loop_late = 0.0  # the worst delay of the loop's beat since the last warning
        self.loop_warned = 0.0
        self.takeovers: list[float] = []  # seconds from a lease's end to this process's start
        self.background: set[asyncio.Task[None]] = set()
        self.adopting = asyncio.Lock()

    # --- life ---------------------------------------------------------------------------------

    async def open(self) -> None:
        """Join the cluster; tables are adopted as their leases run out (``tick``)."""
        await self.store.open()
        await self.bus.start(self._request, heartbeat=False)  # the keeper's
        await self.tick()
        self.keeper.start()
        self.beater = asyncio.create_task(self._beating(), name="loop beat")
        self.ticker = asyncio.create_task(self._ticking(), name="orphans")
        self.start_sweeper()

    async def close(self) -> None:
        for task in (self.ticker, self.beater):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.keeper.stop()
        for table in list(self.tables.values()):
            await table.stop()
        # Shutting down cleanly: the others need not wait for the leases to run out.
        with contextlib.suppress(Exception):
            await self.store.release(self.node, list(self.tables))
        await self.bus.close()
        self.bots.close()
        await self.store.close()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background (kept until it ends, so it is not collected)."""
        task = asyncio.create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def health(self) -> Health:
        return Health(
            ok=True,
            bots=BotFigures(**self.bots.figures()),
            tables=len(self.tables),
            watching=len(self.remotes),
            node=self.node,
            writes=self.store.writes,
            renewals=self.store.renewals + self.keeper.renewals,
            published=self.bus.published,
            stored=self.bus.stored,
        )

    async def _beating(self) -> None:
        """Tell the lease keeper the loop runs, and log when it runs late (a busy process)."""
        while True:
            due = time.monotonic() + BEAT
            await asyncio.sleep(BEAT)
            now = time.monotonic()
            self.keeper.beat = now
            self.loop_late = max(self.loop_late, now - due)
            if self.loop_late > LOOP_LATE and now - self.loop_warned > WARN_EVERY:
                log.warning(
                    "the event loop ran late: up to %.1f s behind (%d tables here; the lease "
                    "renewal runs on its own thread, up to %.0f s)",
                    self.loop_late,
                    len(self.tables),
                    STALLED,
                )
                self.loop_warned, self.loop_late = now, 0.0

    async def _ticking(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.look_around()
            except Exception as e:
                if database_fault(e) or isinstance(e, BusError):  # expected under faults
                    log.warning("the orphans' tick failed (%s)", brief(e))
                else:
                    log.exception("the orphans' tick failed")

    async def tick(self) -> None:
        """Renew this process's leases (giving up the lost ones), adopt orphaned tables, and
        forget the clients of processes that died: in the event loop, at the start (the
        running process renews on ``LeaseKeeper``'s thread and looks around each ``TICK``)."""
        # Only the tables asked about can be lost: one created while the renewal waited for
        # the database is not among them, and its lease (new) is this process's.
        mine = list(self.tables)
        held = await self.store.renew(self.node, mine, LEASE_SECONDS)
        for table_id in [t for t in mine if t not in held]:
            table = self.tables.get(table_id)
            if table is not None:
                await self.demote(table)
        await self.look_around()

    def leases_lost(self, table_ids: list[str]) -> None:
        """The keeper found these leases another process's (called in the loop)."""
        self.spawn(self._lost(table_ids))

    async def _lost(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            table = self.tables.get(table_id)
            if table is None or table.fence is None:
                continue
            lease = await self.store.owner(table_id)  # not adopted again meanwhile
            if lease is None or (lease[0], lease[1]) != (self.node, table.fence[2]):
                log.warning("lost the lease of table %s (to %s)", table_id, lease and lease[0])
                await self.demote(table)

    async def look_around(self) -> None:
        """Adopt orphaned tables, and forget the clients of processes that died."""
        for table_id in await self.store.orphans():
            await self.adopt(table_id)
        nodes = {node for t in self.tables.values() for node, _ in t.remote}
        for node in nodes:
            if not await self.bus.alive(node):
                for table in self.tables.values():
                    table.drop_node(node)

    # --- owning -------------------------------------------------------------------------------

    def new_lease(self) -> tuple[str, float] | None:
        return (self.node, LEASE_SECONDS)

    async def create(
        self,
        req: CreateTable,
        keys: Sequence[str] = (),
        account: Account | None = None,
        lesson: str | None = None,
    ) -> Created:
        made = await super().create(req, keys, account, lesson)
        self.own(made.table, 1)  # the table was stored with this process's lease, epoch 1
        return made

    def own(self, table: Table, epoch: int) -> None:
        """This process now applies the table's moves."""
        table.fence = (table.id, self.node, epoch)
        table.outlet = self.outlet
        table.book = self.book
        self.tables[table.id] = table
        remote = self.remotes.pop(table.id, None)
        if remote is not None:  # this process's clients of the table come along
            self.spawn(self.bus.unwatch(table.id))
            self.own_remote_clients(table, remote)
        self.bus.to_table(table.id, {"op": "owner", "node": self.node})
        self.outlet.store_summary(table.id, table.summary(), always=True)
        if table.status == "playing":
            table.run()

    async def adopt(self, table_id: str) -> Table | None:
        """Take over a table whose owner is gone: load it from its stored moves. One adoption
        at a time: the lease tick and a client's request may both find the table orphaned, and
        the lease, once this process's, would let a second copy of the table write too."""
        async with self.adopting:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            return await self._adopt(table_id)

    async def _adopt(self, table_id: str) -> Table | None:
        lease = await self.store.owner(table_id)
        epoch = await self.store.acquire(table_id, self.node, LEASE_SECONDS)
        if epoch is None:
            return None
        stored = await self.store.load(table_id)
        if stored is None:
            return None
        from taverntable.games import get_game

        table = Table.restore(stored, get_game(stored.game), self.store, self.bots, self.pace)
        if lease is not None and lease[2] == 0.0:
            # Given up by a process shutting down cleanly (``Store.release``): no wait to count.
            log.info("took table %s over from %s (its lease given up)", table_id, lease[0])
        elif lease is not None:
            self.takeovers.append(max(0.0, time.time() - lease[2]))
            log.warning(
                "took table %s over from %s (%.1f s after its lease ended)",
                table_id,
                lease[0],
                self.takeovers[-1],
            )
        await table.chat.load()
        self.own(table, epoch)
        return table

    async def forget_table(self, table: Table) -> None:
        """A table this process lets go of (closed, or finished and unwatched): its lease is
        given up, so any process loads it again when someone opens it."""
        await super().forget_table(table)
        self.outlet.forget(table.id)
        with contextlib.suppress(Exception):
            await self.store.release(self.node, [table.id])

    async def demote(self, table: Table) -> None:
        """Another process took the table: its clients here follow the new owner."""
        await table.stop()
        self.tables.pop(table.id, None)
        self.outlet.forget(table.id)
        owner = await self.store.owner(table.id)
        if not table.conns or owner is None:
            return
        remote = await self._remote(table.id, owner[0])
        for conn in list(table.conns):
            remote.attach(conn)

    # --- routes -------------------------------------------------------------------------------

    async def lobby(self) -> list[TableSummary]:
        ids = await self.store.open_tables()
        mine = {t: self.tables[t].summary() for t in ids if t in self.tables}
        others = await self.bus.summaries([t for t in ids if t not in mine])
        listed = [*mine.values(), *(TableSummary.model_validate_json(s) for s in others)]
        # Neither a private table nor a lesson's (nobody else's) is offered in the lobby.
        return [s for s in listed if not s.settings.private and s.lesson is None]

    async def summary(self, table_id: str) -> TableSummary:
        owner = await self._where(table_id)
        if isinstance(owner, Table):
            return owner.summary()
        # The owner's, as it is now: the one kept in Redis is stored only when what a lobby
        # shows changed (``BusOutlet.table``), and is the answer only when the owner is busy.
        try:
            answer = await self._ask(owner, {"op": "summary", "table": table_id})
        except BadRequest as e:
            found = await self.bus.summaries([table_id]) if e.status == 503 else []
            if not found:
                raise
            return TableSummary.model_validate_json(found[0])
        return TableSummary.model_validate(answer)

    async def join(
        self, table_id: str, name: str, seat: int | None, account: Account | None = None
    ) -> tuple[int, str, TableSummary]:
        owner = await self._where(table_id)
        if isinstance(owner, Table):
            return await super().join(table_id, name, seat, account)
        who = None if account is None else [account.id, account.name, account.created]
        answer = await self._ask(
            owner, {"op": "join", "table": table_id, "name": name, "seat": seat, "account": who}
        )
        return answer["seat"], answer["token"], TableSummary.model_validate(answer["summary"])

    async def host(self, table_id: str, token: str | None, action: str) -> TableSummary:
        owner = await self._where(table_id)
        if isinstance(owner, Table):
            return await super().host(table_id, token, action)
        answer = await self._ask(
            owner, {"op": "host", "table": table_id, "token": token, "action": action}
        )
        return TableSummary.model_validate(answer)

    async def socket(
        self, table_id: str, token: str | None, host_token: str | None = None
    ) -> tuple[Endpoint, int | None, bool]:
        owner = await self._where(table_id)
        if isinstance(owner, Table):
            _, seat, host = await super().socket(table_id, token, host_token)
        else:
            stored = await self.store.load(table_id)
            assert stored is not None
            host = is_host_token(stored.host_hash, host_token)
            seat = None
            if token:
                h = digest(token)
                seat = next((s.seat for s in stored.seats if s.token_hash == h), None)
                if seat is None:
                    raise BadRequest(
                        403, "this seat token does not belong to this table", "unknown-seat"
                    )
            await self._remote(table_id, owner)
        self.cids += 1
        return Route(self, table_id, self.cids), seat, host

    # --- between processes --------------------------------------------------------------------

    async def _where(self, table_id: str) -> Table | str:
        """This process's table, or the node that owns it (adopting it if its owner is gone)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        check_table_id(table_id)
        lease = await self.store.owner(table_id)
        if lease is None or await self.store.status(table_id) == "expired":
            raise BadRequest(404, f"there is no table {table_id[:40]!r}", "no-table")
        owner, _, expires = lease
        if expires < time.time() or not await self.bus.alive(owner):
            adopted = await self.adopt(table_id)
            if adopted is not None:
                return adopted
            lease = await self.store.owner(table_id)
            assert lease is not None
            owner = lease[0]
        return owner

    async def _remote(self, table_id: str, owner: str) -> RemoteTable:
        remote = self.remotes.get(table_id)
        if remote is None:
            remote = self.remotes[table_id] = RemoteTable(self, table_id, owner)
            await self.bus.watch(table_id, self._table_message(remote))
        return remote

    def _table_message(self, remote: RemoteTable) -> Any:
        async def receive(message: dict[str, Any]) -> None:
            remote.receive(message)

        return receive

    def forget(self, remote: RemoteTable) -> None:
        """No client of this process watches the table any more."""
        if self.remotes.get(remote.id) is remote:
            del self.remotes[remote.id]
            self.spawn(self.bus.unwatch(remote.id))

    async def point(self, remote: RemoteTable) -> None:
        """Find the table's owner again (a request reached a process that no longer owns it)."""
        owner = await self._where(remote.id)
        if isinstance(owner, Table):
            self.own_remote_clients(owner, remote)
        else:
            remote.owner = owner

    async def repoint(self, remote: RemoteTable) -> None:
        """A request the owner did not answer in time: the owner is looked for again only when
        it is no longer alive. A busy owner that is alive still holds the table (a new owner
        says so on the table's channel, ``RemoteTable.receive``); looking it up in the
        database after every late answer was 14 % of a starved cluster's CPU (issue 23, fourth
        pass: two queries and an adoption's attempt per timed-out move)."""
        if not await self.bus.alive(remote.owner):
            await self.point(remote)

    def own_remote_clients(self, table: Table, remote: RemoteTable) -> None:
        """The stand-in's clients move to the table, once: the stand-in is emptied, as a move
        of its in flight during the takeover comes back here too (``point``), and a client
        attached twice would keep its seat connected after it left."""
        for conn in remote.conns.values():
            table.attach(conn)
        remote.conns.clear()

    async def _ask(self, node: str, request: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = await self.bus.request(node, request)
        except BusError:
            raise BadRequest(
                503, "the table's server did not answer; try again", "server-busy"
            ) from None
        if "error" in reply:
            raise BadRequest(
                reply["error"]["status"],
                reply["error"]["message"],
                reply["error"].get("code", "bad-request"),
            )
        answer: dict[str, Any] = reply["answer"]
        return answer

    def _request(self, message: dict[str, Any]) -> None:
        """A message on this process's channel (in order; slow ones run as tasks)."""
        op = message["op"]
        table = self.tables.get(message.get("table", ""))
        if op == "attach":
            if table is not None:
                table.attach_remote(message["node"], message["cid"], message["seat"])
        elif op == "detach":
            if table is not None:
                table.detach_remote(message["node"], message["cid"])
        elif op == "deliver":
            remote = self.remotes.get(message["table"])
            if remote is not None:
                remote.deliver(message["cid"], message["frames"])
        else:
            self.spawn(self._answer(table, message))

    async def _answer(self, table: Table | None, message: dict[str, Any]) -> None:
        op = message["op"]
        if table is None:
            self.bus.reply(
                message,
                {"error": {"code": "moved", "status": 503, "message": "not the table's server"}},
            )
            return
        try:
            if op == "move":
                await table.play(
                    message["seat"],
                    message["text"],
                    message["version"],
                    bool(message.get("check", False)),
                )
                answer: dict[str, Any] = {}
            elif op == "say":
                await table.say(
                    message["seat"],
                    str(message["handle"]),
                    message["channel"],
                    message["text"],
                    message["phrase"],
                )
                answer = {}
            elif op == "summary":
                answer = table.summary().model_dump(mode="json")
            elif op == "join":
                who = message.get("account")
                account = None if not who else Account(who[0], who[1], who[2])
                seat, token = await self.take_seat(table, message["name"], message["seat"], account)
                summary = table.summary().model_dump(mode="json")
                answer = {"seat": seat, "token": token, "summary": summary}
            elif op == "host":
                done = await super().host(table.id, message["token"], message["action"])
                answer = done.model_dump(mode="json")
            else:
                raise BadRequest(400, f"unknown request {op!r}")
        except MoveRefused as e:
            self.bus.reply(
                message,
                {
                    "error": {
                        "code": e.code,
                        "message": str(e),
                        "rule": e.rule,
                        "reason": None if e.reason is None else e.reason.model_dump(mode="json"),
                        "update": None if e.update is None else e.update.model_dump(mode="json"),
                        "status": 409,
                    }
                },
            )
        except BadRequest as e:
            self.bus.reply(
                message, {"error": {"code": e.code, "status": e.status, "message": str(e)}}
            )
        except Exception as e:
            if isinstance(e, LeaseLost) or database_fault(e):  # expected under faults: one line
                sender = message.get("from")
                log.warning("table %s: a request from %s failed (%s)", table.id, sender, brief(e))
            else:
                log.exception("table %s: a request from %s failed", table.id, message.get("from"))
            self.bus.reply(
                message,
                {
                    "error": {
                        "code": "server-error",
                        "status": 500,
                        "message": "the move could not be stored",
                    }
                },
            )
        else:
            # A move's answer on the table's channel, which its sender watches: in one Redis
            # message with the move's updates, sent just before (``bus.coalesce``).
            self.bus.reply(message, {"answer": answer}, table.id if op == "move" else None)


class Route:
    """A client's way to its table in a process among several (``hub.Endpoint``): to the table
    itself while this process owns it, else to its ``RemoteTable``, whichever holds it now (a
    table changes hands when its owner dies or loses its lease). It numbers the connection:
    messages between processes name a client by its process and number."""

    def __init__(self, hub: ClusterHub, table_id: str, cid: int) -> None:
        self.hub = hub
        self.id = table_id
        self.cid = cid

    def attach(self, conn: Connection) -> None:
        conn.cid = self.cid
        table = self.hub.tables.get(self.id)
        if table is not None:
            table.attach(conn)
        else:
            self.hub.remotes[self.id].attach(conn)

    def detach(self, conn: Connection) -> None:
        table = self.hub.tables.get(self.id)
        if table is not None and conn in table.conns:
            table.detach(conn)
        remote = self.hub.remotes.get(self.id)
        if remote is not None and conn.cid in remote.conns:
            remote.detach(conn)

    async def play(
        self, seat: int | None, text: str, version: int | None, check_only: bool = False
    ) -> None:
        table = self.hub.tables.get(self.id)
        if table is not None:
            await table.play(seat, text, version, check_only)
            return
        remote = self.hub.remotes.get(self.id)
        if remote is None:
            raise MoveRefused("server-error", "the table is changing servers; try again")
        await remote.play(seat, text, version, check_only)

    async def say(
        self,
        seat: int | None,
        handle: str,
        channel: Channel | None,
        text: str | None,
        phrase: Phrase | None,
    ) -> None:
        table = self.hub.tables.get(self.id)
        if table is not None:
            await table.say(seat, handle, channel, text, phrase)
            return
        remote = self.hub.remotes.get(self.id)
        if remote is None:
            raise MoveRefused("server-error", "the table is changing servers; try again")
        await remote.say(seat, handle, channel, text, phrase)
