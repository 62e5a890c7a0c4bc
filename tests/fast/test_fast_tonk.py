"""The fast path plays the same Tonk games as the checking engine (issue 14): the random stream,
the differential test over every preset and rule option at 2 to 10 players, and the pure-Python
fallback."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from taverntable.engine import play_out, random_policy
from taverntable.fast import stream, tonk_kernel
from taverntable.fast.differential import compare, compare_many, option_sets, presets_and_flips
from taverntable.fast.jit import COMPILED, PURE_ENV
from taverntable.fast.tonk import random_deals
from taverntable.games.tonk import PRESETS, TonkState


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 7])
def test_the_kernels_stream_is_pythons_random_across_refills(seed: int) -> None:
    rng = random.Random(seed)
    reference = random.Random(seed)
    s = stream.stream_of(rng)
    # 1,500 doubles use 3,000 words: the 624-word state is refilled (twisted) four times.
    assert [stream.uniform(s) for _ in range(1500)] == [reference.random() for _ in range(1500)]
    stream.hand_back(s, rng)
    assert rng.random() == reference.random()


@pytest.mark.parametrize("rules", presets_and_flips(), ids=repr)
def test_fast_random_play_makes_the_engines_moves_and_results(rules: object) -> None:
    """T3–T11: every preset and every preset with one option changed, 2 to 10 players: each
    move (in the engine's legal-move order) and each result (end, winners, totals, net) agree."""
    for comparison in compare_many([rules], games=144, seed=11):  # type: ignore[list-item]
        assert comparison.difference is None, comparison.difference
        assert comparison.games == 8


def test_every_rule_option_combination_is_compared() -> None:
    rules = option_sets()
    assert len(rules) == 3 * 2**6 == len(set(rules))
    comparisons = list(compare_many(rules, games=3456, seed=5))
    assert all(c.difference is None for c in comparisons), next(
        c.difference for c in comparisons if c.difference
    )
    assert len(comparisons) == 3456 and sum(c.games for c in comparisons) == 3456


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
    assert comparison.moves > 64 * 40
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
    assert ends == set(tonk_kernel.END_KINDS) - {"void"}


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
    code = (
        "from taverntable.fast.differential import main; "
        "raise SystemExit(main(['--games', '1728', '--seed', '9']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the same on both paths (fast path pure Python" in done.stdout


def test_this_run_compiles_the_kernels_when_numba_is_installed() -> None:
    """CI installs the ``fast`` extra: the kernels it tests are the compiled ones."""
    try:
        import numba  # noqa: F401
    except ImportError:
        assert not COMPILED
    else:
        assert (os.environ.get(PURE_ENV, "") in ("", "0")) == COMPILED
