"""The table's chat in chromium (issue 26, item 6): two players' pages and a spectator's talk;
an HTML string is shown as text (no element, no script); a quick phrase is shown in each
reader's language; the spectator cannot write into the players' channel (refused with a code)
and the players never see the spectators' channel; a refresh keeps the chat; a mute is
remembered; the rate limit is told in words; the deal's replay shows the chat at its move; and
the chat panel sits beside the board, never pushing the hand below the fold at 1280×800.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from browser_helpers import Frames, new_page, overflows, sit, wait_until
from web_helpers import create, join, start

HTML = "<img src=x onerror=alert(1)>"
# Where the screenshots go (looked at; those in docs/screenshots were made with
# TAVERN_TEST_SHOTS=docs/screenshots): else the test's own folder.
SHOTS_ENV = "TAVERN_TEST_SHOTS"


def lines(page: Page) -> list[str]:
    """The chat lines the page shows, as text (writer: words)."""
    found: list[str] = page.locator(".chat:not(.replay-chat) .chat-line").evaluate_all(
        "items => items.map(li => li.querySelector('.chat-who').textContent + ': ' + "
        "li.querySelector('.chat-text').textContent)"
    )
    return found


def has_line(page: Page, text: str) -> bool:
    return any(line.endswith(text) for line in lines(page))


def send_text(page: Page, text: str) -> None:
    page.fill(".chat-form input[name=chat]", text)
    page.click(".chat-form button[type=submit]")


def raw_say(page: Page, base: str, table: str, message: dict[str, Any]) -> Any:
    """A frame sent on a socket of the page's own (as a hand-made client would): its answer."""
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    return page.evaluate(
        """([url, message]) => new Promise((done) => {
          const ws = new WebSocket(url);
          ws.onmessage = (e) => {
            const m = JSON.parse(e.data);
            if (m.type === "chat-history") ws.send(JSON.stringify(message));
            if (m.type === "error" || m.type === "chat") { ws.close(); done(m); }
          };
        })""",
        [url, message],
    )


def test_two_players_and_a_spectator_chat(browser: Browser, base: str, tmp_path: Path) -> None:
    made = create(
        base,
        "tonk",
        [{"kind": "person"}, {"kind": "person"}],  # no bot: nothing moves while they talk
        host_seat=0,
        host_name="Anna",
        absent_seconds=3600,
        deals=3,
    )
    table = made["table"]["id"]
    bence_seat = join(base, table, "Bence")
    start(base, table, made["host_token"])
    anna = new_page(browser, 1280, 800)
    bence = new_page(browser, 390, 844)
    watcher = new_page(browser, 1280, 800, locale="hu-HU")
    dialogs: list[str] = []
    for page in (anna, bence, watcher):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    frames = Frames(anna)
    sit(anna, base, table, made["token"], made["host_token"])
    sit(bence, base, table, bence_seat["token"])
    sit(watcher, base, table, None)
    watcher.evaluate("localStorage.setItem('tt_lang', 'hu')")
    watcher.reload()
    for page in (anna, bence, watcher):
        page.wait_for_selector(".chat .chat-form")

    # An HTML string goes as text and is shown as text: no element, no script ran.
    send_text(anna, HTML)
    for page in (anna, bence, watcher):
        wait_until(lambda page=page: has_line(page, HTML))  # type: ignore[misc]
        assert page.locator(".chat img").count() == 0
    assert lines(bence)[-1] == f"\u2068Anna\u2069: {HTML}" or lines(bence)[-1].endswith(HTML)

    # A quick phrase: a key, shown in each reader's language.
    bence.click(".chat-phrases button[data-phrase=good-game]")
    wait_until(lambda: has_line(anna, "Good game!"))
    wait_until(lambda: has_line(watcher, "Jó játék volt!"))

    # The spectator writes into the spectators' channel: the players never see it.
    send_text(watcher, "a nézők csatornája")
    wait_until(lambda: has_line(watcher, "a nézők csatornája"))
    # A spectator cannot write into the players' channel: refused with a code.
    refused = raw_say(watcher, base, table, {"type": "say", "channel": "players", "text": "psst"})
    assert refused["type"] == "error" and refused["code"] == "chat-channel"
    anna.click(".chat-phrases button[data-phrase=your-turn]")  # after the spectator's line
    for page in (anna, bence):
        wait_until(lambda page=page: has_line(page, "Your turn."))  # type: ignore[misc]
        assert not any("nézők" in x or "psst" in x for x in lines(page)), lines(page)
    wait_until(lambda: has_line(watcher, "Te jössz."))
    assert not any("psst" in x for x in lines(watcher))

    # A refresh keeps the chat (the history comes with the join).
    bence.reload()
    bence.wait_for_selector(".chat .chat-form")
    wait_until(lambda: len(lines(bence)) == 3)
    assert lines(bence)[0].endswith(HTML) and lines(bence)[2].endswith("Your turn.")

    # Anna mutes Bence: his lines go, and stay gone after a refresh (this browser remembers).
    anna.hover(".chat-line[data-sender=seat-1]")
    anna.click(".chat-line[data-sender=seat-1] button[data-action=mute]")
    wait_until(lambda: not has_line(anna, "Good game!"))
    anna.reload()
    anna.wait_for_selector(".chat .chat-form")
    wait_until(lambda: has_line(anna, "Your turn."))
    assert not has_line(anna, "Good game!")
    anna.click("button[data-action=unmute]")
    wait_until(lambda: has_line(anna, "Good game!"))

    # Too many messages: the notice in the reader's language.
    for _ in range(6):
        watcher.click(".chat-phrases button[data-phrase=oops]")
    watcher.wait_for_selector(".chat-notice")
    assert "Túl sok üzenet" in watcher.locator(".chat-notice").inner_text()

    # At 1280×800 the chat is beside the board: shut or open, the hand stays where it was.
    area = anna.locator(".my-area").bounding_box()
    board = anna.locator(".main-col").bounding_box()
    chat = anna.locator(".chat").bounding_box()
    assert area and board and chat and chat["x"] >= board["x"] + board["width"] - 1
    anna.click(".chat > summary")
    shut = anna.locator(".my-area").bounding_box()
    assert shut and shut["y"] == area["y"]
    anna.click(".chat > summary")
    assert area["y"] < 800, area  # the hand's area begins on the first screen
    assert not overflows(anna) and not overflows(bence)
    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    anna.screenshot(path=str(shots / "chat-1280x800.png"))
    bence.locator(".chat").scroll_into_view_if_needed()
    bence.screenshot(path=str(shots / "chat-390x844.png"))
    watcher.screenshot(path=str(shots / "chat-spectator-hu-1280x800.png"))

    # The deal's replay shows its chat, at the step each message was written.
    deal = next(m["line"]["deal"] for m in frames.messages if m.get("type") == "chat")
    anna.goto(f"{base}/replay/{table}/{deal}")
    anna.wait_for_selector(".replay-controls")
    if anna.locator("button[data-action=last]").is_enabled():
        anna.click("button[data-action=last]")
    anna.wait_for_selector(".replay-chat .chat-line")
    shown = anna.locator(".replay-chat .chat-text").all_inner_texts()
    assert shown[0] == HTML and "Good game!" in shown and "a nézők csatornája" not in shown
    assert anna.locator(".replay-chat img").count() == 0
    assert anna.locator(".timeline .mark-chat").count() >= 1  # the chat on the timeline
    assert dialogs == []
    for page in (anna, bence, watcher):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
