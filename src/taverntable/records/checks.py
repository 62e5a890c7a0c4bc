"""Small checks on JSON values shared by the records modules."""

from __future__ import annotations

import json


def is_int(value: object) -> bool:
    """A JSON whole number (JSON true/false arrive as bool, which Python counts as int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def int_list(value: object) -> bool:
    """A JSON list of whole numbers."""
    return isinstance(value, list) and all(is_int(v) for v in value)


def show(value: object) -> str:
    """A value as JSON text, cut short so that a message stays one readable line."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."
