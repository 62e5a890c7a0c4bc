"""Every table of the server: created, found by id, restored from the database at start-up."""

from __future__ import annotations

import hmac
import logging
import re
import secrets
import typing
from dataclasses import dataclass
from typing import Any, Protocol

from taverntable.bots import BotError, bot_names
from taverntable.engine import Game, TavernError
from taverntable.games import UnknownGame, family_games, game_names, get_game

from .botpool import BotPool
from .protocol.api import CreateTable, GameInfo, Health
from .protocol.summary import TableSummary
from .seats import Connection, Seat
from .store import Store, StoredSeat, digest
from .tables import Pace, Settings, Table

log = logging.getLogger("taverntable.web")


class BadRequest(Exception):
    """A request the server refuses; the message says why (HTTP 400/403/404/409/503), and the
    code says it without words, so that a page can say it in its own language
    (``docs/protocol.md``)."""

    def __init__(self, status: int, message: str, code: str = "bad-request") -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class Endpoint(Protocol):
    """What a client's connection talks to: a table this process owns, or (several processes)
    the stand-in of a table another process owns."""

    @property
    def id(self) -> str: ...

    def attach(self, conn: Connection) -> None: ...

    def detach(self, conn: Connection) -> None: ...

    async def play(
        self, seat: int | None, text: str, version: int | None, check_only: bool = False
    ) -> None:
        """Raises MoveRefused: nothing changed (``check_only``: the move is only checked)."""
        ...


@dataclass
class Created:
    table: Table
    host_token: str
    seat: int | None
    token: str | None


def new_token() -> str:
    return secrets.token_urlsafe(18)


# A table's id as ``_new_id`` makes them (URL-safe base64); anything else is no table's, and is
# never sent to the database (PostgreSQL refuses a NUL in a text: a 500).
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def no_table(table_id: str) -> BadRequest:
    return BadRequest(404, f"there is no table {table_id[:40]!r}", "no-table")


def check_table_id(table_id: str) -> None:
    """BadRequest(404) for an id no table can have."""
    if not TABLE_ID.fullmatch(table_id):
        raise no_table(table_id)


