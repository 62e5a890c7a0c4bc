"""Tonk rules T1–T4: cards, players and stake, the deal, and the wins on the deal."""

from __future__ import annotations

import random

import pytest

from taverntable.cards import CARDS, Card, CardError, parse_index
from taverntable.games import get_game
from taverntable.games.tonk import PRESETS, DealError, TonkState, rules_from
from taverntable.games.tonk.rules import RulesError
from taverntable.games.tonk.spreads import spread_kind

from tonk_helpers import stacked


def mask(text: str) -> int:
    return sum(1 << parse_index(c) for c in text.split())


# --- T1 cards -------------------------------------------------------------------------------


def test_T1_notation_round_trips_for_all_52_cards() -> None:
    for card in CARDS:
        assert Card.parse(card.text) is card
    assert len({c.text for c in CARDS}) == 52


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10♥", "10h", " 10H "])
def test_T1_input_accepts_T_lower_case_and_suit_symbols(text: str) -> None:
    assert Card.parse(text).text == "10H"


@pytest.mark.parametrize("text", ["1H", "1h", "1♥", " 1H "])
def test_T1_one_is_not_an_ace(text: str) -> None:
    # T1 accepts T for 10, lower case and suit symbols; 1 for the ace is not among them.
    expected = r"is not a card: write an ace as AH, a ten as 10H or TH \(T1\)$"
    with pytest.raises(CardError, match=expected):
        Card.parse(text)


@pytest.mark.parametrize("text", ["11H", "QX", "X", "", "10", "HH", "0S", "KK", "10HH"])
def test_T1_unknown_cards_are_refused(text: str) -> None:
    with pytest.raises(CardError):
        Card.parse(text)


def test_T1_hand_values_ace_one_faces_ten() -> None:
    state = stacked("tonk", ["AS KH QD JC 10S", "2S 3S 4S 5S 6S"], "7S")
    assert state.total(0) == 1 + 10 + 10 + 10 + 10


def test_T1_pagat_face_values_option_11_12_13() -> None:
    rules = rules_from("pagat", face_values="11/12/13")
    state = stacked(rules, ["AS KH QD JC 10S", "2S 3S 4S 5S 6S"], "7S")
    assert state.total(0) == 1 + 13 + 12 + 11 + 10


def test_T1_runs_are_ace_low_without_wrap_around() -> None:
    assert spread_kind(mask("AH 2H 3H")) == ("run", 1)
    assert spread_kind(mask("JH QH KH")) == ("run", 1)
    assert spread_kind(mask("KH AH 2H")) is None
    assert spread_kind(mask("QH KH AH")) is None


# --- T2 players, seats, stake ----------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 11, 12])
def test_T2_two_to_ten_players(players: int) -> None:
    with pytest.raises(DealError, match="T2"):
        TonkState.deal(PRESETS["tonk"], players, rng=1)


@pytest.mark.parametrize("players", range(2, 11))
def test_T2_every_table_size_deals_and_leaves_a_stock(players: int) -> None:
    state = TonkState.deal(PRESETS["tonk"], players, rng=players)
    assert len(state.stock) == 52 - 5 * players - 1 >= 1


def test_T2_seat_after_dealer_acts_first() -> None:
    state = TonkState.deal(PRESETS["tor"], 4, rng=3, dealer=2)
    if not state.is_over:
        assert state.current_seat == 3
    state = TonkState.deal(PRESETS["tor"], 4, rng=3, dealer=3)
    if not state.is_over:
        assert state.current_seat == 0


@pytest.mark.parametrize("stake", [0, -1, True, 1.5])
def test_T2_stake_is_a_positive_whole_number(stake: object) -> None:
    with pytest.raises(DealError, match="stake"):
        stacked("tonk", ["10S 8D 8H 5S 4C", "KC 10C 3C 2S AH"], "5C", stake=stake)  # type: ignore[arg-type]
    # A shuffled deal (the registry's Game.start, the arena, the lab) checks it too.
    with pytest.raises(DealError, match="stake"):
        get_game("tonk").start(rules_from("tonk"), 3, rng=random.Random(1), stake=stake)  # type: ignore[arg-type]


def test_T2_payments_are_one_or_two_stakes() -> None:
    state = stacked("tonk", ["10S 9D 8H 5S 4C", "KC 10C 3C 2S AH"], "5C", stake=5)
    state.apply_text("drop")
    result = state.result
    assert result is not None
    assert {amount for _, _, amount in result.payments} <= {5, 10}


def test_T2_unknown_preset_and_options_are_refused() -> None:
    with pytest.raises(RulesError, match="unknown Tonk preset"):
        rules_from("gin")
    with pytest.raises(RulesError, match="unknown rule option"):
        rules_from("tonk", hit_lok=True)
    with pytest.raises(RulesError, match="hit_lock"):
        rules_from("tonk", hit_lock="yes")
    with pytest.raises(RulesError, match="face_values"):
        rules_from("pagat", face_values="11/12/14")


# --- T3 the deal ----------------------------------------------------------------------------


def test_T3_one_card_at_a_time_from_the_seat_after_the_dealer() -> None:
    deck = list(range(52))
    state = TonkState.deal(PRESETS["tonk"], 3, deck=deck, dealer=1)
    # Seat 2 (after dealer 1) gets cards 0, 3, 6, 9, 12; seat 0 gets 1, 4, …; seat 1 gets 2, 5, …
    assert state.initial_hands[2] == (0, 3, 6, 9, 12)
    assert state.initial_hands[0] == (1, 4, 7, 10, 13)
    assert state.initial_hands[1] == (2, 5, 8, 11, 14)
    assert state.upcard == 15
    assert state.initial_stock == tuple(range(16, 52))
    assert state.pile == [15]


