"""Redeals (A4, R10): paid with a joker or with nobility; the spent cards go into the store."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import JOKER, rank
from .phases import KINGS, QUEENS, SHUFFLE

if TYPE_CHECKING:
    from .state import TowersState


def spend_nobility(state: TowersState, jacks: int, queens: int, kings: int) -> None:
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
    state.to_store(s, spent, f"nobility:{s}", "spend")


def redeal_joker(state: TowersState) -> None:
    """R10: the joker into the store, the hand into the deck, the deck shuffled."""
    s = state.mover
    state.take_from_hand(s, (JOKER,))
    state.to_store(s, (JOKER,), f"hand:{s}", "spend")
    hand_to_deck(state)


def hand_to_deck(state: TowersState) -> None:
    """The mover's hand into the deck, then the chance step ``shuffle``."""
    s = state.mover
    hand = state.hands[s]
    state.deck.extend(hand)
    state.note("to_deck", s, hand, f"hand:{s}", "deck", 1 << s)
    hand.clear()
    state.phase = SHUFFLE
    state.decider = -1


def redeal_jacks(state: TowersState, target: int) -> None:
    """R10: the whole hand into an opponent's store, face down."""
    spend_nobility(state, 4, 0, 0)
    s = state.mover
    hand = state.hands[s]
    state.to_store(target, hand, f"hand:{s}", "give", state.store_seen_by(s, target))
    hand.clear()
    state.end_turn()


def redeal_queens(state: TowersState) -> None:
    """R10: choose cards of the hand for one's own store (``store`` … ``done``)."""
    spend_nobility(state, 0, 4, 0)
    state.phase = QUEENS
    state.decider = state.mover


def store_card(state: TowersState, card: int) -> None:
    s = state.mover
    state.take_from_hand(s, (card,))
    state.to_store(s, (card,), f"hand:{s}", "store", state.store_seen_by(s))
    if not state.hands[s]:
        queens_done(state)


def queens_done(state: TowersState) -> None:
    """The rest of the hand is shuffled into the deck (no shuffle when nothing is left)."""
    if state.hands[state.mover]:
        hand_to_deck(state)
    else:
        state.end_turn()


def redeal_kings(state: TowersState) -> None:
    """R10: give every card of the hand to a store of one's choice (``give CARD SEAT``)."""
    spend_nobility(state, 0, 0, 4)
    state.phase = KINGS
    state.decider = state.mover
    if not state.hands[state.mover]:
        state.end_turn()


def give_card(state: TowersState, card: int, seat: int) -> None:
    s = state.mover
    state.take_from_hand(s, (card,))
    state.to_store(seat, (card,), f"hand:{s}", "give", state.store_seen_by(s, seat))
    if not state.hands[s]:
        state.end_turn()
