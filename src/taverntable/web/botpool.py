"""Bot decisions for the server: quick bots in the event loop, searching bots in other processes.

The random and heuristic bots decide in about a millisecond, so they run where they are asked;
the hard (ISMCTS) bot thinks for up to a second of CPU, which would stall every other table
sharing the event loop, so it runs in a small pool of worker processes. A bot is built for each
decision from its name (bots keep no memory between moves that matters) and is given only the
seat's view and a seeded generator.

A worker's first searching decision loads the compiled kernels (under a second from numba's
cache; about 9 CPU seconds the first time after an install, when they compile), so the pool
starts warming a game's kernels as soon as a table of that game seats a searching bot
(``prepare``), while its people are still gathering.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, TypeVar

from taverntable.bots import make_bot
from taverntable.bots.registry import level_bot
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.worker_life import die_with_parent

log = logging.getLogger(__name__)
T = TypeVar("T")

# Bots that search: every other bot decides in the event loop.
SEARCHING = {"ismcts"}
# Decisions the warm-up plays: enough for every kernel a searching bot's decisions use.
WARM_MOVES = 4


def decide(game: str, level: str, view: Any, seed: int) -> Any:
    """The move of a ``level`` bot of ``game`` at ``view`` (run in a worker or in place)."""
    return make_bot(level, game).choose(view, random.Random(seed))


def warm(game: str, level: str = "hard") -> int:
    """Play the first ``WARM_MOVES`` decisions of a new deal of ``game`` with ``level`` bots at
    every seat (run in a worker: it loads the kernels there), and return how many were played."""
    g = get_game(game)
    state = g.start(g.rules({}), g.min_players, rng=random.Random(0))
    bots = [make_bot(level, game) for _ in range(state.num_players)]
    return play_out(state, bots, random.Random(0), max_moves=WARM_MOVES).moves


class BotPool:
    """Runs bot decisions; ``processes`` worker processes for the searching bots, and
    ``review_processes`` more for the coach's work (``reviews.py``, ``hints.py``): a review takes
    seconds of CPU, and in the decisions' own workers it would hold a hard bot's move back."""

    def __init__(self, processes: int = 1, review_processes: int = 1) -> None:
        self.processes = processes
        self.review_processes = review_processes
        self._pool: ProcessPoolExecutor | None = None
        self._coach: ProcessPoolExecutor | None = None
        self._warmed: set[str] = set()  # games whose warm-up was sent to the pool
        self.warming: dict[str, Future[int]] = {}  # each game's warm-up, sent or done

    def searches(self, game: str, level: str) -> bool:
        """Whether the bot of ``level`` in ``game`` searches (and so runs in a worker process);
        the game says which bot each level is (``Game.levels``)."""
        return (level_bot(level, game) or level.lower()) in SEARCHING

    def prepare(self, game: str, levels: Iterable[str | None]) -> Future[int] | None:
        """Start warming ``game``'s kernels in the pool when one of ``levels`` searches and
        this pool has not warmed that game yet (``warm``); returns the warm-up's future, or
        None when there is nothing to warm. Never waits: a decision asked for meanwhile
        simply runs after it in the worker, as it would have loaded the kernels itself."""
        level = next((x for x in levels if x is not None and self.searches(game, x)), None)
        if level is None or game in self._warmed:
            return None
        self._warmed.add(game)
        done = self._workers().submit(warm, game, level)
        done.add_done_callback(_report_warm_failure)
        self.warming[game] = done
        return done

    def warm_all(self, games: Iterable[str]) -> list[Future[int]]:
        """Start warming every one of ``games`` whose ``hard`` bot searches, at once: what
        ``tavern serve`` does as it starts, so that even the first table's first hard move,
        on a fresh install (kernels not compiled yet), does not wait for them (issue 23)."""
        return [done for game in games if (done := self.prepare(game, ["hard"])) is not None]

    async def choose(self, game: str, level: str, view: Any, seed: int) -> Any:
        """The bot's move, computed without blocking the event loop for long."""
        if not self.searches(game, level):
            return decide(game, level, view, seed)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._workers(), decide, game, level, view, seed)

    async def search(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a decisions' worker process: short work of the kind a searching
        bot's decision is (a Three Towers hint's playouts, ``hints.py``)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._workers(), work, *args)

    async def coach(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in one of the coach's worker processes (a review, a hint that plays
        worlds out): the event loop only waits for its answer."""
        if self._coach is None:
            self._coach = _executor(self.review_processes)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._coach, work, *args)

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = _executor(self.processes)
        return self._pool

    def close(self) -> None:
        for pool in (self._pool, self._coach):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._coach = None
        self._warmed.clear()
        self.warming.clear()


def _executor(processes: int) -> ProcessPoolExecutor:
    # spawn: a fork of a process running an event loop and threads is not safe.
    # A worker dies with the server, even one killed with SIGKILL.
    return ProcessPoolExecutor(
        processes,
        mp_context=get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


def _report_warm_failure(done: Future[int]) -> None:
    # A failed warm-up costs only time (the first decision loads the kernels itself): log it.
    if not done.cancelled() and done.exception() is not None:
        log.warning("warming the bot kernels failed: %s", done.exception())
