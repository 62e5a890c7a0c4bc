"""The report's HTML page: a table of contents, then each study's text, figures and tables.

The page never scrolls sideways as a whole: a wide table scrolls inside its own box and images
shrink to the page. A table longer than ``LONG_TABLE`` rows shows its first ``PREVIEW_ROWS`` and
links its CSV (every table has one); shorter tables are shown whole, whatever the study.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Sequence

from .tables import Cell, Figure, Section, Table

LONG_TABLE = 60  # rows; longer tables are previewed, their CSV holds them all
PREVIEW_ROWS = 12
TOO_FEW = "too few games"  # an interval that needs more games than the run had (infinite)

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em;
       color: #222; }
.wide { overflow-x: auto; max-width: 100%; margin: 0.5em 0 0.3em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; white-space: nowrap; }
th { background: #f0f0f0; position: sticky; top: 0; } td.text { text-align: left; }
td.few { color: #a00; font-style: italic; }
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
    """A table in a box of its own width (it scrolls, not the page); a long one previewed."""
    link = f"<a href='{key}/{table.name}.csv'>{key}/{table.name}.csv</a>"
    head = f"<h3 id='{table_id(key, table)}'>{html.escape(table.title)}</h3>"
    rows = table.rows
    shown = rows if len(rows) <= LONG_TABLE else rows[:PREVIEW_ROWS]
    cols = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in shown)
    grid = f"<div class=wide><table><tr>{cols}</tr>{body}</table></div>"
    whole = (
        f"The first {len(shown)} of {len(rows):,} rows; the whole table: {link}."
        if len(shown) < len(rows)
        else f"CSV: {link}"
    )
    note = f"{html.escape(table.note)} " if table.note else ""
    return f"{head}{grid}<p class=note>{note}{whole}</p>"


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
