"""Paired difference of one seat between two arena --out files of the same deals (Tonk).

    python scripts/tonk_pair.py A.jsonl B.jsonl [--seat medium]

The seat is the first player whose name starts with ``--seat``. Rows of one deal share the
hands and the upcard (the arena plays each deal once per seating); per deal the seat's mean
``result.net`` is taken, and A minus B is averaged over the deals both files hold, with a 95%
normal interval over deals. Adapted from the lead's notes/tonk_pair.py (seat "hard").
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict


def per_deal(path: str, seat_name: str) -> dict[str, float]:
    games: dict[str, list[int]] = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            seat = next(i for i, p in enumerate(r["players"]) if p.startswith(seat_name))
            key = json.dumps([sorted(map(tuple, r["cards"]["hands"])), r["cards"]["upcard"]])
            games[key].append(r["result"]["net"][seat])
    return {k: sum(v) / len(v) for k, v in games.items()}


def ci(xs: list[float]) -> str:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = 1.96 * sd / math.sqrt(n)
    return f"{m:+.4f} [{m - h:+.4f}, {m + h:+.4f}] ({n} deals)"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--seat", default="medium")
    args = ap.parse_args()
    a, b = per_deal(args.a, args.seat), per_deal(args.b, args.seat)
    print("A:", ci(list(a.values())))
    print("B:", ci(list(b.values())))
    common = [k for k in a if k in b]
    print("A-B paired:", ci([a[k] - b[k] for k in common]))


if __name__ == "__main__":
    main()
