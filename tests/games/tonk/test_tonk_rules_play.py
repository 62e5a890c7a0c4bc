"""Tonk rules T5–T12: the turn, drop, draw, spread and hit, discard, going out, the stock."""

from __future__ import annotations

import pytest

from taverntable.engine import IllegalMove, MoveSyntaxError
from taverntable.games.tonk import (
    PAGAT,
    PRESETS,
    TONK,
    TOR,
    TonkRules,
    TonkState,
    parse_move,
    rules_from,
)

from tonk_helpers import play, stacked


def refused(state: TonkState, move: str, rule: str, words: str) -> None:
    """The move is refused with the rule number and an explanation containing ``words``."""
    with pytest.raises(IllegalMove) as caught:
        state.apply_text(move)
    assert caught.value.rule == rule
    assert words in str(caught.value)
    assert parse_move(move) not in state.legal_moves()


def legal(state: TonkState) -> set[str]:
    return {str(m) for m in state.legal_moves()}


# Two players, seat 0 first. Seat 0 holds a run start and a pair; seat 1 odds and ends.
RUNNER = ["5H 6H 7H KS KD", "2C 9S 4D JC 10C"]


# --- T5 a turn ------------------------------------------------------------------------------


def test_T5_turn_starts_with_drop_or_draw() -> None:
    state = stacked("tonk", RUNNER, "KC", "8H")
    assert legal(state) == {"drop", "draw stock", "draw pile"}
    refused(state, "discard KS", "T5", "draw first")
    refused(state, "spread 5H 6H 7H", "T5", "draw first")


def test_T5_after_drawing_spread_hit_then_discard() -> None:
    state = play(stacked("tonk", RUNNER, "KC", "8H"), "draw stock")
    assert "spread 5H 6H 7H 8H" in legal(state)
    refused(state, "draw stock", "T5", "already drawn")
    refused(state, "drop", "T6", "start of your turn")


# --- T6 drop --------------------------------------------------------------------------------

FOUR = ["10S 10D 5H 3C 2C", "10H 4D 3S 2D AS", "10C 9S 3D 2H AH", "KS QS JS 9H AC"]


def test_T6_drop_succeeds_when_every_other_total_is_greater() -> None:
    state = play(stacked("tonk", ["10H 4D 3S 2D AS", *FOUR[2:]], "7D"), "drop")
    assert state.result is not None and state.result.end == "drop"
    assert state.result.totals == (20, 25, 40)
    assert sorted(state.result.payments) == [(1, 0, 1), (2, 0, 1)]
    assert state.result.net == (2, -1, -1)


def test_T6_burned_drop_pays_double_to_the_catchers_and_the_rest_pay_the_lowest() -> None:
    state = play(stacked("tonk", FOUR, "7D"), "drop")
    r = state.result
    assert r is not None and r.end == "burned"
    assert r.totals == (30, 20, 25, 40)
    assert r.winners == (1,)  # W: the lowest other total
    # B = {1, 2} get 2× from the dropper; seat 3 (40 > 30) pays 1× to W = {1} only.
    assert sorted(r.payments) == [(0, 1, 2), (0, 2, 2), (3, 1, 1)]
    assert r.net == (-4, 3, 2, -1)


def test_T6_a_tie_burns_the_drop() -> None:
    state = play(stacked("tonk", ["10S 10D 5H 3C 2C", "10H 10C 5D 3S 2S"], "7D"), "drop")
    assert state.result is not None and state.result.end == "burned"
    assert state.result.payments == ((0, 1, 2),)


def test_T6_spread_cards_do_not_count_in_a_drop() -> None:
    state = stacked("tonk", ["5H 6H 7H KS 2D", "9C 9S 4D JC 10C"], "AC", "8H 3S 4S")
    play(state, "draw stock", "spread 5H 6H 7H 8H", "discard KS", "draw stock", "discard 3S")
    assert state.total(0) == 2
    play(state, "drop")
    assert state.result is not None and state.result.totals == (2, 42)


def _hit_seat_zero(rules_name: str) -> TonkState:
    state = stacked(rules_name, ["7H 8H 9H KS QS", "10H 2C 3C 4D 5D"], "AD", "KD 2S 3S 4S")
    return play(
        state,
        "draw stock",
        "spread 7H 8H 9H",
        "discard KD",
        "draw stock",
        "hit 0 10H",
        "discard 2S",
    )


