"""The heuristic and random Tonk bots on the fast path (issue 14): the kernel's heuristic makes
the engine's heuristic decision on the same view with the same draws from the generator, and
whole bot deals in the kernel are the engine's ``play_out`` deals move for move (T3-T11)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass

import pytest

from heuristic_games import FIXTURE, TABLES
from taverntable.bots.random_bot import RandomBot
from taverntable.bots.tonk.fast.deals import decision, fast_seat, fast_seats, fast_table, play_deal
from taverntable.bots.tonk.fast.differential import (
    HEURISTIC_SEAT,
    SUBJECT,
    compare_deals,
    compare_decisions,
)
from taverntable.bots.tonk.fast.heuristic import HEURISTIC, RANDOM
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.bots.tonk.reader import TonkReaderBot
from taverntable.fast.differential import Comparison, Table, rule_sets
from taverntable.fast.jit import COMPILED, FAST_ENV, PURE_ENV
from taverntable.games.tonk import PRESETS, TonkRules, TonkState
from taverntable.games.tonk.rules import MAX_PLAYERS, MIN_PLAYERS

from tonk_helpers import play, stacked


def tables(rules_list: list[TonkRules]) -> list[Table]:
    """Every rule set at 2 to 10 players."""
    return [Table(r, n) for r in rules_list for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]


def test_a_deal_from_seeds_is_the_deal_from_their_generators() -> None:
    seats = [HEURISTIC_SEAT, (RANDOM, 0, 0.0), HEURISTIC_SEAT, HEURISTIC_SEAT]
    for seed in range(30):
        by_seed = play_deal(PRESETS["tor"], 4, seats, deal_rng=seed, bot_rng=seed + 1)
        by_rng = play_deal(
            PRESETS["tor"], 4, seats, deal_rng=random.Random(seed), bot_rng=random.Random(seed + 1)
        )
        assert by_seed == by_rng
        one = random.Random(seed)
        assert play_deal(PRESETS["tor"], 4, seats, deal_rng=seed) == play_deal(
            PRESETS["tor"], 4, seats, deal_rng=one, bot_rng=one
        )


def test_heuristic_decisions_match_the_engine_over_thousands_of_positions() -> None:
    """T5-T11: every position of deals played by heuristic bots, by random play and by random
    play without drops, in every preset at 2 to 10 players: the same decision on the view, on a
    world sampled from the view, and the generator left at the same place."""
    found = Comparison()
    for i, table in enumerate(tables(list(PRESETS.values()))):
        found.add(compare_decisions(table, 100 + i, 200))
        assert found.difference is None, found.difference
    assert found["positions"] == 27 * 200
    # The drop and decline estimates shuffled the unseen cards.
    assert found["drew from the generator"] >= 600
    kinds = found.kinds
    for kind in (
        "drop",
        "draw stock",
        "draw pile",
        "spread",
        "hit",
        "discard",
        "stock empty: draw stock",
        "stock empty: draw pile",
    ):
        assert kinds[kind] >= 3, (kind, kinds)
    assert kinds["(end legal)"] >= 20  # T9 (tor): ending without a discard was weighed


def test_heuristic_decisions_match_with_each_rule_option_changed() -> None:
    """T1, T4, T6, T8-T11: each preset with one option changed (the deal wins, face values,
    hit_sets, hit_lock, the discard, tonk_out_double, stock_end), at 2, 5 and 9 players."""
    found = Comparison()
    flips = [r for r in rule_sets(SUBJECT) if r not in PRESETS.values()]
    assert len(flips) == 3 * 8  # two other deal wins (T4) and six other options, each preset
    for i, table in enumerate(Table(r, n) for r in flips for n in (2, 5, 9)):
        found.add(compare_decisions(table, 500 + i, 25))
        assert found.difference is None, found.difference
    assert found["positions"] == len(flips) * 3 * 25


TOR_OTHERS = ["10C 9C 3H 4S 9H", "QH 8C 6D 5H 7D"]
OTHERS = ["KC 10C 3C 2S 9H", "QH 8C 6D 2C 7D"]


def crafted() -> dict[str, tuple[TonkState, str]]:
    """Positions of the heuristic's own rule tests (``test_bots_heuristic``), with its move."""
    hits = ["7S 7D 7H 7C 9C", "4H 5D 6S 6H 2S", "QH 8C 6D 2C KD"]
    pile_hits = stacked("tonk", hits, upcard="KS", stock="10D")
    play(pile_hits, "draw stock", "spread 7S 7D 7H", "discard 7C")
    hit = stacked("tonk", hits, upcard="KS", stock="10D")
    play(hit, "draw stock", "spread 7S 7D 7H")
    best_spread = stacked("tonk", ["8S 9S 10S JS 2H", *OTHERS], upcard="QS", stock="3D")
    play(best_spread, "draw pile")
    near = stacked(
        "tonk", ["2C 3C 9D 9H QS", "KC 10C 4S 2S 9S", "QD 8H 6D 2D 7D"], upcard="5S", stock="KH"
    )
    play(near, "draw stock")
    tor_end = stacked("tor", ["KS KD KH AC 2C", *TOR_OTHERS], upcard="5S", stock="2D")
    play(tor_end, "draw stock", "spread KS KD KH")
    tor_discard = stacked("tor", ["KS KD KH AC 2C", *TOR_OTHERS], upcard="5S", stock="9D")
    play(tor_discard, "draw stock", "spread KS KD KH")
    return {
        "T6 drops a low hand": (stacked("tonk", ["AS 2H 3D 4C 6S", *OTHERS], upcard="KS"), "drop"),
        "T6 keeps a high hand": (
            stacked("tonk", ["9S 10H JD 4C 6S", *OTHERS], upcard="KS"),
            "draw stock",
        ),
        "T7 pile makes a spread": (
            stacked("tonk", ["8S 8D JD 3H KH", *OTHERS], upcard="8H"),
            "draw pile",
        ),
        "T7 low pile card": (
            stacked("tonk", ["8S 9D JD QH KH", "KC 10C 3C 2S 9H", "QD 8C 6D 2C 7D"], upcard="AC"),
            "draw pile",
        ),
        "T7 pile card hits": (pile_hits, "draw pile"),
        "T8 most points": (best_spread, "spread 8S 9S 10S JS QS"),
        "T8 hit": (hit, "hit 0 7C"),
        "T9 near spreads kept": (near, "discard KH"),
        "T9 tor ends": (tor_end, "end"),
        "T9 tor discards": (tor_discard, "discard 9D"),
    }


