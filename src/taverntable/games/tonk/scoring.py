"""How a Tonk deal ends and who pays whom (T4, T6, T10, T11)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from taverntable.cards import indices

from .rules import TonkRules

EndKind = Literal["tonk", "tor", "low", "void", "drop", "burned", "out", "stock"]
Payment = tuple[int, int, int]  # (from seat, to seat, amount in units)


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a deal: how it ended, the winners, every hand total and every payment."""

    end: EndKind
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    payments: tuple[Payment, ...]

    @property
    def net(self) -> tuple[int, ...]:
        """Each seat's gain; sums to zero."""
        return _net(self.payments, len(self.totals))

    def to_json(self) -> dict[str, Any]:
        """The ``result`` object of the records spec."""
        return {
            "end": self.end,
            "winners": list(self.winners),
            "totals": list(self.totals),
            "payments": [list(p) for p in self.payments],
            "net": list(self.net),
        }


@lru_cache(maxsize=4096)
def _net(payments: tuple[Payment, ...], seats: int) -> tuple[int, ...]:
    """``Result.net``: a server reads a finished deal's several times (its record, every
    seat's view, the score sheet)."""
    net = [0] * seats
    for payer, payee, amount in payments:
        net[payer] -= amount
        net[payee] += amount
    return tuple(net)


def hand_total(mask: int, values: Sequence[int]) -> int:
    """T1: the value of the cards in hand."""
    return sum(values[i % 13 + 1] for i in indices(mask))


# The twelve jacks, queens and kings as a card mask.
ROYALS = sum(0b111 << (13 * suit + 10) for suit in range(4))


def is_royal(mask: int) -> bool:
    """T4 (``tor``): a hand of J, Q and K only."""
    return mask != 0 and mask & ~ROYALS == 0


def deal_time_result(
    rules: TonkRules, hands: Sequence[int], totals: Sequence[int], stake: int
) -> Result | None:
    """T4: the win on the deal, if any, before anyone acts."""
    n = len(hands)
    if rules.deal_wins == "tonk":
        tonks = [s for s in range(n) if totals[s] <= 15 or totals[s] in (49, 50)]
        if tonks:
            return _everyone_pays(n, tonks, 2 * stake, "tonk", totals)
        return None
    if rules.deal_wins == "tor":
        royals = [s for s in range(n) if is_royal(hands[s])]
        if len(royals) >= 2:
            return Result("void", (), tuple(totals), ())
        if royals:
            return _everyone_pays(n, royals, 2 * stake, "tor", totals)
        lows = [s for s in range(n) if totals[s] <= 15]
        if lows:
            return _everyone_pays(n, lows, stake, "low", totals)
        return None
    fifties = [s for s in range(n) if totals[s] in (49, 50)]
    if len(fifties) >= 2:
        return Result("void", (), tuple(totals), ())
    if fifties:
        return _everyone_pays(n, fifties, 2 * stake, "tonk", totals)
    return None


def _everyone_pays(
    n: int, winners: Sequence[int], amount: int, end: EndKind, totals: Sequence[int]
) -> Result:
    """Every non-winner pays ``amount`` to each winner; winners pay each other nothing."""
    won = set(winners)
    payments = tuple((p, w, amount) for w in winners for p in range(n) if p not in won)
    return Result(end, tuple(winners), tuple(totals), payments)


def drop_result(dropper: int, totals: Sequence[int], stake: int) -> Result:
    """T6: a drop succeeds when every other total is greater; otherwise it is burned."""
    n = len(totals)
    d = totals[dropper]
    others = [s for s in range(n) if s != dropper]
    caught = [s for s in others if totals[s] <= d]
    if not caught:
        return _everyone_pays(n, [dropper], stake, "drop", totals)
    low = min(totals[s] for s in others)
    lowest = [s for s in others if totals[s] == low]
    payments = [(dropper, s, 2 * stake) for s in caught]
    payments += [(p, w, stake) for w in lowest for p in others if totals[p] > d]
    return Result("burned", tuple(lowest), tuple(totals), tuple(payments))


def out_result(player: int, totals: Sequence[int], amount: int) -> Result:
    """T10: every other player pays the one who went out."""
    return _everyone_pays(len(totals), [player], amount, "out", totals)


def stock_result(totals: Sequence[int], stake: int) -> Result:
    """T11: the lowest hand total or totals win; every other player pays 1× to each."""
    low = min(totals)
    return _everyone_pays(
        len(totals), [s for s, t in enumerate(totals) if t == low], stake, "stock", totals
    )
