"""Tonk's kernel plays the same games as the checking engine (issue 14): the differential test
over every preset and rule option at 2 to 10 players, the refusal of an option it does not play,
and the pure-Python fallback."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import dataclass, fields

import pytest

from taverntable.engine import play_out, random_policy
from taverntable.fast.differential import compare_tables, rule_sets, tables
from taverntable.fast.jit import PURE_ENV
from taverntable.fast.played import UnsupportedRules
from taverntable.games.tonk import PRESETS, TonkRules, TonkState
from taverntable.games.tonk.fast import kernel
from taverntable.games.tonk.fast.differential import SUBJECT, compare
from taverntable.games.tonk.fast.play import PLAYED, option_codes, random_deals
from taverntable.options import option_values

FLIPS = rule_sets(SUBJECT)


@pytest.mark.parametrize("rules", FLIPS, ids=repr)
def test_fast_random_play_makes_the_engines_moves_and_results(rules: TonkRules) -> None:
    """T3–T11: every preset and every preset with one option changed, 2 to 10 players, random
    play and random play without drops: each move (in the engine's legal-move order) and each
    result (end, winners, totals, net) agree."""
    for part in SUBJECT.parts:
        table_list = [t for t in tables(SUBJECT) if t.rules == rules]
        found = compare_tables(part.compare, table_list, 72, seed=11)
        assert found.difference is None, found.difference
        assert found["deals"] == 72


def test_every_rule_option_combination_is_compared() -> None:
    """Every combination of the options the kernel plays, their values read from TonkRules."""
    rules = rule_sets(SUBJECT, every=True)
    values = option_values(TonkRules)
    assert len(rules) == 3 * 2**6 == len(set(rules))
    assert len(rules) == len({tuple(getattr(r, o) for o in PLAYED.options) for r in rules})
    assert {name for name in values if len({getattr(r, name) for r in rules}) > 1} == set(
        PLAYED.options
    )
    every = tables(SUBJECT, every=True)
    for part in SUBJECT.parts:
        found = compare_tables(part.compare, every, len(every) // 2, seed=5)
        assert found.difference is None, found.difference
        assert found["deals"] == len(every) == 9 * len(rules)


def test_every_rule_option_is_played_by_the_kernel_or_cannot_change_a_deal() -> None:
    """A new option of TonkRules fails here until the kernel plays it (and the differential test
    compares it) or it is shown not to change a deal (``PLAYED.ignored``)."""
    assert PLAYED.unknown(TonkRules) == []
    assert set(PLAYED.options) | set(PLAYED.ignored) == {f.name for f in fields(TonkRules)}


def test_a_rule_option_the_kernel_does_not_know_is_refused_so_the_engine_plays_it() -> None:
    """A rule set with an option the kernel does not play (one added to ``TonkRules`` after it)
    is refused in one line, unless the option has its default value: callers fall back to the
    engine instead of playing other rules."""

    @dataclass(frozen=True, kw_only=True, slots=True)
    class Newer(TonkRules):
        double_on_spades: bool = False

    option_codes(Newer(preset="tonk", deal_wins="tonk"))
    newer = Newer(preset="tonk", deal_wins="tonk", double_on_spades=True)
    assert PLAYED.unknown(Newer) == ["double_on_spades"] and not PLAYED.plays(newer)
    with pytest.raises(UnsupportedRules, match="double_on_spades=True; play such games on the"):
        random_deals(newer, 3, random.Random(1), 1)


def test_the_comparison_sees_a_different_game() -> None:
    """The differential test can fail: the engine's deals from another seed are told apart."""
    rules = PRESETS["tonk"]
    fast = random_deals(rules, 3, random.Random(1), 5, record=True)
    rng = random.Random(2)
    state = TonkState.deal(rules, 3, rng=rng, dealer=0)
    play_out(state, random_policy, rng)
    first = next(fast.deals())
    assert first.history != tuple(m for _, m in state.history)


def test_fast_play_leaves_the_rng_where_the_engine_leaves_it() -> None:
    rules = PRESETS["pagat"]
    fast_rng, engine_rng = random.Random(8), random.Random(8)
    random_deals(rules, 4, fast_rng, 50, first_dealer=2, stake=3)
    for g in range(50):
        state = TonkState.deal(rules, 4, rng=engine_rng, dealer=(2 + g) % 4, stake=3)
        play_out(state, random_policy, engine_rng)
    assert fast_rng.random() == engine_rng.random()


def test_a_batch_longer_than_its_first_room_for_moves_is_played_again_whole() -> None:
    """Recorded moves that overflow the first buffer (64 a deal): the batch is replayed with
    more room and still gives the engine's games (deals without drops run to the stock's end)."""
    comparison = compare(PRESETS["pagat"], 2, seed=3, games=40, drops=False)
    assert comparison["moves"] > 64 * 40
    assert comparison.difference is None, comparison.difference


def test_random_play_ends_by_drops_and_play_without_drops_reaches_every_other_end() -> None:
    """T4, T6, T10, T11: the two policies of the comparison between them reach every way a
    deal ends, and every result's payments sum to zero (T2)."""
    ends = set()
    for preset in PRESETS:
        for drops in (True, False):
            deals = list(
                random_deals(PRESETS[preset], 3, random.Random(4), 2000, drops=drops).deals()
            )
            assert all(sum(d.net) == 0 for d in deals)
            ends |= {d.end for d in deals}
    assert ends == set(kernel.END_KINDS) - {"void"}


def test_a_void_deal_is_played_as_the_engine_plays_it() -> None:
    """T4 (pagat): two hands of 49 or 50 void the deal; rare, so a seed whose first deal of ten
    players is one (found by searching; tor's void, two royal hands, is about 4e-9 a deal and
    out of random play's reach)."""
    first = next(random_deals(PRESETS["pagat"], 10, random.Random(29), 1).deals())
    assert first.end == "void" and first.net == (0,) * 10 and first.winners == ()
    comparison = compare(PRESETS["pagat"], 10, seed=29, games=50)
    assert comparison.difference is None, comparison.difference


def test_bad_tables_are_refused_as_the_engine_refuses_them() -> None:
    with pytest.raises(Exception, match="T2"):
        random_deals(PRESETS["tonk"], 11, random.Random(1), 1)
    with pytest.raises(ValueError, match="dealer"):
        random_deals(PRESETS["tonk"], 3, random.Random(1), 1, first_dealer=3)


def test_the_pure_python_fallback_plays_the_same_games() -> None:
    """Where numba is missing (forced here by the environment variable) the kernels run as
    Python and the differential comparison still finds the engine's games."""
    env = {**os.environ, PURE_ENV: "1"}
    command = ["--deals", "1728", "--whole", "1728", "--seed", "9"]  # one deal a table each
    done = subprocess.run(
        [sys.executable, "-m", SUBJECT.module, *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "random deals: 1,728 deals" in done.stdout
    assert "random deals without drops: 1,728 deals" in done.stdout
    assert done.stdout.count("the same on both paths (fast path pure Python") == 2
