"""Who sits at a table and who is connected: seats, connections and their outgoing queues."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
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
    """One client's WebSocket: its seat (None for a spectator) and its frames on their way,
    each encoded already (a frame for every connection of a seat is encoded once).

    Frames go out one of two ways, in the order they were pushed. While the writer
    (``client._write``) waits with nothing queued it lends a ``sink``: frames pushed then are
    kept in ``pending`` and written together in one callback at the end of the loop's turn,
    with no task to wake per frame (issue 23, sixth pass). Otherwise (no sink, a paused
    transport, a closing connection) they wait in ``queue`` for the writer, which also
    closes the connection."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.cid = 0  # its number in this process (for messages between processes)
        # A spectator's name in the chat (``spectator-HANDLE``), for a reader's mute.
        self.handle = secrets.token_hex(3)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.dropped = False
        # Writes frames now and says whether it did (False: the writer's way instead).
        self.sink: Callable[[list[str]], bool] | None = None
        self.pending: list[str] = []

    def send(self, message: Outgoing) -> None:
        """Queue a frame (``protocol.frames``) for this connection alone."""
        self.push(encode(message))

    def push(self, frame: str) -> None:
        """Send an encoded frame soon; a client that does not read is dropped (it may
        reconnect)."""
        if self.dropped:
            return
        pending = self.pending
        # Once a frame is pending, the next ones follow it (the sink may be gone by the turn's
        # end: then they all go to the queue, in order).
        if self.sink is not None or pending:
            pending.append(frame)
            if len(pending) == 1:
                asyncio.get_running_loop().call_soon(self._flush)
            elif len(pending) + self.queue.qsize() > QUEUE_LIMIT:
                self.close(drop_pending=True)
            return
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.close(drop_pending=True)

    def _flush(self) -> None:
        """The frames pushed this turn: written by the sink, else (paused, say, or frames
        already waiting for the writer, which must go first) queued for the writer."""
        frames, self.pending = self.pending, []
        if not frames:
            return
        sink = self.sink
        if sink is not None and self.queue.empty() and sink(frames):
            return
        self._queue_all(frames)

    def _queue_all(self, frames: list[str]) -> None:
        """``frames`` to the writer's queue, in order (past its limit: the client is dropped)."""
        for frame in frames:
            if self.queue.full():
                self.close(drop_pending=True)
                return
            self.queue.put_nowait(frame)

    def close(self, *, drop_pending: bool = False) -> None:
        """Ask the writer to close the connection after the messages already pushed (or at
        once, dropping them, for a client that does not read)."""
        if self.dropped:
            return
        self.dropped = True
        self.sink = None
        frames, self.pending = self.pending, []
        if not drop_pending:
            self._queue_all(frames)
        if drop_pending or self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait(None)
