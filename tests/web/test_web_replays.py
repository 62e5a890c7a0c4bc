"""The replay viewer's data: a table's deals played back step by step with the engine (as a
seat, a spectator or every hand open), who may see a deal still in play, uploaded records, and
any process of several answering alike.

Every step is checked against the engine's own replay of the table's record (``check_replay``):
one step more than the moves, the last step's result the record's, a seat's view hiding the
other hands exactly as the engine's view does.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from taverntable.records import replay_record
from taverntable.web import replays
from taverntable.web.replays import MAX_UPLOAD

from web_helpers import (
    HTTP,
    Player,
    check_replay,
    create,
    drop_postgres,
    fresh_postgres,
    join,
    play_from_the_start,
    postgres_url,
    records,
    redis_url,
    server_process,
    server_thread,
    sqlite_url,
    start,
    stored_record,
    wait_for_a_person,
    ws_url,
)

# The replays' own client: the shared one keeps the seat cookies its tables set.
CLIENT = httpx2.Client(timeout=30)


def replay(
    base: str,
    table: str,
    deal: int,
    seat: str | None,
    token: str | None = None,
    cookie: bool = False,
) -> Any:
    """The replay endpoint's answer, with a seat's token in its header (or in the table's
    cookie, as the browser sends it)."""
    params = {} if seat is None else {"seat": seat}
    headers = {} if token is None or cookie else {"X-Seat-Token": token}
    CLIENT.cookies.clear()
    if token is not None and cookie:
        CLIENT.cookies.set(f"tt_seat_{table}", token)
    return CLIENT.get(f"{base}/api/replays/{table}/{deal}", params=params, headers=headers)


def last_view(answer: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = {}
    for step in answer["steps"]:
        view.update(step["view"])
    return view


def test_every_finished_deal_replays_from_every_seat_and_open(database: str) -> None:
    """T12: a match of 2 deals of 3 seats; each deal's replay, seen by each seat, by a spectator
    and open, is the engine's replay of its record step by step; the last step's result and the
    score sheet are the record's."""
    with server_thread(database) as base:
        made = create(
            base,
            "tonk",
            [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
            host_seat=0,
            host_name="Anna",
            deals=2,
            stake=3,
        )
        table = made["table"]["id"]
        other = join(base, table, "Bence")
        players = [
            Player(ws_url(base, table, made["token"]), 0, 11, declines=("drop",)),
            Player(ws_url(base, table, other["token"]), 1, 12, declines=("drop",)),
        ]
        asyncio.run(play_from_the_start(players, lambda: start(base, table, made["host_token"])))
        deals = records(base, table)
        assert len(deals) == 2
        answers = {
            (k, eyes): replay(base, table, k, eyes)
            for k in (1, 2)
            for eyes in ("open", "spectator", "0", "1", "2")
        }
        one = HTTP.get(f"{base}/api/tables/{table}/records", params={"deal": 2})
        default = replay(base, table, 1, None, made["token"], cookie=True).json()
        stranger = replay(base, table, 1, None).json()
    assert one.status_code == 200 and [json.loads(one.text)] == [deals[1]]
    assert "attachment" in one.headers["content-disposition"]
    for (k, eyes), answer in answers.items():
        assert answer.status_code == 200, answer.text
        body = answer.json()
        record = deals[k - 1]
        seen = {"open": "open", "spectator": None}.get(eyes, eyes)
        steps = check_replay(body, record, int(seen) if seen not in ("open", None) else seen)
        assert steps == len(record["moves"]) + 1
        assert body["finished"] and body["result"] == record["result"]
        assert last_view(body)["result"] == record["result"]
        # An unnamed bot takes the first of the seeds' characters (taverntable.characters).
        assert body["players"] == ["Anna", "Bence", "Goblin"]
        points = [[x * 3 for x in replay_record(d).state.returns()] for d in deals[:k]]
        assert [row["points"] for row in body["sheet"]] == points
    # Without a seat: the asking seat's eyes (its token), else every hand open (it is over).
    assert default["seen_as"] == "seat" and default["seat"] == 0
    assert stranger["seen_as"] == "open"


@pytest.mark.parametrize("game", ["tonk", "three-towers"])
def test_a_deal_in_play_shows_only_what_the_asking_seat_may_see(database: str, game: str) -> None:
    """A deal in play: never open (409), never another seat's hand (403), a seat's own view
    with its own token, a spectator's without one; its record does not download."""
    with server_thread(database) as base:
        made = create(
            base,
            game,
            [{"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "person"}],
            host_seat=0,
            host_name="Anna",
            absent_seconds=3600,
        )
        table = made["table"]["id"]
        other = join(base, table, "Bence")
        start(base, table, made["host_token"])
        deal = wait_for_a_person(base, table, {0, 2})
        record = stored_record(database, table, deal)
        mine = replay(base, table, deal, "0", made["token"])
        theirs = replay(base, table, deal, "2", other["token"])
        default = replay(base, table, deal, None, made["token"])
        watcher = replay(base, table, deal, None)
        refused = [
            replay(base, table, deal, "open"),
            replay(base, table, deal, "open", made["token"]),
            replay(base, table, deal, "0"),
            replay(base, table, deal, "2", made["token"]),
            replay(base, table, deal, "1", made["token"]),
        ]
        download = HTTP.get(f"{base}/api/tables/{table}/records", params={"deal": deal})
        bad = [
            replay(base, table, deal, "9"),
            replay(base, table, deal, "²"),
            replay(base, table, 99, "0"),
            replay(base, "nosuchtable", 1, "0"),
        ]
    assert [r.status_code for r in refused] == [409, 409, 403, 403, 403]
    assert [r.json()["code"] for r in refused] == ["deal-in-play"] * 2 + ["not-your-seat"] * 3
    assert download.status_code == 409 and download.json()["code"] == "deal-in-play"
    assert [r.status_code for r in bad] == [400, 400, 404, 404]
    assert [r.json()["code"] for r in bad] == ["bad-seat", "bad-seat", "no-deal", "no-table"]
    assert check_replay(mine.json(), record, 0) == len(record["moves"]) + 1
    assert check_replay(theirs.json(), record, 2) > 0
    assert default.json()["seat"] == 0 and check_replay(default.json(), record, 0) > 0
    assert watcher.json()["seen_as"] == "spectator" and check_replay(watcher.json(), record, None)
    for answer in (mine, watcher):
        assert not answer.json()["finished"] and answer.json()["result"] is None


def upload(base: str, body: bytes, **params: Any) -> Any:
    return HTTP.post(f"{base}/api/replays", content=body, params=params)


def test_an_uploaded_record_file_replays_and_a_bad_one_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A JSON Lines file of two records (one the engine rejects at its move 2) plays the good
    one; a bad record, no record, a file too large, a bad seat are refused with the reason; the
    records past the moves the engine checks for the list are checked when chosen."""
    from taverntable.games.tonk import PRESETS, TonkState
    from taverntable.records import dump_record

    state = TonkState.deal(PRESETS["tonk"], 3, rng=5, dealer=0)
    while not state.is_over:  # no drops (T6), so that the deal has many moves
        legal = state.legal_moves()
        state.apply(next((m for m in legal if not str(m).startswith("drop")), legal[0]))
    good = dump_record(state, ["Anna", "Bence", "Csilla"])
    assert len(good["moves"]) > 2
    second = good["moves"][1]
    bad = {**good, "moves": [good["moves"][0], [(second[0] + 1) % 3, second[1]]]}
    lines = (json.dumps(bad) + "\n" + json.dumps(good) + "\n").encode()
    with server_thread(sqlite_url(tmp_path)) as base:
        chosen = upload(base, lines)
        as_seat = upload(base, json.dumps(good).encode(), seat="1")
        refusals = [
            upload(base, lines, record="0"),
            upload(base, b"   \n"),
            upload(base, b"{not json"),
            upload(base, b"x" * (MAX_UPLOAD + 1)),
            upload(base, lines, record="7"),
            upload(base, lines, seat="5"),
        ]
        monkeypatch.setattr(replays, "CHECK_MOVES", len(good["moves"]))
        reversed_lines = (json.dumps(good) + "\n" + json.dumps(bad) + "\n").encode()
        budget = upload(base, reversed_lines)
        late = upload(base, reversed_lines, record="1")
    assert chosen.status_code == 200, chosen.text
    body = chosen.json()
    assert body["chosen"] == 1 and [r["label"] for r in body["records"]] == [
        "upload:1",
        "upload:2",
    ]
    assert "move 2" in body["records"][0]["error"] and "error" not in body["records"][1]
    assert check_replay(body["replay"], good, "open") == len(good["moves"]) + 1
    assert body["replay"]["result"] == good["result"]
    assert check_replay(as_seat.json()["replay"], good, 1) > 0
    assert [r.status_code for r in refusals] == [400, 400, 400, 413, 404, 400]
    codes = [r.json()["code"] for r in refusals]
    assert codes == ["bad-record", "no-record", "bad-record", "too-large", "no-record", "bad-seat"]
    assert refusals[0].json()["error"].startswith("upload:1: move 2")
    assert [(r["checked"], "error" in r) for r in budget.json()["records"]] == [
        (True, False),
        (False, False),
    ]
    assert late.status_code == 400 and late.json()["error"].startswith("upload:2: move 2")


@pytest.fixture
def cluster_db() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL database and the Redis URL (both skipped without servers)."""
    redis = redis_url()
    url = fresh_postgres(postgres_url())
    yield url, redis
    drop_postgres(url)


def test_any_process_of_several_answers_a_replay_alike(
    cluster_db: tuple[str, str],
) -> None:
    """Several processes (PostgreSQL and Redis): tables owned by process A, their replays asked
    of process B; a finished deal open, a deal in play only as the token's seat (the database,
    not the owner's memory, decides)."""
    database, redis = cluster_db
    with server_process(database, redis=redis) as a, server_process(database, redis=redis) as b:
        base_a, base_b = a.base, b.base  # type: ignore[attr-defined]
        bots = create(base_a, "tonk", [{"kind": "bot", "level": "medium"}] * 3, deals=1)
        done = bots["table"]["id"]
        start(base_a, done, bots["host_token"])
        playing = create(
            base_a,
            "three-towers",
            [{"kind": "person"}, {"kind": "bot", "level": "easy"}],
            host_seat=0,
            host_name="Anna",
            absent_seconds=3600,
        )
        table = playing["table"]["id"]
        start(base_a, table, playing["host_token"])
        deadline = time.monotonic() + 30
        while HTTP.get(f"{base_b}/api/tables/{done}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        (record,) = records(base_b, done)
        opened = replay(base_b, done, 1, "open")
        deal = wait_for_a_person(base_a, table, {0})  # the owner knows whose turn it is
        in_play = stored_record(database, table, deal)
        mine = replay(base_b, table, deal, "0", playing["token"])
        refused = [replay(base_b, table, deal, "open"), replay(base_b, table, deal, "0")]
    assert check_replay(opened.json(), record, "open") == len(record["moves"]) + 1
    assert check_replay(mine.json(), in_play, 0) == len(in_play["moves"]) + 1
    assert [r.status_code for r in refused] == [409, 403]
