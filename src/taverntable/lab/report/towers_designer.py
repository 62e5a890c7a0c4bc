"""Study ``designer``, the analysis: one part per play-testers' point, each with its table and
plot, and the figures the answer letter is written from (``letter``).

Every figure the letter quotes is an ``Estimate`` in ``section.facts["answers"]``: its value,
95% interval, sample size and the part it links to. The parts' tables hold the same numbers.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.bots.three_towers.styles import STYLES
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.stats import mean_ci, wilson
from taverntable.lab.core.store import Row
from taverntable.lab.studies.towers_designer import VARIANTS

from . import panels
from .tables import Cell, Section, Table

Rows = Sequence[tuple[int, Row]]
BASE = "2p"  # today's rules, two players: the play-testers' table
HARD = "2p-hard"
POINTS = (
    "Three towers seem out of reach",
    "Is the nobility good only for redeals?",
    "Spade figures pile up; Warlock attacks too risky",
    "Jokers are worth nothing at the count",
    "Raiding beats building",
    "Too few cards: the game is short and one combination decides it",
    "A failed answer forces aces and warriors out",
)
SLUGS = ("towers", "nobility", "spades", "jokers", "styles", "length", "answers")
# The rule option proposed for each point (readings R30-R37), read beside today's rules in the
# point's table: ♠ jacks that defend (R32) and raid (R34) for point 3, jokers that score (R30)
# for 4, larger hands (R31), a third deck (R35) and a cap on a round's points (R36) or on its
# lead (R37) for 6, giving any two cards (R33) for 7.
OPTION_VARIANTS: dict[str, tuple[str, ...]] = {
    "spades": ("2p-spade-jacks-defend", "2p-spade-jacks-fight"),
    "jokers": ("2p-joker-points-10",),
    "length": ("2p-hand-10", "2p-three-decks", "2p-round-cap-60", "2p-lead-cap-60"),
    "answers": ("2p-give-any",),
}


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% interval and sample size (``n`` of ``unit``)."""

    value: float
    low: float
    high: float
    n: int
    unit: str

    @property
    def known(self) -> bool:
        return self.n > 0 and math.isfinite(self.value)


NONE = Estimate(math.nan, -math.inf, math.inf, 0, "games")


def mean_of(xs: Sequence[float], unit: str) -> Estimate:
    if not xs:
        return Estimate(math.nan, -math.inf, math.inf, 0, unit)
    m, half = mean_ci(xs)
    return Estimate(m, m - half, m + half, len(xs), unit)


def share_of(k: int, n: int, unit: str) -> Estimate:
    lo, hi = wilson(k, n)
    return Estimate(k / n if n else math.nan, lo, hi, n, unit)


def ratio_of(tops: Sequence[float], bottoms: Sequence[float], unit: str) -> Estimate:
    """A ratio of sums over games (e.g. turns waiting per turn), its interval by the delta
    method over the games (a game is the independent unit)."""
    n, top, bottom = len(tops), sum(tops), sum(bottoms)
    if n < 2 or bottom <= 0:
        return Estimate(top / bottom if bottom else math.nan, -math.inf, math.inf, n, unit)
    r = top / bottom
    mb = bottom / n
    var = sum((t - r * b) ** 2 for t, b in zip(tops, bottoms, strict=True)) / (n - 1)
    half = 1.959964 * math.sqrt(var / n) / mb
    return Estimate(r, r - half, r + half, n, unit)


def by_variant(rows: Rows) -> dict[str, list[Row]]:
    """The finished games of each variant, in the variant table's order."""
    out: dict[str, list[Row]] = defaultdict(list)
    for _, row in rows:
        if row.get("end") in ("stalled", "skipped") or row.get("variant") not in VARIANTS:
            continue
        out[row["variant"]].append(row)
    return {k: out[k] for k in VARIANTS if out.get(k)}


def words(name: str) -> str:
    """A variant in words (the table's note), never its code."""
    v = VARIANTS.get(name)
    return v.note if v else name


def bot_words(bot: str) -> str:
    """``ismcts:style=raider`` → "hard raider"; ``mixed`` → "mixed (mostly raids)"."""
    hard = bot.startswith(("ismcts", "hard"))
    style = bot.partition("style=")[2] or (bot if bot in STYLES else "")
    base = "hard" if hard else "heuristic"
    if not style:
        return f"{base} bot"
    return f"{'hard ' if hard else ''}{style} ({STYLES[style].words})"


# --- the seven points ---------------------------------------------------------------------


