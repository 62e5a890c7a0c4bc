"""Player names: one rule for records, the terminal and the server's tables.

A name holds text (not only spaces), no control characters (names go into one-line messages and
terminals), no format characters but the joiners (a bidi override turns the sentence around it;
zero-width ones hide) and at most ``MAX_NAME`` characters; the same name twice is allowed.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 64


# Format characters a script needs inside a word: the zero-width non-joiner (Persian, Indic
# scripts) and joiner (those scripts, and emoji sequences such as a family). They cannot
# reorder or hide text; every other format character can (U+202E turns the text after it
# around, U+200B and U+2060 hide, tag characters are invisible).
JOINERS = frozenset("\u200c\u200d")


def _bad_character(ch: str) -> str | None:
    """What ``ch`` is, when a name may not hold it."""
    category = unicodedata.category(ch)
    if category == "Cs":
        return "a character that is not text"
    if category == "Cc" or category in ("Zl", "Zp"):
        return f"a control character ({ch!r})"
    if category == "Cf" and ch not in JOINERS:
        what = unicodedata.name(ch, "unnamed")
        return (
            f"a format character (U+{ord(ch):04X} {what}), which can reorder or hide the "
            "text around it"
        )
    return None


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None when it can."""
    if not name.strip():
        return "a name cannot be empty or only spaces"
    for ch in name:
        what = _bad_character(ch)
        if what is not None:
            return f"{name[:80]!r} holds {what}"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters, not {len(name):,}"
    return None
