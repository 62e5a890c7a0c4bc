"""The messages of ``tavern serve``: HTTP bodies and WebSocket messages (``docs/protocol.md``).

Every message a client sends is validated here before the server acts on it; anything else is
answered with an ``error`` message (and a client that keeps sending garbage is disconnected).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from taverntable.names import name_problem

PROTOCOL_VERSION = 1
MAX_FRAME = 4096  # bytes in one client message: a move is a few dozen
MAX_MOVE = 200  # characters in a move's text
MAX_SEATS = 10


def _name(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    why = name_problem(value)
    if why is not None:
        raise ValueError(why)
    return value


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(Strict):
    """A seat when a table is created: a person (named now or when they join) or a bot."""

    kind: Literal["person", "bot"]
    name: str | None = None
    level: str = "medium"

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str | None) -> str | None:
        return _name(value)


class CreateTable(Strict):
    game: str
    options: dict[str, bool | int | str | None] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=2, max_length=MAX_SEATS)
    stake: int = Field(1, ge=1, le=1_000_000)
    deals: int | None = Field(None, ge=1, le=1000)
    target: int | None = Field(None, ge=1, le=1_000_000)
    absent_seconds: float = Field(30.0, ge=0, le=3600)
    turn_seconds: float | None = Field(None, ge=1, le=3600)
    bot_level: str = "medium"
    host_seat: int | None = Field(None, ge=0, lt=MAX_SEATS)  # the creator's own seat, if any
    host_name: str | None = None

    @field_validator("host_name")
    @classmethod
    def _check_name(cls, value: str | None) -> str | None:
        return _name(value)


class JoinTable(Strict):
    name: str
    seat: int | None = Field(None, ge=0, lt=MAX_SEATS)  # None: the first open seat

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        checked = _name(value)
        assert checked is not None
        return checked


class MoveMessage(Strict):
    type: Literal["move"]
    move: str = Field(max_length=MAX_MOVE)
    version: int | None = None  # the version the client saw; a stale move is refused


class PingMessage(Strict):
    type: Literal["ping"]


ClientMessage = Annotated[MoveMessage | PingMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[MoveMessage | PingMessage] = TypeAdapter(ClientMessage)


def hello(table: str, seat: int | None, host: bool) -> dict[str, Any]:
    """The first message on every connection."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "table": table,
        "you": {"seat": seat, "role": "player" if seat is not None else "spectator", "host": host},
    }


def error(
    code: str, message: str, rule: str | None = None, reason: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An ``error`` message: nothing changed at the table. An illegal move's ``reason`` is its
    key and parameters (the engine's ``IllegalMove``), for a client that translates it."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if rule is not None:
        out["rule"] = rule
    if reason is not None:
        out["reason"] = reason
    return out
