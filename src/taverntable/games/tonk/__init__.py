"""The Tonk family: ``tonk``, ``tor`` and ``pagat`` (rules in ``texts/en/tonk.md``)."""

from taverntable.engine import DealError

from .moves import Discard, Draw, Drop, End, Hit, Spread, TonkMove, parse_move
from .rules import PAGAT, PRESETS, TONK, TOR, TonkRules, rules_from
from .scoring import Result
from .state import TonkState
from .view import TonkView, view_of
from .worlds import sample_world

__all__ = [
    "PAGAT",
    "PRESETS",
    "TONK",
    "TOR",
    "DealError",
    "Discard",
    "Draw",
    "Drop",
    "End",
    "Hit",
    "Result",
    "Spread",
    "TonkMove",
    "TonkRules",
    "TonkState",
    "TonkView",
    "parse_move",
    "rules_from",
    "sample_world",
    "view_of",
]
