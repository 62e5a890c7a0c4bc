"""The guided first deals (issue 26, item 5; ``web/tutorial.py``): a lesson's table deals its
stacked deal with the same engine, its bot plays the script, the person's steps accept the
lesson's move only (the engine's refusal for an illegal one, ``lesson-step`` with the hint for
a legal other one), the hints follow the deal to its closing message, and no client can stack
the deck of a real table or see a lesson's table in the lobby or on a ladder."""

from __future__ import annotations

import asyncio
import json
import re
import time
from types import SimpleNamespace
from typing import Any

import pytest
import websockets

from taverntable.games import get_game
from taverntable.games.texts import rules_markdown
from taverntable.records import replay_record
from taverntable.web.tutorial import LESSONS, PERSON, Lesson, hint_keys

from paths import SRC
from web_helpers import HTTP, check_messages, create, records, server_thread, start, ws_url

I18N = SRC / "web" / "static" / "i18n"
LANGUAGES = ("en", "hu", "ru", "uk")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CARD_PARAMS = ("card", "cards", "keep", "won")


def lesson_table(base: str, name: str, person: str = "Ann") -> dict[str, Any]:
    response = HTTP.post(f"{base}/api/lessons/{name}", json={"name": person})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


async def receive_until(ws: Any, seen: list[dict[str, Any]], done: Any, limit: float = 20) -> None:
    """Frames into ``seen`` until ``done(frame)``."""
    async with asyncio.timeout(limit):
        while True:
            frame = json.loads(await ws.recv())
            seen.append(frame)
            if done(frame):
                return


def finished(base: str, table: str) -> dict[str, Any]:
    """The table's summary once its match is over (the driver ends it just after the deal)."""
    deadline = time.monotonic() + 20
    while True:
        summary: dict[str, Any] = HTTP.get(f"{base}/api/tables/{table}").json()
        if summary["status"] == "finished" or time.monotonic() > deadline:
            return summary
        time.sleep(0.05)


def last_update(seen: list[dict[str, Any]]) -> dict[str, Any]:
    return [f for f in seen if f["type"] == "update"][-1]


async def follow_lesson(url: str, lesson: Lesson, wrong_first: bool = True) -> list[dict[str, Any]]:
    """The person plays the lesson as its hints say (first trying a legal other move and an
    illegal one at each of their steps); returns every frame received."""
    seen: list[dict[str, Any]] = []
    async with websockets.connect(url) as ws:
        while True:
            await receive_until(ws, seen, lambda f: f["type"] == "lesson")
            hint = seen[-1]
            if hint["done"]:
                return seen
            if hint["seat"] != PERSON:
                continue
            view = last_update(seen)["view"]
            assert view["current_seat"] == PERSON, hint
            expected = hint["move"]
            assert expected in view["legal_moves"], (expected, view["legal_moves"])
            others = [m for m in view["legal_moves"] if m != expected]
            if wrong_first and others:
                await ws.send(json.dumps({"type": "move", "move": others[0]}))
                await receive_until(ws, seen, lambda f: f["type"] == "error")
                refusal = seen[-1]
                assert refusal["code"] == "lesson-step", refusal
                assert refusal["rule"] == hint["rule"]
                assert refusal["reason"] == {"key": hint["hint"], "params": hint["params"]}
            if wrong_first:
                await ws.send(json.dumps({"type": "move", "move": "discard QS"}))
                await receive_until(ws, seen, lambda f: f["type"] == "error")
                assert seen[-1]["code"] in ("illegal-move", "bad-move"), seen[-1]
            await ws.send(json.dumps({"type": "move", "move": expected}))


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_a_lesson_plays_its_stacked_deal_to_the_end_following_its_hints(
    database: str, name: str
) -> None:
    """Every step's hint comes before its move, in order; a legal move that is not the
    lesson's is refused with the step's hint and rule, an illegal one with the engine's
    refusal; the closing message comes with the deal's end; the deal's record is the
    lesson's stacked deal and its script, replayed by the engine to the same result."""
    lesson = LESSONS[name]
    with server_thread(database) as base:
        made = lesson_table(base, name)
        table = made["table"]
        assert table["status"] == "playing" and table["lesson"] == name
        assert table["settings"]["rated"] is False
        assert [s["kind"] for s in table["seats"]] == ["person", "bot"]
        assert table["seats"][1]["name"] == lesson.bot_name
        seen = asyncio.run(follow_lesson(ws_url(base, table["id"], made["token"]), lesson))
        deals = records(base, table["id"])
        summary = finished(base, table["id"])
    hints = [f for f in seen if f["type"] == "lesson"]
    steps = sorted({(h["step"], h["hint"]) for h in hints if not h["done"]})
    assert steps == [(i, s.hint) for i, s in enumerate(lesson.steps)]
    assert all(h["lesson"] == name and h["steps"] == len(lesson.steps) for h in hints)
    assert hints[-1]["done"] and hints[-1]["hint"] == lesson.end_hint
    assert [h for h in hints if h["done"]] == [hints[-1]]
    # The deal is the lesson's: its cards are the stacked ones, its moves the script.
    assert len(deals) == 1
    record = deals[0]
    assert record["cards"] == lesson.header(record["players"])["cards"]
    assert [(s, m) for s, m in record["moves"]] == [(s.seat, s.move) for s in lesson.steps]
    result = replay_record(record).result
    assert hints[-1]["params"] == lesson.end_params(result)
    # No frame names a card hidden from the person (a hint names the person's cards only).
    assert check_messages(deals, SimpleNamespace(messages=seen, seat=PERSON)) >= len(lesson.steps)
    assert summary["status"] == "finished" and summary["standings"][0]["seat"] == PERSON


