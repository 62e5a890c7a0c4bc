"""Only the server's own pages (and the allowed origins) may use the WebSocket or change
anything (issue 24, item 2): a page on another port of the same host is same-site, so the seat's
``SameSite=Strict`` cookie goes with its WebSocket, and before the Origin check it was seated,
read the hand and played for the victim."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from taverntable.cli import main
from taverntable.web.app import create_app
from taverntable.web.origins import ALLOW_ORIGINS_ENV, BadOrigin, OriginPolicy, normal_origin

from web_helpers import QUICK, sqlite_url

THREE = [{"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
# TestClient's requests go to http://testserver: that is the server's own origin.
OWN = "http://testserver"
FOREIGN = ["http://evil.example", "http://testserver:8001", "https://testserver", "null"]


def app_client(tmp_path: Path, **options: Any) -> TestClient:
    return TestClient(create_app(sqlite_url(tmp_path), QUICK, **options))


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.delenv(ALLOW_ORIGINS_ENV, raising=False)
    with app_client(tmp_path) as c:
        yield c


def new_table(client: TestClient) -> dict[str, Any]:
    """A table whose creator's seat cookie the client now holds (as the victim's browser)."""
    body = {"game": "tonk", "seats": THREE, "host_seat": 0, "host_name": "Anna"}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    assert client.cookies.get(f"tt_seat_{made.json()['table']['id']}")
    result: dict[str, Any] = made.json()
    return result


def refused_socket(client: TestClient, table: str, origin: str) -> None:
    with client.websocket_connect(f"/ws/{table}", headers={"Origin": origin}) as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "foreign-origin", message
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


@pytest.mark.parametrize("origin", FOREIGN)
def test_a_foreign_pages_websocket_is_refused_even_with_the_seats_cookie(
    client: TestClient, origin: str
) -> None:
    table = new_table(client)["table"]["id"]
    refused_socket(client, table, origin)


def test_the_servers_own_page_and_a_plain_client_are_seated(client: TestClient) -> None:
    table = new_table(client)["table"]["id"]
    for headers in ({"Origin": OWN}, {"Origin": OWN + ":80"}, {}):
        with client.websocket_connect(f"/ws/{table}", headers=headers) as ws:
            hello = ws.receive_json()
            assert hello["type"] == "hello" and hello["you"]["seat"] == 0, (headers, hello)


def test_an_allowed_origin_is_seated_and_others_still_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ALLOW_ORIGINS_ENV, "https://cards.example, http://10.0.0.5:8080")
    with app_client(tmp_path, allow_origins=["https://Tavern.example:443/"]) as client:
        table = new_table(client)["table"]["id"]
        for origin in ("https://tavern.example", "https://cards.example", "http://10.0.0.5:8080"):
            with client.websocket_connect(f"/ws/{table}", headers={"Origin": origin}) as ws:
                assert ws.receive_json()["you"]["seat"] == 0, origin
            joined = client.post(
                f"/api/tables/{table}/join", json={"name": "Bea"}, headers={"Origin": origin}
            )
            assert joined.status_code == 409, origin  # past the guard: the seats are taken
        refused_socket(client, table, "http://cards.example")
        refused_socket(client, table, "http://10.0.0.5:8081")


def test_a_cross_site_form_post_creates_nothing(client: TestClient) -> None:
    form = {"game": "tonk", "seats": "x"}
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "http://testserver:8001"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": OWN, "Sec-Fetch-Site": "cross-site"},
    ):
        posted = client.post("/api/tables", data=form, headers=headers)
        assert posted.status_code == 403, (headers, posted.text)
        assert posted.json()["code"] == "foreign-origin"
        as_json = client.post("/api/tables", json={"game": "tonk", "seats": THREE}, headers=headers)
        assert as_json.status_code == 403
    assert client.get("/api/tables").json() == []
    made = new_table(client)
    table = made["table"]["id"]
    start = client.post(
        f"/api/tables/{table}/start",
        headers={"X-Host-Token": made["host_token"], "Origin": "http://evil.example"},
    )
    assert start.status_code == 403
    assert client.get(f"/api/tables/{table}").json()["status"] == "lobby"
    # Reading is not changing: a foreign page may read the lobby (it is public anyway).
    assert client.get("/api/tables", headers={"Origin": "http://evil.example"}).status_code == 200
    same = client.post(
        "/api/tables",
        json={"game": "tonk", "seats": THREE},
        headers={"Origin": OWN, "Sec-Fetch-Site": "same-origin"},
    )
    assert same.status_code == 201


@pytest.mark.parametrize(
    ("url", "normal"),
    [
        ("https://Cards.Example", "https://cards.example"),
        ("https://cards.example:443", "https://cards.example"),
        ("http://cards.example:8000/", "http://cards.example:8000"),
        ("http://[::1]:8000", "http://[::1]:8000"),
        ("null", None),
        ("file:///home", None),
        ("cards.example", None),
        ("https://cards.example/path", None),
        ("http://cards.example:99999", None),
    ],
)
def test_origins_are_compared_in_their_normal_form(url: str, normal: str | None) -> None:
    assert normal_origin(url) == normal


def test_an_allowed_origin_that_is_no_origin_is_refused_at_start(tmp_path: Path) -> None:
    with pytest.raises(BadOrigin):
        OriginPolicy(["cards.example"])
    status = main(["serve", "--database", sqlite_url(tmp_path), "--allow-origin", "cards.example"])
    assert status == 2


def test_a_cross_site_form_post_cannot_act_for_a_signed_in_person(client: TestClient) -> None:
    """Issue 25's accounts behind the same guard: a foreign page's form (or fetch) posting with
    the person's session cookie cannot sign them out, change or learn the password, delete the
    account, or sign anyone up or in; the person's WebSocket from a foreign page is refused."""
    good = "a tavern of cards"
    made = client.post("/api/account/signup", json={"name": "Anna", "password": good})
    assert made.status_code == 201, made.text
    session = client.cookies.get("tt_session")
    assert session
    attempts: list[tuple[str, dict[str, str]]] = [
        ("/api/account/signout", {}),
        ("/api/account/password", {"old": good, "new": "the evil one here"}),
        ("/api/account/delete", {"password": good}),
        ("/api/account/signup", {"name": "Mallory", "password": good}),
        ("/api/account/signin", {"name": "Anna", "password": good}),
    ]
    for path, body in attempts:
        for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
            as_form = client.post(path, data=body, headers=headers)
            assert as_form.status_code == 403, (path, headers, as_form.text)
            assert as_form.json()["code"] == "foreign-origin"
            as_json = client.post(path, json=body, headers=headers)
            assert as_json.status_code == 403, (path, headers)
    # Nothing changed: still signed in with the same session and password, no Mallory.
    assert client.cookies.get("tt_session") == session
    assert client.get("/api/account").json()["name"] == "Anna"
    taken = client.post("/api/account/signup", json={"name": "Mallory", "password": good})
    assert taken.status_code == 201  # the name was never made
    client.post("/api/account/signout")
    again = client.post("/api/account/signin", json={"name": "Anna", "password": good})
    assert again.status_code == 200
    table = new_table(client)["table"]["id"]  # signed in: the seat is the account's
    for origin in FOREIGN:
        refused_socket(client, table, origin)


def test_the_session_cookie_is_secure_when_served_over_https(tmp_path: Path) -> None:
    """Issue 25, item 1: HttpOnly, SameSite=Lax, and Secure over https (a proxy ending TLS
    says so with X-Forwarded-Proto, which uvicorn reads from a trusted proxy)."""
    with TestClient(
        create_app(sqlite_url(tmp_path), QUICK), base_url="https://testserver"
    ) as client:
        made = client.post(
            "/api/account/signup",
            json={"name": "Anna", "password": "a tavern of cards"},
            headers={"Origin": "https://testserver"},
        )
        assert made.status_code == 201, made.text
        cookie = made.headers["set-cookie"]
        assert cookie.startswith("tt_session=") and "HttpOnly" in cookie
        assert "Secure" in cookie and "samesite=lax" in cookie.lower()
        out = client.post("/api/account/signout", headers={"Origin": "https://testserver"})
        assert out.status_code == 204 and "Secure" in out.headers["set-cookie"]
