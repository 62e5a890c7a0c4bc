"""The benches' shared timing loop (``bench/timing.py``): what it counts and when it stops."""

from __future__ import annotations

import pytest

from taverntable.bench import timing
from taverntable.bench.timing import timed


def test_a_spent_budget_still_finishes_one_step_and_counts_it() -> None:
    calls = []

    def play() -> tuple[int, int]:
        calls.append(1)
        return 2, 7

    t = timed(play, 0.0)
    assert calls == [1]  # a step is never cut, and the deadline is checked after each
    assert (t.games, t.moves) == (2, 7)
    figures = t.figures(3)
    assert figures["moves_per_game"] == 3.5 and figures["players"] == 3.0
    assert figures["moves_per_s"] == pytest.approx(7 / t.seconds)
    assert figures["best_moves_per_s"] >= figures["moves_per_s"]
    assert list(figures) == [
        "games_per_s",
        "moves_per_s",
        "moves_per_game",
        "best_moves_per_s",
        "players",
    ]


def test_the_clock_is_read_only_once_enough_moves_have_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A fake CPU clock that advances one second a reading: with one-move steps and
    # clock_every=5 it is read after moves 1, 6 and 11, and the third reading passes 2.5 s.
    readings = iter(range(100))
    monkeypatch.setattr(timing.time, "process_time", lambda: float(next(readings)))
    t = timing.timed(lambda: (1, 1), 2.5, clock_every=5)
    assert t.games == t.moves == 11
    assert t.seconds == 4.0  # start at 0, readings 1, 2, 3, and the final one at 4


def test_without_slices_the_fastest_figure_is_the_mean() -> None:
    t = timed(lambda: (1, 10), 0.0, slices=False)
    assert t.best_moves_per_s == t.moves_per_s