def test_the_steps_hint_the_rule_they_name_and_only_cards_the_person_sees() -> None:
    """Each step's rule is an anchor of the game's rules (T…/R…); each card a hint names is in
    the person's view when the hint shows (no hidden card leaks through a hint); a bot's step
    names none; every step's move is legal when it comes (the engine plays the script)."""
    for lesson in LESSONS.values():
        game = get_game(lesson.game)
        rules = "\n".join(rules_markdown(game, f, "en") for f in game.rules_files)
        state = lesson.deal(["Ann", lesson.bot_name])
        for number, step in enumerate(lesson.steps):
            assert lesson.step(state) == step, (lesson.name, number)
            assert re.search(rf"(## |\*\*){step.rule}\b", rules), (lesson.name, step.rule)
            view = state.view(lesson.person).to_json()
            seen = json.dumps(view)
            for param in CARD_PARAMS:
                if param in step.params:
                    assert step.seat == lesson.person, (lesson.name, number, param)
                    for card in str(step.params[param]).split():
                        assert f'"{card}"' in seen, (lesson.name, number, card)
            move = state.parse_move(step.move)
            assert state.current_seat == step.seat
            state.check(move)
            state.apply(move)
        assert state.is_over and lesson.step(state) is None
        assert state.result is not None and PERSON in state.result.winners
        assert re.search(rf"(## |\*\*){lesson.end_rule}\b", rules)


def test_every_hint_is_in_every_language_with_its_parameters() -> None:
    tables = {lang: json.loads((I18N / f"{lang}.json").read_text("utf-8")) for lang in LANGUAGES}
    for lesson in LESSONS.values():
        state = lesson.deal(["Ann", lesson.bot_name])
        given = [(s.hint, set(s.params)) for s in lesson.steps]
        for step in lesson.steps:
            state.apply(state.parse_move(step.move))
        result = state.result
        assert result is not None
        given.append((lesson.end_hint, set(lesson.end_params(result.to_json()))))
        for key, params in given:
            for lang, words in tables.items():
                assert key in words, (lang, key)
                assert set(PLACEHOLDER.findall(words[key])) <= params, (lang, key)
    assert hint_keys() <= set(tables["en"])


def test_a_client_cannot_stack_a_real_tables_deck(database: str) -> None:
    """``POST /api/tables`` has no field for a lesson, a deck or a seed (400: unknown field),
    no rule option deals the cards, and two real tables deal different cards: only the
    server's lessons are stacked."""
    lesson = LESSONS["tonk"]
    seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
    with server_thread(database) as base:
        for extra in (
            {"lesson": "tonk"},
            {"deck": lesson.header(["a", "b"])["cards"]},
            {"cards": lesson.header(["a", "b"])["cards"]},
            {"seed": 1},
            {"options": {"deck": ["AS"]}},
            {"options": {"lesson": "tonk"}},
        ):
            body = {"game": "tonk", "seats": seats, "host_seat": 0, **extra}
            response = HTTP.post(f"{base}/api/tables", json=body)
            assert response.status_code in (400, 422), (extra, response.text)
        # The lesson endpoint takes a name only (nothing about the deal), and known lessons only.
        response = HTTP.post(f"{base}/api/lessons/tonk", json={"name": "Ann", "deck": ["AS"]})
        assert response.status_code in (400, 422), response.text
        assert HTTP.post(f"{base}/api/lessons/tor", json={}).status_code == 404
        dealt = []
        for _ in range(2):
            made = create(base, "tonk", seats, host_seat=0, deals=1)
            assert "lesson" not in made["table"]
            start(base, made["table"]["id"], made["host_token"])
            dealt.append(first_deal_cards(base, made["table"]["id"], made["token"]))
        assert dealt[0] != dealt[1]
        assert lesson.header(["a", "b"])["cards"]["hands"] not in [d["hands"] for d in dealt]


