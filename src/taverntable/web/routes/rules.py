"""The rules pages: a game's rules and readings in one of the UI's languages."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from taverntable.games import game_names
from taverntable.games.texts import LANGUAGES

from ..hub import BadRequest
from ..protocol.api import HTTPError
from ..rulespage import rules_page

router = APIRouter(tags=["rules"])


@router.get("/rules/{game}", response_class=HTMLResponse, responses={404: {"model": HTTPError}})
async def rules(game: str, lang: str = "en") -> HTMLResponse:
    """A game's rules and readings in one of the UI's languages (anchors #T9, #R14 …)."""
    if game not in game_names():
        raise BadRequest(404, f"there is no game {game[:40]!r}", "no-game")
    return HTMLResponse(rules_page(game, lang if lang in LANGUAGES else "en"))
