"""``tavern arena``: bots against bots with rotated seats and duplicate deals; a report per bot."""

from __future__ import annotations

import argparse
import json
import math
import time
from functools import partial
from typing import IO, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from taverntable.games import all_games, game_names
from taverntable.records import dump_record

from .bots import build_bot, parse_value
from .play import GamePlayed, entrant_names, play_deals, seat_lineup
from .summary import ArenaReport, summarize
from .table import ArenaError, arena_table


def add_parser(subparsers: Any) -> None:
    """Register ``tavern arena``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "arena",
        help="play bots against each other (duplicate deals, rotated seats) and rate them",
        description="Each deal is played once per seat rotation, so every bot plays every seat "
        "of every deal; the mean is per game (Tonk: net gain in stakes; Three Towers: points) "
        "and its 95% interval is over deals; the margin is a bot's result minus the mean of the "
        "others in the same game, with its 95% interval over deals. Elo is a Bradley-Terry fit "
        "to the pairwise results of every game (a higher result wins, equal is a draw), with "
        "mean 1500. Bots: a name or level (random, heuristic, ismcts, easy, medium, hard), "
        "optionally with settings, e.g. hard:iterations=500; with the rl extra also "
        "OpenSpiel's openspiel-ismcts (e.g. openspiel-ismcts:simulations=1000) and "
        "openspiel-random, and learned:weights=FILE.npz (a policy trained through the "
        "environments, docs/environments.md).",
    )
    p.add_argument("--game", required=True, choices=sorted(game_names()))
    p.add_argument("--players", type=int, default=None, help="seats (default: number of bots)")
    p.add_argument(
        "--bots",
        required=True,
        help="comma-separated, one per seat (repeated to "
        "fill the seats); the same name twice is reported as NAME#2. Arena only, "
        f"CHEATING measurement bots that read hidden cards: {cheats_offered()}",
    )
    p.add_argument("--deals", type=int, default=100, help="deals, each played once per seat")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--stake", type=int, default=1, help="units per payment (T2)")
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option (repeatable), e.g. --rule hit_sets=false",
    )
    p.add_argument(
        "--max-moves",
        type=int,
        default=None,
        help="moves before a game is stopped as capped (default: the game's own cap, "
        "far above any game that does not go round in circles)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes to play deals in parallel (same games, same figures)",
    )
    p.add_argument("--out", metavar="FILE.jsonl", help="save every game as a record, one a line")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def parse_rules(items: list[str]) -> dict[str, Any]:
    """``--rule key=value`` options as a dict; ArenaError for a malformed one."""
    out: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ArenaError(f"--rule {item!r}: write KEY=VALUE, e.g. hit_sets=false")
        out[key] = parse_value(value)
    return out


def cheats_offered() -> str:
    """Each game's cheating measurement bots, for the help (``Game.cheats``)."""
    by_game = [f"{', '.join(g.cheats)} ({g.name})" for g in all_games() if g.cheats]
    return "; ".join(by_game) or "none"


def cheating() -> set[str]:
    """The names of the measurement bots that read hidden cards (the report says so)."""
    return {name for game in all_games() for name in game.cheats}


def run(args: argparse.Namespace) -> int:
    """Play the arena and print the report; 2 on bad arguments."""
    err = Console(stderr=True)
    try:
        return _run(args, err)
    except ArenaError as e:
        err.print(f"tavern arena: {e}", markup=False, highlight=False, soft_wrap=True)
        return 2


