"""The bots' ladder calibration: bot-only matches of the rated format, and each level's skill
fitted to their final standings (``docs/ratings.md`` gives the command, the figures and the
check).

A match seats 2–4 bots whose levels are drawn at random (never all the same) and plays the
rated format: a Tonk match of ``TONK_DEALS`` deals (the dealer passing as T2 says), a Three
Towers match of one game; its standings are each seat's total. The fit is the maximum of
openskill's own Plackett–Luce likelihood (the model ``model.rate_match`` updates with), every
seat a landmark of sigma ``LANDMARK_SIGMA``, medium held at the ladder's middle (``MU``), with a
weak prior; a bootstrap over matches gives each level's interval. Matches are appended to a
JSON Lines file as they finish, so an interrupted run resumes where it stopped.

    python -m taverntable.ratings.calibrate play --game tonk --matches 2000 --jobs 2
    python -m taverntable.ratings.calibrate fit --write
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from taverntable.bots import make_bot
from taverntable.engine import play_out
from taverntable.games import game_names, get_game

from .bots import LANDMARK_SIGMA
from .model import MU, SIGMA, _model
from .standings import places

LEVELS = ("easy", "medium", "hard")
ANCHOR = "medium"
TONK_DEALS = 5
SEATS = (2, 3, 4)
DEFAULT_OUT = Path("lab-out") / "ladder"


@dataclass(frozen=True, slots=True)
class Planned:
    game: str
    index: int
    seed: int
    players: int
    levels: tuple[str, ...]


def plan(game: str, matches: int, seed: int) -> list[Planned]:
    """The first ``matches`` matches of ``seed``: the same list for the same arguments."""
    out = []
    for index in range(matches):
        rng = random.Random(f"ladder:{game}:{seed}:{index}")
        players = rng.choice(SEATS)
        while len(set(levels := tuple(rng.choice(LEVELS) for _ in range(players)))) < 2:
            pass
        out.append(Planned(game, index, seed, players, levels))
    return out


def play_match(planned: Planned) -> dict[str, Any]:
    """One match of bots; its seats' totals and places (a worker's job)."""
    started = time.process_time()
    game = get_game(planned.game)
    rules = game.rules()
    rng = random.Random(f"ladder-play:{planned.game}:{planned.seed}:{planned.index}")
    bots = [make_bot(level, planned.game) for level in planned.levels]
    totals = [0.0] * planned.players
    dealer = rng.randrange(planned.players)
    units = TONK_DEALS if game.length == "deal" else 1
    for _ in range(units):
        state = game.start(
            rules, planned.players, rng=random.Random(rng.getrandbits(64)), dealer=dealer
        )
        out = play_out(state, bots, random.Random(rng.getrandbits(64)), max_moves=game.max_moves)
        if out.capped:  # a pagat deal that cycles (T11): it counts nothing, as at the server
            continue
        totals = [t + r for t, r in zip(totals, state.returns(), strict=True)]
        dealer = game.next_dealer(state)
    return {
        "game": planned.game,
        "index": planned.index,
        "seed": planned.seed,
        "levels": list(planned.levels),
        "totals": totals,
        "places": places(totals),
        "cpu": round(time.process_time() - started, 3),
    }


def _done(path: Path) -> dict[int, dict[str, Any]]:
    rows: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text("utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by a kill: played again
            rows[int(row["index"])] = row
    return rows


def play(game: str, matches: int, seed: int, jobs: int, out: Path) -> list[dict[str, Any]]:
    """Play the matches of ``plan`` not yet in ``out/GAME-SEED.jsonl``; every row there."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{game}-{seed}.jsonl"
    rows = _done(path)
    todo = [p for p in plan(game, matches, seed) if p.index not in rows]
    with path.open("a", encoding="utf-8") as sink, ProcessPoolExecutor(max(1, jobs)) as pool:
        for k, row in enumerate(pool.map(play_match, todo, chunksize=4), 1):
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            rows[row["index"]] = row
            if k % 50 == 0:
                print(f"{game}: {len(rows)} of {matches} matches", file=sys.stderr)
    return [rows[i] for i in sorted(rows) if i < matches]


# --- the fit ----------------------------------------------------------------------------------


Pattern = tuple[tuple[str, ...], tuple[int, ...]]


def _patterns(rows: Iterable[dict[str, Any]]) -> dict[Pattern, int]:
    """The matches grouped by their levels and places: a few hundred kinds among thousands of
    matches, so the likelihood is a weighted sum over the kinds."""
    counts: dict[Pattern, int] = {}
    for row in rows:
        key = (tuple(row["levels"]), tuple(row["places"]))
        counts[key] = counts.get(key, 0) + 1
    return counts


def _log_likelihood(patterns: dict[Pattern, int], mu: dict[str, float]) -> float:
    """openskill's Plackett–Luce likelihood of the standings (ties as openskill takes them: a
    seat competes with every seat placed as well as or worse than itself), plus a weak prior."""
    beta2 = _model().beta ** 2
    total = 0.0
    for (levels, ranks), count in patterns.items():
        c = math.sqrt(len(levels) * (LANDMARK_SIGMA**2 + beta2))
        strength = [math.exp(mu[level] / c) for level in levels]
        one = 0.0
        for i, level in enumerate(levels):
            below = sum(s for s, r in zip(strength, ranks, strict=True) if r >= ranks[i])
            one += mu[level] / c - math.log(below)
        total += count * one
    return total - sum((m - MU) ** 2 for m in mu.values()) / (2 * SIGMA**2)


