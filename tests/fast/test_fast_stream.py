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
