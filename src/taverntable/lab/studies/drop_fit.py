"""``tavern lab fit-drop-model``: fit the drop model (``bots/tonk/drop_model.py``) with NumPy.

One logistic regression per preset on the ``drop-model`` study's rows, one example per other
player at each decision: the features of that player from the deciding seat's view, and whether
they would have caught the drop (T6). Features are standardized; the fit is Newton's method
(iteratively reweighted least squares) with a small ridge penalty, so it is deterministic: the
study's seed fixes the data, ``seed`` fixes which games are held out to measure calibration.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.bots.tonk.drop_model import FEATURES, FORMAT, VERSION, DropModel, read_models
from taverntable.lab.core.config import LabError, StudyConfig
from taverntable.lab.core.store import Row

RIDGE = 1e-3  # on standardized weights, per example: only keeps the Newton steps well posed
NEWTON_STEPS = 25
HOLDOUT = 0.2  # the share of games kept out of the fit, to measure it
BINS = 10  # reliability bins of equal width in predicted probability


@dataclass(frozen=True, slots=True)
class Examples:
    """One preset's examples: feature rows, catches, and the decision each belongs to."""

    features: list[list[float]]
    caught: list[int]
    decision: list[int]  # an id shared by the rows of one decision
    net: dict[int, int]  # the drop's real net (stakes) by decision id


def examples(rows: Sequence[tuple[int, Row]], keep: set[int] | None = None) -> dict[str, Examples]:
    """The examples of every preset in the study's rows (only games in ``keep`` if given)."""
    out: dict[str, Examples] = {}
    decision = 0
    for index, row in rows:
        if keep is not None and index not in keep:
            continue
        ex = out.setdefault(row["preset"], Examples([], [], [], {}))
        for _seat, _turn, _total, net, others in row["decisions"]:
            for *features, caught in others:
                ex.features.append([float(x) for x in features])
                ex.caught.append(int(caught))
                ex.decision.append(decision)
            ex.net[decision] = int(net)
            decision += 1
    return out


def split(rows: Sequence[tuple[int, Row]], seed: int) -> tuple[set[int], set[int]]:
    """(fit games, held-out games) by game index, drawn from ``seed``."""
    rng = random.Random(seed)
    fit: set[int] = set()
    held: set[int] = set()
    for index, _ in rows:
        (held if rng.random() < HOLDOUT else fit).add(index)
    return fit, held


def fit_logistic(features: list[list[float]], caught: list[int], preset: str) -> DropModel:
    """A ridge-penalized logistic regression, fitted by Newton's method."""
    import numpy as np

    x = np.asarray(features, dtype=float)
    y = np.asarray(caught, dtype=float)
    if x.shape[0] < 2 * len(FEATURES) or y.min() == y.max():
        raise LabError(
            f"{preset}: too few drop decisions to fit ({x.shape[0]} examples); run "
            "the drop-model study with more games"
        )
    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales == 0] = 1.0  # a constant feature (e.g. one table size) gets no weight
    z = np.hstack([np.ones((x.shape[0], 1)), (x - means) / scales])
    w = np.zeros(z.shape[1])
    penalty = RIDGE * x.shape[0] * np.eye(z.shape[1])
    penalty[0, 0] = 0.0  # the bias is not shrunk
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + penalty @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return DropModel(
        preset,
        tuple(float(v) for v in means),
        tuple(float(v) for v in scales),
        tuple(float(v) for v in w[1:]),
        float(w[0]),
    )


def log_loss(probs: Sequence[float], caught: Sequence[int]) -> float:
    eps = 1e-12
    return -math.fsum(
        math.log(p + eps) if c else math.log(1 - p + eps)
        for p, c in zip(probs, caught, strict=True)
    ) / len(probs)


def brier(probs: Sequence[float], caught: Sequence[int]) -> float:
    return math.fsum((p - c) ** 2 for p, c in zip(probs, caught, strict=True)) / len(probs)


def fit_models(
    config: StudyConfig,
    rows: Sequence[tuple[int, Row]],
    seed: int,
    keep: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The drop-model file's JSON: a model per preset in the rows, fitted on the games not held
    out, with the held-out games' measures of it and what it was fitted on.

    ``keep``, a drop-model file's JSON, gives the models of presets the rows do not play: they
    are copied unchanged, so a study of one preset (pagat) adds its model without refitting the
    others (a refit on the same rows agrees only to the last bits of a float: BLAS rounding)."""
    if config.study != "drop-model":
        raise LabError(f"the drop model is fitted on the drop-model study, not {config.study}")
    models: dict[str, Any] = {}
    measures: dict[str, Any] = {}
    if keep is not None:
        try:
            read_models(keep)
        except ValueError as e:
            raise LabError(f"cannot keep the models of that file: {e}") from None
        models.update(keep["models"])
        measures.update(keep.get("trained", {}).get("measures", {}))
    fit_games, held_games = split(rows, seed)
    fitted = examples(rows, fit_games)
    held = examples(rows, held_games)
    for preset, ex in sorted(fitted.items()):
        model = fit_logistic(ex.features, ex.caught, preset)
        models[preset] = model.to_json()
        measures[preset] = {
            "study": config.describe(),
            "study_seed": config.seed,
            "games": len(rows),
            "split_seed": seed,
        }
        test = held.get(preset)
        if test is None or not test.caught:
            continue
        probs = [model.probability(f) for f in test.features]
        base = sum(ex.caught) / len(ex.caught)
        measures[preset] |= {
            "examples": len(ex.caught),
            "held_out_examples": len(test.caught),
            "decisions": len(ex.net),
            "held_out_decisions": len(test.net),
            "held_out_caught_rate": round(sum(test.caught) / len(test.caught), 4),
            "held_out_mean_predicted": round(sum(probs) / len(probs), 4),
            "held_out_log_loss": round(log_loss(probs, test.caught), 4),
            "held_out_log_loss_base_rate": round(log_loss([base] * len(probs), test.caught), 4),
            "held_out_brier": round(brier(probs, test.caught), 4),
        }
    return {
        "format": FORMAT,
        "version": VERSION,
        "features": list(FEATURES),
        "models": dict(sorted(models.items())),
        # Per preset: the study, its seed and size, the split seed, and the held-out measures.
        "trained": {
            "held_out_share": HOLDOUT,
            "ridge": RIDGE,
            "measures": dict(sorted(measures.items())),
        },
    }


def reliability(
    probs: Sequence[float], observed: Sequence[int], bins: int = BINS
) -> list[tuple[int, float, float, int, int]]:
    """Per bin of predicted probability with examples: (bin, its lower edge, mean predicted,
    examples, observed successes)."""
    count = [0] * bins
    hits = [0] * bins
    total = [0.0] * bins
    for p, o in zip(probs, observed, strict=True):
        b = min(int(p * bins), bins - 1)
        count[b] += 1
        hits[b] += o
        total[b] += p
    return [(b, b / bins, total[b] / count[b], count[b], hits[b]) for b in range(bins) if count[b]]
