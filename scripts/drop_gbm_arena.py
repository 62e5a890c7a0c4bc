"""Experiment: the medium Tonk bot with another drop model (``scripts/drop_gbm.py --export``),
played in the arena. Off the package's path: the model replaces ``reader.model_for`` in this
process only, so run the arena inline (``--jobs 1``). The seat keeps the name ``medium``, so an
arena file of the shipped model and one of this model pair by deal.

    python scripts/drop_gbm_arena.py MODEL.json gbm|logistic -- arena args...
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from taverntable.bots.tonk import reader
from taverntable.bots.tonk.drop_model import DropModel, model_for, opponent_features
from taverntable.cli import main
from taverntable.games.tonk import TonkView

sys.path.insert(0, str(Path(__file__).parent))
from drop_rows_extra import extra_features


def tree_value(node: dict[str, Any], x: list[float]) -> float:
    """One LightGBM tree (``dump_model``'s ``tree_structure``) at feature row ``x``; the rows
    have no missing values, so only the ``<=`` numerical split occurs."""
    while "leaf_value" not in node:
        assert node["decision_type"] == "<="
        node = (
            node["left_child"]
            if x[node["split_feature"]] <= node["threshold"]
            else node["right_child"]
        )
    return float(node["leaf_value"])


class TreeModel:
    """The GBM's P(caught) for each other player; ``drop_gain`` as ``DropModel``'s."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.width = int(data["width"])
        self.trees = [t["tree_structure"] for t in data["trees"]]

    def features(self, view: TonkView, seat: int) -> list[float]:
        row = opponent_features(view, seat)
        if self.width > len(row):
            row += extra_features(view, seat)
        return row[: self.width]

    def probability(self, x: list[float]) -> float:
        z = math.fsum(tree_value(t, x) for t in self.trees)
        return 1.0 / (1.0 + math.exp(-z))

    def drop_gain(self, view: TonkView) -> float:
        probs = [
            self.probability(self.features(view, s))
            for s in range(view.num_players)
            if s != view.seat
        ]
        return (view.num_players - 1) * math.prod(1.0 - p for p in probs) - 2.0 * sum(probs)


def load(path: Path, kind: str) -> TreeModel | DropModel:
    data = json.loads(path.read_text(encoding="utf-8"))
    return TreeModel(data) if kind == "gbm" else DropModel.from_json("tonk", data["logistic"])


if __name__ == "__main__":
    model = load(Path(sys.argv[1]), sys.argv[2])
    shipped = model_for

    def patched(preset: str) -> TreeModel | DropModel | None:
        return model if preset == "tonk" else shipped(preset)

    setattr(reader, "model_for", patched)  # noqa: B010 (a patch, in this process only)
    rest = sys.argv[3:]
    sys.exit(main(rest[1:] if rest[:1] == ["--"] else rest))
