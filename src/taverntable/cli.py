"""The ``tavern`` command: one subcommand per module, each with ``add_parser`` and ``run``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

# Subcommand name -> module that defines add_parser(subparsers) and run(args) -> int.
COMMANDS = {
    "play": "taverntable.play.command",
    "replay": "taverntable.records.command",
    "review": "taverntable.coach.command",
    "bench": "taverntable.bench.command",
    "lab": "taverntable.lab.command",
    "arena": "taverntable.lab.arena.command",
    "serve": "taverntable.web.command",
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="tavern", description="Tavern Table: Tonk, Tőr, Pagat Tonk and Three Towers."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS.values():
        import_module(module).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tavern`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
