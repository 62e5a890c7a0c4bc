"""The guided first deals (``tutorial.py``): a lesson's table made and started at once, and the
page that asks for one (``/learn/NAME``, which the lobby and the how-to-play pages link)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from ..deps import HubDep, MaybeAccount, set_seat_cookie
from ..hub import BadRequest
from ..protocol.api import CreatedTable, CreateLesson, CreateTable, HTTPError, SeatSpec
from ..tutorial import BOT, LESSONS, PERSON
from .pages import page

router = APIRouter(tags=["lessons"])


@router.post(
    "/api/lessons/{name}",
    status_code=201,
    responses={400: {"model": HTTPError}, 404: {"model": HTTPError}, 429: {"model": HTTPError}},
)
async def create_lesson(
    name: str,
    req: CreateLesson,
    request: Request,
    response: Response,
    hub: HubDep,
    account: MaybeAccount,
) -> CreatedTable:
    """A guided first deal of the lesson ``name`` (`lesson` of `GET /api/games`): a table of
    the person and a bot, its deal stacked by the server, started at once; the person's seat
    is in the cookie. It counts towards the address's new tables like any table."""
    lesson = LESSONS.get(name)
    if lesson is None:
        raise BadRequest(404, f"there is no lesson {name[:40]!r}", "no-lesson")
    seats = [
        SeatSpec(kind="person"),
        SeatSpec(kind="bot", name=lesson.bot_name, level=lesson.bot_level),
    ]
    assert (PERSON, BOT) == (0, 1)  # the seats' order above
    spec = CreateTable(
        game=lesson.game,
        options=dict(lesson.options),
        seats=seats,
        host_seat=PERSON,
        host_name=req.name,
        deals=1,
        absent_seconds=600.0,
        bot_level=lesson.bot_level,
    )
    address = request.client.host if request.client is not None else "unknown"
    made = await hub.create(spec, [f"address:{address}"], account, lesson=lesson.name)
    table = made.table
    summary = await hub.host(table.id, made.host_token, "start")
    assert made.token is not None
    set_seat_cookie(response, table.id, made.token)
    return CreatedTable(
        table=summary,
        host_token=made.host_token,
        seat=made.seat,
        token=made.token,
        invite=f"/t/{table.id}",
    )


@router.get("/learn/{name}", response_class=HTMLResponse)
async def learn(name: str) -> HTMLResponse:
    """The page that makes a lesson's table and opens it (the browser table's scripts)."""
    return await page()
