"""The lab's exact deal-time probabilities (T4): counted exactly, and agreeing with the engine."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations
from math import comb
from pathlib import Path

import pytest

from taverntable.games.tonk import PAGAT, TONK, TOR, rules_from
from taverntable.lab.core.execute import run_study
from taverntable.lab.core.stats import wilson
from taverntable.lab.core.store import StudyStore
from taverntable.lab.core.studies import get_study
from taverntable.lab.report.tonk_deals import comparison
from taverntable.lab.studies.exact import CardClass, Hand, HandCounter, holders_distribution
from taverntable.lab.studies.tonk_exact import deal_win_probabilities, holders, single_hand_counts


def brute_force(classes: list[CardClass], hand: int, players: int, test: object) -> list[Fraction]:
    """P(exactly j hands pass) by dealing every ordering of a tiny deck."""
    cards = [j for j, c in enumerate(classes) for _ in range(c.count)]
    counts = [0] * (players + 1)
    deals = 0
    for order in set(permutations(range(len(cards)))):
        passing = 0
        for p in range(players):
            comp = [cards[i] for i in order[p * hand : (p + 1) * hand]]
            total = sum(classes[j].value for j in comp)
            royal = all(classes[j].royal for j in comp)
            passing += test(Hand(total, royal))  # type: ignore[operator]
        counts[passing] += 1
        deals += 1
    return [Fraction(c, deals) for c in counts]


@pytest.mark.parametrize("players", [1, 2, 3])
def test_holders_distribution_matches_brute_force_on_a_tiny_deck(players: int) -> None:
    classes = [
        CardClass(2, 1, False),
        CardClass(2, 2, False),
        CardClass(1, 3, False),
        CardClass(2, 5, True),
    ]
    for test in (lambda h: h.total <= 3, lambda h: h.royal, lambda h: h.total in (3, 10)):
        counter = HandCounter(classes, 2, test)
        assert holders_distribution(counter, players) == brute_force(classes, 2, players, test)


def test_T4_single_hand_counts_match_a_full_enumeration() -> None:
    # By enumerating all C(52, 5) = 2,598,960 hands once (5 s, too slow for every run).
    assert single_hand_counts(TONK) == {"low": 15320, "fifty": 11648, "royal": 792}


def test_T4_two_tor_hands_void_the_deal_exactly() -> None:
    both_royal = Fraction(comb(12, 5) * comb(7, 5), comb(52, 5) * comb(47, 5))
    assert deal_win_probabilities(TOR, 2)["void"] == both_royal
    one = Fraction(792, comb(52, 5))
    assert deal_win_probabilities(TOR, 2)["tor"] == 2 * one - 2 * both_royal


@pytest.mark.parametrize("rules", [TONK, TOR, PAGAT])
def test_distributions_are_probabilities(rules: object) -> None:
    for players in (2, 6, 10):
        for test in ("low", "fifty", "royal"):
            dist = holders(rules, test, players)  # type: ignore[arg-type]
            assert sum(dist) == 1 and all(p >= 0 for p in dist)
        assert all(0 < p < 1 for p in deal_win_probabilities(rules, players).values())  # type: ignore[arg-type]


def test_face_values_option_changes_the_exact_numbers() -> None:
    # With J/Q/K worth 11–13 fewer hands are low, and as many are J/Q/K only. (Counting tuples
    # of 49/50 hands under this option takes long: such hands become common.)
    high = rules_from("tor", face_values="11/12/13")
    assert holders(high, "low", 2)[0] > holders(TOR, "low", 2)[0]
    assert holders(high, "royal", 3) == holders(TOR, "royal", 3)


def test_T4_exact_and_simulated_agree(tmp_path: Path) -> None:
    """Every preset, 2–10 players: the engine's deal-time ends match the exact probabilities."""
    config = get_study("tonk-deal-wins").config(games=27 * 600, seed=7)
    run_study(config, tmp_path / "deals", workers=1, progress=False)
    rows = StudyStore.read(tmp_path / "deals")[2]
    table = comparison(config, rows)
    assert len(table.rows) == 9 * (1 + 3 + 2)
    inside95 = 0
    for preset, players, event, exact, _, _, _, deals, hits, inside in table.rows:
        assert deals == 600
        # A wide (99.9%) interval per cell, so that 54 cells together rarely miss by chance.
        lo, hi = wilson(int(hits), int(deals), z=3.29)  # type: ignore[arg-type]
        assert lo <= exact <= hi, (preset, players, event)  # type: ignore[operator]
        inside95 += int(inside)  # type: ignore[arg-type]
    assert inside95 >= 0.85 * len(table.rows)
