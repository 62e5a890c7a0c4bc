"""Where a server's CPU goes: py-spy's samples of ``tavern serve`` grouped by what they do.

    py-spy record --format raw --threads --rate 250 -o serve.txt -p PID   # or loadtest --py-spy
    python scripts/profile_table.py serve.txt --moves 4352

Each sample (a stack, from py-spy's ``raw`` format: ``frame;frame;… count``) goes to the
first group whose pattern a frame matches, read from the innermost frame outwards, so that,
say, the JSON encoding of a view counts as encoding and the view's building as views. Samples
in no group are ``other`` (the event loop itself, timers, the lobby). With ``--moves`` the table
adds the microseconds of one process's CPU per move (the sampling rate times the samples).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# (group, pattern on a frame "function (file:line)"), tried in order for each frame.
GROUPS: list[tuple[str, re.Pattern[str]]] = [
    (
        "JSON encoding",
        re.compile(r"model_dump_json|\(json/encoder|orjson|dumps \(|to_json \(.*pydantic"),
    ),
    (
        "JSON decoding, validation",
        re.compile(r"\(json/decoder|loads \(|validate_(python|json)|protocol/frames|parse_move"),
    ),
    (
        "Redis (cluster mode)",
        re.compile(r"\(redis/|taverntable/web/(bus|cluster)\.py"),
    ),
    (
        "database write",
        re.compile(r"\((sqlalchemy|aiosqlite|asyncpg|greenlet)/|sqlite3|taverntable/web/store\.py"),
    ),
    (
        "WebSocket send",
        re.compile(r"^send \((uvicorn|websockets)/|write \(.*transports"),
    ),
    ("WebSocket send", re.compile(r"(send_text|send|_write|writer) \(.*(starlette|web/client)")),
    (
        "WebSocket receive",
        re.compile(r"data_received|receive(_text)? \(.*(starlette|websockets)|websockets/frames"),
    ),
    (
        "views and events",
        re.compile(r"view\.py|events\.py|update_for|_broadcast|to_json|log_for|summary"),
    ),
    ("engine (apply, legal moves)", re.compile(r"taverntable/(games|engine|cards)")),
    ("bots in the event loop", re.compile(r"taverntable/bots/")),
    ("the connection's loop (client.py, queues)", re.compile(r"taverntable/web/client\.py")),
    ("HTTP (setup, lobby)", re.compile(r"httptools|h11|routes/")),
]


def group_of(stack: list[str]) -> str:
    for frame in reversed(stack):
        for name, pattern in GROUPS:
            if pattern.search(frame):
                return name
    return "other (event loop, timers)"


def read_samples(path: Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        frames = [f for f in stack.split(";") if not f.startswith(("thread (", "process "))]
        counts[group_of(frames)] += int(n)
    return counts


def table(counts: Counter[str], rate: int, moves: int | None) -> str:
    total = sum(counts.values()) or 1
    lines = ["| share of a move | % | µs per move |", "|---|---|---|"]
    order = [name for name, _ in GROUPS] + ["other (event loop, timers)"]
    seen: set[str] = set()
    for name in order:
        if name in seen or name not in counts:
            continue
        seen.add(name)
        per = "" if not moves else f"{1e6 * counts[name] / rate / moves:,.0f}"
        lines.append(f"| {name} | {100 * counts[name] / total:.1f} | {per} |")
    per = "" if not moves else f"{1e6 * total / rate / moves:,.0f}"
    lines.append(f"| **all** ({total:,} samples at {rate}/s) | 100 | {per} |")
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("samples", type=Path, nargs="+", help="py-spy raw output files")
    p.add_argument("--rate", type=int, default=250, help="py-spy's samples a second")
    p.add_argument("--moves", type=int, help="moves the samples cover (µs per move)")
    args = p.parse_args()
    counts: Counter[str] = Counter()
    for path in args.samples:
        counts += read_samples(path)
    print(table(counts, args.rate, args.moves))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
