"""The value of playing on instead of dropping (T6), measured on the watcher's own decisions.

``collect``: deals of the ``watcher`` at one seat (every seat in turn) against heuristic seats,
as the arena plays them. At each of the watcher seat's turn starts where a drop is legal and not
hopeless, one row: features from the seat's VIEW only (``taverntable.bots.tonk.drop_value``),
the real result of dropping now (a copy of the true deal drops) and the real result of playing
on (a copy of the true deal plays the watcher's move without the drop, then the same bots play
to the deal's end: the seat may still drop later). The real deal goes on with the watcher's own
choice. Rows are JSON lines.

``fit``: per preset and player count, the least-squares model of (drop − play on) from the
features, on all but the held-out games; then the replay on the held-out games: the paired
gain per decision of "drop when the model's difference is positive" against the watcher's
rule ("drop when the drop gain is positive"), with a 95% interval. ``--write`` stores the
coefficients in ``bots/tonk/drop_value.json``.

    nice -n 10 .venv/bin/python scripts/drop_value.py collect --preset tonk --players 3 \
        --games 3000 --seed 600000 --out /tmp/dv-tonk3-a.jsonl
    .venv/bin/python scripts/drop_value.py fit /tmp/dv-*.jsonl [--write] [--keep tonk/3]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from taverntable.bots.ismcts import IsmctsBot
from taverntable.bots.tonk.drop_model import model_for
from taverntable.bots.tonk.drop_value import FEATURES, MODEL_PATH, VERSION, features
from taverntable.bots.tonk.fast.deals import decision, fast_seat
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.bots.tonk.opponents import catch_probabilities
from taverntable.bots.tonk.search import TonkSearch
from taverntable.bots.tonk.watcher import TonkWatcherBot
from taverntable.games import get_game
from taverntable.games.tonk import Drop, TonkState
from taverntable.games.tonk.movegen import START

DROP = Drop()


class NoDrop(TonkWatcherBot):
    """The watcher's move with the drop taken away: its draw (T7), as the heuristic's."""

    def drop_gain(self, view: Any, rng: random.Random) -> float:
        return float("-inf")


def play_on(
    state: TonkState, me: int, watcher: TonkWatcherBot, rng: random.Random, limit: int
) -> None:
    """Play ``state`` to its end: ``watcher`` at seat ``me``, the heuristic (kernel) elsewhere."""
    heur = fast_seat(TonkHeuristicBot())
    assert heur is not None
    moves = 0
    while (seat := state.current_seat) is not None and moves < limit:
        move = watcher.choose(state.view(seat), rng) if seat == me else decision(state, heur, rng)
        state.apply_unchecked(move)
        moves += 1


def hard_bot() -> IsmctsBot:
    """The hard level as it was before this model: its search anchored on the old rule."""
    search = TonkSearch()
    search._watcher = TonkWatcherBot(play_on=False)
    return IsmctsBot(game=search)


def collect(preset: str, players: int, games: int, seed: int, out: Path) -> None:
    game = get_game(preset)
    hard = hard_bot()
    rules = game.rules({})
    # The rule measured is the one before this model: drop when the expected gain is positive.
    watcher = TonkWatcherBot(play_on=False)
    heur = fast_seat(TonkHeuristicBot())
    assert heur is not None
    nodrop = NoDrop(play_on=False)
    with out.open("w") as f:
        for g in range(games):
            gseed = seed + g
            me = g % players
            state = game.start(rules, players, rng=random.Random(gseed), dealer=0)
            assert isinstance(state, TonkState)
            rng = random.Random(gseed * 7 + 1)
            turn = 0
            rows = []
            moves = 0
            while (seat := state.current_seat) is not None and moves < game.max_moves:
                if seat == me and state.phase == START:
                    turn += 1
                    view = state.view(me)
                    legal = view.legal_moves
                    hopeless = view.total() > 4 * sum(rules.card_values[1:]) / 13
                    if DROP in legal and not hopeless:
                        probs = watcher.catch_probabilities(view, random.Random(0))
                        # The two estimates the watcher averages, kept apart for comparison.
                        seed0 = random.Random(0).getrandbits(64)
                        seen = catch_probabilities(
                            watcher.guesses_for(view, random.Random(seed0)),
                            view.total(),
                            rules.card_values,
                        )
                        fitted = model_for(preset)
                        assert fitted is not None
                        trial = state.clone()
                        trial.apply(DROP)
                        assert trial.result is not None
                        dropped = trial.result.net[me] / state.stake
                        cont = state.clone()
                        crng = random.Random(rng.getrandbits(64))
                        cont.apply_unchecked(nodrop.choose(view, crng))
                        play_on(cont, me, watcher, crng, game.max_moves)
                        played = (
                            cont.result.net[me] / state.stake if cont.result is not None else 0.0
                        )
                        # The hard level's choice here (it searches only close calls).
                        by_hard = hard.choose(view, random.Random(gseed * 31 + turn)) == DROP
                        rows.append(
                            {
                                "f": features(view, probs),
                                "drop": dropped,
                                "cont": played,
                                "turn": turn,
                                "hard": int(by_hard),
                                "seen": seen,
                                "fitted": fitted.catch_probabilities(view),
                            }
                        )
                if seat == me:
                    move = watcher.choose(state.view(me), rng)
                else:
                    move = decision(state, heur, rng)
                state.apply_unchecked(move)
                moves += 1
            f.write(
                json.dumps({"preset": preset, "players": players, "game": gseed, "rows": rows})
                + "\n"
            )
            f.flush()


def _load(paths: list[str]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    cells: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for p in paths:
        for line in Path(p).read_text().splitlines():
            cells[(g := json.loads(line))["preset"], g["players"]].append(g)
    return cells


def _arrays(games: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = [r for g in games for r in g["rows"]]
    x = np.array([r["f"] for r in rows], dtype=float)
    drop = np.array([r["drop"] for r in rows], dtype=float)
    cont = np.array([r["cont"] for r in rows], dtype=float)
    return x, drop, cont


def _design(x: np.ndarray) -> np.ndarray:
    return np.column_stack([np.ones(len(x)), x])


def _interval(d: np.ndarray) -> str:
    m = float(d.mean())
    h = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d))
    return f"{m:+.4f} [{m - h:+.4f}, {m + h:+.4f}] ({len(d)} decisions)"


# Only decisions whose expected gain is in this window are fitted: far below it the drop is
# never made and far above it always, and those rows would pull a straight line away from the
# decisions that matter.
WINDOW = (-1.5, 2.0)


# Thresholds tried: drop when the expected gain exceeds theta0 + theta1 * (stock - STOCK0).
THETAS = np.round(np.arange(-1.0, 1.51, 0.05), 2)
SLOPES = (0.0, -0.04, -0.02, -0.01, 0.01, 0.02, 0.04)
STOCK0 = 30.0


def _threshold(
    x: np.ndarray, drop: np.ndarray, cont: np.ndarray, slopes: tuple[float, ...]
) -> np.ndarray:
    """The threshold on the expected gain (maybe moving with the stock) that gains the most
    on these decisions, as coefficients: advantage = gain - theta0 - theta1 (stock - STOCK0)."""
    g = x[:, FEATURES.index("gain")]
    st = x[:, FEATURES.index("stock")] - STOCK0
    best = (-math.inf, 0.0, 0.0)
    for t1 in slopes:
        for t0 in THETAS:
            total = float(np.where(g > t0 + t1 * st, drop, cont).sum())
            # Ties go to the rule nearest the old one (theta 0, no slope).
            key = total - 1e-9 * (abs(t0) + abs(t1))
            if key > best[0]:
                best = (key, float(t0), t1)
    coef = np.zeros(len(FEATURES) + 1)
    coef[1 + FEATURES.index("gain")] = 1.0
    coef[1 + FEATURES.index("stock")] = -best[2]
    coef[0] = -best[1] + best[2] * STOCK0
    return coef


def _fit(
    x: np.ndarray, drop: np.ndarray, cont: np.ndarray, use: list[int], ridge: float, rule: str
) -> np.ndarray:
    """The rule's coefficients fitted on these decisions (``rule``: linear, threshold or
    threshold-stock)."""
    if rule == "threshold":
        return _threshold(x, drop, cont, (0.0,))
    if rule == "threshold-stock":
        return _threshold(x, drop, cont, SLOPES)
    return _linear(x, drop - cont, use, ridge)


def _linear(x: np.ndarray, y: np.ndarray, use: list[int], ridge: float) -> np.ndarray:
    """Least squares of ``y`` on the features ``use`` (the others get 0), a small ridge on the
    standardized features, on the decisions in ``WINDOW``; the coefficients are on the raw
    features, constant first."""
    g = x[:, FEATURES.index("gain")]
    keep = (g > WINDOW[0]) & (g < WINDOW[1])
    x, y = x[keep], y[keep]
    mean = x[:, use].mean(axis=0)
    scale = x[:, use].std(axis=0) + 1e-9
    a = _design((x[:, use] - mean) / scale)
    reg = ridge * np.eye(a.shape[1])
    reg[0, 0] = 0.0
    w = np.linalg.solve(a.T @ a + reg, a.T @ y)
    coef = np.zeros(len(FEATURES) + 1)
    coef[[1 + i for i in use]] = w[1:] / scale
    coef[0] = w[0] - float(np.sum(w[1:] * mean / scale))
    return coef


def _gain_of(games: list[dict[str, Any]], coef: np.ndarray) -> np.ndarray:
    """Per decision: the new rule's real result minus the watcher's rule's."""
    x, drop, cont = _arrays(games)
    new = _design(x) @ coef > 0
    old = x[:, FEATURES.index("gain")] > 0
    return np.where(new, drop, cont) - np.where(old, drop, cont)


