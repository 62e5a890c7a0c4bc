"""The Tonk search's greedy playouts on the fast path (issue 14): the kernel plays the same moves
as ``bots/tonk/policy.greedy_move`` from the same positions, and ISMCTS with kernel playouts
makes the same decisions with the same statistics."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from taverntable.bots.ismcts import search
from taverntable.bots.tonk.fast.greedy import greedy_playout
from taverntable.bots.tonk.policy import greedy_move
from taverntable.bots.tonk.search import TonkSearch
from taverntable.engine import play_out
from taverntable.fast.differential import rule_sets
from taverntable.fast.jit import int_array
from taverntable.games.tonk import PRESETS, TonkMove, TonkState
from taverntable.games.tonk.fast import kernel as k
from taverntable.games.tonk.fast.differential import SUBJECT
from taverntable.games.tonk.fast.play import move_of, random_without_drops
from taverntable.games.tonk.fast.state import load_state
from taverntable.games.tonk.rules import TonkRules

from tonk_helpers import random_game


def engine_playout(state: TonkState, horizon: int) -> list[TonkMove]:
    moves = []
    while not state.is_over and len(moves) < horizon:
        move = greedy_move(state)
        state.check(move)  # every greedy move is legal (the engine's check, T5-T11)
        state.apply_unchecked(move)
        moves.append(move)
    return moves


def positions(count: int, seed: int) -> list[TonkState]:
    """Positions of random deals (whole deals: no drops) part-way, over every option flip of
    every preset and 2 to 10 players."""
    rules: list[TonkRules] = rule_sets(SUBJECT)
    rng = random.Random(seed)
    out: list[TonkState] = []
    while len(out) < count:
        n = rng.randint(2, 10)
        state = TonkState.deal(rng.choice(rules), n, rng=rng, dealer=rng.randrange(n))
        play_out(state, random_without_drops, rng, max_moves=rng.randrange(120))
        if not state.is_over:
            out.append(state)
    return out


@pytest.mark.parametrize("horizon", [400, 7])
def test_kernel_greedy_playouts_make_the_engines_moves_and_results(horizon: int) -> None:
    """T5-T11: 1,500 positions played out by the greedy policy on both paths: the same moves,
    and where the deal ends the same end and net gains (``horizon`` cuts them short too)."""
    st, kinds, masks = (int_array(k.STATE_SIZE), int_array(k.MAX_LEGAL), int_array(k.MAX_LEGAL))
    record_kinds, record_masks = int_array(horizon), int_array(horizon)
    ends = set()
    for state in positions(750, seed=horizon):
        load_state(state, st)
        made = greedy_playout(st, horizon, kinds, masks, record_kinds, record_masks)
        engine = state.clone()
        expected = engine_playout(engine, horizon)
        assert [
            move_of(int(record_kinds[i]), int(record_masks[i])) for i in range(made)
        ] == expected
        assert (st[k.PHASE] == k.OVER) == engine.is_over
        if engine.result is not None:
            ends.add(engine.result.end)
            assert k.END_KINDS[st[k.END]] == engine.result.end
            assert tuple(int(st[k.NET + s]) for s in range(engine.num_players)) == engine.result.net
    if horizon == 400:
        assert {"drop", "burned", "out", "stock"} <= ends


@pytest.mark.parametrize(("preset", "players"), [("tonk", 3), ("tor", 4), ("pagat", 2)])
def test_ismcts_with_kernel_playouts_decides_as_with_engine_playouts(
    preset: str, players: int
) -> None:
    """The same worlds and the same playouts give the same visits, values and move (the tree
    in Python on both sides: ``fast=False`` keeps the compiled root search out)."""
    rng = random.Random(4)
    decided = 0
    for _ in range(40):
        state = random_game(PRESETS[preset], players, rng, max_moves=rng.randrange(1, 6))
        seat = state.current_seat
        if seat is None:
            continue
        view = state.view(seat)
        results = [
            search(
                TonkSearch(selective=False, fast=fast),
                view,
                random.Random(9),
                iterations=60,
                depth=1,
                fast=False,
            )
            for fast in (False, True)
        ]
        slow, fast = results
        assert (fast.move, fast.visits, fast.values) == (slow.move, slow.visits, slow.values)
        decided += 1
    assert decided >= 10


def test_kernel_playouts_leave_the_state_and_score_it_as_the_engine() -> None:
    rng = random.Random(12)
    for state in positions(40, seed=3):
        world = state.clone()
        before = (world.hands[:], world.stock[:], world.phase)
        fast, slow = TonkSearch(fast=True), TonkSearch(fast=False)
        fast.playout(world, rng)
        assert (world.hands, world.stock, world.phase) == before
        rewards = fast.rewards(world)
        slow.playout(world, rng)
        assert rewards == pytest.approx(slow.rewards(world))


@dataclass(frozen=True, kw_only=True, slots=True)
class NewerRules(TonkRules):
    """TonkRules with an option added after the kernel was written."""

    double_on_spades: bool = False


def test_a_search_under_rules_the_kernel_does_not_play_plays_out_on_the_engine() -> None:
    """A rule option the kernel does not know (``PLAYED``): the compiled playouts and root
    search step aside, so the search decides as the engine's playouts do instead of playing
    other rules (or failing)."""
    rules = NewerRules(preset="tonk", deal_wins="tonk", double_on_spades=True)
    fast, slow = TonkSearch(fast=True), TonkSearch(fast=False)
    assert fast.fast is not None and not fast.fast.plays(rules) and fast.fast.plays(PRESETS["tonk"])
    rng = random.Random(6)
    decided = 0
    while decided < 5:
        state = random_game(rules, 3, rng, max_moves=rng.randrange(1, 6))
        if state.current_seat is None:
            continue
        view = state.view(state.current_seat)
        assert fast.root_runner(view, view.legal_moves, 1.0, random.Random(1)) is None
        a, b = (
            search(s, view, random.Random(9), iterations=40, depth=1, fast=True)
            for s in (fast, slow)
        )
        assert (a.move, a.visits, a.values) == (b.move, b.visits, b.values)
        decided += 1
