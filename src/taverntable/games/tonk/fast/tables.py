"""The Tonk move generator's tables (``games/tonk/spreads.py``) as flat int arrays for the
kernels: each tuple of tuples becomes one array of entries and one of offsets, so entry ``k``'s
items are ``FLAT[OFFSETS[k]:OFFSETS[k + 1]]`` in the engine's order."""

from __future__ import annotations

from collections.abc import Sequence

from taverntable.fast.jit import int_array
from taverntable.games.tonk.rules import CARD_VALUES
from taverntable.games.tonk.spreads import RUNS_INSIDE, SUBSETS_OF_RANK, SUIT_SPREAD, SUIT_VALUES

FACE_VALUES = tuple(CARD_VALUES)  # option face_values by its code in the kernel


def _offsets(table: Sequence[Sequence[int]]) -> list[int]:
    offsets = [0]
    for items in table:
        offsets.append(offsets[-1] + len(items))
    return offsets


RUNS_FLAT = int_array([run for runs in RUNS_INSIDE for run in runs])
RUNS_OFFSETS = int_array(_offsets(RUNS_INSIDE))
SUBSETS_FLAT = int_array([k for subsets in SUBSETS_OF_RANK for k in subsets])
SUBSETS_OFFSETS = int_array(_offsets(SUBSETS_OF_RANK))
SUIT_SPREAD_TABLE = int_array(SUIT_SPREAD)
# Hand value of a 13-bit suit mask, 8,192 entries for each face_values code (T1).
VALUES = int_array([v for name in FACE_VALUES for v in SUIT_VALUES[name]])
