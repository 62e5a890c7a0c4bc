"""Load test of ``tavern serve`` on this machine, over real WebSockets on 127.0.0.1 only.

Starts the servers (subprocesses; an empty SQLite database in a temporary folder unless
``--database`` is given; with a PostgreSQL URL, a fresh database on that server, dropped at the
end, so that no table of an earlier run is taken over), creates TABLES tables of PLAYERS people
each, connects one scripted client per seat, and lets them play for SECONDS: each client, when
its view offers moves, "thinks" for a random time (mean THINK seconds) and plays a random legal
move. It measures the latency from a move sent to the next state received by that client, the
moves per second, the servers' memory and CPU, and (from the servers' /healthz, over the
measured seconds only) the database writes and Redis messages per move; then it stops
everything by itself and prints the figures.

    python scripts/loadtest.py --tables 200 --players 3 --seconds 60
    python scripts/loadtest.py --tables 50 --servers 2 --redis redis://127.0.0.1:6379/0 \
        --database postgresql+asyncpg://tavern:tavern@127.0.0.1/tavern   # scale-out (issue 12)

With several servers each table is created on server ``t % N`` (its owner) and seat ``k``
connects to server ``(t + k) % N``. ``--kill-after S`` kills server 0 with SIGKILL S seconds into
the run: its clients reconnect to the next server (as the browser does through the proxy), and
the figures add the failover time of each table server 0 owned: from the SIGKILL to the first
update any of its clients receives from the process that took it over.

The clients run in ``--client-processes`` processes (default: one for every 500 connections, at
most the cores), forked once the tables are made, each with a slice of the tables (and of the
spectators); every client connects before the measured window opens, and each process sends
its raw latencies back for one p50/p99. Latency: from a move sent to the next update that
client received; a spectator update's reach: from the mover's send to the last spectator
receiving that version (one monotonic clock across processes). With ``--hard-bots`` the bots'
moves are timed by the client (from the update naming a bot's turn to the next one) and by the
servers' bot pools (``/healthz`` ``bots``); ``--wait-bots`` waits for the pools to be warm first.

Run by hand; not part of the test suite (CI's timing is not the place for it). The server
command may be replaced with TAVERN_SERVER (default ``-m taverntable.cli``), e.g. to measure
another checkout, or ``scripts/profile_server.py`` under cProfile: with TAVERN_PROFILE set, each
server gets SIGUSR1 as the measured seconds start (that wrapper then forgets the set-up).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import orjson
import websockets

# Messages the old owner published just before it died may still arrive this long after the
# SIGKILL; a takeover cannot come sooner (a lease outlives its last renewal by 3 s or more).
IN_FLIGHT = 0.5


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    database: str,
    port: int,
    extra: list[str],
    env: dict[str, str] | None = None,
    python: str | None = None,
) -> subprocess.Popen[bytes]:
    server = os.environ.get("TAVERN_SERVER", "-m taverntable.cli").split()
    proc = subprocess.Popen(
        [
            python or sys.executable,
            *server,
            "serve",
            "--port",
            str(port),
            "--database",
            database,
            "--bot-delay",
            "0",
            "--deal-pause",
            "0",
            "--announce",  # a bot's drop is told at once: its update is the bot's move
            "0",
            "--tables-per-address",  # every table comes from this machine's one address
            "0",
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        # LOADTEST_SERVER_LOG=DIR keeps each server's log there (port.log)
        stderr=log_file(port),
        env=None if env is None else {**os.environ, **env},
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx2.HTTPError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(
                    "loadtest: the server did not start (try it by hand: tavern "
                    f"serve --database {database} {' '.join(extra)})"
                ) from None
            time.sleep(0.1)


def log_file(port: int) -> Any:
    folder = os.environ.get("LOADTEST_SERVER_LOG")
    if not folder:
        return subprocess.DEVNULL
    Path(folder).mkdir(parents=True, exist_ok=True)
    return open(Path(folder) / f"{port}.log", "wb")  # the server's, until it ends


def wait_for_bots(ports: list[int], began: float, timeout: float = 900) -> float:
    """Wait until every server's ``/healthz`` says its hard bots are no longer ``warming``;
    the seconds from the servers' start to then."""
    deadline = time.monotonic() + timeout
    while True:
        states = [
            httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=30).json()["bots"]["state"]
            for port in ports
        ]
        if "warming" not in states:
            return round(time.monotonic() - began, 1)
        if time.monotonic() > deadline:
            raise SystemExit(f"loadtest: the bots were still warming after {timeout:.0f} s")
        time.sleep(0.5)


def rss_kib(pid: int) -> tuple[int, int]:
    """(current, peak) resident memory of a process in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used (its children not included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def runqueue_wait_seconds(pid: int) -> float | None:
    """How long a process's main thread has waited for a core while ready to run
    (``/proc/PID/schedstat``; None where the kernel does not keep it)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def postgres_admin(url: str, statement: str) -> None:
    """A statement on the server's ``postgres`` database (creating or dropping one)."""
    import sqlalchemy
    from sqlalchemy.ext.asyncio import create_async_engine

    async def run() -> None:
        engine = create_async_engine(
            url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT"
        )
        async with engine.connect() as conn:
            await conn.execute(sqlalchemy.text(statement))
        await engine.dispose()

    asyncio.run(run())


