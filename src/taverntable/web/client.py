"""One client's WebSocket: ``hello``, then its seat's frames out in order, and its frames in,
each validated by ``protocol.frames`` (a bad one gets an ``error`` frame, never a traceback)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import cast

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from .connections import FRAMES_KEY, FramesProtocol
from .hub import BadRequest, Endpoint, Hub
from .protocol.frames import (
    CHAT_CODES,
    CLIENT_MESSAGE,
    MAX_FRAME,
    BecauseMessage,
    ErrorMessage,
    MoveMessage,
    Phrase,
    PongMessage,
    SayMessage,
    WhyMessage,
    encode,
    hello,
)
from .seats import Connection
from .store import LeaseLost, brief, database_fault
from .tables import MoveRefused

log = logging.getLogger("taverntable.web")
# A client may send this many messages in a burst, then this many a second; past that it gets
# an error for each, and after ``STRIKES`` bad or refused messages in a row it is disconnected.
BURST, PER_SECOND, STRIKES = 60, 30.0, 50
# The close codes of a refused connection: 4403/4404 and the page stops trying; 1013 (try
# again later): a table changing servers.
REFUSED_CLOSE = {"unknown-seat": 4403, "no-table": 4404}


class RateLimit:
    """A token bucket per connection."""

    def __init__(self, burst: int = BURST, rate: float = PER_SECOND) -> None:
        self.burst, self.rate = burst, rate
        self.tokens = float(burst)
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


async def serve_socket(
    hub: Hub, websocket: WebSocket, table_id: str, token: str | None, host_token: str | None
) -> None:
    """One client's connection: hello (``you.host`` when ``host_token`` is the table's), then
    its view after every move, and its moves in."""
    try:
        table, seat, host = await hub.socket(table_id, token, host_token)
    except BadRequest as e:
        await websocket.accept()
        await websocket.send_text(encode(ErrorMessage(code=e.code, message=str(e))))
        await websocket.close(code=REFUSED_CLOSE.get(e.code, 1013))
        return
    await websocket.accept()
    conn = Connection(seat)
    conn.send(hello(table.id, seat, host=host))
    writer = asyncio.create_task(_write(websocket, conn))
    table.attach(conn)
    try:
        await _read(websocket, table, conn)
    except WebSocketDisconnect:
        pass
    finally:
        table.detach(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await writer


async def _write(websocket: WebSocket, conn: Connection) -> None:
    """Send the connection's frames in order; ``None`` in its queue closes it. Under ``tavern
    serve`` (``connections.FramesProtocol``) the writer lends the connection a sink while it
    waits with nothing queued: frames pushed meanwhile are written at the end of the loop's
    turn without waking this task (``Connection.push``); what the sink cannot write now (a
    paused transport) comes through the queue, and the frames queued when the writer wakes go
    out together, in one ``transport.write``. Elsewhere (the tests' client) one
    ``send_text`` each."""
    frames = cast("FramesProtocol | None", websocket.scope.get(FRAMES_KEY))
    sink = None if frames is None else frames.write_now
    queue = conn.queue
    try:
        while True:
            if queue.empty() and not conn.dropped:
                conn.sink = sink
            frame = await queue.get()
            conn.sink = None
            if frame is None:
                break
            if frames is None or not frames.can_send_texts():
                await websocket.send_text(frame)
                continue
            batch = [frame]
            closing = False
            while not queue.empty():
                more = queue.get_nowait()
                if more is None:
                    closing = True
                    break
                batch.append(more)
            await frames.send_texts(batch)
            if closing:
                break
        await websocket.close(code=1008 if conn.dropped else 1000)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        conn.sink = None


async def _read(websocket: WebSocket, table: Endpoint, conn: Connection) -> None:
    limit = RateLimit()
    strikes = 0
    while not conn.dropped:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            text = (frame.get("bytes") or b"").decode("utf-8", "replace")
        reply = await _handle(table, conn, text, limit)
        if reply is None:
            strikes = 0
            continue
        conn.send(reply)
        strikes += 1
        if reply.code == "too-large" or strikes >= STRIKES:
            conn.close()


async def _handle(
    table: Endpoint, conn: Connection, text: str, limit: RateLimit
) -> ErrorMessage | None:
    """One client frame: None when it was acted on, else the error to send back."""
    if len(text.encode()) > MAX_FRAME:
        return ErrorMessage(code="too-large", message=f"a message has at most {MAX_FRAME} bytes")
    if not limit.allow():
        return ErrorMessage(
            code="rate-limit", message=f"at most {PER_SECOND:g} messages a second, please"
        )
    try:
        message = CLIENT_MESSAGE.validate_json(text)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        why = f"{where}: {first.get('msg', 'not a message')}"[:300]
        # A chat message's own refusals (SayMessage's validators) keep their code.
        chat = next((x["type"] for x in e.errors() if x["type"] in CHAT_CODES), None)
        return ErrorMessage(code=chat or "bad-message", message=why)
    if isinstance(message, WhyMessage):
        conn.send(await _why(table, conn, message))
        return None
    if isinstance(message, SayMessage):
        return await _say(table, conn, message)
    if not isinstance(message, MoveMessage):
        conn.send(PongMessage())
        return None
    try:
        await table.play(conn.seat, message.move, message.version)
    except MoveRefused as e:
        if e.update is not None:
            conn.send(e.update)
        return ErrorMessage(code=e.code, message=str(e), rule=e.rule, reason=e.reason)
    except Exception as e:  # the database failed: the move did not happen; the table goes on
        if isinstance(e, LeaseLost) or database_fault(e):  # expected under faults: one line
            log.warning("table %s: a move could not be stored (%s)", table.id, brief(e))
        else:
            log.exception("table %s: a move could not be stored", table.id)
        return ErrorMessage(
            code="server-error",
            message="the move could not be stored; nothing changed, try again",
        )
    return None


async def _say(table: Endpoint, conn: Connection, message: SayMessage) -> ErrorMessage | None:
    """A chat message: stored and sent by the table's owner, or refused with a ``chat-*``
    code (``chat.py``)."""
    try:
        phrase = cast(Phrase | None, message.phrase)  # one of PHRASES: checked by SayMessage
        await table.say(conn.seat, conn.handle, message.channel, message.text, phrase)
    except MoveRefused as e:
        return ErrorMessage(code=e.code, message=str(e))
    except Exception as e:
        if isinstance(e, LeaseLost) or database_fault(e):
            log.warning("table %s: a chat message could not be stored (%s)", table.id, brief(e))
        else:
            log.exception("table %s: a chat message could not be stored", table.id)
        return ErrorMessage(code="server-error", message="the message could not be stored")
    return None


async def _why(table: Endpoint, conn: Connection, message: WhyMessage) -> BecauseMessage:
    """A ``why`` question: the move is checked as a move would be, never played."""
    try:
        await table.play(conn.seat, message.move, message.version, check_only=True)
    except MoveRefused as e:
        if e.update is not None:
            conn.send(e.update)
        return BecauseMessage(
            move=message.move,
            legal=False,
            code=e.code,
            message=str(e),
            rule=e.rule,
            reason=e.reason,
        )
    except Exception:
        log.exception("table %s: a move could not be checked", table.id)
        return BecauseMessage(
            move=message.move, legal=False, code="server-error", message="try again in a moment"
        )
    return BecauseMessage(move=message.move, legal=True)
