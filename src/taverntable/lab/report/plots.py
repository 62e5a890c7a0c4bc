"""Plots for the report, drawn with matplotlib's Agg canvas (no display needed) from tables.

Every figure is drawn from one ``Table``, whose CSV the report writes too: a reader can check or
re-plot every point. Every figure answers one question, asked in its title; labels its axes in
words; draws the uncertainty of what it shows (bands or error bars, named in the legend); and
says under the plot what it leaves out, so that no series is cut without a word. Each figure
keeps its matplotlib figure (``Figure.drawing``), so tests can check what it holds.

Figures are built with ``matplotlib.figure.Figure``, not pyplot: no global state to close, and
nothing kept alive by a registry once the report is written.
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from taverntable.extras import install_hint
from taverntable.lab.core.config import LabError

from .tables import Cell, Figure, Table, num

INTERVAL = "95% interval"
NOTE_WIDTH = 110  # characters per line of a note under a plot
TITLE_WIDTH = 70
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h")

Namer = Callable[[Cell], str]


def new_figure(
    width: float, height: float, nrows: int = 1, ncols: int = 1, **subplots: Any
) -> tuple[Any, Any]:
    """A figure on an Agg canvas and its grid of axes (always 2-D)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure as MplFigure
    except ImportError:
        raise LabError(f"the report draws with matplotlib: {install_hint('lab')}") from None
    fig = MplFigure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, squeeze=False, **subplots)


def finish(name: str, title: str, table: Table, fig: Any, notes: Sequence[str] = ()) -> Figure:
    """Title the figure with its question, write the notes under it, and render it as PNG."""
    fig.suptitle("\n".join(textwrap.wrap(title, TITLE_WIDTH)), fontsize=11)
    text = "\n".join(line for note in notes for line in textwrap.wrap(note, NOTE_WIDTH))
    if text:
        # The figure's bottom line: the constrained layout makes room for it (drawing once,
        # where a "tight" bounding box would draw twice).
        fig.supxlabel(text, x=0.01, ha="left", fontsize=8, color="#444")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    return Figure(name, title, buf.getvalue(), table.name, drawing=fig)


def groups(table: Table, group: str | None) -> dict[Cell, list[Sequence[Cell]]]:
    """The rows by the value of column ``group`` (all rows under None without one)."""
    if group is None:
        return {None: list(table.rows)}
    j = table.columns.index(group)
    out: dict[Cell, list[Sequence[Cell]]] = {}
    for row in table.rows:
        out.setdefault(row[j], []).append(row)
    return out


def finite(v: Cell) -> bool:
    return isinstance(v, int | float) and math.isfinite(v)


def categories(table: Table, column: str) -> list[Cell]:
    """The distinct values of a column: numbers in order, words in the table's order (which the
    analysis chose: sources as the rules list them, actions as a game goes)."""
    j = table.columns.index(column)
    values = list(dict.fromkeys(r[j] for r in table.rows))
    return sorted(values, key=sort_key) if all(finite(v) for v in values) else values


def sort_key(v: Cell) -> tuple[int, float, str]:
    return (0, float(v), "") if isinstance(v, int | float) else (1, 0.0, str(v))


