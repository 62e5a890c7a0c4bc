"""Study ``towers-play``, the analysis: the play-testers' questions answered with numbers."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import partial

from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.stats import mean_ci, wilson
from taverntable.lab.core.store import Row
from taverntable.lab.studies.towers_actions import ACTION_SOURCES
from taverntable.lab.studies.towers_play import ACTIONS, SOURCES, position

from . import plots
from .tables import Cell, Figure, Section, Table

Rows = Sequence[tuple[int, Row]]
SUIT_NAMES = {0: "dark (♠)", 1: "♥", 2: "♦", 3: "♣"}
# Words for the plots' categories (the tables keep the column names).
SOURCE_NAMES = {
    "goods": "goods",
    "tower_aces": "tower aces",
    "penalty": "penalty cards",
    "spade_figures": "♠ figures",
    "hearts_bonus": "♥ doubling",
    "diamond_bonus": "♦ 50 bonus",
    "win_bonus": "150 for a third tower",
}
ACTION_NAMES = {
    "trade": "trades won",
    "fail": "failed answers",
    "tower": "own tower",
    "raid": "raids",
    "curse": "curses",
    "redeal": "redeals",
    "round_end": "hand at the round end",
    "win_bonus": "150 for a third tower",
}


def _played(rows: Rows) -> dict[int, list[Row]]:
    out: dict[int, list[Row]] = defaultdict(list)
    for _, row in rows:
        if row["end"] != "stalled":
            out[row["players"]].append(row)
    return dict(sorted(out.items()))


def games_and_rounds(rows: Rows) -> Table:
    """How games and rounds end: towers per game, the 150 bonus, rounds ended by a tower."""
    lines: list[tuple[Cell, ...]] = []
    for players, games in _played(rows).items():
        n = len(games)
        rounds = [e for g in games for e in g["round_ends"]]
        by_suit = Counter(s for _, s in rounds)
        lines.append(
            (
                players,
                n,
                sum(g["rounds"] for g in games) / n,
                sum(sum(g["towers"]) for g in games) / n,
                sum(g["end"] == "towers" for g in games) / n,
                1 - by_suit[-1] / len(rounds) if rounds else None,
                *((by_suit[s] / len(rounds) if rounds else None) for s in (1, 2, 3, 0)),
            )
        )
    return Table(
        "games",
        "Games and rounds: how they end",
        (
            "players",
            "games",
            "rounds_per_game",
            "towers_per_game",
            "share_150_bonus",
            "rounds_ended_by_tower",
            "share_hearts",
            "share_diamonds",
            "share_clubs",
            "share_dark",
        ),
        lines,
        note="share_150_bonus: games ended by a player's third tower (R14); the rest "
        "reached max_rounds. share_<suit>: rounds ended by a finished tower of that ace.",
    )


def points_by_source(rows: Rows) -> Table:
    """Mean points per game from each source, all seats together."""
    lines: list[tuple[Cell, ...]] = []
    for players, games in _played(rows).items():
        n = len(games)
        for source in SOURCES:
            values = [float(g["sources"][source]) for g in games]
            mean, half = mean_ci(values)
            lines.append((players, source, n, mean, half))
    return Table(
        "points",
        "Points per game by source (all seats together)",
        ("players", "source", "games", "mean_points", "ci_half_width"),
        lines,
    )


def points_by_action(rows: Rows) -> Table:
    """Mean points per seat and game credited to each action, for all seats, winners, losers."""
    lines: list[tuple[Cell, ...]] = []
    for players, games in _played(rows).items():
        games = [g for g in games if "action_points_own" in g]  # rows of older runs lack them
        for action in ACTION_SOURCES:
            every: list[float] = []
            own: list[float] = []
            won: list[float] = []
            lost: list[float] = []
            for g in games:
                for seat, value in enumerate(g["action_points"][action]):
                    every.append(float(value))
                    own.append(float(g["action_points_own"][action][seat]))
                    (won if seat in g["winners"] else lost).append(float(value))
            if not every:
                continue
            mean, half = mean_ci(every)
            om, oh = mean_ci(own)
            wm, wh = mean_ci(won)
            lm, lh = mean_ci(lost)
            lines.append(
                (players, action, len(every), mean, half, om, oh, mean - om, wm, wh, lm, lh)
            )
    return Table(
        "points-by-action",
        "Points per seat and game by action: trades, towers, raids, curses",
        (
            "players",
            "action",
            "seat_games",
            "mean_points",
            "ci_half_width",
            "own_mean",
            "own_ci_half_width",
            "others_mean",
            "winner_mean",
            "winner_ci_half_width",
            "loser_mean",
            "loser_ci_half_width",
        ),
        lines,
        note="Each card's points are credited to the action that brought it into a "
        "store (towers_actions.py): trade = trades won (R7); fail = a failed answer's "
        "hand into one's own store (R6); tower = the cards of one's tower at the "
        "round end, the ♥ doubling, the ♦ 50, ♣ takes and dark gives (R13); raid = "
        "plunder (R9) and jokers that repelled raids; curse = Thief, Warlock, the "
        "Witch's trade and repelled curses (R9), negative for the cursed; redeal = "
        "spent jokers and warriors, jack/queen/king redeals (R10); round_end = the "
        "hand into the store at the round end (R13, and R28 nobility points); "
        "win_bonus = the 150 for a third tower (R14). A seat's points by action sum "
        "to its score. own_mean: the part from the seat's own actions (trades it led, "
        "its raids and curses, its redeals, failed answers, ♣ takes and dark gives, its "
        "tower and hand); others_mean: from opponents' (curses suffered, trades led by "
        "others that it won, ♣ takes from its store, jacks redeals into it). "
        "CIs treat seat-games as independent (seats of one game are "
        "not); winners include shared wins.",
    )


def actions(rows: Rows) -> Table:
    """Mean number of each action per game and seat."""
    lines: list[tuple[Cell, ...]] = []
    for players, games in _played(rows).items():
        for name in ACTIONS:
            per_seat = [float(c) for g in games for c in g["actions"][name]]
            lines.append((players, name, sum(per_seat) / len(per_seat)))
    return Table(
        "actions",
        "Actions per game and seat: trades, towers, attacks, jokers, redeals",
        ("players", "action", "per_seat_game"),
        lines,
    )


def styles(rows: Rows) -> Table:
    """Raiding against building: seats by how they played, with their margin and win rate."""
    margins: dict[tuple[int, str], list[float]] = defaultdict(list)
    wins: Counter[tuple[int, str]] = Counter()
    for players, games in _played(rows).items():
        for g in games:
            for seat in range(players):
                raids = g["actions"]["Raid"][seat]
                builds = g["actions"]["Build"][seat] + g["actions"]["Add"][seat]
                style = (
                    "raids more"
                    if raids > builds
                    else ("builds more" if builds > raids else "even")
                )
                margins[players, style].append(g["margins"][seat])
                wins[players, style] += seat in g["winners"]
    lines: list[tuple[Cell, ...]] = []
    for (players, style), ms in sorted(margins.items()):
        mean, half = mean_ci(ms)
        lo, hi = wilson(wins[players, style], len(ms))
        lines.append((players, style, len(ms), mean, half, wins[players, style] / len(ms), lo, hi))
    return Table(
        "styles",
        "Raiding against building: margin and win rate by style",
        (
            "players",
            "style",
            "seat_games",
            "mean_margin",
            "ci_half_width",
            "win_rate",
            "win_ci_low",
            "win_ci_high",
        ),
        lines,
        note="A seat 'raids more' when it raided more often than it built or added to "
        "a tower in that game. Margin: own score minus the mean of the opponents'. "
        "Style follows the cards as much as the player: read as association only.",
    )


def seats(rows: Rows) -> Table:
    """Margin and win rate by position, and of the seat that declared the first trade."""
    lines: list[tuple[Cell, ...]] = []
    for players, games in _played(rows).items():
        groups: dict[str, list[tuple[float, bool]]] = defaultdict(list)
        for g in games:
            for seat in range(players):
                won = seat in g["winners"]
                groups[f"position {position(seat, players)}"].append((g["margins"][seat], won))
                if g["first_trade"] == seat:
                    groups["first trader"].append((g["margins"][seat], won))
        for label in sorted(groups):
            ms = [m for m, _ in groups[label]]
            w = sum(won for _, won in groups[label])
            mean, half = mean_ci(ms)
            lines.append((players, label, len(ms), mean, half, w / len(ms), *wilson(w, len(ms))))
    return Table(
        "seats",
        "Seats: margin and win rate by position, and of the first trader",
        (
            "players",
            "seat",
            "games",
            "mean_margin",
            "ci_half_width",
            "win_rate",
            "win_ci_low",
            "win_ci_high",
        ),
        lines,
        note="position 1 moves first in the first round (the deal rotates, R3); the "
        "first trader is the seat that declared the game's first trade.",
    )


def analyse(config: StudyConfig, rows: Rows) -> Section:
    """The section of the report for ``towers-play``."""
    section = Section("Three Towers: rounds, towers, points, styles, seats")
    stalled = sum(row["end"] == "stalled" for _, row in rows)
    section.intro.append(
        f"{len(rows)} games by {', '.join(config.bots)} bots ({stalled} stopped by the move "
        "cap). To compare rule options, run the study again with --option into another folder "
        "(e.g. --option defence=any --out lab-out/towers-defence-any); each folder is one "
        "section of this report."
    )
    g, p, pa, a, st, se = (
        games_and_rounds(rows),
        points_by_source(rows),
        points_by_action(rows),
        actions(rows),
        styles(rows),
        seats(rows),
    )
    section.tables += [g, p, pa, a, st, se]
    section.figures += figures(p, pa, st, se)
    return section


def figures(points: Table, by_action: Table, styles: Table, seats: Table) -> list[Figure]:
    """The section's plots: where points come from, and who gains by style and by seat."""
    out: list[Figure] = []
    # One colour per table size, each bar with its interval.
    per_players = partial(
        plots.bars, group="players", series=lambda n: f"{n} players", half="ci_half_width"
    )
    if points.rows:
        out.append(
            per_players(
                "towers-points",
                "Where do a game's points come from? Mean points per game by "
                "source, all seats together",
                points,
                "source",
                "mean_points",
                names=SOURCE_NAMES,
                horizontal=True,
                value_label="points per game (mean)",
                category_label="source of points (R2, R13, R14)",
            )
        )
    if by_action.rows:
        out.append(
            per_players(
                "towers-points-by-action",
                "Which actions bring a seat its points? Mean points "
                "per seat and game by the action that won them",
                by_action,
                "action",
                "mean_points",
                names=ACTION_NAMES,
                horizontal=True,
                value_label="points per seat and game (mean)",
                category_label="the action that brought the points",
            )
        )
    if styles.rows:
        out.append(
            per_players(
                "towers-styles",
                "Does raiding or building pay? Mean margin by style of play",
                styles,
                "style",
                "mean_margin",
                value_label="margin over the others (points)",
                category_label="how the seat played that game",
            )
        )
    if seats.rows:
        out.append(
            per_players(
                "towers-seats",
                "Does the seat matter? Mean margin by position, and of the seat "
                "that declared the first trade",
                seats,
                "seat",
                "mean_margin",
                value_label="margin over the others (points)",
                category_label="seat (position in the first round)",
            )
        )
    return out
