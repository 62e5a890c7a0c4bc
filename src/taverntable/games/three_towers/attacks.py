"""Attacks (R9): raids on towers and curses by the Thief, Witch and Warlock; defence and yield."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import IS_ACE, JOKER, THIEF, WARLOCK
from .phases import DEFEND, STEAL, Attack
from .trade import witch_trade

if TYPE_CHECKING:
    from .state import TowersState

STEAL_MAX = 4  # A: the Thief steals up to 4 cards


def attack(state: TowersState, target: int, card: int) -> None:
    """The mover plays a warrior at a tower, or a spade figure at a player; the target decides."""
    s = state.mover
    state.take_from_hand(s, (card,), "attack")
    state.attack = Attack(s, target, card)
    state.phase = DEFEND
    state.decider = target


def defend(state: TowersState, card: int) -> None:
    """R9: repelled. The defender's warrior (or the raider's too) into the defender's nobility,
    a joker into the defender's store, a spade figure into its owner's store."""
    a = state.attack
    assert a is not None
    state.take_from_hand(a.target, (card,))
    hand = f"hand:{a.target}"
    if card == JOKER:
        state.to_store(a.target, (card,), hand, "defend")
    else:
        state.to_nobility(a.target, (card,), hand, "defend")
    if a.is_raid:
        state.to_nobility(a.target, (a.card,), "attack", "repelled")
    else:
        state.to_store(a.attacker, (a.card,), "attack", "repelled")
    state.attack = None
    state.end_turn()


def let_through(state: TowersState) -> None:
    """R9: the attack succeeds."""
    a = state.attack
    assert a is not None
    if a.is_raid:
        plunder(state, a)
    elif a.card == WARLOCK:
        state.to_store(a.target, (WARLOCK,), "attack", "curse")
    elif a.card == THIEF:
        if state.stores[a.target]:
            state.phase = STEAL
            state.decider = -1
            return  # the chance step ``steal`` finishes the curse
        state.to_store(a.target, (THIEF,), "attack", "curse")
    else:
        witch_trade(state, a.attacker)
        return
    state.attack = None
    state.end_turn()


def plunder(state: TowersState, a: Attack) -> None:
    """R9 raid through: from the top down to the highest reinforcing ace (taken too), or the
    whole tower when it has none; the raiding warrior returns to the raider's nobility."""
    tower = state.towers[a.target]
    cut = 0
    for i in range(len(tower) - 1, 0, -1):
        if IS_ACE[tower[i]]:
            cut = i
            break
    taken = tower[cut:]
    del tower[cut:]
    state.to_store(a.attacker, taken, f"tower:{a.target}", "plunder")
    state.to_nobility(a.attacker, (a.card,), "attack", "return")


def steal(state: TowersState, cards: tuple[int, ...]) -> None:
    """R9 Thief through: the stolen cards go face down into the thief's owner's store, then the
    Thief into the victim's store."""
    a = state.attack
    assert a is not None
    victim = state.stores[a.target]
    for c in cards:
        victim.remove(c)
    # R16: thief and victim see the stolen cards when players see their own stores.
    seen = (1 << a.attacker | 1 << a.target) if state.rules.own_store_visible else 0
    state.to_store(a.attacker, cards, f"store:{a.target}", "steal", seen)
    # Which known cards left the victim's store is hidden: forget them all (R16).
    state.known[a.target] = []
    state.to_store(a.target, (THIEF,), "attack", "curse")
    state.attack = None
    state.end_turn()
