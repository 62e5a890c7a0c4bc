"""Three Towers (rules in ``texts/en/three-towers.md``, the engine's own readings in
``texts/en/three-towers-readings.md``, notation in ``docs/three-towers-notation.md``).
"""

from .cards import JOKER, card_text, cards_text, full_deck, parse_card
from .moves import ChanceMove, TowersMove, parse_move
from .phases import CHANCE, DealError
from .random_play import random_game
from .results import GameResult, RoundResult
from .rules import PRESETS, THREE_TOWERS, RulesError, TowersRules, rules_from
from .state import TowersState
from .view import TowersView, view_of
from .worlds import sample_world

__all__ = [
    "CHANCE",
    "JOKER",
    "PRESETS",
    "THREE_TOWERS",
    "ChanceMove",
    "DealError",
    "GameResult",
    "RoundResult",
    "RulesError",
    "TowersMove",
    "TowersRules",
    "TowersState",
    "TowersView",
    "card_text",
    "cards_text",
    "full_deck",
    "parse_card",
    "parse_move",
    "random_game",
    "rules_from",
    "sample_world",
    "view_of",
]
