"""Running a study: the games not yet done, in batches, inline, on a process pool or on Ray.

Each game's seed comes from the study seed and its index (``seeds.game_seed``), so the rows do not
depend on the backend, the number of workers, the batching or the order in which batches finish.
Finished batches are written at once (``store.StudyStore``); a stopped study resumes by skipping
the indices already done.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from taverntable.worker_life import die_with_parent

from .config import StudyConfig
from .seeds import game_seed
from .store import Row, StudyStore
from .studies import get_study, play_function

Item = tuple[int, int]  # (game index, seed)
Result = tuple[int, Row, list[dict[str, Any]]]

MAX_BATCH = 500


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What one run did: games played now, games done in all, wall time, backend."""

    games_run: int
    games_done: int
    games_total: int
    seconds: float
    workers: int
    backend: str

    @property
    def games_per_s(self) -> float:
        return self.games_run / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games_run": self.games_run,
            "games_done": self.games_done,
            "games_total": self.games_total,
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "backend": self.backend,
            "games_per_s": round(self.games_per_s, 2),
        }


def play_batch(config_json: dict[str, Any], items: Sequence[Item]) -> list[Result]:
    """Play the games ``items`` of a study (in a worker: everything comes from the arguments)."""
    config = StudyConfig.from_json(config_json)
    play = play_function(get_study(config.study))
    out: list[Result] = []
    for index, seed in items:
        row, records = play(config, index, seed)
        out.append((index, row, records if config.records else []))
    return out


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def batches(
    config: StudyConfig, done: set[int], workers: int, up_to: int | None = None
) -> list[list[Item]]:
    """The games still to play (below ``up_to`` when given), cut into batches: big enough that a
    batch's overhead is small, small enough that every worker gets several (progress and
    interruption stay fine-grained)."""
    end = config.games if up_to is None else min(up_to, config.games)
    todo = [(i, game_seed(config.seed, i)) for i in range(end) if i not in done]
    size = max(1, min(MAX_BATCH, len(todo) // (workers * 8)))
    return [todo[k : k + size] for k in range(0, len(todo), size)]


def run_study(
    config: StudyConfig,
    folder: Path,
    *,
    workers: int | None = None,
    ray: str | None = None,
    fresh: bool = False,
    progress: bool = True,
    stop_after: int | None = None,
    up_to: int | None = None,
) -> RunSummary:
    """Play the games of ``config`` not yet in ``folder``; ``stop_after`` games stops early (as an
    interruption would); ``up_to`` plays only the games below that index this time (the study
    keeps its size). ``ray`` is a cluster address or ``"local"``."""
    store = StudyStore.open(folder, config, fresh=fresh)
    study = get_study(config.study)
    if study.prepare is not None:
        from .studies import load

        load(study.prepare)(config, folder)
    n_workers = workers or default_workers()
    work = batches(config, store.done, n_workers, up_to)
    backend = "ray" if ray else ("inline" if n_workers == 1 else "processes")
    results = _backend(backend, config.to_json(), work, n_workers, ray)
    run = 0
    start = time.perf_counter()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, disable=not progress) as bar:
            total = config.games if up_to is None else min(up_to, config.games)
            task = bar.add_task(config.study, total=total, completed=done_count(store, total))
            for result in results:
                new = store.append(result)
                run += new
                bar.advance(task, new)
                if stop_after is not None and run >= stop_after:
                    break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops the pool or Ray and cancels batches not yet started
        seconds = time.perf_counter() - start
        summary = RunSummary(run, done_count(store), config.games, seconds, n_workers, backend)
        store.log_run(summary.to_json())
        store.close()
    return summary


def done_count(store: StudyStore, below: int | None = None) -> int:
    """Games done within the study's size (a smaller size keeps, but does not count, the rest),
    or below ``below``."""
    end = store.config.games if below is None else below
    return sum(1 for i in store.done if i < end)


def _backend(
    name: str, config_json: dict[str, Any], work: list[list[Item]], workers: int, ray: str | None
) -> Iterator[list[Result]]:
    if name == "inline":
        return (play_batch(config_json, items) for items in work)
    if name == "ray":
        from .ray_backend import ray_results

        assert ray is not None
        return ray_results(ray, config_json, work, workers)
    return pool_results(config_json, work, workers)


def pool_results(
    config_json: dict[str, Any], work: list[list[Item]], workers: int
) -> Iterator[list[Result]]:
    """Batches played on a pool of ``workers`` processes, yielded as they finish."""
    if not work:
        return
    # spawn, not fork: workers start clean whatever threads the parent has (the progress bar).
    # They end with this process, even when it is killed (worker_life); Ctrl-C is ours alone.
    pool = ProcessPoolExecutor(
        workers,
        mp_context=get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(), True),
    )
    try:
        yield from bounded(
            lambda items: pool.submit(play_batch, config_json, items), work, 2 * workers
        )
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def bounded(
    submit: Callable[[list[Item]], Future[list[Result]]], work: list[list[Item]], limit: int
) -> Iterator[list[Result]]:
    """Keep at most ``limit`` batches in flight (an interrupted study wastes little work)."""
    queue = iter(work)
    running: set[Future[list[Result]]] = set()
    for items in queue:
        running.add(submit(items))
        if len(running) >= limit:
            break
    while running:
        finished, running = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            yield future.result()
            nxt = next(queue, None)
            if nxt is not None:
                running.add(submit(nxt))
