"""The HTTP API's request bodies and answers (``docs/protocol.md``, "HTTP")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from taverntable.names import name_problem

from . import FromClient, Strict, is_null
from .summary import TableSettings, TableSummary

MAX_SEATS = 10


def _name(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    why = name_problem(value)
    if why is not None:
        raise ValueError(why)
    return value


# --- requests ---------------------------------------------------------------------------------


class SeatSpec(FromClient):
    """A seat when a table is created: a person (named now or when they join) or a bot."""

    kind: Literal["person", "bot"] = Field(description="who sits there")
    name: str | None = Field(default=None, description="a name for the seat (a person's is theirs)")
    level: str = Field(
        default="medium", description="a bot seat's level (`bots` of `GET /api/games`)"
    )

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str | None) -> str | None:
        return _name(value)


class CreateTable(TableSettings):
    """The body of `POST /api/tables`: the table's settings, then its game and seats."""

    model_config = FromClient.model_config

    game: str = Field(description="the game's registry name (`GET /api/games`)")
    options: dict[str, bool | int | str | None] = Field(
        default_factory=dict, description="rule options, over the preset's (`choices`)"
    )
    seats: list[SeatSpec] = Field(
        min_length=2, max_length=MAX_SEATS, description="the seats, in order"
    )
    host_seat: int | None = Field(
        default=None, ge=0, lt=MAX_SEATS, description="the creator's own seat (a person's), if any"
    )
    host_name: str | None = Field(default=None, description="the creator's name at that seat")

    @field_validator("host_name")
    @classmethod
    def _check_name(cls, value: str | None) -> str | None:
        return _name(value)


class CreateLesson(FromClient):
    """The body of `POST /api/lessons/NAME`: who learns (a signed-in person sits as their
    account). The lesson's deal, seats and rules are the server's: nothing here stacks a deck."""

    name: str | None = Field(default=None, description="the person's name at the table")

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str | None) -> str | None:
        return _name(value)


class JoinTable(FromClient):
    """The body of `POST /api/tables/ID/join`."""

    name: str = Field(description="the person's name at the table")
    seat: int | None = Field(
        default=None, ge=0, lt=MAX_SEATS, description="the seat to take; null: the first open one"
    )

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        checked = _name(value)
        assert checked is not None
        return checked


# --- answers ----------------------------------------------------------------------------------


class GameInfo(Strict):
    """A game the lobby offers (`GET /api/games` answers with a list of them)."""

    name: str = Field(description="the registry name a table is created with")
    title: str = Field(description="the game's name for people")
    family: str = Field(
        description="the games that share one engine, bots and board (`Game.family`): the "
        "page draws a game's table by its family"
    )
    title_key: str = Field(description="the key of the game's name in the page's languages")
    about_key: str = Field(description="the key of the lobby's line about the game")
    rules: str = Field(
        description="the game whose rules page (`/rules/NAME`) this game's rules are on: the "
        "first game of its family, whose texts it shares"
    )
    min_players: int = Field(description="the fewest seats")
    max_players: int = Field(description="the most seats")
    unit: str = Field(description="what a deal's returns count: `stakes` or `points`")
    length: str = Field(description="what one deal plays: `deal` (Tonk) or `game`")
    options: dict[str, Any] = Field(description="each rule option's value in the preset")
    choices: dict[str, list[Any] | str] = Field(
        description='each option\'s values, or `"int"` / `"int?"` for a whole number (`?`: or '
        'none), `"text"` for anything else'
    )
    bots: list[str] = Field(description="the bot levels and names a seat may have")
    lesson: str | None = Field(
        default=None,
        exclude_if=is_null,
        description="the guided first deal that teaches the game (`POST /api/lessons/NAME`)",
    )


class CreatedTable(Strict):
    """The answer to `POST /api/tables` (201); the creator's seat cookie is set too."""

    table: TableSummary = Field(description="the new table")
    host_token: str = Field(description="the host's secret, for `X-Host-Token`")
    seat: int | None = Field(description="the creator's seat (`host_seat`), if any")
    token: str | None = Field(description="that seat's token, for the WebSocket")
    invite: str = Field(description="the table's page, to send to friends: `/t/ID`")


class JoinedTable(Strict):
    """The answer to `POST /api/tables/ID/join`; the seat's cookie `tt_seat_ID` is set too."""

    seat: int = Field(description="the seat taken")
    token: str = Field(description="the seat's token, for the WebSocket")
    table: TableSummary = Field(description="the table now")


