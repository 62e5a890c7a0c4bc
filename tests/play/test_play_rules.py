"""Item 13: ``rules T9`` at the table prints the rule a message cites, from texts shipped in the
games' packages (``games/GAME/texts``)."""

from __future__ import annotations

import re
import tomllib

import pytest

from taverntable.games import all_games
from taverntable.games.texts import LANGUAGES
from taverntable.play import rules_text

from paths import ROOT
from play_helpers import run_play

SEED1 = ["tonk", "--seed", "1"]
TOWERS = ["three-towers", "--seed", "1", "--players", "2", "--bots", "random"]


def test_rules_T9_prints_the_rule(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["rules T9"])
    assert "## T9 Discard\n- **`tonk`**: a player with cards left must discard one" in out
    assert "## T10" not in out


def test_rules_lists_the_games_rules_and_refuses_an_unknown_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, TOWERS, ["rules", "rules X9"])
    out = out.replace(" ·\n  ", " · ")  # the list goes on over several lines
    assert "Rules of three-towers: A1 Declare a trade · A2 Start building a tower" in out
    assert "R14 Game end · R15 Team play" in out and "R29 Tower goal" in out
    assert "There is no rule X9" in out


def test_rules_prints_three_towers_readings_and_part_a_actions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, TOWERS, ["rules r14", "rules A4", "rules R29"])
    assert "**R14 Game end.** After the round in which a player (or a pair) reaches 3" in out
    assert "4. **Order a redeal.**" in out and "The nobility or joker spent on a redeal" in out
    assert "At the end of every turn" not in out  # A4 ends where Part A's prose resumes
    assert "**R29 Tower goal** (option `tower_goal`" in out


def test_the_first_refusal_says_how_to_read_the_rule_it_cites(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["draw pile", "end", "end"])
    assert (
        "Not allowed: you must discard a card to end your turn (T9) ('rules T9' shows the rule)"
    ) in out
    assert out.count("shows the rule") == 1


def test_every_rule_a_message_cites_has_its_text() -> None:
    cited = set()
    for folder in ("games", "play", "records", "bots"):
        for path in (ROOT / "src" / "taverntable" / folder).rglob("*.py"):
            cited |= set(re.findall(r"\(([TRA]\d+)[,) ]", path.read_text(encoding="utf-8")))
    assert len(cited) > 30
    missing = sorted(code for code in cited if rules_text.rule_text(code) is None)
    assert missing == []


def test_the_rule_texts_ship_as_package_data() -> None:
    """Each game's texts, in every language, are package data of the game's own package."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = config["tool"]["setuptools"]["package-data"]
    for game in all_games():
        package = type(game).__module__.rpartition(".")[0]
        assert "texts/*/*.md" in data[package]
        for lang in LANGUAGES:
            for name in game.rules_files:
                assert game.texts.joinpath(lang, name).is_file(), (game.name, lang, name)


@pytest.mark.parametrize("args", [TOWERS, SEED1], ids=["three-towers", "tonk"])
def test_the_rules_list_wraps_between_rules_never_inside_one(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 26: at the terminal's width the list wrapped mid-word ("The stock runs o / ut").
    monkeypatch.setenv("COLUMNS", "60")
    _, out = run_play(monkeypatch, capsys, args, ["rules"])
    listed = out.split("Rules of ")[1].split("Type 'rules")[0].rstrip("\n").splitlines()
    titles = rules_text.rule_titles(args[0])
    assert len(listed) > 1
    for line in listed:
        assert len(line) <= 60 or line.strip(" ·") in titles, line
    for title in titles:
        assert any(title in line for line in listed), title


@pytest.mark.parametrize("args", [TOWERS, SEED1], ids=["three-towers", "tonk"])
def test_the_rules_hint_names_a_rule_of_the_game_at_the_table(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 26: at a Three Towers table the hint said "Type 'rules T9'", a Tonk rule.
    _, out = run_play(monkeypatch, capsys, args, ["rules"])
    (named,) = re.findall(r"Type 'rules (\w+)' \(a rule's number\) to read one\.", out)
    assert named in {title.split()[0] for title in rules_text.rule_titles(args[0])}
    _, out = run_play(monkeypatch, capsys, args, [f"rules {named}"])
    assert "There is no rule" not in out


def test_rules_reads_the_rules_of_the_game_at_the_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, TOWERS, ["rules T9"])
    assert "## T9 Discard" not in out
    # The last reading is the newest proposed option's (R29 and on, texts/en/*-readings.md).
    cite = r"write its number as the messages cite it \(A1…A4, R1…R(29|[3-9]\d)\)"
    assert re.search(r"There is no rule T9: " + cite, out)
