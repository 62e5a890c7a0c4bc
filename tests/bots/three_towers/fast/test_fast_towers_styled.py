"""The styled Three Towers heuristic in the kernel (issue 28 item 7) makes the Python styled
bot's decisions: whole games of styled seats over every seating of the styles and every
option the kernel plays, every style's choice of action (R1, A1–A4) at positions of random
play on the view only, and the lab plays styled tables on the fast path."""

from __future__ import annotations

import random

import pytest

from taverntable.bots.three_towers.fast import styled_differential as sd
from taverntable.bots.three_towers.fast.games import decision
from taverntable.bots.three_towers.fast.heuristic import STYLE_CODES
from taverntable.bots.three_towers.fast.play_out import fast_table, play_out_heuristic
from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.bots.three_towers.styles import STYLES
from taverntable.fast.differential import Comparison, Table, tables
from taverntable.fast.jit import COMPILED, FAST_ENV
from taverntable.games.three_towers import THREE_TOWERS, TowersState
from taverntable.games.three_towers.moves import Build, Raid
from taverntable.games.three_towers.view import view_of
from taverntable.lab.studies.towers_bots import lab_bot


def test_every_style_has_a_kernel_code() -> None:
    assert set(STYLE_CODES) == {"", *STYLES}
    assert sorted(STYLE_CODES.values()) == list(range(len(STYLES) + 1))


def test_the_rotation_seats_every_style_against_every_other_at_every_seat() -> None:
    met = {(sd.seating(2, g)[0], sd.seating(2, g)[1]) for g in range(50)}
    assert {(a, b) for a in sd.ALL_STYLES for b in sd.ALL_STYLES if a != b} <= met


@pytest.mark.parametrize(
    "table", tables(sd.SUBJECT, fixed={"max_rounds": 2}), ids=lambda t: f"{t.players}p-{t.rules!r}"
)
def test_styled_kernel_games_are_the_engines_move_for_move(table: Table) -> None:
    """Ten styled games a table: every step, the result and the generator's place."""
    c = sd.compare_styled_games(table, seed=41, games=10)
    assert c.difference is None, c.difference
    assert c["games"] == 10 and c["moves"] > 10 * 20


def test_every_styles_action_is_the_bots_at_random_play_positions() -> None:
    """Every style on every table, with builds, raids, curses, trades and redeals among the
    actions chosen (R28's nobility points make the noble's raids worth more)."""
    found = Comparison()
    for i, table in enumerate(tables(sd.SUBJECT, fixed={"max_rounds": 3})):
        found.add(sd.compare_styled_decisions(table, 90 + i, 40))
        assert found.difference is None, found.difference
    assert {"Build", "Add", "Raid", "Curse", "Trade"} <= set(found.kinds), found.kinds
    assert any(kind.startswith("Redeal") for kind in found.kinds), found.kinds


def test_the_comparison_sees_a_style_the_kernel_does_not_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The differential can fail: a kernel that plays the raider as the builder is caught, in
    games and in decisions."""
    swapped = {**STYLE_CODES, "raider": STYLE_CODES["builder"]}
    monkeypatch.setattr("taverntable.bots.three_towers.fast.play_out.STYLE_CODES", swapped)
    monkeypatch.setattr("taverntable.bots.three_towers.fast.games.STYLE_CODES", swapped)
    table = Table(THREE_TOWERS.with_options(max_rounds=2), 2)
    c = sd.compare_styled_games(table, 3, 10)
    assert c.difference is not None and "differs" in c.difference
    d = sd.compare_styled_decisions(table, 3, 200)
    assert d.difference is not None and "style raider" in d.difference


def test_a_raider_never_builds_and_a_builder_never_raids_in_the_kernels_games() -> None:
    rng = random.Random(5)
    state = TowersState.start(THREE_TOWERS.with_options(max_rounds=4), 2, rng=rng, dealer=0)
    play_out_heuristic(state, rng, styles=("raider", "builder"))
    moves = [(seat, move) for seat, move in state.history if seat >= 0]
    assert any(isinstance(m, Raid) for s, m in moves if s == 0)
    assert not any(isinstance(m, Build) for s, m in moves if s == 0)
    assert any(isinstance(m, Build) for s, m in moves if s == 1)
    assert not any(isinstance(m, Raid) for s, m in moves if s == 1)


def test_styled_decision_is_the_bots_choice_at_each_move() -> None:
    rng = random.Random(12)
    state = TowersState.start(THREE_TOWERS.with_options(nobility_points=5), 3, rng=rng, dealer=1)
    bots = [ThreeTowersHeuristicBot(style) for style in ("noble", "mixed", "raider")]
    checked = 0
    while state.result is None and checked < 120:
        seat = state.current_seat
        if seat is None or seat < 0:
            state.apply(state.sample_chance(rng))
            continue
        move = bots[seat].choose(view_of(state, seat), rng)
        assert decision(state, bots[seat].style) == move, (len(state.history), state.phase)
        state.apply(move)
        checked += 1
    assert checked == 120


def test_the_lab_plays_styled_tables_on_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    state = TowersState.start(THREE_TOWERS, 2, rng=random.Random(1), dealer=0)
    monkeypatch.setenv(FAST_ENV, "1")
    fast = COMPILED  # the switch takes the kernels only where numba compiled them
    assert fast_table(state, [lab_bot("raider"), lab_bot("heuristic")]) == (
        ("raider", "") if fast else None
    )
    assert fast_table(state, [lab_bot("heuristic:style=noble"), lab_bot("builder")]) == (
        ("noble", "builder") if fast else None
    )
    # A lab bot with a forbidden kind of action, and the hard bot, are not the kernel's.
    assert fast_table(state, [lab_bot("no-redeals"), lab_bot("heuristic")]) is None
    assert fast_table(state, [lab_bot("hard"), lab_bot("heuristic")]) is None
    monkeypatch.setenv(FAST_ENV, "0")
    assert fast_table(state, [lab_bot("raider"), lab_bot("heuristic")]) is None


def test_play_out_heuristic_refuses_styles_for_another_table() -> None:
    state = TowersState.start(THREE_TOWERS, 3, rng=random.Random(1), dealer=0)
    with pytest.raises(ValueError, match="2 styles for 3 seats"):
        play_out_heuristic(state, random.Random(1), styles=("raider", "builder"))
