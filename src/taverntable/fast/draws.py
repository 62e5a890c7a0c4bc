"""``Random.choice`` and ``Random.shuffle`` on the kernels' stream (``stream.py``), draw for draw.

The heuristic bot shuffles its model of the unseen cards with ``rng.shuffle`` and the random bot
picks with ``rng.choice``; both draw through CPython's ``Random._randbelow``, which takes
``k = n.bit_length()`` bits of the next 32-bit output (``getrandbits(k)``: the output shifted
right by ``32 - k``) and draws again while the number is ``n`` or more. Compiled kernels do the
same on the emulated generator; the fallback calls the caller's ``Random`` itself, so either path
draws the same numbers and leaves the generator in the same place.
"""

from __future__ import annotations

from .jit import COMPILED, IntArray, bit_length, kernel
from .stream import PyStream, mt_uint32


@kernel
def mt_randbelow(stream: IntArray, n: int) -> int:
    """``Random._randbelow(n)`` for 1 <= n < 2**32, on the emulated generator."""
    shift = 32 - bit_length(n)
    r = mt_uint32(stream) >> shift
    while r >= n:
        r = mt_uint32(stream) >> shift
    return r


def _py_randbelow(stream: IntArray, n: int) -> int:
    """``Random._randbelow(n)`` of the caller's own generator (pure-Python fallback): the stream
    holds its bound ``random`` method, whose ``__self__`` is the generator."""
    assert isinstance(stream, PyStream)
    below: int = stream.random.__self__._randbelow(n)  # type: ignore[attr-defined]
    return below


randbelow = mt_randbelow if COMPILED else _py_randbelow
"""The kernels' ``_randbelow``: on the emulated generator when compiled, the real one otherwise."""


@kernel
def shuffle_prefix(stream: IntArray, items: IntArray, count: int) -> None:
    """``Random.shuffle`` of ``items[:count]`` in place (Fisher-Yates from the end, as CPython)."""
    for i in range(count - 1, 0, -1):
        j = randbelow(stream, i + 1)
        items[i], items[j] = items[j], items[i]
