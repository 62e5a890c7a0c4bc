"""Whole matches in a real browser, as the issue's newcomer plays them: a Tonk table with two bots
and an invited friend who finds it in the lobby's list, a Three Towers match, every move by
clicking or by the number keys, and what the table shows checked against the seat's own view
(stock and pile, every seat's card count, the tower's value toward its goal, the sorted hand).
A desktop page 1,920 px wide and a phone page 360 px wide of a ten-seat Tonk table fit their
screens.
"""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from taverntable.games import get_game
from taverntable.web import tables as tables_module

from browser_helpers import (
    Frames,
    click_move,
    move_buttons,
    my_decision,
    new_page,
    overflows,
    select_and_play,
    sit,
    try_click,
    wait_until,
)
from web_helpers import create, join, start

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def last_view(frames: Frames) -> dict[str, Any]:
    view: dict[str, Any] = frames.updates()[-1]["view"]
    return view


def finished(page: Page) -> bool:
    return page.locator(".prompt").filter(has_text="match is over").count() > 0


def check_tonk_table(page: Page, frames: Frames) -> None:
    """What the page shows is the seat's view: the stock count, the pile's top card, each seat's
    number of cards (T3, T5: public information)."""
    view = last_view(frames)
    stock = page.locator("[data-zone=stock] .sub").inner_text()
    assert stock == f"{view['stock_size']} in the stock", (stock, view["stock_size"])
    if view["pile"]:
        assert page.locator("[data-zone=pile] .card").get_attribute("data-card") == view["pile"][-1]
    for seat, count in enumerate(view["hand_sizes"]):
        shown = page.locator(f".seat[data-seat='{seat}'] .hand-count").inner_text()
        assert shown == f"{count} in hand" or shown == f"{count} card in hand", (seat, shown, count)


def play_tonk_by_keys(page: Page, turns: dict[int, int], key: int) -> None:
    """A Tonk turn with the keyboard where a move needs no card (the number keys press the offered
    buttons in order), and by clicking a card to discard it."""
    moves = move_buttons(page)
    turns[key] = turns.get(key, 0) + 1
    wanted = "drop" if "drop" in moves and turns[key] >= 4 else "draw stock"
    if wanted in moves:
        page.keyboard.press(str(moves.index(wanted) + 1))
        return
    if any(m.startswith("discard ") for m in moves):
        click_move(page, lambda m: m.startswith("discard "))
        return
    # Selecting a card offers its discard, pressed at the next look; no waiting here: an update
    # that arrives meanwhile draws the hand again, and the selection with it.
    try_click(page.locator(".my-area .hand button.card").first)


def shuffle_the_friend_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables made next shuffle from a seed whose first four-seat deal goes on past the deal
    (no win on the deal, T4): the friend at seat 1, first to play after the host's deal (T5),
    then draws and discards. With any seed 38 of 3,000 simulated matches ended before either
    person had a turn (a T4 win on the first deal, and the easy bot, first in the second deal,
    dropping at once), and the test failed on CI for want of a decision to check."""
    tonk = get_game("tonk")
    seed = next(
        s
        for s in range(1000)
        if not tonk.start(tonk.rules({}), 4, rng=random.Random(s), dealer=0).is_over
    )
    monkeypatch.setattr(tables_module, "secrets", SimpleNamespace(randbits=lambda bits: seed))


def test_a_newcomer_plays_a_whole_tonk_match_with_two_bots_and_a_friend(
    browser: Browser, base: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's Done-when for Tonk: a table with two bots made in the lobby, a friend who
    joins from the lobby's list of open tables, a match of two deals played without typing; the
    final balances (T12-T13) sum to zero."""
    shuffle_the_friend_plays(monkeypatch)
    host = new_page(browser)
    host_frames = Frames(host)
    host.goto(base + "/")
    host.evaluate("localStorage.setItem('tt_lang', 'en')")
    host.reload()
    host.select_option("select[name=game]", "tonk")
    host.select_option("select[name=players]", "4")
    host.select_option("select[name=seat-1]", "person")
    host.select_option("select[name=seat-2]", "easy")
    host.select_option("select[name=seat-3]", "medium")
    host.fill("input[name=host_name]", "Anna")
    host.fill("input[name=deals]", "2")
    host.click("button[name=create]")
    table = host.locator(".created .invite input").input_value().rsplit("/", 1)[1]
    host.click(".created a.button")
    host.wait_for_selector("[data-action=start]")

    friend = new_page(browser)
    friend_frames = Frames(friend)
    friend.goto(base + "/")
    friend.evaluate("localStorage.setItem('tt_lang', 'en')")
    friend.reload()
    listed = friend.locator(f".open-tables li[data-table='{table}']")
    listed.wait_for()
    # The bots take the seeds' characters' names (taverntable.characters), as at the terminal.
    assert "Goblin" in listed.inner_text() and "Elmo" in listed.inner_text()
    listed.locator("a.button").click()
    friend.fill(".join input", "Bela")
    friend.click(".join button[type=submit]")
    friend.wait_for_selector(".seat.mine")
    host.wait_for_function("document.querySelectorAll('.badge.free').length === 0")
    host.click("[data-action=start]")

    turns: dict[int, int] = {}
    checked = [0]

    def step() -> bool:
        for k, (page, frames) in enumerate(((host, host_frames), (friend, friend_frames))):
            if finished(page):
                continue
            if my_decision(page) and frames.updates():
                if checked[0] < 6:
                    check_tonk_table(page, frames)
                    checked[0] += 1
                play_tonk_by_keys(page, turns, k)
        return finished(host) and finished(friend)

    wait_until(step, timeout=240)
    assert checked[0] >= 2 and sum(turns.values()) >= 2
    balance = host.locator(".sheet tfoot tr").last
    points = [float(x) for x in balance.locator("td").all_inner_texts()]
    assert len(points) == 4 and sum(points) == 0
    assert host.locator(".sheet tbody.entry").count() >= 2
    assert host.errors == [] and friend.errors == []  # type: ignore[attr-defined]


