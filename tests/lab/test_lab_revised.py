"""Study ``towers-revised`` (issue 28 item 5): the search reads its space from the rules' option
table, is seeded and resumes to the same trials; the preset is a game of the lobby; bad options
are one line and exit 2 at ``tavern lab run``; every rule option joins the designer's study."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taverntable.cli import main
from taverntable.games import get_game
from taverntable.games.three_towers.rules import TowersRules
from taverntable.lab.core.studies import get_study
from taverntable.lab.studies import towers_revised as revised
from taverntable.lab.studies.towers_designer import VARIANTS as DESIGNER
from taverntable.options import option_values
from taverntable.web.hub import games_info


def test_the_search_space_is_the_option_table_less_what_two_players_cannot_play() -> None:
    space = {d.name: d for d in revised.option_space()}
    table = option_values(TowersRules)
    # Every option of the table is searched unless it has no second value at two players:
    # R15's teams needs four.
    assert set(space) == set(table) - {"teams"}
    goal = space["tower_goal"]
    # R29's range is the rules class's own validation (10..100), by 5 from today's 30.
    assert (goal.low, goal.high, goal.step, goal.default) == (10, 100, 5, 30)
    assert space["max_rounds"].none and space["defence"].values == ("rank", "any")


def test_the_targets_score_zero_only_when_all_are_met() -> None:
    met = {"style_win": 0.55, "one_round": 0.18, "first_edge": -2.0, "rounds": 6.0}
    assert revised.shortfall(met) == 0
    assert revised.shortfall({**met, "rounds": 4.0}) == pytest.approx(1.0)
    assert revised.shortfall({**met, "style_win": 0.80}) == pytest.approx(2.0)
    assert revised.shortfall({**met, "first_edge": 6.0}) == pytest.approx(1.0)
    assert revised.score({"tower_goal": 40}, met) == pytest.approx(revised.CHANGE_COST)


@pytest.mark.slow
def test_a_stopped_search_resumes_to_the_trials_of_an_uninterrupted_one(tmp_path: Path) -> None:
    config = get_study("towers-revised").config("small")
    size = {"games": 12, "style_games": 2}
    whole = revised.search(config, tmp_path / "a", trials=5, **size)
    (tmp_path / "b").mkdir()
    revised.search(config, tmp_path / "b", trials=3, **size)
    again = revised.search(config, tmp_path / "b", trials=5, **size)
    keys = ("params", "options", "score")
    assert [[t[k] for k in keys] for t in whole["trials"]] == [
        [t[k] for k in keys] for t in again["trials"]
    ]
    assert len(whole["trials"]) == 5 and whole["best"] is not None
    saved = json.loads((tmp_path / "a" / revised.RESULT_FILE).read_text())
    assert saved["best"]["number"] == whole["best"]["number"]


def test_the_revised_preset_is_a_game_of_the_lobby_with_its_options() -> None:
    offer = {g["name"]: g for g in games_info()}["three-towers-revised"]
    assert offer["family"] == "three-towers" and offer["rules"] == "three-towers"
    rules = get_game("three-towers-revised").rules()
    # Its records name today's preset and write the changed options out (one meaning).
    assert rules.preset == "three-towers" and rules.differences() == revised.revised_options()
    assert revised.revised_options() and all(
        offer["options"][k] == v for k, v in revised.revised_options().items()
    )
    assert revised.VARIANTS["2p-revised"].options == revised.revised_options()


@pytest.mark.parametrize(
    ("option", "words"),
    [
        ("tower_goal=5", "tower_goal"),
        ("nobility_points=-1", "nobility_points"),
        ("defence=sometimes", "defence"),
        ("teams=true", "R15"),  # contradicts the study's two players
    ],
)
def test_a_bad_rule_option_is_one_line_and_exit_2_at_lab_run(
    option: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["lab", "run", "designer", "--quiet", "--lab", str(tmp_path), "--variant", "2p"]
    assert main([*args, "--option", option]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err and err.startswith("tavern lab run:")
    assert not (tmp_path / "designer" / "rows.jsonl").exists()


def test_every_option_value_joins_the_designer_study_with_the_hard_styles() -> None:
    today = TowersRules()
    for name, values in option_values(TowersRules).items():
        for value in values:
            if value == getattr(today, name) or name == "teams":
                continue
            code = f"2p-{name}-{str(value).lower()}"
            assert DESIGNER[code].options == {name: value}
            for a, b in (("builder", "raider"), ("builder", "mixed"), ("raider", "mixed")):
                hard = DESIGNER[f"{code}-hard-{a}-vs-hard-{b}"]
                assert hard.bots == (f"ismcts:style={a}", f"ismcts:style={b}")
    assert DESIGNER["4p-teams-true"].players == 4 and "2p-teams-true" not in DESIGNER