@pytest.mark.parametrize("name", list(crafted()))
def test_crafted_positions_get_the_engines_move(name: str) -> None:
    state, expected = crafted()[name]
    seat = state.current_seat
    assert seat is not None
    engine = TonkHeuristicBot().choose(state.view(seat), random.Random(1))
    assert str(engine) == expected
    assert decision(state, HEURISTIC_SEAT, random.Random(1)) == engine


def test_the_comparison_sees_a_different_decision() -> None:
    """The decisions compared can differ: another drop margin turns the drop down (T6), and
    another generator leaves a drop estimate's generator elsewhere."""
    state = stacked("tonk", ["AS 2H 3D 4C 6S", *OTHERS], upcard="KS")
    assert str(decision(state, (HEURISTIC, 48, 0.0), random.Random(1))) == "drop"
    assert str(decision(state, (HEURISTIC, 48, 5.0), random.Random(1))) == "draw stock"
    a, b = random.Random(1), random.Random(1)
    decision(state, (HEURISTIC, 48, 0.0), a)
    decision(state, (HEURISTIC, 7, 0.0), b)
    assert a.random() != b.random()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_bot_deals_match_the_engines_play_out(preset: str) -> None:
    """T3-T11: deals by all-heuristic tables, heuristic beside random seats and a heuristic
    with other settings, from one generator or two, at 2 to 10 players: every move, the result
    and both generators' places."""
    deals = moves = 0
    for i, table in enumerate(tables([PRESETS[preset]])):
        c = compare_deals(table, 40 + i, 16)
        assert c.difference is None, c.difference
        deals, moves = deals + c["deals"], moves + c["moves"]
    assert deals == 144 and moves > 800


