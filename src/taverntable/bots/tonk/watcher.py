"""The hard Tonk level's drop decision: the drop model and the opponents' observed play together.

The medium level (``reader``) takes each other player's chance of catching a drop from the drop
model alone, which sees the table through a few averaged features. Here the chance is also
estimated from guesses at that player's hidden cards weighted by how likely each makes the
turn they were seen to play (``opponents.py``: their discard, spreads, draw and declined drop,
under a softened model of a reasonable player), and the two estimates are averaged. The rest of
the play is the heuristic's, as in ``reader``.
"""

from __future__ import annotations

import math
import random

from taverntable.games.tonk import TonkView

from .drop_model import model_for
from .drop_value import drop_advantage
from .opponents import SOFTNESS, Guesses, OpponentModel, catch_probabilities, weigh_guesses
from .reader import TonkReaderBot

# Guesses per other player: the catch probability's sampling error is then about 0.03.
GUESSES = 300
# Each guess keeps the lowest of its hidden cards and this many more (for players who drew):
# players keep low cards; with 1 the estimate is calibrated on heuristic play, with 2 it
# overstates catches.
EXTRA_SEEN = 1
# The weight of the observed-play estimate against the drop model's.
OBSERVED_WEIGHT = 0.5


class TonkWatcherBot(TonkReaderBot):
    """``reader`` whose drop also reads what each opponent's last turn showed (docstring)."""

    name = "watcher"

    def __init__(
        self,
        softness: float = SOFTNESS,
        observed: float = OBSERVED_WEIGHT,
        guesses: int = GUESSES,
        play_on: bool = True,
    ) -> None:
        super().__init__()
        if not 0 < softness <= 1:
            raise ValueError(f"softness must be in (0, 1], not {softness}")
        if not 0 <= observed <= 1:
            raise ValueError(f"observed must be in [0, 1], not {observed}")
        if guesses < 1:
            raise ValueError(f"guesses must be at least 1, not {guesses}")
        self.softness = softness
        self.observed = observed
        self.guesses = guesses
        # Weigh the drop against the measured value of playing on (``drop_value.py``); False:
        # against nothing, the rule before it (kept to measure one against the other).
        self.play_on = play_on
        self._last: tuple[TonkView, float] | None = None

    def guesses_for(self, view: TonkView, rng: random.Random) -> list[Guesses]:
        """Weighted guesses at each other player's hidden cards."""
        model = OpponentModel(view, self.softness)
        return weigh_guesses(model, rng, self.guesses, EXTRA_SEEN)

    def catch_probabilities(
        self, view: TonkView, rng: random.Random, guesses: list[Guesses] | None = None
    ) -> list[float]:
        """P(each other player catches a drop now), in seat order."""
        model = model_for(view.rules.preset)
        if guesses is None:
            guesses = self.guesses_for(view, random.Random(rng.getrandbits(64)))
        seen = catch_probabilities(guesses, view.total(), view.rules.card_values)
        if model is None:
            return seen
        fitted = model.catch_probabilities(view)
        w = self.observed
        return [w * a + (1 - w) * b for a, b in zip(seen, fitted, strict=True)]

    def drop_gain(self, view: TonkView, rng: random.Random) -> float:
        """What a drop now (T6) gains over playing on, in stakes: the drop's expected gain less
        the measured value of playing on (``drop_value.py``), or the expected gain alone where
        no model was measured (or with ``play_on`` off). The same view gets the same answer (its
        guesses are seeded from nothing else), so the search may ask before its anchor."""
        if self._last is not None and self._last[0] is view:
            return self._last[1]
        values = view.rules.card_values
        # The heuristic's bound, and the range the model was fitted on: never drop above it.
        if view.total() > 4 * sum(values[1:]) / 13:
            gain = float("-inf")
        else:
            probs = self.catch_probabilities(view, random.Random(0))
            advantage = drop_advantage(view, probs) if self.play_on else None
            if advantage is None:
                clean = math.prod(1.0 - p for p in probs)
                advantage = (view.num_players - 1) * clean - 2.0 * sum(probs)
            gain = advantage
        self._last = (view, gain)
        return gain
