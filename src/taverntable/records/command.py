"""``tavern replay FILE... [--json]``: replay records; print an account of each, or JSON Lines."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from taverntable.engine import RecordError

from .core import describe_record, replay_record
from .limits import printable
from .reader import UnreadableInput, read_records


def add_parser(subparsers: Any) -> None:
    """Register the ``replay`` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="replay game records and check every move",
        description="Replay game records (.json: one record; .jsonl: one a line; -: standard "
        "input), check every move against the rules and fill in the result. Exit status 1 if "
        "any record is rejected.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a .json or .jsonl file, or -")
    parser.add_argument(
        "--json",
        action="store_true",
        help='print JSON Lines: each record with its result filled in, or {"error": ...}',
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay every record of every file, in order; 0 if all were accepted, else 1."""
    status = 0
    first = True
    for path in args.files:
        for raw_label, item in read_records(path):
            label = printable(raw_label)  # a file name may hold anything but "/" and NUL
            try:
                if isinstance(item, RecordError):
                    raise item
                replayed = replay_record(item)
            except RecordError as e:
                status = 1
                message = printable(f"{label}: {e}")  # one line, whatever it quotes
                # An unreadable file holds no record, so it gets no line of the JSON output.
                if args.json and not isinstance(e, UnreadableInput):
                    _print(json.dumps({"error": message}, ensure_ascii=False))
                else:
                    print(message, file=sys.stderr)
                continue
            if args.json:
                _print(json.dumps(replayed.record, ensure_ascii=False))
            else:
                _print(("" if first else "\n") + f"== {label}\n" + describe_record(replayed))
                first = False
    return status


def _print(text: str) -> None:
    print(text, flush=True)
