"""Reading records from ``.json`` files, ``.jsonl`` files and standard input.

JSON is parsed strictly: a key written twice in one object and the non-standard ``NaN`` and
``Infinity`` are errors, so that no part of a record is silently dropped. Input is read as bytes
and each record decoded as UTF-8 on its own, the same way for a file and for standard input: bytes
that are not UTF-8 reject the record (the line) that holds them. No record is read past
``MAX_RECORD_BYTES``: a longer line is skipped without being kept in memory.
"""

from __future__ import annotations

import io
import itertools
import json
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from taverntable.engine import RecordError
from taverntable.fields import show

from .limits import MAX_DEPTH, MAX_RECORD_BYTES, deep_path, parse_int, where

CHUNK = 1 << 16
BOM = b"\xef\xbb\xbf"  # some editors start a UTF-8 file with it; it is not part of the JSON


class UnreadableInput(RecordError):
    """A file that cannot be read at all (missing, a directory): it holds no records."""


Item = tuple[str, dict[str, Any] | RecordError]


def read_records(path: str) -> Iterator[Item]:
    """Each record of ``path`` as (label, record) or (label, the error that rejects it).

    ``.json`` holds one record, ``.jsonl`` one record a line (blank lines skipped); ``-`` reads
    standard input, and any other name is read like it: one JSON document, or else JSON Lines.
    """
    label = "stdin" if path == "-" else path
    try:
        stream = _stdin() if path == "-" else open(path, "rb")  # noqa: SIM115 (closed below)
    except OSError as e:
        yield label, UnreadableInput(f"cannot read: {e.strerror or e}")
        return
    try:
        if path.endswith(".jsonl"):
            yield from _lines(label, _chunks(stream))
        elif path.endswith(".json"):
            yield label, _document(stream.read(MAX_RECORD_BYTES + 1))
        else:
            yield from _any(label, stream)
    except OSError as e:  # a read that fails half-way (a device error, a directory on some OS)
        yield label, UnreadableInput(f"cannot read: {e.strerror or e}")
    finally:
        if path != "-":
            stream.close()


def read_text(label: str, data: bytes) -> Iterator[Item]:
    """Each record of ``data`` (an upload's bytes) as ``read_records`` reads a file of any name:
    one JSON document, or else JSON Lines (labels ``LABEL:LINE``)."""
    yield from _any(label, io.BytesIO(data))


def _stdin() -> IO[bytes]:
    """Standard input as bytes, so that it is decoded exactly like a file."""
    if sys.stdin is None:
        raise OSError("standard input is closed")
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        return buffer  # type: ignore[no-any-return]
    # A text stream without bytes underneath (tests put a StringIO here): any surrogate in it
    # stands for a byte that was not UTF-8, and encodes to bytes that are refused the same way.
    return io.BytesIO(sys.stdin.read().encode("utf-8", "surrogatepass"))


def _chunks(stream: IO[bytes], head: bytes = b"") -> Iterator[bytes]:
    return itertools.chain([head], iter(lambda: stream.read(CHUNK), b""))


def _any(label: str, stream: IO[bytes]) -> Iterator[Item]:
    """One JSON document if the whole input is one, else JSON Lines."""
    head = stream.read(MAX_RECORD_BYTES + 1)
    if len(head) > MAX_RECORD_BYTES:
        # Too long for one record, so it can only be JSON Lines; if its first line is no JSON
        # either, it is one big mistake, reported once.
        first = next((line for line in head.split(b"\n") if line.strip()), b"")
        if isinstance(_document(first), dict) or len(first) > MAX_RECORD_BYTES:
            yield from _lines(label, _chunks(stream, head))
        else:
            yield (
                label,
                RecordError(
                    f"not valid JSON: neither one record (that would be at most "
                    f"{MAX_RECORD_BYTES:,} bytes) nor JSON Lines"
                ),
            )
        return
    if not head.strip():
        return
    whole = _document(head)
    if isinstance(whole, dict):
        yield label, whole
        return
    first = next(line for line in head.split(b"\n") if line.strip())
    if first.strip() != head.strip() and _parses(first):
        yield from _lines(label, [head])
    else:
        # Neither a document nor lines: report the whole input once, not every line of it.
        yield label, whole


def _parses(data: bytes) -> bool:
    try:
        parse_json(_decode(data))
    except (ValueError, RecordError):
        return False
    return True


def _lines(label: str, chunks: Iterable[bytes]) -> Iterator[Item]:
    """One record a line; a line past the limit is rejected unread."""
    for number, line in enumerate(_split(chunks), 1):
        if line is None:
            yield (
                f"{label}:{number}",
                RecordError(
                    f"the line is longer than {MAX_RECORD_BYTES:,} bytes, the limit of one record"
                ),
            )
        elif line.strip():
            yield f"{label}:{number}", _document(line)


def _split(chunks: Iterable[bytes]) -> Iterator[bytes | None]:
    """The lines (without their newline) of a stream of chunks; None for a line longer than the
    limit, whose bytes are dropped as they come."""
    kept = bytearray()
    too_long = False
    for chunk in chunks:
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            if not too_long:
                kept += chunk[start:end]
            yield None if too_long or len(kept) > MAX_RECORD_BYTES else bytes(kept)
            kept.clear()
            too_long = False
            start = end + 1
        if not too_long:
            kept += chunk[start:]
            if len(kept) > MAX_RECORD_BYTES:
                kept.clear()
                too_long = True
    if too_long:
        yield None
    elif kept:
        yield bytes(kept)


def _document(data: bytes) -> dict[str, Any] | RecordError:
    """One record from its bytes, or the error that rejects it."""
    if len(data) > MAX_RECORD_BYTES:
        return RecordError(
            f"the record is longer than {MAX_RECORD_BYTES:,} bytes, the limit of one record"
        )
    try:
        value = parse_json(_decode(data))
    except RecordError as e:
        return e
    except ValueError as e:
        return RecordError(f"not valid JSON: {e}")
    return _as_record(value)


def _decode(data: bytes) -> str:
    """The text of a record: UTF-8 (spec), else a RecordError naming the first bad byte."""
    try:
        return data.removeprefix(BOM).decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(
            f"not UTF-8: byte 0x{e.object[e.start]:02x} at byte {e.start + 1} "
            f"({e.reason}); a record is UTF-8 text"
        ) from None


def _as_record(value: object) -> dict[str, Any] | RecordError:
    if isinstance(value, dict):
        return value
    kind = {list: "an array", str: "a string", bool: "true or false"}.get(type(value), "a number")
    return RecordError(f"a record must be a JSON object, not {'null' if value is None else kind}")


def parse_json(text: str) -> Any:
    """Strict JSON: ValueError for bad syntax, a repeated key, NaN or Infinity; RecordError for
    nesting too deep to read (numbers past the limits are left to ``check_limits``)."""
    try:
        return json.loads(
            text, object_pairs_hook=_no_repeats, parse_constant=_no_constant, parse_int=parse_int
        )
    except RecursionError:
        raise RecordError(
            f"{where(deep_path(text))}: nested more than {MAX_DEPTH} levels deep "
            f"(the limit of a record)"
        ) from None


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"key {show(key)} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
