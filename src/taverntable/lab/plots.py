"""Plots for the report, drawn with matplotlib's Agg backend (no display needed) from tables.

Every figure is drawn from one ``Table``, whose CSV the report writes too: a reader can check or
re-plot every point.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from .config import LabError
from .tables import Cell, Figure, Table, num


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise LabError(
            "the report draws with matplotlib: pip install 'taverntable[lab]'"
        ) from None

    matplotlib.use("Agg")  # before pyplot: the lab runs on servers and in CI, without a display
    import matplotlib.pyplot as plt

    return plt


def _groups(table: Table, group: str | None) -> dict[Cell, list[Sequence[Cell]]]:
    if group is None:
        return {None: list(table.rows)}
    j = table.columns.index(group)
    out: dict[Cell, list[Sequence[Cell]]] = {}
    for row in table.rows:
        out.setdefault(row[j], []).append(row)
    return out


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    _pyplot().close(fig)
    return buf.getvalue()


def lines(
    name: str,
    title: str,
    table: Table,
    x: str,
    y: str,
    *,
    group: str | None = None,
    band: tuple[str, str] | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    markers: Sequence[str] = ("o", "s", "^", "D", "v", "x"),
    extra: tuple[str, str] | None = None,
) -> Figure:
    """One line of ``y`` against ``x`` per value of ``group``, with an optional interval band
    (columns ``band``) and an optional second series (``extra``: column, label) drawn dashed."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    jx, jy = table.columns.index(x), table.columns.index(y)
    for k, (key, rows) in enumerate(_groups(table, group).items()):
        rows = [r for r in rows if r[jx] is not None and r[jy] is not None]
        xs = [r[jx] for r in rows]
        label = None if key is None else f"{group} {key}"
        (line,) = ax.plot(xs, [r[jy] for r in rows], marker=markers[k % len(markers)],
                          label=label, linewidth=1.2, markersize=4)
        if band is not None:
            lo, hi = table.columns.index(band[0]), table.columns.index(band[1])
            ax.fill_between(xs, [r[lo] for r in rows], [r[hi] for r in rows],
                            color=line.get_color(), alpha=0.15, linewidth=0)
        if extra is not None:
            je = table.columns.index(extra[0])
            ax.plot(xs, [r[je] for r in rows], linestyle="--", color=line.get_color(),
                    linewidth=1, label=f"{label} ({extra[1]})" if label else extra[1])
    ax.set_title(title)
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or y)
    ax.grid(alpha=0.3)
    if group is not None or extra is not None:
        ax.legend(fontsize=7, ncol=2)
    return Figure(name, title, _png(fig), table.name)


def heatmap(
    name: str, title: str, table: Table, x: str, y: str, value: str, *, xlabel: str = "",
    ylabel: str = "",
) -> Figure:
    """A grid of ``value`` by ``x`` (columns) and ``y`` (rows), each cell annotated."""
    plt = _pyplot()
    jx, jy, jv = (table.columns.index(c) for c in (x, y, value))
    xs = sorted({r[jx] for r in table.rows}, key=_key)
    ys = sorted({r[jy] for r in table.rows}, key=_key)
    grid = [[float("nan")] * len(xs) for _ in ys]
    for r in table.rows:
        v = r[jv]
        if v is not None:
            grid[ys.index(r[jy])][xs.index(r[jx])] = float(v)
    fig, ax = plt.subplots(figsize=(max(5, 0.45 * len(xs) + 2), max(3, 0.35 * len(ys) + 1.5)))
    im = ax.imshow(grid, aspect="auto", origin="lower", cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_yticks(range(len(ys)), [str(v) for v in ys])
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == v:  # not NaN
                ax.text(j, i, f"{v:.2f}"[1:] if v < 1 else "1", ha="center", va="center",
                        fontsize=6)
    fig.colorbar(im, ax=ax, fraction=0.03)
    ax.set_title(title)
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or y)
    return Figure(name, title, _png(fig), table.name)


def bars(
    name: str, title: str, table: Table, x: str, y: str, *, group: str | None = None,
    err: str | None = None, xlabel: str | None = None, ylabel: str | None = None,
) -> Figure:
    """Grouped bars of ``y`` by ``x`` (one colour per ``group`` value), with error bars ``err``."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    jx, jy = table.columns.index(x), table.columns.index(y)
    je = table.columns.index(err) if err else None
    groups = _groups(table, group)
    xs = sorted({r[jx] for r in table.rows}, key=_key)
    width = 0.8 / max(1, len(groups))
    for k, (key, rows) in enumerate(groups.items()):
        pos = [xs.index(r[jx]) + (k - (len(groups) - 1) / 2) * width for r in rows]
        errs = [r[je] for r in rows] if je is not None else None
        ax.bar(pos, [r[jy] for r in rows], width, yerr=errs, capsize=2,
               label=None if key is None else f"{group} {key}")
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_title(title)
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or y)
    ax.grid(alpha=0.3, axis="y")
    if group is not None:
        ax.legend(fontsize=7, ncol=2)
    return Figure(name, title, _png(fig), table.name)


def _key(v: Cell) -> tuple[int, float, str]:
    return (0, float(v), "") if isinstance(v, int | float) else (1, 0.0, str(v))


def panels(
    name: str, title: str, table: Table, x: str, metrics: Sequence[str], *, ncols: int = 3
) -> Figure:
    """One small bar chart per metric, bars by ``x``; a metric ``m`` draws its interval from the
    columns ``m_low`` and ``m_high`` when the table has them. Metrics of different scales (towers
    per game, shares, points) side by side, each on its own axis."""
    plt = _pyplot()
    nrows = -(-len(metrics) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.2 * nrows), squeeze=False)
    labels = [str(v) for v in table.column(x)]
    for k, metric in enumerate(metrics):
        ax = axes[k // ncols][k % ncols]
        values = [num(v) for v in table.column(metric)]
        yerr = None
        if f"{metric}_low" in table.columns:
            lows = [num(v) for v in table.column(f"{metric}_low")]
            highs = [num(v) for v in table.column(f"{metric}_high")]
            yerr = [[max(0.0, v - lo) for v, lo in zip(values, lows, strict=True)],
                    [max(0.0, hi - v) for v, hi in zip(values, highs, strict=True)]]
        ax.bar(range(len(values)), values, yerr=yerr, capsize=2, color="#4c72b0")
        ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=6)
        ax.set_title(metric, fontsize=8)
        ax.axhline(0, color="black", linewidth=0.6)
        ax.grid(alpha=0.3, axis="y")
    for k in range(len(metrics), nrows * ncols):
        axes[k // ncols][k % ncols].axis("off")
    fig.suptitle(title)
    fig.tight_layout()
    return Figure(name, title, _png(fig), table.name)
