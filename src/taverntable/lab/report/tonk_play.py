"""Study ``tonk-play``, the analysis: the drop table, the length of a deal, the value of a seat."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.stats import decreasing_fit, mean_ci, quantile, wilson
from taverntable.lab.core.store import Row
from taverntable.lab.studies.tonk_play import position

from . import panels, plots
from .tables import Cell, Figure, Section, Table, num

LAST_TURN = 6  # turns from the 6th on are pooled: few deals last that long
MIN_TRIALS = 200  # a drop-table entry needs this many trial drops at that turn
MIN_ATTEMPTS = 30  # a plotted point needs this many trial drops at that total
MIN_CELL_ATTEMPTS = 10  # a heatmap cell needs this many trial drops at that total and turn
PLOT_TOTAL = 30  # drops above this total practically never succeed
DEAL_ENDS = ("tonk", "tor", "low", "void")
PLAY_ENDS = ("drop", "burned", "out", "stock", "stalled")

Rows = Sequence[tuple[int, Row]]
Key = tuple[str, int]


def _by_cell(config: StudyConfig, rows: Rows) -> dict[Key, list[Row]]:
    out: dict[Key, list[Row]] = {cell: [] for cell in config.cells()}
    for _, row in rows:
        out.setdefault((row["preset"], row["players"]), []).append(row)
    return out


def drop_rates(config: StudyConfig, rows: Rows) -> tuple[Table, Table]:
    """Trial drops by (preset, players, turn, total) with a non-increasing fit of the rate by
    total, and by (preset, players, total)."""
    tries: Counter[tuple[str, int, int, int]] = Counter()
    wins: Counter[tuple[str, int, int, int]] = Counter()
    gain: Counter[tuple[str, int, int, int]] = Counter()
    for (preset, players), cell_rows in _by_cell(config, rows).items():
        for row in cell_rows:
            for turn, total, ok, g in row["drops"]:
                key = (preset, players, min(turn, LAST_TURN), total)
                tries[key] += 1
                wins[key] += ok
                gain[key] += g
    keys = sorted(tries)  # by preset, players, turn, then total
    fitted: dict[tuple[str, int, int, int], float] = {}
    for group in dict.fromkeys(k[:3] for k in keys):
        members = [k for k in keys if k[:3] == group]
        fit = decreasing_fit([wins[k] for k in members], [tries[k] for k in members])
        fitted.update(zip(members, fit, strict=True))
    detail: list[tuple[Cell, ...]] = []
    for key in keys:
        lo, hi = wilson(wins[key], tries[key])
        detail.append(
            (
                *key,
                tries[key],
                wins[key],
                wins[key] / tries[key],
                lo,
                hi,
                fitted[key],
                gain[key] / tries[key],
            )
        )
    pooled_tries: Counter[tuple[str, int, int]] = Counter()
    pooled_wins: Counter[tuple[str, int, int]] = Counter()
    for key, n in tries.items():
        preset, players, _, total = key
        pooled_tries[preset, players, total] += n
        pooled_wins[preset, players, total] += wins[key]
    pooled: list[tuple[Cell, ...]] = []
    for cell in sorted(pooled_tries):
        n, k = pooled_tries[cell], pooled_wins[cell]
        pooled.append((*cell, n, k, k / n, *wilson(k, n)))
    return (
        Table(
            "drops",
            "Trial drops by hand total, turn and players",
            (
                "preset",
                "players",
                "turn",
                "total",
                "attempts",
                "successes",
                "rate",
                "ci_low",
                "ci_high",
                "fitted_rate",
                "mean_gain",
            ),
            detail,
            note=f"turn {LAST_TURN} stands for the {LAST_TURN}th turn and later; fitted_rate: "
            "the closest rates that do not grow with the total; gain in stakes",
        ),
        Table(
            "drops-by-total",
            "Trial drops by hand total and players (all turns)",
            ("preset", "players", "total", "attempts", "successes", "rate", "ci_low", "ci_high"),
            pooled,
        ),
    )


def drop_table(config: StudyConfig, detail: Table) -> Table:
    """For each table and turn: the highest total whose fitted success rate is at least 50%."""
    best: dict[tuple[str, int, int], int] = {}
    trials: Counter[tuple[str, int, int]] = Counter()
    for preset, players, turn, total, n, _, _, _, _, fit, _ in detail.rows:
        assert isinstance(preset, str) and isinstance(players, int) and isinstance(turn, int)
        assert isinstance(total, int) and isinstance(n, int) and isinstance(fit, float)
        key = (preset, players, turn)
        trials[key] += n
        if fit >= 0.5:
            best[key] = max(best.get(key, -1), total)
    lines: list[tuple[Cell, ...]] = [
        (
            preset,
            players,
            *(
                best.get((preset, players, t)) if trials[preset, players, t] >= MIN_TRIALS else None
                for t in range(1, LAST_TURN + 1)
            ),
        )
        for preset, players in config.cells()
    ]
    turns = (*(f"turn {t}" for t in range(1, LAST_TURN)), f"turn {LAST_TURN}+")
    return Table(
        "drop-table",
        "Drop table: the highest hand total at which a drop succeeds at least half the time",
        ("preset", "players", *turns),
        lines,
        note=f"From trial drops in bots' play: the success rate by total, fitted so that it does "
        f"not grow with the total (drops.csv: fitted_rate). Blank: fewer than {MIN_TRIALS} "
        "trials at that turn, or no total reaching 50%. Late turns are reached only in deals "
        "nobody ended early.",
    )


def length(config: StudyConfig, rows: Rows) -> Table:
    """Moves and rounds per deal, and how deals end, by preset and players."""
    lines: list[tuple[Cell, ...]] = []
    for (preset, players), cell_rows in _by_cell(config, rows).items():
        if not cell_rows:
            continue
        n = len(cell_rows)
        rounds = sorted(r["rounds"] for r in cell_rows)
        ends = Counter(r["end"] for r in cell_rows)
        mean, half = mean_ci([float(r) for r in rounds])
        lines.append(
            (
                preset,
                players,
                n,
                sum(r["moves"] for r in cell_rows) / n,
                mean,
                mean - half,
                mean + half,
                quantile(rounds, 0.5),
                quantile(rounds, 0.9),
                sum(ends[e] for e in DEAL_ENDS) / n,
                *(ends[e] / n for e in PLAY_ENDS),
            )
        )
    return Table(
        "length",
        "Length of a deal and how it ends",
        (
            "preset",
            "players",
            "deals",
            "mean_moves",
            "mean_rounds",
            "rounds_ci_low",
            "rounds_ci_high",
            "median_rounds",
            "p90_rounds",
            "share_on_deal",
            *(f"share_{e}" for e in PLAY_ENDS),
        ),
        lines,
        note="rounds: turns started by the first player (0 when the deal ends on the "
        "deal), with the 95% interval of the mean; shares of deals by how they ended.",
    )


def seats(config: StudyConfig, rows: Rows) -> Table:
    """Mean net gain per deal of each position (1 = first to act … last = dealer)."""
    lines: list[tuple[Cell, ...]] = []
    for (preset, players), cell_rows in _by_cell(config, rows).items():
        if not cell_rows:
            continue
        nets: dict[int, list[float]] = defaultdict(list)
        for row in cell_rows:
            for seat, net in enumerate(row["net"]):
                nets[position(seat, players)].append(net)
        for pos in range(1, players + 1):
            mean, half = mean_ci(nets[pos])
            lines.append((preset, players, pos, len(nets[pos]), mean, half))
    return Table(
        "seats",
        "Value of each seat: mean net gain per deal, in stakes",
        ("preset", "players", "position", "deals", "mean_net", "ci_half_width"),
        lines,
        note="position 1 acts first; the last position is the dealer.",
    )


def analyse(config: StudyConfig, rows: Rows) -> Section:
    """The section of the report for ``tonk-play``."""
    detail, pooled = drop_rates(config, rows)
    table = drop_table(config, detail)
    lengths, seat_values = length(config, rows), seats(config, rows)
    section = Section("Drops, length of a deal, value of a seat")
    section.intro.append(
        f"{len(rows)} deals played by {', '.join(config.bots)} bots. At the start of every turn "
        "a drop was also tried on a copy of the state: its success rate by hand total, turn and "
        "players is the basis of the drop table."
    )
    section.tables += [table, pooled, detail, lengths, seat_values]
    section.figures += drop_figures(config, pooled, detail)
    if lengths.rows:
        section.figures.append(
            plots.lines(
                "length",
                "How many rounds does a deal last? Mean rounds per deal by players",
                lengths,
                "players",
                "mean_rounds",
                group="preset",
                series=str,
                drawn="mean",
                band=("rounds_ci_low", "rounds_ci_high"),
                xlabel="players at the table",
                ylabel="rounds per deal (mean)",
            )
        )
    for preset in config.presets:
        sub = Table("seats", "", seat_values.columns, seat_values.where(preset=preset))
        if sub.rows:
            section.figures.append(
                panels.panel_points(
                    f"seats-{preset}",
                    f"{preset}: does the seat matter? Mean net gain per deal by "
                    "position, one panel per table size",
                    sub,
                    "players",
                    "position",
                    "mean_net",
                    "ci_half_width",
                    panel_title="{} players",
                    xlabel="position (1 acts first, last deals)",
                    ylabel="stakes per deal",
                )
            )
    return section


def drop_figures(config: StudyConfig, pooled: Table, detail: Table) -> list[Figure]:
    """Drop success by total for each preset, and by total and turn for one table."""
    figures: list[Figure] = []
    for preset in config.presets:
        rows = pooled.where(preset=preset)
        shown = [r for r in rows if num(r[2]) <= PLOT_TOTAL and num(r[3]) >= MIN_ATTEMPTS]
        if not shown:
            continue
        notes = (
            [
                f"Not drawn: {len(rows) - len(shown)} totals above {PLOT_TOTAL} or with fewer "
                f"than {MIN_ATTEMPTS} trial drops (all in drops-by-total.csv)."
            ]
            if len(shown) < len(rows)
            else []
        )
        sub = Table("drops-by-total", f"{preset}: drop success by total", pooled.columns, shown)
        figures.append(
            plots.lines(
                f"drops-{preset}",
                f"{preset}: how likely is a drop to win at each hand total?",
                sub,
                "total",
                "rate",
                group="players",
                series=lambda n: f"{n} players",
                drawn="share of trial drops that won",
                band=("ci_low", "ci_high"),
                xlabel="hand total when dropping",
                ylabel="share of drops that win",
                notes=notes,
            )
        )
    focus = next(((p, n) for p, n in config.cells() if (p, n) == ("tonk", 3)), config.cells()[0])
    rows = detail.where(preset=focus[0], players=focus[1])
    shown = [r for r in rows if num(r[3]) <= PLOT_TOTAL and num(r[4]) >= MIN_CELL_ATTEMPTS]
    if shown:
        notes = (
            [
                f"Blank: totals above {PLOT_TOTAL} or with fewer than {MIN_CELL_ATTEMPTS} "
                f"trial drops at that turn ({len(rows) - len(shown)} left out; drops.csv)."
            ]
            if len(shown) < len(rows)
            else []
        )
        figures.append(
            plots.heatmap(
                "drops-heatmap",
                f"{focus[0]}, {focus[1]} players: how does a drop's chance "
                "change with the hand total and the turn?",
                Table("drops", "", detail.columns, shown),
                "total",
                "turn",
                "rate",
                low="ci_low",
                high="ci_high",
                xlabel="hand total",
                ylabel=f"turn ({LAST_TURN} = {LAST_TURN}th or later)",
                value_label="share of drops that win",
                notes=notes,
            )
        )
    return figures
