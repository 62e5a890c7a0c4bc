"""Load test of ``tavern serve`` on this machine, over real WebSockets on 127.0.0.1 only.

Starts the server (a subprocess, an empty SQLite database in a temporary folder unless
``--database`` is given), creates TABLES tables of PLAYERS people each, connects one scripted
client per seat, and lets them play for SECONDS: each client, when its view offers moves,
"thinks" for a random time (mean THINK seconds) and plays a random legal move. It measures the
latency from a move sent to the next state received by that client, the moves per second, and
the server's memory; then it stops everything by itself and prints the figures.

    python scripts/loadtest.py --tables 200 --players 3 --seconds 60
    python scripts/loadtest.py --tables 50 --servers 2 --redis redis://127.0.0.1:6379/0 \
        --database postgresql+asyncpg://tavern:tavern@127.0.0.1/tavern   # scale-out (issue 12)

Run by hand; not part of the test suite (CI's timing is not the place for it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import websockets


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(database: str, port: int, extra: list[str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "taverntable.cli", "serve", "--port", str(port), "--database",
         database, "--bot-delay", "0", "--deal-pause", "0", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx2.HTTPError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start") from None
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


class Client:
    """One seat's scripted player."""

    def __init__(self, url: str, seed: int, think: float, stop: float) -> None:
        self.url = url
        self.rng = random.Random(seed)
        self.think = think
        self.stop = stop
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0

    async def run(self) -> None:
        sent_at: float | None = None
        sent_version = -1
        try:
            async with websockets.connect(self.url, max_size=None, compression=None) as ws:
                async for raw in ws:
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind == "error":
                        self.errors += 1
                        sent_at = None
                        continue
                    if kind != "update":
                        continue
                    if sent_at is not None and message["version"] > sent_version:
                        self.latencies.append(time.monotonic() - sent_at)
                        sent_at = None
                    if time.monotonic() >= self.stop:
                        return
                    legal = message["view"]["legal_moves"]
                    if not legal:
                        continue
                    await asyncio.sleep(self.rng.expovariate(1 / self.think))
                    sent_version = message["version"]
                    sent_at = time.monotonic()
                    await ws.send(json.dumps({"type": "move", "move": self.rng.choice(legal),
                                              "version": sent_version}))
                    self.moves += 1
        except websockets.ConnectionClosed:
            self.errors += 1


async def run_clients(clients: list[Client]) -> None:
    await asyncio.gather(*(c.run() for c in clients))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--players", type=int, default=3, help="people per table (no bots)")
    p.add_argument("--game", default="tonk")
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--think", type=float, default=1.0, help="mean seconds before each move")
    p.add_argument("--database", help="default: SQLite in a temporary folder")
    p.add_argument("--servers", type=int, default=1, help="server processes (scale-out)")
    p.add_argument("--redis", help="Redis URL for several servers")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    folder = tempfile.mkdtemp(prefix="tavern-load-")
    database = args.database or f"sqlite+aiosqlite:///{folder}/load.sqlite3"
    extra = ["--redis", args.redis] if args.redis else []
    ports = [free_port() for _ in range(args.servers)]
    servers = [start_server(database, port, extra) for port in ports]
    try:
        clients: list[Client] = []
        options = {"max_rounds": 1} if args.game == "three-towers" else {}
        begin = time.monotonic()
        def make_table(t: int) -> list[Client]:
            base = f"http://127.0.0.1:{ports[t % len(ports)]}"
            made = http.post(f"{base}/api/tables", json={
                "game": args.game, "options": options, "host_seat": 0, "host_name": "P0",
                "seats": [{"kind": "person"}] * args.players, "absent_seconds": 3600}).json()
            table = made["table"]["id"]
            tokens = [made["token"]] + [
                http.post(f"{base}/api/tables/{table}/join", json={"name": f"P{k}"}).json()[
                    "token"] for k in range(1, args.players)]
            http.post(f"{base}/api/tables/{table}/start",
                      headers={"X-Host-Token": made["host_token"]})
            # Each seat may connect to any server (scale-out): seat k to server t + k.
            return [Client(f"ws://127.0.0.1:{ports[(t + k) % len(ports)]}/ws/{table}"
                           f"?token={token}", t * 100 + k, args.think, 0.0)
                    for k, token in enumerate(tokens)]

        with httpx2.Client(timeout=60) as http, ThreadPoolExecutor(8) as pool:
            for made_clients in pool.map(make_table, range(args.tables)):
                clients += made_clients
        setup = time.monotonic() - begin
        start = time.monotonic()
        cpu = time.process_time()
        server_cpu = [cpu_seconds(s.pid) for s in servers]
        for c in clients:
            c.stop = start + args.seconds
        asyncio.run(run_clients(clients))
        elapsed = time.monotonic() - start
        cpu = time.process_time() - cpu
        server_cpu = [cpu_seconds(s.pid) - before for s, before in zip(servers, server_cpu,
                                                                          strict=True)]
        latencies = sorted(x for c in clients for x in c.latencies)
        memory = [rss_kib(s.pid) for s in servers]
        health = [httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=30).json()
                  for port in ports]
        figures: dict[str, Any] = {
            "tables": args.tables, "connections": len(clients), "servers": args.servers,
            "game": args.game, "seconds": round(elapsed, 1), "setup_seconds": round(setup, 1),
            "moves": sum(c.moves for c in clients),
            "moves_per_s": round(sum(c.moves for c in clients) / elapsed, 1),
            "latency_ms_p50": round(1000 * statistics.quantiles(latencies, n=100)[49], 1),
            "latency_ms_p99": round(1000 * statistics.quantiles(latencies, n=100)[98], 1),
            "latency_ms_max": round(1000 * latencies[-1], 1),
            "errors": sum(c.errors for c in clients),
            "server_cpu_share": [round(c / elapsed, 2) for c in server_cpu],
            "clients_cpu_share": round(cpu / elapsed, 2),
            "db_writes_per_move": round(sum(h["writes"] for h in health)
                                        / max(1, sum(c.moves for c in clients)), 2),
            "redis_messages_per_move": round(sum(h.get("published", 0) for h in health)
                                             / max(1, sum(c.moves for c in clients)), 2),
            "server_rss_mib": [round(m[0] / 1024, 1) for m in memory],
            "server_peak_rss_mib": [round(m[1] / 1024, 1) for m in memory],
        }
    finally:
        for s in servers:
            s.terminate()
            s.wait(20)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>20}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
