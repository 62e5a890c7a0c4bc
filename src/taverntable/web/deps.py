"""What the routes depend on, as FastAPI dependencies: the server's hub (its tables) and store
(its database), the host's token and a seat's token. A router declares what it needs
(``hub: HubDep``) instead of closing over the app's objects, so a new router (accounts, say)
is a module of its own and one line in ``routes.ROUTERS``.

Every dependency is ``async def``, even one that awaits nothing: FastAPI runs a plain ``def``
dependency in its thread pool, a hand-off to a thread and back for each request and each
WebSocket's connection (issue 23: most of a connection's cost to the server)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Response
from starlette.requests import HTTPConnection

from .accounts import Account
from .hub import BadRequest, Hub
from .reviews import Reviews
from .store import Store

# A seat's token stays in the browser this long (the cookie of the table, HttpOnly).
SEAT_COOKIE_SECONDS = 30 * 24 * 3600
# The signed-in browser's session token (HttpOnly, SameSite=Lax; accounts.py).
SESSION_COOKIE = "tt_session"
SEAT_COOKIE_PREFIX = "tt_seat_"


async def get_hub(connection: HTTPConnection) -> Hub:
    """The server's hub (``create_app`` puts it in the app's state), for HTTP and WebSocket."""
    hub: Hub = connection.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(get_hub)]


async def get_store(hub: HubDep) -> Store:
    """The server's database."""
    return hub.store


StoreDep = Annotated[Store, Depends(get_store)]


async def get_reviews(connection: HTTPConnection) -> Reviews:
    """The coach's queue of reviews (``reviews.py``), in the app's state."""
    reviews: Reviews = connection.app.state.reviews
    return reviews


ReviewsDep = Annotated[Reviews, Depends(get_reviews)]

# The host's secret (from creating the table), on the host's requests.
HostToken = Annotated[str | None, Header(alias="X-Host-Token")]


def cookie_name(table_id: str) -> str:
    return f"{SEAT_COOKIE_PREFIX}{table_id}"


def set_seat_cookie(response: Response, table_id: str, token: str) -> None:
    """The seat's token in the table's cookie, so a refresh sits the browser down again."""
    response.set_cookie(
        cookie_name(table_id),
        token,
        max_age=SEAT_COOKIE_SECONDS,
        httponly=True,
        samesite="strict",
    )


async def seat_token(
    connection: HTTPConnection, table_id: str, token: str | None = None
) -> str | None:
    """A connection's seat token: the query's ``?token=``, else the table's cookie, else none
    (a spectator)."""
    return token or connection.cookies.get(cookie_name(table_id))


SeatToken = Annotated[str | None, Depends(seat_token)]


async def socket_host_token(host: str | None = None, x_host_token: HostToken = None) -> str | None:
    """A WebSocket's host token: the query's ``?host=`` (a page cannot set a WebSocket's
    headers), else the ``X-Host-Token`` header; it only makes ``hello.you.host`` true (the
    host's actions stay HTTP requests with the header)."""
    return host or x_host_token


SocketHostToken = Annotated[str | None, Depends(socket_host_token)]


def session_token(connection: HTTPConnection) -> str | None:
    return connection.cookies.get(SESSION_COOKIE)


async def current_account(connection: HTTPConnection, hub: HubDep) -> Account | None:
    """The signed-in person of a request (None: a guest), from the session cookie, read in
    the database (every server process knows every session)."""
    return await hub.accounts.session(session_token(connection))


MaybeAccount = Annotated[Account | None, Depends(current_account)]


async def signed_in(account: MaybeAccount) -> Account:
    """The signed-in person; 401 for a guest (private data)."""
    if account is None:
        raise BadRequest(401, "sign in first", "signed-out")
    return account


SignedIn = Annotated[Account, Depends(signed_in)]


def set_session_cookie(response: Response, token: str, secure: bool) -> None:
    """The session's cookie: HttpOnly (no script reads it), SameSite=Lax (no cross-site post
    carries it), Secure when the page is served over https."""
    from .accounts import SESSION_SECONDS

    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )


def clear_session_cookie(response: Response, secure: bool) -> None:
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax", secure=secure, path="/")


def seat_cookies(connection: HTTPConnection) -> dict[str, str]:
    """Every seat token this browser's cookies hold: table id to token."""
    return {
        name[len(SEAT_COOKIE_PREFIX) :]: value
        for name, value in connection.cookies.items()
        if name.startswith(SEAT_COOKIE_PREFIX)
    }
