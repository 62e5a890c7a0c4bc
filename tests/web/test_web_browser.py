"""The browser table in a real browser (Debian's chromium, driven by Playwright): people play
whole deals by clicking, a refresh keeps the seat, a refused move shows its rule, a spectator's
page holds no hidden card, the language switches, and a phone-sized page fits its screen.

The server is a real uvicorn in a thread; bots move at once. Without chromium these tests skip
and say how to run them (``bash .ci/run`` installs it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

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
from web_helpers import (
    HTTP,
    Player,
    check_messages,
    create,
    join,
    records,
    start,
)

# No pause before bot moves; a short one between deals so that a page sees the deal's end.


def table_status(page: Page) -> str:
    return page.locator(".table-head .status").inner_text()


def play_tonk_turn(page: Page, turns: dict[int, int], key: int) -> bool:
    """A person's Tonk turn by clicking: draw from the stock, then discard a card; from the third
    turn on they drop when they may (so the deal ends soon). True if a move was sent, False if a
    card was only selected (its discard is pressed at the next look)."""
    moves = move_buttons(page)
    turns[key] = turns.get(key, 0) + ("draw stock" in moves)
    if "drop" in moves and turns[key] >= 3:
        return click_move(page, lambda m: m == "drop")
    if "draw stock" in moves:
        return click_move(page, lambda m: m == "draw stock")
    if any(m.startswith("discard ") for m in moves):
        return click_move(page, lambda m: m.startswith("discard "))
    # No waiting for the discard here: an update that arrives meanwhile draws the hand again, and
    # the selection with it.
    try_click(page.locator(".my-area .hand button.card").first)
    return False


def test_two_people_and_a_bot_play_a_whole_tonk_deal_by_clicking(
    browser: Browser, base: str
) -> None:
    """T5-T9: the host creates the table in the lobby form, a friend joins by the invite link
    (without typing anything), both play by clicking (draw, discard, drop), a bot plays the
    third seat; the deal's payments are on the score sheet (they sum to zero) and the log tells
    the drop."""
    host = new_page(browser)
    host.goto(base + "/")
    host.evaluate("localStorage.setItem('tt_lang', 'en')")
    host.reload()
    host.wait_for_selector("form.create")
    host.select_option("select[name=game]", "tonk")
    host.select_option("select[name=players]", "3")
    host.select_option("select[name=seat-1]", "person")
    host.select_option("select[name=seat-2]", "easy")
    host.fill("input[name=host_name]", "Anna")
    host.fill("input[name=deals]", "5")
    host.click("button[name=create]")
    invite = host.locator(".created .invite input").input_value()
    assert re.fullmatch(rf"{re.escape(base)}/t/[\w-]+", invite)
    host.click(".created a.button")
    host.wait_for_selector("[data-action=start]")
    friend = new_page(browser)
    friend.goto(base + "/")
    friend.evaluate("localStorage.setItem('tt_lang', 'en')")
    friend.goto(invite)
    friend.click(".join button[type=submit]")  # no name typed: the seat's default name
    friend.wait_for_selector(".seat.mine")
    assert friend.locator(".seat.mine .name").inner_text() == "Player 2"
    host.wait_for_function("document.querySelectorAll('.badge.free').length === 0")
    host.click("[data-action=start]")
    turns: dict[int, int] = {}
    pages = [host, friend]
    # A deal may end on the deal (T4: a Tonk dealt) before anyone moves: the deal that counts is
    # the first one in which a person clicked, and it is over when the sheet has its row.
    clicked_in: list[int] = []

    def step() -> bool:
        for k, page in enumerate(pages):
            if my_decision(page):
                if not clicked_in:
                    clicked_in.append(host.locator(".sheet tbody.entry").count())
                play_tonk_turn(page, turns, k)
        return bool(clicked_in) and host.locator(".sheet tbody.entry").count() > clicked_in[0]

    wait_until(step, timeout=120)
    row = host.locator(".sheet tbody.entry").nth(clicked_in[0]).locator("tr").first
    points = [float(x) for x in row.locator("td").all_inner_texts()]
    assert sum(points) == 0 and any(points)
    log = host.locator(".log").inner_text()
    # A name in a sentence is isolated (FSI … PDI, issue 24 item 5).
    assert re.search(r"\u2068(Anna|Player 2)\u2069 (draws|drops|discards)", log)
    assert turns.get(0, 0) + turns.get(1, 0) >= 1
    assert host.errors == [] and friend.errors == []  # type: ignore[attr-defined]


def play_towers_turn(page: Page) -> None:
    """A Three Towers decision by clicking: a move with cards of the hand if one can be made
    by selecting one or two cards, else a button without cards (pass, fail, yield, done…)."""
    if select_and_play(page):
        return
    # Read after trying the cards: the decision may have passed meanwhile (the next poll plays
    # the next one).
    moves = move_buttons(page)
    if not moves:
        return
    plain = [m for m in moves if m and not m.startswith("redeal")]
    target = plain[0] if plain else moves[0]
    click_move(page, lambda m: m == target)


def test_two_people_and_a_bot_play_a_whole_three_towers_round_by_clicking(
    browser: Browser, base: str
) -> None:
    """R4-R14: a game of one round (max_rounds 1): trades answered out of turn, towers, attacks
    and their defences, all by clicking; the round's count is on the score sheet."""
    made = create(
        base,
        "three-towers",
        [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
        options={"max_rounds": 1},
        host_seat=0,
        host_name="Zarr",
        deals=1,
    )
    table = made["table"]["id"]
    other = join(base, table, "Ilse")
    pages = [new_page(browser), new_page(browser)]
    sit(pages[0], base, table, made["token"], made["host_token"])
    sit(pages[1], base, table, other["token"])
    pages[0].click("[data-action=start]")
    seen_out_of_turn = []

    def step() -> bool:
        for page in pages:
            if my_decision(page):
                # Read without waiting: the move bar can be drawn a moment before the prompt, or
                # outlive it when the decision passes; inner_text() would wait 30 s for it.
                prompt = " ".join(page.locator(".prompt.yours").all_inner_texts())
                if "answer" in prompt or "attacks you" in prompt:
                    seen_out_of_turn.append(prompt)
                play_towers_turn(page)
        return pages[0].locator(".sheet tfoot").count() > 0

    wait_until(step, timeout=240)
    foot = pages[0].locator(".sheet tfoot").inner_text()
    assert "won" in foot
    assert pages[0].locator(".sheet tbody.entry").count() == 1
    assert seen_out_of_turn  # answers to trades were asked of the seat that must answer
    final = records(base, table)
    assert len(final) == 1
    for page in pages:
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_score_sheet_explains_every_tower_bonus_and_the_150(
    browser: Browser, base: str
) -> None:
    """R13-R14: three bots play a Three Towers game with towers of 10 goods (R29) until one has
    built three; the spectator's score sheet names each round's tower and its bonus (♥ doubled,
    ♦ +50, ♣ take, dark give), the +150 of the third tower, and who won and why."""
    made = create(
        base,
        "three-towers",
        [{"kind": "bot", "level": "medium"}] * 3,
        options={"tower_goal": 10},
        deals=1,
    )
    page = new_page(browser)
    page.goto(base + "/")
    page.evaluate("localStorage.setItem('tt_lang', 'en')")
    page.goto(f"{base}/t/{made['table']['id']}")
    page.wait_for_selector(".table-head")
    start(base, made["table"]["id"], made["host_token"])
    page.wait_for_selector(".sheet tfoot", timeout=90000)
    sheet = page.locator(".sheet").inner_text()
    rounds = page.locator(".sheet tbody.entry").count()
    towers = len(re.findall(r"finished a (♥|♦|♣|dark) tower", sheet))
    assert towers >= 3 and rounds >= 3
    assert "built a third tower: +150 (R14)" in sheet
    assert re.search(r"wins with \d+|still won with \d+", sheet)
    if "finished a ♥ tower" in sheet:
        assert re.search(r"round points doubled, -?\d+ × 2 = -?\d+", sheet)


def start_tonk(base: str, extra: dict[str, Any] | None = None) -> tuple[dict[str, Any], str]:
    made = create(
        base,
        "tonk",
        [{"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        host_seat=0,
        host_name="Anna",
        deals=50,
        absent_seconds=600,
        **(extra or {}),
    )
    return made, made["table"]["id"]


def test_a_table_waiting_to_start_shows_its_seats_on_every_load(
    browser: Browser, base: str
) -> None:
    """The first messages of the WebSocket may arrive before the page's components listen for
    changes (a table in the lobby sends no more after them): the page must show them anyway.
    Loaded ten times, the host sees the seats, the invite link and Start every time."""
    made, table = start_tonk(base)
    page = new_page(browser)
    sit(page, base, table, made["token"], made["host_token"])
    for _ in range(10):
        page.reload()
        page.wait_for_selector("[data-action=start]", timeout=5000)
        assert page.locator(".seat").count() == 3
        assert page.locator(".invite input").input_value().endswith(f"/t/{table}")


def test_a_refresh_mid_game_keeps_the_seat(browser: Browser, base: str) -> None:
    """The seat's token kept in the browser sits it down again; the turn timer counts down."""
    made, table = start_tonk(base, {"turn_seconds": 300})
    page = new_page(browser)
    sit(page, base, table, made["token"], made["host_token"])
    page.click("[data-action=start]")
    wait_until(lambda: my_decision(page))
    hand = page.locator(".my-area .hand button.card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    page.reload()
    page.wait_for_selector(".seat.mine")
    assert page.locator(".seat.mine .name").inner_text() == "Anna"
    assert page.locator(".seat.mine .badge.you").count() == 1
    wait_until(lambda: my_decision(page))
    again = page.locator(".my-area .hand button.card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    assert sorted(again) == sorted(hand) or len(again) == 5  # the same hand, or the next deal's
    timer = page.locator(".prompt.yours .timer").inner_text()
    assert re.fullmatch(r"\s*\d{1,3} s", timer) and 250 < int(timer.split()[0]) <= 300
    # The clock is drawn: it needs no emoji font.
    assert page.locator(".prompt.yours .timer svg.clock").count() == 1


def test_an_illegal_move_shows_the_rule_and_links_to_it(browser: Browser, base: str) -> None:
    """T5: a discard before drawing, forced through the page's own connection, is refused; the
    page says why in words and links to rule T5 on the rules page."""
    made, table = start_tonk(base)
    page = new_page(browser)
    sit(page, base, table, made["token"], made["host_token"])
    page.click("[data-action=start]")
    wait_until(lambda: "draw stock" in move_buttons(page))
    card = page.locator(".my-area .hand button.card").first.get_attribute("data-card")
    page.evaluate(
        "async (move) => (await import('/static/js/net.js')).send({type: 'move', move})",
        f"discard {card}",
    )
    error = page.locator(".notice.error")
    error.wait_for()
    assert "draw first: you may discard only after drawing" in error.inner_text().lower()
    link = error.locator("a.rule")
    assert link.inner_text() == "rule T5"
    assert link.get_attribute("href") == "/rules/tonk?lang=en#T5"
    href = link.get_attribute("href") or ""
    page.keyboard.press("Escape")  # the keyboard clears the message
    assert page.locator(".notice.error").count() == 0
    rules = new_page(browser)
    rules.goto(base + href)
    assert rules.locator("#T5").count() == 1
    assert "T5 A turn" in rules.locator("h2:has(#T5)").inner_text()


def test_a_spectators_page_holds_no_hidden_card(browser: Browser, base: str) -> None:
    """T6/R16: every WebSocket message the spectator's page received is exactly the spectator's
    view (recomputed from the records), and every card on its page is in those messages; the
    page has no hand."""
    made = create(
        base,
        "tonk",
        [{"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        host_seat=0,
        host_name="Anna",
        deals=2,
    )
    table = made["table"]["id"]
    player = new_page(browser)
    sit(player, base, table, made["token"], made["host_token"])
    watcher = new_page(browser)
    frames = Frames(watcher)
    sit(watcher, base, table, None)
    watcher.wait_for_selector(".badge:has-text('watching')")
    player.click("[data-action=start]")
    turns: dict[int, int] = {}
    cards_on_page: set[str] = set()

    def step() -> bool:
        if my_decision(player):
            play_tonk_turn(player, turns, 0)
        cards_on_page.update(
            watcher.locator("[data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
        )
        # T7: nobody's stock draw shows its card to the spectator (the log says "draws from").
        assert not re.search(r"draws \S+ from the stock", watcher.locator(".log").inner_text())
        return "over" in table_status(watcher)

    wait_until(step, timeout=90)
    assert watcher.locator(".my-area, .move-bar").count() == 0
    received = frames.messages
    assert frames.updates()
    spectator = Player("", None, 0, frames=[json.dumps(m) for m in received])
    assert check_messages(records(base, table), spectator) == len(frames.updates())
    text = " ".join(str(m) for m in received)
    assert cards_on_page and all(f"'{c}'" in text for c in cards_on_page)


def test_the_language_is_the_browsers_and_switches_and_is_remembered(
    browser: Browser, base: str
) -> None:
    page = new_page(browser, locale="ru-RU")
    page.goto(base + "/")
    page.wait_for_selector("form.create")
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.locator("form.create h2").inner_text() == "Создать стол"
    page.select_option("select[name=language]", "hu")
    page.wait_for_function("document.documentElement.lang === 'hu'")
    assert page.locator("form.create h2").inner_text() == "Asztal létrehozása"
    page.reload()
    page.wait_for_selector("form.create")
    assert page.evaluate("document.documentElement.lang") == "hu"
    # Card names on the table too: a Hungarian table names the jack "lovag".
    made, table = start_tonk(base)
    page.evaluate(
        f"localStorage.setItem('tt_seat_{table}', '{made['token']}');"
        f"localStorage.setItem('tt_host_{table}', '{made['host_token']}')"
    )
    page.goto(f"{base}/t/{table}")
    page.click("[data-action=start]")
    wait_until(lambda: my_decision(page))
    labels = " ".join(
        page.locator(".my-area .hand button.card").evaluate_all(
            "cards => cards.map(c => c.getAttribute('aria-label'))"
        )
    )
    assert re.search(r"(kőr|káró|pikk|treff)", labels)
    assert page.locator(".my-area h2").inner_text() == "A kezed"


@pytest.mark.parametrize("width", [360, 390])
def test_a_phone_sized_table_fits_its_screen(
    browser: Browser, base: str, tmp_path: Path, width: int
) -> None:
    """Phones of 360 and 390 px: the table page scrolls down, never sideways; a screenshot is
    saved."""
    made = create(
        base,
        "three-towers",
        [
            {"kind": "person"},
            {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "easy"},
        ],
        host_seat=0,
        host_name="Zarr",
        deals=1,
        absent_seconds=600,
    )
    table = made["table"]["id"]
    page = new_page(browser, width=width, height=800)
    sit(page, base, table, made["token"], made["host_token"])
    page.click("[data-action=start]")
    wait_until(lambda: my_decision(page))
    shot = tmp_path / f"phone-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert not overflows(page)
    page.goto(base + "/")
    page.wait_for_selector("form.create")
    assert not overflows(page)


def test_the_lobby_and_the_table_name_each_game_and_link_its_rules_from_the_servers_list(
    browser: Browser, base: str
) -> None:
    """Issue 22, item 3: the page keeps no table of games; ``/api/games`` gives each game's
    title key, lobby line and rules page (Tőr's and pagat's rules are Tonk's page)."""
    words = json.loads(
        (Path(__file__).parents[2] / "src/taverntable/web/static/i18n/en.json").read_text()
    )
    games = HTTP.get(f"{base}/api/games").json()
    page = new_page(browser)
    page.goto(base + "/")
    page.wait_for_selector("form.create")
    options = page.locator("select[name=game] option").all_inner_texts()
    assert options == [words[g["title_key"]] for g in games]
    about = page.locator("form.create p.sub").first
    for game in games:
        page.select_option("select[name=game]", game["name"])
        wait_until(lambda g=game: words[g["about_key"]] in about.inner_text())
        href = about.locator("a[href^='/rules/']").get_attribute("href") or ""
        assert href.startswith(f"/rules/{game['rules']}?"), (game["name"], href)
        # Issue 26 item 5: and the game's own how-to-play page.
        howto = about.locator("a[data-link=how-to-play]").get_attribute("href") or ""
        assert howto.startswith(f"/how-to-play/{game['name']}?"), (game["name"], howto)
    assert {g["name"]: g["rules"] for g in games if g["family"] == "tonk"} == {
        "tonk": "tonk",
        "tor": "tonk",
        "pagat": "tonk",
    }
    tor = next(g for g in games if g["name"] == "tor")
    made = create(base, "tor", [{"kind": "person"}, {"kind": "bot", "level": "easy"}], host_seat=0)
    sit(page, base, made["table"]["id"], made["token"], made["host_token"])
    page.wait_for_selector(".table-head h1")
    wait_until(lambda: page.locator(".table-head h1").inner_text() == words[tor["title_key"]])
    howto = page.locator(".table-head a[data-link=how-to-play]").get_attribute("href") or ""
    assert howto.startswith("/how-to-play/tor?")
    rules = page.locator(".table-head a[href^='/rules/']").get_attribute("href") or ""
    assert rules.startswith("/rules/tonk?"), rules
    assert page.errors == []  # type: ignore[attr-defined]
