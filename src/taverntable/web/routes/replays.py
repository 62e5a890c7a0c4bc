"""The replay viewer's data: a table's deal played back step by step, and an uploaded record.

Who may see what is decided here, from the database (so that any process of several answers
alike): a deal that is over is public (its record downloads), so it may be seen from any seat or
with every hand open; a deal still in play only as the asking seat may see it (its token, from
the table's cookie or ``X-Seat-Token``), or as a spectator — never open, never another seat.
"""

from __future__ import annotations

import asyncio
import hmac
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request

from taverntable.engine import RecordError
from taverntable.match import deal_points

from ..accounts import Account
from ..chat import deal_lines, visible_in_replay
from ..deps import MaybeAccount, ReviewsDep, StoreDep, cookie_name
from ..hub import BadRequest
from ..protocol.api import HTTPError
from ..protocol.replay import Replay, ReplayFile, ReplayStep
from ..protocol.review import ReviewStatus
from ..protocol.summary import SheetRow
from ..replays import MAX_UPLOAD, OPEN, Eyes, ReplayTooLong, own_row, read_upload, replay_steps
from ..reviews import MAX_WAITING, QueueFull, ReviewBusy
from ..store import Store, StoredDeal, StoredTable, digest

router = APIRouter(tags=["replays"])
REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": HTTPError} for status in (400, 403, 404, 409, 413)
}
SeatQuery = Annotated[
    str | None,
    Query(
        max_length=12,
        description="a seat's number, `open` (every hand; a deal that is over) or `spectator`",
    ),
]
SeatHeader = Annotated[str | None, Header(alias="X-Seat-Token")]
# The steps of finished deals lately asked for, by (table, deal, eyes): a finished deal never
# changes, and a viewer switching seats or a shared link opened by many would otherwise replay
# it each time (a whole Three Towers game of bots, every hand open: about half a second).
CACHE_SIZE = 32
_finished: OrderedDict[tuple[str, int, str], list[ReplayStep]] = OrderedDict()


@router.get("/api/replays/{table_id}/{deal}", responses=REFUSALS)
async def table_replay(
    table_id: str,
    deal: int,
    request: Request,
    store: StoreDep,
    seat: SeatQuery = None,
    x_seat_token: SeatHeader = None,
) -> Replay:
    """One deal (game) of a table, step by step. Without ``seat``: as the asking seat saw it,
    else open once over, else as a spectator."""
    stored = await store.load(table_id)
    if stored is None:
        raise BadRequest(404, f"there is no table {table_id[:40]!r}", "no-table")
    found = next((d for d in stored.deals if d.number == deal), None)
    if found is None:
        raise BadRequest(404, f"the table has no deal {deal}", "no-deal")
    mine = _seat_of(stored, x_seat_token or request.cookies.get(cookie_name(table_id)))
    players = len(stored.seats)
    if seat is None:
        eyes: Eyes = mine if mine is not None else (OPEN if found.finished else None)
    else:
        eyes = parse_eyes(seat, players)
    if not found.finished:
        if eyes == OPEN:
            raise BadRequest(409, "every hand is shown only once the deal is over", "deal-in-play")
        if eyes is not None and eyes != mine:
            raise BadRequest(
                403,
                f"the deal is in play: only seat {eyes}'s player may see its hand",
                "not-your-seat",
            )
    record = {**found.header, "moves": [[s, m] for s, m in found.moves]}
    key = (table_id, deal, str(eyes))
    cached = _finished.get(key) if found.finished else None
    if cached is not None:
        steps = cached
        _finished.move_to_end(key)
    else:
        try:
            steps, _ = await asyncio.to_thread(replay_steps, record, eyes)
        except ReplayTooLong as e:
            raise BadRequest(413, str(e), "too-long") from None
        except RecordError as e:  # a stored deal the engine of this version no longer plays
            raise BadRequest(409, f"the deal does not replay: {e}", "bad-record") from None
        if found.finished:
            _finished[key] = steps
            while len(_finished) > CACHE_SIZE:
                _finished.popitem(last=False)
    stake = int(stored.settings.get("stake", 1))
    match_over = stored.status == "finished" or stored.match > found.match
    sheet = [
        SheetRow(
            deal=d.number,
            dealer=d.header["dealer"],
            result=d.result,
            points=deal_points(d.returns or (), stake),
        )
        for d in stored.deals
        if d.match == found.match and d.number <= deal and d.finished and d.result is not None
    ]
    return Replay(
        game=stored.game,
        table=table_id,
        deal=deal,
        match=found.match,
        seen_as=_seen_as(eyes),
        seat=eyes if isinstance(eyes, int) else None,
        players=list(found.header["players"]),
        stake=stake,
        finished=found.finished,
        result=found.result if found.finished else None,
        sheet=sheet,
        steps=steps,
        chat=[
            line
            for line in await deal_lines(store, table_id, deal)
            if visible_in_replay(line, mine, match_over)
        ],
    )


