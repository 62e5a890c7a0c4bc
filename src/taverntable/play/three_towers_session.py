"""The Three Towers front end of ``tavern play``: you at seat 0, bots at the other seats.

The game is played by the one game loop, ``engine.play_out``: the user's seat is a
``PersonAtSeat`` that asks for a move, bots choose from their own views. Everything shown to the
user comes from seat 0's view and from the events seat 0 receives (R16, ``three_towers_narrate``).
Chance steps (a round's deal, a shuffle, a Thief's steal) are drawn from the ``--seed``
generator, bots from their own, so a seed repeats the first deal whatever the bots do. The game
runs round after round until someone has three towers (R14), the user quits, or the input ends.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from taverntable.bots import BotError, make_bot
from taverntable.engine import Bot, Event, play_out
from taverntable.games import get_game
from taverntable.games.three_towers import TowersMove, TowersRules, TowersState, TowersView
from taverntable.games.three_towers.phases import DEAL

from . import three_towers_render as show
from .command import DEFAULT_NAME, DEFAULT_PLAYERS, bot_level
from .io import PlayIO, Quit, ask_move, shared_command, shown
from .resume import ResumeError, SavedGame, settled_towers_record, towers_saved
from .saving import Saver
from .seat import PersonAtSeat
from .three_towers_narrate import is_deal, narrate
from .words import count

# Bot names: the gremlin who plays Three Towers in Eador's campaign, and company.
BOT_NAMES = ("Zarr", "Goblin", "Elmo")

HELP = """\
Moves (the records notation; lower case, T for 10 and suit symbols are fine; X is a joker):
  trade 7H | trade X H take      lead a trade (A1, R4)
  build AD | build AD 9H         start a tower, optionally with one goods card (R8)
  add 9H | add AH                goods on your tower, or an ace to reinforce it (R8)
  raid 1 QD | curse 1 KS         attack seat 1's tower / seat 1 with the Warlock (R9)
  redeal X | redeal warriors J J Q K | redeal jacks 1 | redeal queens | redeal kings (R10)
  answer 7H | answer X take | answer 4C JD | fail     answer a trade (R5, R6)
  defend KH | defend X | yield   when you are attacked (R9)
  name 1 · store 9H · give 3S 1 · take 1 10H · done  (the Witch, redeals, tower bonuses)