def test_T6_pagat_hit_lock_forbids_the_drop_after_a_hit() -> None:
    state = _hit_seat_zero("pagat")
    refused(state, "drop", "T6", "hit lock")
    play(state, "draw stock", "discard 3S", "draw stock", "discard 4S")
    assert "drop" in legal(state)  # the lock lasts one turn


def test_T6_tonk_has_no_hit_lock() -> None:
    assert "drop" in legal(_hit_seat_zero("tonk"))


def test_T6_hit_lock_option_applies_to_any_preset() -> None:
    state = stacked(
        rules_from("tonk", hit_lock=True), ["7H 8H 9H KS QS", "10H 2C 3C 4D 5D"], "AD", "KD 2S"
    )
    play(
        state,
        "draw stock",
        "spread 7H 8H 9H",
        "discard KD",
        "draw stock",
        "hit 0 10H",
        "discard 2S",
    )
    assert "drop" not in legal(state)


# --- T7 draw --------------------------------------------------------------------------------


def test_T7_draw_takes_the_top_card() -> None:
    state = play(stacked("tonk", RUNNER, "KC", "8H 3S"), "draw pile")
    assert "KC" in {c.text for c in state.hand(0)}
    assert state.pile == []
    play(state, "discard KS", "draw stock")
    assert "8H" in {c.text for c in state.hand(1)}


def test_T7_empty_pile_cannot_be_drawn() -> None:
    state = stacked("tor", ["8S 8D 2C 3C 4D", "9C 9S 4H JC 10C"], "8H")
    play(state, "draw pile", "spread 8S 8D 8H", "end")
    assert state.pile == []
    refused(state, "draw pile", "T7", "pile is empty")


# --- T8 spread and hit ----------------------------------------------------------------------


def test_T8_sets_of_three_or_four_and_runs_of_three_or_more() -> None:
    state = play(
        stacked("tonk", ["KH KD KC 5S 6S", "2C 9S 4D JC 10C"], "AD", "KS 7S"), "draw stock"
    )
    assert {"spread KH KD KC", "spread KS KH KD KC", "spread KS KH KD"} <= legal(state)
    refused(state, "spread KH KD", "T8", "neither a set")
    refused(state, "spread 5S 6S KS", "T8", "neither a set")
    refused(state, "spread 5S 6S 8S", "T8", "not in your hand")


def test_T8_run_must_be_consecutive_in_one_suit() -> None:
    state = play(stacked("tonk", ["5H 6H 8H 7D KS", "2C 9S 4D JC 10C"], "AD", "9H"), "draw stock")
    refused(state, "spread 5H 6H 8H", "T8", "neither a set")
    refused(state, "spread 5H 6H 7D", "T8", "neither a set")
    assert not any(m.startswith("spread") for m in legal(state))


def test_T8_hit_a_run_at_either_end_with_several_cards() -> None:
    state = stacked("tonk", ["5H 6H 7H KS QS", "3H 4H 8H 2C 9D"], "AD", "KD 10H")
    play(state, "draw stock", "spread 5H 6H 7H", "discard KD", "draw stock")
    moves = legal(state)
    assert {"hit 0 4H", "hit 0 3H 4H", "hit 0 8H", "hit 0 4H 8H", "hit 0 3H 4H 8H"} <= moves
    refused(state, "hit 0 3H", "T8", "unbroken run")
    refused(state, "hit 0 10H", "T8", "unbroken run")
    play(state, "hit 0 3H 4H 8H")
    assert state.spreads == [(0, state.spread_mask[0])]
    assert len(state.hand(1)) == 3


def test_T8_set_of_three_takes_its_fourth_card_only() -> None:
    state = stacked("tonk", ["KH KD KC 5S 6S", "KS 9S 4D JC 10C"], "AD", "2D 3C")
    play(state, "draw stock", "spread KH KD KC", "discard 2D", "draw stock")
    assert "hit 0 KS" in legal(state)
    refused(state, "hit 0 9S", "T8", "fourth card")
    play(state, "hit 0 KS", "discard 3C")
    play(state, "draw stock")
    assert not any(m.startswith("hit") for m in legal(state))


def test_T8_hit_sets_off_allows_runs_only() -> None:
    rules = rules_from("pagat", hit_sets=False)
    state = stacked(rules, ["KH KD KC 5S 6S", "KS 9S 4D JC 10C"], "AD", "2D 3C")
    play(state, "draw stock", "spread KH KD KC", "discard 2D", "draw stock")
    assert "hit 0 KS" not in legal(state)
    refused(state, "hit 0 KS", "T8", "runs only")


