"""The Three Towers lab studies on the fast path (issue 14): a table of the heuristic alone is
played by the kernel and replayed by the engine (``bots/three_towers/fast/play_out.py``), and
every row and record is the one the engine's own play writes — over each table size, team play
(R15), the defence option (R9), the proposed R28 and R29, and every ``towers-options`` variant;
the move cap gives the same stalled game; ``TAVERNTABLE_FAST=0`` plays through the engine."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from taverntable.bots.three_towers.fast import play_out as towers_playout
from taverntable.bots.three_towers.fast.play_out import (
    Diverged,
    fast_table,
    heuristic_seats,
    play_out_heuristic,
)
from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.engine import Event, play_out
from taverntable.fast.jit import FAST_ENV, fast_bots_on
from taverntable.games.three_towers import TowersState, rules_from
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.seeds import game_seed
from taverntable.lab.core.studies import get_study, play_function
from taverntable.lab.studies.towers_bots import lab_bot
from taverntable.lab.studies.towers_options import VARIANTS as OPTION_VARIANTS

pytestmark = pytest.mark.skipif(not fast_bots_on(), reason="numba does not compile the kernels")


def rows_on_both_paths(config: StudyConfig, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The JSON of every game's row and records, with the fast path off ("0") and on ("1")."""
    play = play_function(get_study(config.study))
    texts = {}
    for fast in ("0", "1"):
        monkeypatch.setenv(FAST_ENV, fast)
        texts[fast] = json.dumps(
            [play(config, i, game_seed(config.seed, i)) for i in range(config.games)]
        )
    return texts


@pytest.mark.parametrize(
    ("players", "options"),
    [
        ((2, 3, 4), {}),
        ((4,), {"teams": True}),  # R15
        ((2, 4), {"defence": "any"}),  # R9
        ((2, 3), {"nobility_points": 5, "tower_goal": 40}),  # R28, R29 proposed
    ],
    ids=["sizes", "teams", "defence-any", "nobility-goal"],
)
def test_towers_play_rows_and_records_are_the_engines(
    players: tuple[int, ...],
    options: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    study = get_study("towers-play")
    config = study.config(
        games=2 * len(players),
        players=players,
        seed=7,
        records=True,
        options={**study.config().options, **options},
    )
    texts = rows_on_both_paths(config, monkeypatch)
    assert texts["0"] == texts["1"]
    assert texts["1"].count('"action_points"') == config.games  # whole rows, none stalled
    assert texts["1"].count('"moves"') == config.games  # and a record of each game


def test_every_towers_options_variant_writes_the_engines_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = get_study("towers-options").config(seed=3, records=True)
    # One game of each variant (the small size is one pass through the table).
    assert config.games == len(config.variants) == len(OPTION_VARIANTS)
    texts = rows_on_both_paths(config, monkeypatch)
    assert texts["0"] == texts["1"]
    assert texts["1"].count('"variant"') == len(OPTION_VARIANTS)


def test_the_fast_path_makes_no_bot_decision_and_fast_0_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The switch: with ``TAVERNTABLE_FAST=0`` the Python bot decides every move, otherwise the
    kernel does and the bot is never asked."""
    asked = []
    choose = ThreeTowersHeuristicBot.choose

    def counting(self: ThreeTowersHeuristicBot, view: Any, rng: random.Random) -> Any:
        asked.append(view.seat)
        return choose(self, view, rng)

    monkeypatch.setattr(ThreeTowersHeuristicBot, "choose", counting)
    config = get_study("towers-play").config(games=1, players=(2,), seed=5)
    play = play_function(get_study("towers-play"))
    monkeypatch.setenv(FAST_ENV, "1")
    play(config, 0, game_seed(5, 0))
    assert asked == []
    monkeypatch.setenv(FAST_ENV, "0")
    play(config, 0, game_seed(5, 0))
    assert len(asked) > 20


def test_only_the_registry_heuristic_takes_the_fast_path() -> None:
    assert heuristic_seats([lab_bot("heuristic"), lab_bot("heuristic")])
    assert not heuristic_seats([lab_bot("heuristic"), lab_bot("no-redeals")])
    assert not heuristic_seats([lab_bot("heuristic"), lab_bot("random")])


def test_rules_the_kernel_does_not_play_and_fast_0_take_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = TowersState.start(
        rules_from("three-towers", tower_goal=40), 2, rng=random.Random(1), dealer=0
    )  # R29 proposed
    bots = [lab_bot("heuristic")] * 2
    monkeypatch.setenv(FAST_ENV, "1")
    assert fast_table(state, bots)
    # An option the kernel did not know would be refused (UnsupportedRules): the engine plays.
    played = towers_playout.PLAYED
    known = tuple(o for o in played.options if o != "tower_goal")
    monkeypatch.setattr(towers_playout, "PLAYED", dataclasses.replace(played, options=known))
    assert not fast_table(state, bots)
    monkeypatch.undo()
    monkeypatch.setenv(FAST_ENV, "0")
    assert not fast_table(state, bots)


def engine_and_fast(players: int, seed: int, cap: int | None, checked: bool) -> list[Any]:
    """Both paths of one game: PlayedOut, history, every move's events, the generator's place."""
    out = []
    rules = rules_from("three-towers", max_rounds=4)
    for fast in (False, True):
        rng = random.Random(seed)
        state = TowersState.start(rules, players, rng=rng, dealer=0)
        seen: list[tuple[int, Any, tuple[Event, ...]]] = []

        def keep(seat: int, move: Any, events: Any, seen: list[Any] = seen) -> None:
            seen.append((seat, move, tuple(events)))

        if fast:
            played = play_out_heuristic(state, rng, max_moves=cap, on_move=keep, checked=checked)
        else:
            played = play_out(
                state, [ThreeTowersHeuristicBot()] * players, rng, max_moves=cap, on_move=keep
            )
        out.append((played, state.history, state.result, seen, rng.random()))
    return out


@pytest.mark.parametrize("checked", [True, False])
def test_a_capped_game_stops_where_play_out_stops_it(checked: bool) -> None:
    """``max_moves`` counts decisions, as ``play_out`` does: a game stopped there is stalled
    (``capped``) on both paths, at the same position, after the same events; a cap of exactly
    the game's length stops nothing."""
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        engine, fast = engine_and_fast(players, seed, None, checked)
        assert fast == engine and not engine[0].capped
        length = engine[0].moves
        for cap in (1, length // 2, length - 1, length):
            engine, fast = engine_and_fast(players, seed, cap, checked)
            assert fast == engine
            assert engine[0].capped == (cap < length) and engine[0].moves == cap


def test_a_kernel_game_that_is_not_the_engines_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chance steps drawn from another stream than the engine's: the replay stops with Diverged
    instead of playing some other game."""
    real = towers_playout.stream_of
    monkeypatch.setattr(towers_playout, "stream_of", lambda rng: real(random.Random(99)))
    state = TowersState.start(
        rules_from("three-towers", max_rounds=3), 2, rng=random.Random(1), dealer=0
    )
    with pytest.raises(Diverged):
        play_out_heuristic(state, random.Random(1))
