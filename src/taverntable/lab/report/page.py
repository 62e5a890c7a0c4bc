"""The report's HTML page: a table of contents, then each study's text, figures and tables.

The page never scrolls sideways as a whole, and no table is wider than the page's column: a
value and its interval share a cell (``x``, ``x_low``, ``x_high`` → "x [low, high]"), the
columns a table hides (codes) stay in its CSV, and a table still too wide for ``COLUMN_PX`` is
shown in slices of columns, each repeating the first column; a box that would still be too wide
scrolls inside itself and images shrink to the page. A table longer than ``LONG_TABLE`` rows
shows its first ``PREVIEW_ROWS`` and links its CSV (every table has one); shorter tables are
shown whole, whatever the study.
"""

from __future__ import annotations

import base64
import html
import math
import re
from collections.abc import Sequence

from .tables import Cell, Figure, Section, Table

LONG_TABLE = 60  # rows; longer tables are previewed, their CSV holds them all
PREVIEW_ROWS = 12
COLUMN_PX = 1000  # what a slice of a table may take of the page's 70em (1,120 px) column
CHAR_PX = 7.5  # a character of the tables' 0.85em font, about
CELL_PAD_PX = 18  # a cell's padding and border
HEADER_WRAP = 14  # characters: headers wrap at spaces, so their longest word counts
TOO_FEW = "too few games"  # an interval that needs more games than the run had (infinite)

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em;
       color: #222; }