def _fit_patterns(patterns: dict[Pattern, int], levels: Sequence[str]) -> dict[str, float]:
    mu = dict.fromkeys(levels, MU)
    free = [level for level in levels if level != ANCHOR]
    step = 4.0
    best = _log_likelihood(patterns, mu)
    while step > 1e-3:
        moved = False
        for level in free:
            for sign in (1.0, -1.0):
                trial = {**mu, level: mu[level] + sign * step}
                value = _log_likelihood(patterns, trial)
                if value > best:
                    mu, best, moved = trial, value, True
                    break
        if not moved:
            step /= 2
    return mu


def fit(rows: Sequence[dict[str, Any]], levels: Sequence[str] = LEVELS) -> dict[str, float]:
    """The levels' skills that make the standings most likely, the anchor held at ``MU``
    (coordinate ascent with a shrinking step: the likelihood is concave in each skill)."""
    return _fit_patterns(_patterns(rows), levels)


def bootstrap(
    rows: Sequence[dict[str, Any]], reps: int, seed: int
) -> dict[str, tuple[float, float]]:
    """Each level's 95% interval: the fit over ``reps`` resamples of the matches."""
    rng = random.Random(seed)
    keys = list(_patterns(rows))
    index = {key: k for k, key in enumerate(keys)}
    drawn = [index[(tuple(r["levels"]), tuple(r["places"]))] for r in rows]
    fits = []
    for _ in range(reps):
        counts: dict[Pattern, int] = {}
        for k in rng.choices(drawn, k=len(drawn)):
            counts[keys[k]] = counts.get(keys[k], 0) + 1
        fits.append(_fit_patterns(counts, LEVELS))
    out = {}
    for level in LEVELS:
        values = sorted(f[level] for f in fits)
        out[level] = (values[int(0.025 * (reps - 1))], values[int(0.975 * (reps - 1))])
    return out


def _above(strength: Sequence[float], i: int, j: int) -> float:
    """The chance that seat ``i`` finishes above seat ``j`` when the whole table's ranking is
    drawn by Plackett–Luce from ``strength`` (every order enumerated: at most 4! of them)."""
    total = 0.0
    for order in itertools.permutations(range(len(strength))):
        if order.index(i) < order.index(j):
            chance, left = 1.0, sum(strength)
            for seat in order:
                chance *= strength[seat] / left
                left -= strength[seat]
            total += chance
    return total


def pairwise(rows: Iterable[dict[str, Any]], mu: dict[str, float]) -> list[dict[str, Any]]:
    """For each pair of levels met at a table: how often the first finished above the second
    (a shared place counts half), against what the fitted skills predict at those tables."""
    beta2 = _model().beta ** 2
    counts: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        levels, ranks = row["levels"], row["places"]
        c = math.sqrt(len(levels) * (LANDMARK_SIGMA**2 + beta2))
        strength = [math.exp(mu[level] / c) for level in levels]
        for i, a in enumerate(levels):
            for j, b in enumerate(levels):
                if a != b and LEVELS.index(a) < LEVELS.index(b):
                    tally = counts.setdefault((a, b), [0.0, 0.0, 0.0])
                    tally[0] += 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0
                    tally[1] += _above(strength, i, j)
                    tally[2] += 1
    return [
        {
            "pair": f"{a} above {b}",
            "observed": round(above / n, 4),
            "predicted": round(predicted / n, 4),
            "meetings": int(n),
        }
        for (a, b), (above, predicted, n) in sorted(counts.items())
    ]


def calibration(out: Path, games: Sequence[str], reps: int) -> dict[str, Any]:
    """The fit of every game's rows in ``out``: what ``bot_ratings.json`` holds."""
    result: dict[str, Any] = {
        "games": {},
        "study": {
            "deals_per_tonk_match": TONK_DEALS,
            "seats": list(SEATS),
            "anchor": ANCHOR,
            "files": {},
        },
    }
    for game in games:
        rows = [r for path in sorted(out.glob(f"{game}-*.jsonl")) for r in _done(path).values()]
        if not rows:
            continue
        mu = fit(rows)
        interval = bootstrap(rows, reps, seed=len(rows))
        result["games"][game] = {
            level: {
                "mu": round(mu[level], 3),
                "interval": [round(interval[level][0], 3), round(interval[level][1], 3)],
            }
            for level in LEVELS
        }
        result["study"]["files"][game] = {
            "matches": len(rows),
            "cpu_seconds": round(sum(r["cpu"] for r in rows), 1),
            "pairwise": pairwise(rows, mu),
        }
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m taverntable.ratings.calibrate")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play bot-only matches (resumable)")
    p.add_argument("--game", choices=game_names(), required=True)
    p.add_argument("--matches", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    f = sub.add_parser("fit", help="fit the levels' skills to the matches played")
    f.add_argument("--out", type=Path, default=DEFAULT_OUT)
    f.add_argument("--reps", type=int, default=200, help="bootstrap resamples")
    f.add_argument("--write", action="store_true", help="write the package's bot_ratings.json")
    args = parser.parse_args(argv)
    if args.command == "play":
        if args.matches < 1 or args.jobs < 1:
            parser.error("--matches and --jobs must be at least 1")
        rows = play(args.game, args.matches, args.seed, args.jobs, args.out)
        print(f"{args.game}: {len(rows)} matches in {args.out}")
        return 0
    result = calibration(args.out, game_names(), args.reps)
    if not result["games"]:
        print(f"no matches in {args.out}: run the play command first", file=sys.stderr)
        return 1
    text = json.dumps(result, indent=1, ensure_ascii=False) + "\n"
    print(text, end="")
    if args.write:
        target = Path(str(files("taverntable.ratings").joinpath("bot_ratings.json")))
        target.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
