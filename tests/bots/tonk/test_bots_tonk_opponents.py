"""Opponent modelling for the hard Tonk level (issue 16): guesses at other players' hidden cards
weighted by how likely they make the turn each player was seen to play, and the determinizations
drawn from them."""

from __future__ import annotations

import dataclasses
import random

import pytest

from taverntable.bots.ismcts import IsmctsBot
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.bots.tonk.opponents import (
    SOFTNESS,
    Guesses,
    LastTurn,
    OpponentModel,
    WorldSampler,
    evidence,
    weigh_guesses,
)
from taverntable.bots.tonk.search import TonkSearch
from taverntable.bots.tonk.watcher import TonkWatcherBot
from taverntable.cards import FULL_DECK_MASK, parse_index
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.games.tonk import Drop, TonkState, TonkView
from taverntable.games.tonk.movegen import START

from tonk_helpers import play, stacked

DROP = Drop()


def mask(text: str) -> int:
    out = 0
    for c in text.split():
        out |= 1 << parse_index(c)
    return out


def after_one_round() -> TonkView:
    """tonk, 3 players: each drew from the stock and discarded once; seat 0 is on turn. Seat 1
    drew 2H with the pile showing KS and threw away the 9 of clubs."""
    state = stacked(
        "tonk", ["KS QS 9H 7D 4C", "KH 9C 6D 5S 3H", "KD QD 10C 9S 2D"], "JC", "AD 2H 4S"
    )
    play(state, "draw stock", "discard KS", "draw stock", "discard 9C", "draw stock", "discard KD")
    return state.view(0)


def last_turn(view: TonkView, seat: int) -> LastTurn:
    return next(t for t in evidence(view) if t.seat == seat)


def test_evidence_reads_each_players_last_turn_from_the_public_history() -> None:
    view = after_one_round()
    turn = last_turn(view, 1)
    assert turn.discard == parse_index("9C")  # T9: the card that ended the turn
    assert turn.drew_stock and turn.pile_top == parse_index("KS")  # T7: left the pile's KS
    assert turn.hidden == 5 and turn.known == 0 and not turn.unmoved
    assert turn.melded == 0
    assert last_turn(view, 2).discard == parse_index("KD")


def test_a_hidden_card_worth_more_than_the_discard_makes_a_guess_less_likely() -> None:
    # T9: a player who keeps their lowest cards would have thrown the king, not the 9.
    view = after_one_round()
    model = OpponentModel(view)
    turn = last_turn(view, 1)
    low = model.weight(turn, mask("8H 7D 6S 5H 4C"))
    high = model.weight(turn, mask("8H 7D 6S KC 4C"))
    assert low == 1.0
    assert high < low


def test_a_spread_left_in_hand_makes_a_guess_less_likely() -> None:
    # T8: the modelled player lays every set and run before discarding.
    view = after_one_round()
    model = OpponentModel(view)
    turn = last_turn(view, 1)
    assert model.weight(turn, mask("5C 5D 5H 8H 7D")) < model.weight(turn, mask("8H 7D 6S 5H 4C"))


def test_a_hand_low_enough_to_drop_that_did_not_drop_is_less_likely() -> None:
    # T6: at the start of the turn the player could have dropped; a low hand would have.
    view = after_one_round()
    model = OpponentModel(view)
    turn = last_turn(view, 1)
    hand = mask("8H 7D 6S 5H 4C")
    would_drop = dataclasses.replace(turn, drop_floor=40)
    assert model.weight(would_drop, hand) < model.weight(turn, hand)
    # Softened, never ruled out: a player who does not play by the model stays possible.
    assert model.weight(would_drop, hand) >= SOFTNESS**2


