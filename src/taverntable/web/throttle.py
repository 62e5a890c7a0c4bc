"""Sign-in attempts throttled: at most ``LIMIT`` wrong passwords a minute for a name, and as many
from one address; the next attempt within the minute is refused (HTTP 429) before any password
is checked, right or wrong.

Where the counts are kept (``SignIns``): in the process's memory for a single ``tavern serve``
(``LocalSignIns``), and in Redis for several processes (``RedisSignIns``, ``--redis``), so that
the 11th wrong password in a minute is refused whichever process each attempt lands on. Should
Redis be away for a moment, a process counts in its own memory meanwhile (logged): sign-in goes
on, throttled per process, rather than failing or going unthrottled."""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Sequence
from typing import Protocol

import redis.asyncio as aioredis

log = logging.getLogger("taverntable.web")

LIMIT = 10
WINDOW = 60.0
# Keys remembered at most (the oldest go first): a flood of names cannot fill the memory.
MAX_KEYS = 50_000


class Throttle:
    """The counts in memory: a sliding window of failures per key."""

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

    def blocked(self, keys: Sequence[str], now: float | None = None) -> bool:
        """Whether any of ``keys`` has had its ``limit`` of failures within the window."""
        now = time.monotonic() if now is None else now
        return any(len(self._recent(k, now) or ()) >= self.limit for k in keys)

    def failed(self, keys: Sequence[str], now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        for key in keys:
            times = self._recent(key, now)
            if times is None:
                if len(self._failures) >= MAX_KEYS:
                    del self._failures[next(iter(self._failures))]
                times = self._failures[key] = deque()
            times.append(now)


class SignIns(Protocol):
    """Where a server keeps its count of wrong passwords (``routes/accounts.py`` asks)."""

    async def blocked(self, keys: Sequence[str]) -> bool:
        """Whether any of ``keys`` (``name:…``, ``address:…``) is at its limit."""
        ...

    async def failed(self, keys: Sequence[str]) -> None:
        """One more wrong password for each of ``keys``."""
        ...


class LocalSignIns:
    """One process's count, in its memory."""

    def __init__(self, limit: int = LIMIT, window: float = WINDOW) -> None:
        self.throttle = Throttle(limit, window)

    async def blocked(self, keys: Sequence[str]) -> bool:
        return self.throttle.blocked(keys)

    async def failed(self, keys: Sequence[str]) -> None:
        self.throttle.failed(keys)


PREFIX = "tt:signin:"


def redis_key(key: str) -> str:
    """The Redis key of a throttle key: a digest, so that a long or odd name makes a short,
    plain key."""
    return PREFIX + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class RedisSignIns:
    """The count shared by every process of a cluster: per key a sorted set of the failures'
    times (wall-clock seconds; the processes' clocks agree), trimmed to the window and expiring
    with it, so that Redis holds nothing for a key a minute after its last failure."""

    def __init__(
        self,
        redis: aioredis.Redis,
        limit: int = LIMIT,
        window: float = WINDOW,
        fallback: LocalSignIns | None = None,
    ) -> None:
        self.redis = redis
        self.limit = limit
        self.window = window
        self.fallback = fallback or LocalSignIns(limit, window)

    async def blocked(self, keys: Sequence[str], now: float | None = None) -> bool:
        now = time.time() if now is None else now
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                for key in keys:
                    name = redis_key(key)
                    pipe.zremrangebyscore(name, "-inf", now - self.window)
                    pipe.zcard(name)
                counts = (await pipe.execute())[1::2]
        except (ConnectionError, OSError, aioredis.RedisError) as e:
            log.warning("sign-in throttle: Redis away (%s); counting in this process", e)
            return await self.fallback.blocked(keys)
        return any(int(c) >= self.limit for c in counts) or await self.fallback.blocked(keys)

    async def failed(self, keys: Sequence[str], now: float | None = None) -> None:
        now = time.time() if now is None else now
        member = f"{now:.6f}:{secrets.token_hex(4)}"  # two failures at one instant count twice
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                for key in keys:
                    name = redis_key(key)
                    pipe.zadd(name, {member: now})
                    # A flood of concurrent attempts cannot grow a key past twice the limit.
                    pipe.zremrangebyrank(name, 0, -2 * self.limit - 1)
                    pipe.expire(name, int(self.window) + 1)
                await pipe.execute()
        except (ConnectionError, OSError, aioredis.RedisError) as e:
            log.warning("sign-in throttle: Redis away (%s); counting in this process", e)
            await self.fallback.failed(keys)
