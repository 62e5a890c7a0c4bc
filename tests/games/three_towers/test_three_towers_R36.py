"""R36 (a cap on a round's points, ``round_cap``; ``texts/en/three-towers-readings.md``): the
default is today's rules, a value out of range is refused in one line naming R36, each seat's
points at a round's count (the tower bonus included) are held within ±cap, the third tower's 150
only up to the cap, and records carry the option and replay only under it (the fast path's
differential proof is in ``fast/test_fast_towers.py``)."""

from __future__ import annotations

import json

import pytest

from taverntable.engine import RecordError
from taverntable.games.three_towers import RulesError, TowersRules, TowersState, rules_from
from taverntable.games.three_towers.phases import DEAL, OVER
from taverntable.games.three_towers.record import ADAPTER
from taverntable.games.three_towers.scoring import WIN_BONUS, clamp
from taverntable.records.core import replay_record

from three_towers_helpers import (
    arrange,
    assert_a_replayer_without_the_option_refuses,
    assert_in_every_readings,
    heuristic_game,
    play,
    store_total,
)

H1, H2 = "2S 3S 4S 5S 6S 7S 8S", "2H 3H 4H 5H 6H 7H 8H"


def test_R36_default_is_todays_rules() -> None:
    rules = TowersRules()
    assert rules.round_cap == 0 and rules.differences() == {}
    assert rules_from(round_cap=0) == rules


@pytest.mark.parametrize("value", [-1, 5, 9, 501, True, 60.0, "60", None])
def test_R36_out_of_range_is_refused_in_one_line_naming_the_rule(value: object) -> None:
    with pytest.raises(RulesError, match=r"^rule option round_cap \(R36\) must be ") as e:
        rules_from(round_cap=value)
    assert len(str(e.value).splitlines()) == 1


@pytest.mark.parametrize("value", [10, 60, 500])
def test_R36_the_range_is_accepted(value: int) -> None:
    assert rules_from(round_cap=value).round_cap == value


def test_R36_clamp() -> None:
    assert [clamp(p, 60) for p in (-200, -60, -59, 0, 59, 60, 61, 300)] == [
        -60,
        -60,
        -59,
        0,
        59,
        60,
        60,
        60,
    ]


def _diamond_round(cap: int) -> TowersState:
    # Seat 0 finishes a ♦ tower (+50) with 10H 10D in its tower; seat 1 holds ♠ figures and
    # has them in its store too; seat 2's store takes the cards the short deck leaves out.
    state = arrange(
        ["10C X 3C 4C 5C 6C 7C", "KS QS JS AS 2S 3S 4S", H2],
        rules=rules_from(round_cap=cap) if cap else TowersRules(),
        towers=["AD 10H 10D"],
        stores=["10H 10D 10C", "KS QS"],
        deck_size=20,
    )
    play(state, "add 10C")
    assert state.phase == DEAL
    return state


def test_R36_each_seats_points_are_held_within_the_cap_tower_bonus_included() -> None:
    today = _diamond_round(0).rounds[-1].points
    assert today[0] > 60 and today[1] < -60  # the cap below changes both seats
    capped = _diamond_round(60)
    points = capped.rounds[-1].points
    assert points[:2] == (60, -60) and all(-60 <= p <= 60 for p in points)
    assert capped.scores == list(points)
    # A cap above both seats' points changes nothing.
    wide = max(abs(p) for p in today)
    assert _diamond_round(wide).rounds[-1].points == today
    assert _diamond_round(wide).scores == list(today)
    # The ♦ 50 is inside the cap: the store alone is capped with it.
    assert today[0] == store_total(_diamond_round(0), 0) + 50


def _third_tower(cap: int) -> TowersState:
    state = arrange(
        ["10C X 3C 4C 5C 6C 7C", H1],
        rules=rules_from(round_cap=cap) if cap else TowersRules(),
        towers=["AD 10H 10D"],
        deck_size=20,
    )
    state.marks[0] = 2
    play(state, "add 10C")
    assert state.phase == OVER and state.result is not None
    return state


@pytest.mark.parametrize("cap", [0, 40, 200, 500])
def test_R36_the_third_towers_150_is_paid_only_up_to_the_cap(cap: int) -> None:
    state = _third_tower(cap)
    points = state.rounds[-1].points[0]
    won = state.scores[0] - points
    if cap == 0:
        assert won == WIN_BONUS
    else:
        assert -cap <= points <= cap
        assert won == clamp(points + WIN_BONUS, cap) - points
        assert points + won <= cap
    assert state.result is not None and state.result.end == "towers"


def test_R36_records_carry_the_option_and_replay_only_under_it() -> None:
    rules = rules_from(max_rounds=2, round_cap=40)
    changed = 0
    for seed in range(6):
        state = heuristic_game(rules, seed)
        record = json.loads(
            json.dumps(ADAPTER.dump(state, [f"P{s}" for s in range(state.num_players)]))
        )
        assert record["rules"] == {"preset": "three-towers", "max_rounds": 2, "round_cap": 40}
        assert state.result is not None
        assert all(-40 <= p <= 40 for r in state.result.rounds for p in r.points)
        assert replay_record(record).result == state.result.to_json()
        record["rules"] = {"preset": "three-towers", "max_rounds": 2}
        try:
            changed += replay_record(record).result != state.result.to_json()
        except RecordError:
            changed += 1
    assert changed > 0


def test_R36_a_replayer_that_does_not_know_it_refuses_the_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert_a_replayer_without_the_option_refuses(monkeypatch, "round_cap", 40)


def test_R36_is_written_in_the_readings_of_every_language() -> None:
    assert_in_every_readings("R36", "round_cap", after="R35")
