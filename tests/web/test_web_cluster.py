"""Several ``tavern serve`` processes sharing tables, against real PostgreSQL and Redis servers:
clients of one table on different processes play a whole match; the owner killed with SIGKILL
mid-game, the table goes on in another process with nothing lost; no message anywhere holds a
card hidden from its receiver.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import signal
import time
import typing
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
import sqlalchemy
import websockets

from taverntable.games import get_game
from taverntable.records import replay_record
from taverntable.web import cluster
from taverntable.web.botpool import BotPool
from taverntable.web.cluster import ClusterHub
from taverntable.web.hub import Created
from taverntable.web.protocol.api import CreateTable, SeatSpec
from taverntable.web.store import Store
from taverntable.web.tables import DEAL_VERSIONS

from test_web_leaks import TABLES
from web_helpers import (
    HTTP,
    QUICK,
    Player,
    check_messages,
    create,
    drop_postgres,
    fresh_postgres,
    join,
    play_from_the_start,
    postgres_url,
    records,
    redis_url,
    server_process,
    start,
    ws_url,
)

# A Tonk table of three people, Anna hosting at seat 0.
THREE_PEOPLE = CreateTable(
    game="tonk", seats=[SeatSpec(kind="person")] * 3, host_seat=0, host_name="Anna"
)


@pytest.fixture
def cluster_db() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL database and the Redis URL (both skipped without servers)."""
    redis = redis_url()
    url = fresh_postgres(postgres_url())
    yield url, redis
    drop_postgres(url)


async def hello_you(url: str) -> dict[str, Any]:
    """The ``you`` of a connection's ``hello``."""
    async with websockets.connect(url) as ws:
        hello = json.loads(await ws.recv())
    you: dict[str, Any] = hello["you"]
    return you


def test_clients_on_two_processes_play_a_whole_match(cluster_db: tuple[str, str]) -> None:
    database, redis = cluster_db
    with server_process(database, redis=redis) as a, server_process(database, redis=redis) as b:
        base_a, base_b = a.base, b.base  # type: ignore[attr-defined]
        made = create(
            base_a,
            "tonk",
            [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "medium"}],
            host_seat=0,
            host_name="Anna",
            deals=3,
            absent_seconds=3600,
        )
        table = made["table"]["id"]
        # The host's connection on the process that does not own the table is the host's
        # (issue 24, item 6), from the stored table's host digest.
        assert asyncio.run(hello_you(ws_url(base_b, table) + f"?host={made['host_token']}")) == {
            "seat": None,
            "role": "spectator",
            "host": True,
        }
        assert not asyncio.run(hello_you(ws_url(base_b, table, made["token"])))["host"]
        other = join(base_b, table, "Bence")  # B forwards the join to A, the owner
        assert other["seat"] == 1 and other["table"]["seats"][1]["name"] == "Bence"
        players = [
            Player(ws_url(base_a, table, made["token"]), 0, 1),
            Player(ws_url(base_b, table, other["token"]), 1, 2),
            Player(ws_url(base_b, table), None, 3),
        ]
        # B forwards the host's start too; the three deals recorded below show it started.
        asyncio.run(play_from_the_start(players, lambda: start(base_b, table, made["host_token"])))
        deals = records(base_b, table)
        lobby = HTTP.get(f"{base_b}/api/tables").json()
    assert len(deals) == 3 and table not in [t["id"] for t in lobby]
    final = [m for m in players[1].messages if m["type"] == "table"][-1]["table"]
    net = [sum(replay_record(d).result["net"][s] for d in deals) for s in range(3)]
    assert final["status"] == "finished" and final["balances"] == net
    for p in players:
        assert check_messages(deals, p) > 0


