"""T2, T4, R3: a match of deals through the contract — running totals, the deal passing on (next
seat, winner, void deals) — for every game, and its length."""

from __future__ import annotations

import random

import pytest

from taverntable.engine import DealError, play_out, random_policy
from taverntable.games import game_names, get_game
from taverntable.match import Match, MatchLength, deal_points

from tonk_helpers import cards_accounted_for, stacked


def finish(match: Match, rng: random.Random) -> None:
    """Play the current deal out at random and book it."""
    state = match.current
    if state is not None:
        play_out(state, random_policy, rng)
    match.settle_if_over()


def tonk_match(preset: str, dealer: int = 0, stake: int = 1) -> Match:
    game = get_game(preset)
    return Match(game, game.rules(), 3, stake=stake, dealer=dealer)


@pytest.mark.parametrize("preset", ["tonk", "tor", "pagat"])
def test_T2_balances_are_the_sum_of_every_deals_net(preset: str) -> None:
    rng = random.Random(preset)
    game = get_game(preset)
    match = Match(game, game.rules(), 4, stake=2)
    for _ in range(200):
        state = match.new_deal(rng)
        assert cards_accounted_for(state)
        finish(match, rng)
    finished = [d for d in match.deals if d.result is not None]
    assert len(finished) == match.finished == 200
    assert sum(match.totals) == 0
    assert match.totals == [sum(d.result.net[s] for d in finished if d.result) for s in range(4)]
    assert match.settle_if_over() is None  # a deal is booked once


def test_T2_the_deal_passes_to_the_next_seat() -> None:
    rng = random.Random(5)
    match = tonk_match("tonk", dealer=0)
    dealers = []
    for _ in range(6):
        dealers.append(match.dealer)
        match.new_deal(rng)
        finish(match, rng)
    assert dealers == [0, 1, 2, 0, 1, 2]


def test_T2_pagat_winner_deals_next() -> None:
    match = tonk_match("pagat", dealer=0)
    state = stacked(
        "pagat", ["10S 9D 8H 7S 6C", "AS 2D 3H 4C 5S", "KC QC JC 9C 8C"], "7D", dealer=0
    )
    match.take_up(state)
    state.apply_text("drop")  # seat 1 acts first and drops with 15
    assert match.settle_if_over() == [-1, 2, -1]
    assert match.dealer == 1 and match.totals == [-1, 2, -1]


def test_T4_void_deal_is_dealt_again_by_the_same_dealer() -> None:
    match = tonk_match("tor", dealer=2)
    state = stacked("tor", ["KC QC JC KD QD", "KS QS JS KH QH", "10S 9D 8H 7S 6C"], "2D", dealer=2)
    match.take_up(state)  # booked as it is dealt: two players won on the deal
    assert state.result is not None and state.result.end == "void"
    assert match.finished == 1 and match.dealer == 2 and match.totals == [0, 0, 0]


def test_T2_a_new_deal_waits_for_the_current_one() -> None:
    match = tonk_match("tonk")
    state = match.new_deal(random.Random(1))
    if not state.is_over:
        with pytest.raises(DealError, match="not over"):
            match.new_deal(random.Random(2))
    game = get_game("tonk")
    with pytest.raises(DealError):
        Match(game, game.rules(), 1)
    with pytest.raises(DealError):
        Match(game, game.rules(), 3, dealer=3)


def test_R3_R14_a_three_towers_match_books_each_games_points_and_passes_the_deal() -> None:
    game = get_game("three-towers")
    match = Match(game, game.rules({"max_rounds": 1}), 3, dealer=2)
    rng = random.Random(3)
    for first in (2, 0, 1):
        assert match.dealer == first
        state = match.new_deal(rng)
        finish(match, rng)
        assert state.result is not None
    scores = [d.result.scores for d in match.deals if d.result is not None]
    assert match.totals == [sum(s[seat] for s in scores) for seat in range(3)]


@pytest.mark.parametrize("name", game_names())
def test_every_game_plays_a_match_to_its_length(name: str) -> None:
    game = get_game(name)
    rules = game.rules({"max_rounds": 1} if get_game(name).family == "three-towers" else {})
    length = MatchLength(deals=3)
    match = Match(game, rules, 2)
    rng = random.Random(name)
    while not length.reached(match.finished, match.totals):
        match.new_deal(rng)
        finish(match, rng)
    assert match.finished == len(match.deals) == 3


def test_T2_a_match_to_a_target_ends_once_a_total_reaches_it() -> None:
    length = MatchLength(target=3)
    assert not length.reached(5, [2.0, -2.0])
    assert length.reached(5, [-3.0, 3.0])
    assert MatchLength(deals=2).reached(2, [0.0, 0.0])
    assert not MatchLength().reached(10_000, [99.0, -99.0])  # no length: until the players leave


def test_T2_a_deals_points_are_its_returns_times_the_stake() -> None:
    assert deal_points([1.0, -0.5, -0.5], 4) == [4.0, -2.0, -2.0]
