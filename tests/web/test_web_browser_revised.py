""" "Three Towers, revised" (issue 28 item 5) in a real browser: the lobby offers the preset by its
title, shows its rule options (the lab's choice, ``rules.PRESETS``) in the form and links its rules
page; a person creates a table with a bot there and plays by clicking until a round ends, and the
game played is the preset's (the view's rules, the towers' goal on the page).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from taverntable.games.three_towers.rules import PRESETS

from browser_helpers import Frames, my_decision, new_page, wait_until
from test_web_browser import play_towers_turn
from web_helpers import HTTP

REVISED = "three-towers-revised"
WORDS = json.loads(
    (Path(__file__).parents[2] / "src/taverntable/web/static/i18n/en.json").read_text()
)


def shown_value(value: Any) -> str:
    """An option's value as the lobby form's field holds it (a number field: its digits)."""
    return "" if value is None else str(value)


def test_the_revised_preset_is_created_in_the_lobby_and_played_by_clicking_to_a_rounds_end(
    browser: Browser, base: str, tmp_path: Path
) -> None:
    revised = PRESETS[REVISED]
    changed = revised.differences()
    assert changed  # the preset is a rule set of its own, not today's under another name
    host = new_page(browser)
    frames = Frames(host)
    host.goto(base + "/")
    host.evaluate("localStorage.setItem('tt_lang', 'en')")
    host.reload()
    host.wait_for_selector("form.create")
    host.select_option("select[name=game]", REVISED)
    option = host.locator(f"select[name=game] option[value={REVISED}]")
    assert option.inner_text() == WORDS[f"game.{REVISED}"] == "Three Towers, revised"
    about = host.locator("form.create p.sub").first
    wait_until(lambda: WORDS[f"game.{REVISED}.about"] in about.inner_text())
    # The rules page the lobby links is Three Towers' own, and it opens.
    href = about.locator("a[href^='/rules/']").get_attribute("href") or ""
    assert href.startswith("/rules/three-towers?"), href
    assert HTTP.get(base + href).status_code == 200
    # The preset's options are the form's values (R9, R14, R28–R33: whichever the lab chose).
    # The text names every rule the preset changes by its reading's number, the cap (R36) with
    # its value: it is the preset's text, not an earlier one's.
    text = about.inner_text()
    for rule in ("R14", "R16", "R29", "R30", "R32", "R34", "R36"):
        assert rule in text, rule
    assert f"±{revised.round_cap} (R36)" in text and f"{revised.tower_goal} goods" in text
    host.locator("details.options summary").click()
    # docs/screenshots/lobby-revised-en-1280.png (TAVERN_TEST_SHOTS=DIR keeps it)
    shots = Path(os.environ.get("TAVERN_TEST_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    host.locator("form.create").screenshot(path=str(shots / "lobby-revised-en-1280.png"))
    for name, value in changed.items():
        field = host.locator(f"details.options [name={name}]")
        if isinstance(value, bool):
            assert field.is_checked() is value, name
        else:
            assert field.input_value() == shown_value(value), (name, field.input_value())
    host.select_option("select[name=players]", "2")
    host.select_option("select[name=seat-1]", "easy")
    host.fill("input[name=host_name]", "Zarr")
    host.click("button[name=create]")
    host.click(".created a.button")
    host.wait_for_selector("[data-action=start]")
    wait_until(lambda: host.locator(".table-head h1").inner_text() == "Three Towers, revised")
    host.click("[data-action=start]")

    towers_shown: set[str] = set()

    def step() -> bool:
        towers_shown.update(host.locator(".seat .tower-value").all_inner_texts())
        if my_decision(host):
            play_towers_turn(host)
        return host.locator(".sheet tbody.entry").count() > 0

    wait_until(step, timeout=300)
    updates = frames.updates()
    assert updates
    view = updates[-1]["view"]
    # The game played is the preset's: its options in the seat's view, the towers' goal shown.
    assert {k: view["rules"][k] for k in changed} == changed
    assert view["tower_goal"] == revised.tower_goal
    # A tower under way shows its goods toward the preset's goal (R8, R29) on the page.
    assert towers_shown
    assert {text.rpartition(" of ")[2] for text in towers_shown} == {str(revised.tower_goal)}
    assert host.errors == []  # type: ignore[attr-defined]
