"""T11 under pagat (``stock_end = "empty"``): with the stock empty the player on turn takes the
pile's top card or declines it with ``draw stock``, which ends the deal; the engine, the view,
records, the terminal's narration and the bots (issue 15)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.bots.tonk.policy import greedy_move
from taverntable.engine import IllegalMove, play_out
from taverntable.games.tonk import TonkState, parse_move, rules_from, sample_world
from taverntable.games.tonk.moves import DRAW_STOCK
from taverntable.play.tonk.narrate import narrate
from taverntable.records.core import describe_record, dump_record, replay_record

from tonk_helpers import play, stacked

# Ten players (seat 0 first, seat 9 deals), so the stock holds one card, 10C. Seats 2 and 3 share
# the lowest total, 9; nobody holds 49 or 50 (T4). Totals: 35 30 9 9 32 35 38 41 44 47.
TEN = [
    "5H 6H 7H 8H 9H",
    "KS KH 3D 3C 4S",
    "AS AH 2S 2H 3S",
    "AD AC 2D 2C 3H",
    "KD KC 4H 4D 4C",
    "QS QH 5S 5D 5C",
    "QD QC 6S 6D 6C",
    "JS JH 7S 7D 7C",
    "JD JC 8S 8D 8C",
    "10S 10H 9S 9D 9C",
]
NAMES = [f"P{s}" for s in range(10)]


def emptied(stake: int = 1, discard: str = "10C") -> TonkState:
    """Seat 0 has drawn the last stock card and discarded: seat 1 is on turn, the stock empty."""
    state = play(
        stacked("pagat", TEN, "10D", "10C", stake=stake), "draw stock", f"discard {discard}"
    )
    assert not state.is_over and not state.stock and state.current_seat == 1
    return state


def legal(state: TonkState) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def test_T11_pagat_empty_stock_offers_drop_take_or_decline() -> None:
    state = emptied()
    assert legal(state) == {"drop", "draw stock", "draw pile"}
    assert state.view(1).legal_moves == tuple(state.legal_moves())  # the view offers it too


def test_T11_pagat_decline_ends_the_deal_lowest_total_wins_each_other_pays_each_lowest() -> None:
    state = emptied(stake=2)
    play(state, "draw stock")
    r = state.result
    assert r is not None and r.end == "stock" and state.is_over
    assert r.totals == (35, 30, 9, 9, 32, 35, 38, 41, 44, 47)
    assert set(r.winners) == {2, 3}
    others = [s for s in range(10) if s not in (2, 3)]
    assert Counter(r.payments) == Counter((p, w, 2) for w in (2, 3) for p in others)
    assert r.net == (-4, -4, 16, 16, -4, -4, -4, -4, -4, -4)
    assert state.drawn[-1] == -1  # nothing was drawn
    assert legal(state) == set()


def test_T11_pagat_taking_the_pile_goes_on_and_the_next_player_may_decline() -> None:
    state = play(emptied(), "draw pile", "discard KS")
    assert state.current_seat == 2 and "draw stock" in legal(state)
    play(state, "draw stock")
    assert state.result is not None and state.result.winners == (2, 3)


def test_T11_T6_a_hit_locked_player_may_still_decline() -> None:
    state = emptied()
    state.hit_locked[1] = True  # as if a spread of seat 1 had been hit (T6 hit lock)
    state._legal = None
    assert legal(state) == {"draw stock", "draw pile"}
    play(state, "draw stock")
    assert state.result is not None and state.result.end == "stock"


def test_T11_T7_refusals_name_the_rule() -> None:
    state = play(emptied(), "draw pile")
    with pytest.raises(IllegalMove) as caught:
        state.apply_text("draw stock")
    assert caught.value.rule == "T11" and "start of your turn" in caught.value.reason
    assert parse_move("draw stock") not in state.legal_moves()
    # Without the pagat rule the stock is never empty at the start of a turn (T11 ends the deal
    # first), but the checker still explains the move: an empty stock cannot be drawn from.
    last_draw = stacked(rules_from("pagat", stock_end="last_draw"), TEN, "10D", "10C")
    last_draw.stock.clear()
    last_draw._legal = None
    with pytest.raises(IllegalMove) as caught:
        last_draw.apply_text("draw stock")
    assert caught.value.rule == "T7" and "stock is empty" in caught.value.reason
    assert legal(last_draw) == {"drop", "draw pile"}


def test_T11_check_and_generator_agree_with_an_empty_stock() -> None:
    for state in (emptied(), play(emptied(), "draw pile")):
        generated = set(state.legal_moves())
        for text in ("drop", "draw stock", "draw pile", "discard KS", "discard 10C", "end"):
            move = parse_move(text)
            try:
                state.check(move)
            except IllegalMove:
                assert move not in generated, text
            else:
                assert move in generated, text


def test_T11_views_after_a_decline_show_every_hand_and_no_drawn_card() -> None:
    state = emptied()
    before = state.view(1)
    world = sample_world(before, random.Random(1))
    world.apply(DRAW_STOCK)  # a searching bot's world declines the same way
    assert world.result is not None and world.result.end == "stock"
    seen_by_0 = state.view(0)
    events = state.apply(DRAW_STOCK)
    view = state.view(1)
    assert view.revealed == tuple(state.hands)
    assert view.own_draws == before.own_draws  # the decline shows no card
    assert "P1[/bold] declines the pile's top card" in narrate(events, seen_by_0, NAMES)
    assert "You[/bold] decline the pile's top card" in narrate(events, before, NAMES)


def test_T11_a_record_with_a_decline_replays_and_reads() -> None:
    state = play(emptied(), "draw pile", "discard KS", "draw stock")
    record = dump_record(state, NAMES)
    assert record["moves"][-1] == [2, "draw stock"]
    replayed = replay_record(record)
    assert replayed.result == state.result.to_json() if state.result else False
    text = describe_record(replayed)
    assert "P2: draw stock (declines the pile: the deal ends, T11)" in text
    assert "end: the stock ran out (T11)" in text


# --- the bots --------------------------------------------------------------------------------


def heuristic(state: TonkState) -> str:
    seat = state.current_seat
    assert seat is not None
    return str(TonkHeuristicBot().choose(state.view(seat), random.Random(0)))


def test_T11_heuristic_declines_when_its_total_is_likely_lowest() -> None:
    state = play(emptied(), "draw pile", "discard KS")
    assert state.current_seat == 2 and state.total(2) == 9
    assert heuristic(state) == "draw stock"


def test_T11_heuristic_takes_the_pile_card_that_lowers_its_hand() -> None:
    # Seat 1 (K K 3 3 4, 30) is not lowest. 10C would lower nothing: it declines (and loses 1 to
    # each of seats 2 and 3). 5H lowers its hand by 5 (it keeps 5H, sheds a king): it takes it.
    assert heuristic(emptied()) == "draw stock"
    state = emptied(discard="5H")
    assert heuristic(state) == "draw pile"
    play(state, "draw pile")
    assert heuristic(state) in ("discard KS", "discard KH")


def test_T11_greedy_playout_policy_declines_unless_the_pile_helps() -> None:
    assert str(greedy_move(emptied())) == "draw stock"  # 10C lowers nothing of K K 3 3 4
    assert str(greedy_move(emptied(discard="5H"))) == "draw pile"


@pytest.mark.parametrize("players", [8, 9, 10])
def test_T11_heuristic_tables_end_every_pagat_deal_many_by_declining(players: int) -> None:
    # With 8 to 10 players the stock (11, 6 or 1 cards) runs out in most deals. Before the
    # decline these deals went round the pile until a drop, a going out or the move cap.
    rng = random.Random(players)
    ends: Counter[str] = Counter()
    bot = TonkHeuristicBot(samples=16)
    for _ in range(30):
        state = TonkState.deal(rules_from("pagat"), players, rng=rng)
        assert not play_out(state, [bot] * players, rng, max_moves=400).capped
        assert state.result is not None
        ends[state.result.end] += 1
    assert ends["stock"] >= 5, ends


def test_T11_each_pile_card_the_heuristic_takes_leaves_fewer_cards_or_a_lower_total() -> None:
    # The reason a table of heuristic bots cannot go round the pile for ever (the bot's
    # docstring): other players never change a hand, and each take makes (cards, total) smaller.
    rng = random.Random(11)
    bot = TonkHeuristicBot(samples=8)
    takes = 0
    for deal in range(400):
        state = TonkState.deal(rules_from("pagat"), 8 + deal % 3, rng=rng)
        while (seat := state.current_seat) is not None:
            move = bot.choose(state.view(seat), rng)
            taking = not state.stock and str(move) == "draw pile"
            before = (state.hands[seat].bit_count(), state.total(seat))
            state.apply(move)
            while taking and state.current_seat == seat:
                state.apply(bot.choose(state.view(seat), rng))
            if taking:
                takes += 1
                assert (state.hands[seat].bit_count(), state.total(seat)) < before
    assert takes >= 30