def test_a_player_who_has_not_acted_cannot_hold_a_hand_that_won_on_the_deal() -> None:
    state = stacked("tonk", ["KS QS 9H 7D 4C", "KH 9C 6D 5S 3H", "KD QD 10C 9S 2D"], "JC")
    view = state.view(0)
    model = OpponentModel(view)
    turn = last_turn(view, 1)
    assert turn.unmoved
    assert model.weight(turn, mask("AH 2C 3D 4S 5H")) == 0.0  # 15: a Tonk (T4)
    assert model.weight(turn, mask("KH 9C 6D 5S 3H")) == 1.0


def positions(preset: str, players: int, seeds: range) -> list[TonkState]:
    """Copies of every state where a seat starts a turn, in deals played by heuristic bots."""
    out: list[TonkState] = []
    game = get_game(preset)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.start(game.rules(), players, rng=rng, dealer=seed % players)
        assert isinstance(state, TonkState)
        play_out(
            state,
            [TonkHeuristicBot(samples=8) for _ in range(players)],
            rng,
            on_move=lambda *_, s=state: out.append(s.clone()) if s.phase == START else None,
        )
    return out


@pytest.mark.parametrize(("preset", "players"), [("tonk", 3), ("tor", 4), ("pagat", 2)])
def test_weighted_worlds_deal_only_the_cards_hidden_from_the_deciding_seat(
    preset: str, players: int
) -> None:
    checked = 0
    for state in positions(preset, players, range(6)):
        seat = state.current_seat_
        view = state.view(seat)
        guesses = weigh_guesses(OpponentModel(view), random.Random(1), 40)
        sampler = WorldSampler(view, guesses)
        rng = random.Random(2)
        for _ in range(10):
            world = sampler.sample(rng)
            assert world.hands[seat] == view.hand
            dealt = 0
            for s in range(players):
                assert world.hands[s] & view.known[s] == view.known[s]
                assert world.hands[s].bit_count() == view.hand_sizes[s]
                if s != seat:
                    assert not dealt & world.hands[s]
                    dealt |= world.hands[s] & ~view.known[s]
            stock = 0
            for c in world.stock:
                stock |= 1 << c
            assert len(world.stock) == view.stock_size
            assert not stock & dealt and stock | dealt == view.unseen
            assert [1 << c for c in world.pile] == list(view.pile)
            assert world.spread_mask == [m for _, m in view.spreads]
            assert (stock | dealt) & ~FULL_DECK_MASK == 0
            checked += 1
    assert checked >= 100


def test_weighted_worlds_are_reproducible_from_a_seed() -> None:
    view = after_one_round()

    def worlds(seed: int) -> list[tuple[list[int], list[int]]]:
        guesses = weigh_guesses(OpponentModel(view), random.Random(seed), 50)
        sampler = WorldSampler(view, guesses)
        rng = random.Random(seed)
        return [(w.hands, w.stock) for w in (sampler.sample(rng) for _ in range(20))]

    assert worlds(3) == worlds(3)
    assert worlds(3) != worlds(4)


def test_the_sampler_draws_each_guess_in_proportion_to_its_weight() -> None:
    view = after_one_round()
    likely, unlikely = mask("8H 7D 6S 5H 4C"), mask("8H 7D 6S KC 4C")
    weights = [3.0, 1.0]
    guesses = [Guesses(1, 0, [likely, unlikely], weights, [3.0, 4.0])]
    sampler = WorldSampler(view, guesses)
    rng = random.Random(5)
    draws = [sampler.sample(rng).hands[1] for _ in range(2000)]
    share = draws.count(likely) / len(draws)
    assert 0.70 < share < 0.80
    assert draws.count(likely) + draws.count(unlikely) == len(draws)


def test_the_weighted_guesses_put_the_discards_bound_on_the_likely_hands() -> None:
    # Seat 1 threw away a 9 (T9): its guesses holding a card worth 10 weigh far less, on
    # average, than those without one.
    view = after_one_round()
    [g1, _] = weigh_guesses(OpponentModel(view), random.Random(7), 400)
    tens = mask("10C 10D 10H 10S JC JD JH JS QC QD QH QS KC KD KH KS")
    high = [w for h, w in zip(g1.hands, g1.weights, strict=True) if h & tens]
    low = [w for h, w in zip(g1.hands, g1.weights, strict=True) if not h & tens]
    assert high and low
    assert sum(high) / len(high) < sum(low) / len(low) / 2