def test_T8_spreads_are_numbered_in_order_and_keep_their_number() -> None:
    state = stacked("tonk", ["KH KD KC 5S 6S", "2H 3H 4H 9D 10C"], "AD", "7S 5H KS")
    play(state, "draw stock", "spread KH KD KC", "discard 5S")
    play(state, "draw stock", "spread 2H 3H 4H 5H", "discard 9D")
    play(state, "draw stock", "hit 0 KS", "discard 7S")
    kings = sum(1 << (13 * suit + 12) for suit in range(4))
    hearts = sum(1 << (13 + r) for r in range(1, 5))
    assert state.spreads == [(0, kings), (1, hearts)]
    assert state.total(0) == 6  # cards on the table never count


# --- T9 discard -----------------------------------------------------------------------------


def test_T9_tonk_discard_is_mandatory_and_not_the_card_taken_from_the_pile() -> None:
    state = play(stacked("tonk", ["5H 6H 7H KS QS", "2C 9S 4D JC 10C"], "KD"), "draw pile")
    refused(state, "discard KD", "T9", "taken from the pile")
    play(state, "spread 5H 6H 7H")
    refused(state, "end", "T9", "must discard")
    refused(state, "discard KD", "T9", "taken from the pile")
    play(state, "discard KS")
    assert state.current_seat == 1


def test_T9_tonk_pile_card_may_go_as_the_last_card() -> None:
    state = play(stacked("tonk", ["5H 6H 7H 8H 9H", "2C 9S 4D JC 10C"], "KC"), "draw pile")
    play(state, "spread 5H 6H 7H 8H 9H")
    assert legal(state) == {"discard KC"}
    play(state, "discard KC")
    assert state.result is not None and state.result.end == "out"


def test_T9_pagat_discard_rule_is_as_tonk() -> None:
    state = play(stacked("pagat", ["5H 6H 7H KS QS", "2C 9S 4D JC 10C"], "KD"), "draw pile")
    refused(state, "discard KD", "T9", "taken from the pile")


def test_T9_tor_may_end_without_discarding_only_after_a_new_spread() -> None:
    state = play(stacked("tor", ["5H 6H 7H KS QS", "2C 9S 4D JC 10C"], "KD"), "draw pile")
    assert "discard KD" in legal(state)  # tor: any card, the pile card too
    refused(state, "end", "T9", "only after laying a new spread")
    play(state, "spread 5H 6H 7H")
    assert "end" in legal(state)
    play(state, "end")
    assert state.current_seat == 1 and state.pile == []


def test_T9_tor_a_hit_alone_does_not_allow_ending() -> None:
    state = stacked("tor", ["5H 6H 7H KS QS", "8H 2C 9S 4D JC"], "AD", "KD 3S")
    play(state, "draw stock", "spread 5H 6H 7H", "end", "draw stock", "hit 0 8H")
    refused(state, "end", "T9", "only after laying a new spread")


# --- T10 going out --------------------------------------------------------------------------


def test_T10_out_by_discarding_the_last_card_pays_single() -> None:
    for rules in (TONK, PAGAT):
        state = stacked(rules, ["5H 6H 7H 8H KS", "2C 9S 4D JC 10C"], "AD", "9H")
        play(state, "draw stock", "spread 5H 6H 7H 8H 9H", "discard KS")
        assert state.result is not None and state.result.end == "out"
        assert state.result.payments == ((1, 0, 1),)


def test_T10_out_by_spreading_single_in_tonk_double_in_pagat() -> None:
    for rules, amount in ((TONK, 1), (TOR, 1), (PAGAT, 2)):
        state = stacked(rules, ["5H 6H 7H 8H 9H", "2C 9S 4D JC 10C"], "AD", "10H")
        play(state, "draw stock", "spread 5H 6H 7H 8H 9H 10H")
        assert state.result is not None and state.result.end == "out"
        assert state.result.winners == (0,)
        assert state.result.payments == ((1, 0, amount),), rules.preset


def test_T10_out_by_hitting_another_players_spread() -> None:
    for rules, amount in ((TONK, 1), (PAGAT, 2)):
        state = stacked(rules, ["5H 6H 7H KS QS", "8H 9H 10H 2C 3C"], "AD", "JD 4C")
        play(state, "draw stock", "spread 5H 6H 7H", "discard JD")
        play(state, "draw stock", "spread 2C 3C 4C", "hit 0 8H 9H 10H")
        assert state.result is not None and state.result.end == "out"
        assert state.result.payments == ((0, 1, amount),)
        assert state.result.totals == (20, 0)


# --- T11 the stock runs out ------------------------------------------------------------------


