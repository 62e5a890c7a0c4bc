"""Accounts in a real browser (issue 25's Done-when, items 1-6): two people sign up in two
browser contexts, play a rated one-deal Tonk match with a bot by clicking, see the winner and
both rating changes at the end, find the match in My games, watch its deal again move by move
with → and ← (each step's hand the engine's), download its record and the match's from the page
and ``tavern replay`` accepts both; the leaderboard and both profiles show them; one signs out
and in from a third context and finds the same history. Screenshots of My games, the replay and
a profile at 1280×800 and 390×844 (and of the end of the match) are saved
(``TAVERN_TEST_SHOTS=DIR`` keeps them; docs/screenshots/ holds a run's); no page scrolls
sideways. The walk runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from test_web_browser_match import play_tonk_by_keys, shuffle_the_friend_plays
from test_web_browser_replay import hands_by_step, shown_hand, step_of

from taverntable.web.tables import Pace

from browser_helpers import my_decision, new_page, overflows, wait_until
from web_helpers import HTTP, server_thread

PASSWORD = "a tavern of cards"
# As the other browser tests' server: bots at once, a short pause at a deal's end.
PACE = Pace(bot_delay=0.0, deal_pause=0.2, announce=0.0)


@pytest.fixture
def base(database: str) -> Iterator[str]:
    """A real uvicorn in a thread on a new SQLite or PostgreSQL database."""
    with server_thread(database, PACE) as url:
        yield url


def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``TAVERN_TEST_SHOTS`` (to look at them), else the test's folder."""
    folder = Path(os.environ.get("TAVERN_TEST_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_in_english(page: Page, url: str) -> None:
    page.goto(url)
    page.evaluate("localStorage.setItem('tt_lang', 'en')")
    page.reload()


def signed_in_as(name: str) -> re.Pattern[str]:
    """The header's account link of ``name``: a name inside a sentence is isolated (U+2068 …
    U+2069, issue 24 item 5) so that it cannot turn the text around it."""
    return re.compile(f"Account: \u2068?{re.escape(name)}\u2069?")


def sign_up(page: Page, base: str, name: str) -> None:
    open_in_english(page, base + "/account")
    form = page.locator("form[data-form=signup]")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.locator(".account-link").filter(has_text=signed_in_as(name)).wait_for()


def sign_in(page: Page, base: str, name: str) -> None:
    open_in_english(page, base + "/account")
    form = page.locator("form[data-form=signin]")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.locator(".account-link").filter(has_text=signed_in_as(name)).wait_for()


def tavern_replay(path: Path) -> subprocess.CompletedProcess[str]:
    """``tavern replay PATH`` in a process of its own (the console script's ``main``)."""
    return subprocess.run(
        [sys.executable, "-m", "taverntable.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def download(page: Page, link: str, folder: Path) -> Path:
    """Click the download link ``link`` (a selector) and keep the file the browser gets."""
    with page.expect_download() as got:
        page.locator(link).first.click()
    path = folder / got.value.suggested_filename
    got.value.save_as(path)
    return path


def check_profile(page: Page, base: str, name: str, row: dict[str, Any], table: str) -> None:
    """The profile (opened from the leaderboard) shows the person's rating after the match, one
    match played, won or not, and the match among the recent ones, linked to its replay."""
    page.goto(base + "/ladder/tonk")
    page.locator("table.ladder").wait_for()
    page.locator("table.ladder tbody a").filter(has_text=name).click()
    page.locator(".profile-page h1").filter(has_text=name).wait_for()
    rating = page.locator(".ratings li[data-game=tonk] .rating").inner_text()
    assert rating == str(row["rating_after"]), (name, rating, row)
    assert page.locator("[data-count=played]").inner_text() == "Matches played: 1"
    won = 1 if row["place"] == 1 else 0
    assert page.locator("[data-count=won]").inner_text() == f"won: {won}"
    entry = page.locator(f".profile-page .game-entry[data-table='{table}']")
    assert entry.locator("[data-link=replay]").count() == 1
    assert page.locator(".ratings .plot").count() == 1  # the course: from the start to now
    # Beside the bots: "Plays about as well as the medium bot", say.
    beside = page.locator(".ratings li[data-game=tonk] .beside")
    relation, level = beside.get_attribute("data-relation"), beside.get_attribute("data-level")
    words = {"about": "about as well as", "above": "better than", "below": "less well than"}
    assert beside.inner_text() == f"Plays {words[str(relation)]} the {level} bot"


def rated_result(page: Page) -> bool:
    """The end of the match is shown with both people's rating changes."""
    return page.locator(".outcome .rating-change").count() == 2


@pytest.mark.slow
def test_two_people_sign_up_play_a_rated_match_and_find_it_in_my_games(
    browser: Browser, base: str, tmp_path: Path, monkeypatch: Any
) -> None:
    shuffle_the_friend_plays(monkeypatch)  # a first deal not won on the deal: both play
    folder = shots(tmp_path)
    anna, bence = new_page(browser), new_page(browser)
    sign_up(anna, base, "Anna")
    sign_up(bence, base, "Bence")

    # Anna makes a rated table: 2 people and a medium bot, one deal; the options are hidden.
    open_in_english(anna, base + "/")
    anna.select_option("select[name=game]", "tonk")
    anna.select_option("select[name=players]", "3")
    anna.fill("input[name=deals]", "1")
    anna.check("input[name=rated]")
    assert anna.locator("details.options").count() == 0
    assert anna.locator("input[name=host_name]").count() == 0  # she sits as her account
    anna.click("button[name=create]")
    table = anna.locator(".created .invite input").input_value().rsplit("/", 1)[1]
    anna.click(".created a.button")
    anna.wait_for_selector("[data-action=start]")
    assert anna.locator(".table-head .badge.rated").count() == 1

    open_in_english(bence, f"{base}/t/{table}")
    bence.locator(".join").filter(has_text=re.compile("You sit as \u2068?Bence")).wait_for()
    bence.click(".join button[type=submit]")
    bence.wait_for_selector(".seat.mine")
    anna.wait_for_function("document.querySelectorAll('.badge.free').length === 0")
    anna.click("[data-action=start]")

    turns: dict[int, int] = {}

    def step() -> bool:
        for k, page in enumerate((anna, bence)):
            if not rated_result(page) and my_decision(page):
                play_tonk_by_keys(page, turns, k)
        return rated_result(anna) and rated_result(bence)

    wait_until(step, timeout=240)
    summary = HTTP.get(f"{base}/api/tables/{table}").json()
    standings = summary["standings"]
    names = [s["name"] for s in summary["seats"]]
    winners = [names[s["seat"]] for s in standings if s["place"] == 1]
    # The prompt says who won, and the standings table lists every seat, best first.
    prompt = anna.locator(".prompt").inner_text()
    assert prompt.startswith("The match is over:") and all(w in prompt for w in winners)
    rows = anna.locator(".outcome tbody tr")
    assert rows.count() == 3
    assert [int(p) for p in rows.evaluate_all("rs => rs.map(r => r.dataset.place)")] == [
        s["place"] for s in standings
    ]
    for page, seat in ((anna, 0), (bence, 1)):
        mine = next(s for s in standings if s["seat"] == seat)
        change = page.locator(f".outcome tr[data-seat='{seat}'] .rating-change")
        assert change.get_attribute("data-before") == "1500"
        assert change.get_attribute("data-after") == str(mine["rating_after"])
    # Rematch (the host's), watch again and download.
    assert anna.locator(".outcome [data-action=rematch]").count() == 1
    assert bence.locator(".outcome [data-action=rematch]").count() == 0
    last = summary["sheet"][-1]["deal"]
    assert bence.locator(".outcome [data-action=watch]").get_attribute("href") == (
        f"/replay/{table}/{last}?seat=1"
    )
    href = anna.locator(".outcome [data-action=download]").get_attribute("href")
    assert HTTP.get(base + str(href)).text.count("\n") == len(summary["sheet"])
    anna.screenshot(path=str(folder / "match-end-1280.png"), full_page=True)

    # My games: the match, rated, with Anna's result and rating change and the deal's links.
    anna.set_viewport_size({"width": 1280, "height": 800})
    anna.goto(base + "/games")
    entry = anna.locator(f".game-entry[data-table='{table}']")
    entry.wait_for()
    assert entry.locator(".badge.rated").count() == 1
    mine = next(s for s in standings if s["seat"] == 0)
    change = entry.locator(".rating-change")
    assert change.get_attribute("data-after") == str(mine["rating_after"])
    assert entry.locator(".result").get_attribute("data-place") == str(mine["place"])
    assert entry.locator("[data-link=replay]").first.get_attribute("href") == (
        f"/replay/{table}/1?seat=0"
    )
    record = entry.locator("[data-link=download]").first.get_attribute("href")
    assert record == f"/api/tables/{table}/records?deal=1"
    assert HTTP.get(base + record).status_code == 200
    anna.screenshot(path=str(folder / "my-games-1280x800.png"), full_page=True)
    assert not overflows(anna)
    history = anna.locator(".game-list").inner_text()

    # The deal's record and the match's, downloaded from the pages: tavern replay accepts them.
    deal_file = download(anna, f".game-entry[data-table='{table}'] [data-link=download]", tmp_path)
    assert deal_file.name == f"tavern-{table}-1.jsonl"
    (record,) = [json.loads(line) for line in deal_file.read_text("utf-8").splitlines()]
    served = HTTP.get(f"{base}/api/tables/{table}/records", params={"deal": 1}).json()
    assert record == served
    anna.goto(f"{base}/t/{table}")
    anna.locator(".outcome [data-action=download]").wait_for()
    # The last deal's showdown comes back after a refresh (with the deal's log, which may arrive
    # after the outcome is drawn) and covers the page until the person moves on (T4-T6).
    showdown = anna.locator('.showdown button[data-action="continue"]')
    showdown.wait_for()
    showdown.click()
    anna.locator(".showdown").wait_for(state="detached")
    match_file = download(anna, ".outcome [data-action=download]", tmp_path)
    for path in (deal_file, match_file):
        done = tavern_replay(path)
        assert done.returncode == 0, done.stdout + done.stderr

    # Watch the deal again from My games, move by move with → and ←.
    anna.goto(base + "/games")
    entry.locator("[data-link=replay]").first.click()
    anna.wait_for_selector(".replay-controls")
    assert anna.url.endswith(f"/replay/{table}/1?seat=0")
    hands = hands_by_step(record, 0)
    moves = len(record["moves"])
    assert moves >= 2 and step_of(anna) == 0 and set(shown_hand(anna)) == set(hands[0])
    for k in range(1, min(5, moves) + 1):
        anna.keyboard.press("ArrowRight")
        wait_until(lambda k=k: step_of(anna) == k)
        assert set(shown_hand(anna)) == set(hands[k]), k
    at = min(5, moves) - 1
    anna.keyboard.press("ArrowLeft")
    wait_until(lambda: step_of(anna) == at)
    assert set(shown_hand(anna)) == set(hands[at])
    anna.screenshot(path=str(folder / "replay-1280x800.png"), full_page=True)
    assert not overflows(anna)

    # Anna signs out here, and in from a third browser (a phone): the same history.
    anna.goto(base + "/account")
    anna.click("button[name=signout]")
    anna.locator(".account-link").filter(has_text="Sign in").wait_for()
    anna.goto(base + "/games")
    anna.locator(".games-page").filter(has_text="Sign in to see your matches").wait_for()
    phone = new_page(browser, width=390, height=844)
    sign_in(phone, base, "Anna")
    phone.goto(base + "/games")
    phone.locator(f".game-entry[data-table='{table}']").wait_for()
    assert phone.locator(".game-list").inner_text() == history
    phone.screenshot(path=str(folder / "my-games-390x844.png"), full_page=True)
    assert not overflows(phone)
    phone.locator(f".game-entry[data-table='{table}'] [data-link=replay]").first.click()
    phone.wait_for_selector(".replay-controls")
    phone.keyboard.press("ArrowRight")
    wait_until(lambda: step_of(phone) == 1)
    assert set(shown_hand(phone)) == set(hands[1])
    phone.screenshot(path=str(folder / "replay-390x844.png"), full_page=True)
    assert not overflows(phone)

    # The leaderboard and both profiles show them.
    phone.goto(base + "/ladder/tonk")
    phone.locator("table.ladder").wait_for()
    assert set(phone.locator("table.ladder tbody td a").all_inner_texts()) == {"Anna", "Bence"}
    rows = {names[s["seat"]]: s for s in standings}
    check_profile(phone, base, "Bence", rows["Bence"], table)
    phone.screenshot(path=str(folder / "profile-390x844.png"), full_page=True)
    assert not overflows(phone)
    bence.set_viewport_size({"width": 1280, "height": 800})
    check_profile(bence, base, "Anna", rows["Anna"], table)
    bence.screenshot(path=str(folder / "profile-1280x800.png"), full_page=True)
    assert not overflows(bence)
    for page in (anna, bence, phone):
        assert page.errors == []  # type: ignore[attr-defined]
