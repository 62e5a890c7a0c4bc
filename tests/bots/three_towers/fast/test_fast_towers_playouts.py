"""The Three Towers hard bot's paired playouts in the kernel (``bots.three_towers.fast.playouts``)
are the Python playouts (``TowersSearch.playout``): from worlds sampled from decision views of every
seating and rule flip, each compared action's playout reaches the same final position (hands,
deck, stores, towers, scores, marks: R1–R17) in the same number of steps, stopping at the round's
count (the next deal, R3) or the game's end (R14), with the chance steps of the same seed; so the
rewards and the search's decisions are the same with and without ``fast``, from the view only."""

from __future__ import annotations

import random

import pytest

from taverntable.bots.ismcts import IsmctsBot, search
from taverntable.bots.three_towers.fast import playouts as towers_playouts
from taverntable.bots.three_towers.fast.heuristic import REDEAL_PARTS, U_SIZE
from taverntable.bots.three_towers.fast.playouts import KernelPlayouts, play_to_count
from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.bots.three_towers.search import TowersSearch
from taverntable.engine import CHANCE
from taverntable.fast.differential import Table, tables
from taverntable.fast.jit import int_array, new_floats
from taverntable.fast.stream import stream_of
from taverntable.games.three_towers import TowersState, sample_world
from taverntable.games.three_towers.fast.differential import SUBJECT
from taverntable.games.three_towers.fast.kernel import MAX_LEGAL
from taverntable.games.three_towers.fast.state import load, snapshot
from taverntable.games.three_towers.phases import DEAL, OVER

from three_towers_helpers import decision_views


def python_playout(
    game: TowersSearch, world: TowersState, move: object, seed: int
) -> tuple[TowersState, int]:
    """``ismcts._paired``'s playout of one action, and the steps it played."""
    after = world.clone()
    game.step(after, move)  # type: ignore[arg-type]
    steps = 0
    rng = random.Random(seed)
    left = game.horizon
    while after.phase not in (DEAL, OVER) and left:
        if after.decider == CHANCE:
            after.apply_unchecked(after.sample_chance(rng))
        else:
            game.step(after, game.policy_move(after, rng))
        left -= 1
        steps += 1
    return after, steps


def kernel_playout(
    world: TowersState, move: object, seed: int, horizon: int
) -> tuple[dict[str, object], int]:
    """The kernel's playout of ``move`` from the loaded world: its final state and steps."""
    codes = KernelPlayouts([move], horizon)._codes(load(world))  # type: ignore[list-item]
    st = load(world)
    towers_playouts.k.apply_move(st, codes[0], codes[1], codes[2])
    scratch = [int_array(MAX_LEGAL) for _ in range(3)]
    stream = stream_of(random.Random(seed))
    unseen, parts = int_array(U_SIZE), new_floats(REDEAL_PARTS)
    steps = play_to_count(st, stream, horizon, *scratch, unseen, parts)
    return snapshot(st), int(steps)


def _rules_seed(table: Table) -> int:
    """The views' seed part from the rules: the length of their repr without R37's field, as
    it was before R37, so that the tables before it keep their views (a table's share of
    counted playouts depends on its views; R37's field moved one under half)."""
    return len(repr(table.rules)) - len(f", lead_cap={table.rules.lead_cap!r}")


@pytest.mark.parametrize("table", tables(SUBJECT), ids=lambda t: f"{t.players}p-{t.rules!r}")
def test_kernel_playouts_end_where_the_python_playouts_end(table: Table) -> None:
    """Every legal action (at most 4) in 4 worlds of each of 6 views: the same final position
    and steps, and ``KernelPlayouts`` reports its scores, marks and end."""
    game = TowersSearch()
    rng = random.Random(11)
    playouts = counted = 0
    for view in decision_views(table, seed=table.players * 7 + _rules_seed(table), count=6):
        moves = list(view.legal_moves)[:4]
        batch = KernelPlayouts(moves, game.horizon)
        for _ in range(4):
            world = game.sample(view, rng)
            seed = rng.getrandbits(64)
            finals = batch.finals(world, seed)
            for move, (scores, marks, over) in zip(moves, finals, strict=True):
                after, steps = python_playout(game, world, move, seed)
                final, kernel_steps = kernel_playout(world, move, seed, game.horizon)
                assert final == snapshot(load(after)), (view.phase, move)
                assert kernel_steps == steps
                assert (scores, marks, over) == (
                    tuple(after.scores),
                    tuple(after.marks),
                    after.phase == OVER,
                )
                playouts += 1
                counted += after.phase == DEAL
    assert playouts >= 6 * 4 * 2
    # At least half the playouts run to the round's count (R3's next deal); the views differ
    # with the rules' repr, so a table of short rounds (R29) lands at exactly half.
    assert 2 * counted >= playouts


