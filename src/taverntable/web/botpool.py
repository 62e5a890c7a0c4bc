"""Bot decisions for the server: quick bots in the event loop, searching bots in other processes.

The random and heuristic bots decide in about a millisecond, so they run where they are asked;
the hard (ISMCTS) bot thinks for up to a second of CPU, which would stall every other table
sharing the event loop, so it runs in a small pool of worker processes. A bot is built for each
decision from its name (bots keep no memory between moves that matters) and is given only the
seat's view and a seeded generator.
"""

from __future__ import annotations

import asyncio
import os
import random
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from taverntable.bots import LEVELS, make_bot
from taverntable.worker_life import die_with_parent

# Bots that search: every other bot decides in the event loop.
SEARCHING = {"ismcts"}


def decide(game: str, level: str, view: Any, seed: int) -> Any:
    """The move of a ``level`` bot of ``game`` at ``view`` (run in a worker or in place)."""
    return make_bot(level, game).choose(view, random.Random(seed))


class BotPool:
    """Runs bot decisions; ``processes`` worker processes for the searching bots."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def searches(self, level: str) -> bool:
        """Whether the bot of ``level`` searches (and so runs in a worker process)."""
        return LEVELS.get(level.lower(), level.lower()) in SEARCHING

    async def choose(self, game: str, level: str, view: Any, seed: int) -> Any:
        """The bot's move, computed without blocking the event loop for long."""
        if not self.searches(level):
            return decide(game, level, view, seed)
        if self._pool is None:
            # spawn: a fork of a process running an event loop and threads is not safe.
            # A worker dies with the server, even one killed with SIGKILL.
            self._pool = ProcessPoolExecutor(self.processes, mp_context=get_context("spawn"),
                                             initializer=die_with_parent,
                                             initargs=(os.getpid(),))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, decide, game, level, view, seed)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