def test_T3_seeded_deal_equals_the_same_deck_stacked() -> None:
    from random import Random

    from taverntable.games.tonk.state import shuffled_deck

    by_seed = TonkState.deal(PRESETS["tonk"], 4, rng=Random(99), dealer=2)
    by_deck = TonkState.deal(PRESETS["tonk"], 4, deck=shuffled_deck(Random(99)), dealer=2)
    assert by_seed.initial_hands == by_deck.initial_hands
    assert by_seed.initial_stock == by_deck.initial_stock


def test_T3_a_deck_must_be_52_distinct_cards() -> None:
    with pytest.raises(DealError, match="52"):
        TonkState.deal(PRESETS["tonk"], 3, deck=[0] * 52)
    with pytest.raises(DealError, match="twice"):
        stacked("tonk", ["10S 8D 8H 5S 4C", "10S 10C 3C 2S AH"], "5C")
    with pytest.raises(DealError, match="hand is 5"):
        stacked("tonk", ["10S 8D 8H 5S", "KC 10C 3C 2S AH"], "5C")


# --- T4 wins on the deal ----------------------------------------------------------------------

HIGH = "10S 9D 8H 7S 6C"  # 40, no deal-time win in any preset


def test_T4_tonk_fifteen_or_less_wins_double_from_everyone() -> None:
    state = stacked("tonk", [HIGH, "AS 2D 3H 4C 5S", "KC QC JC 9C 8C"], "7D")
    assert state.is_over and state.result is not None
    assert state.result.end == "tonk"
    assert state.result.winners == (1,)
    assert sorted(state.result.payments) == [(0, 1, 2), (2, 1, 2)]


@pytest.mark.parametrize("hand, total", [("KC QC JC 10C 9C", 49), ("KC QC JC 10C 10D", 50)])
def test_T4_tonk_49_or_50_is_a_tonk(hand: str, total: int) -> None:
    state = stacked("tonk", [HIGH, hand], "7D")
    assert state.result is not None and state.result.end == "tonk"
    assert state.result.totals[1] == total and state.result.winners == (1,)


def test_T4_tonk_several_holders_each_paid_by_every_non_holder() -> None:
    state = stacked("tonk", ["AS 2D 3H 4C 5S", HIGH, "KC QC JC 10C 10D"], "7D")
    assert state.result is not None
    assert state.result.winners == (0, 2)
    assert sorted(state.result.payments) == [(1, 0, 2), (1, 2, 2)]


def test_T4_tonk_totals_between_16_and_48_are_no_tonk() -> None:
    state = stacked("tonk", [HIGH, "KC QC JC KD AD"], "7D")
    assert state.total(1) == 41 and not state.is_over
    state = stacked("tonk", [HIGH, "AS 2D 3H 4C 6S"], "7D")
    assert state.total(1) == 16 and not state.is_over


def test_T4_tor_royal_hand_wins_double() -> None:
    state = stacked("tor", [HIGH, "KC QC JC KD QD", "9S 9H 8S 8C 7C"], "2D")
    assert state.result is not None and state.result.end == "tor"
    assert sorted(state.result.payments) == [(0, 1, 2), (2, 1, 2)]


def test_T4_tor_two_royal_hands_void_the_deal() -> None:
    state = stacked("tor", ["KC QC JC KD QD", "KS QS JS KH QH", HIGH], "2D")
    assert state.result is not None and state.result.end == "void"
    assert state.result.payments == () and state.result.net == (0, 0, 0)


def test_T4_tor_low_hand_wins_single_and_low_holders_pay_each_other_nothing() -> None:
    state = stacked("tor", ["AS 2D 3H 4C 5S", HIGH, "AH 2S 3D 4S 5C"], "7D")
    assert state.result is not None and state.result.end == "low"
    assert sorted(state.result.payments) == [(1, 0, 1), (1, 2, 1)]


def test_T4_tor_royal_beats_low_hand() -> None:
    state = stacked("tor", ["AS 2D 3H 4C 5S", "KC QC JC KD QD", HIGH], "7D")
    assert state.result is not None and state.result.end == "tor"
    assert state.result.winners == (1,)


def test_T4_tor_49_is_no_win() -> None:
    state = stacked("tor", [HIGH, "KC QC JC 10C 9C"], "7D")
    assert not state.is_over


def test_T4_pagat_fifty_wins_double_two_void() -> None:
    one = stacked("pagat", [HIGH, "KC QC JC 10C 10D"], "7D")
    assert one.result is not None and one.result.end == "tonk"
    assert one.result.payments == ((0, 1, 2),)
    two = stacked("pagat", ["KS QS JS 10S 9S", "KC QC JC 10C 10D"], "7D")
    assert two.result is not None and two.result.end == "void"


def test_T4_pagat_low_hand_is_no_win() -> None:
    state = stacked("pagat", [HIGH, "AS 2D 3H 4C 5S"], "7D")
    assert not state.is_over


def test_T4_deal_time_win_has_no_moves() -> None:
    state = stacked("tonk", [HIGH, "AS 2D 3H 4C 5S"], "7D")
    assert state.legal_moves() == () or list(state.legal_moves()) == []
    assert state.current_seat is None
