"""``Random.choice`` and ``Random.shuffle`` on the kernels' stream (``stream.py``), draw for draw,
and a stream seeded as ``random.Random(seed)`` without building the ``Random``.

The heuristic bot shuffles its model of the unseen cards with ``rng.shuffle`` and the random bot
picks with ``rng.choice``; both draw through CPython's ``Random._randbelow``, which takes
``k = n.bit_length()`` bits of the next 32-bit output (``getrandbits(k)``: the output shifted
right by ``32 - k``) and draws again while the number is ``n`` or more. Compiled kernels do the
same on the emulated generator; the fallback calls the caller's ``Random`` itself, so either path
draws the same numbers and leaves the generator in the same place.
"""

from __future__ import annotations

import random

from .jit import COMPILED, IntArray, bit_length, int_array, kernel
from .stream import STATE_SIZE, N, PyStream, mt_uint32

WORD = 0xFFFFFFFF


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


@kernel
def _init_by_array(mt: IntArray, key: IntArray) -> None:
    """MT19937's ``init_by_array``, as CPython seeds a ``Random`` from an int."""
    mt[0] = 19650218
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & WORD
    i = 1
    j = 0
    for _ in range(max(N, len(key))):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & WORD
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= len(key):
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & WORD
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[N] = N  # the next output twists first


def seeded_stream(seed: int) -> IntArray:
    """The stream of ``random.Random(seed)`` for an int ``seed`` (CPython seeds from the 32-bit
    words of ``abs(seed)``, lowest first): ``stream_of(random.Random(seed))`` at a tenth of the
    cost, for callers that throw the generator away after one deal."""
    if not COMPILED:
        return PyStream(random.Random(seed))
    n = abs(seed)
    key = [(n >> (32 * w)) & WORD for w in range(max(1, -(-n.bit_length() // 32)))]
    stream = int_array(STATE_SIZE)
    _init_by_array(stream, int_array(key))
    return stream
