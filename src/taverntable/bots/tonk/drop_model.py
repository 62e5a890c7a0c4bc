"""Would an opponent catch my drop? A logistic model read from the public table (issue 16).

A drop (T6) with total ``d`` is caught by every other player whose hand total is ``d`` or less.
For each other player the model gives the probability of that from features of the deciding
seat's *view* only: what that player showed (cards taken from the pile and still held, discards,
spreads and hits, stock draws, turns where they could drop and did not) and what the seat knows
(its own total, the cards it has not seen, the stock). Fitted by ``tavern lab fit-drop-model``
on the decisions the ``drop-model`` study collects from heuristic self-play; the fit ships in
``drop_model.json`` beside this module, one model per preset.

The opponents are taken as independent, so with catch probabilities ``p_j`` a drop is worth
``(n - 1) * prod(1 - p_j) - 2 * sum(p_j)`` stakes: a clean drop wins 1 from each other player,
a burned one pays 2 to each catcher.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from taverntable.cards import indices
from taverntable.games.tonk import Discard, Draw, Hit, Spread, TonkView

MODEL_FILE = "drop_model.json"
FORMAT = "taverntable-drop-model"
VERSION = 2  # 2: the features from min_discard on (26 instead of 16)

# Per other player, in this order; every one is computed by ``opponent_features`` from the view.
FEATURES = (
    "own_total",  # d, the drop's total
    "expected_total",  # the player's known cards + unknown cards at the mean unseen value
    "margin",  # own_total - expected_total
    "margin_per_card",  # margin / unknown cards (at least 1)
    "unknown_cards",  # cards in their hand that the seat cannot name
    "known_points",  # points of the cards they took from the pile and still hold (public)
    "turns",  # turns they started where they could drop: each one a drop declined (T6)
    "stock_draws",
    "pile_draws",
    "last_discard",  # the value of their last discard (0: none yet)
    "mean_discard",  # the mean value of their discards (0: none yet)
    "melded_cards",  # cards they spread or hit with (T8)
    "not_acted",  # 1 when they have not acted yet: their hand is as dealt and no win (T4)
    "stock_size",
    "unseen_cards",  # cards the seat cannot locate (other hands and the stock)
    "players",
    "min_discard",  # the lowest value of their discards (0: none yet)
    "max_discard",  # the highest (0: none yet)
    "prev_discard",  # the value of their discard before the last (0: fewer than two)
    "high_discards",  # their discards worth 10 points or more
    "kept_margin",  # own_total - kept_total (``kept_points``)
    # Products the linear model cannot form itself: the catch chance bends with the margin, and
    # a margin means more when they have had more turns or hold more cards the seat cannot name.
    "margin_sq",
    "margin_turns",  # margin * turns
    "margin_unknown",  # margin * unknown_cards
    "own_total_sq",
    "kept_margin_sq",
)


def kept_points(unseen: list[int], unknown: int, draws: int) -> int:
    """The points of ``unknown`` cards kept as the lowest of ``unknown + draws`` unseen cards:
    the heuristic bot's model of an opponent (``heuristic.other_totals``: each draw shows them
    one more card and they keep the low ones), here without sampling. ``unseen`` is the unseen
    cards' values in ascending order; the j-th lowest of n cards drawn from N is read at sorted
    position ``j * (N + 1) // (n + 1) - 1`` (the order statistic's mean rank), in whole numbers
    so that the kernel (``lab/studies/drop_decisions.py``) gives the same total."""
    size = len(unseen)
    if not size:
        return 0
    drawn = min(unknown + draws, size)
    return sum(
        unseen[min(size - 1, max(0, j * (size + 1) // (drawn + 1) - 1))]
        for j in range(1, unknown + 1)
    )


def opponent_features(view: TonkView, seat: int) -> list[float]:
    """The features of other player ``seat`` from ``view`` (``FEATURES``'s order).

    Reads only public fields and the seat's own hand, so two deals that differ only in cards the
    seat cannot see give the same features.
    """
    values = view.rules.card_values
    d = view.total()
    unseen = sorted(values[c % 13 + 1] for c in indices(view.unseen))
    mean_unseen = sum(unseen) / len(unseen) if unseen else 0.0
    known = view.known[seat]
    known_points = sum(values[c % 13 + 1] for c in indices(known))
    unknown = view.hand_sizes[seat] - known.bit_count()
    turns = stock = pile = melded = 0
    discards: list[int] = []
    # T6 hit_lock (pagat): a turn that starts after another player hit one of the player's
    # spreads allows no drop, so it is not a drop declined. Spreads are numbered as laid (T8).
    owners: list[int] = []
    locked = False
    for mover, move in view.history:
        if isinstance(move, Spread):
            owners.append(mover)
        elif (
            isinstance(move, Hit)
            and view.rules.hit_lock
            and mover != seat
            and owners[move.spread] == seat
        ):
            locked = True
        if mover != seat:
            continue
        if isinstance(move, Draw):
            turns += not locked
            locked = False  # the lock lasts until the end of this turn; only others set it
            if move.source == "stock":
                stock += 1
            else:
                pile += 1
        elif isinstance(move, Discard):
            discards.append(values[move.card.rank])
        elif isinstance(move, Spread | Hit):
            melded += move.cards.bit_count()
    acted = any(mover == seat for mover, _ in view.history)
    expected = known_points + unknown * mean_unseen
    margin = d - expected
    kept_margin = d - known_points - kept_points(unseen, unknown, stock + pile)
    return [
        float(d),
        expected,
        margin,
        margin / max(unknown, 1),
        float(unknown),
        float(known_points),
        float(turns),
        float(stock),
        float(pile),
        float(discards[-1]) if discards else 0.0,
        sum(discards) / len(discards) if discards else 0.0,
        float(melded),
        0.0 if acted else 1.0,
        float(view.stock_size),
        float(len(unseen)),
        float(view.num_players),
        float(min(discards, default=0)),
        float(max(discards, default=0)),
        float(discards[-2]) if len(discards) > 1 else 0.0,
        float(sum(1 for v in discards if v >= 10)),
        float(kept_margin),
        margin * margin,
        margin * turns,
        margin * unknown,
        float(d * d),
        float(kept_margin * kept_margin),
    ]


@dataclass(frozen=True, slots=True)
class DropModel:
    """A logistic model of P(this player's total <= d): standardized features, weights, bias."""

    preset: str
    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float

    def probability(self, features: list[float]) -> float:
        """P(caught by this player) for one feature row."""
        z = self.bias
        for x, m, s, w in zip(features, self.means, self.scales, self.weights, strict=True):
            z += w * (x - m) / s
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0

    def catch_probabilities(self, view: TonkView) -> list[float]:
        """P(caught) by each other player, in seat order."""
        return [
            self.probability(opponent_features(view, s))
            for s in range(view.num_players)
            if s != view.seat
        ]

    def drop_gain(self, view: TonkView) -> float:
        """The expected gain of dropping now, in stakes, with the players taken as independent."""
        probs = self.catch_probabilities(view)
        clean = math.prod(1.0 - p for p in probs)
        return (view.num_players - 1) * clean - 2.0 * sum(probs)

    def to_json(self) -> dict[str, Any]:
        return {
            "means": list(self.means),
            "scales": list(self.scales),
            "weights": list(self.weights),
            "bias": self.bias,
        }

    @staticmethod
    def from_json(preset: str, d: dict[str, Any]) -> DropModel:
        model = DropModel(
            preset,
            tuple(map(float, d["means"])),
            tuple(map(float, d["scales"])),
            tuple(map(float, d["weights"])),
            float(d["bias"]),
        )
        if not len(model.means) == len(model.scales) == len(model.weights) == len(FEATURES):
            raise ValueError(
                f"the {preset} drop model has {len(model.weights)} weights, not {len(FEATURES)}"
            )
        return model


def read_models(data: dict[str, Any]) -> dict[str, DropModel]:
    """The models of a drop-model file's JSON, by preset; ValueError for another format."""
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(f"not a {FORMAT} file of version {VERSION}")
    if list(data.get("features", ())) != list(FEATURES):
        raise ValueError("the file's features are not this version's")
    return {preset: DropModel.from_json(preset, m) for preset, m in data["models"].items()}


@cache
def shipped_models() -> dict[str, DropModel]:
    """The models shipped with the package (``drop_model.json``), read once."""
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return read_models(json.loads(text))


def model_for(preset: str) -> DropModel | None:
    """The shipped model of ``preset`` (None when none was fitted for it: a house preset)."""
    return shipped_models().get(preset)