class Hub:
    """The server's tables, in memory and in the store."""

    def __init__(self, store: Store, bots: BotPool, pace: Pace) -> None:
        self.store = store
        self.bots = bots
        self.pace = pace
        self.tables: dict[str, Table] = {}

    async def open(self) -> None:
        """Open the database and bring back every table where it was."""
        await self.store.open()
        for stored in await self.store.load_all():
            try:
                game = get_game(stored.game)
                table = Table.restore(stored, game, self.store, self.bots, self.pace)
            except (TavernError, ValueError, KeyError, TypeError):
                log.exception("table %s cannot be restored; it is left out", stored.id)
                continue
            self.tables[table.id] = table
            if table.status == "playing":
                table.run()

    async def close(self) -> None:
        for table in self.tables.values():
            await table.stop()
        self.bots.close()
        await self.store.close()

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise BadRequest(404, f"there is no table {table_id[:40]!r}", "no-table")
        return table

    async def create(self, req: CreateTable) -> Created:
        """A new table in the lobby; the creator gets the host token (and their seat's)."""
        try:
            game = get_game(req.game)
            rules = game.rules(req.options)
            game.check_players(rules, len(req.seats))
        except UnknownGame as e:
            raise BadRequest(400, str(e)) from None
        except TavernError as e:
            raise BadRequest(400, str(e)) from None
        levels = set(bot_names(game.name))
        for spec in req.seats:
            if spec.kind == "bot" and spec.level not in levels:
                raise BadRequest(
                    400,
                    f"unknown bot level {spec.level!r} for {game.name} "
                    f"(known: {', '.join(sorted(levels))})",
                )
        if req.bot_level not in levels:
            raise BadRequest(400, f"unknown bot level {req.bot_level!r}")
        if req.stake != 1 and game.unit != "stakes":
            raise BadRequest(400, f"{game.title} is scored in {game.unit}: leave the stake at 1")
        host_token = new_token()
        seats = [
            Seat(k, s.kind, s.name, s.level if s.kind == "bot" else None, None)
            for k, s in enumerate(req.seats)
        ]
        token = None
        if req.host_seat is not None:
            if req.host_seat >= len(seats) or seats[req.host_seat].is_bot:
                raise BadRequest(400, f"seat {req.host_seat} is not a person's seat")
            token = new_token()
            mine = seats[req.host_seat]
            mine.token_hash = digest(token)
            mine.name = req.host_name or mine.name or "Host"
        settings = Settings(
            stake=req.stake,
            deals=req.deals,
            target=req.target,
            absent_seconds=req.absent_seconds,
            turn_seconds=req.turn_seconds,
            bot_level=req.bot_level,
        )
        table_id = self._new_id()
        table = Table(
            table_id,
            game,
            dict(req.options),
            settings,
            seats,
            digest(host_token),
            self.store,
            self.bots,
            self.pace,
        )
        await self.store.create_table(
            table_id,
            game.name,
            dict(req.options),
            settings.to_json(),
            table.host_hash,
            [StoredSeat(s.seat, s.kind, s.name, s.level, s.token_hash) for s in seats],
            self.new_lease(),
        )
        self.tables[table_id] = table
        return Created(table, host_token, req.host_seat, token)

    # --- what the HTTP and WebSocket routes ask (the cluster's hub answers from anywhere) ------

    def health(self) -> Health:
        return Health(ok=True, tables=len(self.tables), writes=self.store.writes)

    async def lobby(self) -> list[TableSummary]:
        """The tables not finished, as summaries."""
        tables = sorted(
            (t for t in self.tables.values() if t.status != "finished"), key=lambda t: t.id
        )
        return [t.summary() for t in tables[:200]]

    async def summary(self, table_id: str) -> TableSummary:
        return self.get(table_id).summary()

    async def join(
        self, table_id: str, name: str, seat: int | None
    ) -> tuple[int, str, TableSummary]:
        """A person takes an open seat; (seat, token, the table's summary)."""
        table = self.get(table_id)
        taken, token = await self.take_seat(table, name, seat)
        return taken, token, table.summary()

    async def host(self, table_id: str, token: str | None, action: str) -> TableSummary:
        """The host starts the table or asks for a rematch."""
        table = self.get(table_id)
        if not self.is_host(table, token):
            raise BadRequest(403, "only the table's host may do that (X-Host-Token)", "not-host")
        await (table.start() if action == "start" else table.rematch())
        return table.summary()

    async def socket(
        self, table_id: str, token: str | None, host_token: str | None = None
    ) -> tuple[Endpoint, int | None, bool]:
        """The endpoint of a client's connection, the seat its token sits at, and whether its
        host token is the table's."""
        table = self.get(table_id)
        return table, self.seat_of(table, token), self.is_host(table, host_token)

    # --- seats ----------------------------------------------------------------------------------

    def new_lease(self) -> tuple[str, float] | None:
        """The lease a new table starts with (none for a lone process)."""
        return None

    async def take_seat(self, table: Table, name: str, seat: int | None) -> tuple[int, str]:
        """A person takes an open seat (the first one if ``seat`` is None)."""
        free = [s.seat for s in table.seats if not s.is_bot and s.token_hash is None]
        if seat is None:
            if not free:
                raise BadRequest(409, "every person's seat at this table is taken", "seats-taken")
            seat = free[0]
        if seat not in free:
            raise BadRequest(409, f"seat {seat} is not an open seat", "seat-taken")
        token = new_token()
        await table.claim(seat, name, digest(token))
        return seat, token

    def seat_of(self, table: Table, token: str | None) -> int | None:
        """The seat a token sits at; BadRequest(403) for a token of no seat."""
        if not token:
            return None
        h = digest(token)
        for s in table.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.seat
        raise BadRequest(403, "this seat token does not belong to this table", "unknown-seat")

    def is_host(self, table: Table, token: str | None) -> bool:
        return is_host_token(table.host_hash, token)

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables:
                return table_id


def is_host_token(host_hash: str, token: str | None) -> bool:
    """Whether ``token`` is the host's secret of the table whose host digest is ``host_hash``."""
    return bool(token) and hmac.compare_digest(host_hash, digest(token or ""))


def game_offers() -> list[GameInfo]:
    """What the lobby offers: every game with its players, options (and defaults) and bots."""
    out = []
    for name in game_names():
        game = get_game(name)
        try:
            levels = bot_names(name)
        except BotError:
            levels = []
        out.append(
            GameInfo(
                name=name,
                title=game.title,
                family=game.family,
                title_key=f"game.{name}",
                about_key=f"game.{name}.about",
                rules=family_games(game.family)[0].name,
                min_players=game.min_players,
                max_players=game.max_players,
                unit=game.unit,
                length=game.length,
                options=game.rules().options(),
                choices=option_choices(game),
                bots=levels,
            )
        )
    return out


def games_info() -> list[dict[str, Any]]:
    """The lobby's offer as plain data (what ``GET /api/games`` answers)."""
    return [offer.model_dump(mode="json") for offer in game_offers()]


def option_choices(game: Game) -> dict[str, list[Any] | str]:
    """What each rule option may be, for a form: its values (a choice or true/false), or
    ``"int"`` / ``"int?"`` (a whole number; ``?``: or none)."""
    rules = game.rules()
    hints = typing.get_type_hints(type(rules))
    out: dict[str, list[Any] | str] = {}
    for name in rules.options():
        hint = hints[name]
        args = typing.get_args(hint)
        if hint is bool:
            out[name] = [False, True]
        elif typing.get_origin(hint) is typing.Literal:
            out[name] = list(args)
        elif hint is int:
            out[name] = "int"
        elif set(args) == {int, type(None)}:
            out[name] = "int?"
        else:
            out[name] = "text"
    return out
