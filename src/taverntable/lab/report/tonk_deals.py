"""Study ``tonk-deal-wins``, the analysis: exact and simulated probabilities side by side."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from taverntable.games.tonk import rules_from
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.stats import wilson
from taverntable.lab.core.store import Row
from taverntable.lab.studies.tonk_exact import (
    ALL_HANDS,
    EVENTS,
    deal_win_probabilities,
    single_hand_counts,
)

from . import plots
from .tables import Cell, Figure, Section, Table, num

# Events rarer than this (two Tőr hands in one deal, about 1e-7) would flatten the plot; the
# tables keep them.
PLOT_FLOOR = 1e-4

COLUMNS = (
    "preset",
    "players",
    "event",
    "exact",
    "simulated",
    "ci_low",
    "ci_high",
    "deals",
    "hits",
    "inside_ci",
)


def comparison(config: StudyConfig, rows: Sequence[tuple[int, Row]]) -> Table:
    """One line per preset, players and way to end on the deal: exact, simulated, 95% CI."""
    deals: Counter[tuple[str, int]] = Counter()
    ends: Counter[tuple[str, int, str]] = Counter()
    for _, row in rows:
        deals[row["preset"], row["players"]] += 1
        ends[row["preset"], row["players"], row["end"]] += 1
    lines: list[tuple[Cell, ...]] = []
    for preset, players in config.cells():
        rules = rules_from(preset, **config.options)
        exact = deal_win_probabilities(rules, players)
        n = deals[preset, players]
        for event, _ in EVENTS[rules.deal_wins]:
            hits = ends[preset, players, event]
            lo, hi = wilson(hits, n)
            p = float(exact[event])
            lines.append(
                (
                    preset,
                    players,
                    event,
                    p,
                    hits / n if n else None,
                    lo,
                    hi,
                    n,
                    hits,
                    int(lo <= p <= hi) if n else None,
                )
            )
    return Table(
        "deal-wins",
        "Wins on the deal: exact probability and simulated frequency",
        COLUMNS,
        lines,
        note="ci_low/ci_high: 95% Wilson interval of the simulated frequency.",
    )


def fractions(config: StudyConfig) -> Table:
    """The exact probabilities as fractions (CSV only: the denominators are long)."""
    lines: list[tuple[Cell, ...]] = []
    for preset, players in config.cells():
        rules = rules_from(preset, **config.options)
        for event, value in deal_win_probabilities(rules, players).items():
            lines.append((preset, players, event, str(value)))
    return Table(
        "deal-wins-exact-fractions",
        "Exact probabilities as fractions",
        ("preset", "players", "event", "probability"),
        lines,
    )


def analyse(config: StudyConfig, rows: Sequence[tuple[int, Row]]) -> Section:
    """The section of the report for ``tonk-deal-wins``."""
    table = comparison(config, rows)
    section = Section("Wins on the deal (T4): exact and simulated")
    inside = [int(num(r[-1])) for r in table.rows if r[-1] is not None]
    section.intro.append(
        "Exact: counted from the deck with integer arithmetic (hands by composition; the "
        "dependence between the players' hands handled exactly by counting tuples of disjoint "
        "hands and inclusion–exclusion). Simulated: deals by the engine, read off its result. "
        f"{sum(inside)} of {len(inside)} exact values lie inside the simulated 95% interval "
        "(about 95% are expected to)."
    )
    for preset in config.presets:
        rules = rules_from(preset, **config.options)
        counts = single_hand_counts(rules)
        section.intro.append(
            f"{preset}: of the {ALL_HANDS:,} hands, {counts['low']:,} total 15 or less "
            f"({counts['low'] / ALL_HANDS:.3%}), {counts['fifty']:,} total 49 or 50 "
            f"({counts['fifty'] / ALL_HANDS:.3%}), {counts['royal']:,} are J/Q/K only "
            f"({counts['royal'] / ALL_HANDS:.4%})."
        )
    section.tables += [table, fractions(config)]
    for preset in config.presets:
        figure = deal_wins_figure(preset, config, table)
        if figure is not None:
            section.figures.append(figure)
    section.facts["inside_ci"] = f"{sum(inside)}/{len(inside)}"
    return section


def deal_wins_figure(preset: str, config: StudyConfig, table: Table) -> Figure | None:
    """The simulated frequency of each way to end on the deal, its interval and the exact
    probability, by players; events rarer than ``PLOT_FLOOR`` are left out, and the plot says
    which (the tables keep them)."""
    rules = rules_from(preset, **config.options)
    described = dict(EVENTS[rules.deal_wins])
    rows = [r for r in table.where(preset=preset) if r[4] is not None]
    shown = [r for r in rows if num(r[3]) >= PLOT_FLOOR]
    notes = []
    for event, text in described.items():
        cut = [str(r[1]) for r in rows if r[2] == event and num(r[3]) < PLOT_FLOOR]
        if cut:
            where = (
                "at every table size"
                if len(cut) == sum(r[2] == event for r in rows)
                else (f"at {', '.join(cut)} players")
            )
            notes.append(
                f"Not drawn: {text}, {where}: its exact probability is below "
                f"{PLOT_FLOOR:g} (the table and deal-wins.csv hold it)."
            )
    if not shown:
        return None
    # A slice of the "deal-wins" table: the figure's numbers are in that table's CSV.
    sub = Table("deal-wins", f"{preset}: wins on the deal by players", COLUMNS, shown)
    return plots.lines(
        f"deal-wins-{preset}",
        f"{preset}: how often does the deal end before anyone plays (T4)? Simulated against exact",
        sub,
        "players",
        "simulated",
        group="event",
        series=lambda e: described.get(str(e), str(e)),
        drawn="simulated",
        band=("ci_low", "ci_high"),
        extra=("exact", "exact probability"),
        xlabel="players at the table",
        ylabel="share of deals",
        notes=notes,
    )
