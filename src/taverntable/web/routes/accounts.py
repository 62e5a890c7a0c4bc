"""Accounts: signing up, in and out, the password, deleting the account; a person's matches
("My games"), a game's leaderboard and a person's profile.

Every state-changing request is a POST with a JSON body (a cross-site form cannot send one, and
the session cookie is SameSite=Lax). Signing in is throttled per name and per address
(``throttle.py``: the count shared through Redis by several processes) and says the same for
an unknown name as for a wrong password."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request, Response

from taverntable.games import game_names

from ..accounts import DELETED_NAME, Account
from ..credentials import Refusal, name_key
from ..deps import (
    HubDep,
    MaybeAccount,
    SignedIn,
    clear_session_cookie,
    seat_cookies,
    session_token,
    set_session_cookie,
)
from ..hub import BadRequest, Hub
from ..ladder import leaderboard, profile
from ..protocol.accounts import (
    AccountInfo,
    ChangePassword,
    DeleteAccount,
    Leaderboard,
    MyGames,
    Profile,
    SignIn,
    SignUp,
)
from ..protocol.api import HTTPError

router = APIRouter(tags=["accounts"])
REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": HTTPError} for status in (400, 401, 403, 404, 409, 429)
}


def _info(account: Account) -> AccountInfo:
    return AccountInfo(id=account.id, name=account.name, created=account.created)


def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


async def _signed_in(
    hub: Hub, account: Account, request: Request, response: Response, seats: dict[str, str]
) -> AccountInfo:
    """The browser is signed in as ``account``; the guest seats it holds become the
    account's."""
    token = await hub.accounts.new_session(account.id)
    set_session_cookie(response, token, _secure(request))
    await hub.link_guest_seats(account, {**seat_cookies(request), **seats})
    return _info(account)


@router.post("/api/account/signup", status_code=201, responses=REFUSALS)
async def sign_up(req: SignUp, request: Request, response: Response, hub: HubDep) -> AccountInfo:
    """A new account, signed in at once (``name-*`` / ``password-*`` codes say what is
    wrong)."""
    try:
        account = await hub.accounts.sign_up(req.name, req.password)
    except Refusal as e:
        raise BadRequest(409 if e.code == "name-taken" else 400, e.message, e.code) from None
    return await _signed_in(hub, account, request, response, req.seats)


@router.post("/api/account/signin", responses=REFUSALS)
async def sign_in(req: SignIn, request: Request, response: Response, hub: HubDep) -> AccountInfo:
    """Sign in: 401 ``bad-credentials`` for an unknown name and a wrong password alike; 429
    ``throttled`` after ten wrong passwords in a minute for the name or from the address."""
    address = request.client.host if request.client else "?"
    keys = [f"name:{name_key(req.name)}", f"address:{address}"]
    if await hub.signins.blocked(keys):
        raise BadRequest(429, "too many wrong passwords: wait a minute", "throttled")
    account = await hub.accounts.sign_in(req.name, req.password)
    if account is None:
        await hub.signins.failed(keys)
        raise BadRequest(401, "that name and password do not match", "bad-credentials")
    return await _signed_in(hub, account, request, response, req.seats)


@router.post("/api/account/signout", status_code=204)
async def sign_out(request: Request, hub: HubDep) -> Response:
    """This browser's session ends (the others of the account stay)."""
    token = session_token(request)
    if token:
        await hub.accounts.end_session(token)
    response = Response(status_code=204)
    clear_session_cookie(response, _secure(request))
    return response


@router.get("/api/account", responses=REFUSALS)
async def me(account: SignedIn) -> AccountInfo:
    """The signed-in person; 401 ``signed-out`` for a guest."""
    return _info(account)


@router.post("/api/account/password", status_code=204, responses=REFUSALS)
async def change_password(
    req: ChangePassword, request: Request, account: SignedIn, hub: HubDep
) -> Response:
    """A new password; the account's other sessions are signed out."""
    try:
        done = await hub.accounts.change_password(account, req.old, req.new, session_token(request))
    except Refusal as e:
        raise BadRequest(400, e.message, e.code) from None
    if not done:
        raise BadRequest(403, "the password now is not that", "bad-credentials")
    return Response(status_code=204)


@router.post("/api/account/delete", status_code=204, responses=REFUSALS)
async def delete_account(
    req: DeleteAccount, request: Request, account: SignedIn, hub: HubDep
) -> Response:
    """Delete the account: its matches stay in the other players' histories under "deleted
    player", and the tables' records stay replayable."""
    if not await hub.accounts.delete(account, req.password):
        raise BadRequest(403, "the password is not that", "bad-credentials")
    for table in hub.tables.values():
        for seat in table.seats:
            if seat.account_id == account.id:
                seat.account_id, seat.name = None, DELETED_NAME
    response = Response(status_code=204)
    clear_session_cookie(response, _secure(request))
    return response


@router.get("/api/account/games", responses=REFUSALS)
async def my_games(
    account: SignedIn,
    hub: HubDep,
    page: int = Query(default=1, ge=1, le=100_000),
    size: int = Query(default=20, ge=1, le=100),
) -> MyGames:
    """The person's matches, finished and running, newest first, a page at a time."""
    items, more = await hub.book.games(account.id, page, size)
    return MyGames(items=items, page=page, size=size, more=more)


@router.get("/api/ladder/{game}", responses=REFUSALS)
async def ladder(game: str, hub: HubDep, account: MaybeAccount) -> Leaderboard:
    """A game's leaderboard: the best 100, the signed-in person's own place, the bots."""
    if game not in game_names():
        raise BadRequest(404, f"there is no game {game[:40]!r}", "no-game")
    return await leaderboard(hub.store, game, None if account is None else account.id)


@router.get("/api/players/{account_id}", responses=REFUSALS)
async def player(account_id: str, hub: HubDep) -> Profile:
    """What anyone may see of a person: ratings, matches played and won, recent matches."""
    found = await profile(hub.store, hub.book, account_id[:40])
    if found is None:
        raise BadRequest(404, "there is no such player", "no-player")
    return found
