"""The bots' names (issue 26, item 7): each game's characters from its seeds, one list for the
terminal and the server (``taverntable.characters``)."""

from __future__ import annotations

import pytest

from taverntable.characters import all_characters, bot_seat_names, characters
from taverntable.games import all_games

from play_helpers import run_play


def test_each_game_names_its_bots_after_its_seeds() -> None:
    assert characters("tonk")[:3] == ("Goblin", "Elmo", "One-Eye")  # the Russian seed's Tonk
    assert characters("tor")[:3] == ("Airun", "Alyr", "Abdzsan")  # the Hungarian seed's Tőr
    assert characters("three-towers")[0] == "Zarr"  # Eador's, the Ukrainian seed's
    for game in all_games():
        # Every seat but the user's can have a name of its own.
        names = bot_seat_names(game.name, game.max_players - 1)
        assert len(set(names)) == len(names), game.name
    assert all(
        n.replace("-", "").isascii() and n.replace("-", "").isalpha() for n in all_characters()
    )


def test_a_name_a_person_has_is_left_to_them_and_names_past_the_list_are_numbered() -> None:
    assert bot_seat_names("tonk", 2, taken=["goblin"]) == ["Elmo", "One-Eye"]
    many = bot_seat_names("three-towers", 6)
    assert many[:4] == list(characters("three-towers")) and many[4:] == ["Zarr 2", "Goblin 2"]


def test_the_terminal_takes_the_same_names(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(
        monkeypatch, capsys, ["three-towers", "--players", "3", "--name", "Zarr"], ["quit"]
    )
    assert status == 0
    # The user is Zarr, so the bots are the next of the game's characters.
    assert "Seats: 0 Zarr · 1 Goblin (medium bot) · 2 Elmo (medium bot)" in out
