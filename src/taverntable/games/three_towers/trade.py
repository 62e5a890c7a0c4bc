"""Trades (A1, R4–R7) and the Witch's spade trade (R9): leading, answering, failing, winning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import IS_PLAIN, IS_WARRIOR, SPADES
from .phases import ANSWER, NAME, TradeState

if TYPE_CHECKING:
    from .state import TowersState

# R7: a taking joker bids above every card, a giving joker below every card.
TAKE_BID = 100
GIVE_BID = -1


def lead(state: TowersState, card: int, suit: int, bid: int) -> None:
    """R4: the mover lays the lead; the others answer in seat order after the mover (R5)."""
    s, n = state.mover, state.num_players
    state.take_from_hand(s, (card,), "trade")
    state.trade = TradeState(
        s, suit, False, [(s, (card,))], [(bid, s)], [(s + i) % n for i in range(1, n)]
    )
    _next_answer(state)


def witch_trade(state: TowersState, owner: int) -> None:
    """R9: a Witch let through: everyone answers as if spades were led, its owner last."""
    n = state.num_players
    state.trade = TradeState(
        owner, SPADES, True, [], [], [(owner + i) % n for i in range(1, n + 1)]
    )
    _next_answer(state)


def answer(state: TowersState, cards: tuple[int, ...], bid: int | None) -> None:
    """R5: the answering seat lays ``cards``; ``bid`` is its rank key for (a) and (b) answers."""
    trade = state.trade
    assert trade is not None
    seat = trade.queue.pop(0)
    state.take_from_hand(seat, cards, "trade")
    trade.laid.append((seat, cards))
    # R6: a seat that failed lays cards but no longer competes; a Witch's trade has no bids.
    if bid is not None and not trade.witch and seat not in trade.failed:
        trade.bids.append((bid, seat))
    _next_answer(state)


def joker_bid(take: bool) -> int:
    """R7: a joker's rank key."""
    return TAKE_BID if take else GIVE_BID


def fail(state: TowersState) -> None:
    """R6: lay the one plain card if any, show the hand into one's own store, draw 7."""
    trade = state.trade
    assert trade is not None
    seat = trade.queue[0]
    hand = state.hands[seat]
    plain = [c for c in hand if IS_PLAIN[c]]
    if plain:
        state.take_from_hand(seat, plain[:1], "trade")
        trade.laid.append((seat, (plain[0],)))
    shown = tuple(hand)
    if shown:
        state.shown.append((seat, shown))
        state.to_store(seat, shown, f"hand:{seat}", "show")
    hand.clear()
    if seat not in trade.failed:
        trade.failed.append(seat)
    state.draw(seat, 7)
    if not hand:
        # The deck is empty: the seat lays nothing more (the round ends at the refill, R12).
        trade.queue.pop(0)
    _next_answer(state)


def _next_answer(state: TowersState) -> None:
    trade = state.trade
    assert trade is not None
    if trade.queue:
        state.phase = ANSWER
        state.decider = trade.queue[0]
        return
    if trade.witch:
        assert state.attack is not None
        state.phase = NAME
        state.decider = state.attack.attacker
        return
    # R7: the highest bid wins; among equals the earliest (max keeps the first maximum).
    winner = max(trade.bids, key=lambda b: b[0])[1]
    give_trade_cards(state, winner, [c for _, cards in trade.laid for c in cards], "trade")
    state.trade = None
    state.end_turn()


def name(state: TowersState, seat: int) -> None:
    """R9: the named player takes the Witch's trade and the Witch."""
    trade, attack = state.trade, state.attack
    assert trade is not None and attack is not None
    give_trade_cards(state, seat, [c for _, cards in trade.laid for c in cards], "trade")
    state.to_store(seat, (attack.card,), "attack", "win")
    state.trade = None
    state.attack = None
    state.end_turn()


def give_trade_cards(state: TowersState, seat: int, cards: list[int], source: str) -> None:
    """R7: warriors into the taker's nobility, everything else into the store (in public)."""
    state.to_nobility(seat, [c for c in cards if IS_WARRIOR[c]], source, "win")
    state.to_store(seat, [c for c in cards if not IS_WARRIOR[c]], source, "win")
