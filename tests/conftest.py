"""Fixtures shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from web_helpers import postgres_url, reset_postgres, sqlite_url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each server test runs on SQLite and on PostgreSQL (skipped without a server)."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    url = postgres_url()
    reset_postgres(url)
    return url
