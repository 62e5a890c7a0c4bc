"""The table's chat (issue 26, item 6): free text and quick phrases in two channels, stored with
the match, rate-limited per person, sent again to a connection that joins.

- **Channels.** A seat's players write into ``players``, which everyone at the table reads;
  spectators write into ``spectators``, which only spectators read (a spectator cannot coach a
  player, and a spectator asking to write into the players' channel is refused:
  ``chat-channel``). A replay shows the spectators' channel to a spectator, or once the match
  is over (``visible_in_replay``).
- **Text only.** A message is a quick phrase's key (each reader sees it in their language) or
  a free text of at most 200 characters, control characters removed (``frames.chat_text``); it
  is stored and sent as it is, and every page shows it as text, never as HTML.
- **Rate.** At most ``RATE_COUNT`` messages in ``RATE_SECONDS`` from one person (a seat, all
  its connections together; a spectator's connection): past that, ``chat-rate-limit``.
- **Stored** in ``chat`` (migration 0004) with its match, deal and the moves of the deal made
  by then, so that a replay shows each message at its move; the last ``HISTORY`` lines the
  connection may read come in the ``chat-history`` frame on connecting.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Column, Float, Integer, String, Table, Text, select

from .protocol.frames import (
    Channel,
    ChatHistoryMessage,
    ChatLine,
    ChatMessage,
    Phrase,
    encode,
)
from .store import Store, metadata

# The lines a joining connection gets again, and that a table keeps in memory.
HISTORY = 50
# A person's messages: at most this many in this many seconds.
RATE_COUNT = 5
RATE_SECONDS = 10.0

chat_t = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False),
    Column("match", Integer, nullable=False),
    Column("deal", Integer, nullable=False),
    Column("after", Integer, nullable=False),  # the deal's moves made by then
    Column("channel", String(16), nullable=False),  # players, spectators
    Column("seat", Integer, nullable=True),  # null: a spectator
    Column("name", String(128), nullable=True),
    Column("sender", String(32), nullable=False),  # seat-N, spectator-XXXXXX
    Column("text", Text, nullable=True),
    Column("phrase", String(32), nullable=True),
    Column("at", Float, nullable=False),
)


class ChatRefused(Exception):
    """A chat message the table refuses (``code``: one of ``frames.CHAT_CODES``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def reads(seat: int | None, channel: str) -> bool:
    """Whether a connection of ``seat`` (None: a spectator) reads ``channel`` live."""
    return channel == "players" or seat is None


def own_channel(seat: int | None) -> Channel:
    return "spectators" if seat is None else "players"


def sender_of(seat: int | None, handle: str) -> str:
    """Who wrote, for mutes and the rate: a seat, or one spectator's connection."""
    return f"spectator-{handle}" if seat is None else f"seat-{seat}"


def visible_in_replay(line: ChatLine, asker_seat: int | None, match_over: bool) -> bool:
    """A replay's chat: the players' channel always; the spectators' to a spectator, or to
    anyone once the match is over."""
    return line.channel == "players" or asker_seat is None or match_over


class Rate:
    """At most ``count`` messages in ``seconds`` per key (a sliding window)."""

    def __init__(self, count: int = RATE_COUNT, seconds: float = RATE_SECONDS) -> None:
        self.count, self.seconds = count, seconds
        self.sent: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` may send again (0: now, and it is counted)."""
        now = time.monotonic() if now is None else now
        times = self.sent.setdefault(key, deque())
        while times and now - times[0] >= self.seconds:
            times.popleft()
        if len(times) >= self.count:
            return self.seconds - (now - times[0])
        times.append(now)
        for other in [k for k, v in self.sent.items() if not v]:
            del self.sent[other]
        return 0.0


class TableChat:
    """One table's chat: its recent lines, its rate, and writing a message."""

    def __init__(self, store: Store, table_id: str) -> None:
        self.store = store
        self.table_id = table_id
        # The last lines of each channel (one channel's many lines never push out the other's).
        self.lines: dict[str, deque[ChatLine]] = {
            channel: deque(maxlen=HISTORY) for channel in ("players", "spectators")
        }
        self.rate = Rate()

    async def load(self) -> None:
        """The table's last lines from the database (after a restart or a takeover)."""
        async with self.store.engine.connect() as conn:
            for channel, lines in self.lines.items():
                rows = (
                    await conn.execute(
                        select(chat_t)
                        .where(chat_t.c.table_id == self.table_id, chat_t.c.channel == channel)
                        .order_by(chat_t.c.id.desc())
                        .limit(HISTORY)
                    )
                ).all()
                lines.clear()
                lines.extend(line_of(r) for r in reversed(rows))

    def history_for(self, seat: int | None) -> ChatHistoryMessage:
        """The ``chat-history`` frame for a connection of ``seat``."""
        mine = [x for c, lines in self.lines.items() if reads(seat, c) for x in lines]
        return ChatHistoryMessage(lines=sorted(mine, key=lambda x: x.id)[-HISTORY:])

    async def say(
        self,
        seat: int | None,
        name: str | None,
        handle: str,
        channel: Channel | None,
        text: str | None,
        phrase: Phrase | None,
        where: tuple[int, int, int],
    ) -> ChatLine:
        """Check, store and return a message (ChatRefused says why not). ``where``: the
        table's match, deal and the deal's moves now."""
        wanted = own_channel(seat) if channel is None else channel
        if wanted != own_channel(seat):
            who = "a spectator" if seat is None else "a seated player"
            raise ChatRefused("chat-channel", f"{who} cannot write into the {wanted}' channel")
        sender = sender_of(seat, handle)
        wait = self.rate.wait(sender)
        if wait > 0:
            raise ChatRefused(
                "chat-rate-limit",
                f"at most {RATE_COUNT} messages in {RATE_SECONDS:g} s; wait {wait:.0f} s",
            )
        match, deal, after = where
        row: dict[str, Any] = {
            "table_id": self.table_id,
            "match": match,
            "deal": deal,
            "after": after,
            "channel": wanted,
            "seat": seat,
            "name": None if seat is None else name,
            "sender": sender,
            "text": text,
            "phrase": phrase,
            "at": time.time(),
        }
        async with self.store.write() as conn:
            done = await conn.execute(chat_t.insert().values(**row))
            key = done.inserted_primary_key
        assert key is not None
        line = ChatLine(id=int(key[0]), **{k: v for k, v in row.items() if k != "table_id"})
        self.lines[wanted].append(line)
        return line

    def deliver(
        self,
        line: ChatLine,
        local: Iterable[tuple[int | None, Callable[[str], None]]],
        remote_seats: Iterable[int | None],
    ) -> dict[int | None, str]:
        """Send ``line`` to the local connections that read its channel (``(seat, push)``
        pairs); returns the frame for each of ``remote_seats`` that reads it."""
        frame = encode(ChatMessage(line=line))
        for seat, push in local:
            if reads(seat, line.channel):
                push(frame)
        return {seat: frame for seat in set(remote_seats) if reads(seat, line.channel)}


def line_of(row: Any) -> ChatLine:
    return ChatLine(
        id=row.id,
        channel=row.channel,
        seat=row.seat,
        name=row.name,
        sender=row.sender,
        text=row.text,
        phrase=row.phrase,
        match=row.match,
        deal=row.deal,
        after=row.after,
        at=row.at,
    )


async def deal_lines(store: Store, table_id: str, deal: int) -> list[ChatLine]:
    """Every line written during a deal (and before the next one began), oldest first."""
    async with store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(chat_t)
                .where(chat_t.c.table_id == table_id, chat_t.c.deal == deal)
                .order_by(chat_t.c.id)
                .limit(2000)
            )
        ).all()
    return [line_of(r) for r in rows]
