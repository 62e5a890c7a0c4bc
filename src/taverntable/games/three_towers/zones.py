"""Cards between zones: drawing, storing, the nobility, laying from a hand (R7, R9, R12, R16).

The steps every transition is made of. Each takes the position and ``noting`` (whether to build
events, ``events.py``) and returns the events of the cards it moved.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence

from taverntable.engine import EVERYONE

from .events import NO_EVENTS, Events, moved
from .position import TowersPosition


def draw(state: TowersPosition, noting: bool, seat: int, count: int) -> Events:
    """Draw up to ``count`` cards from the deck (fewer when it runs short)."""
    deck, hand = state.deck, state.hands[seat]
    got = min(count, len(deck))
    drawn = deck[len(deck) - got :]
    del deck[len(deck) - got :]
    for c in drawn:
        insort(hand, c)
    if got and noting:
        # Sorted, as the hand is: the order they lay in the deck is nobody's business.
        return (moved("draw", seat, sorted(drawn), "deck", f"hand:{seat}", 1 << seat),)
    return NO_EVENTS


def to_store(
    state: TowersPosition,
    noting: bool,
    seat: int,
    cards: Sequence[int],
    source: str,
    kind: str,
    seen: int = EVERYONE,
) -> Events:
    """Cards into a store from ``source``; ``seen`` the seats that saw which (R16)."""
    state.stores[seat].extend(cards)
    if seen == EVERYONE:
        state.known[seat].extend(cards)
    if cards and noting:
        return (moved(kind, seat, cards, source, f"store:{seat}", seen),)
    return NO_EVENTS


def to_nobility(
    state: TowersPosition, noting: bool, seat: int, cards: Sequence[int], source: str, kind: str
) -> Events:
    """Warriors into a nobility, in public (R7, R9)."""
    nobility = state.nobility[seat]
    nobility.extend(cards)
    nobility.sort()
    if cards and noting:
        return (moved(kind, seat, cards, source, f"nobility:{seat}"),)
    return NO_EVENTS


def take_from_hand(
    state: TowersPosition, noting: bool, seat: int, cards: Sequence[int], dest: str = ""
) -> Events:
    """Cards out of a hand; with ``dest``, laid there in public (a lead, a tower, an attack)."""
    hand = state.hands[seat]
    for c in cards:
        hand.remove(c)
    if dest and noting:
        return (moved("lay", seat, cards, f"hand:{seat}", dest),)
    return NO_EVENTS