def style_entries(*entries: tuple[str, dict[str, Any]]) -> list[Any]:
    """Legend entries for how things are drawn (a band, a dashed line) rather than for a series:
    ``(label, Line2D keyword arguments)``, or a patch when the keywords hold ``patch``."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    out: list[Any] = []
    for label, kw in entries:
        if kw.pop("patch", False):
            out.append(Patch(label=label, **kw))
        else:
            out.append(Line2D([], [], label=label, **kw))
    return out


def lines(
    name: str,
    title: str,
    table: Table,
    x: str,
    y: str,
    *,
    xlabel: str,
    ylabel: str,
    group: str | None = None,
    series: Namer = str,
    drawn: str = "",
    band: tuple[str, str] | None = None,
    extra: tuple[str, str] | None = None,
    notes: Sequence[str] = (),
) -> Figure:
    """One solid line of ``y`` against ``x`` per value of ``group`` (named by ``series``), its
    interval as a shaded band (columns ``band``), and an optional second series ``extra``
    (column, what it is) dashed in the same colour. ``drawn`` says what the solid lines are."""
    fig, axes = new_figure(7, 4.2)
    ax = axes[0][0]
    jx, jy = table.columns.index(x), table.columns.index(y)
    notes = list(notes)
    missing = no_band = 0
    lone = False
    for k, (key, rows) in enumerate(groups(table, group).items()):
        kept = [r for r in rows if finite(r[jx]) and finite(r[jy])]
        missing += len(rows) - len(kept)
        xs = [num(r[jx]) for r in kept]
        (line,) = ax.plot(
            xs,
            [num(r[jy]) for r in kept],
            marker=MARKERS[k % len(MARKERS)],
            label=series(key) if group else drawn,
            linewidth=1.4,
            markersize=4,
        )
        if band is not None:
            lo, hi = table.columns.index(band[0]), table.columns.index(band[1])
            inside = [r for r in kept if finite(r[lo]) and finite(r[hi])]
            no_band += len(kept) - len(inside)
            ax.fill_between(
                [num(r[jx]) for r in inside],
                [num(r[lo]) for r in inside],
                [num(r[hi]) for r in inside],
                color=line.get_color(),
                alpha=0.15,
                linewidth=0,
            )
            if len(inside) == 1:  # a band one point wide is no band: the interval as a bar
                (r,) = inside
                lone = True
                ax.errorbar(
                    [num(r[jx])],
                    [num(r[jy])],
                    color=line.get_color(),
                    capsize=3,
                    yerr=[[num(r[jy]) - num(r[lo])], [num(r[hi]) - num(r[jy])]],
                )
        if extra is not None:
            je = table.columns.index(extra[0])
            ax.plot(
                xs,
                [num(r[je]) for r in kept],
                linestyle="--",
                color=line.get_color(),
                linewidth=1.1,
            )
    if missing:
        notes.append(f"Not drawn: {missing} of the table's points, which have no value.")
    if no_band:
        notes.append(f"No interval at {no_band} of the points (fewer than two games).")
    styles: list[tuple[str, dict[str, Any]]] = []
    if group and drawn:
        styles.append((f"solid: {drawn}", {"color": "grey", "marker": "o"}))
    if extra is not None:
        styles.append((f"dashed: {extra[1]}", {"color": "grey", "linestyle": "--"}))
    if band is not None:
        shaded = "shaded (a bar at a lone point)" if lone else "shaded"
        styles.append((f"{shaded}: {INTERVAL}", {"patch": True, "color": "grey", "alpha": 0.3}))
    handles, _ = ax.get_legend_handles_labels()
    # Beside the plot, never over a line or a band.
    fig.legend(handles=handles + style_entries(*styles), fontsize=8, loc="outside right center")
    xs = sorted({v for v in table.column(x) if isinstance(v, int)})
    if xs and len(xs) == len(set(table.column(x))):  # players, totals: whole numbers only
        from matplotlib.ticker import MaxNLocator

        if len(xs) <= 12:
            ax.set_xticks(xs)
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    return finish(name, title, table, fig, notes)


def heatmap(
    name: str,
    title: str,
    table: Table,
    x: str,
    y: str,
    value: str,
    *,
    low: str,
    high: str,
    xlabel: str,
    ylabel: str,
    value_label: str,
    notes: Sequence[str] = (),
) -> Figure:
    """A grid of the share ``value`` by ``x`` (columns) and ``y`` (rows); each cell shows the
    share and the half-width of its interval (columns ``low``, ``high``), both in percent."""
    jx, jy, jv, jl, jh = (table.columns.index(c) for c in (x, y, value, low, high))
    xs = sorted({r[jx] for r in table.rows}, key=sort_key)
    ys = sorted({r[jy] for r in table.rows}, key=sort_key)
    grid = [[math.nan] * len(xs) for _ in ys]
    cells: list[tuple[int, int, float, float]] = []
    for r in table.rows:
        i, j = ys.index(r[jy]), xs.index(r[jx])
        grid[i][j] = num(r[jv])
        cells.append((i, j, num(r[jv]), (num(r[jh]) - num(r[jl])) / 2))
    fig, axes = new_figure(max(6, 0.55 * len(xs) + 2.5), max(3.5, 0.5 * len(ys) + 2))
    ax = axes[0][0]
    im = ax.imshow(grid, aspect="auto", origin="lower", cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_yticks(range(len(ys)), [str(v) for v in ys])
    for i, j, v, half in cells:
        ax.text(j, i, f"{100 * v:.0f}\n±{100 * half:.0f}", ha="center", va="center", fontsize=6)
    fig.colorbar(im, ax=ax, fraction=0.04, label=value_label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    notes = [f"Each cell: {value_label} in % and ± the half-width of its {INTERVAL}.", *notes]
    return finish(name, title, table, fig, notes)


def bars(
    name: str,
    title: str,
    table: Table,
    category: str,
    y: str,
    *,
    value_label: str,
    category_label: str,
    group: str | None = None,
    series: Namer = str,
    half: str | None = None,
    names: dict[str, str] | None = None,
    horizontal: bool = False,
    notes: Sequence[str] = (),
) -> Figure:
    """Bars of ``y`` by ``category`` (one colour per ``group`` value, named by ``series``), with
    error bars of half-width ``half``. ``names`` gives categories words; ``horizontal`` puts the
    categories down the side, where long names stay level and readable. Every bar carries a
    mark at its value, so a bar of zero is seen, not mistaken for a missing one."""
    cats = categories(table, category)
    parts = groups(table, group)
    long_side = max(4.2, 0.32 * len(cats) * max(1, len(parts)) ** 0.5 + 1.5)
    fig, axes = new_figure(7.5, long_side) if horizontal else new_figure(max(7, len(cats)), 4.2)
    ax = axes[0][0]
    jc, jy = table.columns.index(category), table.columns.index(y)
    jh = table.columns.index(half) if half else None
    width = 0.8 / max(1, len(parts))
    unsure: list[str] = []
    for k, (key, rows) in enumerate(parts.items()):
        pos = [cats.index(r[jc]) + (k - (len(parts) - 1) / 2) * width for r in rows]
        values = [num(r[jy]) if finite(r[jy]) else 0.0 for r in rows]
        errs = [num(r[jh]) if jh is not None and finite(r[jh]) else 0.0 for r in rows]
        if jh is not None:
            unsure += [
                f"{series(key) + ', ' if group else ''}{r[jc]}" for r in rows if not finite(r[jh])
            ]
        draw = ax.barh if horizontal else ax.bar
        drawn = draw(pos, values, width, label=series(key) if group else None, alpha=0.85)
        err = {"xerr": errs} if horizontal else {"yerr": errs}
        ax.errorbar(
            values if horizontal else pos,
            pos if horizontal else values,
            **err,
            fmt="|" if horizontal else "_",
            color="black",
            markersize=7,
            capsize=2,
            elinewidth=1,
            zorder=3,
        )
        del drawn
    labels = [names.get(str(c), str(c)) if names else str(c) for c in cats]
    if horizontal:
        ax.set_yticks(range(len(cats)), labels)
        ax.invert_yaxis()  # the table's first category on top
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_xlabel(value_label)
        ax.set_ylabel(category_label)
        ax.grid(alpha=0.3, axis="x")
    else:
        ax.set_xticks(range(len(cats)), labels)
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xlabel(category_label)
        ax.set_ylabel(value_label)
        ax.grid(alpha=0.3, axis="y")
    notes = list(notes)
    if unsure:
        notes.append(f"No interval (fewer than two games): {'; '.join(unsure)}.")
    handles, _ = ax.get_legend_handles_labels()
    if half is not None:
        handles += style_entries((f"black line: {INTERVAL}", {"color": "black"}))
    if handles:
        fig.legend(handles=handles, fontsize=8, loc="outside right center")
    return finish(name, title, table, fig, notes)
