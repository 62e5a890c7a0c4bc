"""The Tonk family's learning kit: its observation (``observe.py``), a deal as 52 chance nodes,
and the bounds OpenSpiel asks for."""

from __future__ import annotations

from typing import Any

from taverntable.cards import CARDS
from taverntable.engine import CHANCE, GameState
from taverntable.games.tonk import TonkState
from taverntable.plugins.learning import ChanceRun, Learning, ObservationLayout

from .observe import LAYOUT, encode

_TEXT = tuple(card.text for card in CARDS)


class TonkLearning:
    """``plugins.learning.Learning`` of the Tonk family: one state is one deal, made by the
    deal itself, so a state before its deal is none."""

    layout: ObservationLayout = LAYOUT
    # A deal's payments: what one seat wins the others pay (T2).
    zero_sum = True
    # The deck's 52 cards, one copy each (T1).
    max_chance_outcomes = 52

    def encode(self, view_json: dict[str, Any] | None) -> Any:
        return encode(view_json)

    def utility_bounds(self, rules: Any, players: int, max_moves: int) -> tuple[float, float]:
        """A seat pays or is paid by each other seat at most twice the stake (T4's double, T6's
        burned drop, T10's double out), so ±2(n-1)."""
        return -2.0 * (players - 1), 2.0 * (players - 1)

    def before_deal(self, rules: Any, players: int, dealer: int) -> GameState[Any, Any] | None:
        """None: the deal makes the state (``deal_run``)."""
        return None

    def deal_run(self, rules: Any, players: int, dealer: int) -> ChanceRun:
        """T3: the deck, top first, card by card; the deal is made when all 52 are drawn."""

        def finish(cards: list[int]) -> GameState[Any, Any]:
            return TonkState.deal(rules, players, deck=cards, dealer=dealer)

        return ChanceRun("deal", range(52), 52, finish, _TEXT)

    def chance_run(self, state: GameState[Any, Any]) -> ChanceRun | None:
        """None: a Tonk deal has no chance step after its deal (the stock's order is dealt)."""
        if state.current_seat == CHANCE:
            raise ValueError(f"no chance steps known for {type(state).__name__}")
        return None


LEARNING: Learning = TonkLearning()
