"""The browser table's pages (``static/``: the lobby at ``/``, a table at ``/t/ID``, the replay
viewer at ``/replay/ID/DEAL`` and, for a record file, ``/replay``) and the server's health."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

from ..deps import HubDep
from ..protocol.api import Health, LoopFigures

STATIC = Path(__file__).parent.parent / "static"

router = APIRouter(tags=["pages"])


@router.get("/", response_class=HTMLResponse)
@router.get("/t/{table_id}", response_class=HTMLResponse)
@router.get("/replay", response_class=HTMLResponse)
@router.get("/replay/{table_id}/{deal}", response_class=HTMLResponse)
@router.get("/account", response_class=HTMLResponse)
@router.get("/games", response_class=HTMLResponse)
@router.get("/ladder", response_class=HTMLResponse)
@router.get("/ladder/{game}", response_class=HTMLResponse)
@router.get("/players/{account_id}", response_class=HTMLResponse)
async def page(
    table_id: str | None = None,
    deal: str | None = None,
    game: str | None = None,
    account_id: str | None = None,
) -> HTMLResponse:
    """The browser table (one page: its scripts read the address)."""
    index = STATIC / "index.html"
    if index.exists():
        return HTMLResponse(index.read_text(encoding="utf-8"))
    return HTMLResponse(
        "<!doctype html><title>Tavern Table</title><p>Tavern Table server "
        "(the browser table is not installed).</p>"
    )


@router.get("/healthz")
async def health(hub: HubDep) -> Health:
    return hub.health().model_copy(update={"loop": LoopFigures(**hub.watch.figures())})


def mount_static(app: FastAPI) -> None:
    """The page's scripts, styles and translations under ``/static`` (a router cannot mount)."""
    if (STATIC / "index.html").exists():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
