"""The table summary: a table as every client and the lobby may see it (no card of a deal in
play). The HTTP API answers with it and the WebSocket's ``table`` frame carries it."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from . import Strict, is_null


class TableSettings(Strict):
    """The table's choices beyond the game's rules (chosen when it is created)."""

    stake: int = Field(
        default=1, ge=1, le=1_000_000, description="what one unit is worth (Tonk's stakes, T2)"
    )
    deals: int | None = Field(
        default=None, ge=1, le=1000, description="the match ends after this many deals (games)"
    )
    target: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="or after the deal in which a balance reaches this (T12)",
    )
    absent_seconds: float = Field(
        default=30.0,
        ge=0,
        le=3600,
        description="a person nobody is connected for this long is played by a bot until back",
    )
    turn_seconds: float | None = Field(
        default=None,
        ge=1,
        le=3600,
        description="a turn timer, after which a bot moves for the seat",
    )
    bot_level: str = Field(
        default="medium",
        description="the level of the bot that plays for an absent or timed-out person",
    )
    rated: bool = Field(
        default=False,
        description="a rated match: the preset's rules as they stand, signed-in people only "
        "(each person's rating in the game changes at its end)",
    )
    hints: bool = Field(
        default=False,
        description="each person's seat gets a `hint` frame at its decisions (the coach's "
        "numbers from the seat's own view); never in a rated match (`rated-hints`)",
    )
    private: bool = Field(
        default=False,
        description="left out of the lobby; the coach reviews its deals only for the people "
        "who sat at it (`not-your-table`)",
    )


class SeatInfo(Strict):
    """One seat of the table."""

    seat: int = Field(description="its number, from 0")
    name: str = Field(description="the person's name, or a name the server gave the seat")
    kind: str = Field(description="who sits there: `person` or `bot`")
    level: str | None = Field(description="a bot seat's level")
    claimed: bool = Field(description="a bot's, or a person's seat someone has taken")
    connected: bool = Field(description="a client of this seat is connected")
    bot_playing: bool = Field(
        description="a bot plays the seat now (a bot's, or an absent person's)"
    )
    account: str | None = Field(
        default=None,
        exclude_if=is_null,
        description="a signed-in person's account id (their profile: `/players/ID`)",
    )


class SheetRow(Strict):
    """A finished deal (game) on the match's score sheet; every hand is public by then."""

    deal: int = Field(description="the deal's number at the table (from 1, across matches)")
    dealer: int = Field(description="the dealer's seat")
    result: dict[str, Any] = Field(description="the deal's result, as in its record")
    points: list[float] = Field(description="each seat's gain in the game's unit times the stake")


class Turn(Strict):
    """Whose decision it is now (null between deals and when the random steps play)."""

    seat: int = Field(description="the seat that decides")
    bot: bool = Field(description="a bot decides for the seat now")
    deadline: float | None = Field(
        description="when a bot takes the decision over (epoch seconds: the turn timer, or the "
        "seat's absence running out); null: never by itself"
    )


class Standing(Strict):
    """A seat's place at the end of a match, and what the match did to its rating."""

    seat: int = Field(description="the seat")
    place: int = Field(description="1 is first; equal totals share a place")
    total: float = Field(description="the seat's total of the match (as `balances`)")
    rating_before: int | None = Field(
        default=None, description="a rated match: the person's rating before it (a bot: its own)"
    )
    rating_after: int | None = Field(default=None, description="a rated match: the rating after it")
    provisional: bool | None = Field(
        default=None, description="the rating after it is still provisional"
    )


class TableSummary(Strict):
    """The table as every client and the lobby may see it."""

    id: str = Field(description="the table's id, as in `/t/ID`")
    game: str = Field(description="the game's registry name (`GET /api/games`)")
    title: str = Field(description="the game's name for people")
    unit: str = Field(description="what the balances count: `stakes` or `points`")
    rules: dict[str, Any] = Field(description="the rules' preset and every rule option's value")
    settings: TableSettings = Field(description="the table's settings")
    status: str = Field(
        description="`lobby` (waiting to start), `playing`, `finished`, or `expired` (closed:"
        " nobody opened it in time)"
    )
    match: int = Field(description="the match's number (a rematch adds one)")
    deal: int = Field(description="deals (games) dealt so far at the table, over every match")
    match_deal: int = Field(
        default=0,
        description="the number within this match of the deal (game) in play or just over, "
        "from 1, as the score sheet counts; 0 before the match's first",
    )
    seats: list[SeatInfo] = Field(description="every seat, in order")
    balances: list[float] = Field(
        description="each seat's total of this match in the game's unit times the stake "
        "(Tonk: units won or lost, T2/T12; Three Towers: points)"
    )
    sheet: list[SheetRow] = Field(description="the finished deals of this match")
    turn: Turn | None = Field(description="whose decision it is now")
    standings: list[Standing] | None = Field(
        default=None,
        exclude_if=is_null,
        description="once the match is over: every seat's place, best first",
    )
    lesson: str | None = Field(
        default=None,
        exclude_if=is_null,
        description="a guided first deal's table (`POST /api/lessons/GAME`): its lesson; it is "
        "never rated and not in the lobby's list",
    )