def test_the_owner_killed_mid_game_another_process_takes_the_table_over(
    cluster_db: tuple[str, str],
) -> None:
    """The owner (A) dies with SIGKILL in the middle of a deal; the clients, all on B, go on
    where they were once B has taken the table over from the stored moves."""
    database, redis = cluster_db
    with server_process(database, redis=redis) as a, server_process(database, redis=redis) as b:
        base_a, base_b = a.base, b.base  # type: ignore[attr-defined]
        made = create(
            base_a,
            "tor",
            [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
            host_seat=0,
            host_name="Anna",
            deals=4,
            absent_seconds=3600,
        )
        table = made["table"]["id"]
        other = join(base_b, table, "Bence")
        # The people never drop (T6), so that the deal A dies in goes on after it: with random
        # drops the kill could come at the match's last move, with nothing after (1 run in 4).
        players = [
            Player(ws_url(base_b, table, made["token"]), 0, 11, declines=("drop",)),
            Player(ws_url(base_b, table, other["token"]), 1, 12, declines=("drop",)),
            Player(ws_url(base_b, table), None, 13),
        ]
        killed: dict[str, Any] = {}

        async def kill_when_playing() -> None:
            while True:
                await asyncio.sleep(0.01)
                seen = [m for m in players[2].messages if m["type"] == "update"]
                last = seen[-1] if seen else None
                # A deal begun and not over: someone has moved (T5) and there is no result.
                if last and last["version"] % DEAL_VERSIONS >= 1 and last["view"]["result"] is None:
                    a.send_signal(signal.SIGKILL)
                    killed["at"], killed["version"] = time.monotonic(), last["version"]
                    return

        async def play() -> None:
            killer = asyncio.create_task(kill_when_playing())
            await play_from_the_start(players, lambda: start(base_a, table, made["host_token"]))
            await killer

        asyncio.run(play())
        a.wait(10)
        deals = records(base_b, table)
        final = HTTP.get(f"{base_b}/api/tables/{table}").json()
    assert killed, "the owner was never killed"
    assert final["status"] == "finished" and len(deals) == 4
    net = [sum(replay_record(d).result["net"][s] for d in deals) for s in range(3)]
    assert final["balances"] == net
    for p in players:
        assert check_messages(deals, p) > 0  # nothing lost, nothing told twice or hidden
    # The first update after the kill that moved the table on. Its time is printed, not
    # asserted (no test asserts elapsed time; `pytest -s` shows it, and scripts/loadtest.py
    # --kill-after measures it over many tables): the lease (4 s), a tick to notice, a move.
    after = [
        t
        for m, t in zip(players[2].messages, players[2].times, strict=True)
        if m["type"] == "update" and m["version"] > killed["version"]
    ]
    assert after
    print(f"failover: {after[0] - killed['at']:.2f} s from SIGKILL to the next move seen")


def test_no_message_holds_a_hidden_card_across_processes(cluster_db: tuple[str, str]) -> None:
    """The leak test of ``test_web_leaks``, its tables spread over two processes and every
    seat connected to the other process than the one before it."""
    database, redis = cluster_db
    with server_process(database, redis=redis) as a, server_process(database, redis=redis) as b:
        bases = [a.base, b.base]  # type: ignore[attr-defined]
        players: list[Player] = []
        tables: list[str] = []
        for k, (game, options, people, bots) in enumerate(TABLES):
            seats = [{"kind": "person"}] * people + [{"kind": "bot", "level": "easy"}] * bots
            deals = 8 if get_game(game).family != "three-towers" else 1
            made = create(
                bases[k % 2],
                game,
                seats,
                options=options,
                host_seat=0,
                host_name="Host",
                deals=deals,
                absent_seconds=3600,
            )
            table = made["table"]["id"]
            tokens = {0: made["token"]}
            for s in range(1, people):
                tokens[s] = join(bases[(k + s) % 2], table, f"P{s}", s)["token"]
            start(bases[(k + 1) % 2], table, made["host_token"])
            tables.append(table)
            players += [
                Player(ws_url(bases[(k + s) % 2], table, t), s, 100 * k + s)
                for s, t in tokens.items()
            ]
            players.append(Player(ws_url(bases[(k + 1) % 2], table), None, 0))

        async def play() -> None:
            await asyncio.gather(*(p.run(timeout=300) for p in players))

        asyncio.run(play())
        by_table = {t: records(bases[0], t) for t in tables}
    checked = 0
    for p in players:
        table = p.url.split("/ws/")[1].split("?")[0]
        checked += check_messages(by_table[table], p)
    assert sum(len(d) for d in by_table.values()) >= 4 * 8 + 2 and checked > 1000


def test_a_seat_whose_move_met_the_takeover_is_connected_once(
    cluster_db: tuple[str, str],
) -> None:
    """The client on B sends a move just after the owner (A) died: the forwarded move finds no
    owner, B takes the table over and the client's connection moves to the table once. When it
    leaves, its seat is no longer connected (counted twice, the seat stayed connected for ever
    and its absence was never noticed)."""
    database, redis = cluster_db
    with server_process(database, redis=redis) as a, server_process(database, redis=redis) as b:
        base_a, base_b = a.base, b.base  # type: ignore[attr-defined]
        made = create(
            base_a,
            "tonk",
            [
                {"kind": "person"},
                {"kind": "bot", "level": "easy"},
                {"kind": "bot", "level": "easy"},
            ],
            host_seat=0,
            host_name="Anna",
            deals=50,
            absent_seconds=3600,
        )
        table = made["table"]["id"]
        start(base_a, table, made["host_token"])

        async def draw_across_the_takeover() -> None:
            async with websockets.connect(ws_url(base_b, table, made["token"])) as ws:
                version = None
                while version is None:  # Anna's turn to draw (a deal may end on the deal)
                    m = json.loads(await ws.recv())
                    if m["type"] == "update" and "draw stock" in m["view"]["legal_moves"]:
                        version = m["version"]
                a.send_signal(signal.SIGKILL)
                move = json.dumps({"type": "move", "move": "draw stock", "version": version})
                await ws.send(move)
                while True:
                    m = json.loads(await ws.recv())
                    if m["type"] == "error" and m["code"] == "server-error":
                        await ws.send(move)  # the table was changing servers: again
                    elif m["type"] == "update" and m["version"] > version:
                        return

        asyncio.run(draw_across_the_takeover())
        assert HTTP.get(f"{base_b}/healthz").json()["tables"] == 1  # B took the table over
        seat = {}
        for _ in range(100):
            seat = HTTP.get(f"{base_b}/api/tables/{table}").json()["seats"][0]
            if not seat["connected"]:
                break
            time.sleep(0.1)
    assert seat["name"] == "Anna" and not seat["connected"]


def test_a_table_created_during_a_lease_renewal_stays_with_its_owner(
    cluster_db: tuple[str, str],
) -> None:
    """A process renews its leases (waiting for the database) while a client creates a table
    on it: the new table was not among those renewed, and must not be taken for one whose lease
    was lost (it was given up, and its joins and moves answered 'not the table's server' until
    its lease ran out; found by the load test with four processes)."""
    database, redis = cluster_db

    async def check() -> None:
        hub = ClusterHub(Store(database), BotPool(1), QUICK, redis)
        await hub.open()
        try:
            renew = hub.store.renew
            made: list[Created] = []

            async def renew_while_a_table_is_created(
                node: str, ids: Sequence[str], seconds: float
            ) -> set[str]:
                held = await renew(node, ids, seconds)
                if not made:
                    made.append(await hub.create(THREE_PEOPLE))
                return held

            hub.store.renew = renew_while_a_table_is_created  # type: ignore[method-assign]
            await hub.tick()
            table = made[0].table
            assert hub.tables.get(table.id) is table and table.id not in hub.remotes
            lease = await hub.store.owner(table.id)
            assert lease is not None and lease[0] == hub.node
            await hub.tick()  # the next renewal keeps it
            assert hub.tables.get(table.id) is table
        finally:
            await hub.close()

    asyncio.run(check())


def test_a_table_adopted_twice_at_once_is_loaded_once(cluster_db: tuple[str, str]) -> None:
    """After its owner is gone, a process may adopt a table from its lease tick and, at the
    same moment, from a client's request: one table comes of it (two would each apply moves
    under the same lease)."""
    database, redis = cluster_db

    async def check() -> None:
        gone = ClusterHub(Store(database), BotPool(1), QUICK, redis)
        heir = ClusterHub(Store(database), BotPool(1), QUICK, redis)
        await gone.store.open()
        await heir.store.open()
        try:
            made = await gone.create(THREE_PEOPLE)
            await gone.store.release(gone.node, [made.table.id])  # its lease has run out
            first, second = await asyncio.gather(
                heir.adopt(made.table.id), heir.adopt(made.table.id)
            )
            assert first is not None and first is second
            assert heir.tables[made.table.id] is first
        finally:
            await gone.close()
            await heir.close()

    asyncio.run(check())


def busy(seconds: float) -> None:
    """Keep the event loop's thread busy (a process swamped by moves), holding the GIL."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sum(range(1000))


def orphans_now(database: str) -> list[str]:
    """The orphaned tables, asked from a thread of its own: the caller's loop may be stuck."""

    async def ask() -> list[str]:
        store = Store(database)
        try:
            return await store.orphans()
        finally:
            await store.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, ask()).result()