def first_deal_cards(base: str, table: str, token: str) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        seen: list[dict[str, Any]] = []
        async with websockets.connect(ws_url(base, table, token)) as ws:
            await receive_until(ws, seen, lambda f: f["type"] == "update")
        return seen[-1]["view"]

    view = asyncio.run(run())
    return {"hands": [view["hand"]], "pile": view.get("pile")}


def test_a_lessons_table_is_not_in_the_lobby_nor_rated_and_its_hints_reach_its_person_only(
    database: str,
) -> None:
    """The lobby's list leaves a lesson's table out; its match is unrated (so on no ladder); a
    spectator gets no ``lesson`` frame (a hint names the person's cards); a reconnect gets the
    step's hint again; ``GET /api/games`` names each game's lesson."""
    with server_thread(database) as base:
        made = lesson_table(base, "three-towers")
        table = made["table"]["id"]
        real = create(base, "tonk", [{"kind": "person"}, {"kind": "bot"}], host_seat=0)
        listed = [t["id"] for t in HTTP.get(f"{base}/api/tables").json()]
        assert real["table"]["id"] in listed and table not in listed
        games = {g["name"]: g.get("lesson") for g in HTTP.get(f"{base}/api/games").json()}
        assert games == {
            "tonk": "tonk",
            "tor": "tonk",
            "pagat": "tonk",
            "three-towers": "three-towers",
            # The revised preset (issue 28 item 5) plays the family's rules: its lesson too.
            "three-towers-revised": "three-towers",
        }

        async def watch() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            mine: list[dict[str, Any]] = []
            theirs: list[dict[str, Any]] = []
            async with (
                websockets.connect(ws_url(base, table, made["token"])) as ws,
                websockets.connect(ws_url(base, table)) as spectator,
            ):
                await receive_until(ws, mine, lambda f: f["type"] == "lesson")
                await ws.send(json.dumps({"type": "move", "move": mine[-1]["move"]}))
                await receive_until(ws, mine, lambda f: f["type"] == "lesson" and f["step"] >= 2)
                await receive_until(
                    spectator, theirs, lambda f: f["type"] == "update" and f["events"], 10
                )
            return mine, theirs

        mine, theirs = asyncio.run(watch())
        assert [f["type"] for f in theirs].count("lesson") == 0
        again: list[dict[str, Any]] = []

        async def reconnect() -> None:
            async with websockets.connect(ws_url(base, table, made["token"])) as ws:
                await receive_until(ws, again, lambda f: f["type"] == "lesson")

        asyncio.run(reconnect())
        assert again[-1]["step"] == mine[-1]["step"] == 2
        assert again[-1]["hint"] == LESSONS["three-towers"].steps[2].hint
        summary = HTTP.get(f"{base}/api/tables/{table}").json()
        assert summary["settings"]["rated"] is False and summary["lesson"] == "three-towers"


def test_a_lesson_table_comes_back_after_a_restart_as_a_lesson(tmp_path: Any) -> None:
    """The lesson is stored with the table's settings: after a restart the table is still a
    lesson's (its hint at the same step, its bot on the script)."""
    from web_helpers import sqlite_url

    url = sqlite_url(tmp_path)
    with server_thread(url) as base:
        made = lesson_table(base, "tonk")
        table = made["table"]["id"]

        async def one_step() -> None:
            seen: list[dict[str, Any]] = []
            async with websockets.connect(ws_url(base, table, made["token"])) as ws:
                await receive_until(ws, seen, lambda f: f["type"] == "lesson")
                await ws.send(json.dumps({"type": "move", "move": seen[-1]["move"]}))
                await receive_until(ws, seen, lambda f: f["type"] == "lesson" and f["step"] == 1)

        asyncio.run(one_step())
    with server_thread(url) as base:
        seen = asyncio.run(
            follow_lesson(ws_url(base, table, made["token"]), LESSONS["tonk"], False)
        )
        assert seen[-1]["done"]
        assert next(f["step"] for f in seen if f["type"] == "lesson") == 1
