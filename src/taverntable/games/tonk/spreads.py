"""Precomputed tables for sets and runs (T8), so move generation is a few lookups per hand.

A suit's 13 ranks form a 13-bit mask (bit 0 = ace … bit 12 = king); a rank's four suits are the
bits ``rank``, ``rank + 13``, ``rank + 26``, ``rank + 39`` of a card mask.
"""

from __future__ import annotations

from itertools import combinations

from .rules import CARD_VALUES

SUIT_BITS = 0x1FFF
RANK_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39  # the four cards of rank index 0 (aces)


def _runs_inside(suit_mask: int) -> tuple[int, ...]:
    runs = []
    for low in range(13):
        for high in range(low + 2, 13):
            run = ((1 << (high - low + 1)) - 1) << low
            if suit_mask & run == run:
                runs.append(run)
    return tuple(runs)


# RUNS_INSIDE[m]: every run (3+ consecutive ranks) whose cards all lie in the 13-bit suit mask m.
RUNS_INSIDE: tuple[tuple[int, ...], ...] = tuple(_runs_inside(m) for m in range(1 << 13))


def _is_run(m: int) -> bool:
    if m == 0:
        return False
    shifted = m >> ((m & -m).bit_length() - 1)
    return shifted & (shifted + 1) == 0 and shifted >= 0b111


# IS_RUN[m]: the 13-bit mask m is one run of 3 or more consecutive ranks.
IS_RUN: tuple[bool, ...] = tuple(_is_run(m) for m in range(1 << 13))

# SUBSETS_OF_RANK[k]: for a 4-bit mask k of suits held in one rank, the sets (as 4-bit masks)
# that can be laid: every 3 of them, and all 4.
SUBSETS_OF_RANK: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << b for b in combo)
        for size in (3, 4)
        for combo in combinations([b for b in range(4) if k >> b & 1], size)
    )
    for k in range(16)
)

# SUIT_SPREAD[k]: a 4-bit suit mask spread over the card-mask positions of rank index 0.
SUIT_SPREAD: tuple[int, ...] = tuple(
    sum(1 << (13 * b) for b in range(4) if k >> b & 1) for k in range(16)
)


def rank_suits(mask: int, rank_index: int) -> int:
    """The 4-bit mask of suits held in one rank."""
    m = mask >> rank_index
    return (m & 1) | (m >> 12 & 2) | (m >> 24 & 4) | (m >> 36 & 8)


def spread_kind(mask: int) -> tuple[str, int] | None:
    """('set', rank index) or ('run', suit) when the card mask is a valid spread, else None."""
    count = mask.bit_count()
    if count < 3:
        return None
    low = (mask & -mask).bit_length() - 1
    rank_index = low % 13
    if count <= 4 and mask & ~(RANK_COLUMN << rank_index) == 0:
        return ("set", rank_index)
    suit = low // 13
    if mask >> (13 * suit) & ~SUIT_BITS == 0 and IS_RUN[mask >> (13 * suit)]:
        return ("run", suit)
    return None


def _value_table(card_values: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(card_values[r + 1] for r in range(13) if m >> r & 1) for m in range(1 << 13))


# SUIT_VALUES[face_values][m]: the hand value (T1) of the cards in the 13-bit suit mask m, so a
# hand's total is four lookups.
SUIT_VALUES: dict[str, tuple[int, ...]] = {
    name: _value_table(values) for name, values in CARD_VALUES.items()
}
