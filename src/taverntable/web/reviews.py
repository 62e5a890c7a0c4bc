"""The coach's reviews for the replay viewer: a queue in front of the bot pool's coach workers.

A review (``coach.review_record``) takes seconds of CPU — a Tonk deal a few, a Three Towers game
tens (docs/coach.md, "Cost") — so it never runs on the event loop: ``BotPool.coach`` runs it in a
worker process of its own. In front of those workers a queue keeps order: at most ``workers``
reviews run at once, the others wait in the order they were asked for, and each asker is told
how many are ahead. A person has at most one review queued or running (``ReviewBusy``
otherwise); a second request for the same deal and seat joins the first. A finished deal never
changes, so a review is kept by (table, deal, seat) and asked again answers at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from taverntable.coach import LANGS, render, review_record
from taverntable.coach.review import DEFAULT_WORLDS
from taverntable.engine import RecordError
from taverntable.games import UnknownGame, get_game

from .botpool import BotPool
from .move_words import move_words, quoted
from .protocol.review import CoachReview, ReviewStatus

log = logging.getLogger(__name__)

# The review's budget in the browser: worlds a decision, by the game's unit. With 200 a Tonk
# deal's review took at most 2.2 CPU s and a 2-player Three Towers game's 18 s (targets 5 and
# 60 s; docs/coach.md, "Cost").
WORLDS = dict(DEFAULT_WORLDS)
SEED = 0
# Reviews kept (a few kilobytes each), and reviews that may wait at once (more: 503).
CACHE_SIZE = 256
MAX_WAITING = 32
# A failed review's answer is kept this long for its askers' next look, then forgotten.
FAILED_SECONDS = 60.0

Key = tuple[str, int, int]  # (table, deal, seat)


class ReviewBusy(Exception):
    """The person already has a review queued or running (of another deal or seat)."""


class QueueFull(Exception):
    """Too many reviews are waiting."""


def review_payload(record: dict[str, Any], seat: int, worlds: int | None) -> dict[str, Any]:
    """The review of ``seat`` in ``record`` as ``CoachReview``'s JSON, each note rendered in every
    language, with the CPU seconds it took (run in a worker process). RecordError: why not."""
    start = time.process_time()
    review = review_record(record, seat, worlds=worlds, seed=SEED)
    payload = review.to_json()
    family = get_game(record["game"]).family
    names = [str(name) for name in record.get("players", [])]
    for decision, entry in zip(review.decisions, payload["decisions"], strict=True):
        entry["text"] = {
            lang: render(decision.note, lang, _sayer(family, lang, names)) for lang in LANGS
        }
        for option in entry["options"]:
            option["words"] = {
                lang: move_words(option["move"], family, lang, names) for lang in LANGS
            }
    payload["cpu_seconds"] = round(time.process_time() - start, 3)
    return payload


def _sayer(family: str, lang: str, names: list[str]) -> Callable[[str], str]:
    """A note's moves as the table's buttons say them, quoted inside the sentence."""

    def say(move: str) -> str:
        return quoted(move_words(move, family, lang, names), lang)

    return say


@dataclass
class Job:
    key: Key
    person: str
    record: dict[str, Any]
    running: bool = False
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Reviews:
    """The queue, the cache and who is waiting (module docstring)."""

    def __init__(self, pool: BotPool, workers: int | None = None) -> None:
        self.pool = pool
        self.workers = workers if workers is not None else max(1, pool.review_processes)
        self.done: OrderedDict[Key, CoachReview] = OrderedDict()
        self.failed: dict[Key, tuple[float, str]] = {}
        self.jobs: dict[Key, Job] = {}
        self.waiting: list[Job] = []
        self.people: dict[str, Key] = {}

    def status(self, key: Key) -> ReviewStatus:
        """Where the review of ``key`` stands (``none``: nobody asked for it)."""
        seat = key[2]
        review = self.done.get(key)
        if review is not None:
            self.done.move_to_end(key)
            return ReviewStatus(status="done", seat=seat, review=review, cached=True)
        job = self.jobs.get(key)
        if job is not None:
            if job.running:
                return ReviewStatus(status="running", seat=seat)
            ahead = self.running() + self.waiting.index(job)
            return ReviewStatus(status="queued", seat=seat, ahead=ahead)
        failed = self.failed.get(key)
        if failed is not None and time.monotonic() - failed[0] < FAILED_SECONDS:
            return ReviewStatus(status="failed", seat=seat, error=failed[1])
        return ReviewStatus(status="none", seat=seat)

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if j.running)

    def ask(self, key: Key, person: str, record: dict[str, Any]) -> ReviewStatus:
        """Queue the review of ``key`` for ``person`` (or join the one asked for already):
        ReviewBusy when the person waits for another one, QueueFull past ``MAX_WAITING``."""
        known = self.status(key)
        if known.status in ("done", "queued", "running"):
            if known.status == "done":
                known.cached = True
            return known
        mine = self.people.get(person)
        if mine is not None and mine != key:
            raise ReviewBusy(mine)
        if len(self.waiting) >= MAX_WAITING:
            raise QueueFull()
        self.failed.pop(key, None)
        job = Job(key, person, record)
        self.jobs[key] = job
        self.people[person] = key
        self.waiting.append(job)
        self._dispatch()
        return self.status(key)

    def _dispatch(self) -> None:
        while self.waiting and self.running() < self.workers:
            job = self.waiting.pop(0)
            job.running = True
            job.task = asyncio.get_running_loop().create_task(self._run(job))

    async def _run(self, job: Job) -> None:
        table, deal, seat = job.key
        try:
            unit = get_game(str(job.record.get("game", ""))).unit
            payload = await self.pool.coach(review_payload, job.record, seat, WORLDS.get(unit))
            review = CoachReview.model_validate(payload)
        except (RecordError, UnknownGame) as e:
            self.failed[job.key] = (time.monotonic(), str(e))
        except Exception as e:  # a worker that died, a pool shut down: say so, keep serving
            log.warning("review of %s deal %d seat %d failed: %s", table, deal, seat, e)
            self.failed[job.key] = (time.monotonic(), f"the review failed: {e}"[:300])
        else:
            log.info(
                "review of %s deal %d seat %d: %d decisions, %.2f CPU s",
                table,
                deal,
                seat,
                len(review.decisions),
                review.cpu_seconds,
            )
            self.done[job.key] = review
            while len(self.done) > CACHE_SIZE:
                self.done.popitem(last=False)
        finally:
            self.jobs.pop(job.key, None)
            if self.people.get(job.person) == job.key:
                del self.people[job.person]
            self._dispatch()