def test_a_horizon_cuts_both_playouts_at_the_same_step() -> None:
    game = TowersSearch(horizon=7)
    rng = random.Random(3)
    for view in decision_views(tables(SUBJECT)[0], seed=5, count=8):
        world = game.sample(view, rng)
        seed = rng.getrandbits(64)
        move = view.legal_moves[0]
        after, steps = python_playout(game, world, move, seed)
        final, kernel_steps = kernel_playout(world, move, seed, 7)
        assert steps == kernel_steps <= 7
        assert final == snapshot(load(after))


def test_the_comparison_tells_another_world_apart() -> None:
    """The differential can fail: the kernel's playout from the world with the deck's top two
    cards swapped (R3: other draws) ends elsewhere than the Python playout in most worlds."""
    game = TowersSearch()
    rng = random.Random(8)
    differ = tried = 0
    for view in decision_views(tables(SUBJECT)[0], seed=9, count=10):
        world = game.sample(view, rng)
        seed = rng.getrandbits(64)
        after, _ = python_playout(game, world, view.legal_moves[0], seed)
        other = world.clone()
        if len(other.deck) < 2 or other.deck[-1] == other.deck[-2]:
            continue
        other.deck[-1], other.deck[-2] = other.deck[-2], other.deck[-1]
        final, _ = kernel_playout(other, view.legal_moves[0], seed, game.horizon)
        tried += 1
        differ += final != snapshot(load(after))
    assert tried >= 5 and differ > tried // 2


def test_scorer_rewards_are_the_adapters_rewards() -> None:
    """``paired_scorer`` scores each action as ``TowersSearch.rewards`` scores the Python
    playout's end, on 2-4 players and teams (R15: a pair's points and towers)."""
    for table in tables(SUBJECT)[::2]:
        game = TowersSearch()
        rng = random.Random(table.players)
        for view in decision_views(table, seed=21, count=3):
            moves = list(view.legal_moves)[:3]
            scorer = game.paired_scorer(view, moves)
            assert scorer is not None
            world = game.sample(view, rng)
            seed = rng.getrandbits(64)
            expected = [
                game.rewards(python_playout(game, world, m, seed)[0])[view.seat] for m in moves
            ]
            assert scorer.score(world, seed) == expected


def test_search_decides_alike_with_and_without_the_kernel() -> None:
    """The same worlds, seeds and rewards: the same values, visits and move, anchored or not."""
    game = TowersSearch()
    anchor_bot = ThreeTowersHeuristicBot()
    searched = 0
    for table in tables(SUBJECT)[::3]:
        for i, view in enumerate(decision_views(table, seed=40, count=4)):
            legal = game.root_moves(view)
            if len(legal) < 2:
                continue
            anchor = anchor_bot.choose(view, random.Random(0))
            fast = search(
                game, view, random.Random(i), iterations=60, anchor=anchor, margin=1.0, fast=True
            )
            slow = search(
                game, view, random.Random(i), iterations=60, anchor=anchor, margin=1.0, fast=False
            )
            assert (fast.move, fast.values, fast.visits) == (slow.move, slow.values, slow.visits)
            searched += 1
    assert searched >= 3


def test_hard_bot_is_reproducible_and_reads_only_its_view() -> None:
    """With the kernel: the same seed gives the same move, a world the seat cannot tell apart
    gives the same move, and ``hard:fast=false`` makes the same move (the Python playouts)."""
    game = TowersSearch()
    views = [
        v
        for v in decision_views(tables(SUBJECT)[0], seed=60, count=40)
        if len(game.root_moves(v)) > 1
    ][:3]
    assert views
    for view in views:
        other = sample_world(view, random.Random(99)).view(view.seat)
        assert other == view
        moves = []
        for v, fast in ((view, True), (view, True), (other, True), (view, False)):
            bot = IsmctsBot(fast=fast)
            moves.append((bot.choose(v, random.Random(5)), bot.last and bot.last.values))
        assert moves.count(moves[0]) == 4


def test_no_kernel_scorer_for_random_playouts_or_without_fast() -> None:
    view = decision_views(tables(SUBJECT)[0], seed=2, count=1)[0]
    assert TowersSearch(fast=False).paired_scorer(view, view.legal_moves) is None
    assert TowersSearch(policy="random").paired_scorer(view, view.legal_moves) is None
    assert TowersSearch().paired_scorer(view, view.legal_moves) is not None
