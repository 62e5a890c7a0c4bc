"""The server's bot pool warms a searching bot's kernels as soon as a table seats one
(``botpool.prepare``), so that the table's first hard move does not wait for them to load."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taverntable.fast import jit
from taverntable.games import game_names, get_game
from taverntable.web.app import create_app
from taverntable.web.botpool import WARM_MOVES, BotPool, warm
from taverntable.web.command import add_parser
from taverntable.worker_life import PURE_PYTHON_ENV


@pytest.mark.parametrize("game", ["tonk", "three-towers"])
def test_warm_plays_the_first_decisions_of_a_new_deal_with_hard_bots(game: str) -> None:
    # A Tonk deal may end sooner (a drop, T6); otherwise every one of the moves is played.
    assert 1 <= warm(game) <= WARM_MOVES


def test_a_table_without_a_searching_bot_warms_nothing() -> None:
    pool = BotPool(1)
    try:
        assert pool.prepare("tonk", ["medium", "easy", "heuristic", None]) is None
        assert pool.prepare("three-towers", []) is None
    finally:
        pool.close()


def test_the_first_table_with_a_hard_bot_warms_its_game_once_in_a_worker() -> None:
    pool = BotPool(1)
    try:
        done = pool.prepare("tonk", [None, "medium", "hard"])
        assert done is not None
        assert pool.prepare("tonk", ["hard"]) is None  # once per game and pool
        assert 1 <= done.result(timeout=300) <= WARM_MOVES
        other = pool.prepare("pagat", ["ismcts"])  # the bot's own name searches too
        assert other is not None and 1 <= other.result(timeout=300) <= WARM_MOVES
    finally:
        pool.close()


def test_the_server_starts_warming_every_games_hard_bot_as_it_starts(tmp_path: Path) -> None:
    """``tavern serve`` (``create_app(warm_bots=True)``) sends every game's warm-up to the
    pool as it starts, before any table asks (issue 23: a fresh install's first hard move
    does not wait for the kernels to compile); ``--no-warm-bots`` leaves it to the tables."""
    app = create_app(f"sqlite+aiosqlite:///{tmp_path}/w.sqlite3", warm_bots=True)
    with TestClient(app):
        pool = app.state.hub.bots
        # Every game's warm-up was sent: a table of hard bots asks for none more.
        assert all(pool.prepare(game, ["hard"]) is None for game in game_names())
        # And the worker plays it (a decision asked for meanwhile runs after it).
        assert set(pool.warming) == set(game_names())
        assert 1 <= pool.warming["tonk"].result(timeout=300) <= WARM_MOVES
    cold = create_app(f"sqlite+aiosqlite:///{tmp_path}/c.sqlite3")
    with TestClient(cold):
        sent = cold.state.hub.bots.prepare("tonk", ["hard"])
        assert sent is not None  # nothing was sent before this table's
        sent.cancel()
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    assert parser.parse_args(["serve"]).warm_bots is True
    assert parser.parse_args(["serve", "--no-warm-bots"]).warm_bots is False


def test_healthz_says_warming_until_every_games_kernels_are_warm(tmp_path: Path) -> None:
    """The readiness signal (issue 23): ``/healthz``'s ``bots.state`` is ``warming`` from the
    start until every game's warm-up is done, then ``ready`` with the time it took; a server
    that does not warm says ``cold``."""
    app = create_app(f"sqlite+aiosqlite:///{tmp_path}/w.sqlite3", warm_bots=True)
    with TestClient(app) as client:
        first = client.get("/healthz").json()["bots"]
        # A worker process is spawned and imports the bots before it plays: not done at once.
        assert first["state"] == "warming" and first["warm_seconds"] is None
        deadline = time.monotonic() + 600
        while (bots := client.get("/healthz").json()["bots"])["state"] == "warming":
            assert time.monotonic() < deadline, "the warm-up did not end"
            time.sleep(0.2)
        assert bots["state"] == "ready"
        assert all(f.done() for f in app.state.hub.bots.warming.values())
        assert bots["warm_seconds"] > 0 and bots["moves"] == 0
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path}/c.sqlite3")) as client:
        assert client.get("/healthz").json()["bots"]["state"] == "cold"


def test_warm_all_sends_one_game_at_a_time() -> None:
    """A decision asked during the warm-up waits for the game being warmed, not for every
    game's: the next game's warm-up is sent only once the one before is done."""
    pool = BotPool(1)
    try:
        sent = pool.warm_all(["tonk", "three-towers"])
        assert len(sent) == 2
        assert pool.state() == "warming"
        assert pool._pool is not None
        # One work item in the pool: Tonk's; Three Towers' waits for it.
        assert len(pool._pool._pending_work_items) == 1  # type: ignore[attr-defined]
        assert 1 <= sent[0].result(timeout=300) <= WARM_MOVES
        assert 1 <= sent[1].result(timeout=300) <= WARM_MOVES
        assert pool.state() == "ready"
    finally:
        pool.close()


def test_the_pool_times_every_hard_move() -> None:
    game = get_game("tonk")
    state = game.start(game.rules({}), 3, rng=random.Random(1))
    pool = BotPool(1)
    try:
        figures = pool.figures()
        assert figures["moves"] == 0 and figures["move_ms_first"] is None

        async def two_moves() -> list[object]:
            seat = state.current_seat
            return [await pool.choose("tonk", "hard", state.view(seat), s) for s in (1, 2)]

        moves = asyncio.run(two_moves())
        assert all(m in state.legal_moves() for m in moves)
        figures = pool.figures()
        assert figures["moves"] == 2
        # The whole wait includes the worker's own deciding, and the first move its start.
        assert 0 < figures["decide_ms_mean"] <= figures["move_ms_mean"]
        assert figures["move_ms_first"] >= figures["decide_ms_mean"]
        assert figures["move_ms_p99"] >= figures["move_ms_mean"]  # of two: the slower
    finally:
        pool.close()


def test_with_two_workers_each_loads_the_kernels_before_ready() -> None:
    """After the games' warm-ups (in whichever worker was free), every worker loads them
    too, one ``warm_worker`` each (a barrier keeps one worker from taking two), so that no
    worker's first hard move waits for its kernels; only then is the pool ``ready``."""
    pool = BotPool(2)
    try:
        pool.warm_all(["tonk"])
        deadline = time.monotonic() + 600
        while pool.state() == "warming":
            assert time.monotonic() < deadline, "the warm-up did not end"
            time.sleep(0.1)
        assert pool.state() == "ready"
        pids = {sent.result() for sent in pool._spread}
        assert len(pids) == 2  # both workers, one each
        assert pool.figures()["warm_seconds"] is not None
    finally:
        pool.close()


