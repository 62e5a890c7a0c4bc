"""Tonk-family rule options (T1–T12) and the named presets ``tonk``, ``tor`` and ``pagat``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from taverntable.options import RuleOptions, option_values
from taverntable.options import RulesError as RulesError  # re-exported: callers catch it here

DealWins = Literal["tonk", "tor", "pagat"]
FaceValues = Literal["10/10/10", "11/12/13"]
Discard = Literal["mandatory", "optional_after_spread"]
# T11, when the stock runs out: "last_draw" (tonk, tor) ends the deal after the turn that drew its
# last card; "empty" (pagat) plays on: the player on turn takes the pile's top card or declines it
# by writing "draw stock", which ends the deal at once (as does a turn that finds the pile empty
# too). Either way the lowest total wins 1x from every other player.
StockEnd = Literal["last_draw", "empty"]
NextDealer = Literal["next", "winner"]

# T1: hand value of each rank 1..13 (index 0 unused), by the face_values option.
CARD_VALUES: dict[str, tuple[int, ...]] = {
    "10/10/10": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),
    "11/12/13": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
}

MIN_PLAYERS = 2
MAX_PLAYERS = 10  # T2: 5 cards each + the upcard must leave a stock card


@dataclass(frozen=True, kw_only=True, slots=True)
class TonkRules(RuleOptions):
    """One Tonk-family rule set; a preset is a named instance (T12).

    ``deal_wins``, ``discard`` and ``stock_end`` carry the preset differences of T4, T9 and T11 so
    that a house can mix them; the other options are the ones T1–T10 name.
    """

    preset: str
    deal_wins: DealWins  # T4
    face_values: FaceValues = "10/10/10"  # T1
    hit_sets: bool = True  # T8
    hit_lock: bool = False  # T6
    discard: Discard = "mandatory"  # T9
    tonk_out_double: bool = False  # T10
    stock_end: StockEnd = "last_draw"  # T11: see StockEnd
    next_dealer: NextDealer = "next"  # T2

    def __post_init__(self) -> None:
        for name, values in option_values(TonkRules).items():  # each option is a closed set
            value = getattr(self, name)
            if isinstance(value, bool) != isinstance(values[0], bool) or value not in values:
                shown = " or ".join(
                    repr(v) if not isinstance(v, bool) else str(v).lower() for v in values
                )
                raise RulesError(f"rule option {name} must be {shown}, not {value!r}")

    @property
    def card_values(self) -> tuple[int, ...]:
        """Hand value of each rank 1..13 (index 0 unused)."""
        return CARD_VALUES[self.face_values]

    def presets(self) -> dict[str, TonkRules]:
        """The named presets of this game."""
        return PRESETS


TONK = TonkRules(preset="tonk", deal_wins="tonk")
TOR = TonkRules(preset="tor", deal_wins="tor", discard="optional_after_spread")
PAGAT = TonkRules(
    preset="pagat",
    deal_wins="pagat",
    hit_lock=True,
    tonk_out_double=True,
    stock_end="empty",
    next_dealer="winner",
)
PRESETS: dict[str, TonkRules] = {"tonk": TONK, "tor": TOR, "pagat": PAGAT}


def rules_from(preset: str, **options: Any) -> TonkRules:
    """The named preset with the given options changed."""
    if preset not in PRESETS:
        raise RulesError(f"unknown Tonk preset {preset!r} (known: tonk, tor, pagat)")
    return PRESETS[preset].with_options(**options)
