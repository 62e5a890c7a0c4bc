"""``learned``: a policy trained through the environments, playing from its view in the arena.

The weights are a NumPy ``.npz`` file (``examples/train_tonk.py`` writes one), so playing needs
no deep-learning library: the network is small enough for NumPy. Its shape:

- ``game``: the registered game it was trained on (its observation layout and action ids);
- ``w0, b0, w1, b1, …``: hidden layers, each ``relu(x @ w + b)``, from the observation
  (``observation.py``) to a feature vector ``h``;
- ``embed`` (actions × features) and ``bias`` (actions): an action's score is
  ``h @ embed[a] + bias[a]``, computed only for the legal actions (Tonk has 40,233 ids).

It plays the legal action with the highest score (``greedy``), or samples the scores' softmax
with the arena's rng.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from taverntable.games import get_game

from .layout import Vector
from .observation import encoder_for


class LearnedBot:
    """A policy network's move from the view (see the module)."""

    name = "learned"

    def __init__(self, weights: str | None = None, greedy: bool = True) -> None:
        if weights is None:
            raise ValueError(
                "learned needs its weights: learned:weights=FILE.npz "
                "(examples/train_tonk.py writes one)"
            )
        try:
            with np.load(weights) as data:
                arrays = {key: data[key] for key in data.files}
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read weights {weights!r}: {e}") from None
        missing = {"game", "embed", "bias", "w0", "b0"} - set(arrays)
        if missing:
            raise ValueError(f"weights {weights!r} lack {', '.join(sorted(missing))}")
        self.game = str(arrays["game"])
        self.layers: list[tuple[Vector, Vector]] = []
        while f"w{len(self.layers)}" in arrays:
            k = len(self.layers)
            self.layers.append(
                (arrays[f"w{k}"].astype(np.float32), arrays[f"b{k}"].astype(np.float32))
            )
        self.embed = arrays["embed"].astype(np.float32)
        self.bias = arrays["bias"].astype(np.float32)
        self.greedy = greedy

    def scores(self, view: Any) -> list[float]:
        """The network's score of each legal move of ``view``, in the view's order."""
        if get_game(view.game).family != get_game(self.game).family:
            raise ValueError(f"these weights play {self.game}, not {view.game}")
        h = encoder_for(view.game).encode(view)
        for w, b in self.layers:
            h = np.maximum(h @ w + b, 0.0)
        encode = get_game(view.game).actions.encode
        ids = np.array([encode(m) for m in view.legal_moves])
        return [float(x) for x in self.embed[ids] @ h + self.bias[ids]]

    def choose(self, view: Any, rng: random.Random) -> Any:
        moves = view.legal_moves
        if not moves:
            raise ValueError(f"seat {view.seat} has no legal move (not its turn?)")
        scores = self.scores(view)
        if self.greedy:
            return moves[max(range(len(moves)), key=scores.__getitem__)]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        return rng.choices(moves, weights)[0]
