"""The heuristic values what the play-testers' options change (readings R30, R32, R34), each a
clear change measured at one position against the same position under today's rules; the
kernel's heuristic is held to the same decisions by ``fast/test_fast_towers_heuristic.py``. The
hard bot's inference reads R32's ♠ jack as a repeller."""

from __future__ import annotations

import random

import pytest

from taverntable.bots.three_towers.heuristic import (
    DEFENDS_WHEN_ABLE,
    ThreeTowersHeuristicBot,
    turn_value,
)
from taverntable.bots.three_towers.inference import evidence, repellers
from taverntable.bots.three_towers.tactics import Knowledge, defence_chance
from taverntable.games.three_towers import TowersRules, TowersState, rules_from
from taverntable.games.three_towers.cards import THIEF, parse_card
from taverntable.games.three_towers.moves import Raid, TradeJoker
from taverntable.games.three_towers.phases import CHANCE

from three_towers_helpers import arrange

RAIDS = rules_from(spade_jack_raids=True, spade_jack_defends=True)


def _know(rules: TowersRules, hand: str = "JS JH X 2C 3C 4C 5C") -> Knowledge:
    state = arrange([hand, "2D 3D 4D 5D 6D 7D 8D"], rules=rules, towers=["", "AD 9D 8D"])
    return Knowledge.of(state.view(0))


def test_R32_an_unseen_spade_jack_is_counted_as_a_defender_against_a_jack() -> None:
    today, r32 = _know(TowersRules()), _know(rules_from(spade_jack_defends=True))
    assert today.unseen[THIEF] > 0
    jack, queen = parse_card("JH"), parse_card("QH")
    assert defence_chance(r32, 1, jack) > defence_chance(today, 1, jack)
    assert defence_chance(r32, 1, THIEF) > defence_chance(today, 1, THIEF)  # a Thief curse
    # A ♠ jack is a jack: it repels no queen (R9 by rank), so nothing changes there.
    assert defence_chance(r32, 1, queen) == defence_chance(today, 1, queen)


def test_R34_a_spade_jack_raid_risks_nothing_it_ends_in_the_raiders_store_either_way() -> None:
    know = _know(RAIDS)
    jh = parse_card("JH")
    assert Raid(1, THIEF) in know.view.legal_moves and Raid(1, jh) in know.view.legal_moves
    p = 1.0 - DEFENDS_WHEN_ABLE * defence_chance(know, 1, THIEF)
    assert 0 < p < 1 and defence_chance(know, 1, THIEF) == defence_chance(know, 1, jh)
    # The same tower and the same defence chance (both are jacks): the ♠ jack's raid lacks only
    # the jack's loss when repelled, (1 - p) times what the jack is worth kept.
    value, jack = turn_value(know, Raid(1, THIEF)), turn_value(know, Raid(1, jh))
    assert value == pytest.approx(jack + (1 - p) * know.keep(jh)) and value > jack


def test_R30_a_joker_led_to_give_away_costs_its_points() -> None:
    give = TradeJoker(1, False)
    today = turn_value(_know(TowersRules()), give)
    r30 = turn_value(_know(rules_from(joker_points=10)), give)
    assert r30 == today - 10
    take = TradeJoker(1, True)  # taking the trade keeps the joker in the leader's store
    assert turn_value(_know(rules_from(joker_points=10)), take) == turn_value(
        _know(TowersRules()), take
    )


def test_R32_R34_a_jack_raid_let_through_means_no_spade_jack_either() -> None:
    jh, qh = parse_card("JH"), parse_card("QH")
    assert THIEF in repellers(jh, "rank", joker=False, spade_jack=True)
    assert THIEF in repellers(THIEF, "rank", joker=False, spade_jack=True)  # R34's raid
    assert THIEF not in repellers(qh, "rank", joker=False, spade_jack=True)  # a jack is low
    assert THIEF not in repellers(jh, "rank", joker=False)  # today's rules (R9)


def test_R32_R34_the_facts_read_from_the_history_hold_in_heuristic_games() -> None:
    """Every fact the hard bot's inference reads (a seat that let an attack through held no
    repeller, R32's ♠ jack included) holds for the opponent's real hand."""
    rng = random.Random(8)
    bot = ThreeTowersHeuristicBot()
    spade_facts = 0
    for game in range(6):
        state = TowersState.start(
            rules_from(max_rounds=2, **RAIDS.differences()), 2, rng=rng, dealer=game % 2
        )
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view = state.view(seat)
            for fact in evidence(view):
                hand = state.hands[fact.seat]
                assert sum(c in fact.cards for c in hand) <= fact.limit(len(hand))
                spade_facts += THIEF in fact.cards
            state.apply(bot.choose(view, rng))
    assert spade_facts > 0
