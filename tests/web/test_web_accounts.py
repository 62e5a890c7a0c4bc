"""Accounts (issue 25, item 1): signing up, in and out, the password, deleting the account, and
the guest who signs up keeping what they played; every bad name and password refused with its
code, sign-in throttled, the hash argon2id and never shown, private data 401 without a session.
Each test runs on SQLite and on PostgreSQL; the last ones across two server processes (the
sign-in throttle's count shared through Redis)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
import redis.asyncio as aioredis
import sqlalchemy
from sqlalchemy.ext.asyncio import create_async_engine

from taverntable.records import replay_record
from taverntable.web.credentials import common_passwords, name_key
from taverntable.web.throttle import PREFIX, LocalSignIns, RedisSignIns, Throttle

from web_helpers import (
    drop_postgres,
    fresh_postgres,
    postgres_url,
    redis_url,
    server_process,
    server_thread,
)

GOOD = "a tavern of cards"
BOT = {"kind": "bot", "level": "easy"}


@pytest.fixture
def base(database: str) -> Iterator[str]:
    with server_thread(database) as url:
        yield url


def browser(base: str) -> httpx2.Client:
    """One person's browser: its own cookies."""
    return httpx2.Client(base_url=base, timeout=30)


def sign_up(client: httpx2.Client, name: str, password: str = GOOD) -> dict[str, Any]:
    response = client.post("/api/account/signup", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def query(url: str, sql: str) -> list[Any]:
    """Rows of ``sql`` read straight from the server's database."""

    async def run() -> list[Any]:
        engine = create_async_engine(url)
        async with engine.connect() as conn:
            rows = list((await conn.execute(sqlalchemy.text(sql))).all())
        await engine.dispose()
        return rows

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def finished_match(client: httpx2.Client, seats: list[dict[str, Any]], **extra: Any) -> str:
    """A table made by ``client`` (sitting at seat 0), played out by bots (the person is away
    from the start: ``absent_seconds`` 0); its id once the match is over."""
    made = client.post(
        "/api/tables",
        json={"game": "tonk", "seats": seats, "host_seat": 0, "deals": 1, "absent_seconds": 0}
        | extra,
    )
    assert made.status_code == 201, made.text
    table = made.json()["table"]["id"]
    started = client.post(
        f"/api/tables/{table}/start", headers={"X-Host-Token": made.json()["host_token"]}
    )
    assert started.status_code == 200, started.text
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.05)
    return str(table)


def test_sign_up_keeps_an_argon2id_hash_and_the_session_cookie_is_httponly_lax(
    database: str, base: str
) -> None:
    anna = browser(base)
    response = anna.post("/api/account/signup", json={"name": "Anna", "password": GOOD})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("tt_session=") and "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower() and "Secure" not in cookie  # plain http here
    assert anna.get("/api/account").json()["name"] == "Anna"
    ((stored,),) = query(database, "SELECT password_hash FROM accounts")
    # RFC 9106's argon2id, its parameters and salt in the string (PHC format).
    assert stored.startswith("$argon2id$v=19$m=") and GOOD not in stored
    # The session is kept as a digest: the cookie's token is not in the database.
    token = anna.cookies["tt_session"]
    ((kept,),) = query(database, "SELECT token_hash FROM sessions")
    assert len(kept) == 64 and kept != token


def test_the_eleventh_wrong_password_in_a_minute_is_throttled(base: str) -> None:
    sign_up(browser(base), "Anna")
    bence = browser(base)
    answers = [
        bence.post("/api/account/signin", json={"name": "Anna", "password": f"wrong {k}"})
        for k in range(11)
    ]
    assert [a.status_code for a in answers] == [401] * 10 + [429]
    assert answers[-1].json()["code"] == "throttled"
    # While throttled, even the right password is not checked.
    right = bence.post("/api/account/signin", json={"name": "Anna", "password": GOOD})
    assert right.status_code == 429


