"""A connection's frames reach its client in the order they were pushed, whichever way each
went out (issue 23, sixth pass): the sink at a loop turn's end (``Connection.push`` and
``FramesProtocol.write_now``), the writer's queue when the transport is paused, the ASGI send
before the handshake's end; and a client that does not read is dropped past the queue's
limit. The real ``client._write`` and ``Connection`` against a fake transport that pauses and
resumes at random; the header of a frame the sink builds against websockets' own."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from websockets.frames import Frame, Opcode

from taverntable.web.client import _write
from taverntable.web.connections import FRAMES_KEY, text_frame_head
from taverntable.web.seats import QUEUE_LIMIT, Connection


class FakeProtocol:
    """What ``_write`` and the sink use of ``FramesProtocol``, over a list of received
    frames; ``paused`` as a transport above its high-water mark."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.writable = asyncio.Event()
        self.writable.set()
        self.open = True
        self.writes = 0

    def can_send_texts(self) -> bool:
        return self.open

    def write_now(self, texts: list[str]) -> bool:
        if not self.writable.is_set() or not self.open:
            return False
        self.received.extend(texts)
        self.writes += 1
        return True

    async def send_texts(self, texts: list[str]) -> None:
        await self.writable.wait()
        assert self.write_now(texts)


class FakeSocket:
    """The ASGI WebSocket ``_write`` writes to when ``FramesProtocol`` cannot."""

    def __init__(self, protocol: FakeProtocol) -> None:
        self.scope: dict[str, Any] = {FRAMES_KEY: protocol}
        self.protocol = protocol
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        self.protocol.received.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


async def _played(seed: int) -> tuple[list[str], list[str], FakeProtocol]:
    rng = random.Random(seed)
    protocol = FakeProtocol()
    protocol.open = rng.random() < 0.8  # else the ASGI send first, as before a handshake ends
    socket = FakeSocket(protocol)
    conn = Connection(0)
    writer = asyncio.create_task(_write(socket, conn))  # type: ignore[arg-type]
    pushed: list[str] = []
    for turn in range(200):
        for _ in range(rng.randrange(4)):
            frame = f"{seed}:{turn}:{len(pushed)}"
            pushed.append(frame)
            conn.push(frame)
        roll = rng.random()
        if roll < 0.15:
            protocol.writable.clear()  # paused: what is pushed waits in the queue
        elif roll < 0.35:
            protocol.writable.set()
        elif roll < 0.4:
            protocol.open = True
        await asyncio.sleep(0)
    protocol.writable.set()
    protocol.open = True
    conn.close()
    await asyncio.wait_for(writer, 5)
    return pushed, protocol.received, protocol


@pytest.mark.parametrize("seed", range(40))
def test_frames_arrive_in_the_order_pushed_through_pauses(seed: int) -> None:
    pushed, received, protocol = asyncio.run(_played(seed))
    assert received == pushed
    assert protocol.writes < len(pushed)  # frames of a turn went out together


def test_a_client_that_does_not_read_is_dropped_past_the_limit() -> None:
    async def run() -> tuple[Connection, FakeProtocol, FakeSocket]:
        protocol = FakeProtocol()
        socket = FakeSocket(protocol)
        conn = Connection(None)
        writer = asyncio.create_task(_write(socket, conn))  # type: ignore[arg-type]
        await asyncio.sleep(0)
        protocol.writable.clear()  # the client stopped reading
        for k in range(QUEUE_LIMIT * 3):
            conn.push(f"frame {k}")
            if k % 50 == 0:
                await asyncio.sleep(0)
        protocol.writable.set()
        await asyncio.wait_for(writer, 5)
        return conn, protocol, socket

    conn, protocol, socket = asyncio.run(run())
    assert conn.dropped
    assert socket.closed == 1008  # closed as a client that does not read
    assert len(protocol.received) <= QUEUE_LIMIT + 1


def test_close_sends_what_was_pushed_first() -> None:
    async def run() -> tuple[list[str], FakeSocket]:
        protocol = FakeProtocol()
        socket = FakeSocket(protocol)
        conn = Connection(1)
        writer = asyncio.create_task(_write(socket, conn))  # type: ignore[arg-type]
        await asyncio.sleep(0)
        conn.push("a")
        conn.push("b")  # both pending for the turn's end
        conn.close()
        await asyncio.wait_for(writer, 5)
        return protocol.received, socket

    received, socket = asyncio.run(run())
    assert received == ["a", "b"]
    assert socket.closed is not None


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000])
def test_the_sinks_frame_header_is_websockets_own(length: int) -> None:
    data = ("é" * (length // 2) + "x" * (length % 2)).encode()
    expected = Frame(Opcode.TEXT, data).serialize(mask=False)
    assert text_frame_head(len(data)) + data == expected