Or type a move's number from the list (1, 2 …); Tab completes moves and commands.
Commands: moves (or ?) lists your legal moves · table · history (the round so far) · rules R9
(a rule's text; rules lists them) · save FILE · help · quit"""


def refuse(io: PlayIO, message: str) -> int:
    io.console.print(f"[red]{message}[/red]")
    return 2


def play(args: argparse.Namespace, io: PlayIO, saved: SavedGame | None = None) -> int:
    """Run ``tavern play three-towers`` (or go on with a saved game); the exit status."""
    if args.deals is not None or args.target is not None:
        return refuse(
            io,
            "--deals and --target are for Tonk matches; a Three Towers game ends "
            "when someone has three towers (R14).",
        )
    if args.stake is not None:
        return refuse(io, "--stake is for Tonk; Three Towers is scored in points (R13).")
    kept: list[dict[str, Any]] = []
    notes: list[str] = []
    state: TowersState | None = None
    if saved is None:
        n = args.players or DEFAULT_PLAYERS
        teams = bool(args.teams)
        if teams and n != 4:
            return refuse(io, f"Team play needs --players 4, not {n} (R15).")
        name = args.name or DEFAULT_NAME
        players = [name, *[x for x in BOT_NAMES if x != name][: n - 1]]
        rules = get_game(args.game).rules({"teams": teams})
    else:
        try:
            at = towers_saved(saved)
        except ResumeError as e:
            return refuse(io, f"Cannot resume: {shown(str(e))}")
        players, state, kept, rules = saved.players, at.state, at.kept, at.state.rules
        why = conflicts(args, players, state)
        if why:
            return refuse(io, shown(why))
        notes.append(f"Resumed {shown(saved.path)}: {count(len(state.rounds), 'round')} counted.")
        if at.abandoned is not None:
            notes.append(
                f"Round {at.abandoned} was not finished when it was saved; its record "
                "shows every hand and the deck, so it is not played on: it is dealt "
                "again (the unfinished record stays in the file)."
            )
    n = len(players)
    names = [x.strip() for x in args.bots.split(",") if x.strip()]
    if len(names) == 1:
        names *= n - 1
    if len(names) != n - 1:
        return refuse(
            io,
            f"--bots names {len(names)} bots for {n - 1} other seats; give one "
            "name for all or one per seat.",
        )
    try:
        bots = [make_bot(x, args.game) for x in names]
    except BotError as e:
        return refuse(io, shown(str(e)))
    targets = [args.save] if args.save else [args.resume] if args.resume else []
    session = TowersSession(
        rules,
        players,
        [None, *bots],
        io,
        args.seed,
        Saver(io, targets, kept),
        levels=["", *(bot_level(n, args.game) for n in names)],
        notes=notes,
        state=state,
    )
    return session.run()


def conflicts(args: argparse.Namespace, players: Sequence[str], state: TowersState) -> str | None:
    """Why the options given contradict the saved game, or None."""
    if args.players is not None and args.players != len(players):
        return f"--players {args.players}: the saved game has {len(players)} players."
    if args.name is not None and args.name != players[0]:
        return f"--name {args.name}: in the saved game you are {players[0]}."
    if args.teams and not state.rules.teams:
        return "--teams: the saved game is not played in pairs."
    return None


class TowersSession:
    """One game at the terminal: the rounds, the user's decisions, the bots', the counts."""

    def __init__(
        self,
        rules: TowersRules,
        players: Sequence[str],
        bots: Sequence[Bot | None],
        io: PlayIO,
        seed: int | None,
        saver: Saver,
        *,
        levels: Sequence[str] = (),
        notes: Sequence[str] = (),
        state: TowersState | None = None,
    ) -> None:
        """``state``: a game to go on with (a resumed save), else a new one."""
        n = len(players)
        # The user's seat moves first in the first round: the dealer is the seat before it (R3).
        self.state = state or TowersState.new(rules, n, dealer=n - 1)
        self.players = list(players)
        self.bots = bots
        self.io = io
        self.out = io.console
        self.chance_rng = random.Random(seed)
        self.bot_rng = random.Random(f"bots-{seed}") if seed is not None else random.Random()
        self.saver = saver
        self.levels = list(levels) or [""] * n
        self.notes = list(notes)
        self.log: list[str] = []  # this round's moves as the user saw them
        self.round_shown = False  # the round's heading was the last thing printed

    def run(self) -> int:
        """Play until the game ends, the user quits or the input ends; exit status 0."""
        table = (
            "two pairs (seats 0+2 against 1+3)"
            if self.state.rules.teams
            else f"{len(self.players)} players"
        )
        self.out.print(
            f"[bold]Tavern Table: Three Towers[/bold] · {table}. "
            "Type 'help' for help, 'quit' to leave."
        )
        self.out.print(
            "Seats: "
            + " · ".join(
                f"{s} {show.name(self.players, s)}{f' ({escape(lv)} bot)' if lv else ''}"
                for s, lv in enumerate(self.levels)
            )
        )
        for note in self.notes:
            self.out.print(note)
        try:
            self.play_game()
        except Quit:
            pass
        except EOFError:
            self.out.print("End of input: leaving the table.")
        except KeyboardInterrupt:
            self.save_all()
            raise
        self.save_all()
        self.out.print(show.standings(self.state.view(0), self.players))
        return 0

    def play_game(self) -> None:
        """Every step of the game through the one loop (``engine.play_out``): chance, bots and
        the user, each told as it happens from the events seat 0 receives."""
        seats = [bot or PersonAtSeat(self.user_move) for bot in self.bots]
        self.before = self.state.view(0)
        play_out(self.state, seats, self.bot_rng, chance_rng=self.chance_rng, on_move=self.tell)

    def tell(self, seat: int, move: object, events: Sequence[Event]) -> None:
        """``on_move``: the move's sentences, a new round's heading, the count, the game's end.
        Everything is read from the events as seat 0 sees them (R16) and the table it sees."""
        seen = [e.for_seat(0) for e in events]
        now = self.state.view(0)
        if is_deal(seen):
            # One line opens the round; the table below it leaves its own heading out.
            self.log = []
            self.out.rule(show.round_heading(now, self.players, dealt=False))
            self.round_shown = True
        for line in narrate(seen, self.before, self.players):
            self.log.append(line)
            self.out.print(line)
            self.round_shown = False
        self.before = now
        ended = {e.kind: e for e in seen if e.kind in ("round_end", "win_bonus", "game_end")}
        if "round_end" in ended:
            self.print_lines(show.round_count(ended["round_end"].data or {}, now, self.players))
            self.saver.save_settled(self.settled_records)
        if "game_end" in ended:
            self.print_lines(self.game_over(ended["game_end"], ended.get("win_bonus"), now))

    def game_over(self, end: Event, bonus: Event | None, view: TowersView) -> list[str]:
        """R14: why the game ended (with the +150 of a third tower) and who won."""
        result = end.data or {}
        winners = result["winners"]
        how = (
            "the round limit (R14)"
            if bonus is None
            else f"three towers (+{(bonus.data or {})['points']}, R14)"
        )
        names = " and ".join("you" if w == 0 else escape(self.players[w]) for w in winners)
        lines = [f"[bold yellow]Game over[/bold yellow] by {how}. Winner: {names}."]
        if bonus is not None and bonus.seat not in winners:
            assert bonus.seat is not None
            lines.append(show.towers_not_enough(view, self.players, bonus.seat, winners))
        return lines

    def user_move(self, view: TowersView) -> TowersMove:
        """Ask until the user enters a legal move (or a command that leaves)."""
        if view.phase == "turn":
            self.print_lines(
                show.table(view, self.players, self.levels, heading=not self.round_shown)
            )
        else:
            self.out.print(show.hand_line(view.hand))
        self.round_shown = False
        self.print_lines(show.decision(view, self.players))
        self.out.print(show.options_line(view))
        prompt = PROMPTS.get(view.phase, "Your move> ")
        state = self.state
        move: TowersMove = ask_move(
            self.io, prompt, lambda t: self.command(t, state), state, view.legal_moves
        )
        return move

    def command(self, text: str, state: TowersState) -> bool:
        """Handle a command that is not a move; True when ``text`` was one."""
        if not text:
            self.print_lines(show.decision(state.view(0), self.players))
            return True
        if text.lower() in ("table", "t"):
            self.print_lines(show.table(state.view(0), self.players, self.levels))
            return True
        return shared_command(
            self.io,
            text,
            help_text=HELP,
            legal_moves=lambda: state.view(0).legal_moves,
            save=self.save_command,
            history=self.history,
            game=state.game,
        )

    def history(self) -> list[str]:
        """``history``: this round's moves, numbered, as the user saw them."""
        if not self.log:
            return []
        return [
            f"Round {self.state.round_no} so far:",
            *(f"  {i:>3}. {line}" for i, line in enumerate(self.log, 1)),
        ]

    def print_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.out.print(line)

    def settled_records(self) -> list[dict[str, Any]]:
        """The game up to its last counted round (the round being played would show the deck
        and every hand), or nothing before the first count."""
        from taverntable.records import dump_record

        settled = settled_towers_record(dump_record(self.state, self.players), self.state)
        return [] if settled is None else [settled]

    def all_records(self) -> list[dict[str, Any]]:
        from taverntable.records import dump_record

        return [dump_record(self.state, self.players)]

    def save_command(self, path: str | None) -> None:
        """``save`` / ``save FILE``: the game up to its last counted round."""
        state = self.state
        in_round = not state.is_over and state.phase != DEAL
        rounds = len(state.rounds)
        summary = (
            f"the game up to the end of round {rounds}"
            if rounds
            else "no round yet (none has been counted)"
        )
        withheld = (
            (
                "The round in progress is not in the file: its record would show the deck "
                "and every hand. It goes in when the round is counted, or when you leave "
                "the table."
            )
            if in_round
            else None
        )
        self.saver.save_command(path, self.settled_records, summary, withheld)

    def save_all(self) -> None:
        """On leaving: the whole game, the round in progress included (said plainly)."""
        state = self.state
        summary = "the game"
        if not state.is_over and state.phase != DEAL and state.history:
            summary += (
                f" (round {state.round_no} unfinished: its record shows every hand and "
                "the deck; --resume deals it again)"
            )
        self.saver.save_all(self.all_records, summary)


PROMPTS = {
    "turn": "Your move> ",
    "answer": "Answer the trade> ",
    "defend": "Defend or yield> ",
    "name": "Name who takes the Witch's trade> ",
    "queens": "Store a card or done> ",
    "kings": "Give a card> ",
    "club": "Take a card or done> ",
    "dark": "Give a card or done> ",
}
