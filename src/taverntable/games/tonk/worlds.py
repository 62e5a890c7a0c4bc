"""Worlds a seat cannot tell from the real deal: the sampled deals of a searching bot."""

from __future__ import annotations

import random

from taverntable.cards import indices

from .spreads import SUIT_VALUES
from .state import TonkState
from .view import TonkView, mask_union


def sample_world(view: TonkView, rng: random.Random) -> TonkState:
    """A full deal that ``view.seat`` cannot tell apart from the real one (not a spectator's).

    Other players' hands keep the cards they are known to hold; the rest of their hands and the
    stock are filled with the unseen cards in a random order. The original deal is not
    reconstructed, so the world has no ``initial_*`` cards and cannot be written as a record.
    """
    revealed = mask_union(view.revealed)  # after the deal every hand is shown
    unseen = list(indices(view.unseen & ~revealed))
    rng.shuffle(unseen)
    hands = list(view.revealed)
    if not hands:
        for s in range(view.num_players):
            hand = view.hand if s == view.seat else view.known[s]
            for _ in range(view.hand_sizes[s] - hand.bit_count()):
                hand |= 1 << unseen.pop()
            hands.append(hand)
    state = object.__new__(TonkState)
    state.rules = view.rules
    state.num_players = view.num_players
    state.dealer = view.dealer
    state.stake = view.stake
    state._values = SUIT_VALUES[view.rules.face_values]
    state.hands = hands
    state.stock = unseen  # already shuffled; exactly stock_size cards remain
    state.pile = [m.bit_length() - 1 for m in view.pile]
    state.spread_owner = [o for o, _ in view.spreads]
    state.spread_mask = [m for _, m in view.spreads]
    state.spread_suit = list(view.spread_suits)
    state.current_seat_ = view.current_seat if view.current_seat is not None else 0
    state.phase = view.phase
    state.pile_card = view.pile_card
    state.spread_this_turn = view.spread_this_turn
    state.last_draw_taken = view.last_draw_taken
    state.hit_locked = list(view.hit_locked)
    state.known = list(view.known)
    state.history = list(view.history)
    own = dict(view.own_draws)
    state.drawn = [own.get(i, -1) for i in range(len(view.history))]
    state.result = view.result
    state.initial_hands = ()
    state.upcard = -1
    state.initial_stock = ()
    state._legal = None
    return state
