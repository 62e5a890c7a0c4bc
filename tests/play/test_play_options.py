"""``tavern play`` options: players, bots, stake; wrong values are refused clearly."""

from __future__ import annotations

import re

import pytest

from taverntable import cli
from taverntable.games import all_games

from play_helpers import run_play


def test_bots_option_takes_one_name_per_other_seat(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tonk", "--seed", "1", "--players", "4", "--bots", "random,easy,medium"]
    status, out = run_play(monkeypatch, capsys, args, ["quit"])
    assert status == 0
    assert "Seats: You · Goblin (easy bot) · Elmo (easy bot) · One-Eye (medium bot)" in out
    last = out.rstrip().splitlines()[-1]
    assert re.fullmatch(r"Final standings after \d deals?: (\d\. \S+ [+-]\d+( · )?){4}", last)


def test_bots_option_with_the_wrong_count_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, ["tonk", "--bots", "random,random,random"], [])
    assert status == 2
    assert "--bots names 3 bots for 2 other seats" in out


def test_unknown_bot_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, ["tonk", "--bots", "genius"], [])
    assert status == 2
    assert "unknown bot 'genius' for tonk" in out


@pytest.mark.parametrize("players", ["1", "11", "x"])
def test_T2_players_must_be_2_to_10(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["play", "tonk", "--players", players])
    assert e.value.code == 2
    assert "--players" in capsys.readouterr().err


def test_T2_stake_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "tonk", "--stake", "0"])
    assert "must be at least 1" in capsys.readouterr().err


def test_ten_players_fit_at_the_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(
        monkeypatch, capsys, ["tor", "--seed", "2", "--players", "10", "--bots", "random"], ["quit"]
    )
    assert status == 0
    last = out.rstrip().splitlines()[-1]
    # Nine bots: the Hungarian seed's four players, then the Black Company (characters.py).
    assert last.count(" · ") == 9 and "Airun" in last and "Croaker" in last


def test_every_game_has_a_front_end() -> None:
    from taverntable.play.front_end import FrontEnd, front_end_of

    for game in all_games():
        assert isinstance(front_end_of(game), FrontEnd)
