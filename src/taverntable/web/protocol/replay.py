"""The replay viewer's answers (``docs/protocol.md``, "Replays"): a deal (a Three Towers game)
played back step by step, each step as the viewer may see it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from . import Strict, is_null
from .frames import ChatLine
from .summary import SheetRow


class ReplayStep(Strict):
    """One step of a replay: the table after the deal's first *k* moves (step 0: as dealt)."""

    seat: int | None = Field(
        description="who made the step's move (-1: a random step); null at step 0"
    )
    move: str | None = Field(
        description="the move as the viewer may read it (a hidden card is `?`; every card "
        "with `open`); null at step 0 and for a random step the viewer may not read"
    )
    view: dict[str, Any] = Field(
        description="the fields of the viewer's view (`docs/contract.md`, without `history`) "
        "that changed since the step before: every field at step 0, so a client keeps the "
        "view by merging them in order. With `open`: a spectator's view with `hands` (every "
        "seat's hand) and, in Three Towers, `stores` (every store its seat's view shows)"
    )
    events: list[dict[str, Any]] = Field(
        description="the move's events as the viewer may see them (`docs/contract.md`); at "
        "step 0 the deal's opening events"
    )


class Replay(Strict):
    """The answer to `GET /api/replays/ID/DEAL` and part of `POST /api/replays`'s: one
    deal (game) as one seat, a spectator or (once it is over) everyone saw it."""

    game: str = Field(description="the game's registry name")
    table: str | None = Field(description="the table's id; null for an uploaded record")
    deal: int | None = Field(
        description="the deal's number at the table; null for an uploaded record"
    )
    match: int | None = Field(description="the match the deal belongs to; null for an upload")
    seen_as: Literal["seat", "spectator", "open"] = Field(
        description="whose eyes: one seat's, a spectator's, or every hand open"
    )
    seat: int | None = Field(description="the seat seen as (`seen_as` `seat`), else null")
    players: list[str] = Field(description="the seats' names, in order")
    stake: int = Field(description="what one unit is worth (Tonk's stakes)")
    finished: bool = Field(
        description="the deal is over; a deal still in play shows its moves so far, as the "
        "asking seat saw them"
    )
    result: dict[str, Any] | None = Field(
        description="the deal's result, as in its record; null while it is in play"
    )
    sheet: list[SheetRow] = Field(
        description="the score sheet: the match's finished deals up to and including this one "
        "(an upload's: its own row once over)"
    )
    steps: list[ReplayStep] = Field(description="the moves' steps: one more than the moves")
    chat: list[ChatLine] = Field(
        default_factory=list,
        description="the table's chat during the deal, oldest first (`after`: the step it was "
        "written at): the players' channel, and the spectators' to a spectator or once the "
        "match is over; empty for an upload",
    )


class FileRecord(Strict):
    """One record of an uploaded file."""

    label: str = Field(description="where it is: `upload`, or `upload:LINE` in JSON Lines")
    game: str | None = Field(description="its `game`, if it names one")
    players: list[str] = Field(description="its players' names (empty when it has none)")
    moves: int = Field(description="its moves")
    checked: bool = Field(
        description="the engine has checked it (a file's records past its first 10,000 moves "
        "are checked when chosen)"
    )
    error: str | None = Field(
        default=None,
        exclude_if=is_null,
        description="why the engine rejects it (one line: where and why)",
    )


class ReplayFile(Strict):
    """The answer to `POST /api/replays`: the file's records, and the chosen one replayed."""

    records: list[FileRecord] = Field(description="every record of the file, in order")
    chosen: int = Field(description="the index (from 0) of the record replayed")
    replay: Replay = Field(description="that record played back")