def _towers(games: list[Row]) -> dict[str, Estimate]:
    built = [t for g in games for t in g["towers_built"]]
    return {
        "third_tower": share_of(sum(g["end"] == "towers" for g in games), len(games), "games"),
        "rounds": mean_of([float(g["rounds"]) for g in games], "games"),
        "tower_turns": mean_of([float(t[0]) for t in built], "towers"),
        "round_turns": mean_of([float(t[1]) for t in built], "towers"),
        "waiting": ratio_of(
            [float(sum(g["waiting_turns"])) for g in games],
            [float(sum(g["towerless_turns"])) for g in games],
            "games",
        ),
        "building_turns": ratio_of(
            [float(sum(g["turn_kinds"]["build"]) + sum(g["turn_kinds"]["add"])) for g in games],
            [float(sum(g["turns"])) for g in games],
            "games",
        ),
        "raid_turns": ratio_of(
            [float(sum(g["turn_kinds"]["raid"])) for g in games],
            [float(sum(g["turns"])) for g in games],
            "games",
        ),
    }


def _length(games: list[Row]) -> dict[str, Estimate]:
    decided = [g for g in games if g["lead"] > 0]
    return {
        "turns": mean_of([float(sum(g["turns"])) for g in games], "games"),
        "turns_per_round": mean_of([float(t) for g in games for t in g["round_turns"]], "rounds"),
        "rounds": mean_of([float(g["rounds"]) for g in games], "games"),
        "one_round": share_of(
            sum(g["best_round_lead"] >= g["lead"] for g in decided), len(decided), "games"
        ),
    }


def _spades(games: list[Row]) -> dict[str, Estimate]:
    routes: Counter[str] = Counter()
    for g in games:
        for counts in g["figure_routes"].values():
            routes.update(counts)
    total = sum(routes.values())
    warlock = [c for g in games for c in g["curses"] if c[0] == "warlock"]
    through = sum(bool(c[1]) for c in warlock)
    start, later = _held(games, 0), _held(games, 15)
    return {
        "held_start": start,
        "held_later": later,
        "to_count": share_of(routes["held to the count"], total, "figures"),
        "cursed_away": share_of(routes["curse, other"], total, "figures"),
        "warlock_through": share_of(through, len(warlock), "Warlock curses"),
        # Kept in hand it would have cost its owner its 40 (R2): the gain over keeping it.
        "warlock_gain": mean_of([float(c[2]) + 40.0 for c in warlock], "Warlock curses"),
        "warlock_per_game": mean_of(
            [float(sum(c[0] == "warlock" for c in g["curses"])) for g in games], "games"
        ),
        "spade_points": mean_of(
            [float(sum(g["spade_points"])) / g["players"] for g in games], "games"
        ),
    }


def _held(games: list[Row], turn: int) -> Estimate:
    """♠ figures in a hand at a round's ``turn``-th turn (over the rounds that reached it)."""
    values = []
    for g in games:
        sums, rounds = g["figures_held"]
        if turn < len(sums) and rounds[turn]:
            values.append(sums[turn] / rounds[turn])
    return mean_of(values, "games")


def _jokers(games: list[Row]) -> dict[str, Estimate]:
    left = [k for g in games for k in g["jokers_left"]]
    return {
        "left": mean_of([float(k) for k in left], "rounds"),
        "some_left": share_of(sum(k > 0 for k in left), len(left), "rounds"),
    }


def _answers(games: list[Row]) -> dict[str, Estimate]:
    a: Counter[str] = Counter()
    for g in games:
        a.update(g["answers"])
    dear = a["pair_ace"] + a["pair_warrior"]  # an answer with both counts in both
    return {
        "pair_share": share_of(a["pair"], a["pair"] + a["suit"] + a["joker"], "answers"),
        "pair_dear": share_of(min(dear, a["pair"]), a["pair"], "two-card answers"),
        "pair_ace": share_of(a["pair_ace"], a["pair"], "two-card answers"),
        "pair_forced": share_of(a["pair_forced"], a["pair"], "two-card answers"),
        "ace_points": mean_of(
            [float(g["answers"].get("pair_ace_points", 0)) for g in games], "games"
        ),
        "warriors": mean_of([float(g["answers"].get("pair_warriors", 0)) for g in games], "games"),
        "fails": mean_of([float(g["answers"].get("fail", 0)) for g in games], "games"),
    }


