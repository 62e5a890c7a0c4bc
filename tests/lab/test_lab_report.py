"""``tavern lab`` from the command line, and the report of a tiny study: the HTML and its CSVs."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from taverntable.cli import main
from taverntable.lab.core.store import StudyStore
from taverntable.lab.report.build import build_report, progress_bar
from taverntable.lab.report.page import LONG_TABLE, PREVIEW_ROWS, render_table
from taverntable.lab.report.scaling import SCALING
from taverntable.lab.report.tables import Table
from taverntable.lab.studies.tonk_play import position


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two tiny studies, a fake scaling file and their report."""
    lab = tmp_path_factory.mktemp("lab")
    assert (
        main(
            [
                "lab",
                "run",
                "tonk-deal-wins",
                "--games",
                "270",
                "--workers",
                "1",
                "--quiet",
                "--lab",
                str(lab),
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "lab",
                "run",
                "tonk-play",
                "--games",
                "54",
                "--players",
                "2-4",
                "--workers",
                "2",
                "--quiet",
                "--lab",
                str(lab),
            ]
        )
        == 0
    )
    entries = [
        {
            "study": "tonk-play",
            "setup": s,
            "games_run": 10,
            "games_done": 10,
            "games_total": 10,
            "seconds": t,
            "workers": w,
            "backend": b,
            "games_per_s": 10 / t,
            "same_rows": True,
        }
        for s, w, b, t in (
            ("one core", 1, "inline", 1.0),
            ("2 processes", 2, "processes", 0.6),
            ("ray (local)", 2, "ray", 5.0),
        )
    ]
    (lab / SCALING).write_text(json.dumps(entries))
    assert main(["lab", "report", "--lab", str(lab)]) == 0
    return lab


def test_report_is_one_html_page_with_embedded_plots(lab: Path) -> None:
    page = (lab / "report" / "index.html").read_text()
    assert page.startswith("<!doctype html>")
    assert page.count("data:image/png;base64,") >= 6
    for title in ("Wins on the deal", "Drop table", "Value of each seat", "Scaling"):
        assert title in page
    for csv_link in ("tonk-deal-wins/deal-wins.csv", "tonk-play/seats.csv", "scaling/scaling.csv"):
        assert csv_link in page and (lab / "report" / csv_link).exists()
    pngs = list((lab / "report").glob("*/*.png"))  # the plots also as files beside the page
    assert len(pngs) == page.count("data:image/png;base64,")
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)


def test_deal_wins_csv_holds_the_counts_of_the_rows(lab: Path) -> None:
    rows = [row for _, row in StudyStore.read(lab / "tonk-deal-wins")[2]]
    ends = Counter((r["preset"], r["players"], r["end"]) for r in rows)
    table = read_csv(lab / "report" / "tonk-deal-wins" / "deal-wins.csv")
    assert sum(int(t["deals"]) for t in table) == 270 * 6 // 3  # tor 3 events, pagat 2, tonk 1
    for t in table:
        assert int(t["hits"]) == ends[t["preset"], int(t["players"]), t["event"]]
        assert float(t["simulated"]) == int(t["hits"]) / int(t["deals"])
        assert 0 < float(t["exact"]) < 1


def test_play_csvs_hold_the_numbers_of_the_rows(lab: Path) -> None:
    rows = [row for _, row in StudyStore.read(lab / "tonk-play")[2]]
    assert len(rows) == 54
    seats = read_csv(lab / "report" / "tonk-play" / "seats.csv")
    for s in seats:
        nets = [
            r["net"][seat]
            for r in rows
            if (r["preset"], r["players"]) == (s["preset"], int(s["players"]))
            for seat in range(r["players"])
            if position(seat, r["players"]) == int(s["position"])
        ]
        assert int(s["deals"]) == len(nets)
        assert float(s["mean_net"]) == pytest.approx(sum(nets) / len(nets))
    length = read_csv(lab / "report" / "tonk-play" / "length.csv")
    assert sum(int(x["deals"]) for x in length) == 54
    drops = read_csv(lab / "report" / "tonk-play" / "drops.csv")
    assert sum(int(d["attempts"]) for d in drops) == sum(len(r["drops"]) for r in rows)
    assert sum(int(d["successes"]) for d in drops) == sum(x[2] for r in rows for x in r["drops"])


def test_the_page_shows_the_csv_numbers(lab: Path) -> None:
    page = (lab / "report" / "index.html").read_text()
    for s in read_csv(lab / "report" / "tonk-play" / "seats.csv")[:6]:
        assert f"<td>{float(s['mean_net']):.4g}</td>" in page


