"""The coach's side of Three Towers: points, the heuristic's best few moves and the chosen one.

Values are the hard bot's (``bots/three_towers/search.py``): worlds repaired to what the
opponents' actions showed (``inference``), each move played out by the heuristic to the round's
count, with the chance steps of a world shared by every move (the kernel's paired playouts when
numba compiled them), scored as the point margin plus the later worth of finished towers.
"""

from __future__ import annotations

import math
from typing import Any

from taverntable.bots.search_game import SearchGame
from taverntable.games.three_towers import TowersView
from taverntable.games.three_towers import moves as tm
from taverntable.games.three_towers.phases import ANSWER, CLUB, DARK, DEFEND, KINGS, NAME, QUEENS

from .family import Note, Valued
from .tonk import generic_note

# A round's points vary by about a hundred with the deck, a better move gains a few: a loss of
# at most this many points is never a mistake.
THRESHOLD = 5.0
# At most this many moves are compared at a decision (with more legal ones, the heuristic's best
# by its own values, and the chosen move): the noise of picking the best grows with their number.
MAX_OPTIONS = 6

_TURN_RULES: dict[type, str] = {
    tm.Trade: "R4",
    tm.TradeJoker: "R4",
    tm.Build: "R8",
    tm.Add: "R8",
    tm.Raid: "R9",
    tm.Curse: "R9",
    tm.RedealJoker: "R10",
    tm.RedealWarriors: "R10",
    tm.RedealJacks: "R10",
    tm.RedealQueens: "R10",
    tm.RedealKings: "R10",
    tm.Pass: "R11",
}
_PHASE_RULES = {ANSWER: "R5", DEFEND: "R9", NAME: "R9", QUEENS: "R10", KINGS: "R10"}


def rule_of(view: TowersView, move: Any) -> str:
    """The rule a move of this decision is played under."""
    if view.phase in (CLUB, DARK):
        return "R13"
    if view.phase in _PHASE_RULES:
        if view.phase == ANSWER and isinstance(move, tm.Fail):
            return "R6"
        return _PHASE_RULES[view.phase]
    return _TURN_RULES.get(type(move), "R4")


class TowersFamily:
    unit = "points"
    threshold = THRESHOLD

    def adapter(self, fast: bool) -> SearchGame:
        from taverntable.bots.three_towers.search import TowersSearch

        # Not selective, every close move: ``options`` picks the moves compared.
        return TowersSearch(fast=fast, close=math.inf, root_moves=MAX_OPTIONS)

    def scale(self, view: TowersView) -> float:
        from taverntable.bots.three_towers.search_values import SCORE_SCALE

        return SCORE_SCALE

    def options(self, view: TowersView, chosen: Any) -> list[Any]:
        legal = list(view.legal_moves)
        if len(legal) <= MAX_OPTIONS:
            return legal
        from taverntable.bots.three_towers.heuristic import decide
        from taverntable.bots.three_towers.policy import reply_values, turn_values
        from taverntable.games.three_towers.phases import TURN

        if view.phase == TURN:
            values = turn_values(view)
        elif view.phase in (ANSWER, DEFEND):
            values = reply_values(view)
        else:
            values = {}
        first = decide(view)
        ranked = sorted((m for m in legal if m != first), key=lambda m: -values.get(m, -math.inf))
        picked = [first, *ranked][: MAX_OPTIONS - 1]
        if chosen not in picked:
            picked.append(chosen)
        else:
            picked = [first, *ranked][:MAX_OPTIONS]
        # In the legal order, as a Tonk decision's.
        keep = set(picked)
        return [m for m in legal if m in keep]

    def playing_on_bias(self, view: TowersView) -> float:
        # The search's playouts all end at the round's count: no move is scored otherwise.
        return 0.0

    def world_fact(self, view: TowersView, world: Any, move: Any) -> tuple[float, ...] | None:
        return None

    def note(self, valued: Valued) -> Note:
        chosen, best = valued.chosen, valued.best
        params: dict[str, str | int | float] = {
            "chosen": str(chosen),
            "best": str(best),
            "chosen_value": valued.value_of(chosen),
            "best_value": valued.value_of(best),
            "loss": valued.loss.mean,
        }
        move = best if valued.flagged else chosen
        return generic_note(valued, params, rule_of(valued.view, move))


TOWERS = TowersFamily()
