"""What a client sends is taken strictly, and the API's generated pages are off (issue 24,
item 9): ``"seat": true``, ``"1"`` and ``1.0`` were taken as seat 1; ``/docs``, ``/redoc`` and
``/openapi.json`` were served, the Swagger page with scripts from a CDN."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taverntable.web.app import create_app

from web_helpers import QUICK, sqlite_url

PEOPLE = [{"kind": "person"}] * 3
NOT_INTEGERS: list[Any] = [True, "1", 1.0, "1.0", [1], {"seat": 1}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url(tmp_path), QUICK)) as c:
        yield c


def new_table(client: TestClient, **extra: Any) -> dict[str, Any]:
    made = client.post("/api/tables", json={"game": "tonk", "seats": PEOPLE, **extra})
    assert made.status_code == 201, made.text
    result: dict[str, Any] = made.json()
    return result


@pytest.mark.parametrize("seat", NOT_INTEGERS)
def test_a_seat_that_is_no_integer_is_refused(client: TestClient, seat: Any) -> None:
    table = new_table(client)["table"]["id"]
    joined = client.post(f"/api/tables/{table}/join", json={"name": "Bea", "seat": seat})
    assert joined.status_code == 422, joined.text
    assert joined.json()["code"] == "bad-body" and joined.json()["detail"][0]["loc"][-1] == "seat"
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert not any(s["claimed"] for s in seats)  # seat 1 is still open
    made = client.post("/api/tables", json={"game": "tonk", "seats": PEOPLE, "host_seat": seat})
    assert made.status_code == 422, made.text
    # The integer itself is a seat.
    assert (
        client.post(f"/api/tables/{table}/join", json={"name": "Bea", "seat": 1}).json()["seat"]
        == 1
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("stake", "5"),
        ("stake", 5.0),
        ("stake", True),
        ("deals", "3"),
        ("target", 10.0),
        ("absent_seconds", "30"),
        ("absent_seconds", True),
        ("turn_seconds", "20"),
    ],
)
def test_a_setting_of_the_wrong_type_is_refused(client: TestClient, field: str, value: Any) -> None:
    made = client.post("/api/tables", json={"game": "tonk", "seats": PEOPLE, field: value})
    assert made.status_code == 422, made.text
    assert made.json()["detail"][0]["loc"] == ["body", field]


def test_a_whole_number_of_seconds_is_a_number(client: TestClient) -> None:
    """A JSON integer is a number: strict types refuse a string or a bool, not 30 for 30.0."""
    made = new_table(client, absent_seconds=30, turn_seconds=20, stake=5)
    assert made["table"]["settings"]["absent_seconds"] == 30.0


@pytest.mark.parametrize("version", ["1", True, 1.0])
def test_a_moves_version_that_is_no_integer_is_refused(client: TestClient, version: Any) -> None:
    made = new_table(client, host_seat=0, host_name="Anna")
    table = made["table"]["id"]
    with client.websocket_connect(f"/ws/{table}?token={made['token']}") as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"type": "move", "move": "drop", "version": version})
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"] == "bad-message" and "version" in message["message"]


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"])
def test_the_generated_api_pages_are_off_by_default(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_the_generated_api_pages_are_served_when_asked(tmp_path: Path) -> None:
    with TestClient(create_app(sqlite_url(tmp_path), QUICK, api_docs=True)) as client:
        assert client.get("/docs").status_code == 200
        schema = client.get("/openapi.json").json()
        assert "/api/tables" in schema["paths"]
