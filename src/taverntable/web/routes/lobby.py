"""The lobby: the games on offer, the tables to join or watch, and a new table."""

from __future__ import annotations

from fastapi import APIRouter, Response

from ..deps import HubDep, MaybeAccount, set_seat_cookie
from ..hub import game_offers
from ..protocol.api import CreatedTable, CreateTable, GameInfo, HTTPError
from ..protocol.summary import TableSummary

router = APIRouter(prefix="/api", tags=["lobby"])


@router.get("/games")
async def games() -> list[GameInfo]:
    """Every game with its players, rule options (and the preset's values) and bots."""
    return game_offers()


@router.get("/tables")
async def lobby(hub: HubDep) -> list[TableSummary]:
    """Tables to join or watch, finished ones left out."""
    return await hub.lobby()


@router.post(
    "/tables", status_code=201, responses={400: {"model": HTTPError}, 403: {"model": HTTPError}}
)
async def create(
    req: CreateTable, response: Response, hub: HubDep, account: MaybeAccount
) -> CreatedTable:
    """A new table in the lobby; the creator's seat (``host_seat``), if any, is in the cookie
    (a signed-in creator sits there as their account; a rated table needs one)."""
    made = await hub.create(req, account)
    table = made.table
    if made.token is not None:
        set_seat_cookie(response, table.id, made.token)
    return CreatedTable(
        table=table.summary(),
        host_token=made.host_token,
        seat=made.seat,
        token=made.token,
        invite=f"/t/{table.id}",
    )
