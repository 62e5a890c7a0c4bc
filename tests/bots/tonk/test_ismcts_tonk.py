"""The Tonk side of ISMCTS: worlds that keep to the view, the playout policy, the rewards."""

from __future__ import annotations

import random

import pytest

from taverntable.bots.tonk.inference import inferred_world, table_facts, wins_on_deal
from taverntable.bots.tonk.policy import greedy_move, makes_spread
from taverntable.bots.tonk.search import TonkSearch
from taverntable.cards import parse_index
from taverntable.games.tonk import PRESETS, TonkState, view_of

from tonk_helpers import random_game


def positions(preset: str, players: int, count: int, seed: int) -> list[TonkState]:
    """States reached by random play (copies taken along the way)."""
    rng = random.Random(seed)
    out: list[TonkState] = []
    while len(out) < count:
        state = TonkState.deal(PRESETS[preset], players, rng=rng, dealer=rng.randrange(players))
        while not state.is_over and len(out) < count:
            if rng.random() < 0.3:
                out.append(state.clone())
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize(("preset", "players"), [("tonk", 3), ("tor", 4), ("pagat", 2)])
def test_inferred_worlds_look_the_same_to_the_seat(preset: str, players: int) -> None:
    rng = random.Random(1)
    for state in positions(preset, players, 40, seed=2):
        seat = state.current_seat
        assert seat is not None
        view = state.view(seat)
        facts = table_facts(view)
        for _ in range(3):
            world = inferred_world(view, facts, rng)
            assert view_of(world, seat) == view
            cards = [*world.hands, *(1 << c for c in world.stock + world.pile), *world.spread_mask]
            assert sum(cards) == (1 << 52) - 1  # every card once (T1)


def test_T4_players_who_have_not_acted_hold_no_win_on_the_deal() -> None:
    rng = random.Random(3)
    for state in positions("tonk", 4, 30, seed=4):
        view = state.view(state.current_seat or 0)
        facts = table_facts(view)
        values = state._values
        for _ in range(5):
            world = inferred_world(view, facts, rng)
            assert not any(wins_on_deal(view, world.hands[s], values) for s in facts.unmoved)


def test_greedy_policy_plays_legal_moves_to_the_end() -> None:
    rng = random.Random(5)
    for preset in ("tonk", "tor", "pagat"):
        for _ in range(30):
            state = TonkState.deal(PRESETS[preset], 3, rng=rng)
            for _ in range(300):
                if state.is_over:
                    break
                move = greedy_move(state)
                assert move in state.legal_moves()
                state.apply(move)


def test_T8_makes_spread() -> None:
    hand = sum(1 << parse_index(c) for c in ("8S", "8D", "5H", "6H", "QC"))
    assert makes_spread(hand, parse_index("8H"))  # a set
    assert makes_spread(hand, parse_index("7H"))  # a run 5-6-7
    assert makes_spread(hand, parse_index("4H"))  # a run 4-5-6
    assert not makes_spread(hand, parse_index("KC"))
    assert makes_spread(hand, parse_index("8C"))  # a set with 8S 8D


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_playouts_end_and_rewards_are_scaled(policy: str) -> None:
    game = TonkSearch(policy=policy)
    rng = random.Random(6)
    for state in positions("pagat", 3, 30, seed=7):
        world = state.clone()
        game.playout(world, rng)
        rewards = game.rewards(world)
        assert abs(sum(rewards)) < 1e-9
        assert all(-1.0 <= r <= 1.0 for r in rewards)


def test_rewards_are_net_stakes_over_twice_the_others() -> None:
    state = random_game(PRESETS["tonk"], 3, random.Random(8))
    assert state.result is not None
    assert TonkSearch().rewards(state) == [x / 4 for x in state.result.net]


def test_the_hard_levels_anchor_is_the_medium_levels_move() -> None:
    # Issue 16: the search's anchor drops as the drop model says, not as the heuristic does.
    from taverntable.bots.tonk.heuristic import TonkHeuristicBot
    from taverntable.bots.tonk.watcher import TonkWatcherBot
    from taverntable.engine import play_out

    unlike_heuristic = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = TonkState.deal(PRESETS["tonk"], 3, rng=rng, dealer=0)
        starts: list[TonkState] = []
        play_out(
            state,
            [TonkHeuristicBot() for _ in range(3)],
            rng,
            on_move=lambda *_, s=state, kept=starts: (
                kept.append(s.clone()) if s.phase == "start" else None
            ),
        )
        for start in starts:
            view = view_of(start, start.current_seat_)
            anchor = TonkSearch().anchor_move(view, random.Random(1))
            assert anchor == TonkWatcherBot().choose(view, random.Random(1))
            unlike_heuristic += anchor != TonkHeuristicBot().choose(view, random.Random(1))
    assert unlike_heuristic >= 1
