"""The table's chat (issue 26, item 6; ``web/chat.py``): players and spectators in separate
channels (a spectator cannot write into the players' channel, and no player reads the
spectators'), quick phrases as keys, text only (an HTML string stored and sent as written, control
characters removed), 200 characters, 5 messages in 10 s per person, stored with the match and
shown in its replay, sent again on connecting and after a restart, and across two processes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from taverntable.web.app import create_app
from taverntable.web.chat import RATE_COUNT, Rate
from taverntable.web.protocol.frames import CLIENT_MESSAGE, PHRASES, SERVER_MESSAGE, chat_text
from taverntable.web.tables import Pace

from web_helpers import (
    create,
    drop_postgres,
    fresh_postgres,
    join,
    postgres_url,
    redis_url,
    server_process,
    ws_url,
)

HTML = "<img src=x onerror=alert(1)>"
# Nothing moves at these tables by itself: two people and no bot, and a deal won on the deal
# (T4) waits for the next one, so every message below is written in deal 1 at a known move.
STILL = Pace(bot_delay=0.0, deal_pause=600.0, announce=0.0)


def url_of(folder: Path) -> str:
    return f"sqlite+aiosqlite:///{folder / 't.sqlite3'}"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(url_of(tmp_path), STILL)) as c:
        yield c


def new_table(client: TestClient) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A Tonk table of Anna (the host, seat 0) and Bence (seat 1), started."""
    seats = [{"kind": "person"}, {"kind": "person"}]
    body = {
        "game": "tonk",
        "seats": seats,
        "host_seat": 0,
        "host_name": "Anna",
        "deals": 3,
        "absent_seconds": 3600,
    }
    made = client.post("/api/tables", json=body).json()
    table = made["table"]["id"]
    bence = client.post(f"/api/tables/{table}/join", json={"name": "Bence"}).json()
    client.cookies.clear()  # Bence's seat cookie: a connection without a token watches
    started = client.post(
        f"/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]}
    )
    assert started.status_code == 200
    return table, made, bence


