"""Study ``towers-options``, the analysis: configurations compared, the proposed rule changes
against today's rules, bot styles against each other, and what a joker, redeals and the nobility
are worth (paired games)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.stats import mean_ci, wilson
from taverntable.lab.core.store import Row
from taverntable.lab.studies.towers_options import VARIANTS

from . import panels
from .tables import Cell, Section, Table, num

Rows = Sequence[tuple[int, Row]]
Interval = tuple[float, float, float]  # value, low, high

# The comparison's measures, in the table's and the plot's order; each has _low and _high.
MEASURES = (
    "towers_per_game",
    "rounds_per_game",
    "share_150_bonus",
    "rounds_ended_by_tower",
    "mean_lead",
    "best_round_lead",
    "decided_by_one_round",
    "first_trader_win_rate",
)
# The plot's panels: a question each, in words, with its axis.
OPTION_PANELS = (
    panels.Measure("towers_per_game", "How many towers are finished per game?", "towers per game"),
    panels.Measure("rounds_per_game", "How many rounds does a game last?", "rounds per game"),
    panels.Measure(
        "share_150_bonus", "How often does a third tower end the game?", "share of games"
    ),
    panels.Measure(
        "rounds_ended_by_tower", "How often does a tower end a round?", "share of rounds"
    ),
    panels.Measure(
        "decided_by_one_round",
        "How often does one round decide the game?",
        "share of decided games",
    ),
    panels.Measure("mean_lead", "By how much does the winner lead?", "winner's lead (points)"),
)
CHANGED = (
    "towers_per_game",
    "rounds_per_game",
    "share_150_bonus",
    "rounds_ended_by_tower",
    "mean_lead",
    "decided_by_one_round",
    "nobility_points_per_game",
    "redeals_per_game",
)


def _by_variant(rows: Rows, treated: bool) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for _, row in rows:
        if row.get("end") in ("stalled", "skipped"):
            continue
        if ("treat" in row) == treated:
            out[row["variant"]].append(row)
    order = list(VARIANTS)
    return {k: out[k] for k in sorted(out, key=lambda k: order.index(k) if k in order else 99)}


def words(name: str) -> str:
    """A variant in words for the page (its code stays in the CSV's ``variant`` column)."""
    v = VARIANTS.get(name)
    if v is None:
        return name
    return f"{v.players} players, {v.note}"


def _mean(xs: Sequence[float]) -> Interval:
    m, half = mean_ci(xs)
    return (m, m - half, m + half)


def _share(k: int, n: int) -> Interval:
    lo, hi = wilson(k, n)
    return (k / n if n else math.nan, lo, hi)


def measures(games: list[Row]) -> dict[str, Interval]:
    """Every measure of the comparison for one variant's games."""
    rounds = sum(g["rounds"] for g in games)
    decided = [g for g in games if g["lead"] > 0]
    traded = [g for g in games if g["first_trader_won"] is not None]
    return {
        "towers_per_game": _mean([float(g["towers"]) for g in games]),
        "rounds_per_game": _mean([float(g["rounds"]) for g in games]),
        "share_150_bonus": _share(sum(g["end"] == "towers" for g in games), len(games)),
        "rounds_ended_by_tower": _share(sum(g["tower_rounds"] for g in games), rounds),
        "mean_lead": _mean([float(g["lead"]) for g in games]),
        "best_round_lead": _mean([float(g["best_round_lead"]) for g in games]),
        "decided_by_one_round": _share(
            sum(g["best_round_lead"] >= g["lead"] for g in decided), len(decided)
        ),
        "first_trader_win_rate": _share(
            sum(bool(g["first_trader_won"]) for g in traded), len(traded)
        ),
        "nobility_points_per_game": _mean([float(g["nobility_points"]) for g in games]),
        "redeals_per_game": _mean([float(g["redeals"]) for g in games]),
        "raids_per_game": _mean([float(g["raids"]) for g in games]),
    }


def comparison(rows: Rows) -> tuple[Table, dict[str, dict[str, Interval]]]:
    """One line per configuration: every measure with its 95% interval."""
    lines: list[tuple[Cell, ...]] = []
    found: dict[str, dict[str, Interval]] = {}
    for name, games in _by_variant(rows, treated=False).items():
        v = VARIANTS[name]
        found[name] = m = measures(games)
        cells: list[Cell] = [words(name), name, v.players, v.note, len(games)]
        cells.append(1 / games[0]["sides"])
        for key in MEASURES:
            cells += m[key]
        cells += [
            m["nobility_points_per_game"][0],
            m["redeals_per_game"][0],
            m["raids_per_game"][0],
        ]
        lines.append(tuple(cells))
    columns = (
        "configuration",
        "variant",
        "players",
        "rules",
        "games",
        "fair_win_rate",
        *(c for k in MEASURES for c in (k, f"{k}_low", f"{k}_high")),
        "nobility_points_per_game",
        "redeals_per_game",
        "raids_per_game",
    )
    return Table(
        "options",
        "Configurations side by side (95% intervals)",
        columns,
        lines,
        note="lead: the winner's final score (a pair's, in team play) minus the runner-up's. "
        "best_round_lead: the winner's largest lead over the runner-up in a single round (the "
        "150 counted with the round of the third tower). decided_by_one_round: games whose "
        "winner would not be ahead without that one round. first_trader_win_rate: games won by "
        "the seat that declared the first trade, against fair_win_rate. Intervals: normal for "
        "means, Wilson for shares (rounds_ended_by_tower pools rounds, so its interval is a "
        "little narrow). Mixes (raider, builder) are listed as configurations too.",
        hidden=("variant", "rules"),
    ), found


def changes(found: dict[str, dict[str, Interval]]) -> Table:
    """Each variant with rule options against today's rules at the same table size."""
    lines: list[tuple[Cell, ...]] = []
    for name, m in found.items():
        v = VARIANTS[name]
        base = f"{v.players}p"
        if not v.options or v.bots or base not in found:
            continue
        for key in CHANGED:
            new, old = m[key], found[base][key]
            half = math.hypot(new[2] - new[0], old[2] - old[0])  # independent samples
            lines.append((words(name), name, base, key, old[0], new[0], new[0] - old[0], half))
    return Table(
        "changes",
        "Rule options against today's rules (same table size)",
        (
            "configuration",
            "variant",
            "baseline",
            "measure",
            "baseline_value",
            "variant_value",
            "difference",
            "ci_half_width",
        ),
        lines,
        note="difference: variant minus baseline (today's rules at the same table size); its "
        "interval from the two (independent) intervals' upper halves.",
        hidden=("variant", "baseline"),
    )


def mixes(rows: Rows) -> Table:
    """Bots of different styles at one table: margin and win rate of each."""
    per: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    for name, games in _by_variant(rows, treated=False).items():
        if not VARIANTS[name].bots:
            continue
        for g in games:
            for seat, bot in enumerate(g["bots"]):
                per[name, bot].append((g["margins"][seat], seat in g["winners"]))
    lines: list[tuple[Cell, ...]] = []
    for (name, bot), seats in per.items():
        mean, lo, hi = _mean([m for m, _ in seats])
        wins = sum(w for _, w in seats)
        lines.append((words(name), name, bot, len(seats), mean, lo, hi, *_share(wins, len(seats))))
    return Table(
        "mixes",
        "Raiding against building: bots of one style each at one table",
        (
            "configuration",
            "variant",
            "bot",
            "seat_games",
            "mean_margin",
            "mean_margin_low",
            "mean_margin_high",
            "win_rate",
            "win_rate_low",
            "win_rate_high",
        ),
        lines,
        note="raider: the heuristic that never starts or adds to a tower and raids "
        "whenever a raid is not plainly a loss; builder: the heuristic that never "
        "raids. Seats rotate every game. Margin: own score minus the opponent's.",
        hidden=("variant",),
    )


def worth(rows: Rows) -> Table:
    """Paired games: the worth to one seat of an extra joker, of redeals, of its nobility."""
    lines: list[tuple[Cell, ...]] = []
    for name, pairs in _by_variant(rows, treated=True).items():
        sign = 1.0 if pairs[0]["treat"] == "extra-joker" else -1.0
        diffs = [sign * (p["treated"] - p["control"]) for p in pairs]
        mean, lo, hi = _mean(diffs)
        wins = [sign * (p["won"][1] - p["won"][0]) for p in pairs]
        win_mean, _, _ = _mean(wins)
        touched = sum(not p["same"] for p in pairs)
        replaced = [float(p["replaced"]) for p in pairs if "replaced" in p]
        lines.append(
            (
                words(name),
                name,
                pairs[0]["treat"],
                VARIANTS[name].players,
                len(pairs),
                touched / len(pairs),
                sum(p["redeals"] for p in pairs) / len(pairs),
                mean,
                lo,
                hi,
                win_mean,
                sum(replaced) / len(replaced) if replaced else None,
            )
        )
    return Table(
        "worth",
        "What a joker, redeals and the nobility are worth to a seat (paired)",
        (
            "configuration",
            "variant",
            "treatment",
            "players",
            "pairs",
            "share_changed",
            "redeals_per_game",
            "worth",
            "worth_low",
            "worth_high",
            "win_rate_change",
            "replaced_card_points",
        ),
        lines,
        note="Each pair: the same deal and random stream, once as dealt and once with "
        "the treatment for one seat (rotating). worth, in points of that seat's final "
        "margin: extra-joker = treated - control (a joker in the first hand instead "
        "of a random card of it, whose mean points are replaced_card_points); "
        "no-redeals, no-nobility-redeals = control - treated (what being able to "
        "redeal is worth). share_changed: pairs whose games differ at all; "
        "redeals_per_game: the seat's redeals of that kind in the control games.",
        hidden=("variant", "treatment"),
    )


def analyse(config: StudyConfig, rows: Rows) -> Section:
    """The section of the report for ``towers-options``."""
    section = Section("Three Towers: rule options, proposed changes, styles and worth")
    stalled = sum(row.get("end") == "stalled" for _, row in rows)
    section.intro.append(
        f"{len(rows)} games or pairs over {len(config.variants)} variants by the heuristic bots "
        f"({stalled} stopped by the move cap). Proposed rule options (docs/three-towers-"
        "readings.md): R28 nobility_points (each warrior in a nobility at the count scores "
        "N), R29 tower_goal (the goods a tower needs, 30 today), R30 joker_points (each joker "
        "in a store scores N), R31 hand_size (7 today), R32 spade_jack_defends (a ♠ jack "
        "repels as a jack), R33 give_any (without an answer of the suit, any two cards but "
        "jokers), R34 spade_jack_raids (a ♠ jack raids as a jack; with R32), R35 decks (a "
        "third deck: 162 cards, 6 jokers). The bots do not change their "
        "play for R28 (they value warriors only as defenders), so its numbers are what the "
        "change does to players who ignore it: a floor on its effect."
    )
    table, found = comparison(rows)
    section.tables += [table, changes(found), mixes(rows), worth(rows)]
    # One figure per table size, each with a line at today's rules for that size.
    for players in sorted({int(num(r[table.columns.index("players")])) for r in table.rows}):
        part = replace(table, rows=table.where(players=players))
        section.figures.append(
            panels.forest(
                f"towers-options-{players}p",
                f"{players} players: what do the rule options and bot styles change? Each "
                "configuration with its 95% interval",
                part,
                "configuration",
                OPTION_PANELS,
                label_axis="rule set or bot style",
                reference=words(f"{players}p"),
            )
        )
    w = section.tables[-1]
    if w.rows:
        section.figures.append(
            panels.forest(
                "towers-worth",
                "What are an extra joker, redeals and the nobility worth to a seat? Paired games",
                w,
                "configuration",
                (
                    panels.Measure(
                        "worth",
                        "Worth to the treated seat",
                        "points of its final margin (0: worth nothing)",
                    ),
                ),
                label_axis="treatment (paired games)",
            )
        )
    for name, m in found.items():
        section.facts[f"{name} towers/game"] = round(m["towers_per_game"][0], 2)
    return section
