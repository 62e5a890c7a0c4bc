"""The browser table when several ``tavern serve`` processes share the tables (real PostgreSQL
and Redis, as in ``test_web_cluster``; Debian's chromium, as in ``test_web_browser``): pages on
two processes play one table by clicking, a refusal made by the table's owner reaches a page of
the other process in that page's language, and a page goes on when the owner is killed.

Without the servers or chromium these tests skip and say how to run them.
"""

from __future__ import annotations

import re
import signal
import subprocess
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from browser_helpers import (
    move_buttons,
    my_decision,
    new_page,
    sit,
    try_click,
    wait_until,
)
from test_web_browser import play_tonk_turn
from web_helpers import (
    HTTP,
    create,
    drop_postgres,
    fresh_postgres,
    join,
    postgres_url,
    records,
    redis_url,
    server_process,
)

Servers = tuple[subprocess.Popen[bytes], subprocess.Popen[bytes]]


@pytest.fixture
def servers() -> Iterator[Servers]:
    """Two processes over a fresh PostgreSQL database and Redis; a short pause between deals
    so that a page sees each deal's end."""
    redis = redis_url()
    database = fresh_postgres(postgres_url())
    try:
        with (
            server_process(database, redis=redis, deal_pause=0.2) as a,
            server_process(database, redis=redis, deal_pause=0.2) as b,
        ):
            yield a, b
    finally:
        drop_postgres(database)


def base_of(server: subprocess.Popen[bytes]) -> str:
    base: str = server.base  # type: ignore[attr-defined]
    return base


def version(page: Page) -> int | None:
    """The table version the page shows (its store's)."""
    shown: int | None = page.evaluate(
        "async () => (await import('/static/js/store.js')).state.table?.version ?? null"
    )
    return shown


def play_and_wait(page: Page, turns: dict[int, int], key: int) -> None:
    """A Tonk turn by clicking, then wait until the page shows the table after it (or says
    why not): over two processes the update may come after the next look at the page, which
    would act on the old view and click a button about to go away."""
    before = version(page)
    if not play_tonk_turn(page, turns, key):
        return  # a card selected, no move sent
    wait_until(
        lambda: version(page) != before or page.locator(".notice.error").count() > 0, timeout=30
    )


def test_pages_on_two_processes_play_a_tonk_deal_by_clicking(
    browser: Browser, servers: Servers
) -> None:
    """T5-T9: the host's page on the owner (A), the friend's on the other process (B): both
    play by clicking until, after both have drawn, a deal is over; both score sheets show its
    payments, which sum to zero. (A deal may end before both have clicked: the random bot
    drops early, or T4 ends it on the deal; so the match is long and the test plays on.)"""
    base_a, base_b = (base_of(s) for s in servers)
    made = create(
        base_a,
        "tonk",
        [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
        host_seat=0,
        host_name="Anna",
        deals=20,
        absent_seconds=3600,
    )
    table = made["table"]["id"]
    other = join(base_b, table, "Bence")
    host, friend = new_page(browser), new_page(browser)
    sit(host, base_a, table, made["token"], made["host_token"])
    sit(friend, base_b, table, other["token"])
    host.wait_for_function("document.querySelectorAll('.badge.free').length === 0")
    host.click("[data-action=start]")
    turns: dict[int, int] = {}
    pages = [host, friend]
    clicked_in: list[int] = []  # the sheet's rows when both pages had drawn by clicking

    def step() -> bool:
        for k, page in enumerate(pages):
            if my_decision(page):
                play_and_wait(page, turns, k)
        if not clicked_in and turns.get(0, 0) >= 1 and turns.get(1, 0) >= 1:
            clicked_in.append(min(p.locator(".sheet tbody.entry").count() for p in pages))
        return bool(clicked_in) and all(
            p.locator(".sheet tbody.entry").count() > clicked_in[0] for p in pages
        )

    wait_until(step, timeout=120)
    rows = [p.locator(".sheet tbody.entry").nth(clicked_in[0]).locator("tr").first for p in pages]
    points = [[float(x) for x in row.locator("td").all_inner_texts()] for row in rows]
    assert points[0] == points[1] and sum(points[0]) == 0 and any(points[0])
    assert turns.get(0, 0) >= 1 and turns.get(1, 0) >= 1  # both pages drew by clicking
    assert len(records(base_b, table)) > clicked_in[0]
    assert host.errors == [] and friend.errors == []  # type: ignore[attr-defined]


def test_a_refusal_from_the_owner_is_shown_in_the_other_processs_page_language(
    browser: Browser, servers: Servers
) -> None:
    """T5: a discard before drawing, sent from a Hungarian page on process B, is refused by the
    owner (A); the refusal's reason crosses over with it, so the page says why in Hungarian and
    links to T5 on the Hungarian rules page."""
    base_a, base_b = (base_of(s) for s in servers)
    made = create(
        base_a,
        "tonk",
        [{"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        host_seat=0,
        host_name="Anna",
        deals=50,
        absent_seconds=600,
    )
    table = made["table"]["id"]
    page = new_page(browser)
    sit(page, base_b, table, made["token"], made["host_token"])
    page.evaluate("localStorage.setItem('tt_lang', 'hu')")
    page.reload()
    page.wait_for_selector("[data-action=start]")
    page.click("[data-action=start]")
    wait_until(lambda: "draw stock" in move_buttons(page))
    card = page.locator(".my-area .hand button.card").first.get_attribute("data-card")
    page.evaluate(
        "async (move) => (await import('/static/js/net.js')).send({type: 'move', move})",
        f"discard {card}",
    )
    error = page.locator(".notice.error")
    error.wait_for()
    assert "előbb húzz: eldobni csak húzás után lehet" in error.inner_text().lower()
    assert error.locator("a.rule").get_attribute("href") == "/rules/tonk?lang=hu#T5"
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_page_goes_on_when_the_tables_owner_is_killed(browser: Browser, servers: Servers) -> None:
    """The owner (A) dies with SIGKILL while the person on B is to move; B takes the table over
    from the stored moves and the same page, without a reload, draws and is offered its
    discards. (A page on the dead process reconnects through the proxy to another: the
    browser's own reconnection, ``net.js``.)"""
    a, b = servers
    base_a, base_b = base_of(a), base_of(b)
    made = create(
        base_a,
        "tonk",
        [{"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        host_seat=0,
        host_name="Anna",
        deals=50,
        absent_seconds=600,
    )
    table = made["table"]["id"]
    page = new_page(browser)
    sit(page, base_b, table, made["token"], made["host_token"])
    page.click("[data-action=start]")
    wait_until(lambda: "draw stock" in move_buttons(page))
    assert HTTP.get(f"{base_b}/healthz").json()["tables"] == 0  # A owns the table
    a.send_signal(signal.SIGKILL)
    a.wait(10)

    def anna_draws() -> int:
        return len(re.findall(r"Anna\u2069 draws", page.locator(".log").inner_text()))

    before = anna_draws()

    def drawn() -> bool:
        if anna_draws() > before:
            return True
        if "draw stock" in move_buttons(page):  # refused while the table changes servers
            try_click(page.locator('.move-bar button[data-move="draw stock"]'))
        return False

    # A click a second (the lease runs out in 4 s; quicker clicks would all be refused).
    wait_until(drawn, timeout=60, step=1.0)
    # The turn goes on on B: a card of the hand offers its discard.
    page.locator(".my-area .hand button.card").first.click()
    page.wait_for_selector('.move-bar button[data-move^="discard "]')
    assert HTTP.get(f"{base_b}/healthz").json()["tables"] == 1  # B took the table over
    assert page.errors == []  # type: ignore[attr-defined]
