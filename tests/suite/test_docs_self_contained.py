"""Issue 26 item 9: a fresh clone's docs point only inside it. What a user reads (the README,
docs/, the rules texts behind the rules pages and `tavern play`'s `rules`) names no folder beside
the repository, and every relative link in it leads to a file that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paths import ROOT, SRC

READ_BY_USERS = sorted(
    [
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
        *SRC.glob("games/*/texts/*/*.md"),
    ]
)
OUTSIDE = re.compile(r"\.\./shared|\.\./seeds|\bshared/(?:rules|spec|seeds|examples)\b")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("path", READ_BY_USERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_path_leads_outside_the_repository(path: Path) -> None:
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", READ_BY_USERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file(path: Path) -> None:
    targets = [t for t in LINK.findall(path.read_text(encoding="utf-8")) if "://" not in t]
    missing = [t for t in targets if not (path.parent / t).exists()]
    assert not missing, f"{path.name} links to missing files: {missing}"


def test_the_record_format_is_kept_in_the_repository() -> None:
    spec = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    assert "# Game records and move notation" in spec
