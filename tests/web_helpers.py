"""Helpers for the server tests: a real uvicorn (in a thread or a subprocess), WebSocket clients
that play random legal moves, and the check of every message a client received."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
import websockets

from taverntable.engine import SPECTATOR, Event
from taverntable.records import replay_record
from taverntable.web.app import create_app
from taverntable.web.connections import uvicorn_config
from taverntable.web.protocol.frames import ChatLine
from taverntable.web.store import Store
from taverntable.web.tables import DEAL_VERSIONS, Pace

CARD_TEXT = re.compile(r"^(?:10|[2-9AJQK])[SHDC]$")
QUICK = Pace(bot_delay=0.0, deal_pause=0.0, announce=0.0)
# One HTTP client for every request (a new one builds an SSL context each time: 70 ms).
HTTP = httpx2.Client(timeout=30)
POSTGRES_ENV = "TAVERN_TEST_POSTGRES"
REDIS_ENV = "TAVERN_TEST_REDIS"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def sqlite_url(folder: Path) -> str:
    return f"sqlite+aiosqlite:///{folder / 'tavern.sqlite3'}"


def redis_url() -> str:
    """The Redis server for the tests of several processes; skipped without one."""
    url = os.environ.get(REDIS_ENV)
    if not url:
        pytest.skip(
            f"no Redis server: set {REDIS_ENV}=redis://127.0.0.1:6379/0 (bash "
            ".ci/run installs and starts one) to run this test"
        )
    return url


def postgres_url() -> str:
    """The PostgreSQL test database; the test is skipped (saying how to run it) without one."""
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(
            f"no PostgreSQL server: set {POSTGRES_ENV}=postgresql+asyncpg://USER:PASS@"
            "127.0.0.1/DB (bash .ci/run installs and starts one) to run this test"
        )
    return url


def fresh_postgres(url: str) -> str:
    """A new, empty database on the test server (tests in parallel workers must not share
    one); returns its URL. ``drop_postgres`` removes it."""
    name = f"tavern_test_{os.getpid()}_{next(_DATABASES)}"
    _admin(url, f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name


def drop_postgres(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    _admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


_DATABASES = itertools.count()


def _admin(url: str, statement: str) -> None:
    import sqlalchemy
    from sqlalchemy.ext.asyncio import create_async_engine

    async def run() -> None:
        engine = create_async_engine(
            url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT"
        )
        async with engine.connect() as conn:
            await conn.execute(sqlalchemy.text(statement))
        await engine.dispose()

    # In a thread of its own: the caller's thread may be running an event loop already
    # (Playwright's, in the browser tests).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


@contextlib.contextmanager
def server_thread(database: str, pace: Pace = QUICK, **guard: Any) -> Iterator[str]:
    """A real uvicorn serving the app in a thread of this process, as ``tavern serve`` runs it
    (``guard``: the connection bounds of ``connections.uvicorn_config``); yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn_config(create_app(database, pace), "127.0.0.1", port, **guard))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    # Generous: a start on a machine busy with other tests (xdist, browsers) may take long.
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)


@contextlib.contextmanager
def server_process(
    database: str, port: int | None = None, redis: str | None = None, deal_pause: float = 0.0
) -> Iterator[subprocess.Popen[bytes]]:
    """``tavern serve`` in a subprocess (one of several with ``redis``); the caller may kill
    it."""
    port = port or free_port()
    extra = ["--redis", redis] if redis else []
    # Its output goes to a file: a pipe nobody reads would stop the server once full.
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "taverntable.cli",
                "serve",
                "--port",
                str(port),
                "--database",
                database,
                "--bot-delay",
                "0",
                "--deal-pause",
                str(deal_pause),
                "--announce",
                "0",
                *extra,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        proc.base = f"http://127.0.0.1:{port}"  # type: ignore[attr-defined]
        # A fresh process imports the app and migrates its database: slow on a busy machine.
        deadline = time.monotonic() + 90
        while True:
            try:
                HTTP.get(f"{proc.base}/healthz", timeout=1)  # type: ignore[attr-defined]
                break
            except httpx2.HTTPError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    out = log.read().decode(errors="replace")
                    raise RuntimeError(f"tavern serve did not start: {out}") from None
                time.sleep(0.05)
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()


