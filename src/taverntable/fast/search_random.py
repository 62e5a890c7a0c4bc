"""A search's own generator (``SearchRandom``), apart from ``stream`` so that the search
imports it without the compiler (``jit`` loads numba)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

# ``random.Random``'s own draws and state: every other method draws through them.
_DRAWS = ("random", "getrandbits", "randbytes", "getstate", "setstate", "seed")


def _waking(name: str) -> Callable[..., Any]:
    """``name`` of a ``SearchRandom`` not yet seeded: seed it, then call its own ``name`` (a
    bound method taken before the first draw keeps working after it)."""

    def draw(self: SearchRandom, *args: Any, **kwargs: Any) -> Any:
        self._wake()
        return getattr(self, name)(*args, **kwargs)

    draw.__name__ = name
    return draw


class SearchRandom(random.Random):
    """``random.Random(seed)`` owned by one search and dropped after it (``IsmctsBot.choose``).

    Seeding a ``Random`` costs as much as a fifth of a search's Python set-up, and a search
    whose worlds are dealt in the kernel never draws from its generator in Python. So this one
    is seeded on its first draw in Python (``_wake``: the numbers of ``random.Random(seed)``
    from then on), and a kernel that draws a whole search's stream
    (``bots.three_towers.fast.worlds``) seeds its own copy from ``seed`` instead of copying 625
    words in and back (``stream.search_stream``: the same words). That kernel hands nothing
    back, so the generator is then spent (``spend``): a later draw raises rather than repeat
    the search's numbers. A kernel may take the stream only while nothing has been drawn in
    Python (a search's dealer is made before its first world)."""

    # Until the first draw, each of ``Random``'s own methods seeds the generator first.
    random = _waking("random")
    getrandbits = _waking("getrandbits")
    randbytes = _waking("randbytes")
    getstate = _waking("getstate")
    setstate = _waking("setstate")
    seed = _waking("seed")

    def __init__(self, seed: int) -> None:  # no ``super().__init__``: seeded by ``_wake``
        self.first_seed: int = seed
        self.awake = False
        self.gauss_next = None  # what ``Random.__init__`` sets (``gauss`` reads it first)

    def _wake(self) -> None:
        """Seed the generator as ``random.Random(seed)`` would have, once; from then on its
        draws are ``Random``'s own (bound on the instance, ahead of the class's waking ones)."""
        if not self.awake:
            self.awake = True
            for name in _DRAWS:
                setattr(self, name, getattr(random.Random, name).__get__(self))
            random.Random.seed(self, self.first_seed)

    def spend(self) -> None:
        """Mark the generator used up by a kernel stream that was not handed back."""
        self.awake = True
        for name in _DRAWS:
            setattr(self, name, _spent)


def _spent(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("this SearchRandom's stream was drawn by a kernel and not handed back")
