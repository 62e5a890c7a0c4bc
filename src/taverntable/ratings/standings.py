"""A match's final standings: places from totals, ties sharing a place."""

from __future__ import annotations

from collections.abc import Sequence


def places(totals: Sequence[float]) -> list[int]:
    """Each entrant's place (1 is first) from its total, higher first; equal totals share the
    better place ("1, 1, 3"), as a score sheet reads. ``openskill`` takes these as ranks."""
    return [1 + sum(1 for other in totals if other > mine) for mine in totals]
