"""Each bot's result against a named opponent's seats, from an arena's records.

    .venv/bin/python scripts/arena_against.py lab-out/arena/tonk3-s100.jsonl \
        [--opponent openspiel-ismcts]

``tavern arena`` reports a bot's margin over the mean of *all* the others at the table; at a
table of three or more kinds of bot that mixes opponents. This reads the records the arena saved
(``--out``, one record a line, docs/records.md) and gives, per bot, its result minus the mean
result of the opponent's seats in the same game (entrants whose name starts with
``--opponent``), averaged over a deal's rotations, with the mean and its 95% interval over deals
(Student's t), as the arena computes its margins. A deal is the records that share their cards.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from taverntable.lab.core.stats import mean_ci95


def game_results(record: dict[str, Any]) -> list[float]:
    """Each seat's result: Tonk's net stakes, Three Towers' scores."""
    result = record["result"]
    return [float(x) for x in (result["net"] if "net" in result else result["scores"])]


def against(path: Path, opponent: str) -> dict[str, list[float]]:
    """Per bot, per deal: its mean difference to the opponent's seats over the deal's games."""
    deals: dict[str, dict[str, list[float]]] = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        names: list[str] = record["players"]
        results = game_results(record)
        theirs = [r for n, r in zip(names, results, strict=True) if n.startswith(opponent)]
        if not theirs:
            continue
        deal = deals.setdefault(json.dumps(record["cards"], sort_keys=True), {})
        for name, result in zip(names, results, strict=True):
            if not name.startswith(opponent):
                deal.setdefault(name, []).append(result - sum(theirs) / len(theirs))
    per_bot: dict[str, list[float]] = {}
    for deal in deals.values():
        for name, diffs in deal.items():
            per_bot.setdefault(name, []).append(sum(diffs) / len(diffs))
    return per_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path, nargs="+", help="arena records (.jsonl)")
    parser.add_argument(
        "--opponent",
        default="openspiel-ismcts",
        help="entrants whose name starts with this are the opponent",
    )
    args = parser.parse_args()
    for path in args.records:
        for name, xs in sorted(against(path, args.opponent).items()):
            mean, low, high = mean_ci95(xs)
            print(
                f"{path.name}: {name} against {args.opponent}: {mean:+.3f} "
                f"[{low:+.3f}, {high:+.3f}] over {len(xs)} deals"
            )


if __name__ == "__main__":
    main()
