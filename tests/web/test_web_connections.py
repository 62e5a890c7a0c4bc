"""Idle and slow TCP connections are closed, and one address holds a bounded number (issue 24,
item 3): before, 1,500 sockets that sent nothing and 500 that sent their headers a byte at a time
were all still open after 60 s, and enough of them locked every real client out.

A real uvicorn in a thread, as ``tavern serve`` runs it (``connections.uvicorn_config``), and raw
sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from taverntable.cli import main
from taverntable.web.connections import HANDSHAKE_SECONDS, FramesProtocol

from web_helpers import HTTP, create, server_thread, sqlite_url, ws_url

IDLE, SLOW = 200, 50
# The deadline is counted from the connection (or the last response): a little over it, every
# guarded socket must be closed.
SLACK = 3.0


def address(base: str) -> tuple[str, int]:
    host, port = base.removeprefix("http://").split(":")
    return host, int(port)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (a read finds the end, or a reset), without waiting."""
    readable, _, _ = select.select([sock], [], [], 0)
    if not readable:
        return False
    try:
        return sock.recv(4096) == b""
    except OSError:
        return True


class Trickle:
    """Slowloris: each socket sends its bytes one at a time, three a second, never finishing."""

    def __init__(self, socks: list[tuple[socket.socket, bytes]]) -> None:
        self.socks = socks
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        k = 0
        while not self.stop.wait(0.3):
            for sock, data in self.socks:
                with contextlib.suppress(OSError):  # closed by the server: as it should
                    sock.send(data[k % len(data) : k % len(data) + 1])
            k += 1


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with server_thread(sqlite_url(tmp_path), exempt_loopback=False, per_address=1000) as base:
        yield base


def test_idle_and_slow_connections_are_closed_and_real_clients_served(served: str) -> None:
    host, port = address(served)
    made = create(served, "tonk", [{"kind": "person"}, {"kind": "bot", "level": "easy"}])
    table = made["table"]["id"]
    opened = time.monotonic()
    idle = [socket.create_connection((host, port)) for _ in range(IDLE)]
    slow = [socket.create_connection((host, port)) for _ in range(SLOW)]
    # A kept-alive connection that trickles the next request after a complete one.
    after_one = socket.create_connection((host, port))
    after_one.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    assert b"200 OK" in after_one.recv(4096)
    head = f"GET /api/tables HTTP/1.1\r\nHost: {host}\r\nX-Slow: ".encode() + b"a" * 1000
    # Whole headers, then a body a byte at a time: refused (408) once its time is up.
    slow_body = socket.create_connection((host, port))
    slow_body.sendall(
        f"POST /api/tables HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        "Content-Length: 5000\r\n\r\n".encode()
    )
    trickle = Trickle([*((s, head) for s in [*slow, after_one]), (slow_body, b" ")])
    trickle.thread.start()

    async def websocket_outlives_the_deadline() -> float:
        """A WebSocket is no idle connection: it stays open past the deadline and answers."""
        async with websockets.connect(ws_url(served, table, made["token"])) as ws:
            assert json.loads(await ws.recv())["type"] == "hello"
            await asyncio.sleep(HANDSHAKE_SECONDS + 1)
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await ws.recv())["type"] != "pong":
                pass
            return time.monotonic()

    try:
        # While every idle and slow socket is open, a real client is served at once.
        for _ in range(5):
            started = time.monotonic()
            assert HTTP.get(f"{served}/api/tables/{table}").status_code == 200
            assert time.monotonic() - started < 1.0
        pong_at = asyncio.run(websocket_outlives_the_deadline())
        assert pong_at - opened > HANDSHAKE_SECONDS
        slow_body.settimeout(SLACK)
        assert b"408" in slow_body.recv(4096).split(b"\r\n")[0]
        guarded = [*idle, *slow, after_one, slow_body]
        deadline = opened + HANDSHAKE_SECONDS + SLACK
        while not all(closed_by_server(s) for s in guarded):
            open_ = sum(not closed_by_server(s) for s in guarded)
            assert time.monotonic() < deadline, f"{open_} of {len(guarded)} sockets still open"
            time.sleep(0.2)
        closed_at = time.monotonic() - opened
        assert closed_at <= HANDSHAKE_SECONDS + SLACK
        assert HTTP.get(f"{served}/healthz").json()["ok"]
    finally:
        trickle.stop.set()
        for s in [*idle, *slow, after_one, slow_body]:
            s.close()


