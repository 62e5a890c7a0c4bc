"""Ratings: a skill per game for every signed-in person, and bots on the same ladder.

``model.py`` rates a finished match from its final standings with ``openskill``'s
Plackett–Luce model (any number of seats, teams too); ``standings.py`` turns a match's totals
into places; ``bots.py`` holds each bot level's fixed rating per game, calibrated by the
bot-only study in ``calibrate.py`` (``docs/ratings.md``). Nothing below this package imports it;
the server stores the ratings it computes.
"""

from .bots import BotRatings, beside_bots, bot_rating, shipped_bot_ratings
from .model import (
    PROVISIONAL_MATCHES,
    Entrant,
    Skill,
    display,
    is_provisional,
    new_player,
    rate_match,
)
from .standings import places

__all__ = [
    "PROVISIONAL_MATCHES",
    "BotRatings",
    "Entrant",
    "Skill",
    "beside_bots",
    "bot_rating",
    "display",
    "is_provisional",
    "new_player",
    "places",
    "rate_match",
    "shipped_bot_ratings",
]
