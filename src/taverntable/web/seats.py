"""Who sits at a table and who is connected: seats, connections and their outgoing queues."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field

from .protocol.frames import Outgoing, encode

# Messages waiting for one client; a client this far behind is dropped (it reconnects and gets
# the whole view again) rather than letting the server's memory grow without bound.
QUEUE_LIMIT = 512


@dataclass
class Seat:
    """One seat: a person (who may be away) or a bot of a level."""

    seat: int
    kind: str  # "person" or "bot"
    name: str | None
    level: str | None  # a bot seat's level
    token_hash: str | None  # a person seat's secret, once claimed
    account_id: str | None = None  # the signed-in person who sits there (None: a guest)
    connected: int = 0
    # When the seat was last left without anyone connected (monotonic seconds); a person seat
    # nobody has claimed yet counts as away since the table was loaded.
    away_since: float = field(default_factory=time.monotonic)

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def display_name(self) -> str:
        """The name at the table and in records."""
        if self.name:
            return self.name
        if self.is_bot:
            return f"Bot {self.seat + 1} ({self.level})"
        return f"Seat {self.seat + 1}"


class Connection:
    """One client's WebSocket: its seat (None for a spectator) and its queue of frames, each
    encoded already (a frame for every connection of a seat is encoded once)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.cid = 0  # its number in this process (for messages between processes)
        # A spectator's name in the chat (``spectator-HANDLE``), for a reader's mute.
        self.handle = secrets.token_hex(3)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.dropped = False

    def send(self, message: Outgoing) -> None:
        """Queue a frame (``protocol.frames``) for this connection alone."""
        self.push(encode(message))

    def push(self, frame: str) -> None:
        """Queue an encoded frame; a client that does not read is dropped (it may reconnect)."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.close(drop_pending=True)

    def close(self, *, drop_pending: bool = False) -> None:
        """Ask the writer to close the connection after the messages already queued (or at
        once, dropping them, for a client that does not read)."""
        if self.dropped:
            return
        self.dropped = True
        if drop_pending or self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait(None)