FOLDS = 4


def _compare(games: list[dict[str, Any]]) -> None:
    """Other rules on the rows that recorded them: the hard level's choice (its search), and
    the expected gain from another weighting of the two catch estimates."""
    rows = [r for g in games for r in g["rows"] if "hard" in r]
    if rows:
        d = np.array([r["drop"] for r in rows])
        c = np.array([r["cont"] for r in rows])
        old = np.array([r["f"][0] > 0 for r in rows])
        hard = np.array([r["hard"] == 1 for r in rows])
        print(
            f"  hard's choice instead of the watcher's ({int((hard != old).sum())} differ): "
            f"{_interval(np.where(hard, d, c) - np.where(old, d, c))}"
        )
    rows = [r for g in games for r in g["rows"] if "seen" in r]
    if not rows:
        return
    d = np.array([r["drop"] for r in rows])
    c = np.array([r["cont"] for r in rows])
    old = np.array([r["f"][0] > 0 for r in rows])
    n = len(rows[0]["seen"]) + 1
    for w in (0.0, 0.25, 0.75, 1.0):
        gain = []
        for r in rows:
            probs = [w * a + (1 - w) * b for a, b in zip(r["seen"], r["fitted"], strict=True)]
            gain.append((n - 1) * math.prod(1 - p for p in probs) - 2 * sum(probs))
        new = np.array(gain) > 0
        print(
            f"  observed weight {w:.2f} instead of 0.5: "
            f"{_interval(np.where(new, d, c) - np.where(old, d, c))}"
        )