def test_one_address_holds_a_bounded_number_of_connections(tmp_path: Path) -> None:
    with server_thread(sqlite_url(tmp_path), exempt_loopback=False, per_address=10) as base:
        host, port = address(base)
        held = [socket.create_connection((host, port)) for _ in range(10)]
        time.sleep(0.2)  # the server has taken them
        one_more = socket.create_connection((host, port))
        one_more.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        one_more.settimeout(5)
        try:
            answer = one_more.recv(4096)
        except OSError:
            answer = b""
        assert answer == b""  # closed unanswered
        assert not any(closed_by_server(s) for s in held)
        for s in held:
            s.close()
        time.sleep(0.2)
        # The address's slots are free again once its connections are gone.
        assert HTTP.get(f"{base}/healthz").status_code == 200
        one_more.close()


def test_loopback_is_not_bounded_by_default(tmp_path: Path) -> None:
    """A proxy on this machine brings every client from 127.0.0.1: it bounds them itself."""
    with server_thread(sqlite_url(tmp_path), per_address=5) as base:
        host, port = address(base)
        held = [socket.create_connection((host, port)) for _ in range(10)]
        try:
            assert HTTP.get(f"{base}/healthz").status_code == 200
        finally:
            for s in held:
                s.close()


def test_a_negative_bound_is_refused() -> None:
    assert main(["serve", "--connections-per-address", "-1"]) == 2


def test_frames_go_out_together_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under uvicorn (``FramesProtocol``) a connection's frames are written together, by the
    sink at the end of a loop turn (``write_now``, issue 23's sixth pass) or by the writer
    (``send_texts``, fourth pass): every frame arrives, in order, and the writes hold them
    all, fewer writes than frames."""
    batches: list[int] = []
    direct: list[int] = []  # the sink's writes
    write_now, send_texts = FramesProtocol.write_now, FramesProtocol.send_texts

    def counted_now(self: FramesProtocol, texts: list[str]) -> bool:
        wrote = write_now(self, texts)
        if wrote:
            batches.append(len(texts))
            direct.append(len(texts))
        return wrote

    async def counted(self: FramesProtocol, texts: list[str]) -> None:
        batches.append(len(texts))
        monkeypatch.setattr(FramesProtocol, "write_now", write_now)  # not counted twice
        try:
            await send_texts(self, texts)
        finally:
            monkeypatch.setattr(FramesProtocol, "write_now", counted_now)

    monkeypatch.setattr(FramesProtocol, "write_now", counted_now)
    monkeypatch.setattr(FramesProtocol, "send_texts", counted)
    with server_thread(sqlite_url(tmp_path)) as base:
        made = create(base, "tonk", [{"kind": "person"}, {"kind": "bot", "level": "easy"}])

        async def pings() -> list[str]:
            async with websockets.connect(ws_url(base, made["table"]["id"], made["token"])) as ws:
                for _ in range(40):
                    await ws.send(json.dumps({"type": "ping"}))
                kinds: list[str] = []
                while kinds.count("pong") < 40:
                    kinds.append(json.loads(await asyncio.wait_for(ws.recv(), 30))["type"])
                return kinds

        kinds = asyncio.run(pings())
    assert kinds[0] == "hello"
    assert kinds.count("pong") == 40
    assert direct, "the sink's path was not taken"
    assert sum(batches) >= len(kinds)  # every frame the client got went through them
    assert len(batches) < sum(batches)  # and some went out together