def create(base: str, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = HTTP.post(f"{base}/api/tables", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def join(base: str, table: str, name: str, seat: int | None = None) -> dict[str, Any]:
    response = HTTP.post(f"{base}/api/tables/{table}/join", json={"name": name, "seat": seat})
    assert response.status_code == 200, response.text
    joined: dict[str, Any] = response.json()
    return joined


def start(base: str, table: str, host_token: str) -> None:
    response = HTTP.post(f"{base}/api/tables/{table}/start", headers={"X-Host-Token": host_token})
    assert response.status_code == 200, response.text


def records(base: str, table: str) -> list[dict[str, Any]]:
    text = HTTP.get(f"{base}/api/tables/{table}/records").text
    return [json.loads(line) for line in text.splitlines()]


def ws_url(base: str, table: str, token: str | None = None) -> str:
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    return url + (f"?token={token}" if token else "")


@dataclass
class Player:
    """A scripted client: it plays a random legal move whenever its view offers some, and keeps
    every message it received."""

    url: str
    seat: int | None
    seed: int
    # Kept as received (text): thousands of games' messages as dicts would take gigabytes.
    frames: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # when each message arrived (monotonic)
    moves: int = 0
    stop_after: int | None = None  # leave (close the socket) after this many moves
    stop_at_deal: int | None = None  # leave when this deal begins
    # Moves (by their first word, as "drop") it never makes while it has another: a random
    # player drops at a third of its turns, so its deals are often over in a few moves.
    declines: tuple[str, ...] = ()

    @property
    def messages(self) -> Iterator[dict[str, Any]]:
        return (json.loads(frame) for frame in self.frames)

    async def run(self, timeout: float = 120.0) -> None:
        rng = random.Random(self.seed)
        last = ""
        async with websockets.connect(self.url, max_size=None, compression=None) as ws:
            async with asyncio.timeout(timeout):
                async for raw in ws:
                    message = json.loads(raw)
                    self.frames.append(raw if isinstance(raw, str) else raw.decode())
                    self.times.append(time.monotonic())
                    if message["type"] == "table" and message["table"]["status"] == "finished":
                        return
                    if message["type"] == "error" and message["code"] in (
                        "rate-limit",
                        "server-error",
                        "no-answer",
                    ):
                        # Too fast for the server, or its table is changing servers (a move
                        # sent again that was made after all is refused as stale): again.
                        await asyncio.sleep(0.2)
                        await ws.send(last)
                        continue
                    if message["type"] != "update":
                        continue
                    if self.stop_at_deal is not None and message["deal"] >= self.stop_at_deal:
                        return
                    if not message["view"]["legal_moves"]:
                        continue
                    if self.stop_after is not None and self.moves >= self.stop_after:
                        return
                    legal = message["view"]["legal_moves"]
                    wanted = [m for m in legal if m.split()[0] not in self.declines]
                    move = rng.choice(wanted or legal)
                    last = json.dumps({"type": "move", "move": move, "version": message["version"]})
                    await ws.send(last)
                    self.moves += 1


def check_messages(deals: list[dict[str, Any]], player: Player) -> int:
    """Every ``update`` a client received is exactly its seat's view and the events of the last
    move as its seat may see them, recomputed from the table's records: no message carries a
    card hidden from its receiver. A ``log`` frame is the deal's events so far as the seat saw
    them (checked at the ``update`` that follows it); an ``announce`` names no card and comes
    just before the update that ends the deal with that move; a ``lesson`` frame (a guided first
    deal's hint) reaches the lesson's person only and names only cards of the view of the update
    it follows. Returns the number of updates checked."""
    seat = SPECTATOR if player.seat is None else player.seat
    who = None if player.seat is None else player.seat
    by_number = {k + 1: d for k, d in enumerate(deals)}
    checked = 0
    # deal -> (state, its record's moves, the events of the opening and of each move so far)
    replay: dict[int, tuple[Any, list[list[Any]], list[list[Event]]]] = {}
    log: dict[str, Any] | None = None
    announced: dict[str, Any] | None = None
    last_view = ""  # the last update's view (checked against the records), as JSON
    for message in player.messages:
        assert set(message) <= {
            "type",
            "version",
            "deal",
            "view",
            "events",
            "turn",
            "table",
            "protocol",
            "you",
            "code",
            "message",
            "rule",
            "reason",
            "by",
            "entries",
            "seat",
            "move",
            "total",
            "legal",
            "tonk",
            "towers",
            "lesson",
            "step",
            "steps",
            "hint",
            "params",
            "done",
            "line",
            "lines",
        }, message.keys()
        if message["type"] == "lesson":
            assert player.seat == 0, message  # a lesson's person sits at seat 0
            for value in message["params"].values():
                for word in str(value).split():
                    if CARD_TEXT.match(word):
                        assert f'"{word}"' in last_view, (word, message)
            continue
        if message["type"] in ("chat", "chat-history"):
            # Chat carries no view and no event; a seat's connection never reads the
            # spectators' channel (chat.py: no one watching coaches a player).
            lines = [message["line"]] if message["type"] == "chat" else message["lines"]
            for line in lines:
                assert set(line) == set(ChatLine.model_fields), line
                assert who is None or line["channel"] == "players", (who, line)
            continue
        if message["type"] == "log":
            log = message
            continue
        if message["type"] == "announce":
            assert "cards" not in json.dumps(message), message
            announced = message
            continue
        if message["type"] != "update":
            continue
        deal, moves_seen = divmod(message["version"], DEAL_VERSIONS)
        record = by_number.get(deal)
        if record is None:
            log = announced = None
            continue  # a deal still in play when the table's records were read
        if deal not in replay:
            head = {k: v for k, v in record.items() if k not in ("moves", "result")}
            state = replay_record({**head, "moves": []}).state
            replay[deal] = (state, record["moves"], [list(state.opening_events())])
        for finished in [d for d in replay if d < deal]:
            del replay[finished]  # messages come in deal order: an earlier deal is done with
        state, moves, played = replay[deal]
        done = len(state.history) - (len(played) - 1)  # the history the header's replay made
        while len(state.history) < moves_seen:
            s, text = moves[len(state.history) - done]
            played.append(list(state.apply(state.parse_move(text))))
            assert s == state.history[-1][0]
        events = played[-1]
        assert message["view"] == state.view(seat).to_json()
        last_view = json.dumps(message["view"])
        if message["events"]:
            assert message["events"] == [e.to_json(who) for e in events]
        if announced is not None:
            # The hands come after the announcement, with the move it told.
            assert message["deal"] == announced["deal"] and message["events"], announced
            assert message["events"][0]["move"] == announced["move"], (announced, message)
            assert message["view"]["result"] is not None
            announced = None
        if log is not None:
            assert log["deal"] == deal
            seen = [entry["events"] for entry in log["entries"]]
            want = [[e.to_json(who) for e in events] for events in played]
            if len(want) > len(seen):  # a long game's log keeps its opening and its last moves
                want = [want[0], *want[len(want) - len(seen) + 1 :]]
            assert seen == want, (
                len(seen),
                len(want),
                [x[:1] for x in seen][-3:],
                [x[:1] for x in want][-3:],
            )
            log = None
        checked += 1
    return checked


async def play_from_the_start(
    players: Sequence[Player], begin: Callable[[], None], timeout: float = 120.0
) -> None:
    """Connect every client to a table not yet started, wait until each has the table (so its
    server has attached it), then ``begin`` the match (the host's start) and play it out.

    A client that connects after the start may find the match over: a person with no turn in
    it (a deal won on the deal, T4, or ended by a drop before its turn, T6) and a spectator
    never hold the match up, and CI once saw a three-deal match end before such a client on
    the other process had connected, with not one update for it to check."""
    tasks = [asyncio.create_task(p.run(timeout)) for p in players]
    async with asyncio.timeout(30):
        while not all(any(m["type"] == "table" for m in p.messages) for p in players):
            for task in tasks:
                if task.done():
                    task.result()  # a client that failed to connect: its error, now
            await asyncio.sleep(0.01)
    await asyncio.to_thread(begin)
    await asyncio.gather(*tasks)


def check_replay(replay: dict[str, Any], record: dict[str, Any], eyes: int | str | None) -> int:
    """Every step of a replay (``GET /api/replays/…``) is exactly the state after the record's
    first k moves as ``eyes`` (a seat, None: a spectator, ``"open"``) see it, recomputed with the
    engine: the seat's view (merged from the steps' changes) and the events as the seat may see
    them; ``open`` adds every seat's own hand. Returns the steps checked."""
    head = {k: v for k, v in record.items() if k not in ("moves", "result")}
    state = replay_record({**head, "moves": []}).state
    moves = record["moves"]
    assert len(replay["steps"]) == len(moves) + 1
    seen = SPECTATOR if eyes in (None, "open") else eyes
    who = None if eyes in (None, "open") else eyes
    players = len(record["players"])
    merged: dict[str, Any] = {}
    for k, step in enumerate(replay["steps"]):
        if k == 0:
            events = list(state.opening_events())
        else:
            assert step["seat"] == moves[k - 1][0]
            events = list(state.apply(state.parse_move(moves[k - 1][1])))
        merged = {**merged, **step["view"]}
        view = dict(merged)
        expected = state.view(seen).to_json()
        del expected["history"]
        if eyes == "open":
            own = [state.view(s).to_json() for s in range(players)]
            assert view.pop("hands") == [v["hand"] for v in own]
            if "store" in expected:
                assert view.pop("stores") == [v["store"] for v in own]
            assert step["events"] == [
                {**e.to_json(None), **({"cards": list(e.cards)} if e.cards else {})} for e in events
            ]
        else:
            assert "hands" not in view and "stores" not in view
            assert step["events"] == [e.to_json(who) for e in events]
        assert view == expected, k
    return len(replay["steps"])


def wait_for_a_person(base: str, table: str, people: Iterable[int]) -> int:
    """The deal in play once the table waits for a person (who has left: it stands still)."""
    deadline = time.monotonic() + 30
    while True:
        summary = HTTP.get(f"{base}/api/tables/{table}").json()
        turn = summary["turn"]
        if summary["status"] == "playing" and turn is not None and turn["seat"] in people:
            deal: int = summary["deal"]
            return deal
        assert time.monotonic() < deadline, summary
        time.sleep(0.05)


def stored_record(database: str, table: str, deal: int) -> dict[str, Any]:
    """A deal's record as the database holds it, moves so far (a deal in play has no
    download): the truth a replay is checked against."""

    async def load() -> dict[str, Any]:
        store = Store(database)
        try:
            stored = await store.load(table)
        finally:
            await store.engine.dispose()
        assert stored is not None
        found = next(d for d in stored.deals if d.number == deal)
        return {**found.header, "moves": [[s, m] for s, m in found.moves]}

    # In a thread of its own: the caller's thread may be running an event loop (Playwright's).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, load()).result()