def test_capped_bot_deals_stop_where_play_out_stops() -> None:
    """A deal stopped at the move cap (``play_out``'s max_moves) has made the same moves and
    is reported capped, without a result."""
    for i, table in enumerate(tables([PRESETS["pagat"], PRESETS["tor"]])):
        c = compare_deals(table, 70 + i, 4, max_moves=6)
        assert c.difference is None, c.difference
    fast = play_deal(
        PRESETS["pagat"],
        3,
        [HEURISTIC_SEAT] * 3,
        deal_rng=random.Random(2),
        bot_rng=random.Random(2),
        max_moves=2,
    )
    assert fast.capped and fast.moves == 2 and fast.end is None and fast.net == ()


def test_fast_deals_replay_the_yardstick_fixture() -> None:
    """The saved deals of four (or three, five) heuristic bots (``heuristic_games.json``)."""
    saved = json.loads(FIXTURE.read_text(encoding="utf-8"))
    for preset, players, seeds in TABLES:
        for seed in seeds:
            rng = random.Random(seed)
            deal = play_deal(
                PRESETS[preset],
                players,
                [HEURISTIC_SEAT] * players,
                deal_rng=rng,
                bot_rng=rng,
                dealer=0,
            )
            assert [f"{s}: {m}" for s, m in deal.history] == saved[f"{preset}/{players}/{seed}"]


def test_only_the_heuristic_and_random_bots_have_a_fast_form() -> None:
    """A subclass of the heuristic (the reader decides drops otherwise) stays on the engine."""
    assert fast_seat(TonkHeuristicBot(samples=9, drop_margin=0.25)) == (HEURISTIC, 9, 0.25)
    assert fast_seat(RandomBot()) == (RANDOM, 0, 0.0)
    assert fast_seat(TonkReaderBot()) is None
    assert fast_seats([TonkHeuristicBot(), TonkReaderBot()]) is None


def test_bad_tables_are_refused() -> None:
    seats = [HEURISTIC_SEAT] * 3
    rng = random.Random(1)
    with pytest.raises(ValueError, match="3 bots for 4 seats"):
        play_deal(PRESETS["tonk"], 4, seats, deal_rng=rng, bot_rng=rng)
    with pytest.raises(ValueError, match="dealer"):
        play_deal(PRESETS["tonk"], 3, seats, deal_rng=rng, bot_rng=rng, dealer=3)
    with pytest.raises(Exception, match="T2"):
        play_deal(PRESETS["tonk"], 11, seats * 4, deal_rng=rng, bot_rng=rng)


def test_the_pure_python_fallback_makes_the_same_decisions_and_deals() -> None:
    """Without numba (forced by the environment variable) the kernels run as Python, drawing
    from the caller's own generator, and still match the engine."""
    env = {**os.environ, PURE_ENV: "1"}
    command = ["--positions", "400", "--deals", "400", "--seed", "3", "--flips"]
    done = subprocess.run(
        [sys.executable, "-m", SUBJECT.module, *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "heuristic decisions: 486 positions" in done.stdout  # two at each of 243 tables
    assert "bot deals: 486 deals" in done.stdout
    assert done.stdout.count("the same on both paths (fast path pure Python") == 2


def test_the_lab_and_the_arena_leave_rules_the_kernel_does_not_play_to_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``fast_table``: a deal of the heuristic and the random bot is the kernel's only when the
    switch is on and the kernel plays every option of its rules (``PLAYED``)."""

    @dataclass(frozen=True, kw_only=True, slots=True)
    class Newer(TonkRules):
        double_on_spades: bool = False

    bots = [TonkHeuristicBot(), RandomBot(), TonkHeuristicBot()]
    newer = Newer(preset="tonk", deal_wins="tonk", double_on_spades=True)
    monkeypatch.setenv(FAST_ENV, "1")
    assert fast_table(PRESETS["tonk"], bots) == (fast_seats(bots) if COMPILED else None)
    assert fast_table(Newer(preset="tonk", deal_wins="tonk"), bots) == fast_table(
        PRESETS["tonk"], bots
    )
    assert fast_table(newer, bots) is None
    assert fast_table(PRESETS["tonk"], [*bots, TonkReaderBot()]) is None
    monkeypatch.setenv(FAST_ENV, "0")
    assert fast_table(PRESETS["tonk"], bots) is None
