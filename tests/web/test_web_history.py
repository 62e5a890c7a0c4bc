"""A person's matches and ratings at the server (issue 25, items 2, 4, 5, 6): a rated Tonk match
of two signed-in people and a bot rates both from the final standings as ``taverntable.ratings``
says (openskill's Plackett–Luce, the bot a fixed landmark), the table's summary says who won and
each rating change, My games lists it newest first a page at a time, the leaderboard and the
profiles show them; a rated table keeps its rules (the preset's, signed-in people only). Each
test runs on SQLite and on PostgreSQL; one plays the rated match across two server processes
(PostgreSQL and Redis) and reads it back from both."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import sqlalchemy
from sqlalchemy.ext.asyncio import create_async_engine
from test_web_accounts import browser, query, sign_up

from taverntable.ratings import (
    Entrant,
    beside_bots,
    bot_rating,
    display,
    new_player,
    places,
    rate_match,
)

from web_helpers import (
    Player,
    drop_postgres,
    fresh_postgres,
    play_from_the_start,
    postgres_url,
    redis_url,
    server_process,
    server_thread,
    sqlite_url,
    ws_url,
)

BOT = {"kind": "bot", "level": "easy"}
TWO_AND_A_BOT = [{"kind": "person"}, {"kind": "person"}, BOT]


@pytest.fixture
def base(database: str) -> Iterator[str]:
    with server_thread(database) as url:
        yield url


def rated_table(host: httpx2.Client, deals: int = 1, **extra: Any) -> dict[str, Any]:
    body = {
        "game": "tonk",
        "seats": TWO_AND_A_BOT,
        "host_seat": 0,
        "deals": deals,
        "rated": True,
        "absent_seconds": 3600,
    }
    response = host.post("/api/tables", json=body | extra)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


Played = tuple[httpx2.Client, httpx2.Client, dict[str, Any], str]


def play_rated_match(base: str, made_by: list[dict[str, Any]] | None = None) -> Played:
    """Anna and Bence, signed in, play a rated one-deal Tonk match with an easy bot (random
    legal moves); returns their browsers, the final summary and the table's id (and puts the
    table's creation answer and Bence's join answer in ``made_by``)."""
    anna, bence = browser(base), browser(base)
    sign_up(anna, "Anna")
    sign_up(bence, "Bence")
    made = rated_table(anna)
    table = made["table"]["id"]
    joined = bence.post(f"/api/tables/{table}/join", json={"name": "whoever"}).json()
    assert joined["table"]["seats"][1]["name"] == "Bence"  # the account's name
    players = [
        Player(ws_url(base, table, made["token"]), 0, 1),
        Player(ws_url(base, table, joined["token"]), 1, 2),
    ]

    def begin() -> None:
        started = anna.post(
            f"/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]}
        )
        assert started.status_code == 200, started.text

    asyncio.run(play_from_the_start(players, begin))
    summary = rated_end(anna, table)
    if made_by is not None:
        made_by += [made, joined]
    return anna, bence, summary, table


def query_write(url: str, sql: str) -> None:
    async def run() -> None:
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.execute(sqlalchemy.text(sql))
        await engine.dispose()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


def rated_end(client: httpx2.Client, table: str) -> dict[str, Any]:
    """The table's summary once its match is over and rated: everyone is told who won first,
    the ratings follow a moment later in a second summary."""
    deadline = time.monotonic() + 30
    while True:
        summary: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        standings = summary.get("standings") or []
        if summary["status"] == "finished" and all(s["rating_after"] for s in standings):
            return summary
        assert time.monotonic() < deadline, summary
        time.sleep(0.02)


def expected_ratings(balances: list[float]) -> list[int]:
    """What the ladder says the match does: new players at 1500, the easy bot fixed."""
    placed = places(balances)
    entrants = [
        Entrant(new_player(), placed[0]),
        Entrant(new_player(), placed[1]),
        Entrant(bot_rating("tonk", "easy"), placed[2], fixed=True),
    ]
    return [display(s) for s in rate_match(entrants)]


def test_a_rated_match_rates_both_people_from_the_final_standings(database: str, base: str) -> None:
    anna, bence, summary, table = play_rated_match(base)
    balances = summary["balances"]
    standings = summary["standings"]
    # Best first; places from the totals (ties share), as the score sheet reads.
    assert [s["place"] for s in standings] == sorted(places(balances))
    by_seat = {s["seat"]: s for s in standings}
    want = expected_ratings(balances)
    for seat in (0, 1):
        assert by_seat[seat]["total"] == balances[seat]
        assert by_seat[seat]["rating_before"] == 1500
        assert by_seat[seat]["rating_after"] == want[seat]
        assert by_seat[seat]["provisional"] is True
    bot = display(bot_rating("tonk", "easy"))
    assert by_seat[2]["rating_before"] == by_seat[2]["rating_after"] == bot  # never moves
    # The winner gains against the loser it beat.
    if places(balances)[0] < places(balances)[1]:
        assert want[0] > want[1]
    # Stored: one row per person and game, and each person's match in My games.
    stored = sorted(query(database, "SELECT game, matches, wins FROM ratings"))
    wins = [1 if places(balances)[s] == 1 else 0 for s in (0, 1)]
    assert sorted(r[2] for r in stored) == sorted(wins) and {r[0] for r in stored} == {"tonk"}
    for client, seat in ((anna, 0), (bence, 1)):
        (entry,) = client.get("/api/account/games").json()["items"]
        assert (entry["table"], entry["seat"], entry["rated"]) == (table, seat, True)
        assert (entry["rating_before"], entry["rating_after"]) == (1500, want[seat])
        assert entry["place"] == places(balances)[seat] and entry["deals"] == [1]
    # The leaderboard: both, best first, the asker's own row, the bots' landmarks.
    board = bence.get("/api/ladder/tonk").json()
    assert [r["rating"] for r in board["top"]] == sorted(want[:2], reverse=True)
    assert board["you"]["name"] == "Bence" and board["you"]["rating"] == want[1]
    assert [b["level"] for b in board["bots"]] == ["easy", "medium", "hard"]
    assert board["bots"][1]["rating"] == 1500
    # A profile anyone may read: the rating, its course, played and won.
    profile = httpx2.get(f"{base}/api/players/{board['you']['account']}").json()
    assert profile["name"] == "Bence" and profile["played"] == 1 and profile["won"] == wins[1]
    (rating,) = profile["ratings"]
    assert rating["rating"] == want[1]
    # Beside the bots' places on the same ladder (the easy bot's, medium's, hard's in tonk).
    bots = {b["level"]: b["rating"] for b in board["bots"]}
    assert bots == {lv: display(bot_rating("tonk", lv)) for lv in ("easy", "medium", "hard")}
    relation, level = beside_bots(want[1], bots)
    assert rating["bots"] == {"relation": relation, "level": level}
    # Its course from where Bence started (a newcomer's 1500) to where he stands.
    assert [p["rating"] for p in rating["history"]] == [1500, want[1]]
    assert [m["table"] for m in profile["recent"]] == [table]


def test_a_rematch_rates_again_from_where_the_ratings_stand(base: str) -> None:
    made_by: list[dict[str, Any]] = []
    anna, bence, first, table = play_rated_match(base, made_by)
    made, joined = made_by
    rematch = anna.post(
        f"/api/tables/{table}/rematch", headers={"X-Host-Token": made["host_token"]}
    )
    assert rematch.status_code == 200 and "standings" not in rematch.json()
    players = [
        Player(ws_url(base, table, made["token"]), 0, 3),
        Player(ws_url(base, table, joined["token"]), 1, 4),
    ]

    async def play() -> None:
        await asyncio.gather(*(p.run() for p in players))

    asyncio.run(play())
    second = rated_end(anna, table)
    before = {s["seat"]: s["rating_after"] for s in first["standings"]}
    now = {s["seat"]: s for s in second["standings"]}
    for seat in (0, 1):
        assert now[seat]["rating_before"] == before[seat]
    games = anna.get("/api/account/games").json()["items"]
    assert [(g["table"], g["match"]) for g in games] == [(table, 2), (table, 1)]
    assert games[0]["rating_before"] == games[1]["rating_after"]
    board = bence.get("/api/ladder/tonk").json()
    assert {r["name"]: r["matches"] for r in board["top"]} == {"Anna": 2, "Bence": 2}


def test_a_rated_table_keeps_the_presets_rules_and_seats_signed_in_people(base: str) -> None:
    guest, anna = browser(base), browser(base)
    sign_up(anna, "Anna")
    body = {"game": "tonk", "seats": TWO_AND_A_BOT, "host_seat": 0, "rated": True}
    refused = guest.post("/api/tables", json=body)
    assert (refused.status_code, refused.json()["code"]) == (403, "sign-in")
    changed = anna.post("/api/tables", json=body | {"options": {"hit_lock": True}})
    assert (changed.status_code, changed.json()["code"]) == (400, "rated-rules")
    same = anna.post("/api/tables", json=body | {"options": {"hit_lock": False}})
    assert same.status_code == 201  # the preset's own value is the preset's rules
    made = rated_table(anna)
    table = made["table"]["id"]
    assert made["table"]["settings"]["rated"] is True
    seat = guest.post(f"/api/tables/{table}/join", json={"name": "Guest"})
    assert (seat.status_code, seat.json()["code"]) == (403, "sign-in")
    early = anna.post(f"/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]})
    assert (early.status_code, early.json()["code"]) == (409, "rated-seats-open")
    assert anna.get(f"/api/tables/{table}").json()["status"] == "lobby"


def test_an_unrated_match_of_signed_in_people_is_in_their_history_without_ratings(
    database: str, base: str
) -> None:
    anna = browser(base)
    sign_up(anna, "Anna")
    made = anna.post(
        "/api/tables",
        json={
            "game": "tor",
            "seats": [{"kind": "person"}, BOT],
            "host_seat": 0,
            "deals": 2,
            "absent_seconds": 0,
        },
    ).json()
    table = made["table"]["id"]
    anna.post(f"/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]})
    running = anna.get("/api/account/games").json()["items"]
    # Listed from its start (a person away from the first move is played for at once, so on a
    # busy machine the two deals may already be over).
    assert [(g["game"], g["preset"]) for g in running] == [("tor", "tor")]
    assert running[0]["status"] in ("playing", "finished")
    deadline = time.monotonic() + 60
    while (summary := anna.get(f"/api/tables/{table}").json())["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # Everyone is told the match is over first; the history's row follows a moment later
    # (History.match_finished), as a rated match's ratings do.
    while (entry := anna.get("/api/account/games").json()["items"][0])["status"] != "finished":
        assert time.monotonic() < deadline, entry
        time.sleep(0.05)
    assert len(anna.get("/api/account/games").json()["items"]) == 1
    assert entry["rating_after"] is None
    assert entry["deals"] == [1, 2] and entry["total"] == summary["balances"][0]
    assert all(s["rating_before"] is None for s in summary["standings"])
    assert query(database, "SELECT * FROM ratings") == []
    assert anna.get("/api/ladder/tor").json()["top"] == []


def test_my_games_pages_newest_first(database: str, base: str) -> None:
    anna = browser(base)
    me = sign_up(anna, "Anna")
    sql = (
        "INSERT INTO plays (account_id, table_id, match, seat, game, preset, rated, started, "
        "status) VALUES "
        + ", ".join(
            f"('{me['id']}', 't{k:03d}', 1, 0, 'tonk', 'tonk', false, {1000.0 + k}, 'finished')"
            for k in range(45)
        )
    )
    query_write(database, sql)
    pages = [anna.get(f"/api/account/games?page={p}").json() for p in (1, 2, 3)]
    tables = [[g["table"] for g in page["items"]] for page in pages]
    assert tables[0] == [f"t{k:03d}" for k in range(44, 24, -1)]
    assert tables[2] == [f"t{k:03d}" for k in range(4, -1, -1)]
    assert [page["more"] for page in pages] == [True, True, False]
    assert sum(map(len, tables)) == 45
    assert anna.get("/api/account/games?size=101").status_code == 422
    assert anna.get("/api/account/games?page=0").status_code == 422


def test_a_finished_rated_match_says_its_rating_changes_after_a_restart(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path)
    with server_thread(database) as base:
        _, _, summary, table = play_rated_match(base)
    with server_thread(database) as base:
        again = httpx2.get(f"{base}/api/tables/{table}").json()
    assert again["standings"] == summary["standings"]


def test_the_ladder_of_an_unknown_game_is_404_and_a_profile_of_nobody_too(base: str) -> None:
    assert httpx2.get(f"{base}/api/ladder/chess").json()["code"] == "no-game"
    assert httpx2.get(f"{base}/api/players/nobody").json()["code"] == "no-player"


def test_a_match_whose_results_were_not_written_is_rated_when_the_server_starts(
    tmp_path: Path,
) -> None:
    """The server stopped between telling everyone who won and writing the results (here: the
    rows put back as they were before that write): its next start writes them, the same."""
    database = sqlite_url(tmp_path)
    with server_thread(database) as base:
        anna, _, summary, table = play_rated_match(base)
        written = anna.get("/api/account/games").json()["items"]
    query_write(database, "UPDATE plays SET status = 'playing', place = NULL, total = NULL")
    query_write(database, "DELETE FROM ratings")
    with server_thread(database) as base:
        again = httpx2.get(f"{base}/api/tables/{table}").json()
        anna.base_url = httpx2.URL(base)
        assert anna.get("/api/account/games").json()["items"] == written
    assert again["standings"] == summary["standings"]
    assert len(query(database, "SELECT * FROM ratings")) == 2


def test_a_rated_match_across_two_processes_is_rated_once_and_read_alike_on_both() -> None:
    """Anna signs up and makes the rated table on process A; Bence signs up, joins and plays
    on process B (the table's owner is A). The match is rated once, as the ladder says, and My
    games, the leaderboard and the profiles answer the same from either process."""
    redis = redis_url()
    database = fresh_postgres(postgres_url())
    try:
        with server_process(database, redis=redis) as a, server_process(database, redis=redis) as b:
            base_a, base_b = a.base, b.base  # type: ignore[attr-defined]
            anna, bence = browser(base_a), browser(base_b)
            sign_up(anna, "Anna")
            sign_up(bence, "Bence")
            made = rated_table(anna)
            table = made["table"]["id"]
            joined = bence.post(f"/api/tables/{table}/join", json={"name": "x"}).json()
            assert joined["table"]["seats"][1]["name"] == "Bence"
            players = [
                Player(ws_url(base_a, table, made["token"]), 0, 1),
                Player(ws_url(base_b, table, joined["token"]), 1, 2),
            ]

            def begin() -> None:
                started = bence.post(  # forwarded by B to A, the owner
                    f"/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]}
                )
                assert started.status_code == 200, started.text

            asyncio.run(play_from_the_start(players, begin))
            summary = rated_end(bence, table)
            balances = summary["balances"]
            want = expected_ratings(balances)
            by_seat = {s["seat"]: s for s in summary["standings"]}
            assert [by_seat[k]["rating_after"] for k in (0, 1)] == want[:2]
            ids = {}
            for client, seat, base in ((anna, 0, base_b), (bence, 1, base_a)):
                # The same person's session on the other process: the same history.
                other = browser(base)
                other.cookies.set("tt_session", client.cookies["tt_session"])
                mine = client.get("/api/account/games").json()
                assert other.get("/api/account/games").json() == mine
                (entry,) = mine["items"]
                assert (entry["table"], entry["seat"], entry["rated"]) == (table, seat, True)
                assert (entry["rating_before"], entry["rating_after"]) == (1500, want[seat])
                ids[seat] = other.get("/api/account").json()["id"]
            boards = [browser(x).get("/api/ladder/tonk").json() for x in (base_a, base_b)]
            assert boards[0] == boards[1]
            assert {r["name"]: r["matches"] for r in boards[0]["top"]} == {"Anna": 1, "Bence": 1}
            for seat, account in ids.items():
                profiles = [
                    browser(x).get(f"/api/players/{account}").json() for x in (base_a, base_b)
                ]
                assert profiles[0] == profiles[1]
                (rating,) = profiles[0]["ratings"]
                assert rating["rating"] == want[seat] and rating["matches"] == 1
            # Rated once: one row per person and game, one match each.
            stored = sorted(query(database, "SELECT matches FROM ratings"))
            assert stored == [(1,), (1,)]
    finally:
        drop_postgres(database)
