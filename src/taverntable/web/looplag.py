"""How long the event loop stalls, and what the garbage collector costs it (``/healthz``'s
``loop``).

A task sleeps ``TICK`` seconds again and again and keeps how late each wake-up was: a wake-up
late by 80 ms is 80 ms during which no table's frame went out. The garbage collector's passes
are timed through ``gc.callbacks`` (each generation's count and time, and the longest). With
``TAVERN_STALL_LOG=PATH`` a thread also writes, for every stall of the loop longer than
``TAVERN_STALL_MS`` (default 40), the main thread's stack as the thread found it (a diagnosis
tool: it takes the GIL every few milliseconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import os
import signal
import sys
import threading
import time
import traceback
from collections import Counter, deque
from typing import Any

# How often the watch wakes up (seconds), and how many of its latest lags it keeps. Every
# 10 ms cost an idle server 13 ms of CPU a second (its wake-ups), every 50 ms 3 ms.
TICK = 0.05
KEPT = 10_000
# Stalls counted since the start, by the least lateness (ms) each count is of.
STALLS_MS = (20, 50, 100)


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class GcPolicy:
    """The garbage collector's full passes kept off the event loop's long-lived heap.

    A server's tables and connections live for minutes to hours: hundreds of thousands of
    objects (200 a WebSocket: its tasks, coroutines, queues, headers) that the collector's
    full pass walked every ~10 s under load (each move's objects promoted past the young
    generations add up to a quarter of the old ones), 400-1,000 ms of CPU a pass at 1,000
    tables, every table stalled meanwhile (``docs/scaling.md``). Every ``every`` seconds a
    collection of the young generations (what died young, cycles included), then
    ``gc.freeze()``: what lives on joins the permanent generation, which no pass walks (a
    frozen object is still freed by its reference count), so CPython's own full passes walk
    only what the last seconds promoted. A cycle among frozen objects (or one that died in
    the old generation since the last round) that
    becomes garbage later is kept until the frozen heap has grown by ``growth`` since the last
    full collection (``gc.unfreeze()``, a full pass, ``gc.freeze()`` again): memory held by
    such garbage stays within that share of the live heap, and the full pass is rare instead
    of every few seconds."""

    def __init__(
        self,
        every: float = 10.0,
        growth: float = 0.5,
        least: int = 200_000,
        apart: float = 600.0,
        most: float = 4.0,
        most_new: int = 1_000_000,
        count_every: float = 60.0,
    ) -> None:
        self.every = every
        self.growth = growth
        self.least = least  # a full pass is not made for fewer new frozen objects than this
        # Full passes at least ``apart`` seconds apart, unless the frozen heap has grown
        # ``most`` times over since the last (the bound on what frozen garbage may hold).
        self.apart = apart
        self.most = most
        self.most_new = most_new  # and by at least this many objects
        # The frozen heap is counted (``gc.get_freeze_count``: a walk of every frozen object,
        # some 100 ms of a loaded server's CPU) at most this often: a full pass is due at
        # most every ``apart`` seconds anyway, and a burst is seen within this many.
        self.count_every = count_every
        self.last_count = -math.inf
        self.last_full = time.monotonic()
        self.task: asyncio.Task[None] | None = None
        self.base = 0  # the frozen count after the latest full pass
        self.freezes = 0
        self.full_passes = 0

    def start(self) -> None:
        """Once loaded: everything alive now frozen (``create_app``'s lifespan), then the
        task."""
        gc.collect()
        gc.freeze()
        self.base = gc.get_freeze_count()
        if self.every > 0 and self.task is None:
            self.task = asyncio.create_task(self._run(), name="gc policy")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.step()

    def step(self) -> None:
        """One round: the young and the recently promoted collected and frozen; a full pass
        only once the frozen heap has grown by ``growth``."""
        now = time.monotonic()
        if now - self.last_count >= self.count_every:
            self.last_count = now
            frozen = gc.get_freeze_count()
            grown = frozen > max(self.base * (1 + self.growth), self.base + self.least)
            burst = frozen > max(self.base * self.most, self.base + self.most_new)
            due = now - self.last_full >= self.apart or burst
        else:
            grown = due = False
        if grown and due:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.base = gc.get_freeze_count()
            self.last_full = time.monotonic()
            self.full_passes += 1
            return
        # The young generations only (what died young, cycles included): a full collection
        # of the unfrozen would walk every table's newest state, 100-200 ms at 1,000 tables.
        gc.collect(1)
        gc.freeze()
        self.freezes += 1


class LoopWatch:
    """The loop's lag (from a ticking task) and the collector's passes, for ``figures``."""

    def __init__(self, policy: GcPolicy | None = None) -> None:
        self.policy = policy
        self.lags: deque[float] = deque(maxlen=KEPT)  # seconds late, each wake-up
        self.stalls = [0] * len(STALLS_MS)
        self.stalled = 0.0  # seconds late in all, over the wake-ups late by 20 ms or more
        self.stalled_cpu = 0.0  # the loop's thread's CPU time over those wake-ups' sleeps
        self.gc_count = [0, 0, 0]
        self.gc_seconds = [0.0, 0.0, 0.0]
        self.gc_longest = [0.0, 0.0, 0.0]
        self._gc_began = 0.0
        self.task: asyncio.Task[None] | None = None
        self.beat = time.monotonic()  # the ticking task's latest wake-up
        self._stalls: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        if self.task is None:
            gc.callbacks.append(self._gc)
            self.task = asyncio.create_task(self._tick(), name="loop watch")
            path = os.environ.get("TAVERN_STALL_LOG")
            if path:
                most = float(os.environ.get("TAVERN_STALL_MS", "40")) / 1000
                main = threading.get_ident()
                self._stalls = threading.Thread(
                    target=self._watch_stalls, args=(path, most, main), daemon=True
                )
                self._stalls.start()
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    asyncio.get_running_loop().add_signal_handler(
                        signal.SIGUSR2, self._census, path
                    )

    async def stop(self) -> None:
        if self.task is not None:
            with contextlib.suppress(ValueError):
                gc.callbacks.remove(self._gc)
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        self._stop.set()

    async def _tick(self) -> None:
        while True:
            before, cpu = time.monotonic(), time.thread_time()
            await asyncio.sleep(TICK)
            self.beat = time.monotonic()
            late = max(0.0, self.beat - before - TICK)
            self.lags.append(late)
            for i, least in enumerate(STALLS_MS):
                if late * 1000 >= least:
                    self.stalls[i] += 1
            if late * 1000 >= STALLS_MS[0]:
                self.stalled += late
                self.stalled_cpu += time.thread_time() - cpu

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_began = time.thread_time()
            return
        took = time.thread_time() - self._gc_began  # CPU time: not the machine's other work
        g = info["generation"]
        self.gc_count[g] += 1
        self.gc_seconds[g] += took
        self.gc_longest[g] = max(self.gc_longest[g], took)

    def _watch_stalls(self, path: str, most: float, main: int) -> None:
        """Every 5 ms: if the loop's tick is late by more than ``most``, the main thread's
        stack once per stall."""
        told = 0.0
        with open(path, "a") as out:
            while not self._stop.wait(0.005):
                beat = self.beat
                late = time.monotonic() - beat - TICK
                if late > most and beat != told:
                    told = beat
                    frames = sys._current_frames()
                    frame = frames.get(main)
                    stack = "".join(traceback.format_stack(frame)) if frame else "?"
                    others = "".join(
                        f"  thread {ident}: "
                        + " < ".join(
                            f"{f.name}:{f.lineno}" for f in traceback.extract_stack(f)[::-1][:4]
                        )
                        + "\n"
                        for ident, f in frames.items()
                        if ident not in (main, threading.get_ident())
                    )
                    out.write(
                        f"--- stalled {late * 1000:.0f} ms so far at {time.time():.3f}\n"
                        f"{stack}{others}\n"
                    )
                    out.flush()

    @staticmethod
    def _census(path: str) -> None:
        """The objects the collector tracks, by type, and a full pass's time (SIGUSR2)."""
        objects = gc.get_objects()
        kinds = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in objects)
        began = time.thread_time()
        gc.collect()
        took = (time.thread_time() - began) * 1000
        with open(path, "a") as out:
            out.write(
                f"=== census: {len(objects)} tracked, {gc.get_freeze_count()} frozen, "
                f"a full pass {took:.0f} ms CPU\n"
            )
            out.writelines(f"{n} {kind}\n" for kind, n in kinds.most_common(40))
        del objects

    def figures(self) -> dict[str, Any]:
        lags = [x * 1000 for x in self.lags]
        return {
            "lag_ms_p50": _round(percentile(lags, 0.5)),
            "lag_ms_p99": _round(percentile(lags, 0.99)),
            "lag_ms_max": _round(max(lags, default=None)),
            "ticks": len(lags),
            "stalls": list(self.stalls),
            "stalled_ms": round(self.stalled * 1000, 1),
            "stalled_cpu_ms": round(self.stalled_cpu * 1000, 1),
            "gc_passes": list(self.gc_count),
            "gc_ms": [round(s * 1000, 1) for s in self.gc_seconds],
            "gc_ms_longest": [round(s * 1000, 1) for s in self.gc_longest],
            "gc_frozen": gc.get_freeze_count(),
            "gc_freezes": 0 if self.policy is None else self.policy.freezes,
            "gc_full_passes": 0 if self.policy is None else self.policy.full_passes,
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 2)
