"""The FastAPI application of ``tavern serve``: the HTTP API, the WebSocket, the browser table.

One WebSocket per client at ``/ws/{table}``; the seat token comes in the query (``?token=``) or
in the table's cookie, set when the seat was taken. Routes and messages: ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import ValidationError
from starlette.staticfiles import StaticFiles

from taverntable.games import game_names
from taverntable.games.texts import LANGUAGES
from taverntable.records import replay_record

from .botpool import BotPool
from .hub import BadRequest, Endpoint, Hub, games_info
from .protocol import (
    CLIENT_MESSAGE,
    MAX_FRAME,
    CreateTable,
    JoinTable,
    MoveMessage,
    error,
    hello,
)
from .rulespage import rules_page
from .seats import Connection
from .store import Store
from .tables import MoveRefused, Pace

log = logging.getLogger("taverntable.web")
STATIC = Path(__file__).parent / "static"
# A client may send this many messages in a burst, then this many a second; past that it gets
# an error for each, and after ``STRIKES`` bad or refused messages in a row it is disconnected.
BURST, PER_SECOND, STRIKES = 60, 30.0, 50


def cookie_name(table_id: str) -> str:
    return f"tt_seat_{table_id}"


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


def create_app(
    database: str, pace: Pace | None = None, bot_processes: int = 1, redis: str | None = None
) -> FastAPI:
    """The application over the database at ``database`` (an SQLAlchemy async URL); with a
    ``redis`` URL, one process of several sharing the tables (``cluster.py``)."""
    if redis is None:
        hub = Hub(Store(database), BotPool(bot_processes), pace or Pace())
    else:
        from .cluster import ClusterHub

        hub = ClusterHub(Store(database), BotPool(bot_processes), pace or Pace(), redis)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.open()
        # What is loaded by now (modules, restored tables) lives as long as the server: keep it
        # out of the garbage collector's full passes, whose pauses stall every table.
        gc.collect()
        gc.freeze()
        yield
        await hub.close()

    app = FastAPI(title="Tavern Table", lifespan=lifespan)
    app.state.hub = hub

    @app.exception_handler(BadRequest)
    async def bad_request(request: Request, exc: BadRequest) -> JSONResponse:
        return JSONResponse({"error": str(exc), "code": exc.code}, status_code=exc.status)

    @app.exception_handler(MoveRefused)
    async def refused(request: Request, exc: MoveRefused) -> JSONResponse:
        return JSONResponse({"error": str(exc), "code": exc.code}, status_code=409)

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return games_info()

    @app.get("/api/tables")
    async def lobby() -> list[dict[str, Any]]:
        """Tables to join or watch, finished ones left out."""
        return await hub.lobby()

    @app.post("/api/tables", status_code=201)
    async def create(req: CreateTable, response: Response) -> dict[str, Any]:
        made = await hub.create(req)
        table = made.table
        if made.token is not None:
            _set_cookie(response, table.id, made.token)
        return {
            "table": table.summary(),
            "host_token": made.host_token,
            "seat": made.seat,
            "token": made.token,
            "invite": f"/t/{table.id}",
        }

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return await hub.summary(table_id)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, req: JoinTable, response: Response) -> dict[str, Any]:
        seat, token, summary = await hub.join(table_id, req.name, req.seat)
        _set_cookie(response, table_id, token)
        return {"seat": seat, "token": token, "table": summary}

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, x_host_token: str | None = Header(None)) -> dict[str, Any]:
        return await hub.host(table_id, x_host_token, "start")

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, x_host_token: str | None = Header(None)) -> dict[str, Any]:
        return await hub.host(table_id, x_host_token, "rematch")

    @app.get("/api/tables/{table_id}/records")
    async def records(table_id: str) -> PlainTextResponse:
        """The finished deals as JSON Lines records (``tavern replay`` accepts them); a deal
        in play is left out: its record would show every hand."""
        stored = await hub.store.load(table_id)
        if stored is None:
            raise BadRequest(404, f"there is no table {table_id[:40]!r}", "no-table")
        lines = []
        for deal in stored.deals:
            if deal.finished:
                record = {**deal.header, "moves": [[s, m] for s, m in deal.moves]}
                lines.append(json.dumps(replay_record(record).record, ensure_ascii=False))
        return PlainTextResponse(
            "".join(line + "\n" for line in lines), media_type="application/x-ndjson"
        )

    @app.get("/rules/{game}", response_class=HTMLResponse)
    async def rules(game: str, lang: str = "en") -> HTMLResponse:
        """A game's rules and readings in one of the UI's languages (anchors #T9, #R14 …)."""
        if game not in game_names():
            raise BadRequest(404, f"there is no game {game[:40]!r}", "no-game")
        return HTMLResponse(rules_page(game, lang if lang in LANGUAGES else "en"))

    @app.get("/healthz")
    async def health() -> dict[str, Any]:
        return {"ok": True, **hub.health()}

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await serve_socket(hub, websocket, table_id, token)

    if (STATIC / "index.html").exists():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", response_class=HTMLResponse)
    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def page(table_id: str | None = None) -> HTMLResponse:
        index = STATIC / "index.html"
        if index.exists():
            return HTMLResponse(index.read_text(encoding="utf-8"))
        return HTMLResponse(
            "<!doctype html><title>Tavern Table</title><p>Tavern Table server "
            "(the browser table is not installed).</p>"
        )

    return app


def _set_cookie(response: Response, table_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(table_id), token, max_age=30 * 24 * 3600, httponly=True, samesite="strict"
    )


async def serve_socket(hub: Hub, websocket: WebSocket, table_id: str, token: str | None) -> None:
    """One client's connection: hello, then its view after every move, and its moves in."""
    try:
        table, seat = await hub.socket(
            table_id, token or websocket.cookies.get(cookie_name(table_id))
        )
    except BadRequest as e:
        await websocket.accept()
        await websocket.send_json(error(e.code, str(e)))
        # 4403/4404: the page stops trying; 1013 (try again later): a table changing servers.
        await websocket.close(code={"unknown-seat": 4403, "no-table": 4404}.get(e.code, 1013))
        return
    await websocket.accept()
    conn = Connection(seat)
    conn.push(hello(table.id, seat, host=False))
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
    """Send the connection's queue in order; ``None`` closes it."""
    try:
        while (message := await conn.queue.get()) is not None:
            await websocket.send_text(json.dumps(message, ensure_ascii=False))
        await websocket.close(code=1008 if conn.dropped else 1000)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass


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
        conn.push(reply)
        strikes += 1
        if reply.get("code") == "too-large" or strikes >= STRIKES:
            conn.close()


async def _handle(
    table: Endpoint, conn: Connection, text: str, limit: RateLimit
) -> dict[str, Any] | None:
    """One client message: None when it was acted on, else the error to send back."""
    if len(text.encode()) > MAX_FRAME:
        return error("too-large", f"a message has at most {MAX_FRAME} bytes")
    if not limit.allow():
        return error("rate-limit", f"at most {PER_SECOND:g} messages a second, please")
    try:
        message = CLIENT_MESSAGE.validate_json(text)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        return error("bad-message", f"{where}: {first.get('msg', 'not a message')}"[:300])
    if not isinstance(message, MoveMessage):
        conn.push({"type": "pong"})
        return None
    try:
        await table.play(conn.seat, message.move, message.version)
    except MoveRefused as e:
        if e.update is not None:
            conn.push(e.update)
        return error(e.code, str(e), e.rule, e.reason)
    except Exception:  # the database failed: the move did not happen; the table goes on
        log.exception("table %s: a move could not be stored", table.id)
        return error("server-error", "the move could not be stored; nothing changed, try again")
    return None
