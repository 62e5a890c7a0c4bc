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

from .jit import COMPILED, IntArray, int_array, kernel

N = 624
M = 397
MATRIX_A = 0x9908B0DF
UPPER_MASK = 0x80000000
LOWER_MASK = 0x7FFFFFFF
STATE_SIZE = N + 1  # the words, then the index of the next word


@kernel
def _twist(mt: IntArray) -> None:
    """Regenerate the 624 words (MT19937's ``genrand_uint32`` refill)."""
    for k in range(N):
        y = (mt[k] & UPPER_MASK) | (mt[(k + 1) % N] & LOWER_MASK)
        mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ ((y & 1) * MATRIX_A)
    mt[N] = 0


@kernel
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


@kernel
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