def test_the_throttle_counts_per_key_and_forgets_after_a_minute() -> None:
    throttle = Throttle(limit=10, window=60)
    for k in range(10):
        assert not throttle.blocked(["name:anna", "address:1"], now=float(k))
        throttle.failed(["name:anna", "address:1"], now=float(k))
    assert throttle.blocked(["name:anna"], now=10.0)
    assert throttle.blocked(["name:bence", "address:1"], now=10.0)  # the same address
    assert not throttle.blocked(["name:bence", "address:2"], now=10.0)
    assert not throttle.blocked(["name:anna", "address:1"], now=60.5)  # the first aged out


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(base: str) -> None:
    sign_up(browser(base), "Anna")
    other = browser(base)
    wrong = other.post("/api/account/signin", json={"name": "Anna", "password": "not it at all"})
    unknown = other.post("/api/account/signin", json={"name": "Nobody", "password": GOOD})
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {
            "error": "that name and password do not match",
            "code": "bad-credentials",
        }
    )
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers


@pytest.mark.parametrize(
    ("name", "status", "code"),
    [
        ("", 400, "name-bad"),
        ("a", 400, "name-too-short"),
        ("x" * 33, 400, "name-too-long"),
        ("An\tna", 400, "name-bad"),
        # look-alikes of "Anna": case, spaces, an accent, an invisible space, Cyrillic А
        ("ANNA", 409, "name-taken"),
        ("  an na ", 409, "name-taken"),
        ("Ánna", 409, "name-taken"),
        ("An\u200bna", 400, "name-bad"),  # a format character (issue 24 item 5)
        ("\u0410nna", 409, "name-taken"),
    ],
)
def test_a_name_that_cannot_be_an_accounts_is_refused_with_its_code(
    base: str, name: str, status: int, code: str
) -> None:
    sign_up(browser(base), "Anna")
    response = browser(base).post("/api/account/signup", json={"name": name, "password": GOOD})
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert "set-cookie" not in response.headers


def test_name_keys_fold_what_looks_alike_and_keep_what_does_not() -> None:
    assert name_key("Аnna") == name_key("anna") == name_key("ANNA") == name_key("Ánna")
    assert name_key("B0b") == name_key("bob")
    assert name_key("Anna") != name_key("Anne")
    assert name_key("Сергей") == name_key("сергей")


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("short", "password-too-short"),
        ("x" * 129, "password-too-long"),
        ("password123", "password-common"),
        ("PassWord123", "password-common"),  # the list is compared case folded
        ("qwertyuiop", "password-common"),
        ("bence BENCE", "password-is-name"),
    ],
)
def test_a_password_too_short_too_long_common_or_the_name_is_refused(
    base: str, password: str, code: str
) -> None:
    response = browser(base).post(
        "/api/account/signup", json={"name": "Bence Bence", "password": password}
    )
    assert (response.status_code, response.json()["code"]) == (400, code)


def test_the_shipped_list_holds_the_most_common_passwords() -> None:
    common = common_passwords()
    assert {"password", "12345678", "qwertyuiop", "iloveyou"} <= common and len(common) > 100


def test_private_data_without_a_session_is_401(base: str) -> None:
    guest = browser(base)
    for method, path, body in [
        ("GET", "/api/account", None),
        ("GET", "/api/account/games", None),
        ("POST", "/api/account/password", {"old": GOOD, "new": "another good one"}),
        ("POST", "/api/account/delete", {"password": GOOD}),
    ]:
        response = guest.request(method, path, json=body)
        assert (response.status_code, response.json()["code"]) == (401, "signed-out"), path
    forged = browser(base)
    forged.cookies.set("tt_session", "made-up-token")
    assert forged.get("/api/account/games").status_code == 401


def test_signing_out_ends_the_session_for_good(base: str) -> None:
    anna = browser(base)
    sign_up(anna, "Anna")
    token = anna.cookies["tt_session"]
    assert anna.post("/api/account/signout").status_code == 204
    assert anna.get("/api/account").status_code == 401
    replayed = browser(base)
    replayed.cookies.set("tt_session", token)
    assert replayed.get("/api/account").status_code == 401  # the token itself is gone


