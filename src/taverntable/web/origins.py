"""Which pages may act on this server: the Origin check of every WebSocket and of every request
that changes something (POST, PUT, PATCH, DELETE).

A seat's cookie is ``SameSite=Strict``, but same-site is not same-origin: a page on another port
of the same host, or on a sibling subdomain, is same-site, and its WebSocket carries the cookie.
So a browser's request is served only when its ``Origin`` is the server's own (the scheme of the
connection and its ``Host`` header) or one of the allowed origins (``tavern serve
--allow-origin URL``, or ``TAVERN_ALLOW_ORIGINS``: the public address when a proxy in front
rewrites the Host header or ends TLS). A request without ``Origin`` is not a browser's page (curl,
a test, a bot's client), and cannot carry a victim's cookie: it passes, unless its
``Sec-Fetch-Site`` says it comes from another site.

``OriginGuard`` is an ASGI middleware around the whole application, so that every router (the
accounts' to come) is covered without a line of its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .protocol.api import HTTPError
from .protocol.frames import ErrorMessage, encode

ALLOW_ORIGINS_ENV = "TAVERN_ALLOW_ORIGINS"
# The methods a page may change something with; GET and HEAD only read.
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "https": 443}
# The close code of a WebSocket from a foreign page: a policy violation.
POLICY_VIOLATION = 1008
CODE = "foreign-origin"


def normal_origin(url: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port, or None when ``url`` is
    not an http(s) origin (``null``, ``file://``, a bare name)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    host = parts.hostname.lower()
    if ":" in host:  # an IPv6 address keeps its brackets
        host = f"[{host}]"
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def allowed_from_env() -> list[str]:
    """The origins of ``TAVERN_ALLOW_ORIGINS`` (separated by commas or spaces)."""
    return os.environ.get(ALLOW_ORIGINS_ENV, "").replace(",", " ").split()


class BadOrigin(ValueError):
    """An allowed origin that is no origin."""


class OriginPolicy:
    """The server's own origin (from each request) and the allowed ones."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        origins = set()
        for url in allowed:
            origin = normal_origin(url)
            if origin is None:
                raise BadOrigin(
                    f"{url!r} is not an origin such as https://cards.example:8443 "
                    f"(--allow-origin, {ALLOW_ORIGINS_ENV})"
                )
            origins.add(origin)
        self.allowed = frozenset(origins)

    def refusal(self, scope: Scope) -> str | None:
        """Why the request of ``scope`` is refused, or None when it may go on."""
        headers = _headers(scope)
        if headers.get("sec-fetch-site") == "cross-site":
            return "a page of another site may not do this (Sec-Fetch-Site: cross-site)"
        origin = headers.get("origin")
        if origin is None:
            return None
        normal = normal_origin(origin)
        if normal is not None and (normal in self.allowed or normal == own_origin(scope)):
            return None
        return (
            f"a page of {origin[:100]!r} may not do this: only this server's own pages "
            "(or an origin given with --allow-origin)"
        )


def own_origin(scope: Scope) -> str | None:
    """The origin the client reached: the connection's scheme and its Host header."""
    host = _headers(scope).get("host")
    if not host:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme"))
    return normal_origin(f"{scheme}://{host}")


def _headers(scope: Scope) -> dict[str, str]:
    # Latin-1 never fails on bytes; a header that is not ASCII matches no origin anyway.
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}


class OriginGuard:
    """Refuse a foreign page's WebSocket (an ``error`` frame, then close code 1008) and its
    changing requests (HTTP 403, code ``foreign-origin``)."""

    def __init__(self, app: ASGIApp, policy: OriginPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        checked = kind == "websocket" or (kind == "http" and scope["method"] in UNSAFE_METHODS)
        why = self.policy.refusal(scope) if checked else None
        if why is None:
            await self.app(scope, receive, send)
        elif kind == "http":
            body = HTTPError(error=why, code=CODE).model_dump()
            await JSONResponse(body, status_code=403)(scope, receive, send)
        else:
            # Accepted, told why, and closed: the client reads the reason, where a refused
            # handshake would only say 403.
            message = await receive()
            if message["type"] != "websocket.connect":
                return
            await send({"type": "websocket.accept"})
            frame = encode(ErrorMessage(code=CODE, message=why))
            await send({"type": "websocket.send", "text": frame})
            await send({"type": "websocket.close", "code": POLICY_VIOLATION})
