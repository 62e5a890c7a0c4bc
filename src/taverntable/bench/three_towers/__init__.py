"""Three Towers' benches for ``tavern bench`` (``Game.benches`` of ``three-towers``): the
kernel's random and heuristic games beside the engine's (``play.py``), and the hard bot's
search (``bench/search.py``'s definitions below)."""

from __future__ import annotations

from collections.abc import Mapping

from ..search import SearchBench, search_benches
from ..timing import Bench
from .play import fast_towers_benches

SEARCHES = (
    # The hard bot's paired playouts in Python (``hard:fast=false``), before the kernel's.
    SearchBench("ismcts-towers-python", "three-towers", views=16, players=2, fast=False),
    SearchBench(
        "ismcts-towers", "three-towers", views=16, players=2, ratio_to=("ismcts-towers-python",)
    ),
)


class TowersBenches:
    """Three Towers' ``BenchKit``."""

    searches = SEARCHES
    peer_yardsticks: tuple[str, ...] = ()

    def benches(self) -> Mapping[str, Bench]:
        return {**fast_towers_benches(), **search_benches(SEARCHES)}


BENCHES = TowersBenches()
