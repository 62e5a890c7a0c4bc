"""Where the tests find the repository's files: every path a test reads is inside the repository
(a clean clone runs the whole suite)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
EXAMPLES = DATA / "examples"
SRC = ROOT / "src" / "taverntable"
