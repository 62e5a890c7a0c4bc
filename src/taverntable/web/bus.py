"""Messages between server processes, over Redis (several ``tavern serve`` processes).

Two kinds of channel: each process listens on its own (``tt:node:NODE``: requests for the
tables it owns, replies and messages for its clients), and on the channel of every table one of
its clients watches (``tt:table:ID``: the owner's updates, one message per move holding each
seat's update, fanned out to every process). A process says it is alive with a key that
expires (``tt:alive:NODE``), and the owner keeps each table's summary under ``tt:summary:ID``
for the processes that do not own it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as aioredis

log = logging.getLogger("taverntable.web")

ALIVE_SECONDS = 5.0  # a process whose key is this old is taken for dead
HEARTBEAT = 1.5
REPLY_SECONDS = 5.0  # a request to an owner that gets no reply in this time fails
PUBLISH_BATCH = 500  # messages sent in one pipeline at most

Handler = Callable[[dict[str, Any]], Awaitable[None]]
Receiver = Callable[[dict[str, Any]], None]


def coalesce(batch: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The outbox's batch with each run of messages published one after another on the same
    channel sent as one message, a JSON list of them (``_listen`` hands them on one by one, in
    order): a move that starts or ends a deal sends its updates and the table's frame in one
    Redis message instead of two (issue 23, fourth pass). Only neighbours are joined, so every
    channel's messages keep their order among all this process sends."""
    out: list[tuple[str, str, str]] = []
    run: list[str] = []
    for kind, channel, data in batch:
        if kind == "publish" and out and out[-1][0] == "publish" and out[-1][1] == channel:
            run.append(data)
            out[-1] = ("publish", channel, "[" + ",".join(run) + "]")
        else:
            run = [data]
            out.append((kind, channel, data))
    return out


class BusError(Exception):
    """A request another process did not answer."""


