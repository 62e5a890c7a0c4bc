"""The ISMCTS bot: it decides from its view only, keeps its budget and is reproducible."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import pytest

from taverntable.bots import ismcts, make_bot
from taverntable.bots.ismcts import IsmctsBot, Node, _ending_instead, search
from taverntable.bots.tonk.search import TonkSearch
from taverntable.games.tonk import PRESETS, TonkState, TonkView, sample_world, view_of
from taverntable.games.tonk.movegen import START

from tonk_helpers import stacked


def midgame(preset: str, players: int, seed: int, moves: int = 7) -> TonkState:
    """A deal some moves in, with a choice to make (two or more legal moves)."""
    rng = random.Random(seed)
    while True:
        state = TonkState.deal(PRESETS[preset], players, rng=rng)
        for _ in range(moves):
            if state.is_over:
                break
            legal = state.legal_moves()
            # Never drop, so that the deal goes on.
            state.apply(next((m for m in legal if str(m) != "drop"), legal[0]))
        if not state.is_over and len(state.legal_moves()) > 1:
            return state


def decide(view: TonkView, seed: int = 3, iterations: int = 150) -> tuple[str, dict[str, int]]:
    bot = IsmctsBot(iterations=iterations, selective=False)
    move = bot.choose(view, random.Random(seed))
    assert bot.last is not None
    return str(move), {str(m): v for m, v in bot.last.visits.items()}


@pytest.mark.parametrize(
    ("preset", "players", "seed"), [("tonk", 3, 1), ("tor", 4, 2), ("pagat", 3, 3)]
)
def test_decision_does_not_depend_on_hidden_cards(preset: str, players: int, seed: int) -> None:
    state = midgame(preset, players, seed)
    seat = state.current_seat
    assert seat is not None
    view = state.view(seat)
    # Another world the seat cannot tell apart: other hands and the stock dealt differently.
    other = sample_world(view, random.Random(99))
    assert other.hands != state.hands or other.stock != state.stock
    assert view_of(other, seat) == view
    assert decide(view_of(other, seat)) == decide(view)


def test_same_view_and_seed_give_the_same_search() -> None:
    view = midgame("tonk", 3, 5).view(midgame("tonk", 3, 5).current_seat or 0)
    assert decide(view, seed=7) == decide(view, seed=7)


def test_iteration_budget_is_exact() -> None:
    state = midgame("tonk", 3, 6)
    view = state.view(state.current_seat or 0)
    result = search(TonkSearch(selective=False), view, random.Random(1), iterations=123)
    assert result.iterations == 123
    # A drop ends the deal: it is scored in every world; the other moves share the tree.
    drop = [m for m in view.legal_moves if str(m) == "drop"]
    tree = [n for m, n in result.visits.items() if m not in drop]
    assert sum(tree) == 123
    assert all(result.visits[m] == 123 for m in drop)
    assert result.move in view.legal_moves


def test_time_budget_stops_at_the_first_clock_reading_past_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fake clock that advances 10 ms a reading: the search reads it at the start and every
    16 iterations, so a 0.15 s budget ends at the 15th reading, after 15 × 16 iterations (no
    elapsed time is measured: speed belongs to ``tavern bench``)."""
    readings = itertools.count()
    monkeypatch.setattr(ismcts.time, "perf_counter", lambda: next(readings) * 0.01)
    state = midgame("tor", 4, 7)
    view = state.view(state.current_seat or 0)
    result = search(TonkSearch(selective=False), view, random.Random(1), seconds=0.15)
    assert result.iterations == 15 * 16
    assert result.seconds == pytest.approx(0.16)


def test_both_budgets_stop_at_the_first_reached() -> None:
    state = midgame("tonk", 3, 8)
    view = state.view(state.current_seat or 0)
    result = search(
        TonkSearch(selective=False), view, random.Random(1), iterations=40, seconds=10.0
    )
    assert result.iterations == 40


def test_a_single_legal_move_is_played_without_search() -> None:
    view = SimpleNamespace(seat=0, legal_moves=("only",))  # no game adapter is ever needed
    bot = IsmctsBot(iterations=10)
    assert bot.choose(view, random.Random(1)) == "only"
    assert bot.last is None


def test_a_high_hand_does_not_drop() -> None:
    state = stacked("tonk", ["KS KH QS 9H 8D", "AC 10C 3C 2S 9C", "QH 8C 6D 2C 7D"], "5C")
    move, _ = decide(state.view(0), iterations=300)
    assert move != "drop"


