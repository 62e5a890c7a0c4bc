"""Helpers for the browser tests: Debian's chromium driven by Playwright, and a person's clicks.

The browser is the system's chromium, launched by its path (``TAVERN_TEST_CHROMIUM`` or
``/usr/bin/chromium``): ``playwright install`` is never needed. Without one the tests skip and
say how to get it.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

CHROMIUM_ENV = "TAVERN_TEST_CHROMIUM"
# A click waits this long (ms) for its card or button: the table is drawn again on every update,
# and a decision can pass (an answer given by another seat) while a test clicks, so an element
# that is gone is not waited for with the page's 30 s.
CLICK_TIMEOUT = 5000
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def chromium_path() -> str:
    """The chromium to drive; the test is skipped (saying how to get one) without it."""
    given = os.environ.get(CHROMIUM_ENV)
    for candidate in (given, "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.skip(
        f"no chromium: apt-get install -y chromium (bash .ci/services.sh does it), or set "
        f"{CHROMIUM_ENV}=/path/to/chromium, to run the browser tests"
    )


class Frames:
    """Every WebSocket message a page received, as JSON."""

    def __init__(self, page: Page) -> None:
        self.messages: list[dict[str, Any]] = []
        page.on("websocket", self._watch)

    def _watch(self, ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: self.messages.append(
                json.loads(payload if isinstance(payload, str) else payload.decode())
            ),
        )

    def updates(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("type") == "update"]


def new_page(browser: Browser, width: int = 1280, height: int = 900, locale: str = "en-GB") -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    # Generous: the machine's two cores may be busy with other tests.
    page.set_default_timeout(30000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def sit(page: Page, base: str, table: str, token: str | None, host: str | None = None) -> None:
    """Open the table as a seat whose token this browser keeps (as after creating or joining)."""
    page.goto(base + "/")
    script = []
    if token:
        script.append(f"localStorage.setItem('tt_seat_{table}', '{token}');")
    if host:
        script.append(f"localStorage.setItem('tt_host_{table}', '{host}');")
    script.append("localStorage.setItem('tt_lang', 'en');")
    page.evaluate("".join(script))
    page.goto(f"{base}/t/{table}")
    try:
        page.wait_for_selector(".table-head")
    except Exception as e:
        raise AssertionError(
            f"the table page did not open: {page.errors} "  # type: ignore[attr-defined]
            f"{page.locator('body').inner_text()[:300]!r}"
        ) from e


def move_buttons(page: Page) -> list[str]:
    """The moves the move bar offers now, read in one step (no element is waited for)."""
    moves: list[str] = page.locator(".move-bar button.move").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('data-move') || '')"
    )
    return moves


def try_click(locator: Locator) -> bool:
    """Click, or False if the element is gone or stays hidden (``CLICK_TIMEOUT``)."""
    try:
        locator.click(timeout=CLICK_TIMEOUT)
    except PlaywrightTimeoutError:
        return False
    return True


def click_move(page: Page, want: Callable[[str], bool]) -> bool:
    """Click the first offered move button whose move ``want`` accepts; False if there is none
    (or the bar was drawn again before the click)."""
    for k, move in enumerate(move_buttons(page)):
        if want(move):
            return try_click(page.locator(".move-bar button.move").nth(k))
    return False


def select_and_play(page: Page) -> bool:
    """Play a move with cards as a person would: click playable cards of the hand until a move
    button with those cards appears, then press it. False if no selection of up to two cards
    gives one, or the hand was drawn again meanwhile (the caller looks again)."""
    cards = page.locator(".my-area .hand button.card.playable")
    with_cards = page.locator(".move-bar button.with-cards")
    count = cards.count()
    for first in range(count):
        page.keyboard.press("Escape")
        if not try_click(cards.nth(first)):
            break
        if with_cards.count():
            return try_click(with_cards.first)
        for second in range(first + 1, count):
            if not try_click(cards.nth(second)):
                break
            if with_cards.count():
                return try_click(with_cards.first)
            try_click(cards.nth(second))  # unselect it and try another
    page.keyboard.press("Escape")
    return False


def wait_until(check: Callable[[], bool], timeout: float = 60.0, step: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(step)


def my_decision(page: Page) -> bool:
    return page.locator(".move-bar").count() > 0


def overflows(page: Page) -> bool:
    """Whether the page is wider than the window (a horizontal scroll bar)."""
    return bool(
        page.evaluate(
            "document.documentElement.scrollWidth > document.documentElement.clientWidth + 1"
        )
    )
