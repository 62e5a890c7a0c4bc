"""Attacks (R9): raids on towers and curses by the Thief, Witch and Warlock; defence and yield.

Each function returns the events of what it did (``noting``: ``events.py``).
"""

from __future__ import annotations

from .cards import IS_ACE, JOKER, THIEF, WARLOCK
from .events import NO_EVENTS, Events
from .phases import DEFEND, STEAL, Attack
from .position import TowersPosition
from .trade import witch_trade
from .turns import end_turn
from .zones import take_from_hand, to_nobility, to_store

STEAL_MAX = 4  # A: the Thief steals up to 4 cards


def attack(state: TowersPosition, noting: bool, target: int, card: int, raid: bool) -> Events:
    """The mover plays a warrior (R34: or a ♠ jack) at a tower, or a spade figure at a player;
    the target decides."""
    s = state.mover
    events = take_from_hand(state, noting, s, (card,), "attack")
    state.attack = Attack(s, target, card, raid)
    state.phase = DEFEND
    state.decider = target
    return events


def defend(state: TowersPosition, noting: bool, card: int) -> Events:
    """R9: repelled. The defender's warrior (or the raider's too) into the defender's nobility,
    a joker (or a ♠ jack, R32) into the defender's store, a spade figure into its owner's
    store (R34: a raiding ♠ jack too, as a repelled Thief)."""
    a = state.attack
    assert a is not None
    take_from_hand(state, noting, a.target, (card,))
    hand = f"hand:{a.target}"
    if card in (JOKER, THIEF):  # R32: a ♠ jack is no warrior for the nobility
        events = to_store(state, noting, a.target, (card,), hand, "defend")
    else:
        events = to_nobility(state, noting, a.target, (card,), hand, "defend")
    if a.is_raid and a.card != THIEF:
        events += to_nobility(state, noting, a.target, (a.card,), "attack", "repelled")
    else:
        events += to_store(state, noting, a.attacker, (a.card,), "attack", "repelled")
    state.attack = None
    return events + end_turn(state, noting)


def let_through(state: TowersPosition, noting: bool) -> Events:
    """R9: the attack succeeds."""
    a = state.attack
    assert a is not None
    if a.is_raid:
        events = plunder(state, noting, a)
    elif a.card == WARLOCK:
        events = to_store(state, noting, a.target, (WARLOCK,), "attack", "curse")
    elif a.card == THIEF:
        if state.stores[a.target]:
            state.phase = STEAL
            state.decider = -1
            return NO_EVENTS  # the chance step ``steal`` finishes the curse
        events = to_store(state, noting, a.target, (THIEF,), "attack", "curse")
    else:
        return witch_trade(state, noting, a.attacker)
    state.attack = None
    return events + end_turn(state, noting)


def plunder(state: TowersPosition, noting: bool, a: Attack) -> Events:
    """R9 raid through: from the top down to the highest reinforcing ace (taken too), or the
    whole tower when it has none; the raiding warrior returns to the raider's nobility (R34: a
    raiding ♠ jack, no warrior for the nobility, into the raider's store; it steals nothing)."""
    tower = state.towers[a.target]
    cut = 0
    for i in range(len(tower) - 1, 0, -1):
        if IS_ACE[tower[i]]:
            cut = i
            break
    taken = tower[cut:]
    del tower[cut:]
    events = to_store(state, noting, a.attacker, taken, f"tower:{a.target}", "plunder")
    if a.card == THIEF:
        return events + to_store(state, noting, a.attacker, (a.card,), "attack", "return")
    return events + to_nobility(state, noting, a.attacker, (a.card,), "attack", "return")


def steal(state: TowersPosition, noting: bool, cards: tuple[int, ...]) -> Events:
    """R9 Thief through: the stolen cards go face down into the thief's owner's store, then the
    Thief into the victim's store."""
    a = state.attack
    assert a is not None
    victim = state.stores[a.target]
    for c in cards:
        victim.remove(c)
    # R16: thief and victim see the stolen cards when players see their own stores.
    seen = (1 << a.attacker | 1 << a.target) if state.rules.own_store_visible else 0
    events = to_store(state, noting, a.attacker, cards, f"store:{a.target}", "steal", seen)
    # Which known cards left the victim's store is hidden: forget them all (R16).
    state.known[a.target] = []
    events += to_store(state, noting, a.target, (THIEF,), "attack", "curse")
    state.attack = None
    return events + end_turn(state, noting)