def test_a_new_password_signs_the_other_browsers_out(base: str) -> None:
    phone, laptop = browser(base), browser(base)
    sign_up(phone, "Anna")
    assert (
        laptop.post("/api/account/signin", json={"name": "anna", "password": GOOD}).status_code
        == 200
    )
    wrong = phone.post("/api/account/password", json={"old": "not mine!", "new": "fresh cards"})
    assert (wrong.status_code, wrong.json()["code"]) == (403, "bad-credentials")
    common = phone.post("/api/account/password", json={"old": GOOD, "new": "password123"})
    assert common.json()["code"] == "password-common"
    done = phone.post("/api/account/password", json={"old": GOOD, "new": "fresh cards"})
    assert done.status_code == 204
    assert phone.get("/api/account").status_code == 200
    assert laptop.get("/api/account").status_code == 401
    again = browser(base)
    old = again.post("/api/account/signin", json={"name": "Anna", "password": GOOD})
    assert old.status_code == 401
    new = again.post("/api/account/signin", json={"name": "Anna", "password": "fresh cards"})
    assert new.status_code == 200


def test_a_guest_who_signs_up_keeps_what_they_played_in_that_browser(base: str) -> None:
    guest = browser(base)
    table = finished_match(guest, [{"kind": "person"}, BOT])
    assert guest.cookies[f"tt_seat_{table}"]  # the seat's cookie, kept by the browser
    me = sign_up(guest, "Csilla")
    games = guest.get("/api/account/games").json()
    assert [(g["table"], g["status"], g["seat"]) for g in games["items"]] == [
        (table, "finished", 0)
    ]
    entry = games["items"][0]
    summary = guest.get(f"/api/tables/{table}").json()
    assert entry["total"] == summary["balances"][0]
    assert entry["place"] == (1 if summary["balances"][0] >= summary["balances"][1] else 2)
    assert entry["rating_before"] is None  # a guest's match is not rated
    assert entry["seats"][0]["account"] == me["id"]
    # Signing in elsewhere, the same history.
    other = browser(base)
    other.post("/api/account/signin", json={"name": "Csilla", "password": GOOD})
    assert other.get("/api/account/games").json()["items"] == games["items"]


