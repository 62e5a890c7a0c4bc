"""The event loop kept free of the garbage collector's full passes over the long-lived heap
(``looplag.GcPolicy``, applied as the server starts) and its stalls measured (``LoopWatch``,
``/healthz``'s ``loop``): issue 23's 1,000 tables on one process."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pytest import MonkeyPatch

from taverntable.web.app import create_app
from taverntable.web.looplag import GcPolicy, LoopWatch


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """Each test starts and ends with nothing frozen (freezing is the process's, not a
    test's)."""
    gc.unfreeze()
    yield
    gc.unfreeze()


class Node:
    """An object in a reference cycle: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_a_round_freezes_what_lives_on_and_frees_the_young_cycles() -> None:
    policy = GcPolicy(every=0)
    policy.start()
    assert gc.get_freeze_count() == policy.base > 0
    kept = [Node() for _ in range(100)]
    dead = weakref.ref(Node())  # a cycle garbage already: collected, not frozen
    policy.step()
    assert dead() is None
    assert policy.freezes == 1 and policy.full_passes == 0
    frozen = gc.get_freeze_count()
    assert frozen >= policy.base + len(kept)
    # Frozen: no pass walks them, not even a full one.
    assert not any(k in gc.get_objects() for k in kept[:3])
    # A frozen object is still freed by its reference count.
    plain = [[1] for _ in range(50)]
    policy.step()
    before = gc.get_freeze_count()
    del plain
    assert gc.get_freeze_count() <= before - 50


def test_frozen_garbage_is_freed_once_the_frozen_heap_grew_by_half() -> None:
    policy = GcPolicy(every=0, growth=0.5, least=1000, apart=0.0, count_every=0)
    policy.start()
    base = policy.base
    doomed = [Node() for _ in range(100)]
    gone = weakref.ref(doomed[0])
    policy.step()
    del doomed  # cycles, frozen: kept while the frozen heap is small
    policy.step()
    assert gone() is not None and policy.full_passes == 0
    grown = [[i] for i in range(max(base // 2, 1000) + 10)]  # live objects, frozen next step
    policy.step()
    assert policy.full_passes == 0  # frozen now, counted at the next round
    policy.step()
    assert policy.full_passes == 1 and gone() is None
    assert policy.base >= len(grown)


def test_full_passes_wait_ten_minutes_unless_the_heap_grew_four_times_over() -> None:
    policy = GcPolicy(every=0, growth=0.5, least=1000, most_new=1000, count_every=0)
    policy.start()
    grown = [[i] for i in range(policy.base + 10)]  # doubled: half grown, not four times
    policy.step()
    policy.step()
    assert policy.full_passes == 0  # the last full pass (the start) is not ten minutes old
    policy.last_full -= 600
    policy.step()
    assert policy.full_passes == 1
    more = [[i] for i in range(4 * policy.base)]  # four times over: at once
    policy.step()
    policy.step()
    assert policy.full_passes == 2
    del grown, more


def test_a_filling_server_makes_no_full_pass_in_its_first_ten_minutes() -> None:
    """1,000 tables' 600,000 objects on a server that started with 180,000: more than four
    times over, but fewer than a million new ones (the load test's first minutes)."""
    policy = GcPolicy(every=0, least=1000, count_every=0)
    policy.start()
    policy.most_new = 5 * policy.base  # as a million is to the load test's heap
    filled = [[i] for i in range(4 * policy.base)]
    policy.step()
    policy.step()
    assert policy.full_passes == 0 and policy.freezes == 2
    del filled


def test_the_frozen_heap_is_counted_at_most_once_a_minute(monkeypatch: MonkeyPatch) -> None:
    """Counting the frozen heap walks every frozen object (a loaded server's millions: about a
    tenth of a second each time), so the rounds between counts only collect and freeze."""
    policy = GcPolicy(every=0, least=1000, apart=0.0)
    policy.start()
    counts = []
    real = gc.get_freeze_count

    def counted() -> int:
        counts.append(1)
        return real()

    monkeypatch.setattr(gc, "get_freeze_count", counted)
    grown = [[i] for i in range(policy.base + 1000)]  # grown by half, and a pass is due
    for _ in range(5):
        policy.step()
    assert len(counts) == 1 and policy.full_passes == 0  # counted before the growth was frozen
    assert policy.freezes == 5
    policy.last_count -= 60
    policy.step()
    assert policy.full_passes == 1
    assert len(counts) == 3  # the round's count, and the new base after the full pass
    del grown


def test_the_watch_counts_a_stall_and_the_collectors_passes() -> None:
    async def run() -> dict[str, object]:
        watch = LoopWatch()
        watch.start()
        await asyncio.sleep(0.05)
        time.sleep(0.15)  # the loop blocked: every table would wait this long
        gc.collect()
        await asyncio.sleep(0.05)
        figures = watch.figures()
        await watch.stop()
        return figures

    figures = asyncio.run(run())
    assert figures["stalls"] == [1, 1, 1]
    assert isinstance(figures["lag_ms_max"], float) and figures["lag_ms_max"] >= 100
    passes = figures["gc_passes"]
    assert isinstance(passes, list) and passes[2] >= 1


def test_the_server_applies_the_policy_as_it_starts_and_reports_its_loop(tmp_path: Path) -> None:
    app = create_app(f"sqlite+aiosqlite:///{tmp_path}/g.sqlite3")
    with TestClient(app) as client:
        hub = app.state.hub
        assert gc.get_freeze_count() > 0
        assert hub.gc_policy.task is not None and not hub.gc_policy.task.done()
        assert hub.watch.task is not None
        deadline = time.monotonic() + 60
        while (loop := client.get("/healthz").json()["loop"])["ticks"] < 3:
            assert time.monotonic() < deadline, "the loop's watch never ticked"
            time.sleep(0.05)
        assert loop["gc_frozen"] > 0 and len(loop["gc_passes"]) == 3
        assert len(loop["stalls"]) == 3
    assert hub.gc_policy.task is None and hub.watch.task is None
