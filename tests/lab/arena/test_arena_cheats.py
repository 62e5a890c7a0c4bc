"""Measurement bots that cheat (issue 16): arena entries only, clearly marked, never offered by
``tavern play`` or the server; ``cheat-drop`` drops exactly when the drop succeeds (T6)."""

from __future__ import annotations

import random

import pytest

from taverntable.bots import BotError, bot_names, make_bot
from taverntable.bots.tonk.cheats import CheatDropBot, CheatSeeAllBot
from taverntable.engine import TavernError
from taverntable.games import game_names
from taverntable.games.tonk import Drop
from taverntable.lab.arena.bots import build_bot
from taverntable.lab.arena.play import play_deals
from taverntable.lab.arena.table import arena_table
from taverntable.web.hub import games_info

from play_helpers import run_play
from tonk_helpers import stacked

CHEATS = ["cheat-drop", "cheat-see-all"]


@pytest.mark.parametrize("game", game_names())
def test_no_game_offers_a_cheat_in_the_bot_registry(game: str) -> None:
    for cheat in CHEATS:
        assert cheat not in bot_names(game)
        with pytest.raises(BotError):
            make_bot(cheat, game)


def test_the_server_lobby_offers_no_cheat() -> None:
    offered = {bot for game in games_info() for bot in game["bots"]}
    assert offered and not offered & set(CHEATS)


def test_tavern_play_refuses_a_cheat(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, ["tonk", "--bots", "cheat-drop"], ["quit"])
    assert status != 0
    assert "unknown bot 'cheat-drop'" in out


def test_the_arena_builds_it_and_names_it_cheating(capsys: pytest.CaptureFixture[str]) -> None:
    from taverntable.cli import main

    assert isinstance(build_bot("cheat-drop", "tor"), CheatDropBot)
    assert (
        main(
            [
                "arena",
                "--game",
                "tonk",
                "--players",
                "3",
                "--bots",
                "cheat-drop,heuristic,heuristic",
                "--deals",
                "3",
                "--seed",
                "9",
            ]
        )
        == 0
    )
    out = " ".join(capsys.readouterr().out.split())
    assert "CHEATING: cheat-drop reads hidden cards" in out


def test_a_cheat_without_the_arena_refuses_to_play() -> None:
    state = stacked("tonk", ["AC 4H 3D 9S KH", "KC 10C 3C 2S 9H", "QH 8C 6D 2C 7D"], upcard="5S")
    with pytest.raises(TavernError, match="plays only in the arena"):
        CheatDropBot().choose(state.view(0), random.Random(0))


@pytest.mark.parametrize(("game", "players"), [("tonk", 3), ("tor", 4)])
def test_cheat_drop_never_burns_and_drops_whenever_a_drop_would_succeed(
    game: str, players: int
) -> None:
    table = arena_table(game, players, 1, {})
    lineup = ["cheat-drop"] + ["heuristic"] * (players - 1)
    played = play_deals(table, lineup, 40, 5, make=lambda name: build_bot(name, game))
    drops = 0
    for g in played:
        seat = g.entrants.index(0)
        for mover, move in g.state.history:
            if mover == seat and isinstance(move, Drop):
                drops += 1
                assert g.state.result.end == "drop"  # T6: every drop it makes is clean
    assert drops >= 10


@pytest.mark.parametrize(("other", "drops"), [("KC 10C 3C 2S 9H", True), ("AS 2H 3S 4D 6C", False)])
def test_cheat_drop_drops_exactly_when_nobody_would_catch_it(other: str, drops: bool) -> None:
    # T6: seat 0 holds 16; a player with 16 or less (a tie burns) catches the drop.
    state = stacked("tonk", ["AC 2D 3D 4S 6H", other, "QH 8C 6D 2C 7D"], upcard="5S")
    bot = CheatDropBot()
    bot.peek(state)
    assert (bot.choose(state.view(0), random.Random(0)) == Drop()) is drops


def test_cheat_see_all_is_arena_only_and_refuses_to_play_without_the_arena() -> None:
    assert "cheat-see-all" not in bot_names("tonk")
    assert isinstance(build_bot("cheat-see-all", "tonk"), CheatSeeAllBot)
    state = stacked("tonk", ["AC 4H 3D 9S KH", "KC 10C 3C 2S 9H", "QH 8C 6D 2C 7D"], upcard="5S")
    with pytest.raises(TavernError, match="plays only in the arena"):
        CheatSeeAllBot().choose(state.view(0), random.Random(0))


def test_cheat_see_all_searches_worlds_that_are_the_real_hands_with_the_stock_shuffled() -> None:
    state = stacked("tonk", ["AC 4H 3D 9S KH", "KC 10C 3C 2S 9H", "QH 8C 6D 2C 7D"], upcard="5S")
    bot = CheatSeeAllBot()
    bot.peek(state)
    assert bot.game is not None
    view = state.view(0)
    stocks = set()
    for i in range(5):
        world = bot.game.sample(view, random.Random(i))
        assert world.hands == state.hands  # every hand in sight
        assert sorted(world.stock) == sorted(state.stock)
        stocks.add(tuple(world.stock))
    assert len(stocks) == 5  # the stock's order stays unknown
    assert (
        world is not state
        and state.stock
        == stacked(
            "tonk", ["AC 4H 3D 9S KH", "KC 10C 3C 2S 9H", "QH 8C 6D 2C 7D"], upcard="5S"
        ).stock
    )


@pytest.mark.parametrize(("game", "players"), [("tonk", 3), ("tor", 4)])
def test_cheat_see_all_plays_legal_games_and_never_burns_a_drop(game: str, players: int) -> None:
    table = arena_table(game, players, 1, {})
    lineup = ["cheat-see-all"] + ["heuristic"] * (players - 1)
    played = play_deals(table, lineup, 6, 11, make=lambda name: build_bot(name, game))
    assert len(played) == 6 * players  # every rotation finished (the engine checked each move)
    for g in played:
        seat = g.entrants.index(0)
        for mover, move in g.state.history:
            if mover == seat and isinstance(move, Drop):
                assert g.state.result.end == "drop"  # T6: it sees every hand, so never burns