def test_a_deleted_account_stays_in_the_others_histories_as_a_deleted_player(
    base: str,
) -> None:
    anna, bence = browser(base), browser(base)
    sign_up(anna, "Anna")
    gone = sign_up(bence, "Bence")
    made = anna.post(
        "/api/tables",
        json={
            "game": "tonk",
            "seats": [{"kind": "person"}, {"kind": "person"}, BOT],
            "host_seat": 0,
            "deals": 1,
            "absent_seconds": 0,
        },
    ).json()
    table = made["table"]["id"]
    assert bence.post(f"/api/tables/{table}/join", json={"name": "ignored"}).json()["seat"] == 1
    anna.post(f"/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]})
    deadline = time.monotonic() + 60
    while anna.get(f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    wrong = bence.post("/api/account/delete", json={"password": "not mine!"})
    assert wrong.status_code == 403
    assert bence.post("/api/account/delete", json={"password": GOOD}).status_code == 204
    assert bence.get("/api/account").status_code == 401
    seats = anna.get("/api/account/games").json()["items"][0]["seats"]
    assert seats[1] == {
        "seat": 1,
        "name": "deleted player",
        "kind": "person",
        "level": None,
        "account": None,
        "deleted": True,
    }
    assert anna.get(f"/api/players/{gone['id']}").status_code == 404
    text = anna.get(f"/api/tables/{table}/records?deal=1").text
    assert replay_record(json.loads(text)).state.is_over  # still replayable
    signin = browser(base).post("/api/account/signin", json={"name": "Bence", "password": GOOD})
    assert signin.status_code == 401
    sign_up(browser(base), "Bence")  # the name is free again


def test_no_answer_shows_a_hash_or_a_session(database: str, base: str) -> None:
    anna, bence = browser(base), browser(base)
    me = sign_up(anna, "Anna")
    sign_up(bence, "Bence")
    table = finished_match(anna, [{"kind": "person"}, BOT])
    secrets = [anna.cookies["tt_session"], bence.cookies["tt_session"]]
    secrets += [row[0] for row in query(database, "SELECT password_hash FROM accounts")]
    secrets += [row[0] for row in query(database, "SELECT token_hash FROM sessions")]
    answers = [
        anna.get("/api/account"),
        anna.get("/api/account/games"),
        bence.get(f"/api/players/{me['id']}"),
        bence.get("/api/ladder/tonk"),
        bence.get(f"/api/tables/{table}"),
        bence.get("/api/tables"),
        bence.get(f"/api/tables/{table}/records"),
    ]
    for answer in answers:
        assert answer.status_code == 200, answer.url
        for secret in secrets:
            assert secret not in answer.text, answer.url
        assert "argon2" not in answer.text and "password" not in answer.text


def test_a_person_signed_in_on_one_process_is_signed_in_on_all() -> None:
    redis = redis_url()
    database = fresh_postgres(postgres_url())
    try:
        with server_process(database, redis=redis) as a, server_process(database, redis=redis) as b:
            anna = browser(a.base)  # type: ignore[attr-defined]
            sign_up(anna, "Anna")
            token = anna.cookies["tt_session"]
            elsewhere = browser(b.base)  # type: ignore[attr-defined]
            elsewhere.cookies.set("tt_session", token)
            on_b = elsewhere.get("/api/account")
            assert on_b.status_code == 200 and on_b.json()["name"] == "Anna"
            anna.post("/api/account/signout")
            assert elsewhere.get("/api/account").status_code == 401
    finally:
        drop_postgres(database)


def forget_signins(url: str) -> None:
    """No wrong password counted in the test's Redis database (an earlier run's, from the same
    address, would still be within its minute)."""

    async def run() -> None:
        redis = aioredis.from_url(url)
        keys = [k async for k in redis.scan_iter(f"{PREFIX}*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()

    asyncio.run(run())


def test_the_eleventh_wrong_password_in_a_minute_is_throttled_across_two_processes() -> None:
    """The attempts go to two processes in turn: the count is the cluster's (Redis), not each
    process's, so the 11th is refused, and the right password is then refused on both."""
    redis = redis_url()
    forget_signins(redis)
    database = fresh_postgres(postgres_url())
    try:
        with server_process(database, redis=redis) as a, server_process(database, redis=redis) as b:
            bases = [a.base, b.base]  # type: ignore[attr-defined]
            sign_up(browser(bases[0]), "Anna")
            guessers = [browser(base) for base in bases]
            answers = [
                guessers[k % 2].post(
                    "/api/account/signin", json={"name": "ANNA", "password": f"wrong {k}"}
                )
                for k in range(11)
            ]
            assert [x.status_code for x in answers] == [401] * 10 + [429]
            assert answers[-1].json()["code"] == "throttled"
            for guesser in guessers:
                right = guesser.post("/api/account/signin", json={"name": "Anna", "password": GOOD})
                assert right.status_code == 429, right.text
    finally:
        drop_postgres(database)
        forget_signins(redis)


def test_the_shared_count_forgets_after_a_minute_and_expires_in_redis() -> None:
    url = redis_url()
    forget_signins(url)

    async def run() -> None:
        redis = aioredis.from_url(url, decode_responses=True)
        signins = RedisSignIns(redis, limit=10, window=60)
        keys = ["name:anna", "address:10.0.0.1"]
        for k in range(10):
            assert not await signins.blocked(keys, now=1000.0 + k)
            await signins.failed(keys, now=1000.0 + k)
        assert await signins.blocked(["name:anna"], now=1010.0)
        assert await signins.blocked(["name:bence", "address:10.0.0.1"], now=1010.0)
        assert not await signins.blocked(["name:bence", "address:10.0.0.2"], now=1010.0)
        assert not await signins.blocked(keys, now=1060.5)  # the first aged out
        stored = [k async for k in redis.scan_iter(f"{PREFIX}*")]
        assert len(stored) == 2  # digests of the keys: no name or address in Redis's keys
        assert all("anna" not in k and "10.0.0.1" not in k for k in stored)
        for key in stored:
            assert 0 < await redis.ttl(key) <= 61
        await redis.aclose()

    try:
        asyncio.run(run())
    finally:
        forget_signins(url)


def test_with_redis_away_a_process_throttles_in_its_own_memory() -> None:
    """A Redis that does not answer (nothing listens on the port): the count goes on in the
    process, and the 11th wrong password is refused all the same."""

    async def run() -> None:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]  # closed again: nothing listens there
        redis = aioredis.from_url(f"redis://127.0.0.1:{port}/0", socket_connect_timeout=1)
        signins = RedisSignIns(redis, fallback=LocalSignIns(limit=10))
        keys = ["name:anna", "address:10.0.0.1"]
        for _ in range(10):
            assert not await signins.blocked(keys)
            await signins.failed(keys)
        assert await signins.blocked(keys)
        await redis.aclose()

    asyncio.run(run())