def ten_players(
    rules: TonkRules | str, seat0: str, seat1: str | None, upcard: str, last: str
) -> TonkState:
    """Ten players: the stock holds one card. Other hands are dealt round-robin from the rest."""
    from taverntable.cards import CARDS, parse_index

    fixed = [seat0] + ([seat1] if seat1 else [])
    used = {parse_index(c) for h in fixed for c in h.split()} | {
        parse_index(upcard),
        parse_index(last),
    }
    rest = [c for c in range(52) if c not in used]
    k = 10 - len(fixed)
    others = [" ".join(CARDS[rest[i + k * j]].text for j in range(5)) for i in range(k)]
    state = stacked(rules, [*fixed, *others], upcard, last)
    assert not state.is_over and len(state.stock) == 1
    return state


@pytest.mark.parametrize("preset", ["tonk", "tor"])
def test_T11_deal_ends_after_the_turn_that_drew_the_last_card(preset: str) -> None:
    state = ten_players(preset, "5H 6H 7H 8H 9H", None, "2D", "10H")
    play(state, "draw stock")
    assert not state.is_over  # the player completes the turn
    play(state, "discard 10H")
    r = state.result
    assert r is not None and r.end == "stock"
    low = min(r.totals)
    assert r.winners == tuple(s for s in range(10) if r.totals[s] == low)
    assert len(r.payments) == 10 - len(r.winners)
    assert all(amount == 1 and to in r.winners for _, to, amount in r.payments)


def test_T11_the_player_who_drew_the_last_card_may_still_go_out() -> None:
    state = ten_players("tonk", "5H 6H 7H 8H 9H", None, "2D", "10H")
    play(state, "draw stock", "spread 5H 6H 7H 8H 9H 10H")
    assert state.result is not None and state.result.end == "out"


def test_T11_pagat_goes_on_from_the_pile_after_the_stock_is_empty() -> None:
    state = ten_players("pagat", "5H 6H 7H 8H 9H", None, "2D", "10H")
    play(state, "draw stock", "discard 10H")
    assert not state.is_over
    # Drop, take the pile's card, or decline it ("draw stock"), which ends the deal (T11).
    assert legal(state) == {"drop", "draw pile", "draw stock"}
    play(state, "draw pile")
    assert not state.is_over
    refused(state, "draw stock", "T11", "start of your turn")


def test_T11_stock_end_empty_ends_when_nothing_can_be_drawn() -> None:
    rules = rules_from("tor", stock_end="empty")
    state = ten_players(rules, "2S 2H 5C 8H 9H", "10S 10D 2C 3S KC", "2D", "10H")
    play(state, "draw pile", "spread 2S 2H 2D", "end")  # the pile is empty
    play(state, "draw stock", "spread 10S 10D 10H", "end")  # and now the stock too
    r = state.result
    assert r is not None and r.end == "stock"


# --- T12 the presets ------------------------------------------------------------------------


def test_T12_preset_table() -> None:
    tonk, tor, pagat = PRESETS["tonk"], PRESETS["tor"], PRESETS["pagat"]
    assert (tonk.deal_wins, tor.deal_wins, pagat.deal_wins) == ("tonk", "tor", "pagat")
    assert not tonk.hit_lock and not tor.hit_lock and pagat.hit_lock
    assert tonk.hit_sets and tor.hit_sets and pagat.hit_sets
    assert (tonk.discard, tor.discard, pagat.discard) == (
        "mandatory",
        "optional_after_spread",
        "mandatory",
    )
    assert not tonk.tonk_out_double and not tor.tonk_out_double and pagat.tonk_out_double
    assert (tonk.stock_end, tor.stock_end, pagat.stock_end) == ("last_draw", "last_draw", "empty")
    assert (tonk.next_dealer, pagat.next_dealer) == ("next", "winner")


def test_move_notation_round_trips() -> None:
    for text in [
        "drop",
        "draw stock",
        "draw pile",
        "spread 8S 8H 8D",
        "hit 0 8C",
        "hit 12 3H 4H",
        "discard 10H",
        "end",
    ]:
        assert str(parse_move(text)) == text
    assert str(parse_move("spread 8s 8♥ 8d")) == "spread 8S 8H 8D"
    for bad in [
        "",
        "fold",
        "draw",
        "draw deck",
        "drop now",
        "spread",
        "hit x 8C",
        "hit 0",
        "discard",
        "discard 8C 9C",
        "spread 8S 8S 8H",
        "discard ZZ",
        "hit ² AS",
    ]:
        with pytest.raises(MoveSyntaxError):
            parse_move(bad)