class Client:
    """One connection's scripted player (or spectator), in a client process; it reconnects to
    the next URL when its server goes away. Its reader never waits: every frame is stamped as it
    arrives, and a separate task thinks and sends the moves."""

    def __init__(self, seat: SeatPlan, think: float, clock: Clock) -> None:
        self.plan = seat
        self.table = seat.table
        self.spectator = seat.spectator
        self.urls = seat.urls
        self.rng = random.Random(seat.seed)
        self.think = think
        self.clock = clock
        self.arrivals: dict[int, float] = {}  # a spectator's: when each version came
        # A mover's: (move sent, version it made, that version's update received by the mover).
        self.acked: list[tuple[float, int, float]] = []
        self.bot_times: list[float] = []  # from a bot's turn to the update of its move
        self.bot_turn_at: float | None = None
        self.latencies: list[float] = []
        self.updates: list[float] = []  # when each update arrived (only kept for a failover)
        self.moves = 0
        self.errors: dict[str, int] = {}  # the server's error frames, by code
        self.failures: dict[str, int] = {}  # connections refused or cut, by what happened
        self.reconnects = 0
        self.connected = False
        self.sent_at: float | None = None
        self.sent_version = -1
        self.pending: dict[str, Any] | None = None  # the update whose moves are ours to play
        self.turn = asyncio.Event()

    def fail(self, what: str) -> None:
        self.failures[what] = self.failures.get(what, 0) + 1

    async def run(self, pace: asyncio.Semaphore, ready: Callable[[], None]) -> None:
        for attempt in range(len(self.urls) * 20):
            url = self.urls[attempt % len(self.urls)]
            try:
                async with pace:  # a bounded number of handshakes at once per process
                    ws = await websockets.connect(
                        url, max_size=None, compression=None, ping_interval=None, open_timeout=60
                    )
            except (OSError, TimeoutError, websockets.InvalidHandshake) as e:
                self.fail(f"connect: {type(e).__name__}")
            else:
                if not self.connected:
                    self.connected = True
                    ready()
                try:
                    await self._session(ws)
                    return
                except websockets.ConnectionClosed as e:
                    code = e.rcvd.code if e.rcvd is not None else "none"
                    self.fail(f"closed: {code}")
                finally:
                    await ws.close()
            if self.clock.stopped():
                return
            self.reconnects += 1
            await asyncio.sleep(0.3 + self.rng.random() * 0.3)

    async def _session(self, ws: Any) -> None:
        mover = None if self.spectator else asyncio.create_task(self._mover(ws))
        try:
            async for raw in ws:
                self._receive(orjson.loads(raw))
        finally:
            if mover is not None:
                mover.cancel()

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "error":
            code = str(message.get("code"))
            self.errors[code] = self.errors.get(code, 0) + 1
            self.sent_at = None
            return
        if kind != "update":
            return
        now = time.monotonic()
        if self.clock.keep_updates:
            self.updates.append(now)
        version = message["version"]
        if self.spectator:
            self.arrivals.setdefault(version, now)
            return
        if self.bot_turn_at is not None:
            self.bot_times.append(now - self.bot_turn_at)
            self.bot_turn_at = None
        turn = message.get("turn")
        seat = message["view"]["seat"]
        if (
            self.plan.times_bots
            and self.clock.started()
            and turn is not None
            and turn.get("bot")
            and turn.get("seat") != seat
        ):
            self.bot_turn_at = now
        if self.sent_at is not None and version > self.sent_version:
            self.latencies.append(now - self.sent_at)
            self.acked.append((self.sent_at, version, now))
            self.sent_at = None
        if message["view"]["legal_moves"]:
            self.pending = message
            self.turn.set()
        else:
            self.pending = None

    async def _mover(self, ws: Any) -> None:
        await self.clock.go.wait()
        while not self.clock.stopped():
            await self.turn.wait()
            self.turn.clear()
            message = self.pending
            if message is None:
                continue
            await asyncio.sleep(self.rng.expovariate(1 / self.think))
            if self.clock.stopped():  # every move counted is sent within the run
                return
            if self.pending is not message:  # a newer update came meanwhile: play that one
                continue
            self.pending = None
            self.sent_version = message["version"]
            self.sent_at = time.monotonic()
            move = self.rng.choice(message["view"]["legal_moves"])
            frame = {"type": "move", "move": move, "version": self.sent_version}
            await ws.send(orjson.dumps(frame).decode())
            self.moves += 1


class Clock:
    """A client process's start and stop (monotonic: the same clock in every process)."""

    def __init__(self, keep_updates: bool) -> None:
        self.go = asyncio.Event()
        self.start = float("inf")
        self.stop = float("inf")
        self.keep_updates = keep_updates

    def started(self) -> bool:
        return time.monotonic() >= self.start

    def stopped(self) -> bool:
        return time.monotonic() >= self.stop


@dataclass(frozen=True)
class SeatPlan:
    """One connection to make: a seat of a table (its token in the URLs) or a spectator."""

    table: int
    urls: list[str]
    seed: int
    spectator: bool = False
    bots: bool = False  # the table has hard bots
    times_bots: bool = False  # this client times the bots' moves (one client a table)


