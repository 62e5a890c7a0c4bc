"""The Tonk search's "heuristic-bot" playouts (the coach's): the kernel plays every seat as the
heuristic bot does through the engine, from the same positions and the same seeds, to the same
ends and rewards (T5-T11; the kernel's heuristic is held to the bot in
``test_fast_tonk_heuristic.py``, this holds the playout loop and its draw counts)."""

from __future__ import annotations

import random

import pytest

from taverntable.bots.tonk.search import TonkSearch
from taverntable.engine import play_out
from taverntable.fast.differential import rule_sets
from taverntable.fast.jit import COMPILED
from taverntable.games.tonk import TonkState
from taverntable.games.tonk.fast.differential import SUBJECT
from taverntable.games.tonk.fast.play import random_without_drops


def positions(count: int, seed: int) -> list[TonkState]:
    """Deals part-way (random moves without drops), over every option flip of every preset."""
    rules = rule_sets(SUBJECT)
    rng = random.Random(seed)
    out: list[TonkState] = []
    while len(out) < count:
        n = rng.randint(2, 6)
        state = TonkState.deal(rng.choice(rules), n, rng=rng, dealer=rng.randrange(n))
        play_out(state, random_without_drops, rng, max_moves=rng.randrange(60))
        if not state.is_over:
            out.append(state)
    return out


@pytest.mark.skipif(not COMPILED, reason="the kernel path needs numba (the fast extra)")
@pytest.mark.parametrize("horizon", [400, 9])
def test_T5_kernel_heuristic_bot_playouts_end_as_the_engines(horizon: int) -> None:
    kernel = TonkSearch(policy="heuristic-bot", fast=True, horizon=horizon)
    engine = TonkSearch(policy="heuristic-bot", fast=False, horizon=horizon)
    played = 0
    for i, position in enumerate(positions(150, seed=20261202)):
        if kernel.fast is None or not kernel.fast.plays(position.rules):
            continue
        mine, theirs = position.clone(), position.clone()
        kernel.playout(mine, random.Random(i))
        engine.playout(theirs, random.Random(i))
        assert kernel.rewards(mine) == pytest.approx(engine.rewards(theirs)), i
        played += 1
    assert played >= 100


def test_an_unknown_playout_policy_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="greedy, random, heuristic-bot"):
        TonkSearch(policy="clever")
