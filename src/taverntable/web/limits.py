"""Bounds on what one request may cost the server: its body's size and the time it takes.

The API's bodies are small (a table of ten seats with long names is under 2 KB); without a bound
a client could make the server read and parse a body of any size (the audit sent 10 MB strings).
``BodyLimit`` refuses a body over ``MAX_BODY`` with HTTP 413 before the route reads it: at once
when its ``Content-Length`` says so, else as soon as the bytes received pass the bound; and a
body that has not all arrived within ``BODY_SECONDS`` with 408 (a slowloris of the body: the
headers' deadline is ``connections.py``'s).
"""

from __future__ import annotations

import asyncio

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .protocol.api import HTTPError

MAX_BODY = 64 * 1024  # bytes in one request's body
BODY_SECONDS = 10.0  # for the whole body to arrive


def too_large(limit: int) -> JSONResponse:
    body = HTTPError(error=f"a request's body has at most {limit:,} bytes", code="too-large")
    return JSONResponse(body.model_dump(), status_code=413, headers={"Connection": "close"})


def too_slow(seconds: float) -> JSONResponse:
    body = HTTPError(error=f"a request's body must arrive within {seconds:g} s", code="too-slow")
    # The rest of the body may still come: the connection is not reused for another request.
    return JSONResponse(body.model_dump(), status_code=408, headers={"Connection": "close"})


class BodyLimit:
    """Refuse an HTTP request whose body is larger than ``limit`` bytes (413 ``too-large``)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await too_large(self.limit)(scope, receive, send)
            return
        # Read the whole body here (it is small, or refused) and hand it to the route as one.
        chunks: list[bytes] = []
        try:
            async with asyncio.timeout(self.seconds):
                size = 0
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # the client left
                        return
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.limit:
                        await too_large(self.limit)(scope, receive, send)
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await too_slow(self.seconds)(scope, receive, send)
            return
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return whole
            return await receive()

        await self.app(scope, replay, send)
