"""The server's bot pool warms a searching bot's kernels as soon as a table seats one
(``botpool.prepare``), so that the table's first hard move does not wait for them to load."""

from __future__ import annotations

import pytest

from taverntable.web.botpool import WARM_MOVES, BotPool, warm


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
