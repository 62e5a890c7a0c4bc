"""What the Three Towers hard bot's determinizations infer from the opponents' actions.

The facts (``inference.evidence``) hold in the real game for players who follow the heuristic's
rules of thumb; the search's worlds keep every size the view shows and agree with the facts.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.bots.three_towers.inference import (
    GOODS,
    TOWER_ACES,
    Lack,
    constrain,
    evidence,
    laid_cards,
    repellers,
)
from taverntable.bots.three_towers.search import TowersSearch
from taverntable.games.three_towers import TowersState, TowersView, rules_from, sample_world
from taverntable.games.three_towers import view_of as towers_view_of
from taverntable.games.three_towers.cards import IS_WARRIOR, JOKER, WARLOCK, rank
from taverntable.games.three_towers.moves import Answer, Build, Curse, Trade, Yield
from taverntable.games.three_towers.phases import CHANCE


def heuristic_views(seed: int, games: int) -> list[tuple[TowersState, TowersView]]:
    """(state, view of the seat to decide) at every decision of heuristic games."""
    rng = random.Random(seed)
    bot = ThreeTowersHeuristicBot()
    out = []
    for game_no in range(games):
        state = TowersState.start(rules_from(), 2, rng=rng, dealer=game_no % 2)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view = state.view(seat)
            out.append((state.clone(), view))
            state.apply(bot.choose(view, rng))
    return out


def kind(fact: Lack) -> str:
    return "goods" if fact.cards == GOODS else "aces" if fact.cards == TOWER_ACES else "defence"


def test_R8_R9_R12_facts_hold_in_the_real_game_against_the_heuristic() -> None:
    """Every fact read from the history holds for the opponent's real hand: at most the cards
    drawn since can be of the class it lacked; and the facts are about opponents only."""
    found: Counter[str] = Counter()
    for state, view in heuristic_views(21, 12):
        for fact in evidence(view):
            assert fact.seat != view.seat
            hand = state.hands[fact.seat]
            assert sum(c in fact.cards for c in hand) <= fact.limit(len(hand))
            found[kind(fact)] += fact.limit(len(hand)) < len(hand)
    assert found["aces"] > 0 and found["defence"] > 0


def test_R9_a_warlock_let_through_means_no_king_and_no_joker() -> None:
    assert repellers(WARLOCK, "rank", joker=True) == frozenset(
        c for c in range(53) if (IS_WARRIOR[c] and rank(c) == 13) or c == JOKER
    )
    assert all(IS_WARRIOR[c] for c in repellers(WARLOCK, "any", joker=False))
    assert len(repellers(WARLOCK, "any", joker=False)) == 9  # J Q K of hearts, diamonds, clubs


def test_R5_R8_cards_laid_count_against_the_old_hand() -> None:
    assert laid_cards(Answer((14, 15))) == 2
    assert laid_cards(Build(13, 14)) == 2 and laid_cards(Build(13)) == 1
    assert laid_cards(Trade(3)) == 1 and laid_cards(Yield()) == 0
    fact = Lack(1, GOODS, laid=3)  # 4 cards of the old hand are still held
    assert fact.limit(7) == 3 and fact.limit(4) == 0
    assert Lack(1, GOODS, laid=9).limit(7) == 7  # the whole hand is new


def test_search_worlds_keep_the_view_and_agree_with_the_facts() -> None:
    """R16: the repaired world is one the seat cannot tell from the real one; each fact holds
    unless the deck had no card left to swap in."""
    game = TowersSearch()
    checked = 0
    for _, view in heuristic_views(22, 4)[::7]:
        facts = evidence(view)
        world = game.sample(view, random.Random(checked))
        assert towers_view_of(world, view.seat) == view
        for fact in facts:
            hand = world.hands[fact.seat]
            banned = set().union(*(f.cards for f in facts if f.seat == fact.seat))
            if any(c not in banned for c in world.deck):
                assert sum(c in fact.cards for c in hand) <= fact.limit(len(hand))
                checked += 1
    assert checked > 0


def test_constrain_swaps_lacked_cards_with_the_deck() -> None:
    view = next(v for _, v in heuristic_views(23, 1) if v.deck_size > 20)
    other = 1 - view.seat
    world = sample_world(view, random.Random(1))
    before = Counter(world.hands[other]) + Counter(world.deck)
    fact = Lack(other, GOODS, laid=0)  # no goods at all
    constrain(world, [fact], random.Random(2))
    assert not any(c in GOODS for c in world.hands[other])
    assert Counter(world.hands[other]) + Counter(world.deck) == before  # only swapped
    assert towers_view_of(world, view.seat) == view


def test_without_inference_the_search_samples_the_engines_world() -> None:
    view = next(v for _, v in heuristic_views(24, 1) if evidence(v))
    plain = TowersSearch(infer=False).sample(view, random.Random(5))
    engine = sample_world(view, random.Random(5))
    assert plain.hands == engine.hands and plain.deck == engine.deck


def test_a_warlock_let_through_is_read_from_the_history() -> None:
    """R9: the heuristic repels a Warlock whenever it can, so letting it through shows the
    seat held no king and no joker (a history written by hand, on a real view)."""
    view = next(v for _, v in heuristic_views(25, 1) if v.phase == "turn" and not v.history[1:])
    me, other = view.seat, 1 - view.seat
    story = (*view.history, (me, Curse(other, WARLOCK)), (other, Yield()))
    facts = evidence(replace_history(view, story))
    assert [(f.seat, f.laid) for f in facts if JOKER in f.cards] == [(other, 0)]


def replace_history(view: TowersView, history: tuple[tuple[int, Any], ...]) -> TowersView:
    return replace(view, history=history)
