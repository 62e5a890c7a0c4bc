"""The guided first deals in chromium (issue 26, item 5): from the lobby's "Learn by playing" a
person plays each game's lesson to its end doing what the hints say (selecting the cards it
names and pressing the button it names), in each of the four languages; a legal move that is
not the lesson's brings the hint back with a notice; the end shows the showdown, then the
closing message with links to a real table and the how-to-play page. Screenshots of a hint
step at 1280×800 and 390×844 are kept under ``TAVERN_TEST_SHOTS`` (or the test's tmp folder).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from taverntable.web.tutorial import LESSONS

from browser_helpers import new_page, wait_until
from paths import SRC

I18N = SRC / "web" / "static" / "i18n"
CARD = re.compile(r"^(?:10|[2-9AJQK])[SHDC]$|^X$")
# The step of each lesson whose hint is photographed, and the step where a wrong move is tried.
SHOT_STEP = {"tonk": 4, "three-towers": 5}
WRONG_STEP = {"tonk": (1, "discard 2C"), "three-towers": (0, "trade 4S")}


def words(lang: str) -> dict[str, str]:
    table: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text("utf-8"))
    return table


def shots(tmp_path: Path) -> Path:
    folder = Path(
        os.environ.get("TAVERN_TEST_SHOTS") or os.environ.get("TAVERN_SCREENSHOTS") or tmp_path
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def panel(page: Page) -> dict[str, Any]:
    """The lesson panel's step, awaited move and state, read in one step."""
    found: dict[str, Any] = page.evaluate(
        """() => { const p = document.querySelector('.lesson');
          return p ? {step: Number(p.dataset.step), move: p.dataset.move,
            done: p.dataset.done === 'true', missed: p.classList.contains('missed'),
            text: p.innerText} : null; }"""
    )
    return found


def ready(found: dict[str, Any] | None) -> bool:
    """The panel shows the end, or a step of the person's."""
    return found is not None and (found["done"] or bool(found["move"]))


def do_move(page: Page, move: str) -> None:
    """What the hint says, as a person does it: select the move's cards in the hand, then
    press the move's button."""
    page.keyboard.press("Escape")
    for card in [w for w in move.split() if CARD.match(w)]:
        page.locator(f'.my-area .hand button.card[data-card="{card}"]:not(.selected)').first.click()
    page.locator(f'.move-bar button.move[data-move="{move}"]').click()


@pytest.mark.parametrize("lang", ["en", "hu", "ru", "uk"])
@pytest.mark.parametrize("name", ["tonk", "three-towers"])
def test_a_newcomer_plays_the_guided_first_deal_to_its_end(
    browser: Browser, base: str, tmp_path: Path, name: str, lang: str
) -> None:
    lesson = LESSONS[name]
    w = words(lang)
    page = new_page(browser, 1280, 800)
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('tt_lang', '{lang}')")
    page.goto(base + "/")
    learn = page.locator(f'.learn a[data-lesson="{name}"]')
    learn.wait_for()
    assert w["lesson.learn"] in page.locator(".learn").inner_text()
    learn.click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.wait_for_selector(".lesson")
    seen_steps: list[int] = []
    tried_wrong = False
    while True:
        wait_until(
            lambda: panel(page) is not None and (panel(page)["done"] or bool(panel(page)["move"])),
            30,
        )
        now = panel(page)
        if now["done"]:
            break
        step = lesson.steps[now["step"]]
        assert now["move"] == step.move and step.seat == 0
        assert w["error.rule_link"].replace("{rule}", step.rule) in now["text"]
        seen_steps.append(now["step"])
        if now["step"] == SHOT_STEP[name] and lang in ("en", "hu", "ru", "uk"):
            folder = shots(tmp_path)
            page.screenshot(path=str(folder / f"lesson-{name}-{lang}-1280.png"))
            page.set_viewport_size({"width": 390, "height": 844})
            page.locator(".lesson").scroll_into_view_if_needed()
            page.screenshot(path=str(folder / f"lesson-{name}-{lang}-390.png"))
            assert page.locator(".lesson .lesson-hint").is_visible()
            page.set_viewport_size({"width": 1280, "height": 800})
        wrong_step, wrong = WRONG_STEP[name]
        if now["step"] == wrong_step and not tried_wrong:
            tried_wrong = True
            do_move(page, wrong)  # legal, but not the lesson's move
            wait_until(lambda: panel(page)["missed"], 15)
            assert w["lesson.again"] in page.locator(".lesson .lesson-again").inner_text()
            assert w["error.lesson-step"] in page.locator(".my-area .notice.error").inner_text()
            assert panel(page)["step"] == now["step"]  # the table did not move
        do_move(page, step.move)
        wait_until(lambda s=now["step"]: panel(page)["step"] != s, 30)
    assert seen_steps == [i for i, s in enumerate(lesson.steps) if s.seat == 0]
    assert tried_wrong
    # The deal's end: the showdown that decided it, then the closing message and its links.
    page.locator(".showdown").wait_for()
    page.screenshot(path=str(shots(tmp_path) / f"lesson-{name}-{lang}-end.png"))
    page.locator('.showdown button[data-action="continue"]').click()
    closing = page.locator(".lesson.done")
    closing.wait_for()
    text = closing.inner_text()
    assert w["lesson.done"] in text
    assert closing.locator('a[data-link="real-table"]').get_attribute("href") == "/"
    howto = closing.locator('a[data-link="how-to-play"]').get_attribute("href")
    assert howto == f"/how-to-play/{lesson.game}?lang={lang}"
    # The closing message says the result as the engine reaches it from the lesson's script.
    state = lesson.deal(["You", lesson.bot_name])
    for step in lesson.steps:
        state.apply(state.parse_move(step.move))
    assert state.result is not None
    ending = lesson.end_params(state.result.to_json())
    assert f"{ending['mine']}" in text and f"{ending['theirs']}" in text
    assert not page.locator('button[data-action="rematch"]').count()
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_how_to_play_page_offers_the_lesson(browser: Browser, base: str) -> None:
    """The how-to-play page's "Learn by playing" opens a lesson's table in its language."""
    page = new_page(browser, 1280, 800)
    page.goto(base + "/how-to-play/tor?lang=ru")
    link = page.locator('a[data-link="learn"]')
    assert link.get_attribute("href") == "/learn/tonk?lang=ru"
    link.click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.wait_for_selector(".lesson .lesson-hint")
    hint = page.locator(".lesson .lesson-hint").inner_text()
    assert words("ru")["lesson.tonk.draw_stock"].split(":")[0] in hint
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