def until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next frame of ``kind`` (every frame on the way validated by its model)."""
    for _ in range(200):
        raw = ws.receive_text()
        SERVER_MESSAGE.validate_json(raw)
        message: dict[str, Any] = json.loads(raw)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} frame")


def say(ws: WebSocketTestSession, **fields: Any) -> None:
    ws.send_text(json.dumps({"type": "say", **fields}))


def test_players_and_spectators_write_into_their_own_channels(client: TestClient) -> None:
    table, anna, bence = new_table(client)
    with (
        client.websocket_connect(f"/ws/{table}?token={anna['token']}") as a,
        client.websocket_connect(f"/ws/{table}?token={bence['token']}") as b,
        client.websocket_connect(f"/ws/{table}") as watcher,
    ):
        for ws in (a, b, watcher):
            assert until(ws, "chat-history")["lines"] == []
        say(a, phrase="good-luck")
        for ws in (a, b, watcher):  # the players' channel: everyone reads it
            line = until(ws, "chat")["line"]
            assert (line["channel"], line["seat"], line["name"]) == ("players", 0, "Anna")
            assert (line["phrase"], line["text"], line["sender"]) == ("good-luck", None, "seat-0")
        # A spectator cannot write into the players' channel: refused with a code.
        say(watcher, channel="players", text="Bence holds two kings")
        refused = until(watcher, "error")
        assert refused["code"] == "chat-channel"
        # Nor a player into the spectators' (no one reads both ways).
        say(b, channel="spectators", text="hi")
        assert until(b, "error")["code"] == "chat-channel"
        say(watcher, text="nice table")
        line = until(watcher, "chat")["line"]
        assert line["channel"] == "spectators" and line["seat"] is None
        assert line["name"] is None and line["sender"].startswith("spectator-")
        # The players do not read the spectators' channel: their next chat frame is Bence's.
        say(b, text="thanks")
        for ws in (a, b):
            line = until(ws, "chat")["line"]
            assert (line["seat"], line["text"]) == (1, "thanks"), line
        assert until(watcher, "chat")["line"]["text"] == "thanks"
    # On connecting again: the history each may read.
    with client.websocket_connect(f"/ws/{table}?token={anna['token']}") as a:
        texts = [x["text"] or x["phrase"] for x in until(a, "chat-history")["lines"]]
        assert texts == ["good-luck", "thanks"]
    with client.websocket_connect(f"/ws/{table}") as watcher:
        texts = [x["text"] or x["phrase"] for x in until(watcher, "chat-history")["lines"]]
        assert texts == ["good-luck", "nice table", "thanks"]


def test_an_html_string_is_stored_and_sent_as_written(client: TestClient) -> None:
    table, anna, _ = new_table(client)
    with client.websocket_connect(f"/ws/{table}?token={anna['token']}") as a:
        say(a, text=HTML)
        assert until(a, "chat")["line"]["text"] == HTML
        # Control characters and bidirectional overrides are removed, line breaks made spaces.
        say(a, text="\u202egg\x00\x07 well\nplayed\u200b ")
        assert until(a, "chat")["line"]["text"] == "gg well played"
    replay = client.get(f"/api/replays/{table}/1").json()
    assert [x["text"] for x in replay["chat"]] == [HTML, "gg well played"]


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"text": "x" * 201}, "chat-too-long"),
        ({"text": "\x00\x01\u202e  \n"}, "chat-empty"),
        ({"text": ""}, "chat-empty"),
        ({"phrase": "insult"}, "chat-phrase"),
        ({"text": "hi", "phrase": "oops"}, "chat-both"),
        ({}, "chat-both"),
        ({"text": 5}, "bad-message"),
        ({"text": "hi", "color": "red"}, "bad-message"),
        ({"text": "hi", "channel": "everyone"}, "bad-message"),
    ],
)
def test_a_wrong_chat_message_is_refused_with_a_clear_code(
    client: TestClient, fields: dict[str, Any], code: str
) -> None:
    table, anna, _ = new_table(client)
    with client.websocket_connect(f"/ws/{table}?token={anna['token']}") as a:
        say(a, **fields)
        assert until(a, "error")["code"] == code
    # Nothing was stored.
    assert client.get(f"/api/replays/{table}/1").json()["chat"] == []


def test_two_hundred_characters_pass_and_the_validator_agrees() -> None:
    ok = CLIENT_MESSAGE.validate_json(json.dumps({"type": "say", "text": "é" * 200}))
    assert getattr(ok, "text", None) == "é" * 200
    assert chat_text("a\tb\r\nc") == "a b  c"
    for phrase in PHRASES:
        CLIENT_MESSAGE.validate_json(json.dumps({"type": "say", "phrase": phrase}))


def test_one_person_sends_at_most_five_messages_in_ten_seconds(client: TestClient) -> None:
    table, anna, bence = new_table(client)
    with (
        client.websocket_connect(f"/ws/{table}?token={anna['token']}") as a1,
        client.websocket_connect(f"/ws/{table}?token={anna['token']}") as a2,
        client.websocket_connect(f"/ws/{table}?token={bence['token']}") as b,
    ):
        for k in range(RATE_COUNT):
            say(a1 if k % 2 else a2, text=f"m{k}")  # one seat: both its connections count
            assert until(a1, "chat")["line"]["text"] == f"m{k}"
        say(a2, text="one too many")
        refused = until(a2, "error")
        assert refused["code"] == "chat-rate-limit" and "wait" in refused["message"]
        say(b, text="mine still goes")  # another person's rate is their own
        texts = [until(b, "chat")["line"]["text"] for _ in range(RATE_COUNT + 1)]
        assert texts[-1] == "mine still goes" and "one too many" not in texts
    texts = [x["text"] for x in client.get(f"/api/replays/{table}/1").json()["chat"]]
    assert "one too many" not in texts and len(texts) == RATE_COUNT + 1


def test_the_rate_window_slides() -> None:
    rate = Rate(5, 10.0)
    assert [rate.wait("seat-0", t) for t in (0, 1, 2, 3, 4)] == [0.0] * 5
    assert rate.wait("seat-0", 5) == pytest.approx(5.0)
    assert rate.wait("seat-1", 5) == 0.0
    assert rate.wait("seat-0", 10.0) == 0.0  # the first one has left the window
    assert rate.wait("seat-0", 10.5) == pytest.approx(0.5)


def test_chat_is_stored_with_the_match_and_shown_in_its_replay(tmp_path: Path) -> None:
    with TestClient(create_app(url_of(tmp_path), STILL)) as client:
        table, anna, _ = new_table(client)
        with (
            client.websocket_connect(f"/ws/{table}?token={anna['token']}") as a,
            client.websocket_connect(f"/ws/{table}") as watcher,
        ):
            first = until(a, "update")
            say(a, phrase="hello")
            line = until(a, "chat")["line"]
            moves = first["version"] % 1_000_000
            assert (line["match"], line["deal"], line["after"]) == (1, 1, moves)
            say(watcher, text="go Anna")
            until(watcher, "chat")
        # As a player of the match in play: the players' channel only.
        seen = client.get(f"/api/replays/{table}/1", headers={"X-Seat-Token": anna["token"]}).json()
        assert [(x["phrase"], x["after"]) for x in seen["chat"]] == [("hello", moves)]
        # As a spectator: both.
        spectator = client.get(f"/api/replays/{table}/1?seat=spectator").json()
        assert [x["channel"] for x in spectator["chat"]] == ["players", "spectators"]
    # After a restart the chat comes back, in the history and in the replay.
    with TestClient(create_app(url_of(tmp_path), STILL)) as client:
        with client.websocket_connect(f"/ws/{table}") as watcher:
            lines = until(watcher, "chat-history")["lines"]
            assert [x["text"] or x["phrase"] for x in lines] == ["hello", "go Anna"]
        mine = client.get(f"/api/replays/{table}/1", headers={"X-Seat-Token": anna["token"]})
        assert len(mine.json()["chat"]) == 1


async def _chat_across(base_a: str, base_b: str, table: str, tokens: list[str]) -> None:
    async def recv(ws: Any, kind: str) -> dict[str, Any]:
        async with asyncio.timeout(20):
            while True:
                message: dict[str, Any] = json.loads(await ws.recv())
                if message["type"] == kind:
                    return message

    async with (
        websockets.connect(ws_url(base_a, table, tokens[0])) as a,
        websockets.connect(ws_url(base_b, table, tokens[1])) as b,
        websockets.connect(ws_url(base_b, table)) as watcher,
    ):
        for ws in (a, b, watcher):
            await recv(ws, "chat-history")
        # B's player writes: the owner (A) stores it and both processes' readers get it.
        await b.send(json.dumps({"type": "say", "text": HTML}))
        for ws in (a, b, watcher):
            assert (await recv(ws, "chat"))["line"]["text"] == HTML
        await a.send(json.dumps({"type": "say", "phrase": "your-turn"}))
        for ws in (a, b, watcher):
            assert (await recv(ws, "chat"))["line"]["phrase"] == "your-turn"
        # A spectator on B is refused by the owner; their own channel reaches no player.
        await watcher.send(json.dumps({"type": "say", "channel": "players", "text": "psst"}))
        assert (await recv(watcher, "error"))["code"] == "chat-channel"
        await watcher.send(json.dumps({"type": "say", "text": "spectating"}))
        assert (await recv(watcher, "chat"))["line"]["channel"] == "spectators"
        await b.send(json.dumps({"type": "say", "phrase": "thanks"}))
        for ws in (a, b):
            assert (await recv(ws, "chat"))["line"]["phrase"] == "thanks"
    # A client joining on the other process gets the history, each channel as it may read it.
    async with websockets.connect(ws_url(base_b, table, tokens[0])) as again:
        lines = (await recv(again, "chat-history"))["lines"]
        assert [x["text"] or x["phrase"] for x in lines] == [HTML, "your-turn", "thanks"]


def test_chat_reaches_every_process(tmp_path: Path) -> None:
    redis = redis_url()
    database = fresh_postgres(postgres_url())
    try:
        with (
            server_process(database, redis=redis) as a,
            server_process(database, redis=redis) as b,
        ):
            base_a, base_b = a.base, b.base  # type: ignore[attr-defined]
            made = create(
                base_a,
                "tonk",
                [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
                host_seat=0,
                host_name="Anna",
                absent_seconds=3600,
            )
            table = made["table"]["id"]
            other = join(base_b, table, "Bence")
            asyncio.run(_chat_across(base_a, base_b, table, [made["token"], other["token"]]))
    finally:
        drop_postgres(database)


def test_the_spectators_many_lines_leave_the_players_history_whole(client: TestClient) -> None:
    """Each channel keeps its own last lines: spectators chatting much never push the players'
    lines out of the history a player gets on connecting."""
    table, anna, _ = new_table(client)
    with client.websocket_connect(f"/ws/{table}?token={anna['token']}") as a:
        say(a, text="players' line")
        until(a, "chat")
    for k in range(12):  # new connections: each spectator's rate is its own
        with client.websocket_connect(f"/ws/{table}") as watcher:
            for n in range(RATE_COUNT):
                say(watcher, text=f"s{k}.{n}")
                until(watcher, "chat")
    with client.websocket_connect(f"/ws/{table}?token={anna['token']}") as a:
        assert [x["text"] for x in until(a, "chat-history")["lines"]] == ["players' line"]
    with client.websocket_connect(f"/ws/{table}") as watcher:
        lines = until(watcher, "chat-history")["lines"]
        assert len(lines) == 50 and lines[-1]["text"] == "s11.4"
