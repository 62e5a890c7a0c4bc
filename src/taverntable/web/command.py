"""``tavern serve``: run the game server (FastAPI on uvicorn) with SQLite by default."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from taverntable.extras import install_hint


def add_parser(subparsers: Any) -> None:
    """Register ``tavern serve``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the game server: tables in the browser for friends and bots",
        description="Run the Tavern Table server. Open http://HOST:PORT/ in a browser, create a "
        "table, and send the invite link to your friends; bots take the empty seats.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 for a network)",
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--database",
        metavar="URL",
        help="SQLAlchemy URL of the database (default: an SQLite file in your data "
        "folder; or postgresql+asyncpg://USER:PASSWORD@HOST/DB)",
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        help="Redis URL (redis://HOST:6379/0): run as one of several processes "
        "sharing the database's tables (docs/scaling.md)",
    )
    p.add_argument(
        "--bot-processes",
        type=int,
        default=default_bot_processes(),
        metavar="N",
        help="worker processes for the hard (searching) bots (default: the number of cores, "
        f"here {default_bot_processes()}; a hard move is about 20-50 ms of a core, and one "
        "worker makes the bots of many tables queue)",
    )
    p.add_argument(
        "--no-warm-bots",
        dest="warm_bots",
        action="store_false",
        help="do not load the hard bots' compiled kernels as the server starts (by default "
        "they load at once, so that no table's first hard move waits for them)",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before each bot move, so people can follow (default 0.6)",
    )
    p.add_argument(
        "--deal-pause",
        type=float,
        default=4.0,
        metavar="SECONDS",
        help="pause between deals, to read the result (default 4)",
    )
    p.add_argument(
        "--tables-per-address",
        type=int,
        default=20,
        metavar="N",
        help="new tables one client address may create every 10 minutes (default 20; 0: no limit)",
    )
    p.add_argument(
        "--lobby-minutes",
        type=float,
        default=30.0,
        metavar="M",
        help="a table in the lobby nobody has open this long is closed (default 30; 0: never)",
    )
    p.add_argument(
        "--pause-unwatched",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a table in play nobody watches this long pauses until someone opens it "
        "(default 60; 0: never)",
    )
    p.add_argument(
        "--announce",
        type=float,
        default=1.5,
        metavar="SECONDS",
        help="how long a bot's deal-ending move (a drop) is told before the hands show "
        "(default 1.5)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a page origin allowed besides the server's own (https://cards.example), for a "
        "proxy in front that changes the Host header or ends TLS; repeatable; also "
        "TAVERN_ALLOW_ORIGINS (separated by spaces or commas)",
    )
    p.add_argument(
        "--connections-per-address",
        type=int,
        default=64,
        metavar="N",
        help="open connections one client address may hold at once (default 64; 0: no bound; "
        "loopback addresses, a proxy on this machine, are not bounded); a connection must "
        "send its request within 10 s (docs/scaling.md)",
    )
    p.add_argument(
        "--group-commit-ms",
        type=float,
        default=GROUP_COMMIT_MS,
        metavar="MS",
        help=f"how long the moves' group commit waits for more moves after the first "
        f"(default {GROUP_COMMIT_MS:g}; 0: at once): a move's update waits for its commit, so "
        "this is added to a move's time; fewer transactions for the same moves (docs/scaling.md)",
    )
    p.add_argument(
        "--api-docs",
        action="store_true",
        help="serve FastAPI's /docs, /redoc and /openapi.json, for development (their pages "
        "load scripts from a CDN; the API is in docs/protocol.md)",
    )
    p.set_defaults(run=run)


# A group commit's wait for more moves (``Store.group_window``): 200 tables in-process
# (``scripts/bench_moves.py``) wrote 0.7 transactions a move instead of 1.6 (deals' headers
# included) for about 9 % less CPU a move, at up to 10 ms more to each move's update
# (docs/scaling.md, CPU a move, seventh pass); 20 ms, in the load test's alternated pairs,
# 5-12 % less again than 10 (a transaction's CPU is mostly its own, not its moves'), at up
# to 20 ms more to a move's update (eighth pass; the latency targets measured with it).
GROUP_COMMIT_MS = 20.0


def default_bot_processes() -> int:
    """One hard bots' worker for each core (issue 23: on 2 cores, 40 hard bots waited 1 s a
    move behind one worker and 0.2 s behind two; docs/scaling.md)."""
    return max(1, os.cpu_count() or 1)


def database_url(given: str | None) -> str:
    """The URL given, or the SQLite file in the user's data folder."""
    if given:
        return given
    from platformdirs import user_data_dir

    from .store import default_url

    return default_url(Path(user_data_dir("taverntable")))


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    try:
        import uvicorn

        from .app import create_app
        from .connections import uvicorn_config
        from .origins import BadOrigin
        from .tables import Pace
        from .usage import Limits
    except ImportError as e:
        print(
            f"tavern serve: the web extra is not installed ({e.name}); {install_hint('web')}",
            file=sys.stderr,
        )
        return 2
    if not 0 < args.port < 65536:
        print("tavern serve: --port must be 1..65535", file=sys.stderr)
        return 2
    if args.connections_per_address < 0:
        print(
            "tavern serve: --connections-per-address must be 0 (no bound) or more", file=sys.stderr
        )
        return 2
    if (
        args.bot_processes < 1
        or not 0 <= args.bot_delay <= 60
        or not 0 <= args.deal_pause <= 600
        or not 0 <= args.announce <= 60
    ):
        print(
            "tavern serve: --bot-processes must be at least 1, --bot-delay 0..60, "
            "--deal-pause 0..600 and --announce 0..60",
            file=sys.stderr,
        )
        return 2
    if not 0 <= args.group_commit_ms <= 1000:
        print("tavern serve: --group-commit-ms must be 0..1000", file=sys.stderr)
        return 2
    if args.tables_per_address < 0 or args.lobby_minutes < 0 or args.pause_unwatched < 0:
        print(
            "tavern serve: --tables-per-address, --lobby-minutes and --pause-unwatched must "
            "not be negative",
            file=sys.stderr,
        )
        return 2
    limits = Limits(
        tables_per_window=args.tables_per_address,
        lobby_seconds=args.lobby_minutes * 60,
        unwatched_seconds=args.pause_unwatched,
    )
    url = database_url(args.database)
    try:
        app = create_app(
            url,
            Pace(args.bot_delay, args.deal_pause, args.announce),
            args.bot_processes,
            args.redis,
            allow_origins=args.allow_origin,
            api_docs=args.api_docs,
            limits=limits,
            warm_bots=args.warm_bots,
            group_window=args.group_commit_ms / 1000,
        )
    except BadOrigin as e:
        print(f"tavern serve: {e}", file=sys.stderr)
        return 2
    print(f"Tavern Table: http://{args.host}:{args.port}/ (database {url})", flush=True)
    config = uvicorn_config(app, args.host, args.port, per_address=args.connections_per_address)
    uvicorn.Server(config).run()
    return 0
