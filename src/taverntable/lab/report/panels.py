"""Plots of many comparisons at once: estimates with intervals side by side (``plots`` draws
single charts). A dot marks each estimate, so a value of zero is as visible as any other, and a
line across it is its 95% interval."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .plots import INTERVAL, finish, finite, new_figure, sort_key, style_entries
from .tables import Figure, Table, num

REFERENCE_COLOUR = "#c44e52"  # the line at today's rules in every comparison


@dataclass(frozen=True, slots=True)
class Measure:
    """One panel of ``forest``: the column, the panel's question and its axis label; the interval
    is in the columns ``column_low`` and ``column_high``."""

    column: str
    question: str
    axis: str


def forest(
    name: str,
    title: str,
    table: Table,
    label: str,
    measures: Sequence[Measure],
    *,
    label_axis: str,
    ncols: int = 3,
    notes: Sequence[str] = (),
    reference: str | None = None,
    reference_words: str = "today's rules",
) -> Figure:
    """One panel per measure: a dot per row of the table (named by column ``label``, the
    table's first row on top) with its interval, the names read level down the left side.
    ``reference`` names the row (by its label) every other is compared with: a dashed line at
    its value in every panel, named ``reference_words`` in the legend."""
    names = [str(v) for v in table.column(label)]
    ncols = min(ncols, len(measures))
    nrows = -(-len(measures) // ncols)
    fig, axes = new_figure(
        4.2 * ncols + 1.2, (max(0.24 * len(names), 1.0) + 1.3) * nrows, nrows, ncols, sharey=True
    )
    notes = list(notes)
    ys = list(range(len(names)))
    for k, m in enumerate(measures):
        ax = axes[k // ncols][k % ncols]
        values = [num(v) for v in table.column(m.column)]
        lows = [num(v) for v in table.column(f"{m.column}_low")]
        highs = [num(v) for v in table.column(f"{m.column}_high")]
        shown = [i for i, v in enumerate(values) if finite(v)]
        sure = [i for i in shown if finite(lows[i]) and finite(highs[i])]
        # max: rounding can put an estimate a hair outside its own interval.
        below = [max(0.0, values[i] - lows[i]) for i in sure]
        above = [max(0.0, highs[i] - values[i]) for i in sure]
        ax.errorbar(
            [values[i] for i in sure],
            [ys[i] for i in sure],
            xerr=[below, above],
            fmt="none",
            ecolor="#4c72b0",
            elinewidth=1.5,
            capsize=2,
        )
        ax.plot(
            [values[i] for i in shown], [ys[i] for i in shown], "o", color="#1f3f7a", markersize=4
        )
        for i in range(len(names)):
            if i not in shown:
                ax.text(
                    0.02,
                    i,
                    "no games",
                    transform=ax.get_yaxis_transform(),
                    va="center",
                    fontsize=7,
                    color="#a00",
                )
        unsure = [names[i] for i in shown if i not in sure]
        which = "any row" if len(unsure) == len(names) else ", ".join(unsure)
        if unsure:
            notes.append(
                f"{m.question + ' ' if len(measures) > 1 else ''}No interval (fewer "
                f"than two games) for {which}."
            )
        ax.axvline(0, color="black", linewidth=0.6)
        if reference is not None and reference in names:
            at = values[names.index(reference)]
            if finite(at):
                ax.axvline(at, color=REFERENCE_COLOUR, linestyle="--", linewidth=1.1)
        ax.set_title(m.question, fontsize=9)
        ax.set_xlabel(m.axis, fontsize=9)
        ax.grid(alpha=0.3, axis="x")
        ax.tick_params(labelsize=8)
        if k % ncols == 0:
            ax.set_ylabel(label_axis, fontsize=9)
    axes[0][0].set_yticks(ys, names)
    axes[0][0].invert_yaxis()  # shared: the table's first row on top in every panel
    for k in range(len(measures), nrows * ncols):
        axes[k // ncols][k % ncols].axis("off")
    # Beside the panels, never over a point.
    entries = [
        ("dot: estimate", {"color": "#1f3f7a", "marker": "o", "linestyle": "none"}),
        (f"line: {INTERVAL}", {"color": "#4c72b0"}),
    ]
    if reference is not None:
        entries.append(
            (f"dashed: {reference_words}", {"color": REFERENCE_COLOUR, "linestyle": "--"})
        )
    fig.legend(handles=style_entries(*entries), fontsize=8, loc="outside right center")
    return finish(name, title, table, fig, notes)


def panel_points(
    name: str,
    title: str,
    table: Table,
    panel: str,
    x: str,
    y: str,
    half: str,
    *,
    panel_title: str,
    xlabel: str,
    ylabel: str,
    ncols: int = 3,
    notes: Sequence[str] = (),
) -> Figure:
    """One small panel per value of ``panel`` (``panel_title`` formats it): ``y`` against ``x``
    as dots with error bars of half-width ``half``, all panels on one scale."""
    jp, jx, jy, jh = (table.columns.index(c) for c in (panel, x, y, half))
    keys = sorted({r[jp] for r in table.rows}, key=sort_key)
    ncols = min(ncols, len(keys))
    nrows = -(-len(keys) // ncols)
    fig, axes = new_figure(3.4 * ncols + 0.6, 2.6 * nrows + 0.8, nrows, ncols, sharey=True)
    notes = list(notes)
    for k, key in enumerate(keys):
        ax = axes[k // ncols][k % ncols]
        rows = [r for r in table.rows if r[jp] == key and finite(r[jy])]
        sure = [r for r in rows if finite(r[jh])]
        ax.errorbar(
            [num(r[jx]) for r in sure],
            [num(r[jy]) for r in sure],
            yerr=[num(r[jh]) for r in sure],
            fmt="o",
            color="#1f3f7a",
            ecolor="#4c72b0",
            markersize=4,
            capsize=2,
        )
        unsure = [r for r in rows if not finite(r[jh])]
        if unsure:
            ax.plot(
                [num(r[jx]) for r in unsure],
                [num(r[jy]) for r in unsure],
                "o",
                mfc="none",
                color="#1f3f7a",
                markersize=4,
            )
            notes.append(
                f"{panel_title.format(key)}: no interval at {x} "
                f"{', '.join(str(r[jx]) for r in unsure)} (fewer than two games; "
                "open dots)."
            )
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_title(panel_title.format(key), fontsize=9)
        ax.set_xticks(sorted({int(num(r[jx])) for r in rows}))
        ax.tick_params(labelsize=8)
        ax.grid(alpha=0.3)
        if k // ncols == nrows - 1 or k + ncols >= len(keys):
            ax.set_xlabel(xlabel, fontsize=9)
        if k % ncols == 0:
            ax.set_ylabel(ylabel, fontsize=9)
    for k in range(len(keys), nrows * ncols):
        axes[k // ncols][k % ncols].axis("off")
    fig.legend(
        handles=style_entries(
            ("dot: mean", {"color": "#1f3f7a", "marker": "o", "linestyle": "none"}),
            (f"bar: {INTERVAL}", {"color": "#4c72b0"}),
        ),
        fontsize=8,
        loc="outside right center",
    )
    return finish(name, title, table, fig, notes)