class Bus:
    """This process's link to the others."""

    def __init__(self, url: str, node: str) -> None:
        self.url = url
        self.node = node
        self.redis: aioredis.Redis = aioredis.from_url(url, decode_responses=True)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.handlers: dict[str, Handler] = {}
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.ids = itertools.count(1)
        self.tasks: list[asyncio.Task[None]] = []
        # One queue and one publisher keep this process's messages in the order they were sent
        # (a table's updates must arrive in order; concurrent publishes could cross).
        self.outbox: asyncio.Queue[tuple[str, str, str]] = asyncio.Queue()
        self.published = 0  # messages this process has published (for the figures)
        self.stored = 0  # and summaries it has stored

    async def start(self, on_request: Receiver, heartbeat: bool = True) -> None:
        """Listen on this process's channel and keep its alive key fresh (unless the caller
        keeps it: ``cluster.LeaseKeeper``, on a thread of its own)."""
        self.handlers[f"tt:node:{self.node}"] = self._node_message
        self.on_request = on_request
        await self.pubsub.subscribe(f"tt:node:{self.node}")
        await self._heartbeat_once()
        self.tasks = [
            asyncio.create_task(self._listen(), name="bus listen"),
            asyncio.create_task(self._publisher(), name="bus publish"),
        ]
        if heartbeat:
            self.tasks.append(asyncio.create_task(self._heartbeat(), name="bus heartbeat"))

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(Exception):
            await self.redis.delete(f"tt:alive:{self.node}")
        await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()

    # --- tables' channels ---------------------------------------------------------------------

    async def watch(self, table_id: str, handler: Handler) -> None:
        channel = f"tt:table:{table_id}"
        if channel not in self.handlers:
            self.handlers[channel] = handler
            await self.pubsub.subscribe(channel)

    async def unwatch(self, table_id: str) -> None:
        channel = f"tt:table:{table_id}"
        if self.handlers.pop(channel, None) is not None:
            await self.pubsub.unsubscribe(channel)

    def to_table(self, table_id: str, message: dict[str, Any]) -> None:
        self._send(f"tt:table:{table_id}", message)

    def to_node(self, node: str, message: dict[str, Any]) -> None:
        self._send(f"tt:node:{node}", message)

    async def request(self, node: str, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` to ``node`` and wait for its reply (BusError after REPLY_SECONDS)."""
        rid = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[rid] = future
        try:
            self.to_node(node, {**message, "rid": rid, "from": self.node})
            return await asyncio.wait_for(future, REPLY_SECONDS)
        except TimeoutError:
            raise BusError(f"process {node} did not answer") from None
        finally:
            self.pending.pop(rid, None)

    def reply(
        self, request: dict[str, Any], answer: dict[str, Any], table_id: str | None = None
    ) -> None:
        """The answer to ``request``, on its sender's channel, or with ``table_id`` on the
        table's (which the sender watches): a forwarded move's answer then goes in one Redis
        message with the move's updates (``coalesce``), and every watcher but the sender lets it
        pass (issue 23, fourth pass)."""
        reply = {"op": "reply", "rid": request["rid"], "to": request["from"], **answer}
        if table_id is None:
            self.to_node(request["from"], reply)
        else:
            self.to_table(table_id, reply)

    # --- shared state -------------------------------------------------------------------------

    async def alive(self, node: str) -> bool:
        return bool(await self.redis.exists(f"tt:alive:{node}"))

    def put_summary(self, table_id: str, summary: str) -> None:
        """Keep the table's summary (JSON) for the processes that do not own it (in order with
        the messages: the last one written is the newest)."""
        self.outbox.put_nowait(("set", f"tt:summary:{table_id}", summary))

    async def summaries(self, table_ids: list[str]) -> list[str]:
        """The stored summaries (JSON) of those of ``table_ids`` that have one."""
        if not table_ids:
            return []
        found = await self.redis.mget([f"tt:summary:{t}" for t in table_ids])
        return [x for x in found if isinstance(x, str) and x]  # decode_responses: text

    # --- inside -------------------------------------------------------------------------------

    def _send(self, channel: str, message: dict[str, Any]) -> None:
        # orjson: a move's update holds every watched seat's frame, a few KiB to encode and
        # decode again per move (issue 23).
        data = orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
        self.outbox.put_nowait(("publish", channel, data))

    async def _publisher(self) -> None:
        """Send the outbox in order: whatever waits in it goes in one pipeline (one round trip
        for many messages), so a busy process is not held to one message per round trip while
        its queue grows (issue 23: at 1,000 tables on two processes the queue was seconds)."""
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty() and len(batch) < PUBLISH_BATCH:
                batch.append(self.outbox.get_nowait())
            sends = coalesce(batch)
            while True:
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for kind, channel, data in sends:
                            if kind == "publish":
                                pipe.publish(channel, data)
                            else:
                                pipe.set(channel, data, ex=24 * 3600)
                        await pipe.execute()
                    sets = sum(1 for kind, _, _ in sends if kind != "publish")
                    self.published += len(sends) - sets
                    self.stored += sets
                    break
                except (ConnectionError, OSError, aioredis.ConnectionError):
                    log.warning("lost Redis; publishing again in a second")
                    await asyncio.sleep(1)

    async def _listen(self) -> None:
        while True:
            try:
                async for item in self.pubsub.listen():
                    handler = self.handlers.get(item["channel"])
                    if handler is None:
                        continue
                    try:
                        got = orjson.loads(item["data"])
                        for message in got if isinstance(got, list) else (got,):
                            if message.get("op") == "reply":  # on a table's channel too
                                self._replied(message)
                            else:
                                await handler(message)
                    except Exception:
                        log.exception("a message on %s failed", item["channel"])
            except (ConnectionError, OSError, aioredis.ConnectionError):
                log.warning("lost Redis; listening again in a second")
                await asyncio.sleep(1)

    def _replied(self, message: dict[str, Any]) -> None:
        if message.get("to", self.node) != self.node:
            return  # another watcher's answer, on a table's channel
        future = self.pending.get(message["rid"])
        if future is not None and not future.done():
            future.set_result(message)

    async def _node_message(self, message: dict[str, Any]) -> None:
        # In order, but not waited for: a request may itself wait (a move being stored) while
        # the replies it needs arrive on this same channel.
        self.on_request(message)

    async def _heartbeat_once(self) -> None:
        await self.redis.set(f"tt:alive:{self.node}", "1", px=int(ALIVE_SECONDS * 1000))

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self._heartbeat_once()
            except Exception:
                log.exception("the heartbeat failed")
