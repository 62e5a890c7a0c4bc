"""The proposed rule options (``games/three_towers/texts/en/three-towers-readings.md``, "Proposed
rule options"): R28
``nobility_points`` and R29 ``tower_goal``; their defaults keep today's rules, and records carry
them."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from taverntable.bots import make_bot
from taverntable.engine import RecordError, play_out
from taverntable.games.three_towers import RulesError, TowersRules, TowersState, rules_from
from taverntable.games.three_towers.phases import CLUB, DEAL
from taverntable.games.three_towers.record import ADAPTER
from taverntable.play.three_towers.narrate import narrate
from taverntable.records.core import replay_record

from three_towers_helpers import arrange, cards, deck_from_top, play, store_total

H1, H2 = "2S 3S 4S 5S 6S 7S 8S", "2H 3H 4H 5H 6H 7H 8H"


def test_R28_R29_defaults_are_todays_rules() -> None:
    rules = TowersRules()
    assert rules.nobility_points == 0 and rules.tower_goal == 30
    assert rules.differences() == {}  # a record of today's rules names no new option


@pytest.mark.parametrize(
    "option, value",
    [
        ("nobility_points", -1),
        ("nobility_points", True),
        ("nobility_points", 51),
        ("nobility_points", 2.5),
        ("tower_goal", 9),
        ("tower_goal", 101),
        ("tower_goal", "40"),
    ],
)
def test_R28_R29_refuse_values_out_of_range(option: str, value: object) -> None:
    with pytest.raises(RulesError, match=option):
        TowersRules().with_options(**{option: value})


def test_R28_each_warrior_in_a_nobility_scores_at_the_count() -> None:
    rules = rules_from(nobility_points=5)
    state = arrange(
        ["10C 2C 3C 4C 5C 6C 7C", H1, H2],
        rules=rules,
        towers=["AD 10H 10D"],
        nobility=["JH QD", "KC KH KD", ""],
        deck_size=20,
    )
    play(state, "add 10C")
    assert state.phase == DEAL
    r = state.rounds[-1]
    assert r.points[0] == store_total(state, 0) + 2 * 5 + 50  # ♦ adds 50 after the nobility
    assert r.points[1] == store_total(state, 1) + 3 * 5
    assert r.points[2] == store_total(state, 2)
    # R19: the nobility is then collected into the store, so the next round has all 108 cards.
    assert state.nobility == [[], [], []]
    assert Counter(cards("KC KH KD")) <= Counter(state.stores[1])


def test_R28_the_nobility_is_doubled_by_a_hearts_tower_like_the_store() -> None:
    rules = rules_from(nobility_points=3)
    state = arrange(
        ["10C 2C 3C 4C 5C 6C 7C", H1, H2],
        rules=rules,
        towers=["AH 10H 10D"],
        nobility=["JH JD"],
        deck_size=20,
    )
    play(state, "add 10C")
    assert state.rounds[-1].points[0] == 2 * (store_total(state, 0) + 2 * 3)


def test_R28_the_clubs_builder_cannot_take_a_scoring_nobility() -> None:
    rules = rules_from(nobility_points=5)
    state = arrange(
        ["10C 2C 3C 4C 5C 6C 7C", "KS 10H 10D", "X"],
        rules=rules,
        towers=["AC 10H 10D"],
        nobility=["", "KH", ""],
        stores=["", "2D 3D", "9H"],
        deck_size=20,
    )
    play(state, "add 10C")
    assert state.phase == CLUB
    legal = {str(m) for m in state.legal_moves()}
    assert "take 1 KH" not in legal and "take 1 2D" in legal  # the nobility stays on the table
    play(state, "done")
    assert state.rounds[-1].points[1] == store_total(state, 1) + 5


def test_R28_default_warriors_score_nothing() -> None:
    state = arrange(
        ["10C 2C 3C 4C 5C 6C 7C", H1, H2],
        towers=["AD 10H 10D"],
        nobility=["JH QD KC"],
        deck_size=20,
    )
    play(state, "add 10C")
    assert state.rounds[-1].points[0] == store_total(state, 0) + 50


def test_R29_a_tower_needs_the_goal_in_goods() -> None:
    rules = rules_from(tower_goal=40)
    state = arrange(["10C 2C 3C 4C 5C 6C 7C", H1], rules=rules, towers=["AD 10H 10D"], deck_size=40)
    play(state, "add 10C")  # 30: finished under today's rules (R8), not with a goal of 40
    assert state.finished == -1 and state.current_seat == 1
    state = arrange(
        ["10C 2C 3C 4C 5C 6C 7C", H1], rules=rules, towers=["AD 10H 10D 10C"], deck_size=40
    )
    play(state, "add 10C")  # 40
    assert state.phase == DEAL and state.rounds[-1].builder == 0
    assert state.rounds[-1].points[0] == store_total(state, 0) + 50


def test_R8_R29_a_build_that_reaches_the_goal_finishes_the_tower() -> None:
    # The record: with a goal of 10, the ace and a 10 of goods are a finished tower, so
    # the round ends at once (R8) and is counted: A 15 + 10 + 50 for ♦ (R13), B its 25.
    record = {
        "game": "three-towers",
        "players": ["A", "B"],
        "dealer": 1,
        "rules": {"tower_goal": 10, "max_rounds": 1},
        "cards": {"deck": deck_from_top("AD 2S 10D 2D 2H 3D 3H 4D 4H 5D 5H 6D 6H 7D")},
        "moves": [[0, "build AD 10D"]],
    }
    state = replay_record(record).state
    assert state.is_over and state.result is not None
    assert state.result.to_json()["scores"] == [95, 25]
    assert state.rounds[-1].builder == 0 and state.marks == [1, 0]


def test_R8_R29_every_way_onto_a_tower_is_checked_against_the_goal() -> None:
    # A build with goods, a build without, an add of goods and an add of an ace (goods only
    # count, R8): each finishes the tower exactly when the goods reach the goal.
    hand = "AD 10D 9C 2C 3C 4C AH"
    cases = [
        ("build AD 10D", 10, [], True),
        ("build AD 10D", 11, [], False),
        ("build AD", 10, [], False),
        ("add 10D", 20, ["AH 10H"], True),
        ("add 9C", 20, ["AH 10H"], False),
        ("add AD", 20, ["AH 10H"], False),
    ]
    for move, goal, tower, finished in cases:
        rules = rules_from(tower_goal=goal)
        state = arrange([hand, H1], rules=rules, towers=tower, deck_size=40)
        play(state, move)
        assert (state.phase == DEAL) is finished, (move, goal)
        assert state.rounds[-1].builder == 0 if finished else state.current_seat == 1, move


def test_R8_R29_the_heuristic_and_the_narration_know_a_build_can_finish_a_tower() -> None:
    rules = rules_from(tower_goal=10)
    state = arrange(["AD 10D KS 2C 3C 4C 5C", H1], rules=rules, deck_size=40)
    before = state.view(0)
    move = make_bot("heuristic", "three-towers").choose(before, random.Random(0))
    assert str(move) == "build AD 10D"  # finishing beats even the Warlock (FINISH)
    events = state.apply(move)
    text = narrate(events, before, ["Ann", "Bob"])[0]
    assert "the tower is finished and the round ends (R8)" in text


def test_R28_R29_records_carry_the_options_and_replay() -> None:
    rules = rules_from(nobility_points=5, tower_goal=40, max_rounds=2)
    rng = random.Random(7)
    state = TowersState.start(rules, 2, rng=rng, dealer=0)
    bot = make_bot("heuristic", "three-towers")
    play_out(state, [bot, bot], rng)
    record = json.loads(json.dumps(ADAPTER.dump(state, ["Ann", "Bob"])))
    assert record["rules"] == {
        "preset": "three-towers",
        "max_rounds": 2,
        "nobility_points": 5,
        "tower_goal": 40,
    }
    assert state.result is not None
    assert replay_record(record).result == state.result.to_json()
    # The same moves under today's rules are another game: the options are not decoration.
    record["rules"] = {"preset": "three-towers", "max_rounds": 2}
    with pytest.raises(RecordError):
        replay_record(record)
