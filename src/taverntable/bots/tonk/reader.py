"""The medium Tonk level: the heuristic bot's play with a drop decision that reads the table.

Everything but the drop is the heuristic bot's (``heuristic.py``). The drop (T6) is made when
its expected gain is positive, the chance that each other player catches it coming from the drop
model (``drop_model.py``), fitted on what heuristic players showed before a drop: their
discards, cards taken from the pile, spreads and hits, draws and turns without dropping. The
heuristic bot instead deals the unseen cards at random, keeping low ones; it overstates how
often a drop is caught, so it drops too rarely (issue 16). tonk, tor and pagat each have a
fitted model; a preset without one keeps the heuristic's estimate.
"""

from __future__ import annotations

import random

from taverntable.games.tonk import TonkView

from .drop_model import model_for
from .heuristic import TonkHeuristicBot


class TonkReaderBot(TonkHeuristicBot):
    """The heuristic bot with the drop model's drop decision (module docstring)."""

    name = "reader"

    def drop_gain(self, view: TonkView, rng: random.Random) -> float:
        model = model_for(view.rules.preset)
        values = view.rules.card_values
        if model is None:
            return super().drop_gain(view, rng)
        # The heuristic's bound, and the range the model was fitted on: never drop above it.
        if view.total() > 4 * sum(values[1:]) / 13:
            return float("-inf")
        return model.drop_gain(view)
