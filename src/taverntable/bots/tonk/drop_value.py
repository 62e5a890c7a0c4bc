"""The value of playing on instead of dropping (T6), for the hard level's drop (``watcher``).

A drop's expected gain, ``(n − 1) Π(1 − p) − 2 Σ p`` from each other player's catch chance
``p``, compares the drop with nothing: it takes the value of drawing and playing on to be zero.
It is not: a seat with a low total early in the deal may drop later at a lower total or go out,
while one late in the deal or with a high total stands to lose by playing on. Here a linear model
of (drop − play on), in stakes, from the seat's view only (the features below), fitted by least
squares on the watcher's own decisions against heuristic seats, where each decision was scored
twice on the true deal: the engine's result of dropping, and the result of playing on with the
same bots to the deal's end (``scripts/drop_value.py``, which also re-derives
``drop_value.json``; docs/bots.md has the commands, seeds and held-out figures). One model per
preset and player count measured; any other table keeps the expected gain alone.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from taverntable.games.tonk import TonkView

from .heuristic import turns_taken

VERSION = 1
MODEL_FILE = "drop_value.json"
MODEL_PATH = Path(__file__).with_name(MODEL_FILE)
# The features, in order; each is read from the seat's view and the catch chances.
FEATURES = (
    "gain",  # the drop's expected gain in stakes, (n − 1) Π(1 − p) − 2 Σ p
    "sum_p",  # Σ p: the expected number of players who catch it
    "max_p",  # the likeliest catcher's chance
    "total",  # the seat's hand total d (T6)
    "cards",  # cards in the seat's hand
    "stock",  # cards left in the stock (T11: the deal ends when it runs out)
    "turns",  # turns the seat has drawn on (each a drop declined)
    "fewest",  # the fewest cards another player holds (one near going out, T10)
    "pile",  # the value of the pile's top card (a low one may lower the hand)
)


def features(view: TonkView, probs: list[float]) -> list[float]:
    """The model's features of a drop decision in ``view`` with catch chances ``probs``."""
    clean = 1.0
    for p in probs:
        clean *= 1.0 - p
    n = view.num_players
    values = view.rules.card_values
    others = [view.hand_sizes[s] for s in range(n) if s != view.seat]
    pile = values[view.pile[-1] % 13 + 1] if view.pile else 0
    return [
        (n - 1) * clean - 2.0 * sum(probs),
        sum(probs),
        max(probs, default=0.0),
        float(view.total()),
        float(view.hand.bit_count()),
        float(view.stock_size),
        float(turns_taken(view)[view.seat]),
        float(min(others, default=0)),
        float(pile),
    ]


def read_models(data: dict[str, Any]) -> dict[str, tuple[float, ...]]:
    """Coefficients (constant first, then one per feature) by ``preset/players``."""
    if data.get("version") != VERSION or list(data.get("features", ())) != list(FEATURES):
        raise ValueError(f"not a drop-value file of version {VERSION} with these features")
    models = {}
    for cell, m in data["cells"].items():
        coef = tuple(float(c) for c in m["coef"])
        if len(coef) != len(FEATURES) + 1:
            raise ValueError(
                f"the {cell} model has {len(coef)} coefficients, not {len(FEATURES) + 1}"
            )
        models[cell] = coef
    return models


@cache
def shipped_models() -> dict[str, tuple[float, ...]]:
    """The models shipped with the package (``drop_value.json``), read once."""
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return read_models(json.loads(text))


def drop_advantage(view: TonkView, probs: list[float]) -> float | None:
    """Predicted (drop − play on) in stakes; None where no model was fitted for the table."""
    coef = shipped_models().get(f"{view.rules.preset}/{view.num_players}")
    if coef is None:
        return None
    return coef[0] + sum(c * x for c, x in zip(coef[1:], features(view, probs), strict=True))
