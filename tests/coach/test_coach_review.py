"""The review of a deal (issue 27, item 1): paired values, determinism, flagged mistakes by the
rules (T6), and the view as the only thing the coach reads."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from taverntable.bots.tonk.search import TonkSearch
from taverntable.coach import render, review_record
from taverntable.coach.tonk import PLAYING_ON_BIAS, TONK
from taverntable.coach.values import value_moves
from taverntable.games.tonk import Drop, TonkView
from taverntable.records import adapter_for

from paths import EXAMPLES

# Few worlds: the tests check invariants and clear cases, not fine differences.
WORLDS = 40


def example(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return record


def high_drop() -> dict[str, Any]:
    """Seat 0 drops on its first turn holding 33 (10S 9D 7C 4H 3S, no spread): two hands of
    five unseen cards, each above 15 (T4), are at most 33 most of the time, so the drop is
    caught (T6: the dropper pays 2x to each), while drawing loses little."""
    return {
        "game": "tonk",
        "players": ["Ann", "Bob", "Cid"],
        "dealer": 2,
        "stake": 1,
        "cards": {
            "hands": [
                ["10S", "9D", "7C", "4H", "3S"],
                ["KC", "QD", "8H", "6S", "2C"],
                ["JH", "9C", "7D", "5H", "AD"],
            ],
            "upcard": "KH",
            "stock": ["2H", "8C", "QS", "5D"],
        },
        "moves": [[0, "drop"]],
    }


def test_paired_values_loss_is_best_minus_chosen_and_never_negative() -> None:
    review = review_record(example("seed-tonk-2"), 0, worlds=WORLDS, seed=3)
    assert review.decisions
    for d in review.decisions:
        values = {o.move: o.value.mean for o in d.options}
        assert d.chosen in values and d.best in values
        # The mean of paired differences is the difference of the means (the same worlds).
        assert d.loss.mean == pytest.approx(values[d.best] - values[d.chosen], abs=1e-9)
        assert d.loss.mean >= 0
        assert values[d.best] == max(values.values())
        if d.best == d.chosen:
            assert d.loss.low == d.loss.high == 0.0
        for o in d.options:
            assert o.value.low <= o.value.mean <= o.value.high


def test_values_stay_within_what_a_deal_can_pay() -> None:
    """T6/T10/T11: a seat loses at most 2x to each other player (a caught drop) and wins at
    most 1x from each (tonk preset), in stakes; playing on carries the measured bias."""
    review = review_record(example("seed-tonk-1"), 1, worlds=WORLDS)
    n = 3
    bias = PLAYING_ON_BIAS * (n - 1)
    for d in review.decisions:
        for o in d.options:
            assert -2 * (n - 1) - bias - 1e-9 <= o.value.mean <= (n - 1) + 1e-9


def test_a_drop_is_scored_exactly_in_each_world_and_the_caught_share_agrees() -> None:
    """T6: in a world where the drop is caught the dropper loses, else wins (n - 1) stakes; the
    note's share of caught worlds is the share of worlds where the drop's value is negative."""
    record = high_drop()
    adapter = adapter_for("tonk")
    state = adapter.start(record)
    view = state.view(0)
    game = TonkSearch(fast=False)
    moves = list(view.legal_moves)
    sampled = value_moves(TONK, game, view, moves, WORLDS, random.Random(5))
    drop = moves.index(Drop())
    assert sampled.ends[drop] and not any(e for i, e in enumerate(sampled.ends) if i != drop)
    values = sampled.values[drop]
    assert all(v == 2 or v < 0 for v in values)
    caught = sum(v < 0 for v in values) / len(values)
    fact = sampled.facts[drop]
    assert fact is not None and fact[0] == pytest.approx(caught)
    # Per seat: the dropper never catches itself; each other seat catches at most as often as
    # someone does, and together at least as often.
    assert fact[1] == 0.0 and max(fact[2:]) <= fact[0] <= sum(fact[2:])


def test_the_same_seed_gives_the_same_review_and_another_seed_other_values() -> None:
    record = example("seed-tonk-2")
    a = review_record(record, 1, worlds=WORLDS, seed=11).to_json()
    b = review_record(record, 1, worlds=WORLDS, seed=11).to_json()
    c = review_record(record, 1, worlds=WORLDS, seed=12).to_json()
    assert a == b
    assert a != c
    assert json.loads(json.dumps(a)) == a  # plain data: a worker can send it on


def test_a_seats_review_does_not_depend_on_the_kernels() -> None:
    """The fast path plays the same greedy moves as the engine: the same values."""
    record = example("seed-tonk-1")
    fast = review_record(record, 0, worlds=10, seed=1, fast=True).to_json()
    slow = review_record(record, 0, worlds=10, seed=1, fast=False).to_json()
    assert fast == slow


def test_a_drop_at_a_high_total_is_flagged_and_named_by_T6() -> None:
    review = review_record(high_drop(), 0, worlds=WORLDS)
    [d] = review.decisions
    assert d.chosen == "drop" and d.best != "drop"
    assert d.flagged and d.loss.low > 0
    assert d.note.key == "tonk.drop_caught" and d.note.rule == "T6"
    assert d.note.params["total"] == 33
    assert int(d.note.params["pct"]) > 50
    assert review.lost == pytest.approx(d.loss.mean)
    sentence = render(d.note, "en")
    assert sentence.startswith("Drop at 33: someone holds 33 or less in about ")
    assert sentence.endswith("(T6)")


def test_the_winning_drop_of_the_first_seed_example_is_the_best_move() -> None:
    """The seed's first example: Kostoprav drops with 9 against 10 and 18 and wins (T6); from
    his view the drop is the best move, and nothing he did is flagged."""
    review = review_record(example("seed-tonk-1"), 0, worlds=WORLDS)
    last = review.decisions[-1]
    assert last.chosen == "drop" and last.best == "drop" and not last.flagged
    assert last.note.key == "tonk.drop_right"
    assert review.mistakes == ()


def test_kostoprav_does_not_drop_at_11_since_goblin_holds_little() -> None:
    """The seed's second example: Kostoprav, at 11, does not drop, having seen Goblin decline
    the four (T6); from his view the coach agrees, and names Goblin as the one who would catch
    the drop most often."""
    review = review_record(example("seed-tonk-2"), 0, worlds=WORLDS)
    [d] = [d for d in review.decisions if d.step == 9]
    assert d.chosen == "draw stock" and d.best != "drop" and not d.flagged
    assert d.note.key == "tonk.drop_declined" and d.note.params["total"] == 11
    assert d.note.params["catcher"] == "Goblin"
    assert int(d.note.params["pct"]) > 50


def test_the_coach_reads_only_the_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every world is drawn from the reviewed seat's own view at that decision, never from a
    state: the sampler is spied on and each view compared with the engine's."""
    record = example("seed-tonk-2")
    seen: list[Any] = []
    original = TonkSearch.sample

    def spy(self: TonkSearch, view: Any, rng: random.Random) -> Any:
        seen.append(view)
        return original(self, view, rng)

    monkeypatch.setattr(TonkSearch, "sample", spy)
    review = review_record(record, 1, worlds=3)
    adapter = adapter_for("tonk")
    state = adapter.start(record)
    expected = {}
    for step, (seat, text) in enumerate(record["moves"]):
        if seat == 1:
            expected[step] = state.view(1)
        adapter.apply(state, seat, text)
    views = {id(v): v for v in seen}
    assert views
    for v in views.values():
        assert isinstance(v, TonkView) and v.seat == 1
        assert v.revealed == ()  # no hand shown: the deal is not over in any of them
        assert v in [expected[d.step] for d in review.decisions]


def test_seat_out_of_range_and_an_unfinished_record_are_refused() -> None:
    from taverntable.engine import RecordError

    with pytest.raises(RecordError, match="seat: 3 is not a seat"):
        review_record(example("seed-tonk-1"), 3, worlds=2)
    unfinished = example("seed-tonk-1")
    unfinished["moves"] = unfinished["moves"][:-1]
    del unfinished["result"]
    with pytest.raises(RecordError, match="not over"):
        review_record(unfinished, 0, worlds=2)


def test_every_game_names_its_coach_family_by_a_plug_in() -> None:
    """No table of games in the coach: each registry game's ``coach`` plug-in loads a family
    whose unit is the game's own (``Game.unit``)."""
    from taverntable.coach.family import family_of
    from taverntable.games import game_names, get_game
    from taverntable.plugins.coach import CoachFamily

    for name in game_names():
        family = family_of(name)
        assert isinstance(family, CoachFamily)
        assert family.unit == get_game(name).unit