def test_the_hand_sorts_by_rank_or_by_suit_with_a_click_or_the_s_key(
    browser: Browser, base: str
) -> None:
    made = create(
        base,
        "tonk",
        [{"kind": "person"}, {"kind": "bot", "level": "easy"}],
        host_seat=0,
        host_name="Anna",
    )
    start(base, made["table"]["id"], made["host_token"])
    page = new_page(browser)
    sit(page, base, made["table"]["id"], made["token"])
    page.wait_for_selector(".my-area .hand .card")

    def hand() -> list[str]:
        return [
            c.get_attribute("data-card") or "" for c in page.locator(".my-area .hand .card").all()
        ]

    def by_rank(cards: list[str]) -> bool:
        ranks = [RANKS.index(c[:-1]) for c in cards]
        return ranks == sorted(ranks)

    def by_suit(cards: list[str]) -> bool:
        suits = [c[-1] for c in cards]
        # Each suit together: a suit never comes back after another one.
        return all(s not in suits[k + 1 :] or suits[k + 1] == s for k, s in enumerate(suits[:-1]))

    cards = hand()
    assert len(cards) == 5 and by_rank(cards)
    page.click("[data-action=sort]")
    wait_until(lambda: hand() != cards or by_suit(cards), timeout=10)
    assert sorted(hand()) == sorted(cards) and by_suit(hand())
    page.keyboard.press("s")
    wait_until(lambda: by_rank(hand()), timeout=10)
    assert sorted(hand()) == sorted(cards)
    # Suits told apart by symbol, not colour alone: every card's label names its suit.
    hand_cards = page.locator(".my-area .hand .card").all()
    labels = [c.get_attribute("aria-label") or "" for c in hand_cards]
    assert all(re.search(r"of (clubs|diamonds|hearts|spades)", label) for label in labels), labels
    faces = page.locator(".my-area .hand .card").all_inner_texts()
    assert all(re.search("[♣♦♥♠]", face) for face in faces), faces


def test_a_whole_three_towers_match_by_clicking_shows_each_tower_toward_its_goal(
    browser: Browser, base: str
) -> None:
    """The issue's Done-when for Three Towers: two people and a bot play a match (one game of
    one round) by clicking; on the way each tower's value toward its goal (R8) is the view's."""
    made = create(
        base,
        "three-towers",
        [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
        options={"max_rounds": 1},
        host_seat=0,
        host_name="Anna",
        deals=1,
    )
    table = made["table"]["id"]
    other = join(base, table, "Bela", 1)
    start(base, table, made["host_token"])
    pages = []
    for token in (made["token"], other["token"]):
        page = new_page(browser)
        frames = Frames(page)
        sit(page, base, table, token)
        pages.append((page, frames))
    towers_seen = [0]

    def towers_match(page: Page, frames: Frames) -> bool:
        """Each seat's tower value toward the goal (R8) on the page is the latest view's. The page
        renders a frame a moment after it arrives, and bots may move meanwhile: retried."""
        view = last_view(frames)
        for seat, tower in enumerate(view["towers"]):
            shown = page.locator(f".seat[data-seat='{seat}'] .tower-value")
            want = [f"{view['tower_values'][seat]} of {view['tower_goal']}"] if tower else []
            if shown.all_inner_texts() != want:
                return False
        return True

    def play(page: Page) -> None:
        if select_and_play(page):
            return
        offered = move_buttons(page)
        if not offered:
            return  # the decision passed while the cards were tried: the next step looks again
        moves = [m for m in offered if not m.startswith("redeal")]
        target = moves[0] if moves else offered[0]
        click_move(page, lambda m: m == target)

    def step() -> bool:
        for page, frames in pages:
            if finished(page) or not frames.updates():
                continue
            wait_until(lambda: towers_match(page, frames), timeout=10)  # noqa: B023 (called now)
            towers_seen[0] += page.locator(".seat .tower-value").count()
            if my_decision(page):
                play(page)
        return all(finished(page) for page, _ in pages)

    wait_until(step, timeout=300)
    assert towers_seen[0] > 0
    assert pages[0][0].locator(".sheet").inner_text().count("Anna") >= 1
    for page, _ in pages:
        assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("width,height", [(1920, 1080), (360, 740)])
def test_a_ten_seat_tonk_table_fits_a_desktop_and_a_phone(
    browser: Browser, base: str, width: int, height: int
) -> None:
    made = create(
        base,
        "tonk",
        [{"kind": "person"}] + [{"kind": "bot", "level": "easy"}] * 9,
        host_seat=0,
        host_name="Anna",
    )
    start(base, made["table"]["id"], made["host_token"])
    page = new_page(browser, width=width, height=height)
    sit(page, base, made["table"]["id"], made["token"])
    page.wait_for_selector(".seat[data-seat='9']")
    assert page.locator(".seat").count() == 10
    assert not overflows(page)
    # Every card of the hand is inside the window's width.
    for card in page.locator(".my-area .hand .card").all():
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