def _run(args: argparse.Namespace, err: Console) -> int:
    specs = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not specs:
        raise ArenaError("--bots names no bot (e.g. --bots heuristic,random)")
    # The bots first: a misspelt name is the likeliest mistake, and says what to fix.
    for spec in dict.fromkeys(specs):
        build_bot(spec, args.game)
    if args.jobs < 1:
        raise ArenaError("--jobs must be at least 1")
    if args.deals < 1:
        raise ArenaError("--deals must be at least 1")
    if args.stake < 1:
        raise ArenaError("--stake must be at least 1 (T2)")
    if args.max_moves is not None and args.max_moves < 1:
        raise ArenaError("--max-moves must be at least 1")
    options = parse_rules(args.rule)
    players = args.players if args.players is not None else len(specs)
    try:
        table = arena_table(args.game, players, args.stake, options)
    except ArenaError as e:
        if args.players is not None:
            raise
        raise ArenaError(
            f"{e}: give --players N (one bot name fills every seat) or name a bot for each seat"
        ) from None
    lineup = seat_lineup(specs, players)
    names = entrant_names(lineup)
    out = open_out(args.out)
    start = time.perf_counter()
    try:
        with Progress(
            TextColumn("[bold]arena[/bold] {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
            disable=not err.is_terminal,
        ) as progress:
            task = progress.add_task(args.game, total=args.deals * players)

            def on_game(g: GamePlayed) -> None:
                if out is not None:
                    seats = [names[e] for e in g.entrants]
                    out.write(json.dumps(dump_record(g.state, seats)) + "\n")
                progress.advance(task)

            played = play_deals(
                table,
                lineup,
                args.deals,
                args.seed,
                max_moves=args.max_moves,
                make=partial(build_bot, game=args.game),
                on_game=on_game,
                jobs=args.jobs,
            )
    finally:
        if out is not None:
            out.close()
    report = summarize(table, names, played, args.deals, args.seed)
    report.seconds = time.perf_counter() - start
    report.rules = options
    if args.json:
        print(json.dumps(_clean(report.to_json())))
    else:
        print_report(report, Console())
    return 0


def open_out(path: str | None) -> IO[str] | None:
    """The --out file, opened before any game is played; ArenaError if it cannot be written."""
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8")  # closed by the caller
    except OSError as e:
        raise ArenaError(f"cannot write --out {path}: {e.strerror or e}") from None


def _clean(x: Any) -> Any:
    """Non-finite numbers (an interval from one deal, a mean of no games) as JSON null."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    return x


def _num(x: float, fmt: str) -> str:
    return format(x, fmt) if math.isfinite(x) else "—"


def _plus_minus(value: float, interval: tuple[float, float], digits: int) -> str:
    """``+1.234 ± 0.567``: the arena's intervals are symmetric (Student's t about the mean)."""
    if not math.isfinite(value):
        return "—"
    half = interval[1] - value
    spread = f"± {half:.{digits}f}" if math.isfinite(half) else "± —"
    return f"{value:+.{digits}f} {spread}"


def print_report(report: ArenaReport, console: Console) -> None:
    """The report as a table that fits 80 columns: each interval as ± its half-width."""
    digits = 1 if report.unit == "points" else 3  # Three Towers scores run to hundreds
    table = Table(
        title=f"{report.game}, {report.players} players, {report.deals} deals × "
        f"{report.players} seats = {report.games} games (seed {report.seed})"
    )
    table.add_column("bot", overflow="fold", min_width=8)  # a long spec folds, never cut
    for header in ("games", "mean ± 95% CI", "margin ± 95% CI", "win rate", "Elo"):
        table.add_column(header, justify="right", no_wrap=True)
    for b in sorted(report.bots, key=lambda b: -b.elo if math.isfinite(b.elo) else 0):
        table.add_row(
            b.name,
            str(b.games),
            _plus_minus(b.mean, b.ci95, digits),
            _plus_minus(b.margin, b.margin_ci95, digits),
            _num(b.win_rate * 100, ".1f") + "%",
            _num(b.elo, ".0f"),
        )
    console.print(table)
    console.print(
        f"mean: {report.unit} per game; margin: the bot's result minus the mean of "
        "the others in the same game; 95% CI over deals (— : too few deals)."
    )
    if report.capped_games:
        console.print(
            f"{report.capped_games} games stopped at the move cap; their "
            f"{report.capped_deals} deals are left out of the figures."
        )
    console.print(
        f"Elo: Bradley–Terry over pairwise results per game, mean 1500. {report.seconds:.1f} s."
    )
    cheats = sorted({b.name.partition("#")[0] for b in report.bots} & cheating())
    if cheats:
        console.print(
            f"CHEATING: {', '.join(cheats)} read{'s' if len(cheats) == 1 else ''} "
            "hidden cards: a ceiling to measure against, not a player."
        )
