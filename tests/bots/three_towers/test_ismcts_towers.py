"""The "hard" Three Towers bot: ISMCTS anchored on the heuristic, with paired heuristic playouts.

It decides from its view only, keeps its budget, is reproducible with a seed and plays legal
moves; its fast playout policy plays exactly the heuristic bot's moves.
"""

from __future__ import annotations

import itertools
import random

import pytest

from taverntable.bots import ismcts, make_bot
from taverntable.bots.ismcts import IsmctsBot, search
from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot, decide
from taverntable.bots.three_towers.policy import fast_knowledge, policy_move, reply_values
from taverntable.bots.three_towers.search import (
    CLOSE,
    ROOT_MOVES,
    SCORE_SCALE,
    TowersSearch,
    _marks_worth,
)
from taverntable.bots.three_towers.tactics import Knowledge
from taverntable.games.three_towers import TowersState, TowersView, rules_from, sample_world
from taverntable.games.three_towers import view_of as towers_view_of
from taverntable.games.three_towers.phases import CHANCE, DEAL, OVER

from three_towers_helpers import heuristic_decisions


def heuristic_positions(seed: int, count: int, players: int = 2) -> list[TowersState]:
    """States where a seat decides with two or more legal moves, from heuristic play."""
    return heuristic_decisions(rules_from(), players, seed, count, share=0.2)


def searched_view(seed: int) -> TowersView:
    """A view on which the bot really searches (two or more root moves to compare)."""
    game = TowersSearch()
    for state in heuristic_positions(seed, 60):
        view = state.view(state.current_seat or 0)
        if len(game.root_moves(view)) > 1:
            return view
    raise AssertionError("no searched decision found")


def decide_hard(view: TowersView, seed: int = 3, iterations: int = 500) -> tuple[str, dict]:
    bot = IsmctsBot(iterations=iterations)
    move = bot.choose(view, random.Random(seed))
    assert bot.last is not None
    return str(move), {str(m): round(v, 9) for m, v in bot.last.values.items()}


def test_fast_policy_plays_the_heuristic_moves() -> None:
    for state in heuristic_positions(1, 150):
        seat = state.current_seat
        assert seat is not None
        view = state.view(seat)
        assert policy_move(state) == decide(view)
        # The unseen cards are counted where they lie, not subtracted from the deck: the same.
        assert +fast_knowledge(state, seat).unseen == +Knowledge.of(view).unseen


def test_decision_does_not_depend_on_hidden_cards() -> None:
    for seed in (2, 3):
        view = searched_view(seed)
        # Another world the seat cannot tell apart: other hands, deck and stores dealt anew.
        other = sample_world(view, random.Random(99))
        assert towers_view_of(other, view.seat) == view
        assert decide_hard(towers_view_of(other, view.seat)) == decide_hard(view)


def test_same_view_and_seed_give_the_same_search() -> None:
    view = searched_view(4)
    assert decide_hard(view, seed=7) == decide_hard(view, seed=7)


