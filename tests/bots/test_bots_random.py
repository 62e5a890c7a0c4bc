"""RandomBot: a uniformly random legal move, from the rng it is given."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from taverntable.bots.random_bot import RandomBot
from taverntable.games.tonk import TONK, TonkState


def test_random_bot_picks_only_legal_moves_and_uses_the_given_rng() -> None:
    state = TonkState.deal(TONK, 3, rng=5, dealer=2)
    view = state.view(state.current_seat or 0)
    bot = RandomBot()
    picks = [bot.choose(view, random.Random(9)) for _ in range(5)]
    assert len(set(picks)) == 1  # same rng seed, same move
    counts = Counter(bot.choose(view, random.Random(k)) for k in range(3000))
    assert set(counts) == set(view.legal_moves)
    assert min(counts.values()) > 3000 / len(counts) * 0.85


def test_random_bot_refuses_a_view_without_legal_moves() -> None:
    state = TonkState.deal(TONK, 3, rng=5, dealer=2)
    not_on_turn = state.view(((state.current_seat or 0) + 1) % 3)
    with pytest.raises(ValueError, match="no legal move"):
        RandomBot().choose(not_on_turn, random.Random(1))
