"""Small checks on JSON values shared by the records modules (``show`` quotes a value in a
message)."""

from __future__ import annotations

import unicodedata

from taverntable.names import MAX_NAME

from .adapter import RecordError
from .limits import MAX_RULE_VALUE, show, where

__all__ = ["check_names", "check_rule_values", "int_list", "is_int", "show"]


def is_int(value: object) -> bool:
    """A JSON whole number (JSON true/false arrive as bool, which Python counts as int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def int_list(value: object) -> bool:
    """A JSON list of whole numbers."""
    return isinstance(value, list) and all(is_int(v) for v in value)


def check_names(players: object) -> list[str]:
    """Player names: non-empty strings of at most MAX_NAME characters without control characters
    (names go into one-line messages and accounts); the same name twice is allowed."""
    if players is None:
        raise RecordError("players: missing (the names in seat order)")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip()
                                                for p in players):
        raise RecordError("players: must be a list of names (non-empty strings)")
    for seat, name in enumerate(players):
        if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name):
            raise RecordError(f"players[{seat}]: {show(name)} holds a control character")
        if len(name) > MAX_NAME:
            raise RecordError(f"players[{seat}]: a name of {len(name):,} characters; a name has "
                              f"at most {MAX_NAME}")
    return players


def check_rule_values(options: dict[str, object]) -> None:
    """Each rule option's value is one value (true/false, a number, null or a short name), never a
    list or an object: what a rule set refuses, it shows in full in its message."""
    for key, value in options.items():
        if key == "preset":  # checked by each game, which names its presets
            continue
        if isinstance(value, list | dict):
            raise RecordError(f"{where(['rules', key])}: must be one value, not {show(value)}")
        if isinstance(value, str) and len(value) > MAX_RULE_VALUE:
            raise RecordError(f"{where(['rules', key])}: a value of {len(value):,} characters; a "
                              f"rule option's value has at most {MAX_RULE_VALUE}")
