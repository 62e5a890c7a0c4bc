"""Invariants over 1000+ games of random legal play: every card accounted for, scores equal the
stores plus bonuses, no view leaks a hidden card, sampled worlds agree with their views, illegal
moves are refused with a rule, records round-trip."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from taverntable.engine import IllegalMove
from taverntable.games.three_towers import (
    CHANCE,
    TowersRules,
    TowersState,
    random_game,
    sample_world,
    view_of,
)
from taverntable.games.three_towers.cards import full_deck, suit, total
from taverntable.games.three_towers.moves import TowersMove
from taverntable.games.three_towers.record import ADAPTER

from three_towers_helpers import perturb_hidden

FULL = sorted(full_deck())
GAMES = 1000
CHUNKS = 10  # separate tests, so that pytest-xdist can spread the games


def rules_for(seed: int, n: int) -> TowersRules:
    rng = random.Random(seed * 7 + 1)
    return TowersRules(
        max_rounds=rng.choice((1, 1, 2)),
        defence=rng.choice(("rank", "any")),
        own_store_visible=rng.random() < 0.7,
        teams=n == 4 and rng.random() < 0.5,
    )


def check_counts(state: TowersState) -> None:
    """R13/R14: every round's points are its stores' values with the tower bonus; the scores
    are the sum of the rounds (+150 for the third tower)."""
    for r in state.rounds:
        for s, points in enumerate(r.points):
            expected = total(r.stores[s])
            if s == r.builder and suit(r.tower) == 1:
                expected *= 2
            if s == r.builder and suit(r.tower) == 2:
                expected += 50
            assert points == expected
    sums = [sum(r.points[s] for r in state.rounds) for s in range(state.num_players)]
    if state.result is not None and state.result.end == "towers":
        sums[state.rounds[-1].builder] += 150
    assert sums == state.scores


def play_checked(seed: int, pool: list[TowersMove]) -> TowersState:
    rng = random.Random(seed)
    n = rng.choice((2, 3, 4))
    state = TowersState.start(rules_for(seed, n), n, rng=rng, dealer=rng.randrange(n))
    step = 0
    while not state.is_over:
        assert sorted(state.all_cards()) == FULL
        step += 1
        if state.current_seat == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_moves()
        assert legal, "a deciding seat always has a move (R11)"
        if step % 5 == 0:
            seat = rng.randrange(n)
            view = view_of(state, seat)
            twin = perturb_hidden(state, seat, rng)
            if twin is not None:
                assert view_of(twin, seat) == view, "a view changed with hidden cards"
            world = sample_world(view, rng)
            assert view_of(world, seat) == view
            assert sorted(world.all_cards()) == FULL
            if seat == state.current_seat:
                assert world.legal_moves() == legal
            stranger = rng.choice(pool) if pool else None
            if stranger is not None and stranger not in set(legal):
                with pytest.raises(IllegalMove) as e:
                    state.check(stranger)
                assert e.value.rule and e.value.reason
        move = rng.choice(legal)
        if len(pool) < 5000:
            pool.append(move)
        state.apply(move)
    assert sorted(state.all_cards()) == FULL
    check_counts(state)
    return state


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    pool: list[TowersMove] = []
    ends: Counter[str] = Counter()
    size = GAMES // CHUNKS
    for seed in range(chunk * size, (chunk + 1) * size):
        state = play_checked(seed, pool)
        assert state.result is not None
        ends[state.result.end] += 1
        if seed % 20 == 0:
            record = ADAPTER.dump(state, [f"P{s}" for s in range(state.num_players)])
            again = ADAPTER.start(record)
            for seat, text in record["moves"]:
                assert seat == again.current_seat
                ADAPTER.apply(again, seat, text)
            assert ADAPTER.result_json(again) == record["result"]
    assert ends["rounds"] > 0


def test_random_game_is_deterministic_and_finishes() -> None:
    a, b = (
        random_game(11, rules=TowersRules(max_rounds=3)),
        random_game(11, rules=TowersRules(max_rounds=3)),
    )
    assert [str(m) for _, m in a.history] == [str(m) for _, m in b.history]
    assert a.is_over and a.result is not None
    check_counts(a)


def test_records_round_trip_through_the_records_core() -> None:
    from taverntable.records import dump_record, replay_record

    for seed in range(5):
        state = random_game(seed, 3, TowersRules(max_rounds=2))
        record = json.loads(json.dumps(dump_record(state, ["A", "B", "C"])))
        assert any(seat == -1 for seat, _ in record["moves"])  # chance steps are recorded
        replayed = replay_record(record)
        assert replayed.result == record["result"]
