"""Rule options at the command line (issue 28, bad input): ``tavern play --option`` and
``tavern lab run --option`` take the rules' options; one out of range is refused in one line
naming its rule, with exit status 2; the server's table creation refuses it the same way
(``tests/web/test_web_protocol.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from taverntable.cli import main

from play_helpers import run_play

BAD = [
    ("joker_points=60", "rule option joker_points (R30) must be a whole number from 0 to 50"),
    ("hand_size=4", "rule option hand_size (R31) must be a whole number from 5 to 12"),
    ("spade_jack_defends=maybe", "rule option spade_jack_defends (R32) must be true or false"),
    ("tower_goal=5", "rule option tower_goal (R29) must be a whole number from 10 to 100"),
    ("decks=4", "rule option decks (R35) must be 2 or 3"),
    (
        "round_cap=5",
        "rule option round_cap (R36) must be 0 (no cap) or a whole number from 10 to 500",
    ),
    (
        "lead_cap=501",
        "rule option lead_cap (R37) must be 0 (no cap) or a whole number from 10 to 500",
    ),
    # Two options that contradict each other (R34 needs R32): one line naming both rules.
    (
        "spade_jack_raids=true",
        "rule options spade_jack_raids (R34) and spade_jack_defends (R32) contradict each other",
    ),
]


@pytest.mark.parametrize("option, says", BAD)
def test_play_refuses_an_option_out_of_range_in_one_line_naming_the_rule(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], option: str, says: str
) -> None:
    status, out = run_play(monkeypatch, capsys, ["three-towers", "--option", option], ["quit"])
    assert status == 2
    assert out.strip().startswith(says) and len(out.strip().splitlines()) == 1


def test_play_refuses_an_option_the_game_does_not_have(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, ["three-towers", "--option", "royal_tax=3"], [])
    assert status == 2 and "unknown rule option 'royal_tax'" in out


def test_play_plays_with_the_options_given(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["three-towers", "--players", "2", "--seed", "3", "--option", "hand_size=9"]
    status, out = run_play(monkeypatch, capsys, [*args, "--option", "joker_points=10"], ["quit"])
    assert status == 0
    assert "deck 90 cards" in out  # 108 - 2 x 9 (R31)


def test_play_plays_two_options_that_need_each_other_and_a_third_deck(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["three-towers", "--players", "2", "--seed", "3", "--option", "decks=3"]
    more = ["--option", "spade_jack_raids=true", "--option", "spade_jack_defends=true"]
    status, out = run_play(monkeypatch, capsys, [*args, *more], ["quit"])
    assert status == 0
    assert "deck 148 cards" in out  # 162 - 2 x 7 (R35)


@pytest.mark.parametrize("option, says", BAD)
def test_lab_run_refuses_an_option_out_of_range_in_one_line_naming_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, says: str
) -> None:
    args = ["lab", "run", "towers-options", "--quiet", "--workers", "1", "--games", "2"]
    assert main([*args, "--lab", str(tmp_path), "--option", option]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"tavern lab run: {err.partition(': ')[2]}" and says in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("game", ["three-towers", "three-towers-revised"])
def test_R37_beside_R36_is_refused_in_one_line_naming_both(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """R37's cap on a round's lead and R36's on its points contradict; the revised preset has
    R36's cap, so R37 alone on it is refused too (until R36 is set to 0)."""
    both = ["--option", "lead_cap=60"] + (
        ["--option", "round_cap=50"] if game == "three-towers" else []
    )
    status, out = run_play(monkeypatch, capsys, [game, *both], ["quit"])
    assert status == 2 and len(out.strip().splitlines()) == 1
    assert out.strip().startswith("rule options lead_cap (R37) and round_cap (R36) contradict")
