"""Bot decisions for the server: quick bots in the event loop, searching bots in other processes.

The random and heuristic bots decide in about a millisecond, so they run where they are asked;
the hard (ISMCTS) bot thinks for up to a second of CPU, which would stall every other table
sharing the event loop, so it runs in a small pool of worker processes. A bot is built for each
decision from its name (bots keep no memory between moves that matters) and is given only the
seat's view and a seeded generator.

A worker's first searching decision loads the compiled kernels (under a second from numba's
cache; the first time after an install, when they compile, about 30 CPU seconds for Tonk's
family and 60 more for Three Towers'), so the pool starts warming a game's kernels as soon as a
table of that game seats a searching bot (``prepare``), while its people are still gathering,
and ``tavern serve`` warms every game's as it starts (``warm_all``: one game after another, so
that a decision asked meanwhile waits at most for the game being warmed, not for all of them).
``figures`` says whether the warm-up is done (``/healthz``'s ``bots``) and how long the
searching bots' moves took.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, TypeVar

from taverntable.bots import make_bot
from taverntable.bots.registry import level_bot
from taverntable.engine import play_out
from taverntable.fast.jit import COMPILED
from taverntable.games import get_game
from taverntable.worker_life import die_with_parent, pure_python_worker

log = logging.getLogger(__name__)
T = TypeVar("T")

# Bots that search: every other bot decides in the event loop.
SEARCHING = {"ismcts"}
# Decisions the warm-up plays: enough for every kernel a searching bot's decisions use.
WARM_MOVES = 4


def decide(game: str, level: str, view: Any, seed: int) -> Any:
    """The move of a ``level`` bot of ``game`` at ``view`` (run in a worker or in place)."""
    return make_bot(level, game).choose(view, random.Random(seed))


def timed_decide(game: str, level: str, view: Any, seed: int) -> tuple[Any, float]:
    """``decide``, and the seconds it took in the worker."""
    began = time.perf_counter()
    move = decide(game, level, view, seed)
    return move, time.perf_counter() - began


# Searching decisions whose times ``figures`` keeps (the latest).
KEPT_TIMES = 10_000


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
        self._warm_began: float | None = None
        self._warm_seconds: float | None = None
        # While the warm-up runs, a worker whose kernels are plain Python decides the hard moves:
        # a second or two a move, instead of waiting a minute or more for a fresh install's
        # compilation (issue 23); shut down once the pool is ready.
        self._interim: ProcessPoolExecutor | None = None
        self._spread: list[Future[int]] = []  # every worker's warm-up, after the first
        self._spread_wanted = False
        self._generation = 0  # close() ends the warm-ups under way: their chain stops
        self._lock = threading.RLock()
        # Searching decisions: from the table asking to the move coming back (waiting for a
        # worker included), and the worker's own time deciding.
        self.moves = 0
        self.interim_moves = 0  # of them, decided in plain Python during the warm-up
        self._waited: deque[float] = deque(maxlen=KEPT_TIMES)
        self._decided: deque[float] = deque(maxlen=KEPT_TIMES)
        self._first: float | None = None

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
        """Warm every one of ``games`` whose ``hard`` bot searches, one after another in the
        order given (the next is sent when the one before is done): what ``tavern serve`` does
        as it starts, so that on a fresh install (kernels not compiled yet) a table's first hard
        move does not wait for the compilation, or waits only for its own game's when it comes
        very soon (issue 23). Returns each game's warm-up (done once the worker has played it)."""
        queue: list[tuple[str, Future[int]]] = []
        for game in games:
            if game in self._warmed or not self.searches(game, "hard"):
                continue
            self._warmed.add(game)
            placeholder: Future[int] = Future()
            placeholder.add_done_callback(_report_warm_failure)
            self.warming[game] = placeholder
            queue.append((game, placeholder))
        if queue:
            self._warm_began = time.monotonic()
            self._spread_wanted = self.processes > 1
        if queue and COMPILED:  # without numba the kernels are plain Python already
            self._interim = ProcessPoolExecutor(
                1,
                mp_context=get_context("spawn"),
                initializer=pure_python_worker,
                initargs=(os.getpid(),),
            )
            self._interim.submit(os.getpid)  # it starts and imports now, not at the first move
        if queue:
            self._warm_next(queue, self._generation)
        return [done for _, done in queue]

    def _warm_next(self, queue: list[tuple[str, Future[int]]], generation: int) -> None:
        with self._lock:
            if generation != self._generation:
                for _, placeholder in queue:
                    placeholder.cancel()
                return
            if not queue:
                if self._spread_wanted and not self._spread:
                    self._spread_warm(generation)
                else:
                    self._warmed_up()
                return
            game, placeholder = queue[0]
            sent = self._workers().submit(warm, game, "hard")

        def done(sent: Future[int]) -> None:
            if not placeholder.done():
                if sent.cancelled():
                    placeholder.cancel()
                elif (error := sent.exception()) is not None:
                    placeholder.set_exception(error)
                else:
                    placeholder.set_result(sent.result())
            self._warm_next(queue[1:], generation)

        sent.add_done_callback(done)

    def _spread_warm(self, generation: int) -> None:
        """Every worker loads every warmed game's kernels (from numba's cache by now): one
        ``warm_worker`` for each, and the barrier in it keeps any worker from taking two."""
        games = list(self.warming)
        pool = self._workers()
        self._spread = [pool.submit(warm_worker, games) for _ in range(self.processes)]
        left = [len(self._spread)]

        def done(_: Future[int]) -> None:
            with self._lock:
                left[0] -= 1
                if left[0] == 0 and generation == self._generation:
                    self._warmed_up()

        for sent in self._spread:
            sent.add_done_callback(done)

    def _still_warming(self, game: str) -> bool:
        """Whether a hard move of ``game`` goes to the plain-Python worker: while the pool warms
        and this game's kernels are not loaded yet, or, with one worker, while that worker is
        still busy warming the other games."""
        if self._interim is None or self.state() != "warming":
            return False
        warming = self.warming.get(game)
        return warming is None or not warming.done() or self.processes == 1

    def _warmed_up(self) -> None:
        """Every worker is warm: the warm-up's time, and the plain-Python worker goes (a move
        it is deciding still comes back)."""
        if self._warm_began is not None:
            self._warm_seconds = time.monotonic() - self._warm_began
        if self._interim is not None:
            self._interim.shutdown(wait=False)
            self._interim = None

    def state(self) -> str:
        """``warming`` while a warm-up is sent or waits to be, ``ready`` once every one asked
        for is done (a failed one too: its game's first decision loads the kernels itself),
        ``cold`` when none was asked for (``--no-warm-bots``, before any table seats a
        searching bot)."""
        if not self.warming:
            return "cold"
        every = [*self.warming.values(), *self._spread]
        if all(f.done() for f in every) and (not self._spread_wanted or self._spread):
            return "ready"
        return "warming"

    def figures(self) -> dict[str, Any]:
        """The warm-up's state and the searching bots' move times, in milliseconds, over the
        latest ``KEPT_TIMES`` moves (``/healthz``'s ``bots``)."""

        def summary(times: deque[float]) -> dict[str, float | None]:
            values = sorted(times)
            if not values:
                return {"mean": None, "p99": None}
            p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
            return {"mean": _ms(statistics.fmean(values)), "p99": _ms(p99)}

        waited, decided = summary(self._waited), summary(self._decided)
        return {
            "state": self.state(),
            "processes": self.processes,
            "warm_seconds": None if self._warm_seconds is None else round(self._warm_seconds, 1),
            "moves": self.moves,
            "interim_moves": self.interim_moves,
            "move_ms_mean": waited["mean"],
            "move_ms_p99": waited["p99"],
            "move_ms_first": None if self._first is None else _ms(self._first),
            "decide_ms_mean": decided["mean"],
            "decide_ms_p99": decided["p99"],
        }

    async def choose(self, game: str, level: str, view: Any, seed: int) -> Any:
        """The bot's move, computed without blocking the event loop for long."""
        if not self.searches(game, level):
            return decide(game, level, view, seed)
        loop = asyncio.get_running_loop()
        began = time.monotonic()
        workers = self._interim if self._still_warming(game) else None
        try:
            sent = loop.run_in_executor(
                workers or self._workers(), timed_decide, game, level, view, seed
            )
        except RuntimeError:  # the plain-Python worker was shut down this moment: the pool
            workers = None
            sent = loop.run_in_executor(self._workers(), timed_decide, game, level, view, seed)
        move, decided = await sent
        if workers is not None:
            self.interim_moves += 1
        waited = time.monotonic() - began
        self.moves += 1
        if self._first is None:
            self._first = waited
        self._waited.append(waited)
        self._decided.append(decided)
        return move

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
        with self._lock:
            self._generation += 1
        for pool in (self._pool, self._coach, self._interim):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._coach = self._interim = None
        self._warmed.clear()
        self.warming.clear()
        self._spread = []
        self._spread_wanted = False


