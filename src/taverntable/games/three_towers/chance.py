"""Chance steps (seat -1): a round's deal, the shuffle after a redeal, a Thief's steal.

Each outcome is a move whose text records it, so a record replays identically; ``sample``
draws one uniformly, and ``check_chance`` accepts exactly the outcomes the rules allow.
"""

from __future__ import annotations

import random
from collections import Counter

from taverntable.engine import IllegalMove

from .cards import cards_text, full_deck
from .moves import Deal, Shuffle, Steal, TowersMove
from .phases import DEAL, SHUFFLE, STEAL
from .position import TowersPosition
from .reasons import refuse

STEAL_MAX = 4
_FULL = {d: Counter(full_deck(d)) for d in (2, 3)}  # R1, R35


def sample(state: TowersPosition, rng: random.Random) -> TowersMove:
    """A uniformly random outcome of the chance step now."""
    match state.phase:
        case "deal":
            deck = full_deck(state.rules.decks)
            _shuffle(deck, rng)
            return Deal(tuple(deck))
        case "shuffle":
            deck = state.deck[:]
            _shuffle(deck, rng)
            return Shuffle(tuple(deck))
        case "steal":
            assert state.attack is not None
            store = state.stores[state.attack.target]
            return Steal(tuple(sorted(rng.sample(store, min(STEAL_MAX, len(store))))))
        case _:
            raise ValueError(f"no chance step now (phase {state.phase})")


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """Fisher–Yates driven by ``rng.random()`` (faster than ``rng.shuffle``, as in Tonk)."""
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def check_chance(state: TowersPosition, move: TowersMove) -> None:
    """Raise IllegalMove unless ``move`` is a possible outcome of the chance step now."""
    phase = state.phase
    match move:
        case Deal(cards=cards) if phase == DEAL:
            full = _FULL[state.rules.decks]
            if Counter(cards) != full:
                rule = "R1" if state.rules.decks == 2 else "R35"
                raise _difference(rule, "deal", Counter(cards), full)
        case Shuffle(cards=cards) if phase == SHUFFLE:
            if Counter(cards) != Counter(state.deck):
                raise _difference("R10", "shuffle", Counter(cards), Counter(state.deck))
        case Steal(cards=cards) if phase == STEAL:
            assert state.attack is not None
            victim = state.attack.target
            store = Counter(state.stores[victim])
            need = min(STEAL_MAX, sum(store.values()))
            if len(cards) != need:
                raise refuse(
                    "R9", "towers.chance.steal_count", need=need, seat=victim, count=len(cards)
                )
            extra = Counter(cards) - store
            if extra:
                raise refuse(
                    "R9",
                    "towers.chance.steal_cards",
                    seat=victim,
                    cards=cards_text(sorted(extra.elements())),
                )
        case _:
            verb = {DEAL: "deal", SHUFFLE: "shuffle", STEAL: "steal"}[phase]
            raise refuse(
                "R1" if phase == DEAL else "R10" if phase == SHUFFLE else "R9",
                "towers.chance.expected",
                verb=verb,
                move=str(move),
            )


def _difference(rule: str, what: str, got: Counter[int], want: Counter[int]) -> IllegalMove:
    """A deck (``what``: deal or shuffle) that is not the cards it must hold."""
    missing = cards_text(sorted((want - got).elements()))
    extra = cards_text(sorted((got - want).elements()))
    if missing and extra:
        return refuse(rule, f"towers.chance.{what}.both", missing=missing, extra=extra)
    if missing:
        return refuse(rule, f"towers.chance.{what}.missing", missing=missing)
    return refuse(rule, f"towers.chance.{what}.extra", extra=extra)
