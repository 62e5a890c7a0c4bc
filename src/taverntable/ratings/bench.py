"""What a rating update costs at the end of a match (issue 25: under 5 ms): ``rate_match`` for
tables of 2 to 10 seats, half people and half bots, and for Three Towers' two pairs.

    python -m taverntable.ratings.bench [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from taverntable.games import game_names

from .bots import bot_rating
from .model import Entrant, new_player, rate_match


def _table(seats: int, teams: bool) -> list[Entrant]:
    entrants = []
    for seat in range(seats):
        bot = seat % 2 == 1
        # Any game's medium bot: the update's cost does not depend on whose skill it is.
        skill = bot_rating(game_names()[0], "medium") if bot else new_player()
        team = seat % 2 if teams else None
        entrants.append(Entrant(skill, 1 + (seat % 2 if teams else seat), fixed=bot, team=team))
    return entrants


def measure(repeat: int) -> dict[str, float]:
    """Microseconds of CPU per ``rate_match`` call, by table."""
    out = {}
    for name, seats, teams in [
        ("2 seats", 2, False),
        ("3 seats", 3, False),
        ("4 seats", 4, False),
        ("10 seats", 10, False),
        ("2 pairs (R15)", 4, True),
    ]:
        table = _table(seats, teams)
        rate_match(table)  # the model's first use builds it
        started = time.process_time()
        for _ in range(repeat):
            rate_match(table)
        out[name] = round((time.process_time() - started) / repeat * 1e6, 1)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m taverntable.ratings.bench")
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    figures = measure(args.repeat)
    if args.json:
        print(json.dumps({"rate_match_us": figures}))
    else:
        for name, us in figures.items():
            print(f"rate_match, {name:<14} {us:>8.1f} µs CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