def slice_seats(seats: list[SeatPlan], processes: int) -> list[list[SeatPlan]]:
    """The connections of each client process: every seat of table ``t`` in process
    ``t % processes`` (a table's moves and its updates stay in one process), spectators dealt
    out in turn over all of them."""
    slices: list[list[SeatPlan]] = [[] for _ in range(processes)]
    spectators = 0
    for seat in seats:
        if seat.spectator:
            slices[spectators % processes].append(seat)
            spectators += 1
        else:
            slices[seat.table % processes].append(seat)
    return slices


def add_counts(into: dict[str, int], counts: dict[str, int]) -> None:
    for key, n in counts.items():
        into[key] = into.get(key, 0) + n


def client_report(clients: list[Client], cpu: float) -> dict[str, Any]:
    """What a client process sends back: its raw figures, for ``merge_reports``."""
    movers = [c for c in clients if not c.spectator]
    watchers = [c for c in clients if c.spectator]
    errors: dict[str, int] = {}
    failures: dict[str, int] = {}
    for c in clients:
        add_counts(errors, c.errors)
        add_counts(failures, c.failures)
    # Each version: when the last of this process's spectators had it, and how many had it.
    reach: dict[int, list[float]] = {}
    for w in watchers:
        for version, at in w.arrivals.items():
            last, count = reach.get(version, [0.0, 0])
            reach[version] = [max(last, at), count + 1]
    return {
        "latencies": [x for c in movers if not c.plan.bots for x in c.latencies],
        "bot_table_latencies": [x for c in movers if c.plan.bots for x in c.latencies],
        "bot_times": [x for c in movers for x in c.bot_times],
        "moves": sum(c.moves for c in movers),
        "errors": errors,
        "failures": failures,
        "reconnects": sum(c.reconnects for c in clients),
        "never_connected": sum(1 for c in clients if not c.connected),
        "spectators": len(watchers),
        "reach": reach,
        "acked_table0": [a for c in movers if c.table == 0 for a in c.acked],
        "updates": {
            str(t): sorted(x for c in clients if c.table == t for x in c.updates)
            for t in {c.table for c in clients if c.updates}
        },
        "cpu": cpu,
    }


def merge_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The client processes' reports as one: lists joined (a percentile is taken over all of
    them), counts added, and each version's spectator arrival the latest of any process."""
    merged: dict[str, Any] = {
        "latencies": [],
        "bot_table_latencies": [],
        "bot_times": [],
        "acked_table0": [],
        "moves": 0,
        "reconnects": 0,
        "never_connected": 0,
        "spectators": 0,
        "errors": {},
        "failures": {},
        "reach": {},
        "updates": {},
        "cpu": [],
        "loop_lag_ms": [],
    }
    for r in reports:
        for key in ("latencies", "bot_table_latencies", "bot_times", "acked_table0"):
            merged[key] += r[key]
        for key in ("moves", "reconnects", "never_connected", "spectators"):
            merged[key] += r[key]
        add_counts(merged["errors"], r["errors"])
        add_counts(merged["failures"], r["failures"])
        for version, (last, count) in r["reach"].items():
            was = merged["reach"].get(int(version), [0.0, 0])
            merged["reach"][int(version)] = [max(was[0], last), was[1] + count]
        for table, times in r["updates"].items():
            merged["updates"][int(table)] = sorted(merged["updates"].get(int(table), []) + times)
        merged["cpu"].append(r["cpu"])
        merged["loop_lag_ms"].append(r.get("loop_lag_ms"))
    for key in ("latencies", "bot_table_latencies", "bot_times"):
        merged[key].sort()
    return merged


def spectator_reach(merged: dict[str, Any], from_mover_update: bool = False) -> list[float]:
    """For each move made at table 0 whose update every spectator received: the seconds from
    the mover sending it (t0) to the last spectator receiving that version; or, with
    ``from_mover_update``, from the mover receiving its own update of it (the fan-out alone)."""
    everyone = merged["spectators"]
    return sorted(
        merged["reach"][v][0] - (got if from_mover_update else t0)
        for t0, v, got in merged["acked_table0"]
        if v in merged["reach"] and merged["reach"][v][1] == everyone
    )


# Handshakes one client process has in flight at once: the server's accept queue never fills.
CONNECTING = 16


def client_process(conn: Any, seats: list[SeatPlan], think: float, keep_updates: bool) -> None:
    """A client process: connect every seat (telling the parent when all are), wait for the
    start, play until the stop, send the report back."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(_client_main(conn, seats, think, keep_updates))
    conn.close()


async def _client_main(conn: Any, seats: list[SeatPlan], think: float, keep_updates: bool) -> None:
    loop = asyncio.get_running_loop()
    clock = Clock(keep_updates)
    clients = [Client(s, think, clock) for s in seats]
    connected = asyncio.Event()
    count = 0

    def ready() -> None:
        nonlocal count
        count += 1
        if count == len(clients):
            connected.set()

    pace = asyncio.Semaphore(CONNECTING)
    tasks = [asyncio.create_task(c.run(pace, ready)) for c in clients]
    if not clients:
        connected.set()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(connected.wait(), 180)
    conn.send(("ready", count))
    start, stop = await loop.run_in_executor(None, conn.recv)
    clock.start, clock.stop = start, stop
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    cpu = time.process_time()
    clock.go.set()
    lags: list[float] = []  # this process's own loop: a late stamp would be the client's
    watch = asyncio.create_task(_watch_loop(lags, stop))
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    await watch
    # The moves sent before the stop may be answered after it: up to 3 s more for them.
    end = time.monotonic() + 3
    while time.monotonic() < end and any(c.sent_at is not None for c in clients):
        await asyncio.sleep(0.05)
    cpu = time.process_time() - cpu
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    report = client_report(clients, cpu)
    lags.sort()
    report["loop_lag_ms"] = [ms(percentile(lags, 99)) if lags else None, ms(max(lags, default=0))]
    conn.send(("report", report))


async def _watch_loop(lags: list[float], stop: float) -> None:
    """How late this process's event loop wakes a task sleeping 10 ms, until ``stop``."""
    while time.monotonic() < stop:
        before = time.monotonic()
        await asyncio.sleep(0.01)
        lags.append(max(0.0, time.monotonic() - before - 0.01))


