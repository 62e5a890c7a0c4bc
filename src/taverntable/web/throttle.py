"""Sign-in attempts throttled: at most ``LIMIT`` wrong passwords a minute for a name, and as many
from one address; the next attempt within the minute is refused (HTTP 429) before any password
is checked, right or wrong. Kept in each process's memory (a sign-in lands on one process; a
cluster of N processes lets at most N times as many through, still a handful a minute)."""

from __future__ import annotations

import time
from collections import deque

LIMIT = 10
WINDOW = 60.0
# Keys remembered at most (the oldest go first): a flood of names cannot fill the memory.
MAX_KEYS = 50_000


class Throttle:
    def __init__(self, limit: int = LIMIT, window: float = WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float] | None:
        times = self._failures.get(key)
        if times is None:
            return None
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failures[key]
            return None
        return times

    def blocked(self, keys: list[str], now: float | None = None) -> bool:
        """Whether any of ``keys`` has had its ``limit`` of failures within the window."""
        now = time.monotonic() if now is None else now
        return any(len(self._recent(k, now) or ()) >= self.limit for k in keys)

    def failed(self, keys: list[str], now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        for key in keys:
            times = self._recent(key, now)
            if times is None:
                if len(self._failures) >= MAX_KEYS:
                    del self._failures[next(iter(self._failures))]
                times = self._failures[key] = deque()
            times.append(now)
