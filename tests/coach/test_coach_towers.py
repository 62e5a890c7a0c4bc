"""The review of a Three Towers game: points, a few options, rule numbers R4-R13."""

from __future__ import annotations

import random
from typing import Any

import pytest

from taverntable.bots.registry import make_bot
from taverntable.coach import review_record
from taverntable.coach.towers import MAX_OPTIONS
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.records import dump_record


def heuristic_game(seed: int) -> dict[str, Any]:
    game = get_game("three-towers")
    state = game.start(game.rules(), 2, rng=random.Random(seed))
    play_out(state, [make_bot("heuristic", "three-towers") for _ in range(2)], random.Random(seed))
    record: dict[str, Any] = dump_record(state, ["Ann", "Bob"])
    return record


@pytest.mark.slow
def test_a_three_towers_review_values_each_decision_in_points() -> None:
    record = heuristic_game(1)
    review = review_record(record, 0, worlds=4, seed=2)
    assert review.unit == "points" and review.decisions
    moves = record["moves"]
    for d in review.decisions:
        assert moves[d.step][0] == 0 and moves[d.step][1] == d.chosen
        values = {o.move: o.value.mean for o in d.options}
        assert 2 <= len(values) <= MAX_OPTIONS and d.chosen in values
        assert d.loss.mean == pytest.approx(values[d.best] - values[d.chosen], abs=1e-9)
        assert d.note.rule in {"R4", "R5", "R6", "R8", "R9", "R10", "R11", "R13"}
        assert d.flagged == (d.loss.mean > review.threshold and d.loss.low > 0)
    assert review_record(record, 0, worlds=4, seed=2) == review