def test_tavern_serve_has_a_hard_bots_worker_for_each_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 6)
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    assert parser.parse_args(["serve"]).bot_processes == 6
    assert parser.parse_args(["serve", "--bot-processes", "1"]).bot_processes == 1


def test_while_warming_a_hard_move_is_decided_in_plain_python() -> None:
    """A fresh install's compilation takes minutes on a busy machine: while the pool warms,
    the hard moves go to a worker whose kernels are plain Python (``pure_python_worker``),
    a second or two a move instead of a wait for the compiler; once ready, to the pool."""
    game = get_game("tonk")
    state = game.start(game.rules({}), 3, rng=random.Random(2))
    pool = BotPool(1)
    try:
        pool.warm_all(["tonk", "three-towers"])
        interim = pool._interim
        assert interim is not None
        assert interim.submit(os.getenv, PURE_PYTHON_ENV).result(timeout=120) == "1"
        move = asyncio.run(pool.choose("tonk", "hard", state.view(state.current_seat), 3))
        assert move in state.legal_moves()
        assert pool.figures()["interim_moves"] == 1  # the warm-up was not done yet
        deadline = time.monotonic() + 600
        while pool.state() == "warming":
            assert time.monotonic() < deadline, "the warm-up did not end"
            time.sleep(0.1)
        while pool._interim is not None:  # gone once ready (the callback after the last)
            assert time.monotonic() < deadline, "the plain-Python worker stayed"
            time.sleep(0.05)
        asyncio.run(pool.choose("tonk", "hard", state.view(state.current_seat), 4))
        assert pool.figures()["moves"] == 2 and pool.figures()["interim_moves"] == 1
    finally:
        pool.close()


def test_with_two_workers_a_game_warm_already_plays_in_the_pool() -> None:
    """Once a game's warm-up is done, its hard moves go to the pool's other worker even while
    the warm-up goes on with the next game (that worker loads them from numba's cache)."""
    pool = BotPool(2)
    try:
        sent = pool.warm_all(["tonk", "three-towers"])
        assert pool._still_warming("tonk") and pool._still_warming("three-towers")
        sent[0].result(timeout=300)
        if not sent[1].done():  # still warming Three Towers: Tonk's moves use the pool
            assert not pool._still_warming("tonk")
    finally:
        pool.close()


def test_the_plain_python_workers_switch_is_the_kernels_own() -> None:
    assert PURE_PYTHON_ENV == jit.PURE_ENV
