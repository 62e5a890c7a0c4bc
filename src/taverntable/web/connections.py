"""Bounds on TCP connections: every connection must complete a request's headers (an HTTP
request, or a WebSocket's handshake) within ``HANDSHAKE_SECONDS``, and one address holds at most
``PER_ADDRESS`` connections at once.

uvicorn closes a connection idle *after* a response (``timeout_keep_alive``), but not one that
never sends a request, nor one that sends its headers a byte at a time (slowloris): the audit held
2,000 such sockets open for over a minute, and with ``ulimit -n 1024`` they locked every real
client out. ``guarded_protocol`` is uvicorn's HTTP protocol with a deadline armed when the
connection is made and again after each response (a byte a minute would otherwise cancel
uvicorn's keep-alive timer for ever): if no new request has begun by then, the connection is
closed. A connection upgraded to a WebSocket belongs to the WebSocket protocol by then (its own
pings find a dead peer) and is left alone. A connection from an address that has ``PER_ADDRESS``
open already is closed at once.

Loopback addresses are exempt from the per-address bound by default: behind a proxy on the same
machine (``deploy/nginx.conf``) every client comes from 127.0.0.1, and the proxy bounds each
real address (``limit_conn``); ``tavern serve --connections-per-address`` sets the bound.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any, cast

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.protocol import Side, State

# A request's headers (or a WebSocket's handshake) arrive within this, or the connection closes.
HANDSHAKE_SECONDS = 10.0
# uvicorn's wait for the next request on a kept-alive connection (its default too).
KEEP_ALIVE_SECONDS = 5
# Connections of one address at once: a browser's tab uses up to six for HTTP and one
# WebSocket; a household or an office behind one address has room for several players.
PER_ADDRESS = 64
# On shutdown, open connections get this long to finish before they are cut.
GRACEFUL_SHUTDOWN_SECONDS = 10
# A WebSocket frame from a client, at most (the server's own check says more: frames.MAX_FRAME).
WS_MAX_SIZE = 64 * 1024


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def guarded_protocol(
    handshake: float = HANDSHAKE_SECONDS,
    per_address: int = PER_ADDRESS,
    exempt_loopback: bool = True,
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools', else h11's) with the handshake deadline and the
    bound per address (``per_address`` 0: none); for ``uvicorn.Config(http=...)``."""
    # One process's open transports by address (a WebSocket's too: its transport is the same
    # after the upgrade, and a closed one is pruned when its address connects again).
    by_address: dict[str, list[asyncio.BaseTransport]] = {}

    def connection_made(self: Any, transport: asyncio.Transport) -> None:
        AutoHTTPProtocol.connection_made(self, transport)
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if per_address and host and not (exempt_loopback and is_loopback(host)):
            open_ = [t for t in by_address.get(host, ()) if not t.is_closing()]
            if len(open_) >= per_address:
                transport.close()
                return
            open_.append(transport)
            by_address[host] = open_
        _arm(self, None)

    def on_response_complete(self: Any) -> None:
        AutoHTTPProtocol.on_response_complete(self)  # type: ignore[attr-defined]
        _arm(self, self.cycle)

    def _arm(self: Any, cycle: object) -> None:
        """Close the connection at the deadline unless a new request has begun by then (its
        cycle is another than ``cycle``) or it became a WebSocket."""

        def deadline() -> None:
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return
            if self.cycle is cycle:
                transport.close()

        self.loop.call_later(handshake, deadline)

    return type(
        "GuardedHTTPProtocol",
        (AutoHTTPProtocol,),
        {"connection_made": connection_made, "on_response_complete": on_response_complete},
    )


# The scope's key under which ``FramesProtocol`` puts itself (``client._write`` looks for it).
FRAMES_KEY = "tavern.frames"


class FramesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O one, what ``ws="auto"`` picks) with a
    way to send several text frames in one ``transport.write``: the frames a connection has
    queued when its writer wakes go out in one system call instead of one each, past
    Starlette's and uvicorn's per-message layers (issue 23, "CPU a move, fourth pass"). Only
    for text frames once the handshake is done; anything else keeps the ASGI ``send``."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        cast(dict[str, Any], self.scope)[FRAMES_KEY] = self

    def can_send_texts(self) -> bool:
        """Whether ``send_texts`` may be used now (else the ASGI ``send``, which knows every
        state's answer)."""
        return (
            self.handshake_complete
            and not self.close_sent
            and not self.disconnected
            and self.initial_response is None
        )

    async def send_texts(self, texts: list[str]) -> None:
        """What ``send({"type": "websocket.send", "text": t})`` does for each of ``texts``,
        in order, with one ``transport.write``: waits while the transport is paused (flow
        control, so a client that does not read fills its queue as before) and raises
        ``ClientDisconnected`` (an ``OSError``) once the client is gone."""
        if not self.writable.is_set():
            await self.writable.wait()
        if self.disconnected:
            raise ClientDisconnected()
        if self.write_now(texts):
            return
        try:
            for text in texts:
                self.conn.send_text(text.encode())
        except InvalidState:
            raise ClientDisconnected() from None
        self.transport.write(b"".join(self.conn.data_to_send()))

    def write_now(self, texts: list[str]) -> bool:
        """``texts`` as text frames in one ``transport.write``, now, if the connection can
        take them without waiting: True when written (or when the client is gone, as a
        closed socket drops what is sent to it); False when the transport is paused or the
        connection is not plainly open, and the caller must wait (``send_texts``) or use
        the ASGI ``send``. The frames' headers are built here, as websockets' ``Frame``
        would build a server's unmasked, unfragmented text frame without extensions (its
        per-frame objects were a tenth of a move's CPU, issue 23 sixth pass; held equal in
        ``tests/web/test_web_connections.py``)."""
        if not self.writable.is_set() or not self.can_send_texts():
            return False
        if self.transport.is_closing():
            return True
        conn = self.conn
        if (
            conn.state is not State.OPEN
            or conn.side is not Side.SERVER
            or conn.extensions
            or conn.expect_continuation_frame
            or conn.writes
        ):
            return False
        out = []
        for text in texts:
            data = text.encode()
            out.append(text_frame_head(len(data)))
            out.append(data)
        self.transport.write(b"".join(out))
        return True


# A final text frame's first byte (FIN, opcode 1) and its length byte (no mask): lengths
# below 126 in the second byte, else 126 and two bytes, or 127 and eight (RFC 6455, 5.2).
_TEXT_HEADS = [bytes((0x81, n)) for n in range(126)]
_TEXT_126 = bytes((0x81, 126))
_TEXT_127 = bytes((0x81, 127))


def text_frame_head(length: int) -> bytes:
    """The header of a server's text frame of ``length`` payload bytes (final, unmasked)."""
    if length < 126:
        return _TEXT_HEADS[length]
    if length < 65536:
        return _TEXT_126 + length.to_bytes(2, "big")
    return _TEXT_127 + length.to_bytes(8, "big")


def uvicorn_config(
    app: Any,
    host: str,
    port: int,
    *,
    per_address: int = PER_ADDRESS,
    handshake: float = HANDSHAKE_SECONDS,
    exempt_loopback: bool = True,
    log_level: str = "warning",
) -> uvicorn.Config:
    """How ``tavern serve`` runs the application (and the tests' servers too)."""
    # No per-message compression: views are small, and on a 2-core server the CPU it costs is
    # worth more than the bytes it saves.
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(handshake, per_address, exempt_loopback),
        ws=FramesProtocol,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        log_level=log_level,
    )
