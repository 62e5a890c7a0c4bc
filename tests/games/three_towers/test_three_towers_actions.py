"""Towers (A2, A3, R8), attacks (R9), redeals (A4, R10), the count and the game's end
(R13–R15), chance steps and views (R16)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from taverntable.engine import IllegalMove
from taverntable.games.three_towers import CHANCE, TowersRules, parse_move, sample_world, view_of
from taverntable.games.three_towers.cards import total
from taverntable.games.three_towers.moves import Shuffle, Steal
from taverntable.games.three_towers.phases import ANSWER, CLUB, DARK, DEAL, OVER, SHUFFLE, TURN
from taverntable.records.core import replay_record

from three_towers_helpers import arrange, cards, deck_from_top, play, store_total

H1 = "9H 2D 3D 4D 5D 6D 8D"
H2 = "9H 2H JD 4C 5H 6H 8H"


def refused(state: object, text: str, rule: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as e:
        state.apply(parse_move(text))  # type: ignore[attr-defined]
    assert e.value.rule == rule, e.value
    return e.value


# --- towers ----------------------------------------------------------------------------------


def test_A2_R8_start_a_tower_with_an_ace_and_optional_goods() -> None:
    state = arrange(["AD AS 5D 7C 2S JH 3C", H1, H2])
    legal = {str(m) for m in state.legal_moves()}
    assert {"build AD", "build AD 5D", "build AS 7C", "build AS"} <= legal
    assert "build AD 2S" not in legal and "build AD JH" not in legal
    refused(state, "build 5D", "R8")
    refused(state, "build AD JH", "R8")
    play(state, "build AD 5D")
    assert state.towers[0] == cards("AD 5D")


def test_R8_one_tower_at_a_time_and_continue_with_goods_or_a_reinforcing_ace() -> None:
    state = arrange(["AH AS 5D 7C 2S JH 3C", H1, H2], towers=["AD 6H"])
    legal = {str(m) for m in state.legal_moves()}
    assert {"add AH", "add 5D", "add 7C"} <= legal
    assert "add AS" not in legal and not any(t.startswith("build") for t in legal)
    refused(state, "build AH", "R8")
    refused(state, "add AS", "R8")
    refused(state, "add 2S", "R8")
    play(state, "add AH")
    assert state.towers[0] == cards("AD 6H AH")


def test_R8_finishing_a_tower_ends_the_round_without_a_refill() -> None:
    # Goods 10 + 10 + 10 = 30 (the aces count nothing); the ♦ tower adds 50 (R13).
    state = arrange(["10C 2C 3C 4C 5C 6C 7C", H1, H2], towers=["AD 10H AH 10D"])
    play(state, "add 10C")
    assert state.phase == DEAL
    r = state.rounds[-1]
    assert (r.builder, r.tower) == (0, cards("AD")[0])
    assert r.points[0] == total(state.stores[0]) + 50
    assert state.marks == [1, 0, 0]
    assert len(state.stores[0]) == 6 + 5  # the hand (not refilled) and the tower


# --- attacks ---------------------------------------------------------------------------------


def test_R9_raid_repelled_by_an_equal_or_higher_warrior() -> None:
    state = arrange(["QH 2C 3C 4C 5C 6C 7C", "JD KD 2D 3D 4D 5D X", H2], towers=["", "AD 5D"])
    play(state, "raid 1 QH")
    assert state.current_seat == 1
    assert {str(m) for m in state.legal_moves()} == {"defend KD", "defend X", "yield"}
    refused(state, "defend JD", "R9")
    play(state, "defend KD")
    assert state.nobility[1] == sorted(cards("QH KD"))
    assert state.towers[1] == cards("AD 5D")


def test_R9_defence_any_option_lets_any_warrior_repel() -> None:
    state = arrange(
        ["KH 2C 3C 4C 5C 6C 7C", "JD 2D 3D 4D 5D 6D 7D", H2],
        rules=TowersRules(defence="any"),
        towers=["", "AD 5D"],
    )
    play(state, "raid 1 KH", "defend JD")
    assert state.nobility[1] == sorted(cards("JD KH"))


def test_R9_joker_defence_goes_to_the_defenders_store() -> None:
    state = arrange(["KS 2C 3C 4C 5C 6C 7C", "X 2D 3D 4D 5D 6D 7D", H2])
    play(state, "curse 1 KS", "defend X")
    assert Counter(state.known[1]) == Counter(cards("X"))
    assert cards("KS")[0] in state.stores[0]  # a repelled Warlock goes to its owner's store


def test_R9_raid_through_plunders_down_to_the_topmost_reinforcing_ace() -> None:
    state = arrange(["KH 2C 3C 4C 5C 6C 7C", H1, H2], towers=["", "AH 5H AC 6D AD 7D"], mover=0)
    play(state, "raid 1 KH", "yield")
    assert state.towers[1] == cards("AH 5H AC 6D")
    assert Counter(state.stores[0]) == Counter(cards("AD 7D"))
    assert state.nobility[0] == cards("KH")


def test_R9_raid_through_without_reinforcement_takes_the_whole_tower() -> None:
    state = arrange(["JH 2C 3C 4C 5C 6C 7C", H1, H2], towers=["", "AS 5H 6D"])
    play(state, "raid 1 JH", "yield")
    assert state.towers[1] == []
    assert Counter(state.stores[0]) == Counter(cards("AS 5H 6D"))


def test_R9_warlock_through_goes_to_the_victims_store() -> None:
    state = arrange(["KS 2C 3C 4C 5C 6C 7C", H1, H2])
    refused(state, "curse 0 KS", "R9")
    play(state, "curse 2 KS")
    assert {str(m) for m in state.legal_moves()} == {"yield"}  # a J cannot repel a K (rank)
    play(state, "yield")
    assert state.stores[2] == cards("KS")


def test_R9_thief_steals_up_to_four_cards_at_random_as_a_chance_step() -> None:
    state = arrange(["JS 2C 3C 4C 5C 6C 7C", H1, H2], stores=["", "10H 10D 9C 8C 7H 2S"])
    play(state, "curse 1 JS", "yield")
    assert state.current_seat == CHANCE and state.legal_moves() == []
    refused(state, "steal 10H 10D 9C", "R9")
    refused(state, "steal 10H 10D 9C 9C", "R9")
    refused(state, "pass", "R9")
    move = state.sample_chance(random.Random(1))
    assert isinstance(move, Steal) and len(move.cards) == 4
    play(state, "steal 10H 10D 9C 2S")
    assert Counter(state.stores[0]) == Counter(cards("10H 10D 9C 2S"))
    assert Counter(state.stores[1]) == Counter(cards("8C 7H JS"))
    assert state.phase == TURN


def test_R9_thief_on_an_empty_store_steals_nothing() -> None:
    state = arrange(["JS 2C 3C 4C 5C 6C 7C", H1, H2])
    play(state, "curse 1 JS", "yield")
    assert state.phase == TURN and state.stores[1] == cards("JS")


def test_R9_witch_trade_in_spades_owner_last_and_owner_names_the_taker() -> None:
    state = arrange(["QS 5S 3C 4C 5C 6C 7C", "9S 2D 3D 4D 5D 6D 8D", "X 2H JD 4C 5H 6H 8H"])
    play(state, "curse 1 QS", "yield")
    assert state.phase == ANSWER and state.current_seat == 1
    play(state, "answer 9S")
    assert {str(m) for m in state.legal_moves()} >= {"answer X", "answer 2H JD"}
    refused(state, "answer X take", "R18")
    play(state, "answer X", "answer 5S")
    assert state.current_seat == 0
    refused(state, "name 0", "R9")
    play(state, "name 2")
    assert Counter(state.stores[2]) == Counter(cards("9S X 5S QS"))
    assert state.phase == TURN and state.current_seat == 1


def test_R9_R15_no_raid_or_curse_on_a_partner_but_the_witch_may_name_the_partner() -> None:
    # R9 names "any other player" and the seed's pair limits are building and repelling only,
    # so the Witch's owner may give the trade to the partner (issue 15: R18 no longer forbids it).
    hands = ["KH QS 3C 4C 5C 6C 7C", H1, "9H 2H JD 4C 5H 6H 8H", "2S 3S 4S 5S 6S 7S 8S"]
    state = arrange(hands, rules=TowersRules(teams=True), towers=["", "AD 5D", "AH 5H"])
    assert "partner" in refused(state, "raid 2 KH", "R9").reason
    refused(state, "curse 2 QS", "R9")
    play(state, "curse 1 QS", "yield", "answer 2D 3D", "answer 2H 4C", "answer 2S", "answer 3C 4C")
    assert {str(m) for m in state.legal_moves()} == {"name 1", "name 2", "name 3"}
    assert "yourself" in refused(state, "name 0", "R9").reason
    play(state, "name 2")
    assert Counter(state.stores[2]) == Counter(cards("2D 3D 2H 4C 2S 3C 4C QS"))
    assert state.phase == TURN and state.current_seat == 1


def test_R9_issue15_reproduction_the_witch_owner_names_the_partner() -> None:
    # The issue's record: seat 0 curses seat 1 with the Witch, everyone answers, seat 0 names
    # its partner, seat 2 (refused with "(R18)" before).
    record = {
        "game": "three-towers",
        "players": ["A", "B", "C", "D"],
        "dealer": 3,
        "rules": {"teams": True},
        "cards": {
            "deck": deck_from_top(
                "QS 2S 3S 4S 5S 2D 2C 7H 2H 3D 3C 8H 3H 4D 4C 9H 4H 5D "
                "5C 8D 5H 6D 6C 9D 6H 7D 7C 8C"
            )
        },
        "moves": [
            [0, "curse 1 QS"],
            [1, "yield"],
            [1, "answer 2S"],
            [2, "answer 3S"],
            [3, "answer 4S"],
            [0, "answer 5S"],
            [0, "name 2"],
        ],
    }
    state = replay_record(record).state
    assert Counter(state.stores[2]) == Counter(cards("2S 3S 4S 5S QS"))
    assert state.phase == TURN and state.current_seat == 1


# --- redeals ---------------------------------------------------------------------------------


def test_A4_R10_joker_redeal_shuffles_the_hand_into_the_deck() -> None:
    state = arrange(["X 2C 3C 4C 5C 6C 7C", H1, H2])
    before = Counter(state.deck) + Counter(cards("2C 3C 4C 5C 6C 7C"))
    play(state, "redeal X")
    assert state.phase == SHUFFLE and state.current_seat == CHANCE
    assert state.stores[0] == cards("X")
    move = state.sample_chance(random.Random(3))
    assert isinstance(move, Shuffle) and Counter(move.cards) == before
    refused(state, "shuffle 2C", "R10")
    state.apply(move)
    assert len(state.hands[0]) == 7 and state.current_seat == 1
    assert state.hands[0] == sorted(move.cards[:7])


def test_R10_any_four_warriors_by_rank() -> None:
    state = arrange(["2C 3C 4C 5C 6C 7C 8C", H1, H2], nobility=["JH QD KC KD JD"])
    legal = {str(m) for m in state.legal_moves()}
    assert {
        "redeal warriors J J Q K",
        "redeal warriors J Q K K",
        "redeal warriors J J K K",
    } <= legal
    assert "redeal warriors Q Q K K" not in legal
    refused(state, "redeal warriors Q Q K K", "R10")
    play(state, "redeal warriors J Q K K")
    assert state.nobility[0] == cards("JD")
    assert Counter(state.stores[0]) == Counter(cards("JH QD KC KD"))
    assert state.phase == SHUFFLE


def test_R10_four_jacks_give_the_hand_to_an_opponents_store() -> None:
    state = arrange(["2C 3C 4C 5C 6C 7C 8C", H1, H2], nobility=["JH JH JD JC"])
    refused(state, "redeal jacks 0", "R10")
    play(state, "redeal jacks 2")
    assert Counter(state.stores[2]) == Counter(cards("2C 3C 4C 5C 6C 7C 8C"))
    assert state.known[2] == []  # face down: the others do not see which cards
    assert len(state.hands[0]) == 7 and state.current_seat == 1


def test_R10_four_queens_store_chosen_cards_and_shuffle_the_rest() -> None:
    state = arrange(["10C 3C 4C 5C 6C 7C 8C", H1, H2], nobility=["QH QH QD QC KC"])
    play(state, "redeal queens")
    assert state.current_seat == 0
    assert {str(m) for m in state.legal_moves()} == {
        "store 10C",
        "store 3C",
        "store 4C",
        "store 5C",
        "store 6C",
        "store 7C",
        "store 8C",
        "done",
    }
    play(state, "store 10C", "store 8C", "done")
    assert Counter(state.stores[0]) == Counter(cards("QH QH QD QC 10C 8C"))
    assert state.nobility[0] == cards("KC")
    assert state.phase == SHUFFLE


def test_R10_four_kings_give_each_card_to_a_chosen_store() -> None:
    state = arrange(["10C 3C 4C 5S 6C 7C 8C", H1, H2], nobility=["KH KH KD KC"])
    play(state, "redeal kings")
    refused(state, "done", "R10")
    play(state, "give 5S 1", "give 10C 0", "give 3C 2", "give 4C 2", "give 6C 1", "give 7C 0")
    assert state.current_seat == 0
    play(state, "give 8C 0")
    assert Counter(state.stores[0]) == Counter(cards("KH KH KD KC 10C 7C 8C"))
    assert Counter(state.stores[1]) == Counter(cards("5S 6C"))
    assert state.phase == TURN and state.current_seat == 1 and len(state.hands[0]) == 7


# --- the count and the game's end ------------------------------------------------------------


def test_R13_club_tower_takes_up_to_four_chosen_cards_from_opponents() -> None:
    state = arrange(
        ["10C 2C 3C 4C 5C 6C 7C", "KS 10H 10D", "X"],
        towers=["AC 10H 10D"],
        stores=["", "2D 3D 4D 5D 6D", "9H"],
        deck_size=20,
    )
    play(state, "add 10C")
    assert state.phase == CLUB and state.current_seat == 0
    legal = {str(m) for m in state.legal_moves()}
    assert "take 1 10H" in legal and "take 2 X" in legal and "done" in legal
    play(state, "take 1 10H", "take 1 10D", "take 2 9H", "take 1 6D")
    assert state.phase == DEAL  # four taken: the count follows
    r = state.rounds[-1]
    assert r.points[0] == store_total(state, 0)
    assert Counter(cards("10H 10D 9H 6D")) <= Counter(state.stores[0])


def test_R13_dark_tower_gives_up_to_four_cards_to_other_players() -> None:
    state = arrange(
        ["10C 2C 3C 4C 5C 6C 7C", H1, H2], towers=["AS 10H 10D"], stores=["KS QS"], deck_size=20
    )
    play(state, "add 10C")
    assert state.phase == DARK and state.current_seat == 0
    refused(state, "give KS 0", "R13")
    play(state, "give KS 1", "give QS 2", "done")
    assert state.phase == DEAL
    assert cards("KS")[0] in state.stores[1] and cards("QS")[0] in state.stores[2]


def test_R13_hearts_tower_doubles_the_round_points() -> None:
    state = arrange(["10C 2C 3C 4C 5C 6C 7C", H1, H2], towers=["AH 10H 10D"], deck_size=20)
    play(state, "add 10C")
    r = state.rounds[-1]
    assert r.points[0] == 2 * store_total(state, 0)
    assert r.points[1] == store_total(state, 1)
    assert state.scores == list(r.points)


def test_R14_third_tower_ends_the_game_with_150() -> None:
    state = arrange(["10C 2C 3C 4C 5C 6C 7C", H1, H2], towers=["AD 10H 10D"], deck_size=20)
    state.marks[0] = 2
    play(state, "add 10C")
    assert state.phase == OVER and state.current_seat is None
    result = state.result
    assert result is not None and result.end == "towers"
    assert result.scores[0] == store_total(state, 0) + 50 + 150
    assert result.towers == (3, 0, 0)


def test_R14_max_rounds_ends_the_game() -> None:
    state = arrange(["7H 3C 4C 5C 6C 7C 8C", H1, H2], rules=TowersRules(max_rounds=1), deck_size=2)
    play(state, "trade 7H", "answer 9H", "answer 9H")
    assert state.result is not None and state.result.end == "rounds"
    best = max(state.scores)
    assert state.result.winners == tuple(s for s in range(3) if state.scores[s] == best)


def test_R15_partners_add_towers_and_points() -> None:
    hands = ["10C 2C 3C 4C 5C 6C 7C", H1, "9H 2H JD 4C 5H 6H 8H", "2S 3S 4S 5S 6S 7S 8S"]
    state = arrange(hands, rules=TowersRules(teams=True), towers=["AD 10H 10D"], deck_size=30)
    state.marks[2] = 2  # the partner's two towers count for the pair
    play(state, "add 10C")
    result = state.result
    assert result is not None and result.end == "towers"
    assert result.winners in ((0, 2), (1, 3))
    pair = [result.scores[0] + result.scores[2], result.scores[1] + result.scores[3]]
    assert result.winners == ((0, 2) if pair[0] >= pair[1] else (1, 3))


def test_R3_next_round_is_dealt_by_the_next_seat() -> None:
    state = arrange(["7H 3C 4C 5C 6C 7C 8C", H1, H2], deck_size=2)
    dealer = state.dealer
    play(state, "trade 7H", "answer 9H", "answer 9H")
    assert state.phase == DEAL and state.dealer == (dealer + 1) % 3
    state.apply(state.sample_chance(random.Random(0)))
    assert state.round_no == 2 and state.current_seat == (state.dealer + 1) % 3
    assert all(len(h) == 7 for h in state.hands) and sum(map(len, state.stores)) == 0


# --- views (R16) -----------------------------------------------------------------------------


def test_R16_view_shows_own_hand_and_sizes_not_other_hands() -> None:
    state = arrange(["X 2C 3C 4C 5C 6C 7C", H1, H2], stores=["9S", "10H"])
    v = view_of(state, 1)
    assert v.hand == tuple(state.hands[1])
    assert v.hand_sizes == (7, 7, 7) and v.store_sizes[:2] == (1, 1)
    assert v.deck_size == len(state.deck)
    assert v.store == tuple(cards("10H"))
    assert v.legal_moves == () and view_of(state, 0).legal_moves
    hidden = view_of(state.clone(), 1)
    assert hidden == v
    off = arrange(["X 2C 3C 4C 5C 6C 7C", H1, H2], rules=TowersRules(own_store_visible=False))
    assert view_of(off, 1).store is None


def test_R16_deals_and_shuffles_are_hidden_in_the_history() -> None:
    state = arrange(["X 2C 3C 4C 5C 6C 7C", H1, H2])
    play(state, "redeal X")
    state.apply(state.sample_chance(random.Random(0)))
    texts = [str(m) for _, m in view_of(state, 1).history]
    assert texts == ["redeal X", "shuffle"]
    w = sample_world(view_of(state, 1), random.Random(5))
    assert view_of(w, 1) == view_of(state, 1)
