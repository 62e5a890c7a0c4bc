"""Replays: a deal's record played back with the engine, each step as one pair of eyes saw it.

A step is the table after the record's first *k* moves: the view of the viewer's seat (or a
spectator's), and the events of the step's move as that seat saw them — exactly what the live
table sent that seat's connections (``tables.Table.update_for``), built by the same engine from
the same record. ``OPEN`` shows every hand: a spectator's view with each seat's hand, and every
event's cards; the routes allow it only for a deal that is over (``routes/replays.py``), when the
record itself is public. Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

from taverntable.engine import EVERYONE, SPECTATOR, Event, RecordError
from taverntable.fields import is_int
from taverntable.match import deal_points
from taverntable.records import Replayed, read_text, replay_record

from .protocol.replay import FileRecord, ReplayStep
from .protocol.summary import SheetRow

OPEN: Final = "open"
# Whose eyes: a seat, a spectator (None), or every hand open.
Eyes = int | None | Literal["open"]

# Steps one replay may have: a step is about a kilobyte before the steps' differences, and a
# whole Three Towers game of bots takes a few hundred moves (a record may hold 100,000).
MAX_STEPS = 10_000
# Bytes of an uploaded file: a match of a few hundred deals, not a lab's whole study.
MAX_UPLOAD = 1024 * 1024
# Moves of an uploaded file the engine checks for the list of its records (a few thousand a
# second on a busy server); the records past them are checked when chosen.
CHECK_MOVES = 10_000


class ReplayTooLong(Exception):
    """A record of more moves than a replay shows (``MAX_STEPS``)."""


def replay_steps(record: dict[str, Any], eyes: Eyes) -> tuple[list[ReplayStep], Replayed]:
    """The steps of ``record`` (checked by the engine first: RecordError says where and why it
    is rejected) as ``eyes`` see them, and the replayed record."""
    if too_long(record):
        raise ReplayTooLong(too_long(record))
    replayed = replay_record(record)
    moves: list[list[Any]] = replayed.record.get("moves", [])
    header = {k: v for k, v in record.items() if k not in ("moves", "result")}
    state = replay_record({**header, "moves": []}).state
    players = len(replayed.record["players"])
    steps = []
    before: dict[str, Any] = {}
    for number in range(len(moves) + 1):
        if number == 0:
            seat, move, events = None, None, list(state.opening_events())
        else:
            seat, text = moves[number - 1]
            events = list(state.apply(state.parse_move(text)))
        shown = _events(events, eyes)
        if number > 0:
            move = text if eyes == OPEN else _public_move(shown)
        view = _view(state, eyes, players)
        steps.append(
            ReplayStep(
                seat=seat,
                move=move,
                view={k: v for k, v in view.items() if k not in before or before[k] != v},
                events=shown,
            )
        )
        before = view
    return steps, replayed


def too_long(record: dict[str, Any]) -> str:
    """Why a record is too long to replay here, or nothing (checked before the engine runs)."""
    moves = record.get("moves")
    if isinstance(moves, list) and len(moves) + 1 > MAX_STEPS:
        return (
            f"the record holds {len(moves):,} moves; a replay shows at most {MAX_STEPS - 1:,} "
            "(tavern replay reads any record)"
        )
    return ""


def _view(state: Any, eyes: Eyes, players: int) -> dict[str, Any]:
    """The view ``eyes`` have of ``state``, without its history (each step's events tell it,
    and the history of every step would make a replay grow with the square of its moves)."""
    if eyes == OPEN:
        view: dict[str, Any] = state.view(SPECTATOR).to_json()
        own = [state.view(s).to_json() for s in range(players)]
        view["hands"] = [v["hand"] for v in own]
        if "store" in view:
            view["stores"] = [v["store"] for v in own]
    else:
        view = state.view(SPECTATOR if eyes is None else eyes).to_json()
    view.pop("history", None)
    return view


def _events(events: Sequence[Event], eyes: Eyes) -> list[dict[str, Any]]:
    if eyes == OPEN:
        return [e._replace(seen_by=EVERYONE).to_json(None) for e in events]
    return [e.to_json(eyes) for e in events]


def _public_move(events: list[dict[str, Any]]) -> str | None:
    """The move as its ``move`` event tells it to the viewer (hidden cards as ``?``)."""
    for e in events:
        if e["kind"] == "move" and "move" in e:
            move: str = e["move"]
            return move
    return None


def own_row(replayed: Replayed, number: int = 1) -> SheetRow | None:
    """A finished record's row of a score sheet (an uploaded record's own sheet)."""
    if replayed.result is None:
        return None
    stake = replayed.record.get("stake", 1)
    return SheetRow(
        deal=number,
        dealer=replayed.state.dealer,
        result=replayed.result,
        points=deal_points(replayed.state.returns(), stake if is_int(stake) else 1),
    )


def read_upload(data: bytes) -> list[tuple[FileRecord, dict[str, Any] | None]]:
    """Every record of an uploaded file, each with what the page lists of it and the record
    (None when it is rejected: ``FileRecord.error`` says why). The engine checks the records in
    order up to ``CHECK_MOVES`` moves in all; those past them are listed unchecked."""
    out: list[tuple[FileRecord, dict[str, Any] | None]] = []
    budget = CHECK_MOVES
    for label, item in read_text("upload", data):
        if isinstance(item, RecordError):
            listed = FileRecord(label=label, game=None, players=[], moves=0, checked=True)
            out.append((listed.model_copy(update={"error": str(item)}), None))
            continue
        game, names, moves = item.get("game"), item.get("players"), item.get("moves")
        count = len(moves) if isinstance(moves, list) else 0
        error: str | None = too_long(item) or None
        checked = error is not None or count <= budget
        if error is None and checked:
            budget -= count
            try:
                replay_record(item)
            except RecordError as e:
                error = str(e)
        listed = FileRecord(
            label=label,
            game=game if isinstance(game, str) else None,
            players=[str(n)[:64] for n in names] if isinstance(names, list) else [],
            moves=count,
            checked=checked,
            error=error,
        )
        out.append((listed, None if error else item))
    return out