class BotFigures(Strict):
    """The hard (searching) bots of this process: their kernels' warm-up and their moves' times
    (over the latest 10,000 moves; milliseconds; null before the first)."""

    state: Literal["cold", "warming", "ready"] = Field(
        description="`warming`: the kernels are being loaded (or, after an install, compiled) "
        "as the server starts, and a hard move asked meanwhile may wait for them; `ready`: "
        "done; `cold`: not asked for (`--no-warm-bots`), the first hard move loads them"
    )
    processes: int = Field(description="worker processes deciding the hard bots' moves")
    warm_seconds: float | None = Field(description="how long the warm-up took, once ready")
    moves: int = Field(description="hard bots' moves decided")
    interim_moves: int = Field(
        description="of them, decided while `warming` by a worker whose kernels run as plain "
        "Python (a second or two a move: nothing to wait for)"
    )
    move_ms_mean: float | None = Field(
        description="from a table asking to the move back, waiting for a worker included"
    )
    move_ms_p99: float | None = Field(description="its 99th percentile")
    move_ms_first: float | None = Field(description="the first move's, since the start")
    decide_ms_mean: float | None = Field(description="the worker's own time deciding")
    decide_ms_p99: float | None = Field(description="its 99th percentile")


class LoopFigures(Strict):
    """The event loop's stalls (a task asking to wake every 50 ms: how late it woke, over its
    latest 10,000 wake-ups) and the garbage collector's passes since the start, by generation
    (0, 1, 2); milliseconds."""

    lag_ms_p50: float | None = Field(description="a wake-up's lateness, the median")
    lag_ms_p99: float | None = Field(description="its 99th percentile")
    lag_ms_max: float | None = Field(description="the longest of them")
    ticks: int = Field(description="wake-ups kept")
    stalls: list[int] = Field(
        description="wake-ups late by 20, 50 and 100 ms or more, since the start"
    )
    stalled_ms: float = Field(description="their lateness in all (those of 20 ms or more)")
    stalled_cpu_ms: float = Field(
        description="the loop's thread's CPU time during them (far below `stalled_ms`: the "
        "loop waited, for the GIL, a system call or a core, rather than worked)"
    )
    gc_passes: list[int] = Field(description="the collector's passes, by generation")
    gc_ms: list[float] = Field(description="their CPU time, by generation")
    gc_ms_longest: list[float] = Field(description="the longest pass, by generation")
    gc_frozen: int = Field(description="objects frozen out of the collector's passes")
    gc_freezes: int = Field(description="the policy's rounds: what lived on frozen")
    gc_full_passes: int = Field(
        description="the policy's full passes over the frozen heap too (once it grew by half)"
    )


class Health(Strict):
    """The answer to `GET /healthz`: the process's figures (the load test reads them)."""

    ok: bool = Field(description="always true: the server answers")
    bots: BotFigures = Field(description="the hard bots: warm-up, move times")
    tables: int = Field(description="tables this process holds")
    loop: LoopFigures | None = Field(
        default=None, exclude_if=is_null, description="the event loop's stalls"
    )
    watching: int | None = Field(
        default=None,
        exclude_if=is_null,
        description="several processes: tables of others this process's clients watch",
    )
    node: str | None = Field(
        default=None, exclude_if=is_null, description="several processes: this one's name"
    )
    writes: int = Field(description="database write transactions committed")
    renewals: int | None = Field(
        default=None, exclude_if=is_null, description="several processes: lease renewals"
    )
    published: int | None = Field(
        default=None, exclude_if=is_null, description="several processes: Redis messages sent"
    )
    stored: int | None = Field(
        default=None,
        exclude_if=is_null,
        description="several processes: table summaries stored in Redis",
    )


class BodyProblem(Strict):
    """What is wrong with a body of the wrong form (HTTP 422), one place in it."""

    loc: list[str | int] = Field(description='where: `["body", "seats", 0, "name"]`')
    msg: str = Field(description="what is wrong, in English")
    type: str = Field(description="the kind of problem, without words (Pydantic's error type)")


class HTTPError(Strict):
    """A refused request (4xx or 503)."""

    error: str = Field(description="why, in English")
    code: str = Field(description="why, for a page to say in its own language (the codes below)")
    detail: list[BodyProblem] | None = Field(
        default=None,
        exclude_if=is_null,
        description="a body of the wrong form (422, `bad-body`): every problem in it; the "
        "input itself is never echoed",
    )
