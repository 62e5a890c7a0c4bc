"""Hostile strings and shapes in every field of every request and WebSocket message (issue 24,
item 4): each gets a 4xx or an ``error`` frame, never a 500, a traceback or a closed server.

Before the fix a lone surrogate in a name (``"host_name": "\\ud800"``) gave a 500: the 422's
body echoed the input, which UTF-8 cannot encode.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from taverntable.web.app import create_app
from taverntable.web.limits import MAX_BODY

from web_helpers import QUICK

THREE = [{"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
TEN_MB = "x" * 10_000_000


def deep(levels: int) -> Any:
    nested: Any = "x"
    for _ in range(levels):
        nested = {"a": [nested]}
    return nested


# Values no field of the API takes: text no name or choice may hold, and the wrong shapes.
HOSTILE: list[Any] = [
    "\ud800",
    "a\udc00b",
    "\x00",
    "a\x1b[31mb",
    "\x7f",
    "\u0085",
    "\u202eevil.exe",
    "\u200b",
    "\ufeffAnna",
    "Anna\U000e0041",
    "\u2028",
    " \t\n",
    TEN_MB,
    "é" * 70,
    12,
    -1.5,
    True,
    "1",
    [],
    {},
    ["x"] * 1000,
    deep(200),
]

# Where the hostile values go: (a valid body, the path into it); the body is valid without them.
CREATE = {"game": "tonk", "seats": THREE, "host_seat": 0, "host_name": "Anna", "options": {}}
CREATE_FIELDS: list[tuple[str | int, ...]] = [
    ("game",),
    ("host_name",),
    ("bot_level",),
    ("seats", 0, "kind"),
    ("seats", 0, "name"),
    ("seats", 1, "level"),
    ("options", "hit_lock"),
    ("options",),
    ("seats",),
    ("host_seat",),
    ("stake",),
    ("deals",),
    ("target",),
    ("absent_seconds",),
    ("turn_seconds",),
]
JOIN = {"name": "Bea", "seat": None}
JOIN_FIELDS: list[tuple[str | int, ...]] = [("name",), ("seat",)]


def with_value(body: Any, path: tuple[str | int, ...], value: Any) -> Any:
    """A copy of ``body`` with ``value`` at ``path``."""
    copy = json.loads(json.dumps(body))
    where = copy
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return copy


def wire(body: Any) -> bytes:
    # Escaped ASCII, as a hostile client sends a lone surrogate ("\ud800" in the JSON text).
    return json.dumps(body, ensure_ascii=True).encode()


# The few hostile values a field takes after all: 12 is a fine stake, {} no rule option, "1"
# a name.
FINE = {
    *(((field,), "12") for field in ("stake", "deals", "target", "absent_seconds", "turn_seconds")),
    (("options",), "{}"),
    (("options", "hit_lock"), "true"),
    *((path, '"1"') for path in (("host_name",), ("seats", 0, "name"), ("name",))),
}


def acceptable(path: tuple[str | int, ...], value: Any) -> bool:
    return (path, json.dumps(value)) in FINE


@pytest.fixture
def client(database: str, caplog: pytest.LogCaptureFixture) -> Iterator[TestClient]:
    caplog.set_level(logging.WARNING)
    with TestClient(create_app(database, QUICK), raise_server_exceptions=False) as c:
        yield c
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not tracebacks, [r.getMessage() for r in tracebacks]


def refused(response: Any, what: object) -> None:
    assert 400 <= response.status_code < 500, (what, response.status_code, response.text[:300])
    json.loads(response.text)  # an answer that encodes, and is JSON


def test_every_field_of_every_request_refuses_hostile_values(client: TestClient) -> None:
    made = client.post("/api/tables", json=CREATE).json()
    table = made["table"]["id"]
    for path in CREATE_FIELDS:
        for value in HOSTILE:
            if acceptable(path, value):
                continue
            body = wire(with_value(CREATE, path, value))
            response = client.post(
                "/api/tables", content=body, headers={"Content-Type": "application/json"}
            )
            refused(response, (path, str(value)[:40]))
    for path in JOIN_FIELDS:
        for value in HOSTILE:
            if acceptable(path, value):
                continue
            body = wire(with_value(JOIN, path, value))
            response = client.post(
                f"/api/tables/{table}/join",
                content=body,
                headers={"Content-Type": "application/json"},
            )
            refused(response, (path, str(value)[:40]))
    # Only the one good table exists: nothing hostile was stored.
    assert [t["id"] for t in client.get("/api/tables").json()] == [table]


@pytest.mark.parametrize(
    "body",
    [b"", b"{", b"[" * 60_000, b"\xff\xfe{}", b'{"game": "tonk"' + b" " * (MAX_BODY + 1) + b"}"],
)
def test_bodies_that_are_no_json_or_too_large_are_refused(client: TestClient, body: bytes) -> None:
    response = client.post(
        "/api/tables", content=body, headers={"Content-Type": "application/json"}
    )
    refused(response, body[:20])


def test_a_body_over_the_bound_is_refused_before_it_is_read(client: TestClient) -> None:
    body = wire({**CREATE, "host_name": TEN_MB})
    response = client.post(
        "/api/tables", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413 and response.json()["code"] == "too-large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"host_name": "'
        for _ in range(100):
            yield b"x" * 10_000
        yield b'"}'

    streamed = client.post(
        "/api/tables", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert streamed.status_code == 413


# Path parts, headers and queries: every other string a client chooses.
@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("GET", "/api/tables/%ED%A0%80"),
        ("GET", "/api/tables/%00/records"),
        ("POST", "/api/tables/%ED%A0%80/join"),
        ("POST", "/api/tables/%E2%80%AE/start"),
        ("GET", "/rules/%ED%A0%80"),
        ("GET", "/rules/tonk%00"),
        ("GET", "/api/tables/" + "x" * 5000),
    ],
)
def test_hostile_paths_are_refused(client: TestClient, method: str, url: str) -> None:
    response = client.request(method, url, json=JOIN)
    refused(response, url)


def test_hostile_host_tokens_and_queries_are_refused(client: TestClient) -> None:
    table = client.post("/api/tables", json=CREATE).json()["table"]["id"]
    for token in (b"\xed\xa0\x80", b"\x00", b"\xff" * 100, b"x" * 8000):
        response = client.post(f"/api/tables/{table}/start", headers={"X-Host-Token": token})
        refused(response, token[:10])
    assert client.get("/rules/tonk?lang=%ED%A0%80").status_code == 200  # English, then


FRAME_FIELDS = ["type", "move", "version"]


def frames() -> Iterator[str | bytes]:
    """Hostile WebSocket frames: each field of a move, then texts that are no message."""
    for field in FRAME_FIELDS:
        for value in HOSTILE:
            yield json.dumps({"type": "move", "move": "drop", field: value}, ensure_ascii=True)
    yield json.dumps({"type": "ping", "\ud800": 1}, ensure_ascii=True)
    yield json.dumps({"type": "move", "move": "drop", "version": 10**400})
    yield "[" * 3000
    yield '"\\ud800"'
    yield "\u202e" * 1000
    yield b"\xff\xfe\xed\xa0\x80"
    yield b'{"type": "move", "move": "drop"' + b" " * 5000 + b"}"


def test_every_field_of_a_frame_refuses_hostile_values(client: TestClient) -> None:
    made = client.post("/api/tables", json=CREATE).json()
    table = made["table"]["id"]
    assert client.post(
        f"/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]}
    ).is_success
    for frame in frames():
        # A connection for each: a frame too large closes its connection (1008).
        with client.websocket_connect(f"/ws/{table}?token={made['token']}") as ws:
            assert ws.receive_json()["type"] == "hello"
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            while True:
                try:
                    message = ws.receive_json()
                except WebSocketDisconnect:
                    raise AssertionError(f"closed without an error: {frame[:60]!r}") from None
                if message["type"] == "error":
                    break
                # What the server sends anyway: the table, the deal's log (on connecting, issue
                # 26), its recent chat and updates; a hostile frame itself gets an error.
                assert message["type"] in ("table", "chat-history", "log", "update"), (
                    frame[:60],
                    message,
                )
    assert client.get("/healthz").json()["ok"]
