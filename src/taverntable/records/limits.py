"""The limits of what a record may hold (``docs/records.md``, "Limits").

Every record passes ``check_limits`` before anything else reads it, so that no field can make a
replay, its messages or its output unbounded, and no value can break the printing of them (a lone
surrogate cannot be written as UTF-8; Python refuses to print a number of more than 4,300 digits).
The limits are far above anything a game produces: the longest record text of a move is a Three
Towers deal of 108 cards (about 430 characters; R35's three decks, 162 cards, about 650); bots
playing at random take a few thousand moves for a whole Three Towers game.
"""

from __future__ import annotations

import json
import re

from taverntable.engine import RecordError
from taverntable.fields import UNPRINTABLE, Path, printable, show, where

__all__ = ["check_limits", "deep_path", "parse_int", "printable", "show", "where"]

MAX_RECORD_BYTES = 8 * 1024 * 1024  # one .json document, or one line of JSON Lines
MAX_DEPTH = 8  # containers inside one another; the format needs 5 (result.rounds[0].tower)
MAX_ITEMS = 100_000  # items in one list: the moves of a game are the longest list
MAX_TEXT = 1000  # characters in one string: a move's text, a card, a key
MAX_DIGITS = 20  # digits in one number (a 64-bit seed has up to 20)


class LongNumber:
    """A JSON number with too many digits to be read as one (see ``parse_int``)."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def parse_int(text: str) -> int | LongNumber:
    """``json.loads``'s reader of whole numbers: a number past the limit is not converted (Python
    refuses to convert more than 4,300 digits) but kept as a marker, so that ``check_limits`` can
    say which field holds it."""
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_DIGITS else LongNumber(digits)


def check_limits(record: object) -> None:
    """RecordError naming the first field of ``record`` that is past a limit."""
    _check(record, [], 1)


def _check(value: object, path: list[str | int], depth: int) -> None:
    # Recursion is safe here: it stops at MAX_DEPTH.
    match value:
        case str():
            _check_text(value, path)
        case bool() | None | float():
            pass
        case int():
            if abs(value) >= 10**MAX_DIGITS:
                _too_long_number(path, _digits(value))
        case LongNumber(digits=digits):
            _too_long_number(path, digits)
        case list() | dict():
            if depth > MAX_DEPTH:
                raise RecordError(
                    f"{where(path)}: nested more than {MAX_DEPTH} levels deep "
                    f"(the limit of a record)"
                )
            if len(value) > MAX_ITEMS:
                raise RecordError(
                    f"{where(path)}: holds {len(value):,} items; a list or object "
                    f"in a record holds at most {MAX_ITEMS:,}"
                )
            if isinstance(value, list):
                for index, item in enumerate(value):
                    _check(item, [*path, index], depth + 1)
            else:
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise RecordError(f"{where(path)}: key {key!r} is not a string")
                    _check_text(key, [*path, key], is_key=True)
                    _check(item, [*path, key], depth + 1)
        case _:  # only a record built in Python can hold anything else
            raise RecordError(f"{where(path)}: a {type(value).__name__} is not a JSON value")


def _check_text(text: str, path: Path, *, is_key: bool = False) -> None:
    what = "key" if is_key else "string"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        # JSON can write half of a UTF-16 pair ("\ud800"), but it names no character.
        code = ord(text[e.start])
        raise RecordError(
            f"{where(path[:-1] if is_key else path)}: a {what} holds \\u{code:04x}, "
            f"half of a UTF-16 surrogate pair, which is not a character"
        ) from None
    if len(text) > MAX_TEXT:
        raise RecordError(
            f"{where(path[:-1] if is_key else path)}: a {what} of {len(text):,} "
            f"characters; a string in a record has at most {MAX_TEXT:,}"
        )
    if UNPRINTABLE.search(text):
        # No field of the format holds one; in a name or a move it would break a line, drive the
        # terminal, or pass for a space ("draw\x85stock").
        raise RecordError(
            f"{where(path[:-1] if is_key else path)}: "
            f"{'the key ' if is_key else ''}{show(text)} holds a control character"
        )


def _too_long_number(path: Path, digits: int) -> None:
    raise RecordError(
        f"{where(path)}: a number of {digits:,} digits; a number in a record has "
        f"at most {MAX_DIGITS} digits"
    )


def _digits(n: int) -> int:
    n = abs(n)
    # str() of a number past 4,300 digits raises ValueError; its length is counted without it.
    return len(str(n)) if n.bit_length() < 14_000 else int(n.bit_length() * 0.30103) + 1


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]', re.DOTALL)


def deep_path(text: str) -> Path:
    """The path in JSON ``text`` of the first container nested more than MAX_DEPTH deep.

    Python's JSON reader stops with RecursionError on deep nesting before ``check_limits`` can
    walk the value; this scan names the field instead. Only called on that error."""
    stack: list[list[str | int]] = []  # per open container: [kind, key or index]
    last_string = ""
    for m in _TOKEN.finditer(text):
        token = m.group()
        if token in "[{":
            if len(stack) >= MAX_DEPTH:
                return [step for _, step in stack]
            stack.append(["[", 0] if token == "[" else ["{", ""])
        elif token in "]}":
            if stack:
                stack.pop()
        elif token == ",":
            if stack and stack[-1][0] == "[":
                stack[-1][1] = int(stack[-1][1]) + 1
        elif token == ":":
            if stack:
                stack[-1][1] = last_string
        else:
            try:
                last_string = json.loads(token)
            except ValueError:
                last_string = token[1:-1]
    return [step for _, step in stack]


# Control characters (U+0000–U+001F, DEL, and the C1 controls U+0080–U+009F, which some terminals
# obey) would break a message's line or drive the terminal; a lone surrogate cannot be written as
# UTF-8 at all.
