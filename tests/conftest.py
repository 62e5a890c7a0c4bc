"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from web_helpers import drop_postgres, fresh_postgres, postgres_url, sqlite_url


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