@pytest.mark.parametrize("opponents", ["search", "policy"])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_every_variant_returns_a_legal_move(opponents: str, policy: str) -> None:
    state = midgame("pagat", 4, 10)
    view = state.view(state.current_seat or 0)
    bot = IsmctsBot(iterations=60, opponents=opponents, policy=policy)
    assert bot.choose(view, random.Random(2)) in view.legal_moves


def test_bad_budgets_are_rejected() -> None:
    with pytest.raises(ValueError, match="budget"):
        IsmctsBot(iterations=None, seconds=None)
    with pytest.raises(ValueError, match="at least 1"):
        IsmctsBot(iterations=0)
    with pytest.raises(ValueError, match="positive"):
        IsmctsBot(seconds=0)


def test_hard_is_ismcts_for_every_tonk_preset() -> None:
    for game in ("tonk", "tor", "pagat"):
        bot = make_bot("hard", game)
        assert isinstance(bot, IsmctsBot)
        assert bot.iterations is not None and bot.seconds is None  # reproducible by default


def test_three_towers_views_are_searched_too() -> None:
    from taverntable.bots.three_towers.search import TowersSearch
    from taverntable.games.three_towers import TowersState, rules_from

    rng = random.Random(4)
    state = TowersState.new(rules_from(), 2, dealer=0)
    found = 0
    for _ in range(400):
        seat = state.current_seat
        if seat is None or found == 2:
            break
        if seat < 0:
            state.apply(state.sample_chance(rng))
            continue
        view = state.view(seat)
        roots = TowersSearch().root_moves(view)
        if len(roots) > 1:
            bot = IsmctsBot(iterations=250)
            move = bot.choose(view, random.Random(1))
            assert move in view.legal_moves
            # Three Towers playouts are slower: the adapter scales the budget (0.04), and plays
            # every root move in each world (paired), so the budget is spent in whole worlds;
            # with the heuristic's move still ahead at half the budget, the search stops there.
            assert bot.last is not None and bot.last.iterations % len(roots) == 0
            assert 5 <= bot.last.iterations <= 10 - 10 % len(roots)
            found += 1
        elif len(view.legal_moves) > 1:
            # No move close to the heuristic's best, or a bonus choice: no search.
            bot = IsmctsBot(iterations=250)
            move = bot.choose(view, random.Random(1))
            assert bot.last is None and move == roots[0]
        else:
            move = view.legal_moves[0]
        state.apply(move)
    assert found == 2


def test_big_tables_scale_the_iteration_budget() -> None:
    state = midgame("tonk", 8, 11)
    bot = IsmctsBot(iterations=100, selective=False)
    bot.choose(state.view(state.current_seat or 0), random.Random(1))
    # 100 × 4 / 8, times the share of the budget the Tonk search takes with observed play.
    from taverntable.bots.tonk.search import OBSERVED_ITERATIONS

    assert bot.last is not None and bot.last.iterations == round(50 * OBSERVED_ITERATIONS)


def test_the_tonk_search_takes_its_own_share_of_the_budget_and_margin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With observed play the Tonk adapter scales the bot's budget and margin (search.py):
    # the search itself must be called with both scaled.
    from taverntable.bots.tonk.search import OBSERVED_ITERATIONS, SEARCH_MARGIN_SCALE

    calls: list[dict[str, object]] = []
    real = ismcts.search

    def spy(*args: object, **kwargs: object) -> object:
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(ismcts, "search", spy)
    state = midgame("tonk", 3, 11)
    bot = IsmctsBot(iterations=100, margin=2.5, selective=False)
    bot.choose(state.view(state.current_seat or 0), random.Random(1))
    assert len(calls) == 1
    assert calls[0]["iterations"] == round(100 * OBSERVED_ITERATIONS)
    assert calls[0]["margin"] == pytest.approx(2.5 * SEARCH_MARGIN_SCALE)


def test_anchor_is_kept_unless_the_search_beats_it_clearly() -> None:
    from taverntable.bots.tonk.heuristic import TonkHeuristicBot

    state = midgame("tonk", 3, 11)
    view = state.view(state.current_seat or 0)
    anchor = TonkHeuristicBot().choose(view, random.Random(5))
    # An infinite margin: the search never overrides the anchor.
    kept = search(
        TonkSearch(selective=False),
        view,
        random.Random(1),
        iterations=150,
        anchor=anchor,
        margin=float("inf"),
    )
    assert kept.move == anchor and not kept.overridden
    # Margin 0 and no anchor agree whenever the search's move has a higher mean than the anchor.
    free = search(TonkSearch(selective=False), view, random.Random(1), iterations=150)
    zero = search(
        TonkSearch(selective=False), view, random.Random(1), iterations=150, anchor=anchor, margin=0
    )
    if free.values.get(free.move, 0.0) > free.values.get(anchor, float("inf")):
        assert zero.move == free.move
    assert zero.move in (free.move, anchor)


