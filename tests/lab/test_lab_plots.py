"""The report's plots, read from the matplotlib figures they were drawn from: each asks one
question in its title, labels its axes in words, shows its uncertainty in the legend, and says
in the plot what it leaves out."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from taverntable.lab.core.execute import run_study
from taverntable.lab.core.studies import get_study
from taverntable.lab.report import panels, plots
from taverntable.lab.report.build import analyse_folder
from taverntable.lab.report.tables import Figure, Section, Table
from taverntable.lab.studies.towers_play import SOURCES


@pytest.fixture(scope="module")
def sections(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Section]:
    """Every study, small, analysed as the report does."""
    lab = tmp_path_factory.mktemp("lab")
    sizes: dict[str, tuple[str, dict[str, Any]]] = {
        "tonk-deal-wins": ("tonk-deal-wins", {"games": 27 * 20}),
        "tonk-play": ("tonk-play", {"games": 27 * 3}),
        # One table, enough deals for the drop plots' points.
        "tonk-drops": ("tonk-play", {"games": 150, "presets": ("tonk",), "players": (3,)}),
        "towers-play": ("towers-play", {"games": 6}),
        "towers-options": ("towers-options", {}),
    }
    out = {}
    for folder, (name, changes) in sizes.items():
        run_study(
            get_study(name).config("small", **changes), lab / folder, workers=2, progress=False
        )
        out[folder] = analyse_folder(lab / folder)[1]
    return out


def figure(sections: dict[str, Section], study: str, name: str) -> Any:
    found = [f for f in sections[study].figures if f.name == name]
    assert len(found) == 1, f"{study}: no figure {name}"
    return found[0].drawing


def all_figures(sections: dict[str, Section]) -> list[Figure]:
    return [f for s in sections.values() for f in s.figures]


def legend_texts(fig: Any) -> list[str]:
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    return [t.get_text() for legend in legends for t in legend.get_texts()]


def notes(fig: Any) -> str:
    """The notes under the plot (the figure's bottom line)."""
    return " ".join(
        t.replace("\n", " ") for t in (fig.get_supxlabel(), *(t.get_text() for t in fig.texts))
    )


def data_axes(fig: Any) -> list[Any]:
    return [ax for ax in fig.axes if ax.has_data() and ax.get_label() != "<colorbar>"]


def test_every_plot_asks_its_question_labels_its_axes_and_shows_its_uncertainty(
    sections: dict[str, Section],
) -> None:
    figures = all_figures(sections)
    assert len(figures) >= 17
    columns = {c for s in sections.values() for t in s.tables for c in t.columns}
    for f in figures:
        fig = f.drawing
        assert "?" in fig.get_suptitle() and f.title in fig.get_suptitle().replace("\n", " ")
        axes = data_axes(fig)
        xlabels = [ax.get_xlabel() for ax in axes if ax.get_xlabel()]
        ylabels = [ax.get_ylabel() for ax in axes if ax.get_ylabel()]
        assert xlabels and ylabels, f.name
        for label in xlabels + ylabels:  # words, not column names
            assert "_" not in label and label not in columns, (f.name, label)
        if len(axes) == 1:
            assert axes[0].get_xlabel() and axes[0].get_ylabel(), f.name
        uncertainty = [*legend_texts(fig), notes(fig)]
        assert any("95% interval" in t for t in uncertainty), f.name
        for ax in axes:  # panel titles are words too
            assert "_" not in ax.get_title(), (f.name, ax.get_title())


def test_deal_wins_solid_is_simulated_dashed_is_exact_and_the_band_is_in_the_legend(
    sections: dict[str, Section],
) -> None:
    for preset, events in (("tonk", 1), ("tor", 2), ("pagat", 2)):
        fig = figure(sections, "tonk-deal-wins", f"deal-wins-{preset}")
        assert "line: exact" not in fig.get_suptitle()
        texts = legend_texts(fig)
        assert {"solid: simulated", "dashed: exact probability", "shaded: 95% interval"} <= set(
            texts
        )
        (ax,) = data_axes(fig)
        lines = ax.get_lines()
        assert len(lines) == 2 * events  # each event drawn: simulated (solid), exact (dashed)
        assert (
            sorted(line.get_linestyle() for line in lines) == ["--", "-"] * events
            or sorted(line.get_linestyle() for line in lines) == ["-"] * events + ["--"] * events
        )
        assert len(ax.collections) == events  # one band per event


def test_a_series_cut_below_the_floor_is_named_in_the_plot(sections: dict[str, Section]) -> None:
    # pagat's void is below 1e-4 at 2-6 players: drawn from 7 players on, and the plot says so.
    pagat = figure(sections, "tonk-deal-wins", "deal-wins-pagat")
    assert "Not drawn: void: two or more hands of 49/50, at 2, 3, 4, 5, 6 players" in notes(pagat)
    (ax,) = data_axes(pagat)
    void = [line for line in ax.get_lines() if "void" in line.get_label()]
    assert len(void) == 1 and list(void[0].get_xdata()) == [7, 8, 9, 10]
    # tor's void (two Tőr hands, about 1e-7) is never drawn, and never silently.
    tor = figure(sections, "tonk-deal-wins", "deal-wins-tor")
    assert "void: two or more J/Q/K-only hands, at every table size" in notes(tor)


def test_drop_plots_show_their_intervals_and_what_they_leave_out(
    sections: dict[str, Section],
) -> None:
    fig = figure(sections, "tonk-drops", "drops-tonk")
    assert "shaded: 95% interval" in legend_texts(fig)
    (ax,) = data_axes(fig)
    assert len(ax.collections) == len(ax.get_lines()) == 1  # one table: its line and band
    pooled = next(t for t in sections["tonk-drops"].tables if t.name == "drops-by-total")
    drawn = len(ax.get_lines()[0].get_xdata())
    if drawn < len(pooled.rows):
        assert f"Not drawn: {len(pooled.rows) - drawn} totals above 30" in notes(fig)
    heat = figure(sections, "tonk-drops", "drops-heatmap")
    cells = [t.get_text() for ax in data_axes(heat) for t in ax.texts]
    assert cells and all("±" in c for c in cells)  # every cell: rate and its interval
    assert "± the half-width of its 95% interval" in notes(heat)


def test_tonk_seats_are_one_panel_per_table_size_with_intervals(
    sections: dict[str, Section],
) -> None:
    for preset in ("tonk", "tor", "pagat"):
        fig = figure(sections, "tonk-play", f"seats-{preset}")
        assert "does the seat matter?" in fig.get_suptitle()
        axes = data_axes(fig)
        assert [ax.get_title() for ax in axes] == [f"{n} players" for n in range(2, 11)]
        for n, ax in enumerate(axes, start=2):
            dots = sum(len(c.lines[0].get_xdata()) for c in ax.containers)
            hollow = sum(
                len(line.get_xdata())
                for line in ax.get_lines()
                if line.get_markerfacecolor() == "none"
            )
            assert dots + hollow == n  # every position drawn, with its interval or said not
            assert ax.containers, "no error bars"
        assert "bar: 95% interval" in legend_texts(fig)


def test_towers_options_panels_are_questions_with_level_readable_names(
    sections: dict[str, Section],
) -> None:
    # One forest per table size (issue 28 item 6: 2, 3 and 4 players in separate panels).
    forests = [
        f for f in sections["towers-options"].figures if f.name.startswith("towers-options-")
    ]
    assert [f.name for f in forests] == [
        "towers-options-2p",
        "towers-options-3p",
        "towers-options-4p",
    ]
    for forest in forests:
        axes = data_axes(forest.drawing)
        assert len(axes) == 6
        for ax in axes:
            assert ax.get_title().endswith("?") and ax.get_xlabel()
        labels = axes[0].get_yticklabels()
        assert labels and all("_" not in t.get_text() for t in labels)  # names, not codes
        assert all(t.get_rotation() == 0 and t.get_fontsize() >= 8 for t in labels)
        assert axes[0].get_ylabel() == "rule set or bot style"


def test_worth_draws_every_treatment_zero_included(sections: dict[str, Section]) -> None:
    worth = next(t for t in sections["towers-options"].tables if t.name == "worth")
    fig = figure(sections, "towers-options", "towers-worth")
    (ax,) = data_axes(fig)
    (dots,) = [line for line in ax.get_lines() if line.get_marker() == "o"]
    finite = [float(v) for v in worth.column("worth") if v is not None and math.isfinite(v)]
    assert sorted(dots.get_xdata()) == sorted(finite)
    # A treatment worth exactly nothing is a dot at zero, not a bar of no height.
    table = Table(
        "worth",
        "",
        ("variant", "worth", "worth_low", "worth_high"),
        [("a", 0.0, -1.0, 1.0), ("b", 5.0, 2.0, 8.0), ("c", 0.0, 0.0, 0.0)],
    )
    drawn = panels.forest(
        "w",
        "What is it worth?",
        table,
        "variant",
        (panels.Measure("worth", "Worth?", "points of margin"),),
        label_axis="treatment",
    ).drawing
    (ax,) = data_axes(drawn)
    (dots,) = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert list(dots.get_xdata()) == [0.0, 5.0, 0.0]


def test_towers_points_list_sources_down_the_side_in_words(
    sections: dict[str, Section],
) -> None:
    for name, count in (("towers-points", len(SOURCES)), ("towers-points-by-action", 8)):
        fig = figure(sections, "towers-play", name)
        (ax,) = data_axes(fig)
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert len(labels) == count and all("_" not in label for label in labels)
        assert ax.get_xticklabels() and "points" in ax.get_xlabel()  # values along the bottom
        assert "black line: 95% interval" in legend_texts(fig)
    labels = [
        t.get_text()
        for t in data_axes(figure(sections, "towers-play", "towers-points"))[0].get_yticklabels()
    ]
    assert labels[0] == "goods" and "♦ 50 bonus" in labels  # the table's order, in words


def test_a_zero_bar_keeps_a_mark_and_missing_intervals_are_named() -> None:
    table = Table(
        "t",
        "",
        ("source", "players", "mean", "half"),
        [("a", 2, 0.0, 1.0), ("b", 2, 3.0, math.inf), ("a", 3, 2.0, 0.5), ("b", 3, 1.0, 0.5)],
    )
    fig = plots.bars(
        "b",
        "Which source?",
        table,
        "source",
        "mean",
        group="players",
        series=lambda n: f"{n} players",
        half="half",
        horizontal=True,
        value_label="points per game",
        category_label="source of points",
    ).drawing
    (ax,) = data_axes(fig)
    marks = [
        x
        for c in ax.containers
        if hasattr(c, "lines") and c.lines[0] is not None
        for x in c.lines[0].get_xdata()
    ]
    assert sorted(marks) == [0.0, 1.0, 2.0, 3.0]  # the zero bar carries its mark
    assert "No interval (fewer than two games): 2 players, b." in notes(fig)


def test_a_line_plot_says_how_many_points_it_could_not_draw() -> None:
    table = Table(
        "t",
        "",
        ("x", "y", "lo", "hi"),
        [(1, 0.5, 0.4, 0.6), (2, None, None, None), (3, 0.7, -math.inf, math.inf)],
    )
    fig = plots.lines(
        "l",
        "How does y grow?",
        table,
        "x",
        "y",
        band=("lo", "hi"),
        drawn="mean",
        xlabel="the x",
        ylabel="the y",
    ).drawing
    assert "Not drawn: 1 of the table's points" in notes(fig)
    assert "No interval at 1 of the points" in notes(fig)
    assert list(data_axes(fig)[0].get_lines()[0].get_xdata()) == [1, 3]


def test_figures_render_to_png_files(sections: dict[str, Section], tmp_path: Path) -> None:
    for f in all_figures(sections):
        assert f.png.startswith(b"\x89PNG")
