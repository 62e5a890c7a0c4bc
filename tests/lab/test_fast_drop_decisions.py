"""The ``drop-model`` study's decisions read off the kernel's state
(``lab/studies/drop_decisions.py``) against the engine's (``DropDecisions`` on ``play_out``):
called directly, so that the pure-Python fallback is held to the engine too (the lab takes this
path only when numba compiles)."""

from __future__ import annotations

import random

import pytest

from taverntable.bots.random_bot import RandomBot
from taverntable.bots.tonk.fast.deals import fast_seats
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.games.tonk import TonkState
from taverntable.lab.studies.drop_decisions import drop_decisions
from taverntable.lab.studies.drop_model import DIGITS, DropDecisions


def engine_decisions(
    preset: str, bots: list[object], seed: int, max_moves: int
) -> tuple[list[object], bool]:
    """The study's engine path: the decisions and whether the cap stopped the deal."""
    game = get_game(preset)
    rng = random.Random(seed)
    state = game.start(game.rules({}), len(bots), rng=rng, dealer=0)
    assert isinstance(state, TonkState)
    decisions = DropDecisions(state, max_moves)
    capped = play_out(
        state,
        bots,
        rng,
        max_moves=max_moves,  # type: ignore[arg-type]
        on_move=decisions.after_move,
    ).capped
    return decisions.decisions, capped


@pytest.mark.parametrize(
    ("preset", "players"), [("tonk", 3), ("tor", 4), ("pagat", 2), ("tonk", 6)]
)
def test_decisions_are_the_engines(preset: str, players: int) -> None:
    """Each decision's seat, turn, total, drop net, features and catchers (T6), and the end."""
    bots: list[object] = [
        TonkHeuristicBot(samples=8) if s % 2 == 0 else RandomBot() for s in range(players)
    ]
    seats = fast_seats(bots)
    assert seats is not None
    rules = get_game(preset).rules({})
    seen = 0
    for seed in range(30):
        engine, capped = engine_decisions(preset, bots, seed, 1000)
        deal = drop_decisions(rules, players, seats, seed=seed, dealer=0)
        assert deal.rows(DIGITS) == engine
        assert deal.capped == capped
        seen += len(engine)
    assert seen > 10


def test_the_move_cap_stops_the_decisions_where_the_engine_stops_them() -> None:
    """Under a small cap (the study's ``max_moves``) no decision is written once it is reached."""
    bots: list[object] = [TonkHeuristicBot(samples=4) for _ in range(3)]
    seats = fast_seats(bots)
    assert seats is not None
    rules = get_game("tonk").rules({})
    for seed in range(8):
        engine, capped = engine_decisions("tonk", bots, seed, 7)
        deal = drop_decisions(rules, 3, seats, seed=seed, max_moves=7)
        assert deal.rows(DIGITS) == engine
        assert deal.capped == capped
        assert deal.end is None if capped else deal.end is not None


def test_a_catcher_is_a_player_whose_total_is_at_most_the_drops() -> None:
    """T6: the caught column is 1 exactly for the players at or below the dropper's total, and
    a drop nobody catches wins (a positive net)."""
    bots: list[object] = [TonkHeuristicBot(samples=4) for _ in range(4)]
    seats = fast_seats(bots)
    assert seats is not None
    rules = get_game("tor").rules({})
    both = set()
    for seed in range(20):
        for seat, _, total, net, rows in drop_decisions(rules, 4, seats, seed=seed).rows(DIGITS):
            assert 0 <= seat < 4 and rows[0][0] == total  # own_total is the drop's total
            caught = [row[-1] for row in rows]
            assert (net > 0) == (not any(caught))
            both.add(net > 0)
    assert both == {True, False}
