"""One table: its summary, a person taking a seat, the host's start and rematch, and the
WebSocket its clients play over."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response, WebSocket

from ..client import serve_socket
from ..deps import HostToken, HubDep, SeatToken, SocketHostToken, set_seat_cookie
from ..protocol.api import HTTPError, JoinedTable, JoinTable
from ..protocol.summary import TableSummary

router = APIRouter(tags=["tables"])
# What the routes of one table may refuse, for the API's schema.
REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": HTTPError} for status in (403, 404, 409, 503)
}


@router.get("/api/tables/{table_id}", responses=REFUSALS)
async def table_info(table_id: str, hub: HubDep) -> TableSummary:
    return await hub.summary(table_id)


@router.post("/api/tables/{table_id}/join", responses=REFUSALS)
async def join(table_id: str, req: JoinTable, response: Response, hub: HubDep) -> JoinedTable:
    """A person takes an open seat (the first one without ``seat``); the token is in the
    table's cookie too."""
    seat, token, summary = await hub.join(table_id, req.name, req.seat)
    set_seat_cookie(response, table_id, token)
    return JoinedTable(seat=seat, token=token, table=summary)


@router.post("/api/tables/{table_id}/start", responses=REFUSALS)
async def start(table_id: str, hub: HubDep, x_host_token: HostToken = None) -> TableSummary:
    """The host starts the match, once."""
    return await hub.host(table_id, x_host_token, "start")


@router.post("/api/tables/{table_id}/rematch", responses=REFUSALS)
async def rematch(table_id: str, hub: HubDep, x_host_token: HostToken = None) -> TableSummary:
    """A new match with the same seats, once the last one is over."""
    return await hub.host(table_id, x_host_token, "rematch")


@router.websocket("/ws/{table_id}")
async def play(
    websocket: WebSocket, table_id: str, hub: HubDep, token: SeatToken, host: SocketHostToken
) -> None:
    """A client's connection to the table (``protocol.frames``); its seat is the token's, and
    it is the host's with the host's token."""
    await serve_socket(hub, websocket, table_id, token, host)