@router.post("/api/replays", responses=REFUSALS)
async def upload_replay(
    request: Request,
    record: Annotated[int | None, Query(ge=0, description="the record's index (from 0)")] = None,
    seat: SeatQuery = None,
) -> ReplayFile:
    """A record file (the body: `.json` or `.jsonl`, as `tavern replay` reads them, at most
    1 MiB) checked by the engine, and one of its records played back (the first the engine
    accepts, or ``record``) — every hand open unless ``seat`` says otherwise."""
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_UPLOAD:
            raise BadRequest(
                413,
                f"the file is longer than {MAX_UPLOAD:,} bytes, the limit of an upload",
                "too-large",
            )
    listed = await asyncio.to_thread(read_upload, bytes(data))
    if not listed:
        raise BadRequest(400, "the file holds no record", "no-record")
    if record is None:
        record = next((k for k, (_, r) in enumerate(listed) if r is not None), 0)
    if record >= len(listed):
        raise BadRequest(
            404, f"the file holds {len(listed)} records, not {record + 1}", "no-record"
        )
    info, chosen = listed[record]
    if chosen is None:
        raise BadRequest(400, f"{info.label}: {info.error}", "bad-record")
    eyes = OPEN if seat is None else parse_eyes(seat, len(info.players))
    try:
        steps, replayed = await asyncio.to_thread(replay_steps, chosen, eyes)
    except ReplayTooLong as e:
        raise BadRequest(413, str(e), "too-long") from None
    except RecordError as e:  # a record past the file's checked moves
        raise BadRequest(400, f"{info.label}: {e}", "bad-record") from None
    row = own_row(replayed)
    stake = replayed.record.get("stake", 1)
    replay = Replay(
        game=replayed.record["game"],
        table=None,
        deal=None,
        match=None,
        seen_as=_seen_as(eyes),
        seat=eyes if isinstance(eyes, int) else None,
        players=replayed.record["players"],
        stake=stake if isinstance(stake, int) else 1,
        finished=replayed.result is not None,
        result=replayed.result,
        sheet=[] if row is None else [row],
        steps=steps,
    )
    return ReplayFile(records=[i for i, _ in listed], chosen=record, replay=replay)


REVIEW_REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": HTTPError} for status in (400, 403, 404, 409, 503)
}
ReviewSeat = Annotated[
    int | None,
    Query(ge=0, lt=100, description="the seat to review (default: the asker's own seat)"),
]