def fit(
    paths: list[str], write: bool, ridge: float, names: list[str], rule: str, keep: list[str]
) -> None:
    """Fit per table; the held-out replay is 4-fold over games (each game held out once).
    The tables in ``keep`` are written with the old rule (expected gain above 0), the fit
    beside it for the record."""
    use = [FEATURES.index(n) for n in names]
    out: dict[str, Any] = {"version": VERSION, "features": list(FEATURES), "cells": {}}
    for (preset, players), games in sorted(_load(paths).items()):
        x, drop, cont = _arrays(games)
        fold = [random.Random(g["game"]).randrange(FOLDS) for g in games]
        held = []
        for k in range(FOLDS):
            train = [g for g, f in zip(games, fold, strict=True) if f != k]
            test = [g for g, f in zip(games, fold, strict=True) if f == k]
            xt, dt, ct = _arrays(train)
            held.append(_gain_of(test, _fit(xt, dt, ct, use, ridge, rule)))
        coef = _fit(x, drop, cont, use, ridge, rule)
        gain = x[:, FEATURES.index("gain")]
        print(
            f"{preset} {players}p: {len(games)} games, {len(x)} decisions; mean drop "
            f"{drop.mean():+.3f}, play on {cont.mean():+.3f}; the watcher drops at "
            f"{(gain > 0).mean():.3f}, the model at {(_design(x) @ coef > 0).mean():.3f}"
        )
        what = ", ".join(names) if rule == "linear" else rule
        print(
            f"  model ({what}), held out ({FOLDS}-fold) gain per decision over the "
            f"watcher's rule: {_interval(np.concatenate(held))}"
        )
        print(f"  in sample: {_interval(_gain_of(games, coef))}")
        for theta in (-0.5, -0.25, 0.25, 0.5, 0.75, 1.0):
            d = np.where(gain > theta, drop, cont) - np.where(gain > 0, drop, cont)
            print(f"  expected gain > {theta:+.2f} instead of > 0: {_interval(d)}")
        _compare(games)
        for name, c in zip(("const", *FEATURES), coef, strict=True):
            print(f"    {name:>8} {c:+.4f}")
        cell = f"{preset}/{players}"
        fitted = [round(float(c), 5) for c in coef]
        old = [0.0] * (len(FEATURES) + 1)
        old[1 + FEATURES.index("gain")] = 1.0
        out["cells"][cell] = {
            "coef": old if cell in keep else fitted,
            "games": len(games),
            "decisions": len(x),
        }
        if cell in keep:
            out["cells"][cell]["fitted"] = fitted
    if write:
        MODEL_PATH.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {MODEL_PATH}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--preset", default="tonk")
    c.add_argument("--players", type=int, default=3)
    c.add_argument("--games", type=int, default=1000)
    c.add_argument("--seed", type=int, default=600000)
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("paths", nargs="+")
    f.add_argument("--write", action="store_true")
    f.add_argument("--ridge", type=float, default=1.0)
    f.add_argument(
        "--features",
        default=",".join(FEATURES),
        help="the features the model uses (comma-separated; the others get 0)",
    )
    f.add_argument(
        "--rule", choices=("linear", "threshold", "threshold-stock"), default="threshold"
    )
    f.add_argument(
        "--keep",
        action="append",
        default=[],
        help="a table (preset/players) written with the old rule, the fit beside it",
    )
    args = parser.parse_args(argv)
    if args.cmd == "collect":
        collect(args.preset, args.players, args.games, args.seed, args.out)
    else:
        fit(args.paths, args.write, args.ridge, args.features.split(","), args.rule, args.keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
