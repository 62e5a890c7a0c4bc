"""The server's bot pool warms a searching bot's kernels as soon as a table seats one
(``botpool.prepare``), so that the table's first hard move does not wait for them to load."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taverntable.games import game_names
from taverntable.web.app import create_app
from taverntable.web.botpool import WARM_MOVES, BotPool, warm
from taverntable.web.command import add_parser


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
