"""The rules pages (a game's rules and readings) and the how-to-play pages (a player's page
per game), in one of the UI's languages."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from taverntable.games import game_names
from taverntable.games.texts import LANGUAGES

from ..howto import has_how_to_play, how_to_play_page
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


@router.get(
    "/how-to-play/{game}", response_class=HTMLResponse, responses={404: {"model": HTTPError}}
)
async def how_to_play(game: str, lang: str = "en") -> HTMLResponse:
    """A game's player's page: the goal, a turn, scoring and a worked example, with its cards."""
    if game not in game_names() or not has_how_to_play(game):
        raise BadRequest(404, f"there is no how-to-play page for {game[:40]!r}", "no-game")
    return HTMLResponse(how_to_play_page(game, lang if lang in LANGUAGES else "en"))
