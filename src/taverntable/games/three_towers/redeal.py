"""Redeals (A4, R10): paid with a joker or with nobility; the spent cards go into the store.

Each function returns the events of what it did (``noting``: ``events.py``).
"""

from __future__ import annotations

from .cards import JOKER, rank
from .events import NO_EVENTS, Events, moved
from .phases import KINGS, QUEENS, SHUFFLE
from .position import TowersPosition
from .turns import end_turn
from .zones import take_from_hand, to_store


def spend_nobility(
    state: TowersPosition, noting: bool, jacks: int, queens: int, kings: int
) -> Events:
    """Move warriors of the given ranks from the mover's nobility to the store (in public).

    Warriors of one rank are interchangeable, so the lowest codes go first (a fixed choice).
    """
    s = state.mover
    nobility = state.nobility[s]
    spent: list[int] = []
    for r, count in ((11, jacks), (12, queens), (13, kings)):
        of_rank = [c for c in nobility if rank(c) == r][:count]
        spent += of_rank
    for c in spent:
        nobility.remove(c)
    return to_store(state, noting, s, spent, f"nobility:{s}", "spend")


def redeal_joker(state: TowersPosition, noting: bool) -> Events:
    """R10: the joker into the store, the hand into the deck, the deck shuffled."""
    s = state.mover
    take_from_hand(state, noting, s, (JOKER,))
    events = to_store(state, noting, s, (JOKER,), f"hand:{s}", "spend")
    return events + hand_to_deck(state, noting)


def hand_to_deck(state: TowersPosition, noting: bool) -> Events:
    """The mover's hand into the deck, then the chance step ``shuffle``."""
    s = state.mover
    hand = state.hands[s]
    state.deck.extend(hand)
    events = (moved("to_deck", s, hand, f"hand:{s}", "deck", 1 << s),) if noting else NO_EVENTS
    hand.clear()
    state.phase = SHUFFLE
    state.decider = -1
    return events


def redeal_jacks(state: TowersPosition, noting: bool, target: int) -> Events:
    """R10: the whole hand into an opponent's store, face down."""
    events = spend_nobility(state, noting, 4, 0, 0)
    s = state.mover
    hand = state.hands[s]
    seen = state.store_seen_by(s, target)
    events += to_store(state, noting, target, hand, f"hand:{s}", "give", seen)
    hand.clear()
    return events + end_turn(state, noting)


def redeal_queens(state: TowersPosition, noting: bool) -> Events:
    """R10: choose cards of the hand for one's own store (``store`` … ``done``)."""
    events = spend_nobility(state, noting, 0, 4, 0)
    state.phase = QUEENS
    state.decider = state.mover
    return events


def store_card(state: TowersPosition, noting: bool, card: int) -> Events:
    s = state.mover
    take_from_hand(state, noting, s, (card,))
    events = to_store(state, noting, s, (card,), f"hand:{s}", "store", state.store_seen_by(s))
    if not state.hands[s]:
        events += queens_done(state, noting)
    return events


def queens_done(state: TowersPosition, noting: bool) -> Events:
    """The rest of the hand is shuffled into the deck (no shuffle when nothing is left)."""
    if state.hands[state.mover]:
        return hand_to_deck(state, noting)
    return end_turn(state, noting)


def redeal_kings(state: TowersPosition, noting: bool) -> Events:
    """R10: give every card of the hand to a store of one's choice (``give CARD SEAT``)."""
    events = spend_nobility(state, noting, 0, 0, 4)
    state.phase = KINGS
    state.decider = state.mover
    if not state.hands[state.mover]:
        events += end_turn(state, noting)
    return events


def give_card(state: TowersPosition, noting: bool, card: int, seat: int) -> Events:
    s = state.mover
    take_from_hand(state, noting, s, (card,))
    seen = state.store_seen_by(s, seat)
    events = to_store(state, noting, seat, (card,), f"hand:{s}", "give", seen)
    if not state.hands[s]:
        events += end_turn(state, noting)
    return events