def test_cli_list_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "list"]) == 0
    assert "tonk-deal-wins" in capsys.readouterr().out
    base = ["lab", "run", "tonk-play", "--games", "2", "--quiet", "--lab", str(tmp_path)]
    assert main([*base, "--preset", "poker"]) == 2
    assert "tonk-play plays tonk, tor, pagat, not 'poker'" in capsys.readouterr().err
    assert main([*base, "--preset", "three-towers"]) == 2  # a game of another family
    assert "not 'three-towers'" in capsys.readouterr().err
    assert main([*base, "--players", "11"]) == 2
    assert "Tonk needs 2 to 10 players, not 11 (T2)" in capsys.readouterr().err
    assert main([*base, "--bots", "genius"]) == 2
    assert main([*base, "--option", "hit_sets=maybe"]) == 2
    assert (
        main(["lab", "run", "tonk-deal-wins", "--records", "--quiet", "--lab", str(tmp_path)]) == 2
    )
    assert main(["lab", "report", "--lab", str(tmp_path / "none")]) == 2
    # Resuming takes the saved configuration; a conflicting option is refused.
    assert main([*base, "--players", "3", "--workers", "1"]) == 0
    assert (
        main(
            [
                "lab",
                "run",
                "tonk-play",
                "--games",
                "4",
                "--quiet",
                "--workers",
                "1",
                "--lab",
                str(tmp_path),
            ]
        )
        == 0
    )
    assert len(StudyStore.read(tmp_path / "tonk-play")[2]) == 4
    assert main([*base, "--players", "5"]) == 2
    assert "another configuration" in capsys.readouterr().err


def test_drop_rates_are_fitted_so_that_they_never_grow_with_the_total() -> None:
    from taverntable.lab.core.stats import decreasing_fit

    assert decreasing_fit([9, 8, 3, 6, 1], [10, 10, 10, 10, 10]) == [0.9, 0.8, 0.45, 0.45, 0.1]
    assert decreasing_fit([1, 9], [10, 10]) == [0.5, 0.5]
    assert decreasing_fit([], []) == []


# --- the page a reader sees (issue 15 item 21) ---------------------------------------------------


def test_no_table_can_make_the_page_scroll_sideways(lab: Path) -> None:
    page = (lab / "report" / "index.html").read_text()
    assert page.count("<table>") == page.count("<div class=wide><table>") > 5
    assert ".wide { overflow-x: auto" in page and "img { max-width: 100%" in page


def test_the_contents_link_every_section_figure_and_table(lab: Path) -> None:
    page = (lab / "report" / "index.html").read_text()
    toc = page[page.index("<nav class=toc>") : page.index("</nav>")]
    ids = re.findall(r"<(?:h2|h3|figure) id='([^']+)'", page)
    links = re.findall(r"href='#([^']+)'", toc)
    assert sorted(ids) == sorted(links) and len(ids) >= 15
    assert page.index("</nav>") < page.index("<h2 id=")  # the contents come first


def test_long_tables_are_previewed_and_linked_by_one_threshold(lab: Path) -> None:
    page = (lab / "report" / "index.html").read_text()
    sizes = []
    for csv_path in sorted((lab / "report").glob("*/*.csv")):
        rows = len(read_csv(csv_path))
        key, name = csv_path.parent.name, csv_path.stem
        start = page.index(f"<h3 id='{key}-table-{name}'>")
        end = page.index("</p>", start)
        # The first slice of its columns (a wide table is shown in slices of the same rows).
        shown = page[start : page.index("</table>", start)].count("<tr>") - 1  # the header
        sizes.append(rows)
        if rows > LONG_TABLE:
            assert shown == PREVIEW_ROWS
            assert (
                f"The first {PREVIEW_ROWS} of {rows:,} rows; the whole table: "
                f"<a href='{key}/{name}.csv'>" in page[start : end + 4]
            )
        else:
            assert shown == rows
    assert min(sizes) <= LONG_TABLE < max(sizes)  # both kinds are in this report


def test_an_interval_without_enough_games_says_so() -> None:
    table = Table(
        "t",
        "A table",
        ("bot", "mean", "ci_low", "ci_high", "missing"),
        [("a", 1.5, -math.inf, math.inf, math.nan)],
    )
    html = render_table("s", table)
    assert html.count("<td class=few>too few games</td>") == 2
    assert "inf" not in html.replace("too few", "") and "<td>–</td>" in html


def test_the_report_tells_its_progress(tmp_path: Path, lab: Path) -> None:
    steps: list[tuple[int, int, str]] = []
    build_report(lab, tmp_path / "r", progress=lambda *step: steps.append(step))
    assert [s[2] for s in steps] == [
        "analysing and plotting tonk-deal-wins",
        "analysing and plotting tonk-play",
        "scaling",
        "writing the page, CSVs and PNGs",
        "done",
    ]
    assert [s[0] for s in steps] == [0, 1, 2, 3, 4] and {s[1] for s in steps} == {4}
    # On a terminal the bar shows on stderr; in a pipe it stays silent.
    screen = io.StringIO()
    with progress_bar(Console(file=screen, force_terminal=True, width=80)) as tell:
        tell(1, 4, "analysing and plotting tonk-play")
    assert "analysing and plotting tonk-play" in screen.getvalue()
    pipe = io.StringIO()
    with progress_bar(Console(file=pipe, force_terminal=False)) as tell:
        tell(1, 4, "analysing and plotting tonk-play")
    assert pipe.getvalue() == ""
