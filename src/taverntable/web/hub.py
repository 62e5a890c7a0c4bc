"""Every table of the server: created, found by id, restored from the database at start-up."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import math
import re
import secrets
import time
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from taverntable.bots import BotError, bot_names
from taverntable.characters import bot_seat_names
from taverntable.engine import Game, TavernError
from taverntable.games import UnknownGame, family_games, game_names, get_game

from .accounts import Account, Accounts
from .botpool import BotPool
from .history import MatchBook
from .looplag import GcPolicy, LoopWatch
from .protocol.api import BotFigures, CreateTable, GameInfo, Health
from .protocol.frames import Channel, Phrase
from .protocol.summary import TableSummary
from .seats import Connection, Seat
from .store import Store, StoredSeat, StoredTable, brief, database_fault, digest
from .tables import Pace, Settings, Table
from .throttle import LocalSignIns, SignIns
from .tutorial import lesson_of_family
from .usage import Limits, Throttle

log = logging.getLogger("taverntable.web")


class BadRequest(Exception):
    """A request the server refuses; the message says why (HTTP 400/403/404/409/503), and the
    code says it without words, so that a page can say it in its own language
    (``docs/protocol.md``)."""

    def __init__(
        self,
        status: int,
        message: str,
        code: str = "bad-request",
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.headers = headers  # Retry-After, say


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

    async def say(
        self,
        seat: int | None,
        handle: str,
        channel: Channel | None,
        text: str | None,
        phrase: Phrase | None,
    ) -> None:
        """A chat message (``chat.py``); raises MoveRefused with a ``chat-*`` code."""
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

    def __init__(
        self, store: Store, bots: BotPool, pace: Pace, limits: Limits | None = None
    ) -> None:
        self.store = store
        self.bots = bots
        self.pace = pace
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        # Accounts and their sessions, signed-in people's matches and ratings, and the
        # throttle of sign-in attempts (accounts.py, history.py, throttle.py).
        self.accounts = Accounts(store)
        self.book = MatchBook(store)
        self.signins: SignIns = LocalSignIns()  # several processes: in Redis (cluster.py)
        self.throttle = Throttle(self.limits.tables_per_window, self.limits.window_seconds)
        self.sweeper: asyncio.Task[None] | None = None
        # The collector's full passes kept off the long-lived heap; the event loop's stalls
        # and the collector's passes, measured (/healthz's loop).
        self.gc_policy = GcPolicy()
        self.watch = LoopWatch(self.gc_policy)

    async def open(self) -> None:
        """Open the database and bring back every live table (in the lobby or in play) where
        it was; a finished one is loaded when someone opens it (``find``)."""
        await self.store.open()
        unwritten = await self.book.unfinished()
        for stored in await self.store.load_all(("lobby", "playing")):
            table = self.restored(stored)
            if table is None:
                continue
            await self.booked(table, (table.id, table.match) in unwritten)
            self.tables[table.id] = table
            if table.status == "playing":
                table.run()
        # A finished match whose results the server stopped before writing (not loaded with
        # the live tables): written and rated now.
        for table_id, match in sorted(unwritten):
            if table_id in self.tables:
                continue
            finished = await self.store.load(table_id)
            if finished is None or finished.status != "finished" or finished.match != match:
                continue
            table = self.restored(finished)
            if table is not None:
                await self.booked(table, True)
                self.tables[table.id] = table
        self.start_sweeper()

    def restored(self, stored: StoredTable) -> Table | None:
        """A stored table back in memory (None, logged, when it cannot be)."""
        try:
            game = get_game(stored.game)
            table = Table.restore(stored, game, self.store, self.bots, self.pace)
        except (TavernError, ValueError, KeyError, TypeError):
            log.exception("table %s cannot be restored; it is left out", stored.id)
            return None
        table.pause_after = self.limits.unwatched_seconds
        return table

    async def booked(self, table: Table, unwritten: bool = False) -> None:
        """The table writes its signed-in people's matches to the book; a finished rated
        match shows its rating changes again (and one whose results the server stopped before
        writing writes them now)."""
        table.book = self.book
        await table.chat.load()
        if table.status == "finished":
            if unwritten:
                await self.book.match_finished(table, table.match, table.balances())
            if table.settings.rated:
                table.rating_changes = await self.book.changes(table)

    async def close(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        for table in self.tables.values():
            await table.stop()
        self.bots.close()
        await self.store.close()

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise BadRequest(404, f"there is no table {table_id[:40]!r}", "no-table")
        return table

    async def find(self, table_id: str) -> Table:
        """The table in memory, or a finished one loaded from the database (an expired table,
        or none: 404)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        stored = await self.store.load(table_id)
        if stored is not None and stored.status == "expired":
            raise BadRequest(
                404,
                f"table {table_id[:40]!r} was closed: nobody opened it for "
                f"{self.limits.lobby_seconds / 60:g} minutes",
                "no-table",
            )
        table = None if stored is None or stored.status != "finished" else self.restored(stored)
        if table is None:
            raise BadRequest(404, f"there is no table {table_id[:40]!r}", "no-table")
        await self.booked(table)  # its rating changes, shown again
        return self.tables.setdefault(table_id, table)

    # --- what is not used: tables nobody opens, the throttle's old counts -------------------

    def start_sweeper(self) -> None:
        if self.limits.sweep_seconds > 0:
            self.sweeper = asyncio.create_task(self._sweeping(), name="sweeper")

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                await self.sweep()
            except Exception as e:
                if not database_fault(e):
                    raise
                log.warning("the sweep of unused tables failed (%s)", brief(e))

    async def sweep(self) -> None:
        """Close the tables in the lobby nobody has had open for ``lobby_seconds``, and let
        finished ones nobody has open for ``finished_seconds`` leave memory."""
        now = time.monotonic()
        self.throttle.forget_old()
        lobby, finished = self.limits.lobby_seconds, self.limits.finished_seconds
        for table in list(self.tables.values()):
            idle = table.unwatched_for(now)
            if idle is None:
                continue
            if table.status == "lobby" and 0 < lobby <= idle:
                if await table.expire():
                    log.info("table %s: closed, nobody opened it", table.id)
                    await self.forget_table(table)
            elif table.status == "finished" and 0 < finished <= idle:
                await self.forget_table(table)

    async def forget_table(self, table: Table) -> None:
        """A table leaves this process's memory (its records stay in the database)."""
        await table.stop()
        self.tables.pop(table.id, None)

    async def create(
        self,
        req: CreateTable,
        keys: Sequence[str] = (),
        account: Account | None = None,
        lesson: str | None = None,
    ) -> Created:
        """A new table in the lobby; the creator gets the host token (and their seat's); a
        signed-in creator sits as their account. ``lesson``: a guided first deal's table
        (``tutorial.py``; the server's choice, never a request's).
        ``keys`` name who asks (``address:HOST``; an account's later), each held to the
        server's creation limit (HTTP 429 past it)."""
        wait = self.throttle.allow(keys)
        if wait is not None:
            limits = self.limits
            raise BadRequest(
                429,
                f"at most {limits.tables_per_window} new tables every "
                f"{limits.window_seconds / 60:g} minutes from one address; "
                f"try again in {math.ceil(wait)} s",
                "too-many-tables",
                {"Retry-After": str(math.ceil(wait))},
            )
        try:
            game = get_game(req.game)
            rules = game.rules(req.options)
            game.check_players(rules, len(req.seats))
            if req.rated and rules.options() != game.rules().options():
                raise BadRequest(
                    400, "a rated match plays the preset's rules as they stand", "rated-rules"
                )
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
        if req.rated and req.hints:
            raise BadRequest(
                400, "a rated match is played without the coach's hints", "rated-hints"
            )
        if req.rated and (account is None or req.host_seat is None):
            raise BadRequest(
                403, "a rated table is made by a signed-in person who sits at it", "sign-in"
            )
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
            if account is not None:
                mine.name, mine.account_id = account.name, account.id
        # Unnamed bots take the seeds' characters, as at the terminal (Goblin, Elmo …).
        unnamed = [s for s in seats if s.is_bot and not s.name]
        taken = [s.name for s in seats if s.name]
        for s, name in zip(unnamed, bot_seat_names(game.name, len(unnamed), taken), strict=True):
            s.name = name
        settings = Settings(
            stake=req.stake,
            deals=req.deals,
            target=req.target,
            absent_seconds=req.absent_seconds,
            turn_seconds=req.turn_seconds,
            bot_level=req.bot_level,
            rated=req.rated and lesson is None,
            hints=req.hints,
            private=req.private,
            lesson=lesson,
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
        table.pause_after = self.limits.unwatched_seconds
        await self.store.create_table(
            table_id,
            game.name,
            dict(req.options),
            settings.stored(),
            table.host_hash,
            [
                StoredSeat(s.seat, s.kind, s.name, s.level, s.token_hash, s.account_id)
                for s in seats
            ],
            self.new_lease(),
        )
        table.book = self.book
        self.tables[table_id] = table
        return Created(table, host_token, req.host_seat, token)

    # --- what the HTTP and WebSocket routes ask (the cluster's hub answers from anywhere) ------

    def health(self) -> Health:
        return Health(
            ok=True,
            bots=BotFigures(**self.bots.figures()),
            tables=len(self.tables),
            writes=self.store.writes,
        )

    async def lobby(self) -> list[TableSummary]:
        """The tables in the lobby or in play, as summaries."""
        live = (
            t
            for t in self.tables.values()
            if t.status in ("lobby", "playing") and not t.settings.private and t.lesson is None
        )
        tables = sorted(live, key=lambda t: t.id)
        return [t.summary() for t in tables[:200]]

    async def summary(self, table_id: str) -> TableSummary:
        return (await self.find(table_id)).summary()

    async def join(
        self, table_id: str, name: str, seat: int | None, account: Account | None = None
    ) -> tuple[int, str, TableSummary]:
        """A person takes an open seat; (seat, token, the table's summary)."""
        table = await self.find(table_id)
        taken, token = await self.take_seat(table, name, seat, account)
        return taken, token, table.summary()

    async def host(self, table_id: str, token: str | None, action: str) -> TableSummary:
        """The host starts the table or asks for a rematch."""
        table = await self.find(table_id)
        if not self.is_host(table, token):
            raise BadRequest(403, "only the table's host may do that (X-Host-Token)", "not-host")
        await (table.start() if action == "start" else table.rematch())
        return table.summary()

    async def socket(
        self, table_id: str, token: str | None, host_token: str | None = None
    ) -> tuple[Endpoint, int | None, bool]:
        """The endpoint of a client's connection, the seat its token sits at, and whether its
        host token is the table's."""
        table = await self.find(table_id)
        return table, self.seat_of(table, token), self.is_host(table, host_token)

    # --- seats ----------------------------------------------------------------------------------

    def new_lease(self) -> tuple[str, float] | None:
        """The lease a new table starts with (none for a lone process)."""
        return None

    async def take_seat(
        self, table: Table, name: str, seat: int | None, account: Account | None = None
    ) -> tuple[int, str]:
        """A person takes an open seat (the first one if ``seat`` is None); a signed-in person
        sits under their account's name. A rated table seats signed-in people only."""
        if table.settings.rated and account is None:
            raise BadRequest(403, "sign in to sit at a rated table", "sign-in")
        free = [s.seat for s in table.seats if not s.is_bot and s.token_hash is None]
        if seat is None:
            if not free:
                raise BadRequest(409, "every person's seat at this table is taken", "seats-taken")
            seat = free[0]
        if seat not in free:
            raise BadRequest(409, f"seat {seat} is not an open seat", "seat-taken")
        token = new_token()
        if account is None:
            await table.claim(seat, name, digest(token))
        else:
            await table.claim(seat, account.name, digest(token), account.id)
        return seat, token

    async def link_guest_seats(self, account: Account, seat_tokens: dict[str, str]) -> int:
        """A guest who signs up or in keeps what they played in this browser: the seats its
        tokens hold become the account's (in the database, in this process's tables, and in
        the account's history). Returns how many seats were linked."""
        pairs = [(t, k) for t, k in seat_tokens.items() if len(t) <= 32 and len(k) <= 100]
        linked = await self.accounts.link_seats(account.id, pairs)
        for table_id, seat in linked:
            table = self.tables.get(table_id)
            if table is not None:
                table.seats[seat].account_id = account.id
            await self.book.linked(account.id, table_id, seat)
        return len(linked)

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
                lesson=lesson_of_family(game.family),
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
