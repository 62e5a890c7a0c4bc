"""Worlds a seat cannot tell from the real one (R16): the sampled games of a searching bot."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .phases import CHANCE, TradeState
from .state import TowersState
from .view import TowersView, unseen_cards


def unseen_pool(view: TowersView) -> list[int]:
    """The cards ``sample_world`` deals, in the order it shuffles them from: the seat's unseen
    cards (``unseen_cards``)."""
    return list(unseen_cards(view).elements())


def sample_world(
    view: TowersView, rng: random.Random, unseen: Sequence[int] | None = None
) -> TowersState:
    """A full game that ``view.seat`` cannot tell from the real one: ``view_of(world, seat)``
    equals ``view``.

    The unseen cards go at random into the other hands, the deck and the hidden part of every
    store (the public part stays where it is). Only this round's history is known, so the world
    starts its history at this round's deal and cannot be written as a record. ``unseen`` is
    ``unseen_pool(view)`` when the caller has it already (a search samples many worlds of one
    view): the same cards in the same order, so the same world from the same ``rng``.
    """
    pool = unseen_pool(view) if unseen is None else list(unseen)
    rng.shuffle(pool)
    me, n = view.seat, view.num_players

    def take(k: int) -> list[int]:
        out = pool[len(pool) - k :] if k else []
        del pool[len(pool) - k :]
        return out

    hands = [list(view.hand) if s == me else sorted(take(view.hand_sizes[s])) for s in range(n)]
    stores, known = [], []
    for s in range(n):
        known.append(list(view.known_stores[s]))
        if s == me and view.store is not None:
            stores.append(list(view.store))
        else:
            stores.append(known[s] + take(view.store_sizes[s] - len(known[s])))
    deck = take(view.deck_size)
    assert not pool, "the view's sizes do not add up to the deck's cards (R1, R35)"
    state = object.__new__(TowersState)
    state.rules = view.rules
    state.num_players = n
    state.dealer = view.dealer
    state.first_dealer = -1  # unknown: a sampled world is not a record
    state.round_no = view.round_no
    state.phase = view.phase
    state.mover = view.mover
    state.decider = CHANCE if view.current_seat is None else view.current_seat
    state.hands, state.stores, state.known, state.deck = hands, stores, known, deck
    state.nobility = [list(b) for b in view.nobility]
    state.towers = [list(tw) for tw in view.towers]
    t = view.trade
    state.trade = (
        None
        if t is None
        else TradeState(
            t.leader, t.suit, t.witch, list(t.laid), list(t.bids), list(t.queue), list(t.failed)
        )
    )
    state.attack = view.attack
    state.picks = view.picks
    state.passes = view.passes
    state.shown = list(view.shown)
    state.finished = view.finished
    state.tower_ace = view.tower_ace
    state.scores = list(view.scores)
    state.marks = list(view.marks)
    state.rounds = list(view.rounds)
    state.result = view.result
    state.history = list(view.history)
    state.history_vis = [(1 << n) - 1] * len(view.history)
    state.round_start = 0
    state._legal = None
    state._legal_set = None
    return state