def test_iteration_budget_is_kept_in_whole_worlds() -> None:
    view = searched_view(5)
    game = TowersSearch()
    roots = game.root_moves(view)
    result = search(game, view, random.Random(1), iterations=40)
    # Every root move is played out in every world (paired): whole worlds within the budget.
    assert result.iterations == 40 - 40 % len(roots)
    assert set(result.visits.values()) == {40 // len(roots)}
    assert result.move in view.legal_moves


def test_time_budget_stops_at_the_first_clock_reading_past_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fake clock that advances 10 ms a reading: paired search reads it at the start and
    before every world after the first, so a 0.1 s budget plays 10 whole worlds (no elapsed
    time is measured: speed belongs to ``tavern bench``)."""
    readings = itertools.count()
    monkeypatch.setattr(ismcts.time, "perf_counter", lambda: next(readings) * 0.01)
    view = searched_view(6)
    game = TowersSearch()
    result = search(game, view, random.Random(1), seconds=0.1)
    assert result.iterations == 10 * len(game.root_moves(view))
    assert result.seconds == pytest.approx(0.11)


def test_hard_budget_is_scaled_for_three_towers() -> None:
    bot = make_bot("hard", "three-towers")
    assert isinstance(bot, IsmctsBot)
    view = searched_view(7)
    bot.choose(view, random.Random(1))
    assert bot.last is not None
    roots = len(TowersSearch().root_moves(view))
    # 2,500 × 0.04 playouts in whole worlds; the search stops at half when the anchor leads.
    assert 50 <= bot.last.iterations <= 100 - 100 % roots


def test_the_heuristic_move_is_kept_unless_beaten_clearly() -> None:
    view = searched_view(8)
    game = TowersSearch()
    anchor = ThreeTowersHeuristicBot().choose(view, random.Random(1))
    assert anchor == game.root_moves(view)[0]  # the heuristic's best comes first
    kept = search(game, view, random.Random(1), iterations=30, anchor=anchor, margin=float("inf"))
    assert kept.move == anchor and not kept.overridden
    free = search(game, view, random.Random(1), iterations=30, anchor=anchor, margin=0.0)
    assert free.move == max(free.values, key=lambda m: free.values[m]) or free.move == anchor


def test_clear_choices_and_bonus_choices_are_not_searched() -> None:
    game = TowersSearch()
    for state in heuristic_positions(9, 80):
        view = state.view(state.current_seat or 0)
        roots = game.root_moves(view)
        assert roots[0] == decide(view)
        if view.phase not in ("turn", "answer", "defend"):  # R9 naming, R10/R13 choices
            assert len(roots) == 1


def test_R5_R9_answers_and_defences_offer_the_heuristics_close_alternatives() -> None:
    """Out of turn (answers to a trade, R5-R7; replies to an attack, R9) the search is offered
    the heuristic's move first, then the other legal moves within CLOSE points of the best by
    the heuristic's own values, at most ROOT_MOVES, all legal and distinct."""
    game = TowersSearch()
    offered = {"answer": 0, "defend": 0}
    for state in heuristic_positions(13, 400):
        view = state.view(state.current_seat or 0)
        if view.phase not in offered:
            continue
        roots = game.root_moves(view)
        values = reply_values(view)
        assert roots[0] == decide(view)
        assert all(m in view.legal_moves for m in roots)
        assert len(set(roots)) == len(roots) <= ROOT_MOVES
        best = max(values.values())
        assert all(values[m] >= best - CLOSE for m in roots[1:])
        left_out = [m for m in view.legal_moves if m not in roots]
        if len(roots) < ROOT_MOVES:  # room left: nothing else was close
            assert all(values[m] < best - CLOSE for m in left_out)
        offered[view.phase] += len(roots) > 1
    assert offered["answer"] > 0 and offered["defend"] > 0


def test_without_replies_out_of_turn_plays_the_heuristic_move() -> None:
    game = TowersSearch(replies=False)
    for state in heuristic_positions(9, 80):
        view = state.view(state.current_seat or 0)
        if view.phase != "turn":
            assert game.root_moves(view) == [decide(view)]


def test_R5_R9_reply_values_agree_with_the_heuristics_choice() -> None:
    """The values the search's candidates come from are the heuristic's own: its answer is the
    first best answer, its defence the best reply (letting it through on a tie)."""
    for state in heuristic_positions(14, 300):
        view = state.view(state.current_seat or 0)
        if view.phase not in ("answer", "defend") or len(view.legal_moves) < 2:
            continue
        values = reply_values(view)
        assert set(values) == set(view.legal_moves)
        assert values[decide(view)] == max(values.values())


def reply_view(seed: int, phase: str) -> TowersView:
    """An out-of-turn view (``phase``) on which the bot really searches."""
    game = TowersSearch()
    for state in heuristic_positions(seed, 400):
        view = state.view(state.current_seat or 0)
        if view.phase == phase and len(game.root_moves(view)) > 1:
            return view
    raise AssertionError(f"no searched {phase} decision found")


@pytest.mark.parametrize("phase", ["answer", "defend"])
def test_hard_searches_answers_and_defences_reproducibly(phase: str) -> None:
    view = reply_view(15, phase)
    move, values = decide_hard(view, seed=5, iterations=250)
    assert len(values) == len(TowersSearch().root_moves(view)) > 1  # every candidate scored
    assert (move, values) == decide_hard(view, seed=5, iterations=250)
    assert any(str(m) == move for m in view.legal_moves)


def test_not_selective_searches_every_legal_move() -> None:
    view = searched_view(12)
    assert TowersSearch(selective=False).root_moves(view) == view.legal_moves
    bot = IsmctsBot(iterations=250, selective=False)
    assert bot.choose(view, random.Random(1)) in view.legal_moves
    assert bot.last is not None and set(bot.last.visits) == set(view.legal_moves)


def test_playouts_stop_at_the_count_and_rewards_are_margins() -> None:
    game = TowersSearch()
    rng = random.Random(10)
    for state in heuristic_positions(10, 20):
        world = state.clone()
        game.playout(world, rng)
        assert world.phase in (DEAL, OVER)
        rewards = game.rewards(world)
        assert abs(sum(rewards)) < 1e-9  # two seats: one's margin is the other's loss
        lead = world.scores[0] - world.scores[1]
        # The finished towers count while the game goes on (the third ends it with +150).
        towers = 0.0 if world.is_over else _marks_worth(world.marks, world.rules.teams, 0)
        assert abs(rewards[0] * SCORE_SCALE - (lead + towers)) < 1e-6
        assert towers == 0.0 or (towers > 0) == (world.marks[0] > world.marks[1])


def test_hard_plays_legal_moves_through_whole_games() -> None:
    rng = random.Random(11)
    hard = IsmctsBot(iterations=250)  # 10 playouts a search: a short test
    heuristic = ThreeTowersHeuristicBot()
    for game_no in range(2):
        state = TowersState.start(rules_from(), 2, rng=rng, dealer=game_no)
        bots = [hard, heuristic] if game_no == 0 else [heuristic, hard]
        searched = 0
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view = state.view(seat)
            move = bots[seat].choose(view, rng)
            assert move in view.legal_moves
            searched += bots[seat] is hard and hard.last is not None
            state.apply(move)
        assert searched > 0


def test_hard_stays_legal_against_random_play_and_searches_out_of_turn() -> None:
    """Random opponents reach odd positions (failed answers, R6; spent jokers; redeals): the
    hard bot's every move, on its turn and out of it, is one the engine lists."""
    rng = random.Random(16)
    hard = IsmctsBot(iterations=100)  # 4 playouts a search: a short test
    other = make_bot("random", "three-towers")
    out_of_turn = 0
    for game_no in range(4):
        state = TowersState.start(rules_from(), 2, rng=rng, dealer=game_no % 2)
        bots = [hard, other] if game_no % 2 == 0 else [other, hard]
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view = state.view(seat)
            move = bots[seat].choose(view, rng)
            assert move in view.legal_moves
            if bots[seat] is hard and hard.last is not None and view.phase != "turn":
                out_of_turn += 1
            state.apply(move)
    assert out_of_turn > 0


def test_a_search_deals_its_worlds_from_the_views_unseen_cards_once() -> None:
    """R16: ``TowersSearch.sample`` works out the view's unseen cards once per decision
    (``unseen_pool``) and deals the same worlds as ``sample_world`` working them out each time,
    world after world from one generator; a new view gets its own pool."""
    from taverntable.games.three_towers.worlds import unseen_pool

    game = TowersSearch(infer=False)
    views = [s.view(s.current_seat or 0) for s in heuristic_positions(21, 2, players=3)]
    for view in views:
        mine, engines = random.Random(5), random.Random(5)
        for _ in range(4):
            world = game.sample(view, mine)
            other = sample_world(view, engines)
            assert (world.hands, world.stores, world.deck) == (
                other.hands,
                other.stores,
                other.deck,
            )
            assert towers_view_of(world, view.seat) == view
        assert game._pool is not None and game._pool[0] is view
        assert game._pool[1] == unseen_pool(view)


@pytest.mark.parametrize("style", ["", "builder", "raider", "mixed", "noble"])
def test_the_searchs_anchor_is_the_heuristic_bots_move_from_the_decisions_values(
    style: str,
) -> None:
    """``TowersSearch.anchor_move`` reads the values the root moves worked out (``_turn_values``,
    ``_decide``) instead of asking the bot again: it must still be the move
    ``ThreeTowersHeuristicBot(style).choose`` makes, on the turn and out of it, asked before
    and after the root moves, at 2 and 3 players."""
    turns = 0
    for players in (2, 3):
        for state in heuristic_positions(21, 150, players):
            view = state.view(state.current_seat or 0)
            bot = ThreeTowersHeuristicBot(style).choose(view, random.Random(1))
            before = TowersSearch(style=style)
            assert before.anchor_move(view, random.Random(2)) == bot
            after = TowersSearch(style=style)
            after.root_moves(view)
            assert after.anchor_move(view, random.Random(2)) == bot
            turns += view.phase == "turn"
    assert turns > 50  # the styled values are on the turn


def test_knowledge_of_a_view_is_kept_for_that_view_only() -> None:
    """``Knowledge.of`` keeps the last view's knowledge (the hard bot asks for it several times a
    decision); an equal view built again, or another view, gets its own, equal when the views
    are equal."""
    state = heuristic_positions(22, 5)[0]
    seat = state.current_seat or 0
    view = state.view(seat)
    know = Knowledge.of(view)
    assert Knowledge.of(view) is know
    again = state.view(seat)
    assert again == view and again is not view
    other = Knowledge.of(again)
    assert other is not know and other == know
    assert Knowledge.of(state.view(1 - seat)).view.seat == 1 - seat
