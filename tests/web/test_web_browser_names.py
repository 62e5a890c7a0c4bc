"""Names that would break the page (issue 24, item 5): a 64-character "WWW…" name overflowed its
seat's box and the page's width, and a name in a right-to-left script (or, before names with
format characters were refused, a bidi override) reordered the sentence around it. Every name
is now isolated (``<bdi>`` as an element, FSI … PDI inside a sentence) and a long one is cut
with an ellipsis, whole in its ``title``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from browser_helpers import new_page, overflows, sit, wait_until
from web_helpers import HTTP, create, join, start

LONG = "W" * 64  # the widest letter, as many as a name may have (taverntable.names.MAX_NAME)
RTL = "אבי 12"  # Hebrew and digits: without isolation, "12" joins the text around the name
SPACED = "M" * 30 + " " + "W" * 33  # two long words
# Where the screenshots go (look at them): TAVERN_TEST_SHOTS, else the test's own folder.
SHOTS_ENV = "TAVERN_TEST_SHOTS"


def long_named_table(base: str) -> dict[str, Any]:
    """A Tonk table of three long names and a right-to-left one, playing: nobody but the host's
    page is connected, so bots play the others at once and the log and sheet fill with names."""
    made = create(
        base,
        "tonk",
        [{"kind": "person"}] * 4,
        host_seat=0,
        host_name=LONG,
        absent_seconds=0,
        turn_seconds=1,
        deals=50,
    )
    table = made["table"]["id"]
    join(base, table, LONG)
    join(base, table, RTL)
    join(base, table, SPACED)
    start(base, table, made["host_token"])
    return made


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    """Each name's box against its seat's (or cell's) box, whether it is cut, and its title."""
    found: list[dict[str, Any]] = page.locator(selector).evaluate_all(
        """names => names.map(n => {
          const outer = n.closest('.seat, th, li').getBoundingClientRect();
          const box = n.getBoundingClientRect();
          return {right: box.right, outer: outer.right, left: box.left, outerLeft: outer.left,
                  cut: n.scrollWidth > n.clientWidth, title: n.getAttribute('title'),
                  text: n.textContent};
        })"""
    )
    return found


def shot(page: Page, folder: Path, name: str) -> None:
    out = Path(os.environ.get(SHOTS_ENV) or folder)
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_long_names_fit_their_boxes_and_the_page(
    browser: Browser, base: str, tmp_path: Path, width: int, height: int
) -> None:
    made = long_named_table(base)
    table = made["table"]["id"]
    page = new_page(browser, width=width, height=height)
    sit(page, base, table, made["token"], made["host_token"])
    wait_until(lambda: page.locator(".log li").count() >= 8, timeout=60)
    wait_until(lambda: page.locator(".sheet tbody.entry").count() >= 1, timeout=90)
    shot(page, tmp_path, f"table-{width}")
    assert not overflows(page)
    seats = boxes(page, ".seat .name")
    assert len(seats) == 4
    for seat in seats:
        assert seat["right"] <= seat["outer"] + 0.5 and seat["left"] >= seat["outerLeft"] - 0.5
        assert seat["title"] == seat["text"]  # the whole name, on hovering
    assert [s["cut"] for s in seats if s["text"] == LONG] == [True, True]
    heads = boxes(page, ".sheet thead .name")
    assert len(heads) == 4 and all(h["title"] == h["text"] for h in heads)
    sheet = page.locator(".sheet").bounding_box()
    assert sheet is not None
    for head in heads:  # inside its column, and the columns inside the sheet: no scrolling
        assert head["right"] <= head["outer"] + 0.5 <= sheet["x"] + sheet["width"] + 0.5
    # The log's sentences wrap inside the log; a name in them is isolated (FSI … PDI).
    log = page.locator(".log")
    box = log.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    sentences = log.inner_text()
    # Whoever's lines the deal in view holds (people away are moved for: deals run on).
    assert any(f"\u2068{name}\u2069" in sentences for name in (LONG, RTL, SPACED)), sentences
    assert page.errors == []  # type: ignore[attr-defined]
    page.goto(base + "/")
    page.wait_for_selector(f"[data-table='{table}']")
    shot(page, tmp_path, f"lobby-{width}")
    assert not overflows(page)
    listed = boxes(page, f"[data-table='{table}'] .name")
    assert len(listed) == 4 and all(n["right"] <= n["outer"] + 0.5 for n in listed)


def test_a_right_to_left_name_keeps_its_neighbours_in_order(browser: Browser, base: str) -> None:
    """The seat's header, the sheet's head and every sentence read the name as one unit: its
    digits stay inside it (what U+202E did to a whole sentence is refused by the server)."""
    made = long_named_table(base)
    page = new_page(browser)
    sit(page, base, made["table"]["id"], made["token"], made["host_token"])
    wait_until(lambda: page.locator(".sheet thead .name").count() == 4)
    isolated = page.locator(".seat .name, .sheet thead .name").evaluate_all(
        "names => names.map(n => n.tagName === 'BDI'"
        " && getComputedStyle(n).unicodeBidi === 'isolate')"
    )
    assert isolated and all(isolated)
    refused = HTTP.post(
        f"{page.url.split('/t/')[0]}/api/tables/{made['table']['id']}/join",
        json={"name": "\u202eevil.exe"},
    )
    assert refused.status_code == 422 and "format character" in refused.text
