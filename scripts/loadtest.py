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

Run by hand; not part of the test suite (CI's timing is not the place for it). The server
command may be replaced with TAVERN_SERVER (default ``-m taverntable.cli``), e.g. to measure
another checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
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
    database: str, port: int, extra: list[str], env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    server = os.environ.get("TAVERN_SERVER", "-m taverntable.cli").split()
    proc = subprocess.Popen(
        [
            sys.executable,
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
            "--tables-per-address",  # every table comes from this machine's one address
            "0",
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
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
    """One seat's scripted player; it reconnects to the next URL when its server goes away."""

    def __init__(
        self, table: int, urls: list[str], seed: int, think: float, spectator: bool = False
    ) -> None:
        self.table = table
        self.spectator = spectator
        self.arrivals: dict[int, float] = {}  # a spectator's: when each version came
        self.acked: list[tuple[float, int]] = []  # a mover's: (move sent, version it made)
        self.bot_times: list[float] = []  # from a bot's turn to the update of its move
        self.bot_turn_at: float | None = None
        self.urls = urls
        self.rng = random.Random(seed)
        self.think = think
        self.stop = float("inf")  # set once every client is connected (``run_clients``)
        self.begin = float("inf")  # moves sent from then on are counted
        self.connected = False  # its first update came
        self.latencies: list[float] = []
        self.updates: list[float] = []  # when each update arrived (monotonic)
        self.moves = 0
        self.errors = 0
        self.error_codes: dict[str, int] = {}
        self.reconnects = 0

    async def run(self) -> None:
        for attempt in range(len(self.urls) * 20):
            url = self.urls[attempt % len(self.urls)]
            try:
                async with websockets.connect(url, max_size=None, compression=None) as ws:
                    await self._play(ws)
                    return
            except (websockets.ConnectionClosed, OSError):
                if time.monotonic() >= self.stop:
                    return
                self.reconnects += 1
                await asyncio.sleep(0.3)

    async def _play(self, ws: Any) -> None:
        sent_at: float | None = None
        sent_version = -1
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "error":
                self.errors += 1
                code = str(message.get("code"))
                self.error_codes[code] = self.error_codes.get(code, 0) + 1
                sent_at = None
                continue
            if kind != "update":
                continue
            now = time.monotonic()
            self.connected = True
            self.updates.append(now)
            if self.spectator:
                self.arrivals.setdefault(message["version"], now)
                if now >= self.stop:
                    return
                continue
            if self.bot_turn_at is not None:
                self.bot_times.append(now - self.bot_turn_at)
                self.bot_turn_at = None
            turn = message.get("turn")
            if turn is not None and turn.get("bot") and turn.get("seat") != message["view"]["seat"]:
                self.bot_turn_at = now
            if sent_at is not None and message["version"] > sent_version:
                if sent_at >= self.begin:
                    self.latencies.append(now - sent_at)
                    self.acked.append((sent_at, message["version"]))
                sent_at = None
            if now >= self.stop:
                return
            legal = message["view"]["legal_moves"]
            if not legal:
                continue
            await asyncio.sleep(self.rng.expovariate(1 / self.think))
            if time.monotonic() >= self.stop:  # every move counted is sent within the run
                return
            sent_version = message["version"]
            sent_at = time.monotonic()
            await ws.send(
                json.dumps(
                    {"type": "move", "move": self.rng.choice(legal), "version": sent_version}
                )
            )
            if sent_at >= self.begin:
                self.moves += 1


async def run_clients(
    clients: list[Client],
    seconds: float,
    measure: Callable[[], None],
    kill: tuple[float, subprocess.Popen[bytes]] | None,
) -> tuple[float, float | None]:
    """Connect every client; once each has its first update (or after a minute), call
    ``measure`` (the servers' figures before) and play for ``seconds``, until the clients stop
    (each at its first update after the end, those still waiting for one are given up 3 s
    after it). The connections' setting up is not in the measured seconds: a move's cost is
    the figure, not a connection's. Returns when the measured seconds began (monotonic) and
    when the server was killed, if it was."""
    tasks = [asyncio.create_task(c.run()) for c in clients]
    deadline = time.monotonic() + 60
    while not all(c.connected for c in clients) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.to_thread(measure)
    start = time.monotonic()
    for c in clients:
        c.begin, c.stop = start, start + seconds
    killed_at = None
    if kill is not None:
        await asyncio.sleep(kill[0])
        kill[1].send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
    _, pending = await asyncio.wait(tasks, timeout=start + seconds + 3 - time.monotonic())
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return start, killed_at


def health(ports: list[int], alive: list[bool]) -> list[dict[str, Any]]:
    return [
        httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=30).json()
        for port, up in zip(ports, alive, strict=True)
        if up
    ]


def percentile(sorted_values: list[float], p: int) -> float:
    if len(sorted_values) < 2:
        return sorted_values[0] if sorted_values else float("nan")
    return statistics.quantiles(sorted_values, n=100)[p - 1]


def failover_figures(clients: list[Client], servers: int, killed_at: float) -> dict[str, Any]:
    """For each table server 0 owned: the seconds from the SIGKILL to the first update one of
    its clients received afterwards (which only the new owner can send)."""
    first: dict[int, float | None] = {}
    for c in clients:
        if c.table % servers != 0:
            continue
        after = [t - killed_at for t in c.updates if t > killed_at + IN_FLIGHT]
        earlier = first.get(c.table)
        if after and (earlier is None or min(after) < earlier):
            first[c.table] = min(after)
        else:
            first.setdefault(c.table, None)
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
    p.add_argument("--only", help="with --targets: the targets to run, by number from 1 (1,3)")
    p.add_argument(
        "--targets",
        action="store_true",
        help="run issue 23's targets one after another and print them in one table",
    )
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
        "100 tables × 2 people + 1 hard bot, fresh numba cache",
        ["--tables", "100", "--players", "2", "--hard-bots", "1", "--think", "2", "--fresh-numba"],
        "latency_ms_p99",
        None,
    ),
]


