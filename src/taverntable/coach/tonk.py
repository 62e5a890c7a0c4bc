"""The coach's side of Tonk, Tőr and pagat: stakes, every legal move, drops named by T6.

Values are the hard bot's (``bots/tonk/search.py``): worlds drawn from the opponent model of
observed play (``opponents``), every seat then played out by the greedy playout policy (in the
kernel when numba compiled it). A move that ends the deal (a drop, going out) is scored exactly
in each world; the others by their playout.
"""

from __future__ import annotations

from typing import Any

from taverntable.bots.search_game import SearchGame
from taverntable.games.tonk import Discard, Draw, Drop, End, Hit, Spread, TonkState, TonkView

from .family import Note, Valued

# A loss of at most a tenth of a stake is never a mistake: the playouts' own bias about playing
# on (``search.ENDING_BIAS``, 0.15 stakes per other player) is of that order.
THRESHOLD = 0.1
# Against a drop (scored exactly), the coach's playouts overrate playing on by this many stakes
# per other player: at drop decisions of heuristic self-play within a stake of the boundary,
# (predicted playing on - predicted drop) - (real - real) was +0.53 [+0.40, +0.66] stakes, tonk
# 3 players, 1,000 decisions (``scripts/coach_calibrate.py --seed 250000``, docs/coach.md). The
# hard bot's own ``ENDING_BIAS`` (0.15 per other player) is a decision rule's optimum, not this.
PLAYING_ON_BIAS = 0.27


def _rule(move: Any) -> str:
    """The rule a move is played under."""
    if isinstance(move, Drop):
        return "T6"
    if isinstance(move, Draw):
        return "T7"
    if isinstance(move, Spread | Hit):
        return "T8"
    if isinstance(move, Discard | End):
        return "T9"
    return "T5"


class TonkFamily:
    """``policy``: the playouts' (``TonkSearch``'s: "greedy", or "heuristic-bot", every seat the
    heuristic bot); ``bias``: ``PLAYING_ON_BIAS`` for them, stakes per other player."""

    unit = "stakes"
    threshold = THRESHOLD

    def __init__(self, policy: str = "greedy", bias: float = PLAYING_ON_BIAS) -> None:
        self.policy = policy
        self.bias = bias

    def adapter(self, fast: bool) -> SearchGame:
        from taverntable.bots.tonk.search import TonkSearch

        return TonkSearch(fast=fast, policy=self.policy)

    def scale(self, view: TonkView) -> float:
        # The adapter's rewards are net stakes over 2 (n - 1), the most a seat can win.
        return 2.0 * (view.num_players - 1)

    def options(self, view: TonkView, chosen: Any) -> list[Any]:
        # Every legal move: a Tonk decision has a handful (three at the start of a turn, the
        # discards, spreads and hits after the draw).
        return list(view.legal_moves)

    def playing_on_bias(self, view: TonkView) -> float:
        return self.bias * (view.num_players - 1)

    def world_fact(self, view: TonkView, world: TonkState, move: Any) -> tuple[float, ...] | None:
        if not isinstance(move, Drop):
            return None
        mine = view.total()
        # T6: a drop is caught when another hand's total is at most the dropper's.
        by = [
            1.0 if s != view.seat and world.total(s) <= mine else 0.0
            for s in range(view.num_players)
        ]
        return (1.0 if any(by) else 0.0, *by)

    def note(self, valued: Valued) -> Note:
        view, chosen, best = valued.view, valued.chosen, valued.best
        params: dict[str, str | int | float] = {
            "chosen": str(chosen),
            "best": str(best),
            "chosen_value": valued.value_of(chosen),
            "best_value": valued.value_of(best),
            "loss": valued.loss.mean,
        }
        drops = [m for m in valued.moves if isinstance(m, Drop)]
        if drops:
            drop = drops[0]
            fact = valued.facts[list(valued.moves).index(drop)] or (0.0,)
            caught = fact[0]
            params["total"] = view.total()
            params["pct"] = round(100 * caught)
            # Who would catch it most often (the seed's "Goblin holds little").
            by = list(fact[1:]) or [0.0]
            catcher = max(range(len(by)), key=lambda s: (by[s], -s))
            names = valued.players
            params["catcher"] = names[catcher] if catcher < len(names) else f"seat {catcher}"
            params["catcher_pct"] = round(100 * by[catcher])
            params["drop_value"] = valued.value_of(drop)
            if isinstance(chosen, Drop) and chosen != best:
                return Note("tonk.drop_caught", "T6", params)
            if isinstance(best, Drop) and chosen != best:
                params["pct"] = round(100 * (1 - caught))
                key = "tonk.drop_missed" if valued.flagged else "tonk.drop_close"
                return Note(key, "T6", params)
            if isinstance(chosen, Drop):
                return Note("tonk.drop_right", "T6", params)
            return Note("tonk.drop_declined", "T6", params)
        return generic_note(valued, params, _rule(best if valued.flagged else chosen))


def generic_note(valued: Valued, params: dict[str, str | int | float], rule: str) -> Note:
    """The note of a decision without a family-specific sentence: the best move, a difference
    within the noise, or a mistake with the best move's value."""
    if valued.chosen == valued.best:
        return Note("best", rule, params)
    if valued.flagged:
        return Note("worse", rule, params)
    return Note("close", rule, params)


TONK = TonkFamily()
