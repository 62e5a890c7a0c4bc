"""The kernels' random stream is CPython's ``random.Random`` (issue 14), and CI tests the
compiled kernels where numba is installed."""

from __future__ import annotations

import os
import random

import pytest

from taverntable.fast import stream
from taverntable.fast.jit import COMPILED, PURE_ENV


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 7])
def test_the_kernels_stream_is_pythons_random_across_refills(seed: int) -> None:
    rng = random.Random(seed)
    reference = random.Random(seed)
    s = stream.stream_of(rng)
    # 1,500 doubles use 3,000 words: the 624-word state is refilled (twisted) four times.
    assert [stream.uniform(s) for _ in range(1500)] == [reference.random() for _ in range(1500)]
    stream.hand_back(s, rng)
    assert rng.random() == reference.random()


def test_this_run_compiles_the_kernels_when_numba_is_installed() -> None:
    """CI installs the ``fast`` extra: the kernels it tests are the compiled ones."""
    try:
        import numba  # noqa: F401
    except ImportError:
        assert not COMPILED
    else:
        assert (os.environ.get(PURE_ENV, "") in ("", "0")) == COMPILED


def test_a_stream_seeded_in_the_kernel_is_random_seeded_with_that_number() -> None:
    """``seeded_stream(seed)`` is ``random.Random(seed)``'s stream for every seed below 2**64:
    one 32-bit word or two, the edges of each, and 300 random ones; the array is reused."""
    rng = random.Random(17)
    seeds = [
        0,
        1,
        2**32 - 1,
        2**32,
        2**32 + 1,
        2**64 - 1,
        *(rng.getrandbits(64) for _ in range(200)),
    ]
    seeds += [rng.getrandbits(24) for _ in range(100)]
    out = stream.int_array(stream.STATE_SIZE)
    for seed in seeds:
        s = stream.seeded_stream(seed, out)
        reference = random.Random(seed)
        if COMPILED:
            assert s is out
            assert tuple(int(x) for x in s) == reference.getstate()[1], seed
        assert [stream.uniform(s) for _ in range(3)] == [reference.random() for _ in range(3)]
    for bad in (-1, 1 << 64):
        with pytest.raises(ValueError, match="below 2"):
            stream.seeded_stream(bad)
