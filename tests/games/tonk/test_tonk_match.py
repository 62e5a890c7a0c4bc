"""T2 matches: running balances, and the deal passing on (next seat, winner, void deals)."""

from __future__ import annotations

import random

import pytest

from taverntable.cards import parse_index
from taverntable.games.tonk import PRESETS, DealError, rules_from
from taverntable.games.tonk.match import TonkMatch

from tonk_helpers import cards_accounted_for


def deck_for(hands: list[str], upcard: str, dealer: int) -> list[int]:
    """A stacked 52-card deck that deals these hands (seat order) with this dealer (T3)."""
    n = len(hands)
    cards = [[parse_index(c) for c in h.split()] for h in hands]
    deck = [cards[(dealer + 1 + k) % n][k // n] for k in range(5 * n)]
    deck.append(parse_index(upcard))
    return deck + [c for c in range(52) if c not in deck]


def play_out(match: TonkMatch, rng: random.Random) -> None:
    state = match.current
    while state is not None and not state.is_over:
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    match.settle_if_over()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T2_balances_are_the_sum_of_every_deals_net(preset: str) -> None:
    rng = random.Random(preset)
    match = TonkMatch(PRESETS[preset], ["A", "B", "C", "D"], stake=2)
    for _ in range(200):
        state = match.new_deal(rng)
        assert cards_accounted_for(state)
        play_out(match, rng)
    finished = [d for d in match.deals if d.result is not None]
    assert len(finished) == 200
    assert sum(match.balances) == 0
    assert match.balances == [sum(d.result.net[s] for d in finished if d.result) for s in range(4)]
    assert match.settle_if_over() is None  # a deal is booked once


def test_T2_the_deal_passes_to_the_next_seat() -> None:
    rng = random.Random(5)
    match = TonkMatch(PRESETS["tonk"], ["A", "B", "C"], dealer=0)
    dealers = []
    for _ in range(6):
        dealers.append(match.dealer)
        match.new_deal(rng)
        play_out(match, rng)
    assert dealers == [0, 1, 2, 0, 1, 2]


def test_T2_pagat_winner_deals_next() -> None:
    match = TonkMatch(PRESETS["pagat"], ["A", "B", "C"], dealer=0)
    state = match.new_deal(
        deck=deck_for(["10S 9D 8H 7S 6C", "AS 2D 3H 4C 5S", "KC QC JC 9C 8C"], "7D", dealer=0)
    )
    state.apply_text("drop")  # seat 1 acts first and drops with 15
    assert match.settle_if_over() is not None
    assert match.dealer == 1 and match.balances == [-1, 2, -1]


def test_T4_void_deal_is_dealt_again_by_the_same_dealer() -> None:
    match = TonkMatch(PRESETS["tor"], ["A", "B", "C"], dealer=2)
    state = match.new_deal(
        deck=deck_for(["KC QC JC KD QD", "KS QS JS KH QH", "10S 9D 8H 7S 6C"], "2D", dealer=2)
    )
    assert state.result is not None and state.result.end == "void"
    assert match.dealer == 2 and match.balances == [0, 0, 0]


def test_T2_a_new_deal_waits_for_the_current_one() -> None:
    match = TonkMatch(rules_from("tonk"), ["A", "B"])
    state = match.new_deal(random.Random(1))
    if not state.is_over:
        with pytest.raises(DealError, match="not over"):
            match.new_deal(random.Random(2))
    with pytest.raises(DealError):
        TonkMatch(PRESETS["tonk"], ["solo"])