def head_to_head(found: dict[str, list[Row]]) -> tuple[Table, dict[str, dict[str, Estimate]]]:
    """Each pairing of styles at two players: each bot's win rate and margin (by variant, then
    by the bot's name as the variant names it)."""
    lines: list[tuple[Cell, ...]] = []
    rates: dict[str, dict[str, Estimate]] = {}
    for name, games in found.items():
        v = VARIANTS[name]
        if len(set(v.bots)) < 2:
            continue
        rates[name] = {}
        for bot, other in (v.bots, v.bots[::-1]):
            margins, wins, spades_out = [], 0, []
            for g in games:
                for seat, at in enumerate(g["bots"]):
                    if at == bot:
                        margins.append(float(g["margins"][seat]))
                        wins += seat in g["winners"] and len(g["winners"]) == 1
                    else:
                        spades_out.append(float(g["spades_out"][seat]))
            rate = share_of(wins, len(margins), "games")
            margin = mean_of(margins, "games")
            out = mean_of(spades_out, "games")
            rates[name][bot] = rate
            lines.append(
                (
                    words(name),
                    bot_words(bot),
                    bot_words(other),
                    len(games),
                    rate.value,
                    rate.low,
                    rate.high,
                    margin.value,
                    margin.low,
                    margin.high,
                    out.value,
                )
            )
    return (
        Table(
            "styles",
            "Styles head to head, two players: each bot's wins and margin",
            (
                "configuration",
                "bot",
                "against",
                "games",
                "win_rate",
                "win_rate_low",
                "win_rate_high",
                "margin",
                "margin_low",
                "margin_high",
                "spades_out_by_the_other",
            ),
            lines,
            note="Seats rotate every game. win_rate: games the bot won outright (a tie counts "
            "for neither); margin: its score minus the other's; spades_out_by_the_other: spade "
            "cards the other bot put out of its hand (trades, curses, redeals) in a game.",
        ),
        rates,
    )


POINT_MEASURES: tuple[Callable[[list[Row]], dict[str, Estimate]], ...] = (
    _towers,
    lambda games: {},  # the nobility is read from its variants (``nobility``)
    _spades,
    _jokers,
    lambda games: {},  # the styles are read from their variants (``head_to_head``)
    _length,
    _answers,
)


def nobility(found: dict[str, list[Row]]) -> dict[str, Estimate]:
    """The bot that keeps its nobility: its margin and wins against the plain heuristic."""
    out: dict[str, Estimate] = {}
    for key, name in (
        ("today", "2p-noble-vs-heuristic"),
        ("r28", "2p-nobility-5-noble-vs-heuristic"),
    ):
        margins, wins = [], 0
        for g in found.get(name, []):
            seat = g["bots"].index("noble")
            margins.append(float(g["margins"][seat]))
            wins += seat in g["winners"] and len(g["winners"]) == 1
        out[f"{key}_margin"] = mean_of(margins, "games")
        out[f"{key}_wins"] = share_of(wins, len(margins), "games")
        out[f"{key}_nobility_points"] = mean_of(
            [float(g["nobility_points"]) for g in found.get(name, [])], "games"
        )
    base = found.get(BASE, [])
    out["redeals"] = mean_of([float(g["redeals"]) for g in base], "games")
    return out


# --- tables and the section -----------------------------------------------------------------


def estimates_table(
    name: str, title: str, rows: dict[str, dict[str, Estimate]], note: str
) -> Table:
    """One line per (configuration, measure): value, interval, sample."""
    lines: list[tuple[Cell, ...]] = []
    for who, found in rows.items():
        for key, e in found.items():
            lines.append((who, MEASURE_WORDS.get(key, key), e.value, e.low, e.high, e.n, e.unit))
    return Table(
        name,
        title,
        ("configuration", "measure", "value", "low", "high", "n", "of"),
        lines,
        note=note,
    )


MEASURE_WORDS = {
    "third_tower": "share of games ended by a third tower",
    "rounds": "rounds per game",
    "tower_turns": "builder's turns from starting a tower to finishing it",
    "round_turns": "turns of the round (all seats) a finished tower took",
    "waiting": "share of towerless turns with no ♥♦♣ ace in hand",
    "building_turns": "share of turns spent building",
    "raid_turns": "share of turns spent raiding",
    "turns": "turns per game (all seats)",
    "turns_per_round": "turns per round",
    "one_round": "share of decided games one round decided",
    "held_start": "♠ figures in a hand at a round's first turn",
    "held_later": "♠ figures in a hand at a round's 16th turn",
    "to_count": "share of ♠ figures held to the count (into own store)",
    "cursed_away": "share of ♠ figures cursed into an opponent's store",
    "warlock_through": "share of Warlock curses that go through",
    "warlock_gain": "a Warlock curse's gain over keeping it (margin points)",
    "warlock_per_game": "Warlock curses per game",
    "spade_points": "♠ points per seat and game",
    "left": "jokers left in the hands at a round's end",
    "some_left": "share of rounds ending with a joker in some hand",
    "pair_share": "share of answers that are two cards (R5 c)",
    "pair_dear": "share of two-card answers giving an ace or a warrior",
    "pair_ace": "share of two-card answers giving an ace",
    "pair_forced": "share of two-card answers where every answer gave an ace or a warrior",
    "ace_points": "ace points given in two-card answers per game",
    "warriors": "warriors given in two-card answers per game",
    "fails": "failed answers (R6) per game",
    "today_margin": "margin of the noble bot, today's rules",
    "today_wins": "win rate of the noble bot, today's rules",
    "today_nobility_points": "R28 points per game, today's rules",
    "r28_margin": "margin of the noble bot, R28 at 5",
    "r28_wins": "win rate of the noble bot, R28 at 5",
    "r28_nobility_points": "R28 points per game, R28 at 5",
    "redeals": "redeals per game (plain heuristic)",
    "win_rate": "win rate",
}


