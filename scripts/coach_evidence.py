"""Evidence that the coach is right (issue 27, item 5a): on held-out decisions of heuristic
self-play, playing the coach's best move instead of the heuristic's earns more.

Each deal (tonk, 3 players, dealt and played by three heuristic bots in the kernel from a seed
that no study or test uses) gives one decision, drawn at random among its decisions with more
than one legal move (one a deal, so that the decisions are independent). At it the coach values
the moves from the deciding seat's view (``coach.review.judge``, the review's own code, with
``--worlds`` worlds). Where its best move is the heuristic's, the difference is 0; otherwise the
real deal is continued twice from the real state, once with each move, every seat then played by
the heuristic bot with the same seed, and the difference is the deciding seat's net stakes
(coach's move minus the heuristic's). The mean over all decisions and its 95% interval are the
figure; the same for the decisions the coach flags as the heuristic's mistakes, and by kind.

    nice -n 10 python scripts/coach_evidence.py --decisions 2000 --worlds 100 --seed 270000
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from taverntable.bots.tonk.fast.deals import fast_seats, play_deal, replay
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.coach.review import judge
from taverntable.coach.stats import mean_interval
from taverntable.coach.tonk import PLAYING_ON_BIAS, TonkFamily
from taverntable.engine import play_out
from taverntable.games.tonk import PRESETS, TonkState, TonkView

PLAYERS = 3


def kind(move: object) -> str:
    return type(move).__name__.lower()


class CoachBot:
    """A seat that plays the coach's best move at every decision with more than one legal
    move (``judge``, the review's own code), and the only move elsewhere."""

    name = "coach"

    def __init__(self, family: TonkFamily, game: object, worlds: int, seed: int) -> None:
        self.family, self.game, self.worlds, self.seed = family, game, worlds, seed
        self.decisions = 0
        self.changed = 0  # decisions where the coach's move was not the heuristic's
        self.heuristic = TonkHeuristicBot()

    def choose(self, view: TonkView, rng: random.Random) -> object:
        if len(view.legal_moves) < 2:
            return view.legal_moves[0]
        # The heuristic's move, drawing from the deal's generator as the heuristic seat of the
        # paired deal does: where the coach agrees, the two deals stay the same deal.
        theirs = self.heuristic.choose(view, rng)
        pick = random.Random(f"coach-seat:{self.seed}:{self.decisions}")
        decision = judge(self.family, self.game, view, theirs, self.decisions, self.worlds, pick)
        self.decisions += 1
        moves = {str(m): m for m in view.legal_moves}
        if decision.best != str(theirs):
            self.changed += 1
        return moves[decision.best]


def seat_mode(args: argparse.Namespace, family: TonkFamily, game: object) -> None:
    """The coach plays one seat of each deal at every decision (the seat by the deal's seed),
    against the same deal with the heuristic in that seat; the other seats the heuristic, the
    deck and the bots' generator the same in both (paired)."""
    rules = PRESETS["tonk"]
    diffs: list[float] = []
    decisions = changed = 0
    start = time.process_time()
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    deal_seed = args.seed
    while decisions < args.decisions:
        deal_seed += 1
        dealer = deal_seed % PLAYERS
        coached = deal_seed // PLAYERS % PLAYERS
        nets = []
        coach = CoachBot(family, game, args.worlds, deal_seed)
        for seat_bot in (coach, TonkHeuristicBot()):
            bots: list[Any] = [TonkHeuristicBot() for _ in range(PLAYERS)]
            bots[coached] = seat_bot
            state = TonkState.deal(rules, PLAYERS, rng=deal_seed, dealer=dealer)
            play_out(state, bots, random.Random(f"continue:{deal_seed}"))
            assert state.result is not None
            nets.append(state.result.net[coached])
        diffs.append(float(nets[0] - nets[1]))
        decisions += coach.decisions
        changed += coach.changed
        if out is not None:
            row = {
                "deal": deal_seed,
                "seat": coached,
                "decisions": coach.decisions,
                "changed": coach.changed,
                "diff": diffs[-1],
            }
            out.write(json.dumps(row) + "\n")
            out.flush()
        if len(diffs) % 100 == 0:
            iv = mean_interval(diffs)
            print(
                f"{len(diffs)} deals, {decisions} decisions, {time.process_time() - start:.0f} "
                f"CPU s: {iv.mean:+.4f} [{iv.low:+.4f}, {iv.high:+.4f}] stakes a deal",
                flush=True,
            )
    iv = mean_interval(diffs)
    print(
        f"deals {args.seed + 1}..{deal_seed}: {len(diffs)} deals, the coach decided {decisions} "
        f"times and chose another move than the heuristic's {changed} times; worlds "
        f"{args.worlds}, playouts {args.playouts}, bias {args.bias}, "
        f"{time.process_time() - start:.0f} CPU s"
    )
    print(
        f"the coach's seat instead of the heuristic's: {iv.mean:+.4f} stakes a deal "
        f"[{iv.low:+.4f}, {iv.high:+.4f}]"
    )


def summarize(paths: list[str]) -> None:
    """The seat-mode figure of several runs' rows, as one sample of deals."""
    rows = [
        json.loads(line)
        for path in paths
        for line in Path(path).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    diffs = [float(row["diff"]) for row in rows]
    iv = mean_interval(diffs)
    decisions = sum(row["decisions"] for row in rows)
    changed = sum(row["changed"] for row in rows)
    print(
        f"{len(rows)} deals, {decisions} coach's decisions ({changed} not the heuristic's "
        f"move): {iv.mean:+.4f} stakes a deal [{iv.low:+.4f}, {iv.high:+.4f}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=270000, help="first deal's seed (held out)")
    parser.add_argument("--out", default=None, help="write each decision as a JSON line here")
    parser.add_argument(
        "--playouts",
        default="greedy",
        choices=("greedy", "heuristic-bot"),
        help="the coach's playout policy (TonkSearch's; default greedy, the review's)",
    )
    parser.add_argument(
        "--bias",
        type=float,
        default=PLAYING_ON_BIAS,
        help=f"the coach's playing-on bias, stakes per other player (default {PLAYING_ON_BIAS})",
    )
    parser.add_argument(
        "--continuations",
        type=int,
        default=1,
        help="real continuations per move where the coach disagrees, averaged (paired seeds)",
    )
    parser.add_argument(
        "--mode",
        default="decision",
        choices=("decision", "seat"),
        help="decision: one held-out decision a deal; seat: the coach plays one seat's every "
        "decision of a deal, paired with the heuristic in that seat (--decisions counts the "
        "coach's decisions)",
    )
    parser.add_argument(
        "--summarize",
        nargs="+",
        metavar="FILE",
        help="only summarize the --out files of earlier --mode seat runs, together",
    )
    args = parser.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return
    rules = PRESETS["tonk"]
    bots = [TonkHeuristicBot() for _ in range(PLAYERS)]
    seats = fast_seats(bots)
    assert seats is not None
    family = TonkFamily(policy=args.playouts, bias=args.bias)
    game = family.adapter(True)
    if args.mode == "seat":
        seat_mode(args, family, game)
        return
    diffs: list[float] = []
    flagged: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    disagreed = 0
    start = time.process_time()
    deal_seed = args.seed
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    while len(diffs) < args.decisions:
        deal_seed += 1
        dealer = deal_seed % PLAYERS
        deal = play_deal(
            rules, PLAYERS, seats, deal_rng=deal_seed, bot_rng=deal_seed, dealer=dealer
        )
        if deal.capped:
            continue
        final = replay(rules, deal, PLAYERS, deal_seed)
        pick = random.Random(f"evidence:{deal_seed}")
        state = TonkState.deal(rules, PLAYERS, rng=deal_seed, dealer=dealer)
        states = []
        for seat, move in final.history:
            if len(state.legal_moves()) > 1:
                states.append((state.clone(), seat, move))
            state.apply_unchecked(move)
        if not states:
            continue
        at, seat, played = states[int(pick.random() * len(states))]
        view = at.view(seat)
        decision = judge(family, game, view, played, len(at.history), args.worlds, pick)
        moves = {str(m): m for m in view.legal_moves}
        best = moves[decision.best]
        diff = 0.0
        if best != played:
            disagreed += 1
            nets = []
            for move in (best, played):
                total = 0
                for j in range(args.continuations):
                    branch = at.clone()
                    branch.apply(move)
                    # The same seed for both moves: the continuations are paired.
                    name = f"continue:{deal_seed}" + (f":{j}" if j else "")
                    play_out(branch, bots, random.Random(name))
                    assert branch.result is not None
                    total += branch.result.net[seat]
                nets.append(total / args.continuations)
            diff = float(nets[0] - nets[1])
        diffs.append(diff)
        if out is not None:
            row = {
                "deal": deal_seed,
                "step": len(at.history),
                "seat": seat,
                "played": str(played),
                "best": decision.best,
                "loss": decision.loss.mean,
                "flagged": decision.flagged,
                "diff": diff,
            }
            out.write(json.dumps(row) + "\n")
            out.flush()
        by_kind[kind(played)].append(diff)
        if decision.flagged:
            flagged.append(diff)
        if len(diffs) % 200 == 0:
            iv = mean_interval(diffs)
            print(
                f"{len(diffs)} decisions, {time.process_time() - start:.0f} CPU s: "
                f"{iv.mean:+.4f} [{iv.low:+.4f}, {iv.high:+.4f}]",
                flush=True,
            )
    cpu = time.process_time() - start
    iv = mean_interval(diffs)
    print(
        f"deals {args.seed + 1}..{deal_seed}, {len(diffs)} decisions, worlds {args.worlds}, "
        f"playouts {args.playouts}, bias {args.bias}, continuations {args.continuations}, "
        f"{cpu:.0f} CPU s"
    )
    print(
        f"coach's best instead of the heuristic's move: {iv.mean:+.4f} stakes a decision "
        f"[{iv.low:+.4f}, {iv.high:+.4f}]; the coach disagreed at {disagreed}"
    )
    if len(flagged) > 1:
        f = mean_interval(flagged)
        print(
            f"at the {len(flagged)} decisions it flags as mistakes: {f.mean:+.3f} "
            f"[{f.low:+.3f}, {f.high:+.3f}]"
        )
    for name, values in sorted(by_kind.items()):
        if len(values) > 1:
            k = mean_interval(values)
            changed = sum(1 for v in values if v != 0)
            print(
                f"  heuristic's move {name}: {len(values)} decisions, {k.mean:+.4f} "
                f"[{k.low:+.4f}, {k.high:+.4f}] ({changed} changed the result)"
            )


if __name__ == "__main__":
    main()
