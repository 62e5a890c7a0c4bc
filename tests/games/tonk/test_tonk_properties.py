"""Invariants over thousands of random Tonk deals, every preset and table size (T1–T11)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taverntable.cards import FULL_DECK_MASK
from taverntable.engine import IllegalMove
from taverntable.games.tonk import (
    PRESETS,
    Discard,
    Hit,
    Spread,
    TonkMove,
    TonkState,
    sample_world,
)
from taverntable.games.tonk.moves import DISCARDS, DRAW_PILE, DRAW_STOCK, DROP, END, hit, spread
from taverntable.games.tonk.view import TonkView

from tonk_helpers import cards_accounted_for, random_game

PRESET_NAMES = sorted(PRESETS)


def walk(state: TonkState, rng: random.Random, max_moves: int = 400) -> Iterator[TonkState]:
    """Play random legal moves, yielding the state before each move and once at the end.

    Half the deals are patient (they drop rarely), so long deals — going out, the stock running
    out, many spreads and hits — are visited as well as the short ones uniform play gives."""
    patient = rng.random() < 0.5
    for _ in range(max_moves):
        yield state
        if state.is_over:
            return
        legal = state.legal_moves()
        if patient and legal[0] is DROP and len(legal) > 1 and rng.random() < 0.95:
            legal = legal[1:]
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_all_52_cards_accounted_for_and_payments_sum_to_zero(preset: str) -> None:
    rng = random.Random(f"cards-{preset}")
    ends: set[str] = set()
    for game in range(800):
        players = 2 + game % 9
        stake = 1 + game % 3
        state = TonkState.deal(
            PRESETS[preset], players, rng=rng, dealer=game % players, stake=stake
        )
        for s in walk(state, rng):
            assert cards_accounted_for(s)
        result = state.result
        # Every deal ends: random play declines the pile sooner or later under pagat (T11).
        assert result is not None
        ends.add(result.end)
        assert sum(result.net) == 0
        for payer, payee, amount in result.payments:
            assert payer != payee and amount in (stake, 2 * stake)
        assert result.totals == tuple(state.total(s) for s in range(players))
        if result.end == "drop":
            assert result.net[result.winners[0]] == stake * (players - 1)
    # Every preset ends by the stock too (T11; pagat when a player declines the pile).
    assert {"drop", "burned", "out", "stock"} <= ends


def candidate_moves(state: TonkState, rng: random.Random) -> list[TonkMove]:
    """Legal and illegal moves alike: everything the notation can say about this position."""
    moves: list[TonkMove] = [DROP, DRAW_STOCK, DRAW_PILE, END, *DISCARDS]
    hand = state.hands[state.current_seat_]
    cards = [c for c in range(52) if hand >> c & 1] + rng.sample(range(52), 4)
    for _ in range(12):
        picked = rng.sample(cards, min(len(cards), rng.choice((2, 3, 4, 5))))
        mask = sum(1 << c for c in set(picked))
        moves.append(spread(mask))
        moves.append(hit(rng.randrange(len(state.spread_mask) + 1), mask))
        moves.append(hit(rng.randrange(len(state.spread_mask) + 1), 1 << rng.choice(cards)))
    return moves


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_check_accepts_exactly_the_generated_moves(preset: str) -> None:
    """One path for legality: check() and legal_moves() agree on every candidate move."""
    rng = random.Random(f"perft-{preset}")
    tried = rejected = 0
    for game in range(120):
        state = TonkState.deal(PRESETS[preset], 2 + game % 4, rng=rng)
        for s in walk(state, rng, max_moves=60):
            if s.is_over:
                break
            legal = set(s.legal_moves())
            assert len(legal) == len(s.legal_moves()), "a move is generated twice"
            for move in candidate_moves(s, rng):
                tried += 1
                try:
                    s.check(move)
                except IllegalMove as e:
                    rejected += 1
                    assert move not in legal, f"{move} is generated but refused: {e}"
                    assert e.rule.startswith("T") and e.reason
                else:
                    assert move in legal, f"{move} passes check but is not generated"
    assert 0 < rejected < tried


def visible_cards(view: TonkView) -> int:
    """Every card the view mentions anywhere."""
    mask = view.hand
    for m in view.pile:
        mask |= m
    for _, m in view.spreads:
        mask |= m
    for m in view.known:
        mask |= m
    for m in view.revealed:
        mask |= m
    for _, card in view.own_draws:
        mask |= 1 << card
    for _, move in view.history:
        match move:
            case Spread(cards=c) | Hit(cards=c):
                mask |= c
            case Discard(card=card):
                mask |= card.mask
            case _:
                pass
    return mask


def seen_by(state: TonkState, seat: int) -> int:
    """The cards ``seat`` has legitimately seen: its hand, its own stock draws, and every card
    that was ever face up (upcard, discards, spreads, hits, and all hands once the deal is over)."""
    mask = state.hands[seat] | 1 << state.upcard
    for (who, move), drawn in zip(state.history, state.drawn, strict=True):
        if who == seat and drawn >= 0:
            mask |= 1 << drawn
        match move:
            case Spread(cards=c) | Hit(cards=c):
                mask |= c
            case Discard(card=card):
                mask |= card.mask
            case _:
                pass
    if state.is_over:
        mask = FULL_DECK_MASK
    return mask


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_no_view_shows_a_card_its_seat_may_not_see(preset: str) -> None:
    rng = random.Random(f"views-{preset}")
    for game in range(150):
        players = 2 + game % 9
        state = TonkState.deal(PRESETS[preset], players, rng=rng)
        for s in walk(state, rng, max_moves=80):
            for seat in range(players):
                view = s.view(seat)
                assert visible_cards(view) & ~seen_by(s, seat) == 0
                assert view.legal_moves == (
                    tuple(s.legal_moves()) if s.current_seat == seat else ()
                )


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_seats_json_filled_into_the_public_part_is_its_views_json(preset: str) -> None:
    """``TonkState.public_json`` and ``seat_json`` (the server's frames, issue 23): the public
    part is the spectator's view's, and every seat's JSON, and a spectator's, built from it
    and the state is its own view's ``to_json``, so it shows exactly the cards that view
    shows (the leak property above)."""
    rng = random.Random(f"seat-json-{preset}")
    compared = 0
    for game in range(60):
        players = 2 + game % 9
        state = TonkState.deal(PRESETS[preset], players, rng=rng)
        for s in walk(state, rng, max_moves=80):
            public = s.public_json()
            assert public == s.view(-1).public_json()
            for seat in range(-1, players):
                assert s.seat_json(public, seat) == s.view(seat).to_json()
                compared += 1
    assert compared > 1000
    with pytest.raises(ValueError):
        state.seat_json(public, players)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_sampled_world_agrees_with_the_view_it_came_from(preset: str) -> None:
    rng = random.Random(f"sample-{preset}")
    worlds = 0
    for game in range(200):
        players = 2 + game % 5
        state = TonkState.deal(PRESETS[preset], players, rng=rng)
        for s in walk(state, rng, max_moves=60):
            seat = rng.randrange(players)
            view = s.view(seat)
            world = sample_world(view, rng)
            worlds += 1
            assert world.view(seat) == view
            assert cards_accounted_for(world)
            for other in range(players):
                assert world.hands[other] & s.known[other] == s.known[other]
            if not world.is_over:  # the world plays on by the same rules
                legal = world.legal_moves()
                world.apply(legal[rng.randrange(len(legal))])
    assert worlds > 1000


def test_views_cannot_tell_apart_states_that_differ_only_in_hidden_cards() -> None:
    """Shuffling what a seat cannot see (other hands' unknown cards, the stock) keeps its view."""
    rng = random.Random("indistinguishable")
    for game in range(600):
        state = random_game(PRESETS[PRESET_NAMES[game % 3]], 3, rng, max_moves=rng.randrange(12))
        if state.is_over:
            continue
        seat = rng.randrange(3)
        other = sample_world(state.view(seat), rng)
        assert other.view(seat) == state.view(seat)
        # The seat's own moves, but a stock draw (whose card differs by world), keep the views
        # equal.
        legal = [m for m in state.legal_moves() if m is not DRAW_STOCK]
        if legal and state.current_seat == seat:
            move = legal[rng.randrange(len(legal))]
            state.apply(move)
            other.apply(move)
            if not state.is_over:  # at the end every hand is shown, and they differ
                assert other.view(seat) == state.view(seat)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(PRESET_NAMES), players=st.integers(2, 10))
def test_same_seed_same_deal_and_clones_are_independent(
    seed: int, preset: str, players: int
) -> None:
    a = TonkState.deal(PRESETS[preset], players, rng=seed)
    b = TonkState.deal(PRESETS[preset], players, rng=seed)
    assert a.initial_hands == b.initial_hands and a.initial_stock == b.initial_stock
    if a.is_over:
        return
    before = a.view(a.current_seat_)
    c = a.clone()
    rng = random.Random(seed)
    for s in walk(c, rng, max_moves=30):
        del s
    assert a.view(a.current_seat_) == before
    assert cards_accounted_for(a) and cards_accounted_for(c)
