"""What the server logs under a client's bad frame and under faults (issue 24, item 9): one
line each, not a traceback (the audit's log held one for every invalid-UTF-8 frame and every
write refused by a lost lease)."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from taverntable.web.botpool import BotPool
from taverntable.web.hub import Hub
from taverntable.web.protocol.api import CreateTable, SeatSpec
from taverntable.web.store import Store
from taverntable.web.usage import Limits

from web_helpers import QUICK, create, server_thread, sqlite_url

BOTS = [SeatSpec(kind="bot", level="easy") for _ in range(3)]
PLAY_ON = Limits(unwatched_seconds=0.0)


def send_raw_text_frame(base: str, path: str, payload: bytes) -> bytes:
    """Open a WebSocket by hand and send one text frame of ``payload`` as it is (a client
    library would refuse to send bytes that are not UTF-8); returns what came back."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        assert s.recv(4096).startswith(b"HTTP/1.1 101")
        mask = os.urandom(4)
        masked = bytes(b ^ mask[k % 4] for k, b in enumerate(payload))
        s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
        received = b""
        deadline = time.monotonic() + 10
        while b"\x88" not in received and time.monotonic() < deadline:  # a close frame
            chunk = s.recv(65536)
            if not chunk:
                break
            received += chunk
        return received


def test_a_frame_that_is_not_utf8_logs_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    uvicorn_log = logging.getLogger("uvicorn.error")  # it does not propagate to the root
    try:
        with server_thread(sqlite_url(tmp_path)) as base:
            uvicorn_log.addHandler(caplog.handler)  # once uvicorn has set its logging up
            made = create(base, "tonk", [{"kind": "person"}, {"kind": "bot", "level": "easy"}])
            answer = send_raw_text_frame(base, f"/ws/{made['table']['id']}", b"\xff\xfe{")
            deadline = time.monotonic() + 5
            while not any("UTF-8" in r.getMessage() for r in caplog.records):
                assert time.monotonic() < deadline, "nothing logged"
                time.sleep(0.02)
    finally:
        uvicorn_log.removeHandler(caplog.handler)
    assert b"\x88\x02\x03\xef" in answer  # closed with 1007: invalid frame payload data
    logged = [r for r in caplog.records if "UTF-8" in r.getMessage()]
    assert len(logged) == 1
    assert logged[0].exc_info is None and logged[0].levelno == logging.WARNING
    assert "\n" not in caplog.text.strip()


def test_writes_refused_by_a_lost_lease_or_a_database_away_log_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def check() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), BotPool(1), QUICK, PLAY_ON)
        await hub.open()
        lost = (await hub.create(CreateTable(game="tonk", seats=BOTS))).table
        away = (await hub.create(CreateTable(game="tonk", seats=BOTS, deals=3))).table
        await lost.start()
        # Another process took the table over: this one's every write is refused.
        lost.fence = (lost.id, "this-process", 1)
        real = hub.store.start_deal

        async def refuse(*args: Any, **kwargs: Any) -> int:
            if args[0] == away.id and args[1] == 2:
                raise OperationalError("INSERT INTO deals", {}, Exception("connection refused"))
            return await real(*args, **kwargs)

        monkeypatch.setattr(hub.store, "start_deal", refuse)
        await away.start()
        deadline = time.monotonic() + 30
        while not (
            sum("no longer owned" in r.getMessage() for r in caplog.records) >= 2
            and sum("connection refused" in r.getMessage() for r in caplog.records) >= 2
        ):
            assert time.monotonic() < deadline, caplog.text
            await asyncio.sleep(0.05)
        await hub.close()

    with caplog.at_level(logging.INFO, logger="taverntable.web"):
        asyncio.run(check())
    ours = [r for r in caplog.records if r.name == "taverntable.web"]
    assert ours and all(r.exc_info is None for r in ours)  # not one traceback
    assert all("\n" not in r.getMessage() for r in ours)
    assert not any("driver failed" in r.getMessage() for r in ours)
