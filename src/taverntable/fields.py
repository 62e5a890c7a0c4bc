"""Checks and quoting of JSON values, shared by the records core and every game's record adapter
(which must not import the records package: the engine imports nothing from the layers above it).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence

from taverntable.engine import RecordError
from taverntable.names import MAX_NAME

MAX_RULE_VALUE = 32  # characters in a rule option's value (the longest is 21)

Path = Sequence[str | int]


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
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RecordError("players: must be a list of names (non-empty strings)")
    for seat, name in enumerate(players):
        if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name):
            raise RecordError(f"players[{seat}]: {show(name)} holds a control character")
        if len(name) > MAX_NAME:
            raise RecordError(
                f"players[{seat}]: a name of {len(name):,} characters; a name has "
                f"at most {MAX_NAME}"
            )
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
            raise RecordError(
                f"{where(['rules', key])}: a value of {len(value):,} characters; a "
                f"rule option's value has at most {MAX_RULE_VALUE}"
            )


def where(path: Path) -> str:
    """A field's name as messages write it: ``cards.hands[0][2]``, ``move 7``, ``record``."""
    if not path:
        return "record"
    if path[0] == "moves" and len(path) > 1 and isinstance(path[1], int):
        return f"move {path[1] + 1}"
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        elif step.isidentifier() and step.isascii():
            out += f".{step}" if out else step
        else:
            out += f"[{printable(json.dumps(step, ensure_ascii=False))}]"
    return out


UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def show(value: object) -> str:
    """A value as JSON text on one line, cut short so that a message stays readable."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):  # past the limits: a number of 5,000 digits
        text = f"(a {type(value).__name__} too large to show)"
    text = printable(text)
    return text if len(text) <= 60 else text[:57] + "..."


def printable(text: str) -> str:
    """``text`` on one line with every control character and lone surrogate escaped."""
    return UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
