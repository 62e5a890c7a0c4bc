"""Experiment: is there headroom in the Tonk drop model? Logistic (the shipped fit) against a
gradient-boosted classifier (LightGBM) on the same rows and the same held-out games.

Not part of the package: needs ``pip install lightgbm`` in your own venv.

    python scripts/drop_gbm.py lab-out/dm-tonk3 [--extra N] [--split-seed 1] [--dump model.json]

The rows are a ``drop-model`` study folder (``tavern lab run drop-model``). The split is
``drop_fit.split`` (a fifth of the games held out, by game). The logistic model is
``drop_fit.fit_logistic`` on the first 26 features, exactly as ``fit-drop-model`` fits it. The
GBM first picks its number of trees by early stopping on a validation fifth of the fit games,
then is refitted on all fit games with that many trees. ``--extra N``: the rows carry N more
features after the 26 (``scripts/drop_rows_extra.py``); the GBM is fitted with and without them.
Intervals: the per-game mean of the loss difference over held-out games (games are independent;
rows of one game are not).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path

import lightgbm as lgb
import numpy as np

from taverntable.bots.tonk.drop_model import FEATURES
from taverntable.lab.core.store import StudyStore
from taverntable.lab.studies.drop_fit import fit_logistic, split

PARAMS = {
    "objective": "binary",
    "learning_rate": 0.1,
    "num_leaves": 15,
    "max_depth": 5,
    "min_data_in_leaf": 100,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "verbose": -1,
    "seed": 1,
    "num_threads": 1,
}
MAX_TREES = 400


def load(folder: Path, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """(features, caught, game index of each row, game indices) of one study folder."""
    _, _, rows = StudyStore.read(folder)
    x: list[list[float]] = []
    y: list[int] = []
    g: list[int] = []
    for index, row in rows:
        for _seat, _turn, _total, _net, others in row["decisions"]:
            for *features, caught in others:
                x.append([float(v) for v in features[:width]])
                y.append(int(caught))
                g.append(index)
    return np.asarray(x), np.asarray(y), np.asarray(g), [i for i, _ in rows]


def losses(p: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p)), (p - y) ** 2


def per_game_interval(diff: np.ndarray, games: np.ndarray) -> tuple[float, float, float]:
    """Mean row difference and its 95% interval, with the rows clustered by game."""
    n = len(diff)
    uniq, inv = np.unique(games, return_inverse=True)
    sums = np.bincount(inv, weights=diff)
    counts = np.bincount(inv)
    mean = sums.sum() / n
    # ratio estimator's variance over clusters
    resid = sums - mean * counts
    se = math.sqrt(len(uniq) / (len(uniq) - 1) * float((resid**2).sum())) / n
    return mean, mean - 1.96 * se, mean + 1.96 * se


def fit_gbm(
    x: np.ndarray, y: np.ndarray, g: np.ndarray, seed: int, max_trees: int = MAX_TREES
) -> lgb.Booster:
    rng = random.Random(seed + 1000)
    val_games = {int(i) for i in np.unique(g) if rng.random() < 0.2}
    val = np.isin(g, list(val_games))
    first = lgb.train(
        PARAMS,
        lgb.Dataset(x[~val], y[~val]),
        num_boost_round=max_trees,
        valid_sets=[lgb.Dataset(x[val], y[val])],
        callbacks=[lgb.early_stopping(50, verbose=False)],
    )
    trees = first.best_iteration or max_trees
    # refit on all the fit games, a few more trees for the larger set
    return lgb.train(PARAMS, lgb.Dataset(x, y), num_boost_round=int(trees * 1.1))


def export(
    path: Path, x: np.ndarray, y: np.ndarray, g: np.ndarray, width: int, seed: int, max_trees: int
) -> None:
    """The GBM and a logistic refit on all the rows, for the arena (``drop_gbm_arena.py``)."""
    base = len(FEATURES)
    model = fit_gbm(x[:, :width], y, g, seed, max_trees)
    logistic = fit_logistic(x[:, :base].tolist(), y.tolist(), "x")
    trees = model.dump_model()["tree_info"]
    path.write_text(
        json.dumps({"width": width, "trees": trees, "logistic": logistic.to_json()}) + "\n",
        encoding="utf-8",
    )
    print(f"{path}: {len(trees)} trees on {width} features, {len(y)} rows; logistic refit")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--extra", type=int, default=0)
    ap.add_argument("--split-seed", type=int, default=1)
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--learning-rate", type=float, default=PARAMS["learning_rate"])
    ap.add_argument("--max-trees", type=int, default=MAX_TREES)
    ap.add_argument(
        "--export",
        type=Path,
        help="fit on every game (none held out) and write the GBM of --export-width "
        "features and a logistic refit to this JSON, for scripts/drop_gbm_arena.py",
    )
    ap.add_argument("--export-width", type=int, default=len(FEATURES))
    args = ap.parse_args()
    PARAMS["learning_rate"] = args.learning_rate
    base = len(FEATURES)
    x, y, g, indices = load(args.folder, base + args.extra)
    if args.export:
        export(args.export, x, y, g, args.export_width, args.split_seed, args.max_trees)
        return
    _, held_games = split([(i, None) for i in indices], args.split_seed)  # type: ignore[misc]
    held = np.isin(g, list(held_games))
    print(
        f"{args.folder}: {len(indices)} games, {len(y)} rows; fit {int((~held).sum())}, "
        f"held out {int(held.sum())} rows ({len(held_games)} games)"
    )
    logistic = fit_logistic(x[~held, :base].tolist(), y[~held].tolist(), "x")
    p_log = np.array([logistic.probability(r) for r in x[held, :base].tolist()])
    ll_log, br_log = losses(p_log, y[held])
    rate = y[~held].mean()
    ll_base, _ = losses(np.full(int(held.sum()), rate), y[held])
    print(f"  base rate        log loss {ll_base.mean():.4f}")
    print(
        f"  logistic v2 (26) log loss {ll_log.mean():.4f}  Brier {br_log.mean():.4f}  "
        f"mean p {p_log.mean():.4f} obs {y[held].mean():.4f}"
    )
    if args.extra:
        wide = fit_logistic(x[~held].tolist(), y[~held].tolist(), "x")
        p_wide = np.array([wide.probability(r) for r in x[held].tolist()])
        ll_w, br_w = losses(p_wide, y[held])
        d_w = per_game_interval(ll_log - ll_w, g[held])
        print(
            f"  logistic ({base + args.extra}) log loss {ll_w.mean():.4f}  Brier "
            f"{br_w.mean():.4f}; gain {d_w[0]:+.4f} [{d_w[1]:+.4f}, {d_w[2]:+.4f}]"
        )
    widths = [base] + ([base + args.extra] if args.extra else [])
    for width in widths:
        model = fit_gbm(x[~held, :width], y[~held], g[~held], args.split_seed, args.max_trees)
        p = np.asarray(model.predict(x[held, :width]))
        ll, br = losses(p, y[held])
        d_ll = per_game_interval(ll_log - ll, g[held])
        d_br = per_game_interval(br_log - br, g[held])
        print(
            f"  GBM ({width}) {model.num_trees()} trees: log loss {ll.mean():.4f}  Brier "
            f"{br.mean():.4f}  mean p {p.mean():.4f}; logistic minus GBM: log loss "
            f"{d_ll[0]:+.4f} [{d_ll[1]:+.4f}, {d_ll[2]:+.4f}], Brier {d_br[0]:+.4f} "
            f"[{d_br[1]:+.4f}, {d_br[2]:+.4f}]"
        )
        if width > base:
            gain = model.feature_importance("gain")
            names = list(FEATURES) + [f"extra{i}" for i in range(args.extra)]
            top = sorted(zip(gain, names, strict=True), reverse=True)[:12]
            print("  top gain:", ", ".join(f"{n} {v:.0f}" for v, n in top))
        if args.dump and width == widths[0]:
            args.dump.write_text(json.dumps(model.dump_model()) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