.wide { overflow-x: auto; max-width: 100%; margin: 0.5em 0 0.3em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; white-space: nowrap; }
th { white-space: normal; max-width: 9em; vertical-align: bottom; }
th { background: #f0f0f0; position: sticky; top: 0; } td.text { text-align: left; }
td.few, span.few { color: #a00; font-style: italic; }
figure { display: inline-block; margin: 0.5em; max-width: 100%; vertical-align: top; }
img { max-width: 100%; height: auto; } figcaption { font-size: 0.8em; max-width: 40em; }
.note { color: #555; font-size: 0.85em; } h2 { border-bottom: 1px solid #ccc; }
nav.toc { background: #f7f7f7; border: 1px solid #ddd; padding: 0.5em 1.5em; }
nav.toc li { margin: 0.2em 0; } nav.toc ul { font-size: 0.85em; }
section.letter { max-width: 48em; line-height: 1.45; } section.letter li { margin: 0.4em 0; }
"""


def page(header: str, sections: Sequence[tuple[str, Section]]) -> str:
    """The whole page: ``header`` (HTML), the contents, then every section."""
    body = [header, contents(sections), *(render_section(k, s) for k, s in sections)]
    return (
        f"<!doctype html><html><head><meta charset=utf-8>"
        f"<meta name=viewport content='width=device-width, initial-scale=1'>"
        f"<title>Tavern Table lab</title><style>{STYLE}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )


def standalone(body: str, lang: str = "en") -> str:
    """A page of its own (the letter in one language) with the report's style."""
    return (
        f"<!doctype html><html lang={lang}><head><meta charset=utf-8>"
        f"<meta name=viewport content='width=device-width, initial-scale=1'>"
        f"<title>Tavern Table lab</title><style>{STYLE}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def figure_id(key: str, fig: Figure) -> str:
    return f"{key}-figure-{fig.name}"


def table_id(key: str, table: Table) -> str:
    return f"{key}-table-{table.name}"


def contents(sections: Sequence[tuple[str, Section]]) -> str:
    """A linked list of the sections, and of each section's figures and tables."""
    items = []
    for key, section in sections:
        figs = ", ".join(
            f"<a href='#{figure_id(key, f)}'>{html.escape(f.title)}</a>" for f in section.figures
        )
        tables = ", ".join(
            f"<a href='#{table_id(key, t)}'>{html.escape(t.title)}</a>" for t in section.tables
        )
        parts = ([f"<li>Figures: {figs}</li>"] if figs else []) + (
            [f"<li>Tables: {tables}</li>"] if tables else []
        )
        items.append(
            f"<li><a href='#{key}'>{html.escape(section.title)}</a><ul>{''.join(parts)}</ul></li>"
        )
    return f"<nav class=toc><h2>Contents</h2><ol>{''.join(items)}</ol></nav>"


def render_section(key: str, section: Section) -> str:
    """One study's HTML: title, text, figures (embedded PNG) and tables, each with its CSV."""
    parts = [f"<h2 id='{key}'>{html.escape(section.title)}</h2>"]
    parts += [f"<p>{html.escape(p)}</p>" for p in section.intro]
    for fig in section.figures:
        data = base64.b64encode(fig.png).decode("ascii")
        parts.append(
            f"<figure id='{figure_id(key, fig)}'><img alt='{html.escape(fig.title)}' "
            f"src='data:image/png;base64,{data}'><figcaption>The numbers (the title is in the "
            f"image): <a href='{key}/{fig.table}.csv'>{key}/{fig.table}.csv</a></figcaption>"
            "</figure>"
        )
    parts += [render_table(key, table) for table in section.tables]
    return "\n".join(parts)


def render_table(key: str, table: Table) -> str:
    """A table within the page's column (see the module); a long one previewed."""
    link = f"<a href='{key}/{table.name}.csv'>{key}/{table.name}.csv</a>"
    head = f"<h3 id='{table_id(key, table)}'>{html.escape(table.title)}</h3>"
    rows = table.rows
    shown = rows if len(rows) <= LONG_TABLE else rows[:PREVIEW_ROWS]
    columns, cells = shown_cells(table, shown)
    grids = []
    for part in slices(columns, cells):
        cols = "".join(f"<th>{html.escape(columns[j])}</th>" for j in part)
        body = "".join("<tr>" + "".join(row[j] for j in part) + "</tr>" for row in cells)
        grids.append(f"<div class=wide><table><tr>{cols}</tr>{body}</table></div>")
    whole = (
        f"The first {len(shown)} of {len(rows):,} rows; the whole table: {link}."
        if len(shown) < len(rows)
        else f"CSV: {link}"
    )
    note = f"{html.escape(table.note)} " if table.note else ""
    return f"{head}{''.join(grids)}<p class=note>{note}{whole}</p>"


def shown_cells(table: Table, rows: Sequence[Sequence[Cell]]) -> tuple[list[str], list[list[str]]]:
    """The headers and the HTML cells the page shows: hidden columns left out, each value with
    its interval in one cell, headers in words (underscores as spaces)."""
    names = list(table.columns)
    taken: set[str] = set(table.hidden)
    plan: list[tuple[str, int, int | None, int | None]] = []  # header, value, low, high
    for j, name in enumerate(names):
        if name in taken:
            continue
        low, high = _bounds(names, name)
        if low is not None and high is not None:
            taken.update((names[low], names[high]))
        plan.append((name.replace("_", " "), j, low, high))
    headers = [p[0] for p in plan]
    cells = [[_shown(row, j, low, high) for _, j, low, high in plan] for row in rows]
    return headers, cells


def _bounds(names: Sequence[str], name: str) -> tuple[int | None, int | None]:
    """The columns of ``name``'s interval: ``name_low``/``name_high``, or ``low``/``high`` after
    a ``value``."""
    for low, high in ((f"{name}_low", f"{name}_high"), ("low", "high")):
        if low == "low" and name != "value":
            continue
        if low in names and high in names:
            return names.index(low), names.index(high)
    return None, None


def _shown(row: Sequence[Cell], j: int, low: int | None, high: int | None) -> str:
    v = row[j]
    if low is None or high is None or not isinstance(v, float):
        return _cell(v)
    lo, hi = row[low], row[high]
    if not (isinstance(lo, float) and isinstance(hi, float)):
        return _cell(v)
    if math.isinf(lo) or math.isinf(hi):
        return f"<td>{fmt(v)} <span class=few>({TOO_FEW})</span></td>"
    return f"<td>{fmt(v)} [{fmt(lo)}, {fmt(hi)}]</td>"


def slices(headers: Sequence[str], cells: Sequence[Sequence[str]]) -> list[list[int]]:
    """Column indexes per slice, each slice within ``COLUMN_PX`` (by an estimate of the widths
    from the text), the first column repeated in every slice."""
    widths = [_width(h, [_text(row[j]) for row in cells]) for j, h in enumerate(headers)]
    if not widths:
        return [[]]
    out: list[list[int]] = [[0]]
    used = widths[0]
    for j in range(1, len(headers)):
        if used + widths[j] > COLUMN_PX and len(out[-1]) > 1:
            out.append([0])
            used = widths[0]
        out[-1].append(j)
        used += widths[j]
    return out


def _width(header: str, texts: Sequence[str]) -> float:
    head = max((len(w) for w in header.split()), default=0)
    head = max(head, min(len(header), HEADER_WRAP))
    body = max((len(t) for t in texts), default=0)
    return max(head, body) * CHAR_PX + CELL_PAD_PX


def _text(cell_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", cell_html))


def _cell(v: Cell) -> str:
    if v is None:
        return "<td></td>"
    if isinstance(v, float):
        text = fmt(v)
        return f"<td class=few>{text}</td>" if text == TOO_FEW else f"<td>{text}</td>"
    if isinstance(v, int):
        return f"<td>{v}</td>"
    return f"<td class=text>{html.escape(v)}</td>"


def fmt(v: float) -> str:
    """Four significant digits, as the page shows floats (the CSV keeps them all); an infinite
    bound is an interval the run had too few games for."""
    if math.isnan(v):
        return "–"
    if math.isinf(v):
        return TOO_FEW
    return f"{v:.4g}"
