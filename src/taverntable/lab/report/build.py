"""``tavern lab report``: one self-contained HTML page (plots embedded as PNG) and a CSV for
every table, from the study folders under the lab folder (the page itself: ``page``)."""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from taverntable.lab.core.config import LabError
from taverntable.lab.core.store import META, StudyStore
from taverntable.lab.core.studies import get_study, load

from .letter import LANGUAGES, letter_html, switch
from .page import page, standalone
from .scaling import SCALING, scaling_section
from .tables import Section

# Told before each step of the report: (steps done, steps in all, what comes now).
ProgressCallback = Callable[[int, int, str], None]


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


def run_lines(runs: Sequence[dict[str, Any]]) -> list[str]:
    """The study's runs in a sentence: the last run that played games (a run that resumed a
    study already complete plays none, and saying "0 games in 0.0 s" reads as a failure)."""
    playing = [run for run in runs if run["games_run"] > 0]
    if not playing:
        return []
    last = playing[-1]
    line = (
        f"Last run that played games: {last['games_run']:,} games in {last['seconds']:.1f} s "
        f"({last['games_per_s']:.1f} games/s, {last['backend']}, {last['workers']} "
        f"worker{'s' if last['workers'] != 1 else ''})"
    )
    if len(playing) > 1:
        total = sum(run["games_run"] for run in playing)
        seconds = sum(run["seconds"] for run in playing)
        line += f"; {total:,} games in {seconds:.1f} s over {len(playing)} runs"
    return [line + "."]


def analyse_folder(folder: Path) -> tuple[str, Section]:
    """The report section of one study folder, and the folder's name (the CSV subfolder)."""
    config, meta, rows = StudyStore.read(folder)
    study = get_study(config.study)
    section: Section = load(study.analyse)(config, rows)
    if study.extras is not None:
        load(study.extras)(folder, section)
    if folder.name != study.name:  # the same study again, e.g. with other rule options
        section.title += f" — {folder.name}"
    beyond = StudyStore.stored_beyond(folder, config)
    left_out = (
        f" ({beyond:,} more games stored beyond the study's size are left out; "
        "`tavern lab run` with a larger --games uses them)"
        if beyond
        else ""
    )
    section.intro.insert(
        0,
        f"{study.summary} Configuration: {config.describe()}; "
        f"{len(rows)} of {config.games} games done{left_out}.",
    )
    section.intro.extend(run_lines(meta.get("runs", [])))
    return folder.name, section


def build_report(
    lab: Path, out: Path, names: Sequence[str] = (), progress: ProgressCallback | None = None
) -> Path:
    """Write ``out/index.html``, ``out/<study>/<table>.csv`` and ``<figure>.png``; returns the
    HTML path. ``progress`` hears of each step (a study's analysis draws its plots: the slow
    part)."""
    folders = study_folders(lab, names)
    scaling = lab / SCALING
    total = len(folders) + scaling.exists() + 1
    tell = progress or (lambda done, total, doing: None)
    sections: list[tuple[str, Section]] = []
    for done, folder in enumerate(folders):
        tell(done, total, f"analysing and plotting {folder.name}")
        key, section = analyse_folder(folder)
        sections.append((key, section))
        sections += [(f"{key}-{slug}", part) for slug, part in section.parts]
    if scaling.exists():
        tell(len(folders), total, "scaling")
        sections.append(("scaling", scaling_section(json.loads(scaling.read_text()))))
    tell(total - 1, total, "writing the page, CSVs and PNGs")
    out.mkdir(parents=True, exist_ok=True)
    for key, section in sections:
        (out / key).mkdir(exist_ok=True)
        for table in section.tables:
            (out / key / f"{table.name}.csv").write_text(table.csv_text(), encoding="utf-8")
        for fig in section.figures:  # the page embeds them; the files are for slides and papers
            (out / key / f"{fig.name}.png").write_bytes(fig.png)
    header = (
        f"<h1>Tavern Table lab report</h1><p class=note>Made "
        f"{time.strftime('%Y-%m-%d %H:%M')} from {html.escape(str(lab))}.</p>"
    )
    # The answer letter opens the page, before the contents, when the designer study is here;
    # each language also has a page of its own.
    facts = next((s.facts for _, s in sections if "answers" in s.facts), None)
    revised = next((s.facts for _, s in sections if "revised_estimates" in s.facts), None)
    if facts is not None and revised is not None:  # the revised rule set's paragraph
        facts = {**facts, **{k: revised[k] for k in ("revised_estimates", "revised_options")}}
    if facts is not None:
        header += letter_html(facts, "en", "", switch("en", index=True))
        for lang in LANGUAGES:
            letter = letter_html(facts, lang, "index.html", switch(lang, index=False))
            (out / f"letter-{lang}.html").write_text(standalone(letter, lang), encoding="utf-8")
    path = out / "index.html"
    path.write_text(page(header, sections), encoding="utf-8")
    tell(total, total, "done")
    return path


@contextmanager
def progress_bar(console: Console) -> Iterator[ProgressCallback]:
    """A progress bar on ``console`` (stderr), fed by ``build_report``; off when the console is
    not a terminal (a pipe or a log gets no bar)."""
    with Progress(
        TextColumn("[bold]report[/bold] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("reading the studies", total=None)

        def tell(done: int, total: int, doing: str) -> None:
            bar.update(task, completed=done, total=total, description=doing)

        yield tell
