"""The hard bot's playout loop runs in kernels that count no references (``fast.jit``'s
``plain_kernel`` and ``inline_kernel``: numba's ``_nrt=False``), and the two kernels on its path
that allocate (``_count``'s points through ``_count_round``, ``_steal``'s sample) ask for it
themselves (``counted_kernel``): numba compiles a kernel with its caller's setting unless the
kernel sets its own, so one allocating kernel without its own setting would fail to compile
under a plain caller, and one plain kernel missing would pay the counts again. The games
themselves are held to the engine's and the Python bot's by the differential tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from taverntable.bots.three_towers.fast import heuristic as h
from taverntable.bots.three_towers.fast import playouts as p
from taverntable.bots.three_towers.fast import worlds as w
from taverntable.fast import stream
from taverntable.fast.jit import COMPILED
from taverntable.games.three_towers.fast import kernel as k

# A playout's every step: the loop, the moves, the transitions, the chance steps, the stream.
PLAIN: tuple[Callable[..., Any], ...] = (
    p.play_to_count,
    k.legal_moves,
    k.apply_move,
    k.chance_step,
    k._end_turn,
    k._end_round,
    k._deal,
    k._shuffle_deck,
    h.decide_into,
    w.deal_world,
    w._reward,
    stream.mt_uint32,
    stream.mt_random,
    stream.seed_into,
)
COUNTED: tuple[Callable[..., Any], ...] = (k._count_round, k._steal)


def _nrt(fn: Callable[..., Any]) -> object:
    """The reference counting numba was told for ``fn`` (None: its caller's)."""
    options: dict[str, object] = getattr(fn, "targetoptions", {})
    return options.get("_nrt")


@pytest.mark.parametrize("fn", PLAIN, ids=lambda fn: fn.__name__)
def test_the_playouts_kernels_count_no_references(fn: Callable[..., Any]) -> None:
    if COMPILED:
        assert _nrt(fn) is False
    else:  # the pure-Python fallback: the function itself
        assert not hasattr(fn, "targetoptions")


@pytest.mark.parametrize("fn", COUNTED, ids=lambda fn: fn.__name__)
def test_the_allocating_kernels_under_them_count_their_own(fn: Callable[..., Any]) -> None:
    if COMPILED:
        assert _nrt(fn) is True
    else:
        assert not hasattr(fn, "targetoptions")
