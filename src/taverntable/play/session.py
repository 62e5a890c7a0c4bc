"""The one terminal session: ``tavern play GAME`` for every game, you at seat 0, bots at the others.

A match (``taverntable.match``) runs deal after deal: ``Game.start`` deals, the one game loop
(``engine.play_out``) plays it — the user's seat is a ``PersonAtSeat`` that asks for a move, bots
choose from their own views — and ``Game.next_dealer`` passes the deal on, until the match's
length is reached, the user quits or the input ends. Everything shown to the user comes from seat
0's view and the events seat 0 receives, drawn and told by the game's front end (``front_end``):
the session itself knows no game. Deals and chance steps are drawn from the ``--seed`` generator,
bots from their own, so a seed repeats the first deal whatever the bots do. What is settled is
saved as it is settled (``saving``); a saved match is taken up again with ``--resume``
(``resume``).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any

from taverntable.bots import BotError, make_bot
from taverntable.bots.registry import LEVELS, level_bot
from taverntable.characters import bot_seat_names
from taverntable.engine import Bot, Event, Game, GameState, play_out
from taverntable.games import get_game
from taverntable.match import Match, MatchLength
from taverntable.records import dump_record

from .front_end import FrontEnd, Told, front_end_of
from .io import PlayIO, Quit, ask_move, shared_command, shown
from .resume import ResumeError, SavedGame, take_up
from .saving import Saver
from .seat import PersonAtSeat
from .words import count

DEFAULT_PLAYERS = 3
DEFAULT_BOTS = "medium"
DEFAULT_NAME = "You"


def refuse(io: PlayIO, message: str) -> int:
    io.console.print(f"[red]{message}[/red]")
    return 2


def play(args: argparse.Namespace, io: PlayIO, saved: SavedGame | None = None) -> int:
    """Run ``tavern play GAME`` (or go on with a saved match); the exit status."""
    game = get_game(args.game)
    front_end = front_end_of(game)
    why = front_end.refused(args)
    if why:
        return refuse(io, why)
    kept: list[dict[str, Any]] = []
    notes: list[str] = []
    if saved is None:
        n = args.players or DEFAULT_PLAYERS
        rules = front_end.new_rules(game, args, n)
        if isinstance(rules, str):
            return refuse(io, rules)
        name = args.name or DEFAULT_NAME
        # The bots are the seeds' characters, named as the server's tables name them.
        players = [name, *bot_seat_names(args.game, n - 1, taken=[name])]
        # The user's seat acts first in the first deal: the dealer is the seat before it (T2).
        match = Match(game, rules, n, stake=args.stake or 1, dealer=n - 1)
    else:
        try:
            resumed = take_up(saved, game, front_end)
            notes = front_end.resumed(saved, resumed)
        except ResumeError as e:
            return refuse(io, f"Cannot resume: {shown(str(e))}")
        players, match, kept = saved.players, resumed.match, resumed.kept
        why = conflicts(args, players, match, front_end)
        if why:
            return refuse(io, shown(why))
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    others = len(players) - 1
    if len(names) == 1:
        names *= others
    if len(names) != others:
        return refuse(
            io,
            f"--bots names {len(names)} bots for {others} other seats; give one "
            "name for all or one per seat.",
        )
    try:
        bots = [make_bot(b, args.game) for b in names]
    except BotError as e:
        return refuse(io, shown(str(e)))
    length = front_end.length(args)
    if saved is not None and length.deals is not None and match.finished >= length.deals:
        words = front_end.words
        return refuse(
            io,
            f"The saved {words.match} has {count(match.finished, 'finished ' + words.deal)} "
            f"already; --deals {length.deals} is the whole {words.match}'s length.",
        )
    targets = [args.save] if args.save else [args.resume] if args.resume else []
    session = Session(
        front_end,
        match,
        players,
        [None, *bots],
        io,
        args.seed,
        Saver(io, targets, kept),
        levels=["", *(bot_level(b, args.game) for b in names)],
        length=length,
        earlier=len(kept),
        notes=notes,
    )
    return session.run()


def conflicts(
    args: argparse.Namespace, players: Sequence[str], match: Match, front_end: FrontEnd
) -> str | None:
    """Why the options given contradict the saved match, or None."""
    saved = f"the saved {front_end.words.match}"
    if args.players is not None and args.players != len(players):
        return f"--players {args.players}: {saved} has {len(players)} players."
    if args.name is not None and args.name != players[0]:
        return f"--name {args.name}: in {saved} you are {players[0]}."
    if args.stake is not None and args.stake != match.stake:
        return f"--stake {args.stake}: {saved} is played for {match.stake}."
    return front_end.conflicts(args, match.rules)


def bot_level(name: str, game: str) -> str:
    """What a seat's bot is called at the table: its level in ``game`` (``medium``), else its
    name."""
    name = name.lower()
    return next((level for level in LEVELS if level_bot(level, game) == name), name)


class Session:
    """One match at the terminal: the deals, the user's turns, the bots' turns, the saves. It is
    the ``AtTable`` its front end reads."""

    def __init__(
        self,
        front_end: FrontEnd,
        match: Match,
        players: Sequence[str],
        bots: Sequence[Bot | None],
        io: PlayIO,
        seed: int | None,
        saver: Saver,
        *,
        levels: Sequence[str] = (),
        length: MatchLength | None = None,
        earlier: int = 0,
        notes: Sequence[str] = (),
    ) -> None:
        """``match``: new, or resumed (its current deal, if any, is played on); ``length``: when
        the match ends (None: when the user leaves); ``earlier``: the deals of a resumed match
        before this session's."""
        self.front_end = front_end
        self.match = match
        self.players = list(players)
        self.bots = bots
        self.io = io
        self.out = io.console
        self.levels = list(levels) or [""] * len(self.players)
        # Separate generators: the deals depend on the seed only, not on what the bots compute.
        self.deal_rng = random.Random(seed)
        self.bot_rng = random.Random(f"bots-{seed}") if seed is not None else random.Random()
        self.saver = saver
        self.length = length or MatchLength()
        self.earlier = earlier
        self.notes = list(notes)
        self.log: list[str] = []  # the current (or last) part's moves as the user saw them
        self.chapter = ""  # that part's name in the history: "Deal 3", "Round 2"
        self.heading_last = False  # a heading was the last thing printed
        self.before: Any = None  # seat 0's view before the move being told

    # --- what the front end reads (``AtTable``) -----------------------------------------------

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def deal_number(self) -> int:
        return self.earlier + len(self.match.deals)

    @property
    def state(self) -> GameState[Any, Any] | None:
        return self.match.deals[-1] if self.match.deals else None

    @property
    def over(self) -> bool:
        return self.length.reached(self.match.finished, self.match.totals)

    # --- the match ----------------------------------------------------------------------------

    def run(self) -> int:
        """Play deals until the match ends, the user quits or the input ends; exit status 0."""
        self.print_lines([*self.front_end.header(self), *self.notes])
        try:
            while True:
                self.play_deal()
                if self.over:
                    break
                self.between_deals()
        except Quit:
            pass
        except EOFError:
            self.out.print("End of input: leaving the table.")
        except KeyboardInterrupt:
            # Keep the match on Ctrl-C too; the command reports the interruption.
            self.save_all()
            raise
        self.save_all()
        self.out.print(self.front_end.standings(self))
        return 0

    def play_deal(self) -> None:
        """Deal (or go on with the resumed deal), play every step through the one loop
        (``engine.play_out``), book the deal; everything told from what seat 0 receives."""
        state = self.match.current
        events: Sequence[Event] = ()
        if state is None:
            state = self.match.new_deal(self.deal_rng)
            events = state.opening_events()
        self.show(self.front_end.opening(self, state, events))
        self.before = state.view(0)
        seats = [bot or PersonAtSeat(self.user_move) for bot in self.bots]
        play_out(state, seats, self.bot_rng, chance_rng=self.deal_rng, on_move=self.tell)
        self.match.settle_if_over()
        self.print_lines(self.front_end.deal_over(self))
        self.saver.save_settled(self.settled_records)

    def tell(self, seat: int, move: object, events: Sequence[Event]) -> None:
        """``on_move``: the move as seat 0 saw it."""
        now = self.match.deals[-1].view(0)
        told = self.front_end.told(self, self.before, now, events)
        self.before = now
        self.show(told)

    def show(self, told: Told) -> None:
        """Print what the front end told: a heading starts the history again."""
        if told.heading is not None:
            self.out.rule(told.heading)
            self.log = []
            self.chapter = told.chapter or told.heading
            self.heading_last = True
        self.log.extend(told.lines)
        self.print_lines([*told.lines, *told.after])
        if told.counted:
            self.saver.save_settled(self.settled_records)

    def print_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.out.print(line)
            self.heading_last = False

    def between_deals(self) -> None:
        """Wait for the user to ask for the next deal."""
        deal = self.front_end.words.deal
        self.io.offer(["history", "rules", "save", "help", "quit"])
        while True:
            text = self.io.read(f"Enter for the next {deal}, or quit> ").strip()
            if not text:
                return
            if not self.command(text):
                self.out.print(
                    f"Press Enter for the next {deal}; 'history', 'save FILE', 'help' or 'quit'."
                )

    # --- the user's turn ----------------------------------------------------------------------

    def user_move(self, view: Any) -> Any:
        """Ask until the user enters a legal move (or a command that leaves)."""
        state = self.match.current
        assert state is not None
        turn = self.front_end.turn(self, view, heading_shown=self.heading_last)
        self.print_lines(turn.lines)
        return ask_move(
            self.io, turn.prompt, lambda text: self.command(text, view), state, view.legal_moves
        )

    def command(self, text: str, view: Any = None) -> bool:
        """Handle a command that is not a move (``view``: the user's, during their turn);
        True when ``text`` was one."""
        if not text:
            if view is not None:
                self.print_lines(self.front_end.again(self, view))
            return True
        if view is not None and text.lower() in ("table", "t"):
            self.print_lines(self.front_end.draw(self, view))
            return True
        return shared_command(
            self.io,
            text,
            help_text=self.front_end.help,
            legal_moves=None if view is None else (lambda: view.legal_moves),
            save=self.save_command,
            history=self.history,
            game=self.game.name,
            example_rule=self.front_end.example_rule,
            part=self.front_end.words.part,
        )

    def history(self) -> list[str]:
        """``history``: the current (or last) part's moves, numbered, as the user saw them."""
        if not self.log:
            return []
        return [
            f"{self.chapter} so far:",
            *(f"  {i:>3}. {line}" for i, line in enumerate(self.log, 1)),
        ]

    # --- saving -------------------------------------------------------------------------------

    def settled_records(self) -> list[dict[str, Any]]:
        """The records of this session's deals as far as they are settled: a finished deal
        whole, the deal in progress only as far as its front end allows (its record would show
        the other hands and the stock)."""
        records = []
        for state in self.match.deals:
            record: dict[str, Any] | None = dump_record(state, self.players)
            if record is not None and not state.is_over:
                record = self.front_end.settled(record, state)
            if record is not None:
                records.append(record)
        return records

    def all_records(self) -> list[dict[str, Any]]:
        """Every deal of this session, the one in progress included."""
        return [dump_record(state, self.players) for state in self.match.deals]

    def save_command(self, path: str | None) -> None:
        """``save`` / ``save FILE``: what is settled; the deal in progress goes in later."""
        summary, withheld = self.front_end.save_summary(self)
        self.saver.save_command(path, self.settled_records, summary, withheld)

    def save_all(self) -> None:
        """On leaving: every deal, the unfinished one included (said plainly)."""
        self.saver.save_all(self.all_records, self.front_end.leaving_summary(self))
