"""The lobby's rule options for R34 (♠ jacks raid) and R35 (a third deck) in a real browser: the
form shows both, labelled in every language, refuses R34 without R32 with the rules' one line
naming both rules, and makes the table with both. Without chromium these tests skip."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from browser_helpers import new_page, wait_until

I18N = Path(__file__).parents[2] / "src/taverntable/web/static/i18n"


def _open_options(page: Page, base: str, lang: str) -> None:
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('tt_lang', '{lang}')")
    page.reload()
    page.wait_for_selector("form.create")
    page.select_option("select[name=game]", "three-towers")
    page.wait_for_selector("form.create input[name=decks]", state="attached")
    page.locator("details.options summary").click()


@pytest.mark.parametrize("lang", ["en", "hu", "ru", "uk"])
def test_R34_R35_the_lobby_labels_both_options_in_every_language(
    browser: Browser, base: str, lang: str, tmp_path: Path
) -> None:
    words = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    page = new_page(browser)
    _open_options(page, base, lang)
    raids = page.locator("details.options label", has=page.locator("input[name=spade_jack_raids]"))
    decks = page.locator("details.options label", has=page.locator("input[name=decks]"))
    assert raids.inner_text().strip() == words["opt.spade_jack_raids"]
    assert decks.inner_text().strip() == words["opt.decks"]
    assert "R34" in words["opt.spade_jack_raids"] and "R35" in words["opt.decks"]
    assert page.locator("input[name=decks]").input_value() == "2"  # today's rules (R1)
    assert not page.locator("input[name=spade_jack_raids]").is_checked()
    if lang == "en":  # docs/screenshots/lobby-options-r34-r35.png (TAVERN_TEST_SHOTS=DIR)
        shots = Path(os.environ.get("TAVERN_TEST_SHOTS") or tmp_path)
        shots.mkdir(parents=True, exist_ok=True)
        page.locator("form.create").screenshot(path=str(shots / "lobby-options-r34-r35.png"))


def test_R34_without_R32_is_refused_in_the_lobby_and_made_with_it(
    browser: Browser, base: str
) -> None:
    page = new_page(browser)
    _open_options(page, base, "en")
    page.locator("input[name=spade_jack_raids]").check()
    page.locator("input[name=decks]").fill("3")
    page.click("button[name=create]")
    notice = page.locator(".notice.error")
    wait_until(lambda: notice.count() > 0)
    said = notice.inner_text()
    assert "spade_jack_raids (R34)" in said and "spade_jack_defends (R32)" in said
    assert "contradict" in said
    page.locator("input[name=spade_jack_defends]").check()
    page.click("button[name=create]")
    wait_until(lambda: page.locator("section.created").count() > 0)
