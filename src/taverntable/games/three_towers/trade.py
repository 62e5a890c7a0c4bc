"""Trades (A1, R4–R7) and the Witch's spade trade (R9): leading, answering, failing, winning.

Each function returns the events of what it did (``noting``: ``events.py``).
"""

from __future__ import annotations

from .cards import IS_PLAIN, IS_WARRIOR, SPADES
from .events import NO_EVENTS, Events
from .phases import ANSWER, NAME, TradeState
from .position import TowersPosition
from .turns import end_turn
from .zones import draw, take_from_hand, to_nobility, to_store

# R7: a taking joker bids above every card, a giving joker below every card.
TAKE_BID = 100
GIVE_BID = -1


def lead(state: TowersPosition, noting: bool, card: int, suit: int, bid: int) -> Events:
    """R4: the mover lays the lead; the others answer in seat order after the mover (R5)."""
    s, n = state.mover, state.num_players
    events = take_from_hand(state, noting, s, (card,), "trade")
    state.trade = TradeState(
        s, suit, False, [(s, (card,))], [(bid, s)], [(s + i) % n for i in range(1, n)]
    )
    return events + _next_answer(state, noting)


def witch_trade(state: TowersPosition, noting: bool, owner: int) -> Events:
    """R9: a Witch let through: everyone answers as if spades were led, its owner last."""
    n = state.num_players
    state.trade = TradeState(
        owner, SPADES, True, [], [], [(owner + i) % n for i in range(1, n + 1)]
    )
    return _next_answer(state, noting)


def answer(state: TowersPosition, noting: bool, cards: tuple[int, ...], bid: int | None) -> Events:
    """R5: the answering seat lays ``cards``; ``bid`` is its rank key for (a) and (b) answers."""
    trade = state.trade
    assert trade is not None
    seat = trade.queue.pop(0)
    events = take_from_hand(state, noting, seat, cards, "trade")
    trade.laid.append((seat, cards))
    # R6: a seat that failed lays cards but no longer competes; a Witch's trade has no bids.
    if bid is not None and not trade.witch and seat not in trade.failed:
        trade.bids.append((bid, seat))
    return events + _next_answer(state, noting)


def joker_bid(take: bool) -> int:
    """R7: a joker's rank key."""
    return TAKE_BID if take else GIVE_BID


def fail(state: TowersPosition, noting: bool) -> Events:
    """R6: lay the one plain card if any, show the hand into one's own store, draw 7 (R31: the
    hand size)."""
    trade = state.trade
    assert trade is not None
    seat = trade.queue[0]
    hand = state.hands[seat]
    plain = [c for c in hand if IS_PLAIN[c]]
    events = NO_EVENTS
    if plain:
        events = take_from_hand(state, noting, seat, plain[:1], "trade")
        trade.laid.append((seat, (plain[0],)))
    shown = tuple(hand)
    if shown:
        state.shown.append((seat, shown))
        events += to_store(state, noting, seat, shown, f"hand:{seat}", "show")
    hand.clear()
    if seat not in trade.failed:
        trade.failed.append(seat)
    events += draw(state, noting, seat, state.rules.hand_size)
    if not hand:
        # The deck is empty: the seat lays nothing more (the round ends at the refill, R12).
        trade.queue.pop(0)
    return events + _next_answer(state, noting)


def _next_answer(state: TowersPosition, noting: bool) -> Events:
    trade = state.trade
    assert trade is not None
    if trade.queue:
        state.phase = ANSWER
        state.decider = trade.queue[0]
        return NO_EVENTS
    if trade.witch:
        assert state.attack is not None
        state.phase = NAME
        state.decider = state.attack.attacker
        return NO_EVENTS
    # R7: the highest bid wins; among equals the earliest (max keeps the first maximum).
    winner = max(trade.bids, key=lambda b: b[0])[1]
    laid = [c for _, cards in trade.laid for c in cards]
    events = give_trade_cards(state, noting, winner, laid, "trade")
    state.trade = None
    return events + end_turn(state, noting)


def name(state: TowersPosition, noting: bool, seat: int) -> Events:
    """R9: the named player takes the Witch's trade and the Witch."""
    trade, attack = state.trade, state.attack
    assert trade is not None and attack is not None
    laid = [c for _, cards in trade.laid for c in cards]
    events = give_trade_cards(state, noting, seat, laid, "trade")
    events += to_store(state, noting, seat, (attack.card,), "attack", "win")
    state.trade = None
    state.attack = None
    return events + end_turn(state, noting)


def give_trade_cards(
    state: TowersPosition, noting: bool, seat: int, cards: list[int], source: str
) -> Events:
    """R7: warriors into the taker's nobility, everything else into the store (in public)."""
    warriors = [c for c in cards if IS_WARRIOR[c]]
    others = [c for c in cards if not IS_WARRIOR[c]]
    return to_nobility(state, noting, seat, warriors, source, "win") + to_store(
        state, noting, seat, others, source, "win"
    )
