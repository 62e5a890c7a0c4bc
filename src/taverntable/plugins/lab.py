"""What a game family gives the lab and ``tavern bench``: its studies and its benches.

``Game.studies`` names the family's lab studies (``lab/studies/FAMILY_family.py``: each a
``lab.core.study.Study`` that names its play and analyse functions by import path), and
``Game.benches`` the family's benches beyond the registry's random play (``bench/FAMILY/``:
its fast path, its bots and its search). The lab and ``tavern bench`` collect them from every
registered game, once per plug-in (the three Tonk presets share theirs), so that neither keeps a
table of games. The protocols are stated here in the game-independent terms a game may name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from .plugin import PlugIn

# A bench: (CPU seconds, players, seed) -> its figures (``bench/timing.py``).
Bench = Callable[[float, int, int], dict[str, float]]


@runtime_checkable
class DeclaredStudy(Protocol):
    """A lab study as a game family declares it (``lab.core.study.Study``)."""

    @property
    def name(self) -> str: ...

    @property
    def family(self) -> str: ...


@runtime_checkable
class BenchKit(Protocol):
    """A game family's benches for ``tavern bench``."""

    def benches(self) -> Mapping[str, Bench]:
        """The benches by name, in the order they run (a bench with ratios to others after
        them)."""
        ...

    @property
    def searches(self) -> Sequence[Any]:
        """The family's ISMCTS benches (``bench.search.SearchBench``), which ``benches``
        includes: each names the benches its simulations per second are divided by."""
        ...

    @property
    def peer_yardsticks(self) -> Sequence[str]:
        """The benches whose moves per second a peer's (OpenSpiel's games played through
        pyspiel) are compared with; empty: none."""
        ...


def _is_studies(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(s, DeclaredStudy) for s in value)


def lab_studies(path: str) -> PlugIn[Sequence[DeclaredStudy]]:
    """``Game.studies``: the ``module:attribute`` of the family's tuple of lab studies."""
    return PlugIn(path, "tuple of lab studies", _is_studies)


def bench_kit(path: str) -> PlugIn[BenchKit]:
    """``Game.benches``: the ``module:attribute`` of the family's ``BenchKit``."""
    return PlugIn(path, "bench kit", lambda value: isinstance(value, BenchKit))