def run_clients(
    slices: list[list[SeatPlan]],
    think: float,
    keep_updates: bool,
    on_ready: Callable[[], tuple[float, float]],
) -> list[dict[str, Any]]:
    """Start a client process for each slice (forked), wait until all have connected, let
    ``on_ready`` take the figures before the run and say (start, stop), and gather the reports."""
    context = multiprocessing.get_context("fork")
    pipes = []
    for part in slices:
        parent, child = context.Pipe()
        proc = context.Process(
            target=client_process, args=(child, part, think, keep_updates), daemon=True
        )
        proc.start()
        child.close()
        pipes.append((proc, parent))
    connected = 0
    for _, parent in pipes:
        kind, n = parent.recv()
        assert kind == "ready"
        connected += n
    print(f"loadtest: {connected} connections open", file=sys.stderr, flush=True)
    start, stop = on_ready()
    for _, parent in pipes:
        parent.send((start, stop))
    reports = []
    for proc, parent in pipes:
        kind, report = parent.recv()
        assert kind == "report"
        reports.append(report)
        proc.join(10)
    return reports


def health(ports: list[int], alive: list[bool]) -> list[dict[str, Any]]:
    return [
        httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=30).json()
        for port, up in zip(ports, alive, strict=True)
        if up
    ]


