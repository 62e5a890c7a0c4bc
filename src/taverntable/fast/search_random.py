"""A search's own generator (``SearchRandom``), apart from ``stream`` so that the search
imports it without the compiler (``jit`` loads numba)."""

from __future__ import annotations

import random


class SearchRandom(random.Random):
    """``random.Random(seed)`` owned by one search and dropped after it (``IsmctsBot.choose``).

    A kernel that draws a whole search's stream (``bots.three_towers.fast.worlds``) otherwise
    copies the generator's 625 words in (``getstate``) and back (``setstate``): here it seeds
    its own copy from ``seed`` (``seed_into``, the same words; ``seeded_stream``) and hands
    nothing back, and the generator is spent (``spend``): a later draw from it raises rather than
    repeat numbers. Valid only while nothing has been drawn from it before the kernel's stream
    is made (a search's dealer is made before its first world)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.first_seed = seed

    def spend(self) -> None:
        """Mark the generator used up by a kernel stream that was not handed back."""
        for name in ("random", "getrandbits", "getstate", "setstate", "seed"):
            setattr(self, name, _spent)


def _spent(*_args: object) -> None:
    raise RuntimeError("this SearchRandom's stream was drawn by a kernel and not handed back")
