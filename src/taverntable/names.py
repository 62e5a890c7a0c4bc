"""Player names: one rule for records, the terminal and the server's tables.

A name holds text (not only spaces), no control characters (names go into one-line messages and
terminals) and at most ``MAX_NAME`` characters; the same name twice is allowed.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 64


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None when it can."""
    if not name.strip():
        return "a name cannot be empty or only spaces"
    bad = next((ch for ch in name if unicodedata.category(ch) in ("Cc", "Cs")), None)
    if bad is not None:
        what = (
            "a character that is not text"
            if unicodedata.category(bad) == "Cs"
            else f"a control character ({bad!r})"
        )
        return f"{name!r} holds {what}"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters, not {len(name):,}"
    return None
