"""``Random.choice``'s and ``Random.shuffle``'s draws on the kernels' stream, and a stream
seeded from an int, are CPython's (``fast/draws.py``; issue 14)."""

from __future__ import annotations

import random

import pytest

from taverntable.fast import draws, stream
from taverntable.fast.jit import int_array


@pytest.mark.parametrize("seed", [0, 5, 2**33 + 1])
def test_randbelow_and_shuffle_draw_as_pythons_random(seed: int) -> None:
    """``Random._randbelow`` (``choice``) and ``Random.shuffle`` on the kernels' stream: the same
    numbers, the same order, and the generator left at the same place, across refills."""
    rng, reference = random.Random(seed), random.Random(seed)
    s = stream.stream_of(rng)
    bounds = [1, 2, 3, 5, 8, 13, 52, 1000, 2**31 + 1] * 60
    assert [draws.randbelow(s, n) for n in bounds] == [reference._randbelow(n) for n in bounds]
    items = int_array(list(range(40)))
    for count in (0, 1, 2, 17, 40):
        expected = [items[i] for i in range(count)]
        reference.shuffle(expected)
        draws.shuffle_prefix(s, items, count)
        assert [items[i] for i in range(count)] == expected
    stream.hand_back(s, rng)
    assert rng.random() == reference.random()


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**63 - 1, -7, 10**30])
def test_a_stream_seeded_from_an_int_is_that_seeds_random(seed: int) -> None:
    """``seeded_stream(seed)`` draws what ``random.Random(seed)`` draws (its 32-bit words of
    ``abs(seed)``): the lab and the arena hand the kernel seeds, not generators."""
    s = draws.seeded_stream(seed)
    reference = random.Random(seed)
    assert [stream.uniform(s) for _ in range(700)] == [reference.random() for _ in range(700)]
