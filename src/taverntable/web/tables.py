"""A table at the server: its seats, its match of deals, the current deal, and who plays next.

The server is the only authority. A person's move is parsed, checked and applied under the
table's lock, written to the database, and only then sent to every connection as that
connection's view and the events its seat may see. A *driver* task plays every move no person
makes: chance steps, bot seats, and a person's seat when they have been away for
``absent_seconds`` or their turn timer ran out (by a bot of the table's level, until they are
back). Nothing here knows a game: everything comes from the registry's ``Game`` and the contract.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import orjson

from taverntable.engine import (
    CHANCE,
    SPECTATOR,
    Event,
    Game,
    GameState,
    IllegalMove,
    MoveSyntaxError,
    TavernError,
)
from taverntable.match import MatchLength, deal_points
from taverntable.records import dump_record, replay_record

from .botpool import BotPool
from .chat import ChatRefused, TableChat
from .hints import send_hints
from .history import MatchBook, RatingChange, standings
from .protocol.frames import (
    AnnounceMessage,
    Channel,
    LogEntry,
    LogMessage,
    Phrase,
    Reason,
    StandIn,
    UpdateMessage,
    encode,
    encode_update,
    fill_view,
    view_template,
)
from .protocol.summary import TableSummary, Turn
from .seats import Connection, Seat
from .store import Fence, LeaseLost, Store, StoredTable, brief, database_fault
from .tutorial import lesson_named

log = logging.getLogger("taverntable.web")
T = TypeVar("T")

# Versions count deals and the moves within them, so they survive a restart of the server.
DEAL_VERSIONS = 1_000_000
# Bits of a deal's seed: each deal's generator is seeded afresh from ``secrets``, so a
# finished record's stock order (published) reveals no state that another deal comes from.
SEED_BITS = 128


def _events_json(
    events: Sequence[Event], seat: int | None, shared: dict[str, Any] | None
) -> list[dict[str, Any]] | orjson.Fragment:
    """The events as ``seat`` sees them, for its ``update`` frame; given ``shared`` (one dict
    for every seat's frame of one move), encoded once for all the seats that see the same
    cards: most moves show every seat everything (issue 23, seventh pass)."""
    if shared is None:
        return [e.to_json(seat) for e in events]
    encodings: dict[tuple[bool, ...], orjson.Fragment] | None = shared.get("events")
    if encodings is None:
        encodings = shared["events"] = {}
    sees = tuple(e.visible_to(seat) for e in events if e.cards)
    encoded = encodings.get(sees)
    if encoded is None:
        encoded = encodings[sees] = orjson.Fragment(orjson.dumps([e.to_json(seat) for e in events]))
    return encoded


def _sheet_row_json(row: dict[str, Any]) -> dict[str, Any]:
    """A score sheet's row as ``SheetRow`` dumps it (its points as floats)."""
    return {
        "deal": row["deal"],
        "dealer": row["dealer"],
        "result": row["result"],
        "points": [float(x) for x in row["points"]],
    }


def deal_generator() -> random.Random:
    """The generator of one deal (its shuffle and chance steps), from a seed of its own."""
    return random.Random(secrets.randbits(SEED_BITS))


# A ``log`` frame holds at most this many of the deal's last moves (a Three Towers game may
# have a thousand).
LOG_ENTRIES = 400


@dataclass(frozen=True)
class Played:
    """One move of the deal in play (or its setting up: seat None), for the ``log`` frame."""

    seat: int | None
    by: StandIn | None
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Settings:
    """A table's choices beyond the game's rules."""

    stake: int = 1
    deals: int | None = None  # the match ends after this many deals (games) …
    target: int | None = None  # … or after the deal in which a balance reaches this
    absent_seconds: float = 30.0  # a person away this long is played by a bot until back
    turn_seconds: float | None = None  # a turn timer, after which a bot moves for the seat
    bot_level: str = "medium"  # who plays for an absent person or a seat whose timer ran out
    rated: bool = False  # the match changes its people's ratings (history.py)
    hints: bool = False  # the coach's hints to each person's seat (``hints.py``), never rated
    private: bool = False  # not in the lobby; its deals reviewed only for its own people
    # A guided first deal's lesson (tutorial.py): set by the server only, never by a client.
    lesson: str | None = None

    def stored(self) -> dict[str, Any]:
        """What the database keeps: the settings, and a lesson table's lesson."""
        return {**self.to_json(), **({} if self.lesson is None else {"lesson": self.lesson})}

    def to_json(self) -> dict[str, Any]:
        return {
            "rated": self.rated,
            "hints": self.hints,
            "private": self.private,
            "stake": self.stake,
            "deals": self.deals,
            "target": self.target,
            "absent_seconds": self.absent_seconds,
            "turn_seconds": self.turn_seconds,
            "bot_level": self.bot_level,
        }


@dataclass(frozen=True)
class Pace:
    """Server-wide timing: a pause before each bot move (so people can follow), between a bot's
    move that ends the deal and the hands shown (its ``announce``: "Goblin drops with 9!") and
    between deals (so they can read the result). Tests run with none."""

    bot_delay: float = 0.6
    deal_pause: float = 4.0
    announce: float = 1.5


class Outlet(Protocol):
    """Where a table sends what other server processes' clients must see (several processes:
    ``cluster.py``); a lone process has none."""

    def updates(self, table_id: str, by_seat: dict[str, str]) -> None:
        """Each watched seat's ``update`` frame, encoded (keys: ``seat_key``)."""
        ...

    def table(self, table_id: str, summary: TableSummary, frame: str) -> None:
        """The table's new summary, and its ``table`` frame encoded."""
        ...

    def deliver(self, table_id: str, node: str, cid: int, frames: list[str]) -> None:
        """Encoded frames for one client of another process."""
        ...


def seat_key(seat: int | None) -> str:
    """How a seat is named in messages between processes."""
    return "spectator" if seat is None else str(seat)


class MoveRefused(Exception):
    """A client's move or action the table refuses; ``code``, ``rule`` and ``reason`` go to the
    client, and ``update`` (a stale move's answer) is where the table stands now for the client's
    seat."""

    def __init__(
        self,
        code: str,
        message: str,
        rule: str | None = None,
        reason: Reason | None = None,
        update: UpdateMessage | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.reason = reason  # an illegal move's key and parameters, for a translated message
        self.update = update


class Table:
    """One table's live state; see the module's docstring."""

    def __init__(
        self,
        table_id: str,
        game: Game,
        options: dict[str, Any],
        settings: Settings,
        seats: list[Seat],
        host_hash: str,
        store: Store,
        bots: BotPool,
        pace: Pace,
    ) -> None:
        self.id = table_id
        self.game = game
        self.options = options
        self.rules = game.rules(options)
        self.settings = settings
        self.lesson = lesson_named(settings.lesson)  # a guided first deal, or None
        self.seats = seats
        self.host_hash = host_hash
        self.store = store
        self.bots = bots
        # Per seat (None: spectators): the history of its last frame and that history's JSON.
        self._histories: dict[int | None, tuple[tuple[Any, ...], list[Any]]] = {}
        # A searching bot's kernels load while the table gathers, not at its first move.
        bots.prepare(game.name, [s.level for s in seats if s.is_bot] + [settings.bot_level])
        self.pace = pace
        self.status = "lobby"
        self.match = 1
        self.deal_no = 0  # deals stored so far (all matches)
        self.dealer = 0
        self.state: GameState[Any, Any] | None = None
        self.played: list[Played] = []  # the deal in play's moves, with their events
        self.match_first = 1  # the number at the table of this match's first deal
        self.sheet: list[dict[str, Any]] = []  # finished deals of this match
        # The sheet's rows encoded, for the list they were read from (``_sheet_encoded``).
        self._sheet_kept: tuple[list[dict[str, Any]], list[bytes]] = (self.sheet, [])
        # Each seat's total of the sheet's first rows, for the list they were read from.
        self._totals_kept: tuple[list[dict[str, Any]], int, list[float]] = (self.sheet, 0, [])
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self.deal_ended = 0.0
        self.turn_version = -1
        self.turn_started = time.monotonic()
        # The current deal's generator (its chance steps): each deal is dealt from a seed of
        # its own drawn from ``secrets``, so a published deal tells nothing of the next.
        self.deal_rng = deal_generator()
        # A write failed: the database may hold more than memory does (a commit reported lost
        # but made), so the table reads itself back before it writes again (``_recover``).
        self.suspect = False
        # Several processes: this process's lease (every write checks it), the clients of other
        # processes ((node, client) -> seat) and where their messages go.
        self.fence: Fence | None = None
        self.remote: dict[tuple[str, int], int | None] = {}
        self.outlet: Outlet | None = None
        # Signed-in people's matches and ratings (set by the hub), and what the last match
        # did to each seat's rating.
        self.book: MatchBook | None = None
        self.rating_changes: dict[int, RatingChange] = {}
        # Nobody watching (no client here or elsewhere) since when (monotonic), or None; a
        # table in play nobody watches for ``pause_after`` seconds pauses (0: never) until a
        # client opens it (issue 24, item 7: bot tables played on for ever, unwatched).
        self.unwatched_since: float | None = time.monotonic()
        self.pause_after = 0.0
        self.paused = False
        # Three Towers hints being computed in a worker, by seat, and the seats whose next
        # decision came meanwhile (``hints.py``).
        self.hint_tasks: dict[int, asyncio.Task[None]] = {}
        self.hint_again: set[int] = set()
        # Its chat (chat.py): loaded from the database by the hub for a table restored.
        self.chat = TableChat(store, table_id)

    # --- what everyone may know ---------------------------------------------------------------

    @property
    def version(self) -> int:
        moves = len(self.state.history) if self.state is not None else 0
        return self.deal_no * DEAL_VERSIONS + moves

    def balances(self) -> list[float]:
        """Each seat's total of this match (Tonk: units won or lost; Three Towers: points),
        summed row by row in the sheet's order, the rows added since the last call only (a
        deal's two ``table`` frames summed the whole sheet each: issue 23, eighth pass)."""
        sheet = self.sheet
        kept, counted, totals = self._totals_kept
        if kept is not sheet or counted > len(sheet) or len(totals) != len(self.seats):
            counted, totals = 0, [0.0] * len(self.seats)
        for deal in sheet[counted:]:
            for s, points in enumerate(deal["points"]):
                totals[s] += points
        self._totals_kept = (sheet, len(sheet), totals)
        return list(totals)

    def match_over(self) -> bool:
        """The match length (deals) or target reached."""
        length = MatchLength(self.settings.deals, self.settings.target)
        # The totals only when a target needs them (they sum the whole sheet).
        return length.reached(len(self.sheet), () if length.target is None else self.balances())

    def summary(self) -> TableSummary:
        """The table as every client and the lobby may see it (no card of any deal in play)."""
        return TableSummary(**self.summary_json())

    def summary_json(self) -> dict[str, Any]:
        """``summary().model_dump(exclude_if …)`` without the models: the ``table`` frame a
        deal's start and end send is built the same way (``table_frame``; issue 23, fifth pass:
        the models were about a fifth of a move each time). The numbers a model holds as
        floats are floats here, so that both encode alike (``tests/web/test_web_frames_fast``)."""
        return self._summary([_sheet_row_json(row) for row in self.sheet])

    def _summary(self, sheet: list[dict[str, Any]] | orjson.Fragment) -> dict[str, Any]:
        """``summary_json`` with its ``sheet`` given (``table_frame``: encoded already)."""
        settings = self.settings
        seats = []
        for s in self.seats:
            seat: dict[str, Any] = {
                "seat": s.seat,
                "name": s.display_name(),
                "kind": s.kind,
                "level": s.level,
                "claimed": s.is_bot or s.token_hash is not None,
                "connected": s.connected > 0,
                "bot_playing": self._bot_for(s) is not None,
            }
            if s.account_id is not None:
                seat["account"] = s.account_id
            seats.append(seat)
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "unit": self.game.unit,
            "rules": {"preset": self.rules.preset, **self.rules.options()},
            "settings": {
                "stake": settings.stake,
                "deals": settings.deals,
                "target": settings.target,
                "absent_seconds": float(settings.absent_seconds),
                "turn_seconds": None
                if settings.turn_seconds is None
                else float(settings.turn_seconds),
                "bot_level": settings.bot_level,
                "rated": settings.rated,
                "hints": settings.hints,
                "private": settings.private,
            },
            "status": self.status,
            "match": self.match,
            "deal": self.deal_no,
            "match_deal": 0
            if self.deal_no < self.match_first
            else self.deal_no - self.match_first + 1,
            "seats": seats,
            "balances": [float(x) for x in self.balances()],
            "sheet": sheet,
            "turn": self._turn_json(),
        }
        if self.status == "finished":
            out["standings"] = [x.model_dump() for x in standings(self)]
        if settings.lesson is not None:
            out["lesson"] = settings.lesson
        return out

    def table_frame(self) -> str:
        """``encode(TableMessage(table=self.summary()))``, the same text, without the models,
        the score sheet's rows encoded once each (``_sheet_encoded``)."""
        summary = self._summary(self._sheet_encoded())
        return orjson.dumps({"type": "table", "table": summary}).decode()

    def _sheet_encoded(self) -> orjson.Fragment:
        """The sheet's JSON, each row encoded when it is booked: every deal's start and end
        sends the whole sheet to every connection, so a long match's frames re-encoded every
        finished deal twice a deal (issue 23, eighth pass). The sheet is only appended to or
        replaced by a new list (a rematch, a table read back), which starts the cache anew."""
        sheet = self.sheet
        kept, rows = self._sheet_kept
        if kept is not sheet or len(rows) > len(sheet):
            rows = []
            self._sheet_kept = (sheet, rows)
        if len(rows) < len(sheet):
            rows.extend(orjson.dumps(_sheet_row_json(row)) for row in sheet[len(rows) :])
        return orjson.Fragment(b"[" + b",".join(rows) + b"]")

    def turn(self) -> Turn | None:
        """Whose decision it is now and when a timer or an absence hands it to a bot."""
        data = self._turn_json()
        return None if data is None else Turn(**data)

    def _turn_json(self) -> dict[str, Any] | None:
        """``turn().model_dump()``, without the model (a move's frames build it once)."""
        state = self.state
        if state is None or state.is_over or self.status != "playing":
            return None
        seat = state.current_seat
        if seat is None or seat == CHANCE:
            return None
        info = self.seats[seat]
        deadline = self._deadline(info)
        return {
            "seat": seat,
            "bot": self._bot_for(info) is not None,
            "deadline": None
            if deadline is None
            else time.time() + max(0.0, deadline - time.monotonic()),
        }

    def players(self) -> list[str]:
        return [s.display_name() for s in self.seats]

    def unwatched_for(self, now: float | None = None) -> float | None:
        """Seconds since the last client left (or the table was made or loaded), or None while
        someone watches."""
        if self.unwatched_since is None:
            return None
        return (time.monotonic() if now is None else now) - self.unwatched_since

    def _watchers_changed(self) -> None:
        if self.conns or self.remote:
            self.unwatched_since = None
        elif self.unwatched_since is None:
            self.unwatched_since = time.monotonic()

    # --- connections --------------------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        """A client joins; it gets the table and its seat's view."""
        self.conns.add(conn)
        if conn.seat is not None:
            self.seats[conn.seat].connected += 1
        conn.push(self.table_frame())
        conn.send(self.chat.history_for(conn.seat))
        if self.state is not None:
            conn.send(self.log_for(conn.seat))
            conn.send(self.update_for(conn.seat, ()))
            lesson = self.lesson_frame(conn.seat)
            if lesson is not None:
                conn.push(lesson)
        self._watchers_changed()
        self._seat_changed(conn.seat)
        if conn.seat is not None:
            send_hints(self, conn.seat)

    def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.connected -= 1
            if seat.connected == 0:
                seat.away_since = time.monotonic()
        self._watchers_changed()
        self._seat_changed(conn.seat)

    def attach_remote(self, node: str, cid: int, seat: int | None) -> None:
        """A client of another process joins: it gets the table and its seat's view there."""
        if (node, cid) in self.remote:
            return
        self.remote[(node, cid)] = seat
        if seat is not None:
            self.seats[seat].connected += 1
        if self.outlet is not None:
            frames = [
                self.table_frame(),
                encode(self.chat.history_for(seat)),
            ]
            if self.state is not None:
                frames.append(encode(self.log_for(seat)))
                frames.append(encode(self.update_for(seat)))
                lesson = self.lesson_frame(seat)
                if lesson is not None:
                    frames.append(lesson)
            self.outlet.deliver(self.id, node, cid, frames)
        self._watchers_changed()
        self._seat_changed(seat)
        if seat is not None:
            send_hints(self, seat)

    def detach_remote(self, node: str, cid: int) -> None:
        if (node, cid) not in self.remote:
            return
        seat = self.remote.pop((node, cid))
        if seat is not None:
            info = self.seats[seat]
            info.connected -= 1
            if info.connected == 0:
                info.away_since = time.monotonic()
        self._watchers_changed()
        self._seat_changed(seat)

    def drop_node(self, node: str) -> None:
        """Every client of a process that died."""
        for key in [k for k in self.remote if k[0] == node]:
            self.detach_remote(*key)

    def _seat_changed(self, seat: int | None) -> None:
        """A client of ``seat`` came or went: the summary (a seat's ``connected``) changed, and
        everyone is told; a spectator's (None) changes nothing anyone sees, only wakes the
        driver (a paused table resumes once watched). Telling all N clients of each of N
        spectators arriving would send N² frames: 1,000 spectators took minutes (issue 23)."""
        if seat is None:
            self.wake.set()
        else:
            self._changed()

    def _changed(self) -> None:
        """Something that may change who plays next: wake the driver and tell everyone."""
        self.wake.set()
        frame = self.table_frame()
        for conn in self.conns:
            conn.push(frame)
        if self.outlet is not None:
            self.outlet.table(self.id, self.summary(), frame)

    # --- actions ------------------------------------------------------------------------------

    async def start(self) -> None:
        """The host starts the match (RefusedMove unless the table waits in the lobby)."""
        async with self.lock:
            if self.status != "lobby":
                raise MoveRefused(
                    "not-waiting", f"the table is {self.status}, not waiting to start"
                )
            open_seats = [s.seat for s in self.seats if not s.is_bot and s.account_id is None]
            if self.settings.rated and open_seats:
                raise MoveRefused(
                    "rated-seats-open",
                    "a rated match starts once a signed-in person sits at every person's seat",
                )
            await self._write(self.store.set_status(self.id, "playing", fence=self.fence))
            self.status = "playing"
            await self._first_deal()
            await self._match_started()
        self.run()

    async def rematch(self) -> None:
        """A new match with the same seats, once the last one is over."""
        async with self.lock:
            if self.status != "finished":
                raise MoveRefused("match-not-over", "a rematch comes after the match is over")
            await self._write(
                self.store.set_status(self.id, "playing", self.match + 1, fence=self.fence)
            )
            self.match += 1
            self.match_first = self.deal_no + 1
            self.sheet = []
            self.rating_changes = {}
            self.status = "playing"
            await self._first_deal()
            await self._match_started()
        self.run()

    async def _first_deal(self) -> None:
        """A match's first deal; when the database refuses it, the match has begun all the same
        (its status is stored) and the driver deals it once the database is back."""
        try:
            await self._new_deal()
        except Exception as e:
            if not database_fault(e):
                raise
            log.warning("table %s: its first deal is not stored yet (%s)", self.id, brief(e))
        self._changed()

    async def expire(self) -> bool:
        """Close a table still in the lobby that nobody opened (status ``expired``: it is not
        loaded again, its page says so); False when it began meanwhile."""
        async with self.lock:
            if self.status != "lobby":
                return False
            await self._write(self.store.set_status(self.id, "expired", fence=self.fence))
            self.status = "expired"
        self._changed()
        return True

    async def claim(
        self, seat: int, name: str, token_hash: str, account_id: str | None = None
    ) -> None:
        """A person takes an open seat (a signed-in person: with their account)."""
        info = self.seats[seat]
        if not await self.store.claim_seat(self.id, seat, name, token_hash, account_id):
            raise MoveRefused("seat-taken", f"seat {seat} is not free")
        info.name, info.token_hash, info.account_id = name, token_hash, account_id
        if account_id is not None and self.book is not None:
            await self._booked(self.book.seat_taken(self, seat, account_id))
        self._changed()

    async def _match_started(self) -> None:
        if self.book is not None:
            await self._booked(self.book.match_started(self))

    async def _booked(self, work: Any) -> Any:
        """What the book writes never stops a table: a failure is logged, and the match goes
        on (its history row may be missing, never a move)."""
        try:
            return await work
        except LeaseLost:
            raise  # another process owns the table now: this one writes nothing more
        except Exception:
            log.exception("table %s: the match book failed", self.id)
            return None

    async def play(
        self, seat: int | None, text: str, version: int | None, check_only: bool = False
    ) -> None:
        """A client's move for its seat; MoveRefused says why not (nothing changes then).
        ``check_only``: a ``why`` question, answered by the refusal or by returning; the move is
        never played."""
        async with self.lock:
            await self._recover()
            state = self.state
            if seat is None:
                raise MoveRefused("spectator", "a spectator cannot play")
            if self.status != "playing" or state is None or state.is_over:
                raise MoveRefused("not-your-turn", "there is no deal in play")
            if version is not None and version != self.version:
                raise MoveRefused(
                    "stale",
                    "the table has moved on since you saw it; here is where it stands",
                    update=self.update_for(seat),
                )
            if state.current_seat != seat:
                raise MoveRefused("not-your-turn", "it is not your decision now")
            try:
                move = state.parse_move(text)
                state.check(move)
            except MoveSyntaxError as e:
                raise MoveRefused("bad-move", str(e)) from None
            except IllegalMove as e:
                reason = None if e.key is None else Reason(key=e.key, params=e.params)
                raise MoveRefused("illegal-move", str(e), e.rule, reason) from None
            if self.lesson is not None and not check_only:
                step = self.lesson.wrong(state, move)
                if step is not None:  # legal, but not the lesson's move: its hint again
                    raise MoveRefused(
                        "lesson-step",
                        f"this lesson waits for '{step.move}' now (its hint: {step.hint})",
                        step.rule,
                        Reason(key=step.hint, params=dict(step.params)),
                    )
            if not check_only:
                await self._apply(seat, move)

    async def say(
        self,
        seat: int | None,
        handle: str,
        channel: Channel | None,
        text: str | None,
        phrase: Phrase | None,
    ) -> None:
        """A chat message from a connection of ``seat`` (``handle``: a spectator's connection);
        MoveRefused with a ``chat-*`` code says why not. Stored, then sent to every connection
        that reads its channel, here and in the other processes."""
        name = None if seat is None else self.seats[seat].display_name()
        moves = len(self.state.history) if self.state is not None else 0
        try:
            line = await self.chat.say(
                seat, name, handle, channel, text, phrase, (self.match, self.deal_no, moves)
            )
        except ChatRefused as e:
            raise MoveRefused(e.code, str(e)) from None
        remote = self.chat.deliver(
            line, ((c.seat, c.push) for c in self.conns), self.remote.values()
        )
        if self.outlet is not None and remote:
            self.outlet.updates(self.id, {seat_key(s): f for s, f in remote.items()})

    # --- the driver ---------------------------------------------------------------------------

    def run(self) -> None:
        """Start the driver if it is not running."""
        if self.driver is None or self.driver.done():
            self.driver = asyncio.create_task(self._drive(), name=f"table {self.id}")

    async def stop(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.driver

    async def _drive(self) -> None:
        """Play every move no person makes, until the match is over."""
        while self.status == "playing":
            self.wake.clear()
            try:
                if self.suspect:
                    async with self.lock:
                        await self._recover()
                wait = await self._step()
            except asyncio.CancelledError:
                raise
            except LeaseLost as e:  # another process has the table now: this one lets go
                log.warning("table %s: %s; no more moves here", self.id, e)
                wait = 1.0
            except Exception as e:  # a table never stops for good: log, breathe, go on
                if database_fault(e):  # one line: a database away fails every table's writes
                    log.warning("table %s: a write failed (%s); retrying", self.id, brief(e))
                else:
                    log.exception("table %s: the driver failed; retrying", self.id)
                wait = 1.0
            if wait is None:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=wait if wait > 0 else None)

    async def _step(self) -> float | None:
        """One thing the driver does; returns how long to wait (0: until woken) or None."""
        idle = self.unwatched_for()
        if self.pause_after > 0 and idle is not None and idle >= self.pause_after:
            if not self.paused:
                self.paused = True
                log.info("table %s: nobody watches it; paused until someone does", self.id)
            return 0  # a client attaching wakes the driver
        self.paused = False
        state = self.state
        if state is None or state.is_over:
            if self.match_over():
                async with self.lock:
                    await self._write(self.store.set_status(self.id, "finished", fence=self.fence))
                    self.status = "finished"
                    match, totals = self.match, self.balances()
                self._changed()
                if self.book is not None:
                    # Its people's results and ratings, once everyone knows who won.
                    changes = await self._booked(self.book.match_finished(self, match, totals))
                    if changes and self.match == match:
                        self.rating_changes = changes
                        self._changed()
                return None
            left = self.deal_ended + self.pace.deal_pause - time.monotonic()
            if state is not None and left > 0:
                return left
            async with self.lock:
                # A move that ended the deal may have been storing while this waited for the
                # lock: it booked the deal since, and the match may be over now.
                if self.state is state and not self.match_over():
                    await self._new_deal()
            return None
        seat = state.current_seat
        assert seat is not None
        if seat == CHANCE:
            async with self.lock:
                await self._apply(CHANCE, state.sample_chance(self.deal_rng))
            return None
        info = self.seats[seat]
        self._note_turn()
        level = self._bot_for(info)
        if level is None:
            deadline = self._deadline(info)
            return 0 if deadline is None else max(0.01, deadline - time.monotonic())
        version = self.version
        if self.pace.bot_delay > 0:
            await asyncio.sleep(self.pace.bot_delay)
        by = self._stand_in(info)
        move = await self._bot_move(level, state.view(seat), state)
        async with self.lock:
            if self.version == version and self.state is state:  # nobody moved meanwhile
                await self._apply(seat, move, by, announce=True)
        return None

    async def _bot_move(self, level: str, view: Any, state: GameState[Any, Any]) -> Any:
        scripted = None if self.lesson is None else self.lesson.scripted(state)
        if scripted is not None:  # a lesson's bot (or a stand-in) plays the lesson's move
            return scripted
        try:
            return await self.bots.choose(self.game.name, level, view, secrets.randbits(64))
        except Exception:
            log.exception("table %s: the %s bot failed; a random move instead", self.id, level)
            legal = state.legal_moves()
            return legal[secrets.randbelow(len(legal))]

    def _note_turn(self) -> None:
        if self.turn_version != self.version:
            self.turn_version = self.version
            self.turn_started = time.monotonic()

    def _bot_for(self, info: Seat) -> str | None:
        """The level of the bot that plays this seat now, or None when its person does."""
        if info.is_bot:
            return info.level
        return None if self._stand_in(info) is None else self.settings.bot_level

    def _stand_in(self, info: Seat) -> StandIn | None:
        """Why a bot plays a person's seat now (away, or the turn timer ran out), or None: the
        person does, or it is a bot's seat."""
        if info.is_bot:
            return None
        now = time.monotonic()
        if info.connected == 0 and now - info.away_since >= self.settings.absent_seconds:
            return "absent"
        timer = self.settings.turn_seconds
        state = self.state
        if (
            timer is not None
            and state is not None
            and state.current_seat == info.seat
            and self.turn_version == self.version
            and now - self.turn_started >= timer
        ):
            return "timer"
        return None

    def _deadline(self, info: Seat) -> float | None:
        """When a bot takes over this seat's decision (monotonic), or None: never by itself."""
        if info.is_bot:
            return None
        times = []
        if info.connected == 0:
            times.append(info.away_since + self.settings.absent_seconds)
        if self.settings.turn_seconds is not None:
            # A turn not noted yet (a client attaching while the move before it is stored)
            # starts now: its timer is armed when the move's frames go out, a moment later.
            noted = self.turn_version == self.version
            started = self.turn_started if noted else time.monotonic()
            times.append(started + self.settings.turn_seconds)
        return min(times) if times else None

    # --- deals and moves (called under the lock) ----------------------------------------------

    async def _new_deal(self) -> None:
        """The next deal, from a fresh seed of its own. The table moves on only once the deal's
        header (and its result, when it ends at once) is stored: a refused write leaves the
        table where it was, and the driver deals again (issue 24)."""
        dealer = self.dealer if self.state is None else self.game.next_dealer(self.state)
        rng = deal_generator()
        if self.lesson is not None:  # the lesson's stacked deal, dealt by the same engine
            state = self.lesson.deal(self.players())
            dealer = state.dealer
        else:
            state = self.game.start(
                self.rules, len(self.seats), rng=rng, dealer=dealer, stake=self.settings.stake
            )
        record = dump_record(state, self.players())
        header = {k: v for k, v in record.items() if k not in ("moves", "result")}
        result = None if state.result is None else state.result.to_json()
        number = await self._write(
            self.store.start_deal(
                self.id,
                self.deal_no + 1,
                self.match,
                header,
                [(s, m) for s, m in record.get("moves", [])],
                self.fence,
                result,
                state.returns() if state.is_over else None,
            )
        )
        self.deal_no, self.state, self.dealer, self.deal_rng = number, state, dealer, rng
        events: Sequence[Event] = state.opening_events()
        self.played = [Played(None, None, tuple(events))]
        if state.is_over:  # a win on the deal (T4)
            self._book(state)
        self._broadcast(events)
        self._changed()

    async def _write(self, write: Awaitable[T]) -> T:
        """A write of the table's; one that fails (the database away, say) makes the table
        read itself back before its next write (``_recover``)."""
        try:
            return await write
        except LeaseLost:
            raise
        except Exception:
            self.suspect = True
            raise

    async def _recover(self) -> None:
        """After a failed write (called under the lock): the table as the database has it, in
        case the write was committed after all; it tells its clients if that moved it on."""
        if not self.suspect:
            return
        stored = await self.store.load(self.id)
        if stored is None:
            return
        version, status = self.version, self.status
        self._take(stored)
        self.suspect = False
        if self.version != version or self.status != status:
            log.warning("table %s: read back from the database at version %d", self.id, version)
            if self.state is not None:
                self._broadcast(())
            self._changed()

    async def _apply(
        self, seat: int, move: Any, by: StandIn | None = None, announce: bool = False
    ) -> None:
        """Play, store and send a move. ``by``: a bot moved for a person (the log says so);
        ``announce``: a bot's move that ends the deal is told first and the hands shown a
        moment later (under the lock: nothing else happens at the table meanwhile)."""
        state = self.state
        assert state is not None
        number = len(state.history)
        events = state.apply(move)
        # At once, as the state: a client attaching while the move is stored gets both.
        self.played.append(Played(seat, by, tuple(events)))
        try:
            if state.is_over:
                result = state.result
                assert result is not None
                await self._write(
                    self.store.add_move(
                        self.id,
                        self.deal_no,
                        number,
                        seat,
                        str(move),
                        result.to_json(),
                        state.returns(),
                        self.fence,
                    )
                )
            else:
                await self._write(
                    self.store.add_move(
                        self.id, self.deal_no, number, seat, str(move), fence=self.fence
                    )
                )
        except Exception:
            self.state = rewound(state, self.players(), number)  # not stored: it did not happen
            self.played.pop()
            raise
        if state.is_over:
            self._book(state)
            if announce and seat >= 0 and self.pace.announce > 0:
                self._announce(seat, events)
                await asyncio.sleep(self.pace.announce)
                self.deal_ended = time.monotonic()  # the pause between deals starts now
        self._broadcast(events, by)
        if state.is_over:
            self._changed()
        elif self._driver_has_work(state):
            self.wake.set()

    def _driver_has_work(self, state: GameState[Any, Any]) -> bool:
        """Whether the driver may act before the next move comes in: a bot's or chance's
        step, or a person's turn that a timer, an absence or a lesson may end. Not when a
        connected person without a turn timer plays next: the driver would only wake to wait
        again (issue 23, seventh pass)."""
        seat = state.current_seat
        if seat is None or seat < 0 or self.lesson is not None or self.paused:
            return True
        info = self.seats[seat]
        return info.is_bot or info.connected == 0 or self.settings.turn_seconds is not None

    def _announce(self, seat: int, events: Sequence[Event]) -> None:
        """Tell every connection of the move that ended the deal before the hands: its public
        notation and, when it showed the mover's hand (a drop, T6), its total only."""
        first = events[0] if events and events[0].kind == "move" else None
        shown = next((e for e in events if e.kind == "show" and e.seat == seat), None)
        total = (shown.data or {}).get("total") if shown is not None else None
        frame = encode(
            AnnounceMessage(
                deal=self.deal_no,
                seat=seat,
                move=first.move if first is not None and first.move else "",
                total=total if isinstance(total, int) else None,
            )
        )
        for conn in self.conns:
            conn.push(frame)
        if self.outlet is not None and self.remote:
            self.outlet.updates(self.id, {seat_key(s): frame for s in set(self.remote.values())})

    def _book(self, state: GameState[Any, Any]) -> None:
        """A finished deal on the score sheet."""
        result = state.result
        assert result is not None
        stake = self.settings.stake
        self.sheet.append(
            {
                "deal": self.deal_no,
                "dealer": state.dealer,
                "result": result.to_json(),
                "points": deal_points(state.returns(), stake),
            }
        )
        self.deal_ended = time.monotonic()

    def _broadcast(self, events: Sequence[Event], by: StandIn | None = None) -> None:
        """The new state to every connection: its seat's view and the events it may see, each
        seat's frame encoded once (every spectator shares one)."""
        self._note_turn()
        built: dict[int | None, str] = {}
        turn_json = self._turn_json()
        shared: dict[str, Any] = {}
        for conn in self.conns:
            frame = built.get(conn.seat)
            if frame is None:
                frame = built[conn.seat] = self._update_frame(
                    conn.seat, events, by, turn_json, shared
                )
            conn.push(frame)
        if self.outlet is not None and self.remote:
            for seat in set(self.remote.values()):
                if seat not in built:
                    built[seat] = self._update_frame(seat, events, by, turn_json, shared)
            self.outlet.updates(
                self.id, {seat_key(seat): built[seat] for seat in set(self.remote.values())}
            )
        if self.settings.hints:
            send_hints(self)
        self._tell_lesson()

    def lesson_frame(self, seat: int | None) -> str | None:
        """A lesson table's ``lesson`` frame for ``seat``, encoded: the person's seat only."""
        if self.lesson is None or self.state is None or seat != self.lesson.person:
            return None
        frame = self.lesson.frame(self.state, self.deal_no)
        return None if frame is None else encode(frame)

    def _tell_lesson(self) -> None:
        """After every update at a lesson's table: the person's connections get the step's
        hint (or the closing message)."""
        if self.lesson is None:
            return
        seat = self.lesson.person
        frame = self.lesson_frame(seat)
        if frame is None:
            return
        for conn in self.conns:
            if conn.seat == seat:
                conn.push(frame)
        if self.outlet is not None and seat in self.remote.values():
            self.outlet.updates(self.id, {seat_key(seat): frame})

    def _update_frame(
        self,
        seat: int | None,
        events: Sequence[Event],
        by: StandIn | None,
        turn: dict[str, Any] | None,
        shared: dict[str, Any] | None = None,
    ) -> str:
        """``encode(self.update_for(seat, events, by))``, the same text, built faster: the
        view's history JSON extended by the new moves only, no model to validate, and (a
        state with ``public_json`` and ``seat_json``, given ``shared``: one dict for every
        seat's frame of one move) the fields every seat's view has alike built once a move,
        each seat's own filled in without a view."""
        state = self.state
        assert state is not None
        which = SPECTATOR if seat is None else seat
        seat_own_json = getattr(state, "seat_own_json", None)
        view_json: dict[str, Any] | orjson.Fragment
        if shared is not None and seat_own_json is not None:
            # A state that gives each seat's own fields apart from one public part (Tonk's): no
            # view object for any seat (issue 23, fifth pass), and the public part's runs of
            # fields encoded once a move, each seat's own fields spliced between them (sixth).
            template = shared.get("template")
            if template is None:
                fills: Any = state  # TonkState: its view's fields, history_json, public_json
                history = self._history_json(None, tuple(fills.history), fills.history_json)
                public = fills.public_json(history)
                template = shared["template"] = view_template(
                    public, fills.view_fields, fills.seat_fields
                )
            view_json = fill_view(template, seat_own_json(which))
        else:
            view = state.view(which)
            view_json = view.to_json(**self._history_of(seat, view))
        return encode_update(
            self.version, self.deal_no, view_json, _events_json(events, seat, shared), turn, by
        )

    def _history_of(self, seat: int | None, view: Any) -> dict[str, Any]:
        """``{"history": …}``, the view's history JSON, from the one this seat's last frame
        had and the entries since (a deal's frames would otherwise rebuild it move by move,
        O(moves) each); ``{}`` for a view without one (its ``to_json`` builds it)."""
        history = getattr(view, "history", None)
        to_json = getattr(view, "history_json", None)
        if not isinstance(history, tuple) or to_json is None:
            return {}
        return {"history": self._history_json(seat, history, to_json)}

    def _history_json(
        self,
        seat: int | None,
        history: tuple[Any, ...],
        to_json: Callable[[Sequence[Any]], list[list[Any]]],
    ) -> list[list[Any]]:
        """``to_json(history)``, extended from the one kept for ``seat`` when it is the same
        deal's (a prefix of ``history``)."""
        kept = self._histories.get(seat)
        if kept is not None:
            old, out = kept
            n = len(old)
            # The same deal on (a history only grows within it): only the new entries.
            if len(history) >= n and history[:n] == old:
                if len(history) > n:
                    out = out + to_json(history[n:])
                    self._histories[seat] = (history, out)
                return out
        out = to_json(history)
        self._histories[seat] = (history, out)
        return out

    def update_for(
        self, seat: int | None, events: Sequence[Event] = (), by: StandIn | None = None
    ) -> UpdateMessage:
        """The ``update`` frame for a connection of ``seat`` (None: a spectator)."""
        state = self.state
        assert state is not None
        view = state.view(SPECTATOR if seat is None else seat)
        return UpdateMessage(
            version=self.version,
            deal=self.deal_no,
            view=view.to_json(),
            events=[e.to_json(seat) for e in events],
            turn=self.turn(),
            by=by,
        )

    def log_for(self, seat: int | None) -> LogMessage:
        """The ``log`` frame for a connection of ``seat``: the deal's moves as it saw them."""
        played = self.played
        if len(played) > LOG_ENTRIES + 1:  # the setting up, then the last moves
            played = [played[0], *played[-LOG_ENTRIES:]]
        return LogMessage(
            deal=self.deal_no,
            entries=[LogEntry(by=p.by, events=[e.to_json(seat) for e in p.events]) for p in played],
        )

    # --- restoring after a restart ------------------------------------------------------------

    @classmethod
    def restore(
        cls, stored: StoredTable, game: Game, store: Store, bots: BotPool, pace: Pace
    ) -> Table:
        """A table as it was stored: the current deal replayed from its moves."""
        seats = [
            Seat(s.seat, s.kind, s.name, s.level, s.token_hash, s.account_id) for s in stored.seats
        ]
        table = cls(
            stored.id,
            game,
            stored.options,
            Settings(**stored.settings),
            seats,
            stored.host_hash,
            store,
            bots,
            pace,
        )
        table._take(stored)
        return table

    def _take(self, stored: StoredTable) -> None:
        """Where the stored table stands: its status, its match's sheet and the current deal
        replayed from its moves. Deals are numbered on from the highest stored (a deal may be
        missing in between: one whose header never reached the database)."""
        self.status, self.match = stored.status, stored.match
        self.deal_no = max((deal.number for deal in stored.deals), default=0)
        of_match = [d.number for d in stored.deals if d.match == stored.match]
        self.match_first = min(of_match) if of_match else self.deal_no + 1
        stake = self.settings.stake
        self.sheet = []
        for deal in stored.deals:
            if deal.match == stored.match and deal.finished and deal.result is not None:
                self.sheet.append(
                    {
                        "deal": deal.number,
                        "dealer": deal.header["dealer"],
                        "result": deal.result,
                        "points": deal_points(deal.returns or (), stake),
                    }
                )
        if stored.deals:
            last = stored.deals[-1]
            record = {**last.header, "moves": [[s, m] for s, m in last.moves]}
            try:
                self.state, self.played = replay_played(record)
            except TavernError:
                log.exception("table %s: its last deal does not replay", stored.id)
                raise
            self.dealer = self.state.dealer
            self.deal_ended = time.monotonic()


def rewound(state: GameState[Any, Any], players: list[str], moves: int) -> GameState[Any, Any]:
    """``state`` as it was before the moves past its first ``moves`` (a move whose write
    failed), replayed from its own record: only a failed write pays for it, where a copy of
    the state before every move cost each move about 3 % of its CPU (issue 23, sixth pass)."""
    record = dump_record(state, players)
    played = record.get("moves", [])
    keep = len(played) - (len(state.history) - moves)
    header = {k: v for k, v in record.items() if k not in ("moves", "result")}
    back: GameState[Any, Any] = replay_record({**header, "moves": played[:keep]}).state
    return back


def replay_played(record: dict[str, Any]) -> tuple[GameState[Any, Any], list[Played]]:
    """A stored deal's state and its moves' events, replayed from its header (after a restart
    the log comes back; who made a move for an absent person is not stored, so not told)."""
    moves = record.get("moves", [])
    state = replay_record({**record, "moves": []}).state
    played = [Played(None, None, tuple(state.opening_events()))]
    for seat, text in moves:
        played.append(Played(seat, None, tuple(state.apply(state.parse_move(text)))))
    return state, played
