"""Exact probabilities of the Tonk-family wins on the deal (T4), by preset and players.

The events are named as the engine names the end of such a deal (``Result.end``), so that the
simulated frequencies can be read off the engine's results and set beside these numbers. The hand
tests below are written from the rules text, not taken from the engine's scoring code, so that
agreement checks the engine.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

from taverntable.games.tonk import TonkRules
from taverntable.games.tonk.rules import MAX_PLAYERS

from .exact import Hand, HandCounter, HandTest, holders_distribution, tonk_classes

HAND_SIZE = 5  # T3

# Per deal_wins option (T4): the ends of a deal on the deal, with a label for the report.
EVENTS: dict[str, tuple[tuple[str, str], ...]] = {
    "tonk": (("tonk", "Tonk: some hand ≤15 or 49/50"),),
    "tor": (
        ("tor", "Tőr: exactly one J/Q/K-only hand"),
        ("void", "void: two or more J/Q/K-only hands"),
        ("low", "low hand ≤15 (and no Tőr)"),
    ),
    "pagat": (
        ("tonk", "exactly one hand of 49/50"),
        ("void", "void: two or more hands of 49/50"),
    ),
}


def _low(h: Hand) -> bool:
    return h.total <= 15


def _fifty(h: Hand) -> bool:
    return h.total in (49, 50)


def _royal(h: Hand) -> bool:
    return h.royal


def _low_or_fifty(h: Hand) -> bool:
    return _low(h) or _fifty(h)


def _low_or_royal(h: Hand) -> bool:
    return _low(h) or _royal(h)


TESTS: dict[str, HandTest] = {
    "low": _low,
    "fifty": _fifty,
    "royal": _royal,
    "low|fifty": _low_or_fifty,
    "low|royal": _low_or_royal,
}


@cache
def counter(values: tuple[int, ...], test: str) -> HandCounter:
    """The (memoised) counter of disjoint hands passing ``test`` for these card values."""
    royalty = "royal" in test  # J/Q/K are told apart from 10s only where royalty matters
    return HandCounter(tonk_classes(values, royalty=royalty), HAND_SIZE, TESTS[test])


def holders(rules: TonkRules, test: str, players: int) -> list[Fraction]:
    """P(exactly j of the players' hands pass ``test``), j = 0..players."""
    count = counter(rules.card_values, test)
    # Count for the largest table once: the counts for fewer players are its first entries.
    count.tuple_counts(MAX_PLAYERS)
    return holders_distribution(count, players)


def deal_win_probabilities(rules: TonkRules, players: int) -> dict[str, Fraction]:
    """The exact probability of each way a deal ends on the deal (T4), by engine end name."""
    if rules.deal_wins == "tonk":
        return {"tonk": 1 - holders(rules, "low|fifty", players)[0]}
    if rules.deal_wins == "tor":
        royal = holders(rules, "royal", players)
        # Tőr is checked before low hands: a low hand wins only when nobody holds Tőr.
        no_low_no_royal = holders(rules, "low|royal", players)[0]
        return {"tor": royal[1], "void": 1 - royal[0] - royal[1], "low": royal[0] - no_low_no_royal}
    fifty = holders(rules, "fifty", players)
    return {"tonk": fifty[1], "void": 1 - fifty[0] - fifty[1]}


def single_hand_counts(rules: TonkRules) -> dict[str, int]:
    """How many of the C(52, 5) hands are low, 49/50 or J/Q/K only."""
    return {test: counter(rules.card_values, test).tuples(1) for test in ("low", "fifty", "royal")}


ALL_HANDS = comb(52, HAND_SIZE)