def _by_players_figure(
    key: str,
    title: str,
    measure: Callable[[list[Row]], dict[str, Estimate]],
    found: dict[str, list[Row]],
    keys: Sequence[str],
) -> Any:
    """A forest plot of ``keys`` for today's rules at 2, 3 and 4 players and the hard bot: one
    panel per measure, a line at the heuristic's two-player value."""
    names = [n for n in ("2p", "3p", "4p", HARD) if n in found]
    if not names:
        return None
    lines = []
    for n in names:
        m = measure(found[n])
        cells: list[Cell] = [words(n)]
        for k in keys:
            cells += [m[k].value, m[k].low, m[k].high]
        lines.append(tuple(cells))
    table = Table(
        f"{key}-by-table",
        title,
        ("configuration", *(c for k in keys for c in (k, f"{k}_low", f"{k}_high"))),
        lines,
    )
    figure = panels.forest(
        key,
        title,
        table,
        "configuration",
        [panels.Measure(k, MEASURE_WORDS[k], MEASURE_WORDS[k]) for k in keys],
        label_axis="table",
        reference=words(BASE),
        reference_words="2 players, today's rules",
    )
    return table, figure


def analyse(config: StudyConfig, rows: Rows) -> Section:
    """The section of the report for ``designer``: one part per point."""
    found = by_variant(rows)
    section = Section("Three Towers: the play-testers' seven points")
    sizes = ", ".join(f"{words(k)}: {len(v):,}" for k, v in found.items())
    section.intro.append(f"Games by configuration: {sizes or 'none yet'}.")
    answers: dict[str, dict[str, dict[str, Estimate]]] = {}
    styles_table, rates = head_to_head(found)
    for k, (title, slug) in enumerate(zip(POINTS, SLUGS, strict=True)):
        part = Section(f"Point {k + 1}: {title}")
        part_rows: dict[str, dict[str, Estimate]] = {}
        if slug == "nobility":
            part_rows[words(BASE)] = nobility(found)
        elif slug == "styles":
            part.tables.append(styles_table)
            part_rows = {
                f"{words(name)}: {bot_words(bot)}": {"win_rate": rate}
                for name, by_bot in rates.items()
                for bot, rate in by_bot.items()
            }
        else:
            for name in ("2p", "3p", "4p", HARD, *OPTION_VARIANTS.get(slug, ())):
                if name in found:
                    part_rows[words(name)] = POINT_MEASURES[k](found[name])
        answers[slug] = part_rows
        if slug != "styles" or part_rows:
            part.tables.append(
                estimates_table(
                    f"point-{k + 1}",
                    f"Point {k + 1}: the figures (95% intervals)",
                    part_rows,
                    "value with its 95% interval (normal for means, Wilson for shares; ratios "
                    "over games by the delta method); n: the sample, of the unit named.",
                )
            )
        keys = _FIGURE_KEYS.get(slug)
        if keys:
            made = _by_players_figure(
                f"point-{k + 1}",
                f"Point {k + 1}: {title} — by table",
                POINT_MEASURES[k],
                found,
                keys,
            )
            if made is not None:
                part.tables.append(made[0])
                part.figures.append(made[1])
        section.parts.append((slug, part))
    section.facts["answers"] = answers
    section.facts["styles"] = rates
    section.facts["games"] = {k: len(v) for k, v in found.items()}
    return section


_FIGURE_KEYS = {
    "towers": ("third_tower", "tower_turns", "waiting", "building_turns"),
    "spades": ("held_start", "held_later", "to_count", "warlock_through"),
    "jokers": ("left", "some_left"),
    "length": ("turns", "turns_per_round", "one_round"),
    "answers": ("pair_dear", "pair_forced", "ace_points"),
}
