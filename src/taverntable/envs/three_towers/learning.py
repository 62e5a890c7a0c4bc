"""Three Towers' learning kit: its observation (``observe.py``), its chance steps as runs of
one-card draws, and the bounds OpenSpiel asks for.

The pools and sizes are the engine's: a round's deal (R1) is the 108 cards (R35: 162), top
first, as ``Deal``; the shuffle after a redeal (R10) the deck's cards, as ``Shuffle``; a
Thief's steal (R9) ``STEAL_MAX`` cards (or all) of the victim's store, as ``Steal``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taverntable.engine import CHANCE, GameState
from taverntable.games.three_towers import TowersState
from taverntable.games.three_towers.cards import JOKER, TEXT, VALUE, full_deck
from taverntable.games.three_towers.chance import STEAL_MAX
from taverntable.games.three_towers.moves import Deal, Shuffle, Steal
from taverntable.games.three_towers.scoring import DIAMOND_BONUS, WIN_BONUS
from taverntable.plugins.learning import ChanceRun, Learning, ObservationLayout

from .observe import LAYOUT, encode


class TowersLearning:
    """``plugins.learning.Learning`` of Three Towers: a game waits for its first round's deal."""

    layout: ObservationLayout = LAYOUT
    # Each seat's points (R14): no seat's gain is another's loss.
    zero_sum = False
    # The 52 cards and the joker (R1; R35's three decks have the same codes).
    max_chance_outcomes = 53

    def encode(self, view_json: dict[str, Any] | None) -> Any:
        if view_json is None:
            raise ValueError("a Three Towers game has a state before its first deal")
        return encode(view_json)

    def utility_bounds(self, rules: Any, players: int, max_moves: int) -> tuple[float, float]:
        """A round scores at most every positive card of the deck and every warrior's nobility
        points (R2, R28), doubled by a ♥ tower or plus the ♦ bonus (R13); at least every
        negative card, doubled; a game has at most ``max_rounds`` rounds or, uncapped, one per
        decision."""
        deck = full_deck(rules.decks)  # R1, R35
        warriors = sum(1 for c in deck if c < 52 and c // 13 != 0 and c % 13 >= 10)
        extra = rules.nobility_points * warriors + rules.joker_points * deck.count(JOKER)  # R30
        best = 2 * (sum(VALUE[c] for c in deck if VALUE[c] > 0) + extra)
        worst = 2 * sum(VALUE[c] for c in deck if VALUE[c] < 0)
        rounds = rules.max_rounds if rules.max_rounds is not None else max_moves
        return float(rounds * worst), float(rounds * (best + DIAMOND_BONUS) + WIN_BONUS)

    def before_deal(self, rules: Any, players: int, dealer: int) -> GameState[Any, Any] | None:
        """A game waiting for its first round's deal."""
        return TowersState.new(rules, players, dealer=dealer)

    def deal_run(self, rules: Any, players: int, dealer: int) -> ChanceRun:
        raise ValueError("a Three Towers game has a state before its first deal")

    def chance_run(self, state: GameState[Any, Any]) -> ChanceRun | None:
        """The chance step a Three Towers state is at, or None at a decision or the end."""
        if state.current_seat != CHANCE:
            return None
        assert isinstance(state, TowersState)
        return towers_run(state)


def towers_run(state: TowersState) -> ChanceRun:
    """The chance step a Three Towers state is at (``current_seat == CHANCE``)."""

    def apply(build: Callable[[list[int]], Any]) -> Callable[[list[int]], GameState[Any, Any]]:
        def finish(cards: list[int]) -> GameState[Any, Any]:
            state.apply(build(cards))  # checked: a wrong pool would be an IllegalMove here
            return state

        return finish

    match state.phase:
        case "deal":
            pool = full_deck(state.rules.decks)
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


LEARNING: Learning = TowersLearning()
