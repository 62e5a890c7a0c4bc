"""Micro-benchmark of a move's frames: building and encoding one ``update`` for every seat of a
table (and a spectator), as ``Table._broadcast`` does after each move.

Two ways in one run, in turn, so that a busy machine slows both alike:

- ``models``: the server's path, ``Table.update_for`` (the ``UpdateMessage`` and ``Turn`` models,
  validated) and ``protocol.frames.encode``, once per seat;
- ``dicts``: the same frame built as a plain dict and encoded with ``json.dumps``, as the server
  did before its messages had models (the yardstick).

Both build the seat's view and events (``view.to_json``, ``Event.to_json``), the larger part of
the cost; the line ``views only`` is that part alone. Prints microseconds per move (median and
fastest of the rounds) and the ratio models / dicts, after checking that both give the same JSON.

    python scripts/bench_frames.py                   # tonk, 3 seats, a deal some moves in
    python scripts/bench_frames.py --game three-towers --seats 4 --rounds 30
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

from taverntable.engine import CHANCE, SPECTATOR, Event
from taverntable.games import get_game
from taverntable.web.botpool import BotPool
from taverntable.web.protocol.frames import encode
from taverntable.web.seats import Seat
from taverntable.web.store import Store
from taverntable.web.tables import Pace, Settings, Table


def table_in_play(game_name: str, seats: int, moves: int, seed: int) -> tuple[Table, list[Event]]:
    """A table of ``seats`` people whose deal is ``moves`` random moves in (or less, if it
    ended first), and the events of its last move."""
    game = get_game(game_name)
    folder = tempfile.mkdtemp(prefix="tavern-frames-")
    table = Table(
        "bench",
        game,
        {},
        Settings(),
        [Seat(k, "person", f"P{k}", None, "x") for k in range(seats)],
        "host",
        Store(f"sqlite+aiosqlite:///{folder}/t.sqlite3"),  # never opened: nothing is stored
        BotPool(1),
        Pace(0, 0),
    )
    rng = random.Random(seed)
    table.status, table.deal_no = "playing", 1
    table.state = state = game.start(table.rules, seats, rng=rng)
    events: list[Event] = list(state.opening_events())
    for _ in range(moves):
        if state.is_over:
            break
        if state.current_seat == CHANCE:
            move = state.sample_chance(rng)
        else:
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal))]
        events = list(state.apply(move))
    for info in table.seats:
        info.connected = 1
    return table, events


def with_models(table: Table, viewers: Sequence[int | None], events: list[Event]) -> list[str]:
    return [encode(table.update_for(seat, events)) for seat in viewers]


def turn_dict(table: Table) -> dict[str, Any] | None:
    """``Table.turn`` as it was before the models: a dict."""
    state = table.state
    if state is None or state.is_over or table.status != "playing":
        return None
    seat = state.current_seat
    if seat is None or seat == CHANCE:
        return None
    info = table.seats[seat]
    deadline = table._deadline(info)
    return {
        "seat": seat,
        "bot": table._bot_for(info) is not None,
        "deadline": None
        if deadline is None
        else time.time() + max(0.0, deadline - time.monotonic()),
    }


def with_dicts(table: Table, viewers: Sequence[int | None], events: list[Event]) -> list[str]:
    state = table.state
    assert state is not None
    out = []
    for seat in viewers:
        message = {
            "type": "update",
            "version": table.version,
            "deal": table.deal_no,
            "view": state.view(SPECTATOR if seat is None else seat).to_json(),
            "events": [e.to_json(seat) for e in events],
            "turn": turn_dict(table),
        }
        out.append(json.dumps(message, ensure_ascii=False))
    return out


def views_only(table: Table, viewers: Sequence[int | None], events: list[Event]) -> list[str]:
    state = table.state
    assert state is not None
    for seat in viewers:
        state.view(SPECTATOR if seat is None else seat).to_json()
        [e.to_json(seat) for e in events]
    return []


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--game", default="tonk")
    p.add_argument("--seats", type=int, default=3)
    p.add_argument("--moves", type=int, default=8, help="random moves into the deal")
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--per-round", type=int, default=500, help="moves timed in each round")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if args.seats < 2 or args.rounds < 1 or args.per_round < 1 or args.moves < 0:
        p.error("--seats must be at least 2, --rounds and --per-round at least 1")
    table, events = table_in_play(args.game, args.seats, args.moves, args.seed)
    viewers: list[int | None] = [*range(args.seats), None]
    models, dicts = with_models(table, viewers, events), with_dicts(table, viewers, events)
    if [json.loads(x) for x in models] != [json.loads(x) for x in dicts]:
        raise SystemExit("bench_frames: the two ways give different frames")
    ways: dict[str, Callable[[Table, Sequence[int | None], list[Event]], list[str]]] = {
        "models": with_models,
        "dicts": with_dicts,
        "views only": views_only,
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.rounds):
        for name, way in ways.items():
            begin = time.perf_counter()
            for _ in range(args.per_round):
                way(table, viewers, events)
            times[name].append((time.perf_counter() - begin) / args.per_round * 1e6)
    size = sum(len(x.encode()) for x in models)
    print(f"{args.game}, {args.seats} seats and a spectator, {size:,} bytes of frames a move")
    for name, spent in times.items():
        print(
            f"{name:>11}: {statistics.median(spent):8.1f} µs a move (median), "
            f"{min(spent):8.1f} fastest"
        )
    ratios = [m / d for m, d in zip(times["models"], times["dicts"], strict=True)]
    print(f"models / dicts: {statistics.median(ratios):.2f} (median of the rounds' ratios)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
