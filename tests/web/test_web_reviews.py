"""The coach's reviews in the server (issue 27, items 2 and 4): the queue in front of the bot
pool's coach workers, one review per person at a time, the cache by (deal, seat), and the HTTP
refusals: a deal in play, a private table the asker did not sit at, a second review under way.

The queue's order is checked with a pool whose work waits until the test lets it go (the real
review's timing is not what is tested there); the HTTP tests run real reviews in real worker
processes and check them against ``coach.review_record`` run here.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx2
import pytest

from taverntable.coach import review_record
from taverntable.web.reviews import WORLDS, ReviewBusy, Reviews, review_payload

from paths import EXAMPLES
from web_helpers import HTTP, Player, create, play_from_the_start, records, server_thread, ws_url

BOT = {"kind": "bot", "level": "easy"}
GOOD = "a tavern of cards"


class HeldPool:
    """A bot pool whose coach work runs in place once the test releases it (``release``)."""

    review_processes = 1

    def __init__(self) -> None:
        self.started: list[tuple[Any, ...]] = []
        self.gates: list[asyncio.Event] = []

    async def coach(self, work: Any, *args: Any) -> Any:
        gate = asyncio.Event()
        self.started.append(args)
        self.gates.append(gate)
        await gate.wait()
        return work(*args)

    def release(self, k: int) -> None:
        self.gates[k].set()


def tonk_record(name: str = "seed-tonk-2") -> dict[str, Any]:
    """A seed's worked example: a finished deal of tonk, 3 players."""
    record: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return record


async def settle(reviews: Reviews) -> None:
    for _ in range(50):
        await asyncio.sleep(0.01)
        if not reviews.jobs:
            return


def test_the_queue_says_how_many_are_ahead_and_holds_one_review_per_person() -> None:
    """Two workers' worth of work on one worker: the second person's review waits (`queued`,
    1 ahead), the third's 2 ahead; a person asking for a second review meanwhile is refused
    (ReviewBusy); asking again for the same one joins it; once done it comes from the cache."""
    record = tonk_record()

    async def run() -> None:
        pool = HeldPool()
        reviews = Reviews(pool, workers=1)  # type: ignore[arg-type]
        a = reviews.ask(("t", 1, 0), "anna", record)
        b = reviews.ask(("t", 1, 1), "bence", record)
        c = reviews.ask(("t", 1, 2), "cili", record)
        assert (a.status, b.status, b.ahead, c.status, c.ahead) == (
            "running",
            "queued",
            1,
            "queued",
            2,
        )
        with pytest.raises(ReviewBusy):
            reviews.ask(("t", 2, 0), "bence", record)
        # The same review again, by its asker or anyone: the same place in the queue.
        assert reviews.ask(("t", 1, 1), "dora", record).ahead == 1
        await asyncio.sleep(0)
        assert len(pool.started) == 1  # one worker: one review at a time
        pool.release(0)
        for _ in range(100):
            await asyncio.sleep(0.01)
            if reviews.status(("t", 1, 0)).status == "done":
                break
        assert reviews.status(("t", 1, 0)).status == "done"
        assert reviews.status(("t", 1, 1)).status == "running"
        assert reviews.status(("t", 1, 2)).ahead == 1
        # Anna's review is over: she may ask for another, which waits behind Cili's.
        assert reviews.ask(("t", 2, 0), "anna", record).ahead == 2
        pool.release(1)
        await asyncio.sleep(0.05)
        pool.release(2)
        await asyncio.sleep(0.05)
        pool.release(3)
        await settle(reviews)
        done = reviews.ask(("t", 1, 0), "anna", record)
        assert done.status == "done" and done.cached and done.review is not None
        assert len(pool.started) == 4  # the cached one was not run again
        assert [args[1] for args in pool.started] == [0, 1, 2, 0]

    asyncio.run(run())


def test_a_review_in_the_payload_is_the_coachs_review_with_every_language() -> None:
    """The worker's payload is ``review_record``'s review (same seed and budget), each note in
    en, hu, ru and uk, with the CPU time it took."""
    record = tonk_record("seed-tonk-1")
    payload = review_payload(record, 1, 40)
    review = review_record(record, 1, worlds=40, seed=0)
    assert [d["step"] for d in payload["decisions"]] == [d.step for d in review.decisions]
    assert [d["flagged"] for d in payload["decisions"]] == [d.flagged for d in review.decisions]
    for d in payload["decisions"]:
        assert set(d["text"]) == {"en", "hu", "ru", "uk"}
        assert len(set(d["text"].values())) == 4, d["text"]  # four languages, four sentences
    assert payload["cpu_seconds"] >= 0


def finished_tonk_table(base: str, **extra: Any) -> dict[str, Any]:
    """A table of one person (Anna, seat 0) and two bots that played one deal to its end."""
    made = create(
        base,
        "tonk",
        [{"kind": "person"}, BOT, BOT],
        host_seat=0,
        host_name="Anna",
        deals=1,
        **extra,
    )
    table = made["table"]["id"]
    anna = Player(ws_url(base, table, made["token"]), 0, 3)
    host = made["host_token"]
    asyncio.run(
        play_from_the_start(
            [anna],
            lambda: HTTP.post(f"{base}/api/tables/{table}/start", headers={"X-Host-Token": host}),
        )
    )
    return made


