"""A spectator coming or going changes nothing anyone at the table sees, so nobody is sent a
new table summary for it (issue 23: with 1,000 spectators arriving, a summary to everyone for
each was a million frames); a seat's client coming or going is told to all (``connected``)."""

from __future__ import annotations

import json
import tempfile

from taverntable.games import get_game
from taverntable.web.botpool import BotPool
from taverntable.web.seats import Connection, Seat
from taverntable.web.store import Store
from taverntable.web.tables import Pace, Settings, Table


def a_table() -> Table:
    folder = tempfile.mkdtemp(prefix="tavern-spectators-")
    return Table(
        "watched",
        get_game("tonk"),
        {},
        Settings(),
        [Seat(k, "person", f"P{k}", None, "x") for k in range(3)],
        "host",
        Store(f"sqlite+aiosqlite:///{folder}/t.sqlite3"),  # never opened: nothing is stored
        BotPool(1),
        Pace(0, 0),
    )


def drained(conn: Connection) -> list[dict[str, object]]:
    frames = []
    while not conn.queue.empty():
        frame = conn.queue.get_nowait()
        assert frame is not None
        frames.append(json.loads(frame))
    return frames


def test_spectators_arriving_and_leaving_send_the_others_nothing() -> None:
    table = a_table()
    player = Connection(0)
    table.attach(player)
    assert [f["type"] for f in drained(player)][:1] == ["table"]
    table.wake.clear()
    watchers = [Connection(None) for _ in range(50)]
    for w in watchers:
        table.attach(w)
    # Each spectator got its own welcome (the table), the player nothing more.
    assert all(drained(w)[0]["type"] == "table" for w in watchers)
    assert drained(player) == []
    assert table.wake.is_set()  # the driver is woken all the same (a paused table resumes)
    assert table.unwatched_since is None
    for w in watchers:
        table.detach(w)
    assert drained(player) == [] and all(drained(w) == [] for w in watchers)


def test_a_seats_client_arriving_or_leaving_is_told_to_everyone() -> None:
    table = a_table()
    player, watcher = Connection(0), Connection(None)
    table.attach(player)
    table.attach(watcher)
    drained(player), drained(watcher)
    other = Connection(1)
    table.attach(other)
    for conn in (player, watcher):
        (frame,) = drained(conn)
        assert frame["type"] == "table"
        assert [s["connected"] for s in frame["table"]["seats"]] == [True, True, False]  # type: ignore[index]
    table.detach(other)
    for conn in (player, watcher):
        (frame,) = drained(conn)
        assert [s["connected"] for s in frame["table"]["seats"]] == [True, False, False]  # type: ignore[index]
