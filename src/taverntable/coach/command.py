"""``tavern review FILE... [--seat N] [--json]``: what each decision of a finished deal was worth.

Each record of each file (``.json``, ``.jsonl``: a deal a line, ``-``: standard input) is
replayed and every decision of the seat (by default: of every seat that made one) is valued
(``review``). A record the engine rejects, one not over, a seat out of range or a game the coach
does not know: one line on standard error, and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from taverntable.engine import RecordError
from taverntable.records import read_records
from taverntable.records.limits import printable

from .review import decision_counts, review_record
from .texts import LANGS, render


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_parser(subparsers: Any) -> None:
    """Register the ``review`` subcommand."""
    parser = subparsers.add_parser(
        "review",
        help="what each decision of a finished deal was worth (the coach)",
        description="Review finished deals (or Three Towers games): for each decision of a seat, "
        "the value of every move it could have made from its own view (expected stakes, or "
        "points, with a 95% interval over worlds drawn by the hard bot's opponent model and "
        "played out by its playout policy), the chosen move against the best, and the "
        "mistakes: a loss above the game's threshold whose paired interval excludes zero. "
        "Deterministic from --seed. Exit status 1 if any record cannot be reviewed.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a .json or .jsonl file, or -")
    parser.add_argument(
        "--seat",
        type=int,
        default=None,
        help="the seat to review (default: every seat that made a decision)",
    )
    parser.add_argument(
        "--worlds",
        type=_positive,
        default=None,
        metavar="K",
        help="worlds a decision is valued over (default: 200)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed of the worlds (default 0)")
    parser.add_argument("--lang", choices=LANGS, default="en", help="the sentences' language")
    parser.add_argument(
        "--json",
        action="store_true",
        help='print JSON Lines: one review per record and seat, or {"error": ...}',
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Review every record of every file; 0 if all were reviewed, else 1."""
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=False)
    status = 0
    for path in args.files:
        for raw_label, item in read_records(path):
            label = printable(raw_label)
            try:
                if isinstance(item, RecordError):
                    raise item
                reviews = _review(item, args)
            except RecordError as e:
                status = 1
                message = printable(f"{label}: {e}")  # one line, whatever it quotes
                if args.json:
                    print(json.dumps({"error": message}, ensure_ascii=False), flush=True)
                else:
                    print(message, file=sys.stderr)
                continue
            for review in reviews:
                if args.json:
                    out = review.to_json()
                    out["label"] = label
                    for d, entry in zip(review.decisions, out["decisions"], strict=True):
                        entry["note"]["text"] = render(d.note, args.lang)
                    print(json.dumps(out, ensure_ascii=False), flush=True)
                else:
                    from .render import print_review

                    console.print(f"== {label}", markup=False)
                    print_review(console, review, args.lang)
    return status


def _review(record: Any, args: argparse.Namespace) -> list[Any]:
    """The reviews of one record: the asked seat's, or every seat's that made a decision."""
    if args.seat is not None:
        seats = [args.seat]
    else:
        from taverntable.records import replay_record

        replay_record(record)  # RecordError first, before the seats are read
        seats = sorted(s for s in decision_counts(record) if s >= 0)
    return [review_record(record, s, worlds=args.worlds, seed=args.seed) for s in seats]
