"""The bot registry: names, levels and errors."""

from __future__ import annotations

import pytest

from taverntable.bots import LEVELS, BotError, bot_names, make_bot
from taverntable.bots.random_bot import RandomBot
from taverntable.bots.registry import level_bot
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.bots.tonk.reader import TonkReaderBot


@pytest.mark.parametrize("game", ["tonk", "tor", "pagat"])
def test_tonk_family_games_have_random_and_heuristic(game: str) -> None:
    assert isinstance(make_bot("random", game), RandomBot)
    assert isinstance(make_bot("heuristic", game), TonkHeuristicBot)


def test_levels_name_bots() -> None:
    assert LEVELS["easy"] == "random" and LEVELS["medium"] == "heuristic"
    assert isinstance(make_bot("easy"), RandomBot)
    assert isinstance(make_bot("Medium"), TonkHeuristicBot)


@pytest.mark.parametrize("game", ["tonk", "tor", "pagat"])
def test_tonks_medium_level_is_the_reader_and_heuristic_stays_the_yardstick(game: str) -> None:
    assert type(make_bot("medium", game)) is TonkReaderBot
    assert type(make_bot("heuristic", game)) is TonkHeuristicBot
    assert level_bot("medium", game) == "reader"
    assert {"reader", "heuristic", "medium"} <= set(bot_names(game))


def test_three_towers_medium_level_is_still_its_heuristic() -> None:
    assert level_bot("medium", "three-towers") == "heuristic"
    assert "reader" not in bot_names("three-towers")


def test_each_call_builds_a_new_bot() -> None:
    assert make_bot("heuristic") is not make_bot("heuristic")


def test_bot_names_lists_bots_and_levels() -> None:
    assert {"random", "heuristic", "easy", "medium"} <= set(bot_names("tonk"))


def test_unknown_bot_names_the_known_ones() -> None:
    with pytest.raises(BotError, match=r"unknown bot 'genius' for tor \(known: random, heuristic"):
        make_bot("genius", "tor")


def test_unknown_game_is_an_error() -> None:
    with pytest.raises(BotError, match="no bots for game 'chess'"):
        make_bot("random", "chess")
