"""TonkHeuristicBot: drop, draw, spread/hit, discard and end decisions, per rule (T6–T9)."""

from __future__ import annotations

import random

import pytest

from taverntable.bots.tonk.heuristic import TonkHeuristicBot, drop_value
from taverntable.games.tonk import Discard, Draw, Drop, End, Hit, Spread, TonkState

from tonk_helpers import play, stacked

RNG = random.Random


def choice(state: TonkState) -> str:
    """The heuristic's move for the seat on turn, as text."""
    seat = state.current_seat
    assert seat is not None
    return str(TonkHeuristicBot().choose(state.view(seat), RNG(1)))


# Two opponents with ordinary hands (no deal-time win in any preset).
OTHERS = ["KC 10C 3C 2S 9H", "QH 8C 6D 2C 7D"]


def test_T7_takes_the_pile_when_its_top_card_makes_a_spread() -> None:
    state = stacked("tonk", ["8S 8D JD 3H KH", *OTHERS], upcard="8H")
    assert choice(state) == "draw pile"


def test_T7_draws_the_stock_when_the_pile_card_is_no_use() -> None:
    state = stacked("tonk", ["8S 8D JD 3H KH", *OTHERS], upcard="QS")
    assert choice(state) == "draw stock"


def test_T7_takes_a_low_pile_card_when_the_hand_has_high_cards() -> None:
    state = stacked("tonk", ["8S 9D JD QH KH", "KC 10C 3C 2S 9H", "QD 8C 6D 2C 7D"], upcard="AC")
    assert choice(state) == "draw pile"


def test_T7_takes_the_pile_when_its_top_card_hits_a_spread() -> None:
    # Seat 0 lays 7S 7D 7H and discards 7C: seat 1 cannot spread with 7C but can hit the set.
    state = stacked(
        "tonk", ["7S 7D 7H 7C 9C", "4H 5D 6S 6H 2S", "QH 8C 6D 2C KD"], upcard="KS", stock="10D"
    )
    play(state, "draw stock", "spread 7S 7D 7H", "discard 7C")
    assert choice(state) == "draw pile"


def test_T8_lays_the_spread_that_sheds_most_points_first() -> None:
    state = stacked("tonk", ["8S 9S 10S JS 2H", *OTHERS], upcard="QS", stock="3D")
    play(state, "draw pile")
    view = state.view(0)
    assert any(isinstance(m, Spread) for m in view.legal_moves)
    assert choice(state) == "spread 8S 9S 10S JS QS"


def test_T8_hits_after_spreading() -> None:
    state = stacked(
        "tonk", ["7S 7D 7H 7C 9C", "4H 5D 6S 6H 2S", "QH 8C 6D 2C KD"], upcard="KS", stock="10D"
    )
    play(state, "draw stock", "spread 7S 7D 7H")
    move = TonkHeuristicBot().choose(state.view(0), RNG(1))
    assert isinstance(move, Hit) and str(move) == "hit 0 7C"


def test_T9_discards_the_highest_card_outside_near_spreads() -> None:
    # 2C 3C is a run draw and 9D 9H a pair: the king goes before the queen (equal value).
    state = stacked(
        "tonk", ["2C 3C 9D 9H QS", "KC 10C 4S 2S 9S", "QD 8H 6D 2D 7D"], upcard="5S", stock="KH"
    )
    play(state, "draw stock")
    assert choice(state) == "discard KH"


def test_T9_never_discards_the_card_just_taken_from_the_pile_in_tonk() -> None:
    state = stacked("tonk", ["8S 8D 2H 3H 4D", *OTHERS], upcard="KD")
    play(state, "draw pile")
    move = TonkHeuristicBot().choose(state.view(0), RNG(1))
    assert isinstance(move, Discard) and move.card.text != "KD"


TOR_OTHERS = ["10C 9C 3H 4S 9H", "QH 8C 6D 5H 7D"]


