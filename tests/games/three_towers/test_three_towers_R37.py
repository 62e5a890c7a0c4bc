"""R37 (a cap on a round's lead, ``lead_cap``; ``texts/en/three-towers-readings.md``): the default
is today's rules, a value out of range is refused in one line naming R37, R37 with R36 in one
line naming both; at a round's count a seat more than the cap above the best of its opponents
scores that best plus the cap (only the round's single top seat without teams, never against a
partner with them; a tie at the top changes nothing), R14's 150 counts in its round and the
builder is paid what the cap leaves of it; records carry the option and replay only under it
(the fast path's differential proof is in ``fast/test_fast_towers.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from taverntable.engine import RecordError
from taverntable.games.three_towers import RulesError, TowersRules, TowersState, rules_from
from taverntable.games.three_towers.phases import DEAL, OVER
from taverntable.games.three_towers.record import ADAPTER
from taverntable.games.three_towers.scoring import WIN_BONUS, cap_leads
from taverntable.records.core import replay_record

from three_towers_helpers import (
    arrange,
    assert_a_replayer_without_the_option_refuses,
    assert_in_every_readings,
    heuristic_game,
    play,
)

H1, H2 = "2S 3S 4S 5S 6S 7S 8S", "2H 3H 4H 5H 6H 7H 8H"


def test_R37_default_is_todays_rules() -> None:
    rules = TowersRules()
    assert rules.lead_cap == 0 and rules.differences() == {}
    assert rules_from(lead_cap=0) == rules


@pytest.mark.parametrize("value", [-1, 5, 9, 501, True, 60.0, "60", None])
def test_R37_out_of_range_is_refused_in_one_line_naming_the_rule(value: object) -> None:
    with pytest.raises(RulesError, match=r"^rule option lead_cap \(R37\) must be ") as e:
        rules_from(lead_cap=value)
    assert len(str(e.value).splitlines()) == 1


@pytest.mark.parametrize("value", [10, 60, 500])
def test_R37_the_range_is_accepted(value: int) -> None:
    assert rules_from(lead_cap=value).lead_cap == value


def test_R37_with_R36_is_refused_in_one_line_naming_both() -> None:
    with pytest.raises(RulesError) as e:
        rules_from(lead_cap=60, round_cap=50)
    text = str(e.value)
    assert "lead_cap (R37)" in text and "round_cap (R36)" in text and "\n" not in text
    # The revised preset has R36's cap: R37 on it needs R36 set to 0.
    with pytest.raises(RulesError, match="R37"):
        rules_from("three-towers-revised", lead_cap=60)
    assert rules_from("three-towers-revised", lead_cap=60, round_cap=0).lead_cap == 60


def _everyone_else(n: int) -> Callable[[int], list[int]]:
    return lambda s: [o for o in range(n) if o != s]


@pytest.mark.parametrize(
    ("points", "cap"),
    [([200, 40], 60), ([40, 200], 60), ([-10, -150], 60), ([90, 40, -20], 30), ([7, 7, -80], 10)],
)
def test_R37_only_the_single_top_seat_is_held_to_the_next_best_plus_the_cap(
    points: list[int], cap: int
) -> None:
    held = cap_leads(points, cap, _everyone_else(len(points)))
    ranked = sorted(points, reverse=True)
    top = points.index(ranked[0])
    for s, p in enumerate(points):
        if s == top and ranked[0] > ranked[1]:
            assert held[s] == min(p, ranked[1] + cap)  # held against the second, not the last
        else:
            assert held[s] == p  # a tie at the top leads nothing; nobody else changes
    assert max(held) - sorted(held)[-2] <= cap


def test_R37_with_teams_a_seat_is_held_against_its_opponents_never_its_partner() -> None:
    teams = TowersState.new(rules_from(teams=True), 4, dealer=0)
    assert teams.opponents(0) == [1, 3]
    # Partners 0 and 2 both far ahead: each is held against the best opponent (seat 3, 10).
    assert cap_leads([200, -30, 150, 10], 50, teams.opponents) == [60, -30, 60, 10]
    # Seat 0 is 100 over its partner but only 30 over its best opponent: not held.
    assert cap_leads([130, 100, 30, 0], 50, teams.opponents) == [130, 100, 30, 0]


def _diamond_round(cap: int) -> TowersState:
    # As R36's test: seat 0 finishes a ♦ tower (+50) with 10H 10D in its tower; seat 1 holds ♠
    # figures and has them in its store too; seat 2's store takes what the short deck leaves.
    state = arrange(
        ["10C X 3C 4C 5C 6C 7C", "KS QS JS AS 2S 3S 4S", H2],
        rules=rules_from(lead_cap=cap) if cap else TowersRules(),
        towers=["AD 10H 10D"],
        stores=["10H 10D 10C", "KS QS"],
        deck_size=20,
    )
    play(state, "add 10C")
    assert state.phase == DEAL
    return state


def test_R37_a_rounds_top_seat_scores_at_most_the_cap_over_the_next_best() -> None:
    today = list(_diamond_round(0).rounds[-1].points)
    ranked = sorted(today, reverse=True)
    top = today.index(ranked[0])
    gap = ranked[0] - ranked[1]
    assert gap > 20  # the caps below hold the top seat
    for cap in (10, gap // 2, gap - 1):
        held = _diamond_round(cap)
        points = list(held.rounds[-1].points)
        assert points[top] == ranked[1] + cap
        assert [p for s, p in enumerate(points) if s != top] == [
            p for s, p in enumerate(today) if s != top
        ]
        assert held.scores == points
    # A cap at or above the round's lead changes nothing.
    for cap in (gap, gap + 1, 500):
        assert list(_diamond_round(cap).rounds[-1].points) == today


def _third_tower(cap: int) -> TowersState:
    state = arrange(
        ["10C X 3C 4C 5C 6C 7C", H1],
        rules=rules_from(lead_cap=cap) if cap else TowersRules(),
        towers=["AD 10H 10D"],
    )
    state.marks[0] = 2
    play(state, "add 10C")
    assert state.phase == OVER and state.result is not None
    return state


def test_R37_the_third_towers_150_counts_in_its_round_the_builder_keeps_its_points_first() -> None:
    today = _third_tower(0)
    own, other = today.rounds[-1].points
    assert today.scores[0] - own == WIN_BONUS
    lead = own - other
    assert 10 < lead < lead + WIN_BONUS < 500
    # The caps: inside the round's own lead, between it and the lead with the 150, beyond both.
    for cap in (10, lead, lead + WIN_BONUS // 2, lead + WIN_BONUS, 500):
        state = _third_tower(cap)
        points = state.rounds[-1].points
        won = state.scores[0] - points[0]
        assert points[1] == other  # the runner-up is never held
        assert points[0] == min(own, other + cap)  # the round's own points first
        assert won == max(0, min(WIN_BONUS, other + cap - own))  # what the cap leaves
        assert state.scores[0] - state.scores[1] == min(lead + WIN_BONUS, cap)
        assert state.result is not None and state.result.end == "towers"


def test_R37_bots_games_hold_every_round_and_records_replay_only_under_it() -> None:
    rules = rules_from(max_rounds=2, lead_cap=30)
    changed = 0
    for seed in range(6):
        state = heuristic_game(rules, seed)
        record = json.loads(
            json.dumps(ADAPTER.dump(state, [f"P{s}" for s in range(state.num_players)]))
        )
        assert record["rules"] == {"preset": "three-towers", "max_rounds": 2, "lead_cap": 30}
        assert state.result is not None
        for r in state.result.rounds:
            ranked = sorted(r.points, reverse=True)
            assert ranked[0] - ranked[1] <= 30
        assert replay_record(record).result == state.result.to_json()
        record["rules"] = {"preset": "three-towers", "max_rounds": 2}
        try:
            changed += replay_record(record).result != state.result.to_json()
        except RecordError:
            changed += 1
    assert changed > 0


def test_R37_a_replayer_that_does_not_know_it_refuses_the_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert_a_replayer_without_the_option_refuses(monkeypatch, "lead_cap", 40)


def test_R37_is_written_in_the_readings_of_every_language() -> None:
    assert_in_every_readings("R37", "lead_cap", after="R36")


def test_R37_its_contradiction_with_R36_is_declared_and_the_differential_runs_respect_it() -> None:
    """The option table declares that R37 needs R36 off (``options.option`` ``needs``): the
    short differential runs change R37 with R36 at 0, and the long runs leave out the
    combinations with both caps."""
    from taverntable.fast.differential import rule_sets
    from taverntable.games.three_towers.fast.differential import SUBJECT
    from taverntable.options import option_needs

    assert option_needs(TowersRules)["lead_cap"] == {"round_cap": 0}
    short = [r for r in rule_sets(SUBJECT) if r.lead_cap]
    assert short and all(r.round_cap == 0 for r in short)
    every = rule_sets(SUBJECT, every=True, fixed={"max_rounds": 1})
    assert not any(r.lead_cap and r.round_cap for r in every)
    assert sum(bool(r.lead_cap) for r in every) == len(every) // 3  # 1 of the 3 pairs left
