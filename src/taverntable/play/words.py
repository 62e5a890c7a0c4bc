"""Small pieces of English for the table: counts with the right plural, verbs for "You"."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``; ``plural`` for nouns that do not just add an s."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def third_person(verb: str) -> str:
    """``deal`` -> ``deals``, ``pass`` -> ``passes``, ``carry`` -> ``carries``."""
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "o", "u", ""):
        return verb[:-1] + "ies"
    return verb + "s"
