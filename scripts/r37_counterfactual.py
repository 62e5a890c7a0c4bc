"""Issue 28 item 5, proposed R37 (a cap on a round's *lead*), read on recorded games: two-player
engine games (the heuristic against itself, and each pairing of styles, the seeds
``towers_revised`` uses), each game's round points re-counted with the round's top seat held to
at most N over the next best seat, for each N of ``--caps``; then the winners, one round
decides (``summarise``'s measure), the first seat's edge and the styles' win rates of the
re-counted games. Two readings of R14's 150: counted in the third tower's round (``with150``:
the cap holds the round's points and the 150 together) or paid after the cap (``apart``).

The re-count equals play under R37 only where no bot reads the scores; ``--check`` plays R37
(the engine's ``lead_cap``, once it exists) on the same seeds and counts the games whose moves
differ from the uncapped game's.

    nice -n 19 python scripts/r37_counterfactual.py --seed 7 --games 600 --style-games 200
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass

from taverntable.games.three_towers import TowersState, rules_from
from taverntable.games.three_towers.rules import TowersRules
from taverntable.lab.core.stats import wilson
from taverntable.lab.studies import towers_revised as tr

SEATS = tr.PLAYERS


@dataclass(frozen=True, slots=True)
class Recorded:
    """What the re-count needs of one finished two-player game."""

    rounds: tuple[tuple[int, ...], ...]
    builder: int  # the third tower's builder, -1 when the game ended at R14's round limit
    bonus: int  # what that builder got beyond its rounds (R14's 150)
    first: int  # the seat that moved first (R3)
    seats: tuple[str, ...]


def record(state: TowersState, seats: list[str], dealer: int) -> Recorded:
    result = state.result
    assert result is not None
    b = result.rounds[-1].builder if result.end == "towers" else -1
    bonus = result.scores[b] - sum(r.points[b] for r in result.rounds) if b >= 0 else 0
    rounds = tuple(tuple(r.points) for r in result.rounds)
    return Recorded(rounds, b, bonus, (dealer + 1) % SEATS, tuple(seats))


def cap_lead(points: list[int], cap: int) -> list[int]:
    """Proposed R37: the round's top seat gets at most ``cap`` more than the next best seat (a
    tie at the top has no lead and changes nothing)."""
    if not cap:
        return points
    top = max(range(len(points)), key=lambda s: points[s])
    second = max(points[s] for s in range(len(points)) if s != top)
    out = list(points)
    out[top] = min(points[top], second + cap)
    return out


def recount(g: Recorded, cap: int, with150: bool) -> tuple[list[int], list[list[int]]]:
    """The re-counted final scores and each round's points (the 150 in the last round's)."""
    rounds = [list(r) for r in g.rounds]
    if with150 and g.builder >= 0:
        rounds[-1][g.builder] += g.bonus
    rounds = [cap_lead(r, cap) for r in rounds]
    if not with150 and g.builder >= 0:
        rounds[-1][g.builder] += g.bonus
    scores = [sum(r[s] for r in rounds) for s in range(SEATS)]
    return scores, rounds


def read(games: list[Recorded], cap: int, with150: bool) -> dict[str, list[object]]:
    one = decided = first = single = kept_one = kept = 0
    for g in games:
        scores, rounds = recount(g, cap, with150)
        # As scripts/one_round.py read its cap: the uncapped game's winner, and only the games
        # that winner still leads after the cap (a game the cap turns over is left out).
        before, _ = recount(g, 0, with150)
        w0 = max(range(SEATS), key=lambda s: before[s])
        if scores[w0] > scores[1 - w0] and before[w0] > before[1 - w0]:
            kept += 1
            kept_one += max(r[w0] - r[1 - w0] for r in rounds) >= scores[w0] - scores[1 - w0]
        w = max(range(SEATS), key=lambda s: scores[s])
        lead = scores[w] - scores[1 - w]
        if lead > 0:
            decided += 1
            one += max(r[w] - r[1 - w] for r in rounds) >= lead
            single += 1
            first += w == g.first
    return {
        "one_round": [one, decided, [round(x, 3) for x in wilson(one, decided)]],
        "first_edge": [first, single, [round(x - 0.5, 3) for x in wilson(first, single)]],
        "one_round_winner_kept": [kept_one, kept, [round(x, 3) for x in wilson(kept_one, kept)]],
    }


def style_read(games: list[Recorded], cap: int, with150: bool) -> list[object]:
    wins: dict[str, int] = {}
    for g in games:
        scores, _ = recount(g, cap, with150)
        if scores[0] != scores[1]:
            s = g.seats[0 if scores[0] > scores[1] else 1]
            wins[s] = wins.get(s, 0) + 1
    if not wins:
        return ["", 0, len(games), [float("nan"), float("nan")]]
    best = max(sorted(wins), key=lambda s: wins[s])
    lo, hi = wilson(wins[best], len(games))
    return [best, wins[best], len(games), [round(lo, 3), round(hi, 3)]]


def play(rules: TowersRules, seed: int, games: int, style_games: int) -> dict[str, list[Recorded]]:
    out: dict[str, list[Recorded]] = {"plain": []}
    for g in range(games):
        dealer = g % SEATS
        seats = ["heuristic"] * SEATS
        state = tr.play_game(rules, seats, tr.search_seed(seed, games + g), dealer=dealer)
        if state is not None:
            out["plain"].append(record(state, seats, dealer))
    for a, b in tr.PAIRINGS:
        key = f"{a}-{b}"
        out[key] = []
        for g in range(style_games):
            seats = [a, b] if g % 2 == 0 else [b, a]
            state = tr.play_game(rules, seats, tr.search_seed(seed, 2 * games + g))
            if state is not None:
                out[key].append(record(state, seats, tr.DEALER))
    return out


def check(rules: TowersRules, seed: int, games: int, cap: int) -> dict[str, object]:
    """The plain games played again under R37 (``lead_cap``) on the same seeds: how many make
    the same moves as without it, and of those how many the re-count scores exactly."""
    same = exact = played = 0
    held = rules.with_options(lead_cap=cap)
    for g in range(games):
        dealer = g % SEATS
        seats = ["heuristic"] * SEATS
        a = tr.play_game(rules, seats, tr.search_seed(seed, games + g), dealer=dealer)
        b = tr.play_game(held, seats, tr.search_seed(seed, games + g), dealer=dealer)
        if a is None or b is None or b.result is None:
            continue
        played += 1
        if a.history == b.history:
            same += 1
            scores, _ = recount(record(a, seats, dealer), cap, True)
            exact += scores == list(b.result.scores)
    return {"lead_cap": cap, "games": played, "same_moves": same, "recount_exact": exact}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", default="three-towers")
    p.add_argument("--options", default="{}")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--games", type=int, default=600)
    p.add_argument("--style-games", type=int, default=200)
    p.add_argument("--caps", default="0,30,40,50,60,70,80,90,100,120,150")
    p.add_argument("--check", type=int, default=0, help="play R37 at this cap and compare")
    a = p.parse_args(argv)
    try:
        rules = rules_from(a.preset, **json.loads(a.options))
        caps = [int(c) for c in a.caps.split(",")]
    except (ValueError, TypeError) as e:
        print(f"r37_counterfactual: {e}", file=sys.stderr)
        return 2
    if a.check:
        print(json.dumps(check(rules, a.seed, a.games, a.check)), flush=True)
        return 0
    played = play(rules, a.seed, a.games, a.style_games)
    for with150 in (True, False):
        for cap in caps:
            row: dict[str, object] = {
                "rules": rules.differences(),
                "seed": a.seed,
                "lead_cap": cap,
                "the_150": "in the round" if with150 else "after the cap",
                **read(played["plain"], cap, with150),
            }
            for x, y in tr.PAIRINGS:
                row[f"style:{x}-{y}"] = style_read(played[f"{x}-{y}"], cap, with150)
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