def loop_figures(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """A server's event-loop stalls and garbage-collector passes over the measured seconds
    (``/healthz``'s ``loop``, after less before); None from a server without them."""
    b, a = before.get("loop"), after.get("loop")
    if not a or not b:
        return None
    return {
        "stalls_20_50_100ms": [x - y for x, y in zip(a["stalls"], b["stalls"], strict=True)],
        "stalled_ms": round(a["stalled_ms"] - b["stalled_ms"], 1),
        "stalled_cpu_ms": round(a["stalled_cpu_ms"] - b["stalled_cpu_ms"], 1),
        "gc_passes": [x - y for x, y in zip(a["gc_passes"], b["gc_passes"], strict=True)],
        "gc_ms": [round(x - y, 1) for x, y in zip(a["gc_ms"], b["gc_ms"], strict=True)],
        "gc_ms_longest": a["gc_ms_longest"],
        "gc_freezes_full_passes": [
            a.get("gc_freezes", 0) - b.get("gc_freezes", 0),
            a.get("gc_full_passes", 0) - b.get("gc_full_passes", 0),
        ],
        "lag_ms_p99_latest": a["lag_ms_p99"],
    }


def percentile(sorted_values: list[float], p: int) -> float:
    """The ``p``-th percentile, interpolated between the values measured (never past the
    largest: with few values a p99 is close to the maximum, not beyond it)."""
    if len(sorted_values) < 2:
        return sorted_values[0] if sorted_values else float("nan")
    return statistics.quantiles(sorted_values, n=100, method="inclusive")[p - 1]


def failover_figures(
    updates: dict[int, list[float]], tables: int, servers: int, killed_at: float
) -> dict[str, Any]:
    """For each table server 0 owned: the seconds from the SIGKILL to the first update one of
    its clients received afterwards (which only the new owner can send)."""
    first: dict[int, float | None] = {}
    for t in range(0, tables, servers):
        after = [x - killed_at for x in updates.get(t, []) if x > killed_at + IN_FLIGHT]
        first[t] = min(after) if after else None
    times = sorted(t for t in first.values() if t is not None)
    return {
        "failover_tables": len(first),
        "failover_not_recovered": sum(1 for t in first.values() if t is None),
        "failover_s_min": round(times[0], 2) if times else None,
        "failover_s_p50": round(statistics.median(times), 2) if times else None,
        "failover_s_max": round(times[-1], 2) if times else None,
    }


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--players", type=int, default=3, help="people per table (no bots)")
    p.add_argument("--game", default="tonk")
    p.add_argument(
        "--hard-bots", type=int, default=0, help="hard bots per table, beside the people"
    )
    p.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="spectators watching table 0 (its update's p99 to reach them all)",
    )
    p.add_argument(
        "--fresh-numba",
        action="store_true",
        help="the servers start with an empty numba cache, as on a fresh install",
    )
    p.add_argument(
        "--wait-bots",
        action="store_true",
        help="set the tables up only once every server's /healthz says its hard bots are "
        "warm (bots.state ready), and say how long that took from the servers' start",
    )
    p.add_argument(
        "--server-python",
        metavar="PATH",
        help="the Python that runs the servers (default this one), e.g. a fresh install's",
    )
    p.add_argument(
        "--only", help="with --targets: the targets to run, by number from 1, in this order (3,1)"
    )
    p.add_argument(
        "--targets",
        action="store_true",
        help="run issue 23's targets one after another and print them in one table",
    )
    p.add_argument(
        "--bot-tables",
        type=int,
        metavar="K",
        help="with --hard-bots: only the first K tables seat them (default all), so that one "
        "run gives the people's p99 at tables with and without bots",
    )
    p.add_argument(
        "--client-processes",
        type=int,
        default=0,
        metavar="N",
        help="processes running the clients, each with a slice of the tables (default: one "
        "for every 500 connections, at most the cores)",
    )
    p.add_argument("--bot-processes", type=int, metavar="N", help="the servers' --bot-processes")
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--think", type=float, default=1.0, help="mean seconds before each move")
    p.add_argument(
        "--database",
        help="default: SQLite in a temporary folder; with a "
        "PostgreSQL URL, a fresh database on that server",
    )
    p.add_argument("--servers", type=int, default=1, help="server processes (scale-out)")
    p.add_argument("--redis", help="Redis URL, for several servers")
    p.add_argument(
        "--kill-after",
        type=float,
        metavar="SECONDS",
        help="SIGKILL server 0 this long into the run and measure the failover",
    )
    p.add_argument(
        "--py-spy",
        metavar="PATH",
        help="sample the servers with this py-spy over the measured seconds and print where "
        "their CPU went (scripts/profile_table.py)",
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if (
        args.tables < 1
        or args.players < 1
        or args.players + args.hard_bots < 2
        or args.seconds <= 0
        or args.think <= 0
    ):
        p.error(
            "--tables must be at least 1, --players at least 1 (2 seats with --hard-bots), "
            "--seconds and --think more than 0"
        )
    if args.servers < 1:
        p.error("--servers must be at least 1")
    if args.servers > 1 and not (
        args.redis and args.database and args.database.startswith("postgresql")
    ):
        p.error("several servers need --redis redis://… and --database postgresql+asyncpg://…")
    if args.kill_after is not None and not (
        args.servers > 1 and 0 < args.kill_after < args.seconds
    ):
        p.error("--kill-after needs --servers 2 or more and a time within --seconds")
    return args


# Issue 23's targets: (name, loadtest's arguments, the figure that answers, the bound).
TARGETS: list[tuple[str, list[str], str, float | None]] = [
    (
        "CPU a move, 1 process, SQLite (200 tables)",
        ["--tables", "200"],
        "server_cpu_ms_per_move",
        1.0,
    ),
    (
        "CPU a move, 1 process, PostgreSQL (200 tables)",
        ["--tables", "200", "--database", "{pg}"],
        "server_cpu_ms_per_move",
        1.0,
    ),
    (
        "1,000 tables × 3 people, think 2 s, 1 process, SQLite",
        ["--tables", "1000", "--think", "2"],
        "latency_ms_p99",
        100.0,
    ),
    (
        "1,000 tables × 3 people, think 2 s, 2 processes, PostgreSQL + Redis",
        [
            "--tables",
            "1000",
            "--think",
            "2",
            "--servers",
            "2",
            "--database",
            "{pg}",
            "--redis",
            "{redis}",
        ],
        "latency_ms_p99",
        150.0,
    ),
    (
        "1 table, 1,000 spectators: an update reaching all",
        ["--tables", "1", "--spectators", "1000", "--think", "0.5"],
        "spectator_reach_ms_p99",
        200.0,
    ),
    (
        "100 tables × 2 people, think 2 s (no bots)",
        ["--tables", "100", "--players", "2", "--think", "2"],
        "latency_ms_p99",
        None,
    ),
    (
        "100 tables × 2 people, a hard bot at 50 of them (people's p99 at the 50 without)",
        [
            "--tables",
            "100",
            "--players",
            "2",
            "--hard-bots",
            "1",
            "--bot-tables",
            "50",
            "--think",
            "2",
            "--wait-bots",
        ],
        "latency_ms_p99_no_bot_tables",
        None,
    ),
    (
        "5 tables × 1 person + 2 hard bots, fresh numba cache, after bots ready",
        [
            "--tables",
            "5",
            "--players",
            "1",
            "--hard-bots",
            "2",
            "--think",
            "0.5",
            "--fresh-numba",
            "--wait-bots",
        ],
        "bot_move_ms_mean",
        50.0,
    ),
]


def target_row(name: str, f: dict[str, Any], key: str, bound: float | None, load: float) -> str:
    """One target's row of the table."""
    value = f.get(key)
    met = "" if bound is None or value is None else ("yes" if value <= bound else "no")
    other = ""
    if "bot_move_ms_mean" in f:
        pool = f["server_bot_pool"][0] or {}
        other = (
            f"bot move (client): mean {f['bot_move_ms_mean']} ms, p99 "
            f"{f['bot_move_ms_p99']} ({f['bot_moves']} moves); pool: mean "
            f"{pool.get('move_ms_mean')}, p99 {pool.get('move_ms_p99')}, first "
            f"{pool.get('move_ms_first')}, deciding {pool.get('decide_ms_mean')}; people "
            f"at bot tables p99 {f['latency_ms_p99_bot_tables']}"
        )
        if "bots_ready_s" in f:
            other += f"; bots ready {f['bots_ready_s']} s after start"
    if "spectator_reach_ms_p50" in f:
        other = (
            f"reach p50 {f['spectator_reach_ms_p50']} ms ({f['spectator_updates_measured']} "
            f"moves); from the mover's own update: p50 {f['spectator_fanout_ms_p50']}, p99 "
            f"{f['spectator_fanout_ms_p99']}"
        )
    if not other:
        other = f"{f['moves']} moves, setup {f['setup_seconds']} s"
    for loop in f.get("server_loop") or []:
        if loop:
            other += (
                f"; loop stalls ≥20/50/100 ms {'/'.join(map(str, loop['stalls_20_50_100ms']))}"
                f" ({loop['stalled_ms']} ms, {loop['stalled_cpu_ms']} ms CPU), gc passes "
                f"{loop['gc_passes']} "
                f"{loop['gc_ms']} ms (longest {loop['gc_ms_longest'][2]})"
            )
    lags = [x[0] for x in f.get("clients_loop_lag_ms_p99_max") or [] if x]
    if lags:
        other += f"; clients' loop lag p99 {lags} ms, CPU {f['clients_cpu_share']}"
    if f.get("server_runqueue_wait_share"):
        other += f"; server waiting for a core {f['server_runqueue_wait_share']} of the time"
    rss = " + ".join(str(m) for m in f["server_peak_rss_mib"] if m is not None)
    return (
        f"| {name} | {key} {value} | {bound or ''} | {met} | {f['latency_ms_p99']} | "
        f"{f['errors']} | {rss} | {f['server_cpu_ms_per_move']} | {other} | "
        f"{load:.1f} → {f['load_average'][0]} |"
    )


def run_targets(args: argparse.Namespace) -> int:
    """Every target, each a run of this script (``--json``), and one table of them."""
    pg = args.database or os.environ.get(
        "TAVERN_TEST_POSTGRES", "postgresql+asyncpg://tavern:tavern@127.0.0.1:5432/tavern"
    )
    redis = args.redis or "redis://127.0.0.1:6379/0"
    head = "target | figure | bound | met | p99 ms | errors | RSS MiB | CPU ms/move | other | load"
    print(f"| {head} |")
    print("|---|---|---|---|---|---|---|---|---|---|", flush=True)
    order = [int(x) for x in args.only.split(",")] if args.only else range(1, len(TARGETS) + 1)
    for number in order:  # in the order given, each row printed once it is done
        name, extra, key, bound = TARGETS[number - 1]
        command = [sys.executable, __file__, "--seconds", str(args.seconds), "--json"]
        command += [x.format(pg=pg, redis=redis) for x in extra]
        if args.server_python:
            command += ["--server-python", args.server_python]
        if args.client_processes:
            command += ["--client-processes", str(args.client_processes)]
        load = os.getloadavg()[0]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            error = " ".join(done.stderr.strip().splitlines()[-1:])
            print(f"| {name} | failed: {error} | | | | | | | | {load:.1f} |", flush=True)
            continue
        f = json.loads(done.stdout.strip().splitlines()[-1])
        print(target_row(name, f, key, bound, load), flush=True)
        with open(os.environ.get("LOADTEST_JSONL", os.devnull), "a") as out:
            out.write(json.dumps({"target": number, "name": name, **f}) + "\n")
    return 0


def main() -> int:
    args = parse_args()
    if args.targets:
        return run_targets(args)
    folder = tempfile.mkdtemp(prefix="tavern-load-")
    database = args.database or f"sqlite+aiosqlite:///{folder}/load.sqlite3"
    fresh = None
    if database.startswith("postgresql"):
        fresh = f"tavern_load_{os.getpid()}"
        try:
            postgres_admin(database, f'CREATE DATABASE "{fresh}"')
        except Exception as e:
            raise SystemExit(
                f"loadtest: cannot create a database on {database}: {str(e).splitlines()[0]}"
            ) from None
        database = database.rsplit("/", 1)[0] + "/" + fresh
    extra = ["--redis", args.redis] if args.redis else []
    if args.bot_processes:
        extra += ["--bot-processes", str(args.bot_processes)]
    ports = [free_port() for _ in range(args.servers)]
    servers: list[subprocess.Popen[bytes]] = []
    try:
        env = {"NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="numba-")} if args.fresh_numba else None
        began = time.monotonic()
        servers += [start_server(database, port, extra, env, args.server_python) for port in ports]
        answering = time.monotonic() - began
        ready = wait_for_bots(ports, began) if args.wait_bots else None
        figures = measure(args, ports, servers)
        figures["servers_answering_s"] = round(answering, 1)
        if ready is not None:
            figures["bots_ready_s"] = ready
    finally:
        for s in servers:
            if s.poll() is None:
                s.terminate()
        for s in servers:
            try:
                s.wait(30)
            except subprocess.TimeoutExpired:
                # A server still closing its connections (a cluster at 1,000 tables took longer
                # than 20 s): the figures are taken, so it is killed rather than lose them.
                print(f"loadtest: server {s.pid} did not stop in 30 s; killed", file=sys.stderr)
                s.kill()
                s.wait()
        if fresh is not None:
            postgres_admin(database, f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            if key == "profile":
                print(value)
            else:
                print(f"{key:>24}: {value}")
    return 0


def measure(
    args: argparse.Namespace, ports: list[int], servers: list[subprocess.Popen[bytes]]
) -> dict[str, Any]:
    options = {"max_rounds": 1} if args.game == "three-towers" else {}
    begin = time.monotonic()
    bot_tables = args.tables if args.bot_tables is None else args.bot_tables

    def post(url: str, **kwargs: Any) -> dict[str, Any]:
        for _ in range(5):
            response = http.post(url, **kwargs)
            if response.status_code != 429:
                break
            time.sleep(float(response.headers.get("Retry-After", "1")))
        if response.status_code >= 300:
            raise SystemExit(
                f"loadtest: POST {url} answered {response.status_code}: {response.text[:300]}"
            )
        answer: dict[str, Any] = response.json()
        return answer

    def make_table(t: int) -> list[SeatPlan]:
        base = f"http://127.0.0.1:{ports[t % len(ports)]}"
        bots = args.hard_bots if t < bot_tables else 0
        made = post(
            f"{base}/api/tables",
            json={
                "game": args.game,
                "options": options,
                "host_seat": 0,
                "host_name": "P0",
                "seats": [{"kind": "person"}] * args.players
                + [{"kind": "bot", "level": "hard"}] * bots,
                "absent_seconds": 3600,
            },
        )
        table = made["table"]["id"]
        tokens = [made["token"]] + [
            post(f"{base}/api/tables/{table}/join", json={"name": f"P{k}"})["token"]
            for k in range(1, args.players)
        ]
        post(f"{base}/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]})
        # Seat k connects to server t + k, and to the ones after it should that one die.
        return [
            SeatPlan(
                t,
                [
                    f"ws://127.0.0.1:{ports[(t + k + j) % len(ports)]}/ws/{table}?token={token}"
                    for j in range(len(ports))
                ],
                t * 100 + k,
                bots=bots > 0,
                times_bots=bots > 0 and k == 0,
            )
            for k, token in enumerate(tokens)
        ] + [
            SeatPlan(
                t,
                [
                    f"ws://127.0.0.1:{ports[(t + j) % len(ports)]}/ws/{table}"
                    for j in range(len(ports))
                ],
                0,
                spectator=True,
            )
            for _ in range(args.spectators if t == 0 else 0)
        ]

    seats: list[SeatPlan] = []
    with httpx2.Client(timeout=60) as http, ThreadPoolExecutor(SETUP_THREADS) as pool:
        for made in pool.map(make_table, range(args.tables)):
            seats += made
    tables_made = time.monotonic() - begin
    processes = args.client_processes or default_client_processes(len(seats))
    alive = [True] * len(servers)
    marks: dict[str, Any] = {}
    kill_timer: list[threading.Timer] = []

    def on_ready() -> tuple[float, float]:
        marks["setup"] = time.monotonic() - begin
        marks["before"] = health(ports, alive)
        start = time.monotonic() + 0.5
        marks["start"] = start
        marks["server_cpu"] = [cpu_seconds(s.pid) for s in servers]
        marks["server_waits"] = [runqueue_wait_seconds(s.pid) for s in servers]
        if os.environ.get("TAVERN_PROFILE"):  # scripts/profile_server.py: count from now on
            for s in servers:
                s.send_signal(signal.SIGUSR1)
        if args.py_spy:
            marks["spies"] = [start_spy(args.py_spy, s.pid, args.seconds) for s in servers]
        if args.kill_after is not None:

            def kill() -> None:
                servers[0].send_signal(signal.SIGKILL)
                marks["killed_at"] = time.monotonic()

            timer = threading.Timer(start + args.kill_after - time.monotonic(), kill)
            timer.start()
            kill_timer.append(timer)
        return start, start + args.seconds

    reports = run_clients(
        slice_seats(seats, processes), args.think, args.kill_after is not None, on_ready
    )
    for timer in kill_timer:
        timer.join()
    start = marks["start"]
    elapsed = time.monotonic() - start
    killed_at = marks.get("killed_at")
    if killed_at is not None:
        alive[0] = False
        servers[0].wait(10)
    used: list[float | None] = [
        cpu_seconds(s.pid) - b if up else None
        for s, b, up in zip(servers, marks["server_cpu"], alive, strict=True)
    ]
    waited = [
        None if w is None or not up or (now := runqueue_wait_seconds(s.pid)) is None else now - w
        for s, w, up in zip(servers, marks["server_waits"], alive, strict=True)
    ]
    merged = merge_reports(reports)
    latencies = merged["latencies"]
    memory = [rss_kib(s.pid) if up else None for s, up in zip(servers, alive, strict=True)]
    before = marks["before"]
    after = health(ports, alive)
    moves = merged["moves"]
    survivors = [b for b, up in zip(before, alive, strict=True) if up]
    renewals = sum(
        a.get("renewals", 0) - b.get("renewals", 0) for a, b in zip(after, survivors, strict=True)
    )
    writes = sum(a["writes"] - b["writes"] for a, b in zip(after, survivors, strict=True))
    writes -= renewals
    published, stored = (
        sum(a.get(key, 0) - b.get(key, 0) for a, b in zip(after, survivors, strict=True))
        for key in ("published", "stored")
    )
    figures: dict[str, Any] = {
        "tables": args.tables,
        "connections": len(seats),
        "client_processes": processes,
        "servers": args.servers,
        "game": args.game,
        "seconds": args.seconds,
        "setup_seconds": round(marks["setup"], 1),
        "tables_made_seconds": round(tables_made, 1),
        "moves": moves,
        "moves_per_s": round(moves / args.seconds, 1),
        "latency_ms_p50": ms(percentile(latencies, 50)),
        "latency_ms_p99": ms(percentile(latencies, 99)),
        "latency_ms_max": ms(latencies[-1]) if latencies else None,
        "latencies_measured": len(latencies),
        "errors": sum(merged["errors"].values()) + sum(merged["failures"].values()),
        "error_codes": dict(sorted(merged["errors"].items())),
        "connection_failures": dict(sorted(merged["failures"].items())),
        "never_connected": merged["never_connected"],
        "reconnects": merged["reconnects"],
        "server_cpu_share": [None if c is None else round(c / elapsed, 2) for c in used],
        # The share of the run a server's loop was ready to run but had no core.
        "server_runqueue_wait_share": [
            None if w is None else round(w / elapsed, 2) for w in waited
        ],
        "clients_cpu_share": [round(c / elapsed, 2) for c in merged["cpu"]],
        "clients_loop_lag_ms_p99_max": merged["loop_lag_ms"],
        # Over the measured seconds, every write transaction but the lease renewals (one a
        # second per process, however many tables), and every Redis message published; a dead
        # server's are lost.
        "db_writes_per_move": None if killed_at else round(writes / max(1, moves), 2),
        "lease_renewals_per_s": None if killed_at else round(renewals / elapsed, 1),
        "redis_messages_per_move": None if killed_at else round(published / max(1, moves), 2),
        "redis_summaries_per_move": None if killed_at else round(stored / max(1, moves), 2),
        "server_rss_mib": [None if m is None else round(m[0] / 1024, 1) for m in memory],
        "server_peak_rss_mib": [None if m is None else round(m[1] / 1024, 1) for m in memory],
    }
    if merged["spectators"]:
        reach = spectator_reach(merged)
        figures["spectators"] = merged["spectators"]
        figures["spectator_reach_ms_p50"] = ms(percentile(reach, 50))
        figures["spectator_reach_ms_p99"] = ms(percentile(reach, 99))
        figures["spectator_updates_measured"] = len(reach)
        fanout = spectator_reach(merged, from_mover_update=True)
        figures["spectator_fanout_ms_p50"] = ms(percentile(fanout, 50))
        figures["spectator_fanout_ms_p99"] = ms(percentile(fanout, 99))
    if args.hard_bots:
        bot_times = merged["bot_times"]
        figures["bot_tables"] = bot_tables
        figures["latency_ms_p99_bot_tables"] = ms(percentile(merged["bot_table_latencies"], 99))
        figures["latency_ms_p99_no_bot_tables"] = figures["latency_ms_p99"]
        figures["bot_moves"] = len(bot_times)
        figures["bot_move_ms_mean"] = ms(statistics.fmean(bot_times)) if bot_times else None
        figures["bot_move_ms_p99"] = ms(percentile(bot_times, 99))
        figures["server_bot_pool"] = [h.get("bots") for h in after]
    if args.hard_bots and bot_tables >= args.tables:
        # Every table has bots: the people's figure is theirs.
        figures["latency_ms_p50"] = ms(percentile(merged["bot_table_latencies"], 50))
        figures["latency_ms_p99"] = figures["latency_ms_p99_bot_tables"]
        figures["latency_ms_p99_no_bot_tables"] = None
        figures["latencies_measured"] = len(merged["bot_table_latencies"])
        people = merged["bot_table_latencies"]
        figures["latency_ms_max"] = ms(people[-1]) if people else None
    figures["server_loop"] = [loop_figures(b, a) for b, a in zip(survivors, after, strict=True)]
    figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    figures["server_cpu_ms_per_move"] = round(
        1000 * sum(c for c in used if c is not None) / max(1, moves), 2
    )
    if killed_at is not None:
        figures.update(failover_figures(merged["updates"], args.tables, args.servers, killed_at))
    if marks.get("spies"):
        figures["profile"] = spy_table(marks["spies"], moves)
    return figures


def ms(seconds: float) -> float:
    return round(1000 * seconds, 1)


# Threads creating the tables over HTTP during the setup (not measured).
SETUP_THREADS = 16


def default_client_processes(connections: int) -> int:
    """Client processes by default: one for every 500 connections, at most the cores."""
    return max(1, min(os.cpu_count() or 1, -(-connections // 500)))


SPY_RATE = 250


def start_spy(py_spy: str, pid: int, seconds: float) -> tuple[subprocess.Popen[bytes], Path]:
    """py-spy sampling one server for ``seconds`` (its samples' file: ``spy_table``)."""
    out = Path(tempfile.mkdtemp(prefix="tavern-spy-")) / f"{pid}.txt"
    command = [py_spy, "record", "--format", "raw", "--threads", "--nonblocking", "--gil"]
    command += ["--rate", str(SPY_RATE), "-d", str(max(1, int(seconds))), "-o", str(out)]
    command += ["-p", str(pid)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), out


def spy_table(spies: list[tuple[subprocess.Popen[bytes], Path]], moves: int) -> str:
    """Where the servers' sampled CPU went, per move (summed over the servers)."""
    from collections import Counter

    from profile_table import read_samples, table

    counts: Counter[str] = Counter()
    for proc, out in spies:
        proc.wait(60)
        if out.exists():
            counts += read_samples(out)
    return table(counts, SPY_RATE, moves)


if __name__ == "__main__":
    raise SystemExit(main())
