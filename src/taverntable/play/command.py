"""``tavern play GAME``: play a game against bots in the terminal.

Every game is played by the one session (``session.py``) with the game's front end, which the
game registry names (``Game.terminal``); the games share this command's options.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from taverntable.bots.registry import LEVELS, bots_of, level_bot
from taverntable.engine import DealError
from taverntable.games import all_games, game_names, get_game
from taverntable.names import MAX_NAME, name_problem

from .io import PlayIO, shown
from .resume import ResumeError, SavedGame, load_saved
from .session import DEFAULT_BOTS, DEFAULT_NAME, DEFAULT_PLAYERS, play


def players_count(text: str) -> int:
    """argparse type: a number of players some game of the registry is played by; each game's
    own range (T2, R3) is checked once the game is known (``check_players``)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    games = all_games()
    least, most = min(g.min_players for g in games), max(g.max_players for g in games)
    if not least <= n <= most:
        raise argparse.ArgumentTypeError(f"{least} to {most} players, not {n}")
    return n


def players_help() -> str:
    """``tonk, tor, pagat 2-10; three-towers 2-4``: each game's player counts (``--help``)."""
    ranges: dict[str, list[str]] = {}
    for game in all_games():
        ranges.setdefault(f"{game.min_players}-{game.max_players}", []).append(game.name)
    counts = "; ".join(f"{', '.join(names)} {span}" for span, names in ranges.items())
    return f"players, you included ({counts}; default {DEFAULT_PLAYERS})"


def positive(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def player_name(text: str) -> str:
    """argparse type: the user's name at the table (spaces around it are dropped)."""
    name = text.strip()
    why = name_problem(name)
    if why is not None:
        raise argparse.ArgumentTypeError(why)
    return name


def save_file(text: str) -> str:
    """argparse type: a file the match can be saved to; refused up front when it never could be
    (so that the record of the match is not lost at the end)."""
    if "\0" in text:
        raise argparse.ArgumentTypeError("a file name cannot hold a NUL character")
    if not text or os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"there is no folder {folder!r}")
    if not os.access(folder, os.W_OK) or (os.path.exists(text) and not os.access(text, os.W_OK)):
        raise argparse.ArgumentTypeError(f"{text!r} cannot be written")
    return text


def bots_help() -> str:
    """Every bot and level in the bot registry, the default marked (``--help``)."""
    games = {game: bots_of(game) for game in game_names()}
    names = list(dict.fromkeys(bot for bots in games.values() for bot in bots))

    def games_of(bot: str) -> str:
        playing = [game for game, bots in games.items() if bot in bots]
        return "" if len(playing) == len(games) else f" ({', '.join(playing)} only)"

    def level_text(level: str) -> str:
        by_bot: dict[str, list[str]] = {}
        for game in games:
            by_bot.setdefault(level_bot(level, game) or level, []).append(game)
        if len(by_bot) == 1:
            return f"{level} = {next(iter(by_bot))}"
        return f"{level} = " + " / ".join(f"{bot} ({', '.join(on)})" for bot, on in by_bot.items())

    levels = ", ".join(level_text(level) for level in LEVELS)
    bots = ", ".join(f"{bot}{games_of(bot)}" for bot in names)
    default = level_text(DEFAULT_BOTS).partition(" = ")[2]
    return (
        f"one bot per other seat, comma-separated, or one for all. Levels: {levels}; "
        f"bots: {bots}. Default: {DEFAULT_BOTS} ({default})"
    )


def rule_option(text: str) -> tuple[str, Any]:
    """``--option NAME=VALUE``: the value read as JSON (true, 10, null), else as the text."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"takes NAME=VALUE, not {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


def add_parser(subparsers: Any) -> None:
    """Register ``play`` with the ``tavern`` command."""
    p = subparsers.add_parser(
        "play",
        help="play a game against bots",
        description="Play against bots: you sit at seat 0, the bots take the other seats.",
    )
    p.add_argument(
        "game",
        nargs="?",
        choices=game_names(),
        help="the game (a Tonk preset or three-towers); not needed with --resume",
    )
    p.add_argument("--players", type=players_count, default=None, help=players_help())
    p.add_argument("--seed", type=int, default=None, help="shuffle seed, for a repeatable match")
    p.add_argument("--stake", type=positive, default=None, help="units per payment (T2; default 1)")
    p.add_argument("--bots", default=None, help=bots_help())
    p.add_argument(
        "--teams",
        action="store_true",
        help="three-towers: two pairs, seats 0+2 against 1+3 (needs --players 4)",
    )
    p.add_argument(
        "--option",
        type=rule_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option of the game, e.g. joker_points=10 or spade_jack_defends=true "
        "(repeatable; the rules name them)",
    )
    p.add_argument(
        "--name",
        type=player_name,
        default=None,
        help=f"your name at the table (default {DEFAULT_NAME}; at most {MAX_NAME} characters)",
    )
    p.add_argument(
        "--deals",
        type=positive,
        default=None,
        metavar="N",
        help="Tonk: the match is N deals, then the final standings",
    )
    p.add_argument(
        "--target",
        type=positive,
        default=None,
        metavar="UNITS",
        help="Tonk: the match ends after the deal in which a player's balance reaches +UNITS",
    )
    p.add_argument(
        "--save",
        type=save_file,
        metavar="FILE.jsonl",
        help="save the match here: the finished deals (rounds) as they end, "
        "everything when you leave",
    )
    p.add_argument(
        "--resume",
        metavar="FILE.jsonl",
        help="go on with a match saved earlier (and keep saving it there)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace, io: PlayIO | None = None) -> int:
    """Play the chosen game (or the saved one); returns the exit status."""
    io = io or PlayIO.standard()
    saved: SavedGame | None = None
    if args.resume is not None:
        try:
            saved = load_saved(args.resume)
        except ResumeError as e:
            io.console.print(f"[red]Cannot resume: {shown(str(e))}[/red]")
            return 2
        if args.game is not None and args.game != saved.game:
            io.console.print(
                f"[red]{shown(args.resume)} holds a {saved.game} match, not {args.game}.[/red]"
            )
            return 2
        args.game = saved.game
    elif args.game is None:
        io.console.print(
            f"[red]Name a game ({', '.join(game_names())}) or give --resume FILE.[/red]"
        )
        return 2
    args.bots = args.bots or DEFAULT_BOTS
    game = get_game(args.game)
    if saved is None:
        try:  # T2, R3: the game's own player count (a saved match has its own players)
            game.check_players(game.rules(), args.players or DEFAULT_PLAYERS)
        except DealError as e:
            io.console.print(f"[red]{shown(str(e))}.[/red]")
            return 2
    return play(args, io, saved)
