"""``tavern lab report``: one self-contained HTML page (plots embedded as PNG) and a CSV for
every table, from the study folders under the lab folder."""

from __future__ import annotations

import base64
import html
import json
import time
from collections.abc import Sequence
from pathlib import Path

from .config import LabError
from .registry import get_study, load
from .scaling import SCALING, scaling_section
from .store import META, StudyStore
from .tables import Cell, Section, Table

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f0f0; } td.text { text-align: left; }
figure { display: inline-block; margin: 0.5em; } figcaption { font-size: 0.8em; }
.note { color: #555; font-size: 0.85em; } h2 { border-bottom: 1px solid #ccc; }
"""


def study_folders(lab: Path, names: Sequence[str] = ()) -> list[Path]:
    """The study folders to report: the named ones, or every folder in ``lab`` with a study."""
    if names:
        folders = [lab / name for name in names]
        for folder in folders:
            if not (folder / META).exists():
                raise LabError(f"no study in {folder}; run `tavern lab run {folder.name}` first")
        return folders
    folders = sorted(p.parent for p in lab.glob(f"*/{META}"))
    if not folders:
        raise LabError(f"no studies in {lab}; run `tavern lab run STUDY` first")
    return folders


def analyse_folder(folder: Path) -> tuple[str, Section]:
    """The report section of one study folder, and the folder's name (the CSV subfolder)."""
    config, meta, rows = StudyStore.read(folder)
    study = get_study(config.study)
    section: Section = load(study.analyse)(config, rows)
    if folder.name != study.name:  # the same study again, e.g. with other rule options
        section.title += f" — {folder.name}"
    beyond = StudyStore.stored_beyond(folder, config)
    left_out = (f" ({beyond:,} more games stored beyond the study's size are left out; "
                "`tavern lab run` with a larger --games uses them)" if beyond else "")
    section.intro.insert(0, f"{study.summary} Configuration: {config.describe()}; "
                            f"{len(rows)} of {config.games} games done{left_out}.")
    runs = meta.get("runs", [])
    if runs:
        last = runs[-1]
        section.intro.append(
            f"Last run: {last['games_run']} games in {last['seconds']:.1f} s "
            f"({last['games_per_s']:.1f} games/s, {last['backend']}, {last['workers']} workers)."
        )
    return folder.name, section


def build_report(lab: Path, out: Path, names: Sequence[str] = ()) -> Path:
    """Write ``out/index.html``, ``out/<study>/<table>.csv`` and ``<figure>.png``; returns the
    HTML path."""
    sections = [analyse_folder(folder) for folder in study_folders(lab, names)]
    if (lab / SCALING).exists():
        sections.append(("scaling", scaling_section(json.loads((lab / SCALING).read_text()))))
    out.mkdir(parents=True, exist_ok=True)
    body = [f"<h1>Tavern Table lab report</h1><p class=note>Made {time.strftime('%Y-%m-%d %H:%M')}"
            f" from {html.escape(str(lab))}.</p>"]
    for key, section in sections:
        (out / key).mkdir(exist_ok=True)
        for table in section.tables:
            (out / key / f"{table.name}.csv").write_text(table.csv_text(), encoding="utf-8")
        for fig in section.figures:  # the page embeds them; the files are for slides and papers
            (out / key / f"{fig.name}.png").write_bytes(fig.png)
        body.append(render_section(key, section))
    page = (f"<!doctype html><html><head><meta charset=utf-8><title>Tavern Table lab</title>"
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


def render_section(key: str, section: Section) -> str:
    """One study's HTML: title, text, figures (embedded PNG) and tables, each with its CSV."""
    parts = [f"<h2>{html.escape(section.title)}</h2>"]
    parts += [f"<p>{html.escape(p)}</p>" for p in section.intro]
    for fig in section.figures:
        data = base64.b64encode(fig.png).decode("ascii")
        parts.append(
            f"<figure><img alt='{html.escape(fig.title)}' src='data:image/png;base64,{data}'>"
            f"<figcaption>{html.escape(fig.title)} — numbers: "
            f"<a href='{key}/{fig.table}.csv'>{key}/{fig.table}.csv</a></figcaption></figure>"
        )
    for table in section.tables:
        parts.append(render_table(key, table))
    return "\n".join(parts)


def render_table(key: str, table: Table) -> str:
    """A table as HTML (or only a link to its CSV when it is too long to show)."""
    link = f"<a href='{key}/{table.name}.csv'>{key}/{table.name}.csv</a>"
    head = f"<h3>{html.escape(table.title)}</h3>"
    note = f"<p class=note>{html.escape(table.note)} CSV: {link}</p>"
    if not table.show:
        return f"{head}<p class=note>{len(table.rows)} rows: see {link}. " \
               f"{html.escape(table.note)}</p>"
    cols = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    rows = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in table.rows)
    return f"{head}<table><tr>{cols}</tr>{rows}</table>{note}"


def _cell(v: Cell) -> str:
    if v is None:
        return "<td></td>"
    if isinstance(v, float):
        return f"<td>{fmt(v)}</td>"
    if isinstance(v, int):
        return f"<td>{v}</td>"
    return f"<td class=text>{html.escape(v)}</td>"


def fmt(v: float) -> str:
    """Four significant digits, as the page shows floats (the CSV keeps them all)."""
    if v != v:
        return "–"
    return f"{v:.4g}"
