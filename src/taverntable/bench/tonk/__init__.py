"""The Tonk family's benches for ``tavern bench`` (``Game.benches`` of ``tonk``, ``tor`` and
``pagat``): the kernel's random play beside the yardstick (``play.py``), heuristic deals on both
paths (``bots.py``) and the ISMCTS search (``bench/search.py``'s definitions below)."""

from __future__ import annotations

from collections.abc import Mapping

from ..search import SearchBench, search_benches
from ..timing import Bench
from .bots import fast_bot_benches
from .play import fast_play_benches

SEARCHES = (
    # ``ismcts-tonk`` with its playouts in the engine rather than the kernel (``fast``: by
    # default where numba compiled it), and with the tree in Python: the baselines of the
    # compiled root search, before it in the table so that its line can give the ratios.
    SearchBench(
        "ismcts-tonk-engine",
        "tonk",
        views=32,
        iterations=500,
        depth=1,
        settings={"selective": False, "fast": False},
    ),
    SearchBench(
        "ismcts-tonk-python",
        "tonk",
        views=32,
        iterations=500,
        depth=1,
        settings={"selective": False},
        fast=False,
    ),
    SearchBench(
        "ismcts-tonk",
        "tonk",
        views=32,
        iterations=500,
        depth=1,
        settings={"selective": False},
        ratio_to=("ismcts-tonk-engine", "ismcts-tonk-python"),
    ),
    SearchBench(
        "ismcts-tor", "tor", views=32, iterations=500, depth=1, settings={"selective": False}
    ),
)


class TonkBenches:
    """The Tonk family's ``BenchKit``."""

    searches = SEARCHES
    # OpenSpiel's peers are compared with Tonk's random deals, on the engine and the kernel.
    peer_yardsticks = ("tonk", "fast-tonk")

    def benches(self) -> Mapping[str, Bench]:
        return {**fast_play_benches(), **fast_bot_benches(), **search_benches(SEARCHES)}


BENCHES = TonkBenches()