def test_T9_tor_ends_without_discarding_when_every_card_is_worth_keeping() -> None:
    # After spreading the kings: AC 2C is a live run draw, 2C 2D a live pair, all low.
    state = stacked("tor", ["KS KD KH AC 2C", *TOR_OTHERS], upcard="5S", stock="2D")
    play(state, "draw stock", "spread KS KD KH")
    assert TonkHeuristicBot().choose(state.view(0), RNG(1)) == End()


def test_T9_tor_discards_when_that_is_better_than_ending() -> None:
    state = stacked("tor", ["KS KD KH AC 2C", *TOR_OTHERS], upcard="5S", stock="9D")
    play(state, "draw stock", "spread KS KD KH")
    assert choice(state) == "discard 9D"


def test_T6_drops_a_low_hand_on_the_first_turn() -> None:
    state = stacked("tonk", ["AS 2H 3D 4C 6S", *OTHERS], upcard="KS")  # 16: no Tonk (T4)
    assert choice(state) == "drop"


def test_T6_does_not_drop_a_high_hand() -> None:
    state = stacked("tonk", ["9S 10H JD 4C 6S", *OTHERS], upcard="KS")
    assert isinstance(TonkHeuristicBot().choose(state.view(0), RNG(1)), Draw)


def test_T6_drop_threshold_is_lower_with_more_players() -> None:
    hand = "AS 2H 4D 5C 8S"  # 20
    few = stacked("tonk", [hand, *OTHERS], upcard="KS")
    many = stacked(
        "tonk", [hand, *OTHERS, "QC JC 9D 8D 7S", "KH QS JS 6S 9S", "KD 10D 9C 8H 7C"], upcard="KS"
    )
    assert not many.is_over
    # Compared per other player: a successful drop is paid by each of them (T6).
    assert drop_value(many.view(0), RNG(3), 400) / 5 < drop_value(few.view(0), RNG(3), 400) / 2


def test_T6_drop_gets_harder_as_the_deal_goes_on() -> None:
    hand = "AS 2H 4D 5C 8S"
    stock = "KH KD JH JD JC JS"
    early = stacked("tonk", [hand, *OTHERS], upcard="KS", stock=stock)
    later = stacked("tonk", [hand, *OTHERS], upcard="KS", stock=stock)
    for card in stock.split():  # every seat draws a court card and discards it, twice round
        play(later, "draw stock", f"discard {card}")
    assert later.current_seat == 0 and later.hands[0] == early.hands[0]
    assert drop_value(later.view(0), RNG(3), 400) < drop_value(early.view(0), RNG(3), 400)


def test_T6_hit_lock_in_pagat_is_respected() -> None:
    # pagat: a seat whose spread was hit since its last turn may not drop; the bot draws instead.
    state = stacked(
        "pagat",
        ["7S 7D 7H AC 2C", "7C 3H 2S 4H 9H", "QH 8C 6D 5C KD"],
        upcard="KS",
        stock="AD 10D 3D",
    )
    play(state, "draw stock", "spread 7S 7D 7H", "discard 2C")
    assert state.current_seat == 1
    play(state, "draw stock", "hit 0 7C", "discard 9H")
    play(state, "draw stock", "discard KD")
    assert state.hit_locked[0]
    assert Drop() not in state.view(0).legal_moves
    assert choice(state) in ("draw stock", "draw pile")


@pytest.mark.parametrize("preset", ["tonk", "tor", "pagat"])
def test_heuristic_only_returns_legal_moves(preset: str) -> None:
    rng = RNG(11)
    bot = TonkHeuristicBot()
    from taverntable.games.tonk import rules_from

    for _ in range(40):
        state = TonkState.deal(rules_from(preset), 4, rng=rng)
        for _ in range(300):
            seat = state.current_seat
            if seat is None:
                break
            view = state.view(seat)
            move = bot.choose(view, rng)
            assert move in view.legal_moves
            state.apply(move)
