"""The coach's review in a real browser (Debian's chromium, driven by Playwright; issue 27):
a person plays Tonk deals by clicking, opens a finished deal's replay, presses Review, waits
through the queue, and sees the flagged decisions marked on the timeline with the coach's
sentences and the alternatives' values — then the same page in Hungarian, Russian and
Ukrainian. A screenshot at 1280×800 goes to ``TAVERN_TEST_SHOTS`` when set.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx2
from playwright.sync_api import Browser, Page

from browser_helpers import (
    click_move,
    move_buttons,
    my_decision,
    new_page,
    sit,
    try_click,
    wait_until,
)
from web_helpers import HTTP, create, records, server_thread, sqlite_url

STATIC = Path(__file__).parents[2] / "src" / "taverntable" / "web" / "static"
LANGS = ("en", "hu", "ru", "uk")


def table_text(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def play_badly(page: Page, turns: list[int]) -> None:
    """A person's Tonk turn by clicking, not well: draw from the stock, discard the first card
    offered, and from the second turn on drop whenever a drop is offered (whatever the hand
    holds): the coach has something to say."""
    moves = move_buttons(page)
    if "drop" in moves and turns[0] >= 1:
        click_move(page, lambda m: m == "drop")
    elif "draw stock" in moves:
        if click_move(page, lambda m: m == "draw stock"):
            turns[0] += 1
    elif any(m.startswith("discard ") for m in moves):
        click_move(page, lambda m: m.startswith("discard "))
    else:  # a card selected first, its discard pressed at the next look
        try_click(page.locator(".my-area .hand button.card").first)


def review_of(base: str, table: str, deal: int, token: str) -> dict[str, Any]:
    """The review the page was shown, read from the server's cache (a second request: instant)."""
    answer = httpx2.post(
        f"{base}/api/replays/{table}/{deal}/review", headers={"X-Seat-Token": token}, timeout=30
    )
    assert answer.status_code == 200 and answer.json()["status"] == "done", answer.text
    review: dict[str, Any] = answer.json()["review"]
    return review


def test_a_person_reviews_a_finished_deal_and_sees_its_mistakes_on_the_timeline(
    browser: Browser, tmp_path: Path
) -> None:
    with server_thread(sqlite_url(tmp_path)) as base:
        made = create(
            base,
            "tonk",
            [
                {"kind": "person"},
                {"kind": "bot", "level": "medium"},
                {"kind": "bot", "level": "medium"},
            ],
            host_seat=0,
            host_name="Anna",
            deals=5,  # the deals are shuffled: five make a flagged decision near certain
            absent_seconds=3600,
        )
        table, token = made["table"]["id"], made["token"]
        page = new_page(browser, width=1280, height=800)
        sit(page, base, table, token, made["host_token"])
        page.click("[data-action=start]")
        turns = [0]

        def finished() -> bool:
            if my_decision(page):
                play_badly(page, turns)
            return bool(HTTP.get(f"{base}/api/tables/{table}").json()["status"] == "finished")

        wait_until(finished, timeout=240, step=0.1)
        deals = records(base, table)
        # The deals in which Anna decided something, the longest first.
        mine = sorted(
            (k for k, d in enumerate(deals, 1) if any(s == 0 for s, _ in d["moves"])),
            key=lambda k: -len(deals[k - 1]["moves"]),
        )
        assert mine, "Anna made no move in five deals"
        flagged: list[dict[str, Any]] = []
        for deal in mine:
            page.goto(f"{base}/replay/{table}/{deal}")
            page.wait_for_selector(".replay-controls [data-action=review]")
            assert page.locator("[data-action=review]").inner_text() == "Review"
            page.click("[data-action=review]")
            # Queued or running first (the review is never computed in the request) …
            page.wait_for_selector(".review-status, .review[data-review=done]")
            # … then done, in the page's language.
            page.wait_for_selector(".review[data-review=done]", timeout=120_000)
            review = review_of(base, table, deal, token)
            flagged = [d for d in review["decisions"] if d["flagged"]]
            if flagged:
                break
        assert flagged, "no deal of Anna's had a flagged decision"
        assert review["seat"] == 0 and review["player"] == "Anna"
        # Every flagged decision is a mark on the timeline at the step that shows its move,
        # titled with the coach's own sentence; its line lists every alternative's value.
        marks = page.locator(".timeline .mark-mistake")
        assert marks.count() == len(flagged)
        titles = marks.evaluate_all("ms => ms.map(m => [m.dataset.step, m.title])")
        assert titles == [
            [str(d["step"] + 1), f"Move {d['step'] + 1}: {d['text']['en']}"] for d in flagged
        ]
        lines = page.locator(".review-list > li")
        assert lines.count() == len(flagged)
        first = flagged[0]
        assert first["text"]["en"] in lines.first.inner_text()
        values = lines.first.locator(".review-options li").all_inner_texts()
        # Each move as the table's button says it (web/move_words.py), the notation its title.
        assert len(values) == len(first["options"])
        for value, option in zip(values, first["options"], strict=True):
            assert value.startswith(option["words"]["en"]), (value, option)
        shown = lines.first.locator(".review-options .move")
        assert shown.evaluate_all("ms => ms.map(m => m.title)") == [
            o["move"] for o in first["options"]
        ]
        assert "chosen" in lines.first.inner_text() and "best" in lines.first.inner_text()
        # A mark goes to its step.
        marks.first.click()
        wait_until(lambda: page.url.endswith(f"#m={first['step'] + 1}"))
        assert page.locator(".review-list > li.current").count() >= 1
        folder = os.environ.get("TAVERN_TEST_SHOTS")
        if folder:
            page.screenshot(path=str(Path(folder) / "review-tonk-1280.png"))
        # The other languages: the button, the marks and the lines say it in each.
        for lang in LANGS[1:]:
            words = table_text(lang)
            page.select_option("select[name=language]", lang)
            label = words["replay.review"]
            wait_until(lambda w=label: page.locator("[data-action=review]").inner_text() == w)
            title = marks.first.get_attribute("title")
            move = words["replay.review_mark"].format(number=first["step"] + 1, text="")
            assert title == move + first["text"][lang], (lang, title)
            assert first["text"][lang] in lines.first.inner_text()
            assert words["replay.review_title"] in page.locator(".review").inner_text()
            if folder and lang == "hu":
                page.screenshot(path=str(Path(folder) / "review-tonk-1280-hu.png"))
        assert page.errors == []  # type: ignore[attr-defined]
