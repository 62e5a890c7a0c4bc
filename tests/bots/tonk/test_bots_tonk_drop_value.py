"""The hard level's drop (T6) weighed against the measured value of playing on (``drop_value``)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from taverntable.bots.tonk import drop_value
from taverntable.bots.tonk.drop_value import FEATURES, VERSION, features, read_models
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.bots.tonk.watcher import TonkWatcherBot
from taverntable.games import get_game
from taverntable.games.tonk import Drop, TonkState, TonkView
from taverntable.games.tonk.movegen import START

DROP = Drop()


def drop_decisions(preset: str, players: int, seeds: range) -> Iterator[TonkView]:
    """Views at each turn start with a legal drop (T6) of heuristic self-play."""
    game = get_game(preset)
    bot = TonkHeuristicBot(samples=8)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.start(game.rules(), players, rng=rng, dealer=0)
        assert isinstance(state, TonkState)
        while (seat := state.current_seat) is not None:
            view = state.view(seat)
            if state.phase == START and DROP in view.legal_moves:
                yield view
            state.apply(bot.choose(view, rng))


@pytest.mark.parametrize(("preset", "players"), [("tonk", 3), ("tor", 4)])
def test_the_shipped_model_loads_for_the_measured_tables(preset: str, players: int) -> None:
    models = drop_value.shipped_models()
    coef = models[f"{preset}/{players}"]
    assert len(coef) == len(FEATURES) + 1
    assert coef[1 + FEATURES.index("gain")] > 0  # a better drop is never less worth making


def test_a_drop_value_file_of_another_version_or_shape_is_refused() -> None:
    good = {
        "version": VERSION,
        "features": list(FEATURES),
        "cells": {"tonk/3": {"coef": [0.0] * (len(FEATURES) + 1)}},
    }
    assert read_models(json.loads(json.dumps(good)))["tonk/3"] == (0.0,) * (len(FEATURES) + 1)
    with pytest.raises(ValueError, match="version"):
        read_models({**good, "version": VERSION + 1})
    with pytest.raises(ValueError, match="coefficients"):
        read_models({**good, "cells": {"tonk/3": {"coef": [0.0, 1.0]}}})


def test_a_table_without_a_model_keeps_the_expected_gain() -> None:
    # pagat was not measured: the watcher weighs its drop against nothing, as before (T6).
    for view in drop_decisions("pagat", 3, range(4)):
        assert drop_value.drop_advantage(view, [0.2, 0.3]) is None
        new = TonkWatcherBot().drop_gain(view, random.Random(0))
        old = TonkWatcherBot(play_on=False).drop_gain(view, random.Random(0))
        assert new == old


def test_T6_the_features_are_the_expected_gain_and_the_views_facts() -> None:
    view = next(drop_decisions("tonk", 3, range(1)))
    f = dict(zip(FEATURES, features(view, [0.1, 0.5]), strict=True))
    assert f["gain"] == pytest.approx(2 * 0.9 * 0.5 - 2 * 0.6)
    assert f["sum_p"] == pytest.approx(0.6) and f["max_p"] == 0.5
    assert f["total"] == view.total() and f["stock"] == view.stock_size
    assert f["cards"] == view.hand.bit_count()


@pytest.mark.parametrize(("preset", "players"), [("tonk", 3), ("tor", 4)])
def test_T6_the_watcher_drops_where_the_value_of_playing_on_says_so(
    preset: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With a model "drop − play on = expected gain + c", the watcher drops where the old rule
    # (expected gain above 0) would not when c > 0, and declines drops it made when c < 0.
    gain_at = 1 + FEATURES.index("gain")
    flipped = {+1: 0, -1: 0}
    for view in drop_decisions(preset, players, range(30)):
        old_bot = TonkWatcherBot(play_on=False)
        old = old_bot.drop_gain(view, random.Random(0))
        if not -0.5 < old < 0.5:
            continue
        for c in (+0.5, -0.5):
            coef = [0.0] * (len(FEATURES) + 1)
            coef[0], coef[gain_at] = c, 1.0
            monkeypatch.setattr(
                drop_value, "shipped_models", lambda coef=coef: {f"{preset}/{players}": tuple(coef)}
            )
            bot = TonkWatcherBot()
            assert bot.drop_gain(view, random.Random(0)) == pytest.approx(old + c)
            dropped = bot.choose(view, random.Random(0)) == DROP
            assert dropped == (old + c > 0)
            if dropped != (old > 0):
                flipped[+1 if c > 0 else -1] += 1
    assert flipped[+1] >= 2 and flipped[-1] >= 2


@pytest.mark.parametrize(("preset", "players"), [("tonk", 3), ("tor", 4)])
def test_T6_the_shipped_model_is_the_one_the_watcher_reads(preset: str, players: int) -> None:
    # The watcher's drop gain is the shipped model's advantage of its catch chances; the
    # shipped tables keep the measured best rule (docs/bots.md: tonk's fitted 0.35 threshold
    # lost against medium seats), so its drops are the rule before's.
    compared = 0
    for view in drop_decisions(preset, players, range(20)):
        bot = TonkWatcherBot()
        advantage = bot.drop_gain(view, random.Random(0))
        if not -3 < advantage < 3:
            continue
        probs = bot.catch_probabilities(view, random.Random(0))
        assert advantage == pytest.approx(drop_value.drop_advantage(view, probs))
        old = TonkWatcherBot(play_on=False).choose(view, random.Random(0))
        assert bot.choose(view, random.Random(0)) == old
        compared += 1
    assert compared >= 10
