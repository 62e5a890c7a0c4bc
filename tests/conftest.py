"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from taverntable.web.tables import Pace

from browser_helpers import ARGS, chromium_path
from web_helpers import drop_postgres, fresh_postgres, postgres_url, server_thread, sqlite_url

# The browser tests' server: no pause before bot moves, a short one between deals so that a
# page sees the deal's end.
BROWSER_PACE = Pace(bot_delay=0.0, deal_pause=0.2, announce=0.0)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each server test runs on SQLite and on PostgreSQL (skipped without a server), each time
    on a new, empty database."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    url = fresh_postgres(postgres_url())
    yield url
    drop_postgres(url)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium, driven by Playwright (skipped, saying how to get it, without one)."""
    path = chromium_path()
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    """A real uvicorn in a thread on a new SQLite database: its address."""
    with server_thread(sqlite_url(tmp_path), BROWSER_PACE) as url:
        yield url
