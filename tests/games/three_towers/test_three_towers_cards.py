"""Three Towers cards, rule options and move notation (R1–R3, docs/three-towers-notation.md)."""

from __future__ import annotations

import pytest

from taverntable.engine import DealError, MoveSyntaxError
from taverntable.games.three_towers import TowersRules, TowersState, parse_move, rules_from
from taverntable.games.three_towers.cards import (
    IS_CURSE,
    IS_GOODS,
    IS_PENALTY,
    IS_TOWER_ACE,
    IS_WARRIOR,
    JOKER,
    VALUE,
    card_class,
    card_text,
    full_deck,
    parse_card,
    total,
)
from taverntable.games.three_towers.rules import RulesError

from three_towers_helpers import cards


def test_R1_deck_is_108_cards_worth_166() -> None:
    deck = full_deck()
    assert len(deck) == 108
    assert deck.count(JOKER) == 4
    assert all(deck.count(c) == 2 for c in range(52))
    assert total(deck) == 166


def test_R1_card_text_round_trip_with_duplicates() -> None:
    for c in range(53):
        assert parse_card(card_text(c)) == c
    assert cards("7H 7H X 10h T♥") == [19, 19, JOKER, 22, 22]


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("7H", 7, "goods"),
        ("10C", 10, "goods"),
        ("2D", 2, "goods"),
        ("5S", -5, "penalty"),
        ("10S", -10, "penalty"),
        ("JH", 0, "warrior"),
        ("QD", 0, "warrior"),
        ("KC", 0, "warrior"),
        ("AH", 15, "tower ace"),
        ("AD", 15, "tower ace"),
        ("AC", 15, "tower ace"),
        ("JS", -5, "Thief"),
        ("QS", -10, "Witch"),
        ("KS", -40, "Warlock"),
        ("AS", -15, "dark tower"),
        ("X", 0, "joker"),
    ],
)
def test_R2_values_and_A_card_classes(text: str, value: int, kind: str) -> None:
    c = parse_card(text)
    assert VALUE[c] == value
    assert card_class(c) == kind


def test_A_class_counts_per_deck() -> None:
    one = range(52)
    assert sum(IS_GOODS[c] for c in one) == 27
    assert sum(IS_PENALTY[c] for c in one) == 9
    assert sum(IS_WARRIOR[c] for c in one) == 9
    assert sum(IS_TOWER_ACE[c] for c in one) == 3
    assert sum(IS_CURSE[c] for c in one) == 3


def test_rule_options_are_validated() -> None:
    assert rules_from() == TowersRules()
    assert rules_from(max_rounds=3).differences() == {"max_rounds": 3}
    with pytest.raises(RulesError, match="defence"):
        TowersRules(defence="none")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="max_rounds"):
        TowersRules(max_rounds=0)
    with pytest.raises(RulesError, match="unknown rule option"):
        rules_from(stake=2)
    with pytest.raises(RulesError, match="preset"):
        rules_from("tonk")


@pytest.mark.parametrize("n", [1, 5])
def test_R3_two_to_four_players(n: int) -> None:
    # A bad player count is a DealError in every game (the table cannot be dealt).
    with pytest.raises(DealError, match="R3"):
        TowersState.new(TowersRules(), n)


def test_R15_teams_need_four_players() -> None:
    with pytest.raises(DealError, match="R15"):
        TowersState.new(TowersRules(teams=True), 3)
    TowersState.new(TowersRules(teams=True), 4)


NOTATION = [
    "trade 7H",
    "trade X H take",
    "trade X S give",
    "build AD",
    "build AD 5D",
    "add 7C",
    "add AH",
    "raid 2 KH",
    "curse 1 KS",
    "redeal X",
    "redeal warriors J Q K K",
    "redeal jacks 2",
    "redeal queens",
    "redeal kings",
    "pass",
    "answer 9H",
    "answer JD 4C",
    "answer X give",
    "answer X take",
    "answer X",
    "fail",
    "defend QH",
    "defend X",
    "yield",
    "name 2",
    "store 7H",
    "give 7H 2",
    "take 1 AC",
    "done",
    "steal 7H QD",
    "shuffle 7H 3C X",
]


@pytest.mark.parametrize("text", NOTATION)
def test_notation_round_trip(text: str) -> None:
    move = parse_move(text)
    assert str(move) == text
    assert parse_move(str(move)) == move


def test_notation_canonical_order_and_aliases() -> None:
    assert parse_move("answer 4C JD") == parse_move("answer JD 4C")
    assert str(parse_move("answer 4c jd")) == "answer JD 4C"
    assert str(parse_move("redeal warriors K J K Q")) == "redeal warriors J Q K K"
    assert str(parse_move("steal QD 7H")) == "steal 7H QD"
    assert str(parse_move("trade x ♥ TAKE")) == "trade X H take"
    deck = " ".join(card_text(c) for c in full_deck())
    assert str(parse_move("deal " + deck)) == "deal " + deck


@pytest.mark.parametrize(
    "text",
    [
        "",
        "trade",
        "trade X",
        "trade 7H H take",
        "trade X Z take",
        "trade X H keep",
        "build",
        "raid KH 2",
        "curse 1",
        "redeal",
        "redeal warriors J Q",
        "redeal warriors J Q K A",
        "answer",
        "answer 1H 2H 3H",
        "name",
        "name one",
        "give 7H",
        "take 7H 1",
        "pass now",
        "answer 11H",
        "dance",
        "curse ² KS",
        "name ١",
        "raid ³ KH",
    ],
)
def test_notation_errors(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        parse_move(text)