def run_targets(args: argparse.Namespace) -> int:
    """Every target, each a run of this script (``--json``), and one table of them."""
    pg = args.database or os.environ.get(
        "TAVERN_TEST_POSTGRES", "postgresql+asyncpg://tavern:tavern@127.0.0.1:5432/tavern"
    )
    redis = args.redis or "redis://127.0.0.1:6379/0"
    rows = []
    only = {int(x) for x in args.only.split(",")} if args.only else None
    for number, (name, extra, key, bound) in enumerate(TARGETS, 1):
        if only is not None and number not in only:
            continue
        command = [sys.executable, __file__, "--seconds", str(args.seconds), "--json"]
        command += [x.format(pg=pg, redis=redis) for x in extra]
        load = os.getloadavg()[0]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            rows.append((name, {}, key, bound, load, done.stderr.strip().splitlines()[-1:]))
            continue
        rows.append((name, json.loads(done.stdout.strip().splitlines()[-1]), key, bound, load, []))
        print(f"done: {name}", file=sys.stderr, flush=True)
    head = "target | figure | bound | met | p99 ms | errors | RSS MiB | CPU ms/move | other | load"
    print(f"| {head} |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, f, key, bound, load, error in rows:
        if not f:
            print(f"| {name} | failed: {' '.join(error)} | | | | | | | | {load:.1f} |")
            continue
        value = f.get(key)
        met = "" if bound is None or value is None else ("yes" if value <= bound else "no")
        other = ""
        if "bot_move_ms_mean" in f:
            other = (
                f"bot move: mean {f['bot_move_ms_mean']} ms, p99 {f['bot_move_ms_p99']}, "
                f"first {f['bot_move_ms_first']} ({f['bot_moves']} moves)"
            )
        if "spectator_reach_ms_p50" in f:
            other = f"reach p50 {f['spectator_reach_ms_p50']} ms"
        rss = " + ".join(str(m) for m in f["server_peak_rss_mib"] if m is not None)
        print(
            f"| {name} | {key} {value} | {bound or ''} | {met} | {f['latency_ms_p99']} | "
            f"{f['errors']} | {rss} | {f['server_cpu_ms_per_move']} | {other} | "
            f"{load:.1f} → {f['load_average'][0]} |"
        )
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
    ports = [free_port() for _ in range(args.servers)]
    servers: list[subprocess.Popen[bytes]] = []
    try:
        env = {"NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="numba-")} if args.fresh_numba else None
        servers += [start_server(database, port, extra, env) for port in ports]
        figures = measure(args, ports, servers)
    finally:
        for s in servers:
            if s.poll() is None:
                s.terminate()
                s.wait(20)
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

    def post(url: str, **kwargs: Any) -> dict[str, Any]:
        response = http.post(url, **kwargs)
        if response.status_code >= 300:
            raise SystemExit(
                f"loadtest: POST {url} answered {response.status_code}: {response.text[:300]}"
            )
        answer: dict[str, Any] = response.json()
        return answer

    def make_table(t: int) -> list[Client]:
        base = f"http://127.0.0.1:{ports[t % len(ports)]}"
        made = post(
            f"{base}/api/tables",
            json={
                "game": args.game,
                "options": options,
                "host_seat": 0,
                "host_name": "P0",
                "seats": [{"kind": "person"}] * args.players
                + [{"kind": "bot", "level": "hard"}] * args.hard_bots,
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
            Client(
                t,
                [
                    f"ws://127.0.0.1:{ports[(t + k + j) % len(ports)]}/ws/{table}?token={token}"
                    for j in range(len(ports))
                ],
                t * 100 + k,
                args.think,
            )
            for k, token in enumerate(tokens)
        ] + [
            Client(
                t,
                [
                    f"ws://127.0.0.1:{ports[(t + j) % len(ports)]}/ws/{table}"
                    for j in range(len(ports))
                ],
                0,
                args.think,
                spectator=True,
            )
            for _ in range(args.spectators if t == 0 else 0)
        ]

    clients: list[Client] = []
    with httpx2.Client(timeout=60) as http, ThreadPoolExecutor(8) as pool:
        for made_clients in pool.map(make_table, range(args.tables)):
            clients += made_clients
    setup = time.monotonic() - begin
    alive = [True] * len(servers)
    before: list[dict[str, Any]] = []
    server_cpu: list[float] = []
    spies: list[tuple[subprocess.Popen[bytes], Path]] = []
    cpu = 0.0

    def measure() -> None:
        nonlocal cpu
        before.extend(health(ports, alive))
        cpu = time.process_time()
        server_cpu.extend(cpu_seconds(s.pid) for s in servers)
        if args.py_spy:
            spies.extend(start_spy(args.py_spy, s.pid, args.seconds) for s in servers)

    kill = None if args.kill_after is None else (args.kill_after, servers[0])
    start, killed_at = asyncio.run(run_clients(clients, args.seconds, measure, kill))
    elapsed = time.monotonic() - start
    cpu = time.process_time() - cpu
    if killed_at is not None:
        alive[0] = False
        servers[0].wait(10)
    used: list[float | None] = [
        cpu_seconds(s.pid) - b if up else None
        for s, b, up in zip(servers, server_cpu, alive, strict=True)
    ]
    latencies = sorted(x for c in clients for x in c.latencies)
    memory = [rss_kib(s.pid) if up else None for s, up in zip(servers, alive, strict=True)]
    after = health(ports, alive)
    moves = sum(c.moves for c in clients)
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
        "connections": len(clients),
        "servers": args.servers,
        "game": args.game,
        "seconds": args.seconds,
        "setup_seconds": round(setup, 1),
        "moves": moves,
        "moves_per_s": round(moves / args.seconds, 1),
        "latency_ms_p50": round(1000 * percentile(latencies, 50), 1),
        "latency_ms_p99": round(1000 * percentile(latencies, 99), 1),
        "latency_ms_max": round(1000 * latencies[-1], 1) if latencies else None,
        "errors": sum(c.errors for c in clients),
        "error_codes": {
            code: sum(c.error_codes.get(code, 0) for c in clients)
            for code in sorted({k for c in clients for k in c.error_codes})
        },
        "reconnects": sum(c.reconnects for c in clients),
        "server_cpu_share": [None if c is None else round(c / elapsed, 2) for c in used],
        "clients_cpu_share": round(cpu / elapsed, 2),
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
    movers = [c for c in clients if not c.spectator]
    watchers = [c for c in clients if c.spectator]
    if watchers:
        reach = sorted(
            max(w.arrivals[v] for w in watchers) - t0
            for c in movers
            if c.table == 0
            for t0, v in c.acked
            if all(v in w.arrivals for w in watchers)
        )
        figures["spectators"] = len(watchers)
        figures["spectator_reach_ms_p50"] = round(1000 * percentile(reach, 50), 1)
        figures["spectator_reach_ms_p99"] = round(1000 * percentile(reach, 99), 1)
        figures["spectator_updates_measured"] = len(reach)
    bot_times = sorted(x for c in movers for x in c.bot_times)
    if args.hard_bots:
        figures["bot_moves"] = len(bot_times)
        figures["bot_move_ms_mean"] = (
            round(1000 * statistics.fmean(bot_times), 1) if bot_times else None
        )
        figures["bot_move_ms_p99"] = round(1000 * percentile(bot_times, 99), 1)
        first = next((c.bot_times[0] for c in movers if c.table == 0 and c.bot_times), None)
        figures["bot_move_ms_first"] = None if first is None else round(1000 * first, 1)
    figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    figures["server_cpu_ms_per_move"] = round(
        1000 * sum(c for c in used if c is not None) / max(1, moves), 2
    )
    if killed_at is not None:
        figures.update(failover_figures(clients, args.servers, killed_at))
    if spies:
        figures["profile"] = spy_table(spies, moves)
    return figures


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
