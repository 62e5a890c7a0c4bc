"""Trades: leading (R4), answering (R5), failing (R6), winning (R7); the turn (R3, R11, R12)."""

from __future__ import annotations

from collections import Counter

import pytest

from taverntable.engine import IllegalMove
from taverntable.games.three_towers import TowersRules, TowersState, parse_move
from taverntable.games.three_towers.phases import ANSWER, DEAL, TURN

from three_towers_helpers import arrange, cards, hand, play, stacked_deck

H0 = "7H 2C 3C 4C 5C 6C 8C"
H1 = "9H 2D 3D 4D 5D 6D 8D"
H2 = "9H 2H JD 4C 5H 6H 8H"


def test_R3_deal_one_at_a_time_from_the_dealers_left() -> None:
    hands = [H0, H1, H2]
    state = TowersState.start(TowersRules(), 3, deck=stacked_deck(hands, dealer=1), dealer=1)
    assert [hand(state, s) for s in range(3)] == [
        " ".join(sorted(h.split(), key=lambda t: cards(t)[0])) for h in hands
    ]
    assert state.current_seat == 2  # the seat after the dealer moves first
    assert len(state.deck) == 108 - 21


def test_R4_lead_goods_penalty_or_joker_only() -> None:
    state = arrange(["7H JH AH 5S X 2C 3C", H1, H2])
    legal = {str(m) for m in state.legal_moves()}
    assert {"trade 7H", "trade 5S", "trade 2C", "trade X S take", "trade X D give"} <= legal
    for bad in ("trade JH", "trade AH"):
        with pytest.raises(IllegalMove) as e:
            state.apply(parse_move(bad))
        assert e.value.rule == "R4"
    with pytest.raises(IllegalMove, match="not in your hand"):
        state.apply(parse_move("trade 9D"))


def test_R5_answers_in_seat_order_after_the_mover() -> None:
    state = arrange([H0, H1, H2, "9D 10D 3S 4S 5S 6S 7S"], mover=2)
    play(state, "trade 8H")
    order = []
    while state.phase == ANSWER:
        order.append(state.current_seat)
        state.apply(state.legal_moves()[0])
    assert order == [3, 0, 1]


def test_R5_answer_options_single_joker_or_two_plain_cards() -> None:
    state = arrange([H0, "9H 10H X 5S JD AC 2D", H2])
    play(state, "trade 7H")
    legal = {str(m) for m in state.legal_moves()}
    assert {
        "answer 9H",
        "answer 10H",
        "answer X take",
        "answer X give",
        "answer JD AC",
        "answer 9H 2D",
        "answer 2D AC",
    } <= legal
    assert not any("5S" in t for t in legal)  # spades never answer a heart trade
    assert not any(
        t.startswith("answer X ") and len(t.split()) == 3 and "take" not in t and "give" not in t
        for t in legal
    )
    with pytest.raises(IllegalMove) as e:
        state.apply(parse_move("answer 2D"))
    assert e.value.rule == "R5"
    with pytest.raises(IllegalMove, match="non-spade"):
        state.apply(parse_move("answer 5S 2D"))
    with pytest.raises(IllegalMove) as e:
        state.apply(parse_move("fail"))
    assert e.value.rule == "R6"


def test_R5_spade_trade_is_answered_with_penalty_cards() -> None:
    state = arrange(["5S 2C 3C 4C 5C 6C 8C", "9S 10H 2D JS QS KS AS", H2])
    play(state, "trade 5S")
    legal = {str(m) for m in state.legal_moves()}
    assert "answer 9S" in legal and "answer 10H 2D" in legal
    assert "answer JS" not in legal and "answer AS" not in legal
    play(state, "answer 9S")


def test_R6_cannot_answer_lays_the_one_card_shows_hand_draws_and_no_longer_competes() -> None:
    state = arrange(
        [H0, "2S 3S JS QS KS AS 5D", "8H 2H 3H 4H 5H 6H 7D"], deck_top="10H 2D 3D 4D 6D 7D 8D"
    )
    play(state, "trade 7H")
    assert [str(m) for m in state.legal_moves()] == ["fail"]
    play(state, "fail")
    assert state.shown == [(1, tuple(sorted(cards("2S 3S JS QS KS AS"))))]
    assert Counter(state.stores[1]) == Counter(cards("2S 3S JS QS KS AS"))
    assert hand(state, 1) == "10H 2D 3D 4D 6D 7D 8D"
    assert state.current_seat == 1  # answers again (R6)
    play(state, "answer 10H", "answer 8H")
    # 10H no longer competes: 8H beats the lead 7H; seat 2 takes every laid card, 5D included.
    assert Counter(cards("7H 5D 10H 8H")) <= Counter(state.stores[2])
    assert state.phase == TURN


