"""The bots' places on the ladder: each level's fixed skill per game.

``bot_ratings.json`` (shipped beside this module) is written by the calibration study
(``calibrate.py``; the command and the figures are in ``docs/ratings.md``): bot-only matches of
the rated format, the levels' skills fitted to their standings with medium anchored at the
ladder's middle. A bot's skill never moves in a person's match (``model.rate_match``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, Literal

from .model import DISPLAY_PER_MU, MU, Skill

# How sure the ladder is of a landmark: the sigma a bot brings to a person's match. Small, so
# that a bot behaves as the fixed point it is, but not zero (openskill divides by the table's
# total variance, which a person's sigma dominates anyway).
LANDMARK_SIGMA = 1.0


@dataclass(frozen=True)
class BotRatings:
    """The shipped calibration: game -> level -> skill, and how it was measured."""

    games: dict[str, dict[str, Skill]]
    study: dict[str, Any]

    def skill(self, game: str, level: str) -> Skill:
        """The level's landmark in ``game``; the medium level's (the ladder's middle) for a
        level or a game the calibration did not measure."""
        return self.games.get(game, {}).get(level, Skill(MU, LANDMARK_SIGMA))


def load_bot_ratings(data: dict[str, Any]) -> BotRatings:
    games = {
        game: {level: Skill(float(s["mu"]), LANDMARK_SIGMA) for level, s in levels.items()}
        for game, levels in data["games"].items()
    }
    return BotRatings(games, dict(data.get("study", {})))


@cache
def shipped_bot_ratings() -> BotRatings:
    text = files("taverntable.ratings").joinpath("bot_ratings.json").read_text("utf-8")
    return load_bot_ratings(json.loads(text))


def bot_rating(game: str, level: str) -> Skill:
    """The fixed skill of the bot ``level`` (easy, medium, hard) in ``game``."""
    return shipped_bot_ratings().skill(game, level)


# Within this many rating points of a level's place a person plays "about as well" as that bot
# (one mu: about the width of the calibration's intervals for the close levels).
ABOUT = DISPLAY_PER_MU
Relation = Literal["about", "above", "below"]


def beside_bots(rating: int, places: dict[str, int], about: int = ABOUT) -> tuple[Relation, str]:
    """Where ``rating`` stands beside the bot levels' displayed ratings ``places``: ("about",
    LEVEL) within ``about`` points of the nearest level; else ("above", LEVEL) over the best
    level below it, or ("below", LEVEL) under the lowest of all — so that a person reads "about
    as well as the medium bot", "better than the easy bot"."""
    if not places:
        raise ValueError("no bot level to compare with")
    nearest = min(places, key=lambda lv: (abs(places[lv] - rating), -places[lv]))
    if abs(places[nearest] - rating) <= about:
        return ("about", nearest)
    under = [lv for lv in places if places[lv] < rating]
    if not under:
        return ("below", min(places, key=lambda lv: places[lv]))
    return ("above", max(under, key=lambda lv: places[lv]))
