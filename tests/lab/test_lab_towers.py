"""The Three Towers study: its rows add up, and its report section reads them back."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import Any

from taverntable.bots import make_bot
from taverntable.cli import main
from taverntable.engine import play_out
from taverntable.games.three_towers import TowersState, rules_from
from taverntable.games.three_towers.cards import parse_card, total
from taverntable.lab.core.execute import run_study
from taverntable.lab.core.store import StudyStore
from taverntable.lab.core.studies import get_study
from taverntable.lab.report.towers_play import points_by_action as points_by_action_table
from taverntable.lab.studies.towers_actions import ACTION_SOURCES, action_points, points_by_action
from taverntable.lab.studies.towers_play import SOURCES
from taverntable.records import replay_record

from paths import DATA
from three_towers_helpers import arrange


def test_points_by_source_add_up_to_the_scores(tmp_path: Path) -> None:
    config = get_study("towers-play").config(games=6, players=(2, 3))
    run_study(config, tmp_path / "t", workers=1, progress=False)
    rows = [row for _, row in StudyStore.read(tmp_path / "t")[2]]
    assert len(rows) == 6
    for row in rows:
        assert sum(row["sources"][s] for s in SOURCES) == sum(row["scores"])  # R13, R14
        assert len(row["round_ends"]) == row["rounds"] <= 10  # the lab's max_rounds
        towers = sum(b >= 0 for b, _ in row["round_ends"])
        assert towers == sum(row["towers"])
        assert (row["end"] == "towers") == (max(row["towers"]) >= 3)
        assert abs(sum(row["margins"])) < 1e-9


def test_towers_report_and_team_play(tmp_path: Path) -> None:
    base = ["lab", "run", "towers-play", "--quiet", "--workers", "1", "--lab", str(tmp_path)]
    assert main([*base, "--games", "4", "--players", "2"]) == 0
    assert (
        main(
            [
                *base,
                "--games",
                "2",
                "--players",
                "4",
                "--option",
                "teams=true",
                "--out",
                str(tmp_path / "teams"),
            ]
        )
        == 0
    )
    assert (
        main([*base, "--games", "2", "--option", "teams=true", "--out", str(tmp_path / "bad")]) == 2
    )  # R15: teams need exactly 4 players
    assert main(["lab", "report", "--lab", str(tmp_path), "towers-play", "teams"]) == 0
    page = (tmp_path / "report" / "index.html").read_text()
    assert "Three Towers" in page and "— teams" in page
    with (tmp_path / "report" / "towers-play" / "games.csv").open() as f:
        games = list(csv.DictReader(f))
    assert [g["players"] for g in games] == ["2"] and games[0]["games"] == "4"
    with (tmp_path / "report" / "towers-play" / "points-by-action.csv").open() as f:
        by_action = list(csv.DictReader(f))
    assert [r["action"] for r in by_action] == list(ACTION_SOURCES)


def _played_game(players: int, seed: int, bot: str, **options: Any) -> TowersState:
    rules = rules_from("three-towers", max_rounds=4, **options)
    rng = random.Random(seed)
    state = TowersState.start(rules, players, rng=rng, dealer=seed % players)
    play_out(state, [make_bot(bot, "three-towers") for _ in range(players)], rng)
    return state


def test_points_by_action_add_up_to_the_stores_per_round() -> None:
    kinds: set[str] = set()
    games: list[tuple[int, int, str, dict[str, Any]]] = [
        (2, 1, "heuristic", {}),
        (3, 2, "random", {}),
        (4, 3, "heuristic", {"nobility_points": 5}),
        (4, 4, "random", {"teams": True}),
    ]
    for players, seed, bot, options in games:
        state = _played_game(players, seed, bot, **options)
        result = state.result
        assert result is not None
        points = points_by_action(state)
        assert len(points.rounds) == len(result.rounds)
        for by_action, bonus, r in zip(points.rounds, points.bonus, result.rounds, strict=True):
            for s in range(players):
                got = sum(by_action[a][s] for a in ACTION_SOURCES)
                assert got - bonus[s] == total(r.stores[s])  # the store, R2
                assert got == r.points[s]  # with the ♥/♦ bonuses and R28 (R13)
                assert by_action["win_bonus"][s] == 0
                kinds.update(a for a in ACTION_SOURCES if by_action[a][s])
        for s in range(players):
            assert sum(points.game[a][s] for a in ACTION_SOURCES) == result.scores[s]
            for a in ("fail", "tower", "round_end", "win_bonus"):
                if a != "tower" or all(r.tower // 13 not in (0, 3) for r in result.rounds):
                    assert points.own[a][s] == points.game[a][s]  # ♣ takes, dark gives: R13
            won_150 = result.end == "towers" and result.rounds[-1].builder == s  # R14, R15
            assert points.game["win_bonus"][s] == (150 if won_150 else 0)
    assert {"trade", "tower", "round_end"} <= kinds


def test_points_by_action_in_the_rows_and_report(tmp_path: Path) -> None:
    config = get_study("towers-play").config(games=4, players=(2, 4))
    run_study(config, tmp_path / "t", workers=1, progress=False)
    rows = StudyStore.read(tmp_path / "t")[2]
    for _, row in rows:
        got = row["action_points"]
        assert set(got) == set(ACTION_SOURCES)
        assert [sum(got[a][s] for a in ACTION_SOURCES) for s in range(row["players"])] == row[
            "scores"
        ]
    table = points_by_action_table(rows)
    assert {(r[0], r[1]) for r in table.rows} == {(p, a) for p in (2, 4) for a in ACTION_SOURCES}


def test_points_by_action_from_events_are_those_of_the_replay_they_replace() -> None:
    """The points by action read from ``apply``'s events equal, round by round and seat by seat,
    what the earlier implementation (a replay whose state subclass noted the stores before a
    refill ended the round) gave for the same games: saved once in
    ``data/towers_action_points.json`` from 12 games that hold every kind of move, towers of all
    four suits (R13), R28's nobility points, team play (R15) and the 150 (R14)."""
    saved = json.loads((DATA / "towers_action_points.json").read_text())
    assert len(saved) == 12
    for item in saved:
        state = replay_record(item["record"]).state
        points = points_by_action(state)
        assert {
            "rounds": points.rounds,
            "bonus": points.bonus,
            "game": points.game,
            "own": points.own,
        } == item["points"]


def test_R8_R29_a_build_that_finishes_its_tower_credits_the_tower_cards_to_tower() -> None:
    # With tower_goal 10 (R29) a build of an ace and a 10 finishes the tower at once (R8) and
    # ends the round: the tower's cards and the ♦ 50 (R13) are "tower", the hand "round_end".
    # (The replay this replaces credited such a tower to "round_end".)
    state = arrange(
        ["AD 10D KS 2C 3C 4C 5C", "2H 3H 4H 5H 6H 7H 8H"],
        rules=rules_from(tower_goal=10),
        deck_size=40,
    )
    move = state.parse_move("build AD 10D")
    events = state.apply(move)
    assert state.rounds and state.rounds[-1].builder == 0
    points = action_points(2, [(0, move, events)])
    tower = [parse_card("AD"), parse_card("10D")]
    hand = [parse_card(c) for c in ("KS", "2C", "3C", "4C", "5C")]
    assert points.rounds[0]["tower"][0] == total(tower) + 50
    assert points.rounds[0]["round_end"][0] == total(hand)
    assert points.rounds[0]["tower"][1] == 0
