"""Reading records from ``.json`` files, ``.jsonl`` files and standard input.

JSON is parsed strictly: a key written twice in one object and the non-standard ``NaN`` and
``Infinity`` are errors, so that no part of a record is silently dropped.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

from .adapter import RecordError


class UnreadableInput(RecordError):
    """A file that cannot be read at all (missing, a directory, not UTF-8): it holds no records."""


Item = tuple[str, dict[str, Any] | RecordError]


def read_records(path: str) -> Iterator[Item]:
    """Each record of ``path`` as (label, record) or (label, the error that rejects it).

    ``.json`` holds one record, ``.jsonl`` one record a line (blank lines skipped); ``-`` reads
    standard input, and any other name is read like it: one JSON document, or else JSON Lines.
    """
    label = "stdin" if path == "-" else path
    try:
        text = sys.stdin.read() if path == "-" else _read(path)
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        yield label, UnreadableInput(f"cannot read: {reason}")
        return
    if path.endswith(".jsonl"):
        yield from _lines(label, text)
    elif path.endswith(".json"):
        yield label, _document(text)
    else:
        yield from _any(label, text)


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def _any(label: str, text: str) -> Iterator[Item]:
    """One JSON document if the whole text is one, else JSON Lines."""
    if not text.strip():
        return
    try:
        value = parse_json(text)
    except ValueError:
        first = next(line for line in text.splitlines() if line.strip())
        try:
            parse_json(first)
        except ValueError:
            # Neither a document nor lines: report the whole text once, not every line of it.
            yield label, _document(text)
            return
        yield from _lines(label, text)
        return
    yield label, _as_record(value)


def _lines(label: str, text: str) -> Iterator[Item]:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield f"{label}:{number}", _document(line)


def _document(text: str) -> dict[str, Any] | RecordError:
    try:
        value = parse_json(text)
    except ValueError as e:
        return RecordError(f"not valid JSON: {e}")
    return _as_record(value)


def _as_record(value: object) -> dict[str, Any] | RecordError:
    if isinstance(value, dict):
        return value
    kind = {list: "an array", str: "a string", bool: "true or false"}.get(type(value), "a number")
    return RecordError(f"a record must be a JSON object, not {'null' if value is None else kind}")


def parse_json(text: str) -> Any:
    """Strict JSON: ValueError for bad syntax, a repeated key, NaN or Infinity."""
    return json.loads(text, object_pairs_hook=_no_repeats, parse_constant=_no_constant)


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"key {json.dumps(key)} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