@router.post("/api/replays/{table_id}/{deal}/review", responses=REVIEW_REFUSALS)
async def ask_review(
    table_id: str,
    deal: int,
    request: Request,
    store: StoreDep,
    reviews: ReviewsDep,
    account: MaybeAccount,
    seat: ReviewSeat = None,
    x_seat_token: SeatHeader = None,
) -> ReviewStatus:
    """The coach's review of one seat of a finished deal (docs/coach.md): at once when it was
    made before, else queued for the bot pool's coach workers (`queued` with how many are
    ahead, or `running`); ask `GET` for it until it is `done`. One review queued or running per
    person (`review-busy`); a deal in play (`deal-in-play`) and, at a private table, a deal of
    a table the asker did not sit at (`not-your-table`) are refused."""
    token = x_seat_token or request.cookies.get(cookie_name(table_id))
    found, reviewed, person = await _reviewable(store, table_id, deal, seat, token, account)
    if person is None:
        address = request.client.host if request.client is not None else "unknown"
        person = f"address:{address}"
    record = {**found.header, "moves": [[s, m] for s, m in found.moves]}
    try:
        return reviews.ask((table_id, deal, reviewed), person, record)
    except ReviewBusy as e:
        other = e.args[0]
        raise BadRequest(
            409,
            f"your review of deal {other[1]} (seat {other[2]}) is still under way: one at a time",
            "review-busy",
        ) from None
    except QueueFull:
        raise BadRequest(
            503,
            f"{MAX_WAITING} reviews are waiting already: try again in a minute",
            "review-queue-full",
            {"Retry-After": "60"},
        ) from None


@router.get("/api/replays/{table_id}/{deal}/review", responses=REVIEW_REFUSALS)
async def review_status(
    table_id: str,
    deal: int,
    request: Request,
    store: StoreDep,
    reviews: ReviewsDep,
    account: MaybeAccount,
    seat: ReviewSeat = None,
    x_seat_token: SeatHeader = None,
) -> ReviewStatus:
    """Where the review of a seat of a deal stands (`none`: nobody asked for it); the same
    refusals as `POST`, the queue left as it is."""
    token = x_seat_token or request.cookies.get(cookie_name(table_id))
    _, reviewed, _ = await _reviewable(store, table_id, deal, seat, token, account)
    return reviews.status((table_id, deal, reviewed))


async def _reviewable(
    store: Store,
    table_id: str,
    deal: int,
    seat: int | None,
    token: str | None,
    account: Account | None,
) -> tuple[StoredDeal, int, str | None]:
    """The deal to review, the seat reviewed and who asks (their account, else their seat at
    the table, else None), or the refusal (BadRequest)."""
    stored = await store.load(table_id)
    if stored is None:
        raise BadRequest(404, f"there is no table {table_id[:40]!r}", "no-table")
    found = next((d for d in stored.deals if d.number == deal), None)
    if found is None:
        raise BadRequest(404, f"the table has no deal {deal}", "no-deal")
    if not found.finished:
        raise BadRequest(409, "the coach reviews a deal once it is over", "deal-in-play")
    mine = _seat_of(stored, token)
    if mine is None and account is not None:
        mine = next((s.seat for s in stored.seats if s.account_id == account.id), None)
    if stored.settings.get("private") and mine is None:
        raise BadRequest(
            403,
            "the table is private: its deals are reviewed for the people who sat at it",
            "not-your-table",
        )
    reviewed = mine if seat is None else seat
    if reviewed is None or reviewed >= len(stored.seats):
        raise BadRequest(
            400,
            f"seat must be a seat's number (0 to {len(stored.seats) - 1})",
            "bad-seat",
        )
    person = f"account:{account.id}" if account is not None else None
    if person is None and mine is not None:
        person = f"seat:{table_id}:{mine}"
    return found, reviewed, person


def parse_eyes(seat: str, players: int) -> Eyes:
    """``seat``'s value as eyes; BadRequest(400) for anything but a seat, open or spectator."""
    if seat == OPEN:
        return OPEN
    if seat == "spectator":
        return None
    if seat.isascii() and seat.isdigit() and int(seat) < players:
        return int(seat)
    raise BadRequest(
        400,
        f"seat must be a seat's number (0 to {players - 1}), open or spectator, not {seat!r}",
        "bad-seat",
    )


def _seat_of(stored: StoredTable, token: str | None) -> int | None:
    """The seat a token sits at (None for none, or a token of no seat: it sees what a
    spectator sees)."""
    if not token:
        return None
    h = digest(token)
    for s in stored.seats:
        if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
            return s.seat
    return None


def _seen_as(eyes: Eyes) -> Any:
    return "open" if eyes == OPEN else "spectator" if eyes is None else "seat"
