"""The Three Towers heuristic in the kernel makes the Python bot's decisions (issue 14): whole
heuristic games over every seating and a flipped option, decisions at positions of random play
(every decision phase: trades' answers R5–R7, defences R9, the Witch's naming R9, the redeal
choices R10, the ♣ and dark bonus choices R13), on the view only, the pure-Python fallback, and
the bench beside the engine's."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from taverntable.bots.three_towers.fast import differential
from taverntable.bots.three_towers.fast.differential import SUBJECT
from taverntable.bots.three_towers.fast.games import decision, heuristic_games
from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.cli import main as tavern
from taverntable.engine import play_out
from taverntable.fast.differential import Comparison, Table, tables
from taverntable.fast.jit import PURE_ENV
from taverntable.games.three_towers import THREE_TOWERS, TowersState
from taverntable.games.three_towers.fast.play import random_games
from taverntable.games.three_towers.view import view_of

from three_towers_helpers import a_share

DECISION_PHASES = {"turn", "answer", "defend", "name", "queens", "kings", "club", "dark"}


@pytest.mark.parametrize(
    "table", tables(SUBJECT, fixed={"max_rounds": 3}), ids=lambda t: f"{t.players}p-{t.rules!r}"
)
def test_kernel_heuristic_games_are_the_engines_move_for_move(table: Table) -> None:
    """12 games a table (240 in all): every step, the result and the generator's place."""
    c = differential.compare_games(table, seed=31, games=12)
    assert c.difference is None, c.difference
    assert c["games"] == 12 and c["moves"] > 12 * 20


def test_games_played_to_three_towers_are_the_engines() -> None:
    """R14: no round limit; the game ends when a seat (a pair, R15) has three towers."""
    # A third of the tables: R34 and R35 tripled the combinations; the share still meets every
    # option's every value at every seating (the whole set: the module's long run).
    every = a_share(tables(SUBJECT, every=True, fixed={"max_rounds": None}), 3, seed=1)
    for i, table in enumerate(t for t in every if not t.rules.own_store_visible):
        c = differential.compare_games(table, seed=500 + i, games=1)
        assert c.difference is None, c.difference


def test_kernel_decisions_are_the_bots_at_random_play_positions() -> None:
    """Every decision phase is met, on every seating and option combination, and the kernel
    decides the same on a world sampled from the seat's view (it reads only the view)."""
    found = Comparison()
    # A third of the tables (as above: a CI-sized share of R34's and R35's combinations).
    every = a_share(tables(SUBJECT, every=True, fixed={"max_rounds": 3}), 3, seed=2)
    # 100 positions at every table, then on (at most two rounds more) until every phase is met.
    for i, table in enumerate(every * 3):
        if i >= len(every) and set(found.kinds) == DECISION_PHASES:
            break
        found.add(differential.compare_decisions(table, 70 + i, 100))
        assert found.difference is None, found.difference
    assert set(found.kinds) == DECISION_PHASES, found.kinds
    assert found["positions"] >= 64 * 100


def test_the_comparison_sees_a_different_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The differential test can fail: random games in place of the kernel's heuristic games
    are told apart at their first different move."""
    monkeypatch.setattr(differential, "heuristic_games", random_games)
    c = differential.compare_games(Table(THREE_TOWERS.with_options(max_rounds=1), 3), 3, 2)
    assert c.difference is not None and "(seat, move): step 3 differs" in c.difference


def test_decision_is_the_bots_choice_at_each_move_of_a_heuristic_game() -> None:
    rng = random.Random(12)
    state = TowersState.start(THREE_TOWERS, 4, rng=rng, dealer=1)
    bot = ThreeTowersHeuristicBot()
    checked = 0
    while state.result is None and checked < 150:
        seat = state.current_seat
        if seat is None or seat < 0:
            state.apply(state.sample_chance(rng))
            continue
        move = bot.choose(view_of(state, seat), rng)
        assert decision(state) == move, (len(state.history), state.phase)
        state.apply(move)
        checked += 1
    assert checked == 150


def test_heuristic_games_leave_the_rng_where_the_engine_leaves_it() -> None:
    rules = THREE_TOWERS.with_options(max_rounds=2, teams=True)
    fast_rng, engine_rng = random.Random(8), random.Random(8)
    heuristic_games(rules, 4, fast_rng, 5, first_dealer=3)
    bots = [ThreeTowersHeuristicBot() for _ in range(4)]
    for g in range(5):
        state = TowersState.start(rules, 4, rng=engine_rng, dealer=(3 + g) % 4)
        play_out(state, bots, engine_rng)
    assert fast_rng.random() == engine_rng.random()


def test_the_pure_python_fallback_makes_the_same_decisions() -> None:
    """Where numba is missing (forced here) the kernel runs as Python, the same decisions: on
    CI's tables (`--flips`: each option's every value on its own, R34 with the R32 it needs),
    with more games a table than one; the compiled path's tests above meet the combinations."""
    env = {**os.environ, PURE_ENV: "1"}
    count = 8 * len(tables(SUBJECT, fixed={"max_rounds": 3}))  # 8 games, 40 decisions a table
    command = ["--flips", "--games", str(count), "--positions", str(5 * count), "--seed", "4"]
    done = subprocess.run(
        [sys.executable, "-m", SUBJECT.module, *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"heuristic games (max_rounds 3): {count:,} games" in done.stdout
    assert f"{5 * count:,} positions" in done.stdout
    assert "the same on both paths (fast path pure Python" in done.stdout


def test_bench_reports_heuristic_games_on_both_paths_and_their_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        tavern(
            [
                "bench",
                "--seconds",
                "0.5",
                "--only",
                "heuristic-three-towers,fast-heuristic-three-towers",
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    engine, fast = report["heuristic-three-towers"], report["fast-heuristic-three-towers"]
    assert fast["engine_ratio"] == pytest.approx(fast["moves_per_s"] / engine["moves_per_s"])
    assert engine["players"] == fast["players"] == 3.0
    # The same games from the same seed: the engine's first games are the kernel's first.
    assert fast["moves_per_game"] == pytest.approx(engine["moves_per_game"], rel=0.25)