@pytest.mark.parametrize(("preset", "players"), [("tonk", 3), ("tor", 4)])
def test_the_watcher_drops_exactly_when_its_drop_gain_is_positive(
    preset: str, players: int
) -> None:
    drops = declined = 0
    for state in positions(preset, players, range(25)):
        view = state.view(state.current_seat_)
        if DROP not in view.legal_moves:
            continue
        bot = TonkWatcherBot()
        probs = bot.catch_probabilities(view, random.Random(0))
        assert len(probs) == players - 1 and all(0.0 <= p <= 1.0 for p in probs)
        gain = bot.drop_gain(view, random.Random(0))
        move = bot.choose(view, random.Random(0))
        assert (move == DROP) == (gain > 0)  # T6: the drop beats playing on (drop_value)
        drops += gain > 0
        declined += gain <= 0
    assert drops >= 5 and declined >= 30


def test_the_searchs_anchor_is_the_watchers_move() -> None:
    for state in positions("tonk", 3, range(10)):
        view = state.view(state.current_seat_)
        anchor = TonkSearch().anchor_move(view, random.Random(1))
        assert anchor == TonkWatcherBot().choose(view, random.Random(1))


@pytest.mark.parametrize(("preset", "players"), [("tonk", 3), ("tor", 4), ("pagat", 3)])
def test_the_hard_bot_with_observed_play_stays_legal(preset: str, players: int) -> None:
    game = get_game(preset)
    moves = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = game.start(game.rules(), players, rng=rng, dealer=seed % players)
        bots = [IsmctsBot(iterations=40)] + [TonkHeuristicBot(samples=8)] * (players - 1)
        while state.current_seat is not None:
            seat = state.current_seat
            view = state.view(seat)
            move = bots[seat].choose(view, rng)
            assert move in view.legal_moves
            state.apply(move)  # the engine checks it again
            moves += seat == 0
        assert state.result is not None
    assert moves >= 25


def test_T9_an_empty_pile_after_an_end_without_discard_is_read_not_a_crash() -> None:
    # tor 4 players, seed 322: seat 1 takes the pile's only card, spreads and ends without a
    # discard (T9 ``end``), so seat 2 draws from the stock with no pile: hard crashed here.
    game = get_game("tor")
    rng = random.Random(322)
    state = game.start(game.rules(None), 4, rng=rng, dealer=322 % 4)
    bot = TonkHeuristicBot()
    seen_empty = False
    while state.result is None:
        view = state.view(state.current_seat)
        # evidence, the watcher's drop and hard's selective check read every position.
        evidence(view)
        seen_empty |= not view.pile and any(
            m == "end" for _, m in ((s, str(m)) for s, m in view.history)
        )
        move = rng.choice(view.legal_moves) if rng.random() < 0.5 else bot.choose(view, rng)
        state.apply(move)
    assert seen_empty  # the position that crashed was reached and read


def test_hard_plays_a_tor_deal_through_an_empty_pile() -> None:
    game = get_game("tor")
    rng = random.Random(322)
    state = game.start(game.rules(None), 4, rng=rng, dealer=322 % 4)
    moves = []
    bot = TonkHeuristicBot()
    while state.result is None:  # the deal up to the empty pile, as above
        view = state.view(state.current_seat)
        if not view.pile and view.history:
            break
        move = rng.choice(view.legal_moves) if rng.random() < 0.5 else bot.choose(view, rng)
        moves.append(move)
        state.apply(move)
    assert state.result is None and not state.view(state.current_seat).pile
    hard = IsmctsBot(iterations=50, game=TonkSearch())
    assert hard.choose(state.view(state.current_seat), random.Random(1)) in state.legal_moves()