def test_R6_fail_with_an_empty_deck_lays_nothing_more_and_the_round_ends() -> None:
    state = arrange([H0, "2S 3S JS QS KS AS 5D", H2], deck_size=0)
    play(state, "trade 7H", "fail")
    assert state.hands[1] == []
    assert state.current_seat == 2
    play(state, "answer 9H")
    assert state.phase == DEAL  # R12: nobody can refill, so the round ended and was counted
    assert len(state.rounds) == 1


@pytest.mark.parametrize(
    ("lead", "answers", "winner"),
    [
        ("trade 7H", ["answer 9H", "answer 9H"], 1),  # equal highest: the first laid wins
        ("trade 7H", ["answer 2D 3D", "answer 2H 4C"], 0),  # the leader always competes
        ("trade 7H", ["answer X take", "answer 9H"], 1),  # a taking joker beats every card
        ("trade 7H", ["answer 9H", "answer X take"], 2),
        ("trade 7H", ["answer X give", "answer 2H 4C"], 0),  # a giving joker is below all
        ("trade X H give", ["answer 2D 3D", "answer 2H"], 2),
        ("trade X H take", ["answer X take", "answer 9H"], 0),  # equal jokers: the first
    ],
)
def test_R7_trade_winner(lead: str, answers: list[str], winner: int) -> None:
    state = arrange(["7H X 3C 4C 5C 6C 8C", "9H X 2D 3D 5D 6D 8D", "9H 2H X 4C 5H 6H 8H"])
    play(state, lead, *answers)
    laid = [
        c
        for m in [lead, *answers]
        for c in cards(" ".join(w for w in m.split()[1:] if w not in ("take", "give", "H")))
    ]
    assert Counter(laid) <= Counter(state.stores[winner])


def test_R7_equal_highest_first_laid_wins() -> None:
    state = arrange([H0, H1, H2])
    play(state, "trade 7H", "answer 9H", "answer 9H")
    assert Counter(cards("7H 9H 9H")) == Counter(state.stores[1])


def test_R7_warriors_go_to_the_winners_nobility() -> None:
    state = arrange([H0, H1, H2])
    play(state, "trade 7H", "answer 9H", "answer JD 4C")
    assert state.nobility[1] == cards("JD")
    assert Counter(state.stores[1]) == Counter(cards("7H 9H 4C"))


def test_R12_refill_in_seat_order_from_the_mover() -> None:
    state = arrange([H0, H1, H2], mover=1, deck_top="2S 3S 4S 5S")
    play(state, "trade 9H", "answer JD 4C", "answer 7H")
    # mover 1 draws first (1 card), then seat 2 (2 cards), then seat 0 (1 card).
    assert "2S" in hand(state, 1).split()
    assert {"3S", "4S"} <= set(hand(state, 2).split())
    assert "5S" in hand(state, 0).split()
    assert all(len(h) == 7 for h in state.hands)
    assert state.current_seat == 2 and state.phase == TURN


def test_R12_a_short_deck_ends_the_round() -> None:
    state = arrange([H0, H1, H2], deck_size=3)
    play(state, "trade 7H", "answer 9H", "answer JD 4C")
    assert state.phase == DEAL and len(state.rounds) == 1
    assert state.deck == []
    assert all(not h for h in state.hands)


def test_R11_pass_only_when_nothing_else_is_legal() -> None:
    state = arrange(["JH JH QD QD KC KC JC", H1, H2], towers=["AH 5H"])
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    play(state, "pass")
    assert state.current_seat == 1
    other = arrange([H0, H1, H2])
    with pytest.raises(IllegalMove) as e:
        other.apply(parse_move("pass"))
    assert e.value.rule == "R11"


def test_R17_a_whole_round_of_passes_ends_the_round() -> None:
    # Warriors only and no tower anywhere: nobody can trade, build, raid, curse or redeal.
    state = arrange(["JH JH QD QD KC KC JC", "JD JD QH QH KD KD JC"])
    play(state, "pass", "pass")
    assert state.phase == DEAL and len(state.rounds) == 1


def test_out_of_turn_moves_name_whose_decision_it_is() -> None:
    state = arrange([H0, H1, H2])
    play(state, "trade 7H")
    with pytest.raises(IllegalMove, match="seat 1 must answer"):
        state.apply(parse_move("trade 2C"))
