"""The replay viewer in a real browser (Debian's chromium, driven by Playwright): a finished deal
stepped through with →, ← and the buttons (the hand and the log are the engine's at every step),
a shared link's step, every hand open, a record file chosen or dropped onto /replay, a refused
record's reason, and screenshots at 1280×800 and 390×844 (``TAVERN_TEST_SHOTS=DIR`` keeps them).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from taverntable.engine import SPECTATOR
from taverntable.records import replay_record

from browser_helpers import new_page, overflows, wait_until
from web_helpers import HTTP, create, records, sqlite_url, start, stored_record, wait_for_a_person


def finished_table(
    base: str, game: str, options: dict[str, Any] | None = None, deals: int = 1
) -> str:
    """A table of three medium bots that has played its match of ``deals`` to its end."""
    made = create(
        base,
        game,
        [{"kind": "bot", "level": "medium"}] * 3,
        options=options or {},
        deals=deals,
    )
    table: str = made["table"]["id"]
    start(base, table, made["host_token"])
    wait_until(lambda: HTTP.get(f"{base}/api/tables/{table}").json()["status"] == "finished")
    return table


def hands_by_step(record: dict[str, Any], seat: int) -> list[list[str]]:
    """The seat's hand after each of the record's first k moves, by the engine."""
    head = {k: v for k, v in record.items() if k not in ("moves", "result")}
    state = replay_record({**head, "moves": []}).state
    out = [state.view(seat).to_json()["hand"]]
    for _, text in record["moves"]:
        state.apply(state.parse_move(text))
        out.append(state.view(seat).to_json()["hand"])
    return out


def shown_hand(page: Page) -> list[str]:
    cards: list[str] = page.locator(".seats.mine .open-cards [data-card]").evaluate_all(
        "cards => cards.map(c => c.getAttribute('data-card'))"
    )
    return cards


def step_of(page: Page) -> int:
    text = page.locator(".step-count").inner_text()
    return 0 if text.startswith("as dealt") else int(text.split()[1])


def log_lines(page: Page) -> int:
    return page.locator(".log li").count()


def shots() -> Path | None:
    folder = os.environ.get("TAVERN_TEST_SHOTS")
    return Path(folder) if folder else None


def save(page: Page, folder: Path, name: str) -> Path:
    path = folder / name
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
    return path


def english(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.evaluate("localStorage.setItem('tt_lang', 'en')")


def test_a_finished_deal_steps_back_and_forth_from_a_seat_and_open(
    browser: Browser, base: str, tmp_path: Path
) -> None:
    table = finished_table(base, "tonk", deals=3)
    # The longest of three deals (a drop may end one after a move or two, T6).
    number, record = max(enumerate(records(base, table), 1), key=lambda d: len(d[1]["moves"]))
    moves = len(record["moves"])
    assert moves >= 3
    hands = hands_by_step(record, 0)
    page = new_page(browser, width=1280, height=800)
    english(page, base)
    # The table's page links to its last deal's replay.
    page.goto(f"{base}/t/{table}")
    link = page.locator("[data-action=replay]")
    assert link.get_attribute("href") == f"/replay/{table}/3" and link.inner_text() == (
        "Watch deal 3 again"
    )
    link.click()
    page.wait_for_selector(".replay-controls")
    assert page.url.endswith(f"/replay/{table}/3")
    page.goto(f"{base}/replay/{table}/{number}?seat=0")
    page.wait_for_selector(".replay-controls")
    assert step_of(page) == 0 and set(shown_hand(page)) == set(hands[0])
    seen = [log_lines(page)]
    for k in range(1, min(6, moves) + 1):
        page.keyboard.press("ArrowRight")
        wait_until(lambda k=k: step_of(page) == k)
        assert set(shown_hand(page)) == set(hands[k]), k
        seen.append(log_lines(page))
    assert seen[-1] > seen[0], (moves, seen)  # the log tells the moves
    assert page.url.endswith(f"#m={min(6, moves)}")
    page.keyboard.press("ArrowLeft")
    at = min(6, moves) - 1
    wait_until(lambda: step_of(page) == at)
    assert set(shown_hand(page)) == set(hands[at]) and log_lines(page) == seen[at]
    assert page.locator(".sheet tbody.entry").count() == number - 1  # not over yet
    page.click("[data-action=last]")
    wait_until(lambda: step_of(page) == moves)
    assert set(shown_hand(page)) == set(hands[moves])
    # The score sheet: the match's deals up to this one, its own row at its end.
    assert page.locator(".sheet tbody.entry").count() == number
    folder = shots() or tmp_path
    save(page, folder, "replay-tonk-seat-1280.png")
    # A shared link opens at its step; every hand open shows each seat's cards.
    page.goto(f"{base}/replay/{table}/{number}?seat=open#m=3")
    page.wait_for_selector(".replay-controls")
    assert step_of(page) == min(3, moves)
    open_hands = [hands_by_step(record, s)[min(3, moves)] for s in range(3)]
    for s in range(3):
        shown = page.locator(f"[data-open-seat='{s}'] [data-card]").evaluate_all(
            "cards => cards.map(c => c.getAttribute('data-card'))"
        )
        assert set(shown) == set(open_hands[s]), s
    page.click("[data-action=back]")
    wait_until(lambda: step_of(page) == min(3, moves) - 1)
    save(page, folder, "replay-tonk-open-1280.png")
    phone = new_page(browser, width=390, height=844)
    english(phone, base)
    phone.goto(f"{base}/replay/{table}/{number}?seat=open#m={moves}")
    phone.wait_for_selector(".replay-controls")
    assert not overflows(phone)
    save(phone, folder, "replay-tonk-open-390.png")
    assert not page.errors and not phone.errors  # type: ignore[attr-defined]


def test_a_three_towers_game_and_a_record_file_chosen_or_dropped(
    browser: Browser, base: str, tmp_path: Path
) -> None:
    table = finished_table(base, "three-towers", {"max_rounds": 1})
    text = HTTP.get(f"{base}/api/tables/{table}/records", params={"deal": 1}).text
    (record,) = [json.loads(line) for line in text.splitlines()]
    page = new_page(browser, width=1280, height=800)
    english(page, base)
    page.goto(f"{base}/replay")
    page.wait_for_selector(".drop-zone")
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    page.set_input_files("input[type=file]", str(path))
    page.wait_for_selector(".replay-controls")
    assert page.locator(".step-count").inner_text() == f"as dealt ({len(record['moves'])} moves)"
    page.keyboard.press("End")
    wait_until(lambda: step_of(page) == len(record["moves"]))
    assert page.locator(".sheet tfoot").count() == 1  # the game's total, from its result
    winners = record["result"]["winners"]
    assert page.locator(".sheet td.winner").count() == len(winners), (
        winners,
        page.locator(".sheet").inner_html(),
    )
    page.keyboard.press("Home")
    wait_until(lambda: step_of(page) == 0)
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    wait_until(lambda: step_of(page) == 10)
    folder = shots() or tmp_path
    save(page, folder, "replay-towers-file-1280.png")
    # A file dropped onto the page: two records, the first refused (a move out of turn).
    bad = {**record, "moves": [[(record["moves"][0][0] + 1) % 3, record["moves"][0][1]]]}
    both = json.dumps(bad) + "\n" + text
    page.evaluate(
        """(text) => {
          const data = new DataTransfer();
          data.items.add(new File([text], "two.jsonl", {type: "application/x-ndjson"}));
          document.querySelector("main.replay-page").dispatchEvent(
            new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        }""",
        both,
    )
    wait_until(lambda: page.locator("select[name=record] option").count() == 2)
    assert "two.jsonl" in page.locator(".drop-zone").inner_text()
    assert page.locator("select[name=record] option").first.is_disabled()
    assert "upload:1: move 1" in page.locator(".drop-zone .rejected").inner_text()
    wait_until(lambda: step_of(page) == 0)
    # Only the refused record: its reason, in the page's notice.
    page.evaluate(
        """(text) => {
          const data = new DataTransfer();
          data.items.add(new File([text], "bad.json"));
          document.querySelector("main.replay-page").dispatchEvent(
            new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        }""",
        json.dumps(bad),
    )
    page.wait_for_selector(".notice.error")
    notice = page.locator(".notice.error").inner_text()
    assert notice.startswith("The record is refused: upload: move 1") and "turn" in notice
    phone = new_page(browser, width=390, height=844)
    english(phone, base)
    phone.goto(f"{base}/replay/{table}/1?seat=1#m=10")
    phone.wait_for_selector(".replay-controls")
    assert not overflows(phone)
    save(phone, folder, "replay-towers-seat-390.png")
    assert not page.errors and not phone.errors  # type: ignore[attr-defined]


def test_a_deal_in_play_is_shown_only_as_a_spectator_to_a_stranger(
    browser: Browser, base: str, tmp_path: Path
) -> None:
    """A stranger's link asking for every hand of a deal in play: the page says why not and
    shows the deal as a spectator sees it, with no card of the person's hand anywhere."""
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
        absent_seconds=3600,
    )
    table = made["table"]["id"]
    start(base, table, made["host_token"])
    deal = wait_for_a_person(base, table, {0})
    record = stored_record(sqlite_url(tmp_path), table, deal)  # the base fixture's database
    head = {k: v for k, v in record.items() if k not in ("moves", "result")}
    state = replay_record({**head, "moves": record["moves"]}).state
    hidden = set(state.view(0).to_json()["hand"]) - set(state.view(SPECTATOR).to_json()["known"][0])
    assert hidden
    page = new_page(browser, width=1280, height=800)
    english(page, base)
    page.goto(f"{base}/replay/{table}/{deal}?seat=open#m=0")
    page.wait_for_selector(".replay-controls")
    assert (
        page.locator(".notice.error")
        .inner_text()
        .startswith("This deal is still being played: every hand is shown once it is over.")
    )
    assert page.locator("select[name=seat]").input_value() == "spectator"
    assert page.locator(".open-cards").count() == 0
    page.keyboard.press("End")
    wait_until(lambda: step_of(page) == len(record["moves"]))
    shown = set(
        page.locator("[data-card]").evaluate_all(
            "cards => cards.map(c => c.getAttribute('data-card'))"
        )
    )
    assert shown and not shown & hidden
    assert "still being played" in page.locator("p.notice").inner_text()
    save(page, shots() or tmp_path, "replay-in-play-1280.png")
    assert not page.errors  # type: ignore[attr-defined]
