"""Every message has its model (``web/protocol/``), and ``docs/protocol.md`` is rendered from
them: the doc is up to date, a field added to a model and not to the doc is found, and what a
real server sends, over HTTP and the WebSocket, is exactly what the models describe (each frame
validates against its model with no unknown field, and its model writes it back unchanged)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field, TypeAdapter, create_model

from taverntable.web.app import create_app
from taverntable.web.protocol import doc
from taverntable.web.protocol.api import CreatedTable, GameInfo, Health, JoinedTable, JoinTable
from taverntable.web.protocol.frames import SERVER_MESSAGE, encode
from taverntable.web.protocol.summary import TableSummary

from paths import ROOT
from web_helpers import QUICK

PROTOCOL_DOC = ROOT / "docs" / "protocol.md"


def test_the_protocol_doc_is_rendered_from_the_models() -> None:
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    assert doc.problems(text) == [], "run: python -m taverntable.web.protocol.doc"
    # Every model of the protocol has its table, and the frames' lists name every frame.
    for name in doc.protocol_models():
        assert f"<!-- model: {name} -->\n#### `{name}`" in text
    assert "[`update`](#updatemessage)" in text and "[`move`](#movemessage)" in text


def test_a_field_added_to_a_model_and_not_to_the_doc_is_found() -> None:
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    grown = create_model(
        "JoinTable", __base__=JoinTable, team=(int, Field(default=0, description="a team"))
    )
    models = {**doc.protocol_models(), "JoinTable": grown}
    assert doc.problems(text, models) == ["the table of JoinTable is out of date"]
    assert "| `team` | integer | `0` | a team |" in doc.render(text, models)


def test_a_model_the_doc_lacks_is_found(tmp_path: Path) -> None:
    class PokeMessage(BaseModel):
        """A poke."""

        text: str = Field(description="what was said")

    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    models = {**doc.protocol_models(), "PokeMessage": PokeMessage}
    assert doc.problems(text, models) == ["the doc has no table of PokeMessage"]
    stale = tmp_path / "protocol.md"
    stale.write_text(text.replace("| `seat` | integer | the seat taken |", ""), encoding="utf-8")
    assert doc.main(["--check", str(stale)]) == 1
    assert doc.main([str(stale)]) == 0 and doc.problems(stale.read_text(encoding="utf-8")) == []


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 't.sqlite3'}", QUICK)) as c:
        yield c


def exactly(model: Any, data: Any) -> None:
    """``data`` (parsed JSON) is ``model``'s, field for field: it validates with no unknown field
    and the model writes it back as it came."""
    adapter = TypeAdapter(model)
    assert json.loads(adapter.dump_json(adapter.validate_python(data))) == data


def test_what_the_server_sends_is_what_the_models_describe(client: TestClient) -> None:
    exactly(list[GameInfo], client.get("/api/games").json())
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}]
    body = {"game": "tonk", "seats": seats, "host_seat": 0, "host_name": "Anna", "deals": 2}
    made = client.post("/api/tables", json=body).json()
    exactly(CreatedTable, made)
    table = made["table"]["id"]
    exactly(JoinedTable, client.post(f"/api/tables/{table}/join", json={"name": "Bence"}).json())
    exactly(list[TableSummary], client.get("/api/tables").json())
    exactly(Health, client.get("/healthz").json())
    started = client.post(
        f"/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]}
    )
    exactly(TableSummary, started.json())
    kinds: set[str] = set()
    with client.websocket_connect(f"/ws/{table}?token={made['token']}") as ws:
        ws.send_text('{"type": "ping"}')
        ws.send_text('{"type": "move", "move": "fly away"}')
        # hello, table and update come on connecting, then the answers to the two frames.
        while not {"error", "pong"} <= kinds:
            raw = ws.receive_text()
            message = json.loads(raw)
            frame = SERVER_MESSAGE.validate_json(raw)
            assert json.loads(encode(frame)) == message
            kinds.add(message["type"])
    assert {"hello", "table", "update", "error", "pong"} <= kinds
