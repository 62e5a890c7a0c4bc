"""The arena's statistics on hand-made data: intervals, pairwise outcomes, Bradley–Terry Elo."""

from __future__ import annotations

import math

import pytest

from taverntable.lab.arena.elo import bradley_terry_elo, pairwise_scores
from taverntable.lab.core.stats import mean_ci95, t95


def test_mean_ci95_uses_student_t() -> None:
    mean, lo, hi = mean_ci95([1.0, 2.0, 3.0, 4.0, 5.0])
    # sd = sqrt(2.5), n = 5, t(4) = 2.776
    half = 2.776 * math.sqrt(2.5) / math.sqrt(5)
    assert mean == 3.0
    assert lo == pytest.approx(3.0 - half) and hi == pytest.approx(3.0 + half)


def test_mean_ci95_large_samples_use_the_normal_quantile() -> None:
    xs = [(-1.0) ** k for k in range(100)]  # mean 0, sd = sqrt(100/99)
    mean, lo, hi = mean_ci95(xs)
    assert mean == 0.0
    assert hi == pytest.approx(1.96 * math.sqrt(100 / 99) / 10)
    assert lo == -hi


def test_mean_ci95_degenerate_cases() -> None:
    assert mean_ci95([2.0])[1:] == (-math.inf, math.inf)
    assert math.isnan(mean_ci95([])[0])
    assert mean_ci95([1.5, 1.5, 1.5]) == (1.5, 1.5, 1.5)
    assert t95(0) == math.inf and t95(1) == 12.706 and t95(500) == 1.96


def test_pairwise_scores_count_ties_as_half() -> None:
    assert pairwise_scores([2.0, -1.0, -1.0]) == [(0, 1, 1.0), (0, 2, 1.0), (1, 2, 0.5)]


def test_equal_records_give_equal_ratings() -> None:
    wins = [[0, 5, 5], [5, 0, 5], [5, 5, 0]]
    assert bradley_terry_elo(wins) == pytest.approx([1500.0] * 3)


def test_three_to_one_is_about_191_points() -> None:
    # Without the prior, P(win) = 3/4 means strengths 3 : 1, 400 log10(3) = 190.8 Elo apart.
    elo = bradley_terry_elo([[0, 30], [10, 0]], prior_draws=0.0)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert sum(elo) / 2 == pytest.approx(1500.0)


def test_the_prior_keeps_a_sweep_finite_and_shrinks_it() -> None:
    elo = bradley_terry_elo([[0, 10], [0, 0]])
    # 10.5 : 0.5 with one virtual draw: strengths 21 : 1.
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(21), abs=1e-6)


def test_transitive_ratings_are_ordered_and_centred() -> None:
    wins = [[0, 7, 9], [3, 0, 7], [1, 3, 0]]
    a, b, c = bradley_terry_elo(wins)
    assert a > b > c
    assert (a + b + c) / 3 == pytest.approx(1500.0)
