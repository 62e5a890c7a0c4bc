"""``tavern play GAME``: play a game against bots in the terminal.

Each game has a front-end module with ``play(args, io) -> int``; the games share this command's
options, so adding Three Towers is one entry in ``GAMES`` and one module.
"""

from __future__ import annotations

import argparse
from importlib import import_module
from typing import Any

from .io import PlayIO

# Game name -> front-end module. The Tonk presets share one front end.
GAMES = {
    "tonk": "taverntable.play.tonk_session",
    "tor": "taverntable.play.tonk_session",
    "pagat": "taverntable.play.tonk_session",
    "three-towers": "taverntable.play.three_towers_session",
}

MIN_PLAYERS, MAX_PLAYERS = 2, 10


def players_count(text: str) -> int:
    """argparse type: a number of players in 2..10 (T2)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"{MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    return n


def positive(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def add_parser(subparsers: Any) -> None:
    """Register ``play`` with the ``tavern`` command."""
    p = subparsers.add_parser(
        "play",
        help="play a game against bots",
        description="Play against bots: you sit at seat 0, the bots take the other seats.",
    )
    p.add_argument("game", choices=sorted(GAMES), help="the game (a Tonk preset or three-towers)")
    p.add_argument("--players", type=players_count, default=3,
                   help="players, you included (2-10; three-towers 2-4)")
    p.add_argument("--seed", type=int, default=None, help="shuffle seed, for a repeatable match")
    p.add_argument("--stake", type=positive, default=1, help="units per payment (T2)")
    p.add_argument(
        "--bots",
        default="heuristic",
        help="one bot per other seat, comma-separated, or one for all "
        "(random, heuristic, easy, medium)",
    )
    p.add_argument("--teams", action="store_true",
                   help="three-towers: two pairs, seats 0+2 against 1+3 (needs --players 4)")
    p.add_argument("--name", default="You", help="your name at the table")
    p.add_argument("--save", metavar="FILE.jsonl", help="save the match here when it ends")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, io: PlayIO | None = None) -> int:
    """Play the chosen game; returns the exit status."""
    front_end = import_module(GAMES[args.game])
    status: int = front_end.play(args, io or PlayIO.standard())
    return status
