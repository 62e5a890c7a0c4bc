"""A round's deal (R1, R3) and the end of a turn: the refill (R12); each returns its events."""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence

from .events import NO_EVENTS, Events, moved
from .phases import TURN
from .position import TowersPosition
from .scoring import end_round
from .zones import draw


def end_turn(state: TowersPosition, noting: bool) -> Events:
    """R12: refill to 7 (R31: the hand size) in seat order from the mover; a short deck ends
    the round."""
    n, mover, full = state.num_players, state.mover, state.rules.hand_size
    events = NO_EVENTS
    short = False
    for i in range(n):
        s = (mover + i) % n
        need = full - len(state.hands[s])
        if need > 0:
            short = short or need > len(state.deck)
            events += draw(state, noting, s, need)
    if short:
        return events + end_round(state, noting)
    state.mover = (mover + 1) % n
    state.decider = state.mover
    state.phase = TURN
    return events


def deal_round(state: TowersPosition, noting: bool, cards: Sequence[int]) -> Events:
    """R1/R3: a new round from 108 cards (R35: or 162; top first), 7 each (R31: the hand
    size), one at a time from the dealer's left."""
    n = state.num_players
    for zone in (state.hands, state.stores, state.known, state.nobility, state.towers):
        for z in zone:
            z.clear()
    state.deck = list(reversed(cards))
    state.round_no += 1
    state.round_start = len(state.history) - 1
    state.shown = []
    state.finished = -1
    state.tower_ace = -1
    state.passes = 0
    state.picks = 0
    state.trade = None
    state.attack = None
    first = (state.dealer + 1) % n
    for k in range(state.rules.hand_size * n):
        insort(state.hands[(first + k) % n], state.deck.pop())
    state.mover = first
    state.decider = first
    state.phase = TURN
    if not noting:
        return NO_EVENTS
    seats = [(first + k) % n for k in range(n)]
    return tuple(moved("deal", s, state.hands[s], "deck", f"hand:{s}", 1 << s) for s in seats)