@pytest.mark.slow
def test_a_busy_event_loop_keeps_its_leases_renewed_in_one_statement(
    cluster_db: tuple[str, str],
) -> None:
    """The leases are renewed on the keeper's thread, one statement a second for all of the
    process's tables: an event loop busy for longer than a lease lasts loses none of them
    (issue 23: at 1,000 tables on two processes every lease lapsed under the moves' load)."""
    database, redis = cluster_db
    renewals: list[tuple[float, Sequence[Any]]] = []

    def seen(_c: Any, _k: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.startswith("UPDATE leases SET expires"):
            renewals.append((time.monotonic(), parameters))

    async def check() -> None:
        hub = ClusterHub(Store(database), BotPool(1), QUICK, redis)
        await hub.open()
        try:
            tables = [(await hub.create(THREE_PEOPLE)).table for _ in range(12)]
            ids = {t.id for t in tables}
            sqlalchemy.event.listen(sqlalchemy.engine.Engine, "before_cursor_execute", seen)
            try:
                start = time.monotonic()
                busy(cluster.LEASE_SECONDS + 3)
                end = time.monotonic()
                assert orphans_now(database) == []  # asked while the loop is still busy
            finally:
                sqlalchemy.event.remove(sqlalchemy.engine.Engine, "before_cursor_execute", seen)
            now = time.time()
            for table in tables:
                lease = await hub.store.owner(table.id)
                # Renewed while the loop was busy: the last renewal before it ran out by now.
                assert lease is not None and lease[0] == hub.node and lease[1] == 1
                assert lease[2] > now
                assert hub.tables.get(table.id) is table
            during = [p for t, p in renewals if start <= t <= end]
            assert during, "no renewal while the loop was busy"
            # One statement a renewal, naming every table; about one a second, not one a table.
            assert all(ids <= set(map(str, p)) for p in during)
            assert len(during) <= (end - start) / cluster.TICK + 2
        finally:
            await hub.close()

    asyncio.run(check())


@pytest.mark.slow
def test_a_hung_event_loop_lets_its_leases_run_out(
    cluster_db: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A loop that has not run for ``STALLED`` seconds is hung, not busy: the keeper stops
    renewing, so another process takes the tables over (the keeper must not keep a dead
    process's tables); once the loop runs again, what nobody took is renewed again."""
    database, redis = cluster_db
    monkeypatch.setattr(cluster, "STALLED", 1.0)

    async def check() -> None:
        hub = ClusterHub(Store(database), BotPool(1), QUICK, redis)
        await hub.open()
        try:
            made = await hub.create(THREE_PEOPLE)
            busy(cluster.STALLED + cluster.LEASE_SECONDS + 3)
            # Asked before the loop runs again: its lease ran out, another process may take it.
            assert orphans_now(database) == [made.table.id]
            assert not await hub.bus.alive(hub.node)
            deadline = time.monotonic() + 30
            while orphans_now(database) and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            lease = await hub.store.owner(made.table.id)
            assert lease is not None and lease[0] == hub.node and lease[2] > time.time()
        finally:
            await hub.close()

    asyncio.run(check())


def test_a_forwarded_move_unanswered_in_time_is_not_told_nothing_changed() -> None:
    """A move forwarded to its table's owner that gets no answer within the bus's wait
    (``REPLY_SECONDS``) may still be applied by the owner: the client is told the server did
    not answer in time and that the next update says whether the move was made, not that
    nothing changed; the stand-in looks for the owner again (if it is no longer alive)."""
    from taverntable.web.bus import BusError
    from taverntable.web.tables import MoveRefused

    looked: list[str] = []

    class Bus:
        async def request(self, node: str, message: dict[str, Any]) -> dict[str, Any]:
            assert message["op"] == "move" and message["text"] == "draw stock"
            raise BusError(f"process {node} did not answer")

    class Hub:
        tables: typing.ClassVar[dict[str, Any]] = {}
        bus = Bus()

        async def repoint(self, remote: cluster.RemoteTable) -> None:
            looked.append(remote.id)

    remote = cluster.RemoteTable(Hub(), "t1", "owner-node")  # type: ignore[arg-type]
    with pytest.raises(MoveRefused) as refused:
        asyncio.run(remote.play(0, "draw stock", 3))
    assert refused.value.code == "no-answer"  # the browser says it in its own words
    assert "nothing changed" not in str(refused.value)
    assert "did not answer in time" in str(refused.value)
    assert "next update says whether the move was made" in str(refused.value)
    assert looked == ["t1"]


def test_the_outbox_sends_neighbouring_messages_of_one_channel_as_one() -> None:
    """A run of messages on one channel goes to Redis as one message (a JSON list the
    receiver hands on one by one); a summary's write or another channel between them keeps
    them apart, so every channel's messages keep their order."""
    import orjson

    from taverntable.web.bus import coalesce

    def msg(n: int) -> str:
        return orjson.dumps({"op": "updates", "n": n}).decode()

    batch = [
        ("publish", "tt:table:a", msg(1)),
        ("publish", "tt:table:a", msg(2)),
        ("publish", "tt:table:a", msg(3)),
        ("set", "tt:summary:a", "{}"),
        ("publish", "tt:table:a", msg(4)),
        ("publish", "tt:node:n", msg(5)),
        ("publish", "tt:table:a", msg(6)),
    ]
    sent = coalesce(batch)
    assert [(kind, channel) for kind, channel, _ in sent] == [
        ("publish", "tt:table:a"),
        ("set", "tt:summary:a"),
        ("publish", "tt:table:a"),
        ("publish", "tt:node:n"),
        ("publish", "tt:table:a"),
    ]
    assert [m["n"] for m in orjson.loads(sent[0][2])] == [1, 2, 3]
    assert orjson.loads(sent[2][2]) == {"op": "updates", "n": 4}
