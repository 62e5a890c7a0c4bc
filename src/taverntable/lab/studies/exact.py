"""Exact probabilities of hands dealt from one deck, with integer counting and fractions.

A hand is described by its *composition*: how many cards it holds of each card class (cards that
no deal-time rule tells apart, such as the four 7s, or the twelve J/Q/K when face cards are all
worth 10). The probability that ``k`` given hands all have a property is the number of ordered
tuples of ``k`` pairwise disjoint hands with it, over the number of all such tuples; the number is
counted exactly by removing one hand at a time from the deck's class counts (memoised on what is
left), so the dependence between the hands of one deal is exact. Inclusion–exclusion then gives
the distribution of the number of the ``n`` players whose hand has the property.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, prod

Composition = tuple[int, ...]  # cards of each class in one hand


@dataclass(frozen=True, slots=True)
class CardClass:
    """Cards a deal-time rule cannot tell apart: their number, value and whether they are J/Q/K."""

    count: int
    value: int
    royal: bool


@dataclass(frozen=True, slots=True)
class Hand:
    """What the deal-time rules read from a hand: its total and whether it is J/Q/K only."""

    total: int
    royal: bool


HandTest = Callable[[Hand], bool]


def tonk_classes(card_values: Sequence[int], *, royalty: bool) -> tuple[CardClass, ...]:
    """The classes of a 52-card deck (T1): ranks of equal value (and, when ``royalty`` matters,
    equally J/Q/K or not) are merged, since fewer classes means far fewer deck states to count."""
    merged: dict[tuple[int, bool], int] = {}
    for rank in range(1, 14):
        key = (card_values[rank], royalty and rank >= 11)
        merged[key] = merged.get(key, 0) + 4
    return tuple(CardClass(n, v, r) for (v, r), n in sorted(merged.items()))


class HandCounter:
    """Counts ordered tuples of disjoint hands that all pass ``test``, dealt from ``classes``."""

    def __init__(self, classes: Sequence[CardClass], hand_size: int, test: HandTest) -> None:
        self.classes = tuple(classes)
        self.hand_size = hand_size
        self.deck = tuple(c.count for c in self.classes)
        self.passing = [c for c in compositions(self.deck, hand_size) if test(self.hand(c))]
        # Per passing composition, its nonzero classes: most of a hand's classes are empty.
        self._parts = [tuple((j, k) for j, k in enumerate(c) if k) for c in self.passing]
        self._extend = lru_cache(maxsize=None)(self._extend_uncached)
        self._counts: list[int] = [1]  # tuple counts for k = 0..len-1, the deepest so far

    def hand(self, comp: Composition) -> Hand:
        """The total and royalty of a hand of this composition."""
        total = sum(k * c.value for k, c in zip(comp, self.classes, strict=True))
        royal = all(c.royal for k, c in zip(comp, self.classes, strict=True) if k)
        return Hand(total, royal)

    def tuples(self, k: int) -> int:
        """Ordered ``k``-tuples of disjoint passing hands from the whole deck."""
        return self.tuple_counts(k)[k]

    def tuple_counts(self, most: int) -> list[int]:
        """Ordered k-tuples of disjoint passing hands from the whole deck, k = 0..most."""
        if len(self._counts) <= most:
            counts = list(self._extend(self.deck, most))
            self._counts = counts + [0] * (most + 1 - len(counts))
            self._extend.cache_clear()  # the counts are kept; the deck states are not needed
        return self._counts[: most + 1]

    def _extend_uncached(self, left: Composition, depth: int) -> tuple[int, ...]:
        """For k = 0..depth: the ordered k-tuples of disjoint passing hands from ``left``.

        One vector per deck state, rather than one count per (state, k), visits each state once;
        ``depth`` stops the count at the number of players, which matters when passing hands
        are common (deep recursions have by far the most deck states).
        """
        out = [1]
        if depth == 0:
            return (1,)
        for parts in self._parts:
            if any(left[j] < k for j, k in parts):
                continue
            ways = prod(comb(left[j], k) for j, k in parts)
            rest = list(left)
            for j, k in parts:
                rest[j] -= k
            deeper = self._extend(tuple(rest), depth - 1)
            if len(out) <= len(deeper):
                out.extend([0] * (len(deeper) + 1 - len(out)))
            for k, n in enumerate(deeper, 1):
                out[k] += ways * n
        return tuple(out)


def compositions(deck: Composition, size: int) -> list[Composition]:
    """Every composition of ``size`` cards that ``deck`` can supply."""
    out = set()
    for picks in combinations_with_replacement(range(len(deck)), size):
        comp = tuple(picks.count(j) for j in range(len(deck)))
        if all(c <= d for c, d in zip(comp, deck, strict=True)):
            out.add(comp)
    return sorted(out)


def all_tuples(cards: int, hand_size: int, k: int) -> int:
    """Ordered ``k``-tuples of disjoint hands from ``cards`` cards."""
    return prod(comb(cards - hand_size * i, hand_size) for i in range(k))


def holders_distribution(counter: HandCounter, players: int) -> list[Fraction]:
    """P(exactly j of ``players`` hands pass), j = 0..players, by inclusion–exclusion."""
    cards = sum(counter.deck)
    if players * counter.hand_size > cards:
        raise ValueError(f"{players} hands of {counter.hand_size} need more than {cards} cards")
    # s[k]: the sum over k-sets of players of P(all of them pass) (hands are exchangeable).
    tuples = counter.tuple_counts(players)
    s = [
        comb(players, k) * Fraction(tuples[k], all_tuples(cards, counter.hand_size, k))
        for k in range(players + 1)
    ]
    return [
        sum(((-1) ** (k - j) * comb(k, j) * s[k] for k in range(j, players + 1)), Fraction(0))
        for j in range(players + 1)
    ]