# Every pool's barrier, for as long as this process lives: a worker still starting after its
# pool was shut down would otherwise find the barrier's semaphore gone (and say so on stderr).
_BARRIERS: list[Any] = []


def _executor(processes: int) -> ProcessPoolExecutor:
    # spawn: a fork of a process running an event loop and threads is not safe.
    context = get_context("spawn")
    barrier = context.Barrier(processes)
    _BARRIERS.append(barrier)
    return ProcessPoolExecutor(
        processes,
        mp_context=context,
        initializer=_start_worker,
        initargs=(os.getpid(), barrier),
    )


# A worker's barrier with the other workers of its pool (``warm_worker``).
_BARRIER: Any = None
# How long ``warm_worker`` waits for the other workers to reach the barrier.
SPREAD_SECONDS = 120.0


def _start_worker(parent: int, barrier: Any) -> None:
    """A worker's start: it dies with the server, even one killed with SIGKILL, and keeps the
    pool's barrier (a barrier reaches a process only as it starts)."""
    global _BARRIER
    die_with_parent(parent)
    _BARRIER = barrier


def warm_worker(games: list[str]) -> int:
    """In one worker: load every one of ``games``' kernels, then wait at the barrier until
    every worker of the pool has, so that each of the pool's ``warm_worker`` runs in another
    worker; returns this worker's pid."""
    for game in games:
        warm(game)
    if _BARRIER is not None:
        with contextlib.suppress(threading.BrokenBarrierError):
            _BARRIER.wait(SPREAD_SECONDS)
    return os.getpid()


def _ms(seconds: float) -> float:
    return round(1000 * seconds, 1)


def _report_warm_failure(done: Future[int]) -> None:
    # A failed warm-up costs only time (the first decision loads the kernels itself): log it.
    if not done.cancelled() and done.exception() is not None:
        log.warning("warming the bot kernels failed: %s", done.exception())
