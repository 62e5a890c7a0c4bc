"""Limits on anonymous use of the server (issue 24, item 7): how many tables one client may
create in a while, how long a table nobody opens stays, and how long a table in play goes on
with nobody watching it.

Creation is counted per *key*: ``address:HOST`` now; an account (once there are accounts) adds
its own key, ``account:ID``, with a limit of its own (``Throttle.allow`` checks every key of a
request before it counts any), so that a person is held to the tighter of the two.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Server-wide limits; ``0`` turns one off (``tavern serve`` options)."""

    tables_per_window: int = 20  # tables one client address may create per window …
    window_seconds: float = 600.0  # … of this many seconds
    lobby_seconds: float = 1800.0  # a table in the lobby nobody has open this long is closed
    unwatched_seconds: float = 60.0  # a table in play nobody watches this long pauses
    finished_seconds: float = 600.0  # a finished table nobody has open leaves memory (not the DB)
    sweep_seconds: float = 30.0  # how often the server looks for such tables


NO_LIMITS = Limits(0, 600.0, 0.0, 0.0, 0.0, 30.0)


class Throttle:
    """A sliding window of events per key: at most ``limit`` in any ``window`` seconds."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._events: dict[str, deque[float]] = {}

    def allow(self, keys: Sequence[str], now: float | None = None) -> float | None:
        """Count one event for every key and return None, or (when a key is at its limit)
        count nothing and return the seconds until that key may again."""
        if self.limit <= 0:
            return None
        now = time.monotonic() if now is None else now
        wait = 0.0
        for key in keys:
            events = self._recent(key, now)
            if len(events) >= self.limit:
                wait = max(wait, events[0] + self.window - now)
        if wait > 0:
            return wait
        for key in keys:
            self._events.setdefault(key, deque()).append(now)
        return None

    def _recent(self, key: str, now: float) -> deque[float]:
        events = self._events.get(key)
        if events is None:
            return deque()
        while events and events[0] <= now - self.window:
            events.popleft()
        if not events:  # a key that made nothing lately is forgotten (memory stays bounded)
            del self._events[key]
        return events

    def forget_old(self, now: float | None = None) -> None:
        """Drop the keys with no event within the window (the sweeper calls this)."""
        now = time.monotonic() if now is None else now
        for key in list(self._events):
            self._recent(key, now)
