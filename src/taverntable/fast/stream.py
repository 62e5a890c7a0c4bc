"""The random stream of the kernels: exactly CPython's ``random.Random``.

The engine's random play draws ``rng.random()`` for the deal's shuffle and for every choice.
Compiled kernels cannot call a Python ``Random``, so they run its generator themselves: the
Mersenne Twister MT19937 and ``random()``'s 53-bit double (CPython's ``genrand_res53``), on the
state ``Random.getstate()`` gives (624 words and the index), handed back with ``setstate`` when the
kernel returns. The same ``Random`` thus gives the same numbers on either path, and the caller's
``rng`` is left where the engine would have left it.

In the pure-Python fallback the kernels call the caller's own ``Random`` (``PyStream``): the same
numbers, at the speed of C.
"""

from __future__ import annotations

import random

from .jit import COMPILED, IntArray, int_array, plain_kernel
from .search_random import SearchRandom

N = 624
M = 397
MATRIX_A = 0x9908B0DF
UPPER_MASK = 0x80000000
LOWER_MASK = 0x7FFFFFFF
STATE_SIZE = N + 1  # the words, then the index of the next word


@plain_kernel
def _twist(mt: IntArray) -> None:
    """Regenerate the 624 words (MT19937's ``genrand_uint32`` refill)."""
    for k in range(N):
        y = (mt[k] & UPPER_MASK) | (mt[(k + 1) % N] & LOWER_MASK)
        mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ ((y & 1) * MATRIX_A)
    mt[N] = 0


@plain_kernel
def mt_uint32(mt: IntArray) -> int:
    """The next 32-bit output of the generator."""
    i = mt[N]
    if i >= N:
        _twist(mt)
        i = 0
    y = mt[i]
    mt[N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@plain_kernel
def mt_random(mt: IntArray) -> float:
    """``Random.random()``: a double in [0, 1) from two outputs (``genrand_res53``)."""
    a = mt_uint32(mt) >> 5
    b = mt_uint32(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


class PyStream(list[int]):
    """The fallback's stream: the caller's ``Random`` itself (the list part is unused)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.random = rng.random


def _py_random(stream: IntArray) -> float:
    """``Random.random()`` of the caller's own generator (pure-Python fallback)."""
    assert isinstance(stream, PyStream)
    return stream.random()


uniform = mt_random if COMPILED else _py_random
"""The kernels' ``random()``: the emulated generator when compiled, the real one otherwise."""


def stream_of(rng: random.Random) -> IntArray:
    """The stream a kernel draws from: ``rng``'s state (compiled) or ``rng`` itself."""
    if not COMPILED:
        return PyStream(rng)
    version, words, _gauss = rng.getstate()
    assert version == 3 and len(words) == STATE_SIZE
    return int_array(words)


def hand_back(stream: IntArray, rng: random.Random) -> None:
    """Leave ``rng`` where the kernel's draws took the stream (nothing to do in the fallback)."""
    if COMPILED:
        gauss = rng.getstate()[2]  # ``random()`` never touches ``gauss``'s cached value
        rng.setstate((3, tuple(int(stream[i]) for i in range(STATE_SIZE)), gauss))


MASK32 = 0xFFFFFFFF


@plain_kernel
def seed_into(mt: IntArray, low: int, high: int) -> None:
    """``Random(seed).getstate()``'s words and index written into ``mt`` for a seed below
    2**64 given as its two 32-bit halves: CPython's ``init_by_array`` on the seed's 32-bit
    words (one word when ``high`` is 0), from ``init_genrand(19650218)``. A search seeds a
    stream per world (``random.Random(seed)`` and ``getstate`` cost more than the playouts)."""
    mt[0] = 19650218
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK32
    length = 2 if high else 1
    i, j = 1, 0
    for _ in range(max(N, length)):
        word = low if j == 0 else high
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + word + j) & MASK32
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[N] = N


def seeded_stream(seed: int, out: IntArray | None = None) -> IntArray:
    """The stream of ``random.Random(seed)`` for ``0 <= seed < 2**64`` (``out`` reused when
    given): seeded in the kernel when compiled, the ``Random`` itself in the fallback."""
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"seed {seed} is not from 0 to below 2**64")
    if not COMPILED:
        return PyStream(random.Random(seed))
    mt = int_array(STATE_SIZE) if out is None else out
    seed_into(mt, seed & MASK32, seed >> 32)
    return mt


def search_stream(rng: random.Random) -> tuple[IntArray, bool]:
    """The stream a kernel draws a search's numbers from, and whether it must be handed back
    to ``rng`` (``hand_back``) when the kernel is done: a ``SearchRandom`` not yet drawn from
    in Python is seeded in the kernel and not handed back; any other generator is copied
    (``stream_of``)."""
    if COMPILED and isinstance(rng, SearchRandom):
        fresh = not rng.awake and 0 <= rng.first_seed < 1 << 64
        if fresh:
            return seeded_stream(rng.first_seed), False
    return stream_of(rng), True