def test_the_bot_anchors_on_the_heuristic_by_default() -> None:
    state = midgame("tor", 4, 12)
    view = state.view(state.current_seat or 0)
    bot = IsmctsBot(iterations=80)
    move = bot.choose(view, random.Random(3))
    if bot.last is not None:
        assert bot.last.anchor in view.legal_moves
        assert move == bot.last.anchor or bot.last.overridden
    off = IsmctsBot(iterations=80, margin=None)
    off.choose(view, random.Random(3))
    assert off.last is None or off.last.anchor is None
    with pytest.raises(ValueError, match="margin"):
        IsmctsBot(margin=-1.0)


def test_an_ending_anchor_is_never_replaced_by_a_move_that_plays_on() -> None:
    state = stacked("tonk", ["KS KH QS 9H 8D", "AC 10C 3C 2S 9C", "QH 8C 6D 2C 7D"], "5C")
    view = state.view(0)
    drop = next(m for m in view.legal_moves if str(m) == "drop")
    # A drop with a high hand scores badly, yet with a drop anchor the search keeps it.
    result = search(
        TonkSearch(selective=False), view, random.Random(1), iterations=100, anchor=drop, margin=0
    )
    assert result.move == drop and not result.overridden
    assert result.values[drop] < max(result.values.values())


def test_selective_search_plays_the_heuristic_after_the_draw() -> None:
    from taverntable.bots.tonk.heuristic import TonkHeuristicBot

    rng = random.Random(13)
    searched = skipped = 0
    for _ in range(40):
        state = TonkState.deal(PRESETS["tonk"], 3, rng=rng)
        while (seat := state.current_seat) is not None:
            view = state.view(seat)
            bot = IsmctsBot(iterations=40, selective=True)
            move = bot.choose(view, random.Random(2))
            if view.phase != START or "drop" not in {str(m) for m in view.legal_moves}:
                # T6: only a turn's start with a legal drop is searched.
                assert bot.last is None
                assert move == TonkHeuristicBot().choose(view, random.Random(0))
            if bot.last is None:
                skipped += 1
            else:
                searched += 1
                assert view.phase == START
            state.apply(move)
    assert searched and skipped


def test_a_hopeless_drop_is_not_searched() -> None:
    state = stacked("tonk", ["KS KH QS 9H 8D", "AC 10C 3C 2S 9C", "QH 8C 6D 2C 7D"], "5C")
    view = state.view(0)
    assert not TonkSearch().worth_searching(view)  # 47 points: a drop loses about 2 a player
    bot = IsmctsBot(iterations=50, selective=True)
    assert str(bot.choose(view, random.Random(1))) != "drop" and bot.last is None


def test_a_drop_replaces_the_anchor_only_on_a_clear_paired_advantage() -> None:
    anchor = Node(0)
    # The anchor's reward minus the drop's, on the same worlds: drop better by 0.1 on average.
    diffs = [-0.1 + 0.05 * ((k % 3) - 1) for k in range(300)]
    anchor.pairs = {"drop": [len(diffs), sum(diffs), sum(d * d for d in diffs)]}
    assert _ending_instead(anchor, bias=0.0, margin=2.0) == "drop"
    assert _ending_instead(anchor, bias=-0.2, margin=0.0) is None  # the bias outweighs it
    assert _ending_instead(anchor, bias=0.0, margin=1000.0) is None  # not clear enough
    anchor.pairs = {"drop": [1, -0.1, 0.01]}
    assert _ending_instead(anchor, bias=0.0, margin=0.0) is None  # one pair: no error estimate


def test_hard_searches_every_tonk_decision_by_default() -> None:
    """The hard level (the bot's defaults) searches after the draw too (T8, T9): spreads, hits
    and discards, not only the drop call (T6) that ``selective=True`` keeps to."""
    rng = random.Random(21)
    after_draw = 0
    for _ in range(20):
        state = TonkState.deal(PRESETS["tonk"], 3, rng=rng)
        while (seat := state.current_seat) is not None:
            view = state.view(seat)
            bot = IsmctsBot(iterations=40)
            move = bot.choose(view, random.Random(2))
            if view.phase != START and len(view.legal_moves) > 1:
                assert bot.last is not None  # searched
                after_draw += 1
            state.apply(move)
    assert after_draw > 20
