"""A Tonk match: a series of deals with running balances, the deal passing on (T2)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from taverntable.engine import DealError

from .rules import TonkRules
from .scoring import Result
from .state import TonkState, check_players


@dataclass
class TonkMatch:
    """Deals one after another; ``balances`` is what each seat has won minus what it paid.

    The next dealer is the next seat, or the winner with ``next_dealer = "winner"`` (the first
    winner in play order when several won); after a void deal the same dealer deals again (T4).
    """

    rules: TonkRules
    players: Sequence[str]
    stake: int = 1
    dealer: int = 0
    balances: list[int] = field(default_factory=list)
    deals: list[TonkState] = field(default_factory=list)
    booked: int = 0  # how many deals' payments are in the balances

    def __post_init__(self) -> None:
        check_players(len(self.players))
        if not 0 <= self.dealer < len(self.players):
            raise DealError(f"dealer must be a seat 0..{len(self.players) - 1}")
        if not self.balances:
            self.balances = [0] * len(self.players)

    @property
    def current(self) -> TonkState | None:
        """The deal being played, if any."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1]
        return None

    def new_deal(
        self, rng: random.Random | int | None = None, deck: Sequence[int] | None = None
    ) -> TonkState:
        """Deal the next hand (shuffled by ``rng``, or a stacked ``deck``)."""
        if self.current is not None:
            raise DealError("the current deal is not over yet")
        state = TonkState.deal(
            self.rules, len(self.players), rng=rng, deck=deck, dealer=self.dealer, stake=self.stake
        )
        self.deals.append(state)
        if state.is_over:
            self._settle(state)
        return state

    def settle_if_over(self) -> Result | None:
        """After a move ends the current deal: book its payments and pass the deal on, once."""
        if self.deals and self.deals[-1].is_over and self.booked < len(self.deals):
            self._settle(self.deals[-1])
            return self.deals[-1].result
        return None

    def _settle(self, state: TonkState) -> None:
        result = state.result
        assert result is not None
        for seat, gain in enumerate(result.net):
            self.balances[seat] += gain
        self.booked = len(self.deals)
        self.dealer = next_dealer(self.rules, state.dealer, result, len(self.players))


def next_dealer(rules: TonkRules, dealer: int, result: Result, n: int) -> int:
    """T2/T4: who deals the next hand."""
    if result.end == "void":
        return dealer
    if rules.next_dealer == "winner" and result.winners:
        first = (dealer + 1) % n
        return min(result.winners, key=lambda s: (s - first) % n)
    return (dealer + 1) % n
