"""Chance as OpenSpiel chance nodes: one card at a time.

OpenSpiel lists a chance node's outcomes with their probabilities, so a shuffled deck cannot be
one outcome (52! orders). Each of our chance steps becomes a run of chance nodes that each draw
one card of a pool (without replacement, with probability in proportion to its copies); when the
run is complete it becomes the engine's own chance move. The pools and sizes are the engine's:

- a Tonk deal (T3): the 52 cards in deck order, top first; then ``TonkState.deal(deck=…)``;
- a Three Towers round's deal (R1): the 108 cards, top first, as ``Deal``;
- the shuffle after a redeal (R10): the deck's cards, as ``Shuffle``;
- a Thief's steal (R9): ``STEAL_MAX`` cards (or all) of the victim's store, as ``Steal``.

Drawing cards one by one without replacement gives every order (and every set of stolen cards)
the probability the engine's own ``sample_chance`` gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.cards import CARDS
from taverntable.engine import CHANCE, Game, GameState
from taverntable.games.three_towers import TowersState
from taverntable.games.three_towers.cards import TEXT
from taverntable.games.three_towers.cards import full_deck as towers_deck
from taverntable.games.three_towers.chance import STEAL_MAX
from taverntable.games.three_towers.moves import Deal, Shuffle, Steal
from taverntable.games.tonk import TonkState


@dataclass(frozen=True)
class ChanceRun:
    """A chance step as a run of one-card draws: ``verb`` names it, ``pool`` holds the cards it
    draws from (codes, repeated for copies), ``count`` is how many it draws, ``finish`` turns
    the cards drawn (in order) into the next engine state. A run is made from the state it
    applies to whenever it is needed, never kept: a cloned state gets its own."""

    verb: str
    pool: Sequence[int]
    count: int
    finish: Callable[[list[int]], GameState[Any, Any]]
    card_text: Sequence[str]


_TONK_TEXT = tuple(card.text for card in CARDS)


def tonk_deal(rules: Any, players: int, dealer: int) -> ChanceRun:
    """T3: the deck, top first, card by card; the deal is made when all 52 are drawn."""

    def finish(cards: list[int]) -> GameState[Any, Any]:
        return TonkState.deal(rules, players, deck=cards, dealer=dealer)

    return ChanceRun("deal", range(52), 52, finish, _TONK_TEXT)


def towers_run(state: TowersState) -> ChanceRun:
    """The chance step a Three Towers state is at (``current_seat == CHANCE``)."""

    def apply(build: Callable[[list[int]], Any]) -> Callable[[list[int]], GameState[Any, Any]]:
        def finish(cards: list[int]) -> GameState[Any, Any]:
            state.apply(build(cards))  # checked: a wrong pool would be an IllegalMove here
            return state

        return finish

    match state.phase:
        case "deal":
            pool = towers_deck()
            return ChanceRun("deal", pool, len(pool), apply(lambda c: Deal(tuple(c))), TEXT)
        case "shuffle":
            pool = state.deck[:]
            return ChanceRun("shuffle", pool, len(pool), apply(lambda c: Shuffle(tuple(c))), TEXT)
        case "steal":
            assert state.attack is not None
            pool = state.stores[state.attack.target][:]
            return ChanceRun(
                "steal",
                pool,
                min(STEAL_MAX, len(pool)),
                apply(lambda c: Steal(tuple(sorted(c)))),
                TEXT,
            )
        case phase:
            raise ValueError(f"no chance step in phase {phase}")


def before_deal(game: Game, rules: Any, players: int, dealer: int) -> GameState[Any, Any] | None:
    """The engine state of a game before its first chance step: None for a Tonk deal (whose
    state is made by its deal, ``tonk_deal``); a Three Towers game waiting for its first
    round's deal."""
    if game.family == "tonk":
        return None
    return TowersState.new(rules, players, dealer=dealer)


def chance_run(state: GameState[Any, Any]) -> ChanceRun | None:
    """The run of the chance step ``state`` is at, or None when it is not at one."""
    if state.current_seat != CHANCE:
        return None
    if isinstance(state, TowersState):
        return towers_run(state)
    raise ValueError(f"no chance steps known for {type(state).__name__}")