def wait_done(client: httpx2.Client, url: str, params: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(url, params=params)
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        if body["status"] in ("done", "failed") or time.monotonic() > deadline:
            return body
        time.sleep(0.2)


def test_a_finished_deal_is_reviewed_in_a_worker_then_from_the_cache(database: str) -> None:
    """A finished Tonk deal of a table: its seat's review is queued or running at first (never
    computed in the request), done later with the coach's own values, and at once the second
    time; another person may ask for another seat at the same time; the person who asked may
    not ask for a second review while the first is under way (409 review-busy)."""
    with server_thread(database) as base:
        made = finished_tonk_table(base)
        table = made["table"]["id"]
        (record,) = records(base, table)
        url = f"{base}/api/replays/{table}/1/review"
        anna = httpx2.Client(timeout=30, headers={"X-Seat-Token": made["token"]})
        first = anna.post(url)
        assert first.status_code == 200, first.text
        assert first.json()["status"] in ("queued", "running") and first.json()["seat"] == 0
        busy = anna.post(url, params={"seat": 1})
        assert busy.status_code == 409 and busy.json()["code"] == "review-busy"
        done = wait_done(anna, url, {})
        assert done["status"] == "done", done
        again = anna.post(url)
        stranger = httpx2.Client(timeout=30).post(url, params={"seat": 2})
    assert again.status_code == 200 and again.json()["status"] == "done"
    assert again.json()["cached"] is True and again.json()["review"] == done["review"]
    assert stranger.status_code == 200 and stranger.json()["seat"] == 2
    mine = review_record(record, 0, worlds=WORLDS["stakes"], seed=0)
    got = done["review"]
    assert got["seat"] == 0 and got["worlds"] == WORLDS["stakes"] and got["unit"] == "stakes"
    assert [d["step"] for d in got["decisions"]] == [d.step for d in mine.decisions]
    assert [d["chosen"] for d in got["decisions"]] == [d.chosen for d in mine.decisions]
    assert got["mistakes"] == len(mine.mistakes)
    for d, m in zip(got["decisions"], mine.decisions, strict=True):
        assert [o["value"] for o in d["options"]] == pytest.approx(
            [o.value.mean for o in m.options], abs=1e-9
        )
        assert record["moves"][d["step"]][0] == 0  # the reviewed seat's own decisions


def test_a_deal_in_play_and_a_private_table_of_others_are_refused(database: str) -> None:
    """A deal still in play: 409 deal-in-play (for its own player too); a private table's
    finished deal: 403 not-your-table for someone who did not sit at it, reviewed for the
    person who did; a seat out of range 400 bad-seat; no table 404."""
    with server_thread(database) as base:
        running = create(
            base,
            "tonk",
            [{"kind": "person"}, BOT],
            host_seat=0,
            host_name="Anna",
            absent_seconds=3600,
        )
        table = running["table"]["id"]
        HTTP.post(
            f"{base}/api/tables/{table}/start", headers={"X-Host-Token": running["host_token"]}
        )
        mine = {"X-Seat-Token": running["token"]}
        # The deal now in play: once it is Anna's turn (she never moves) it stays in play;
        # before that the bot may end a deal by a drop and the next one is dealt.
        deadline = time.monotonic() + 30
        while True:
            info = HTTP.get(f"{base}/api/tables/{table}").json()
            if (info["turn"] or {}).get("seat") == 0 and not info["turn"]["bot"]:
                break
            assert time.monotonic() < deadline, info
            time.sleep(0.05)
        deal = info["deal"]
        assert deal >= 1
        in_play = httpx2.post(f"{base}/api/replays/{table}/{deal}/review", headers=mine)
        private = finished_tonk_table(base, private=True)
        ptable = private["table"]["id"]
        url = f"{base}/api/replays/{ptable}/1/review"
        stranger = httpx2.post(url, params={"seat": 0})
        stranger_get = httpx2.get(url, params={"seat": 0})
        own = httpx2.post(url, headers={"X-Seat-Token": private["token"]})
        bad_seat = httpx2.post(url, params={"seat": 7}, headers={"X-Seat-Token": private["token"]})
        no_table = httpx2.post(f"{base}/api/replays/nothere/1/review")
        lobby = HTTP.get(f"{base}/api/tables").json()
    assert in_play.status_code == 409 and in_play.json()["code"] == "deal-in-play"
    assert stranger.status_code == 403 and stranger.json()["code"] == "not-your-table"
    assert stranger_get.status_code == 403 and stranger_get.json()["code"] == "not-your-table"
    assert own.status_code == 200 and own.json()["status"] in ("queued", "running", "done")
    assert bad_seat.status_code == 400 and bad_seat.json()["code"] == "bad-seat"
    assert no_table.status_code == 404 and no_table.json()["code"] == "no-table"
    assert ptable not in [t["id"] for t in lobby]  # a private table is not listed


def test_hints_are_refused_for_a_rated_match(database: str) -> None:
    """A rated table with hints on: 400 rated-hints (for a signed-in host too); the same table
    unrated takes them, and they are off by default."""
    with server_thread(database) as base:
        person = httpx2.Client(base_url=base, timeout=30)
        signed = person.post("/api/account/signup", json={"name": "Anna", "password": GOOD})
        assert signed.status_code == 201, signed.text
        body = {"game": "tonk", "seats": [{"kind": "person"}, BOT], "host_seat": 0}
        rated = person.post("/api/tables", json={**body, "rated": True, "hints": True})
        plain = person.post("/api/tables", json={**body, "rated": True})
        hinted = person.post("/api/tables", json={**body, "hints": True})
    assert rated.status_code == 400 and rated.json()["code"] == "rated-hints"
    assert plain.status_code == 201 and plain.json()["table"]["settings"]["hints"] is False
    assert hinted.status_code == 201 and hinted.json()["table"]["settings"]["hints"] is True
