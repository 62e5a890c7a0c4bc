"""Bounds on what one request may cost the server: its body's size.

The API's bodies are small (a table of ten seats with long names is under 2 KB); without a bound
a client could make the server read and parse a body of any size (the audit sent 10 MB strings).
``BodyLimit`` refuses a body over ``MAX_BODY`` with HTTP 413 before the route reads it: at once
when its ``Content-Length`` says so, else as soon as the bytes received pass the bound.
"""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .protocol.api import HTTPError

MAX_BODY = 64 * 1024  # bytes in one request's body


def too_large(limit: int) -> JSONResponse:
    body = HTTPError(error=f"a request's body has at most {limit:,} bytes", code="too-large")
    return JSONResponse(body.model_dump(), status_code=413)


class BodyLimit:
    """Refuse an HTTP request whose body is larger than ``limit`` bytes (413 ``too-large``)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

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
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return whole
            return await receive()

        await self.app(scope, replay, send)
