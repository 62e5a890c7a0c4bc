"""The Tonk-family front end of ``tavern play``: you at seat 0, bots at the other seats.

Each deal is played by the one game loop, ``engine.play_out``: the user's seat is a
``PersonAtSeat`` that asks for a move, bots choose from their own views. Everything shown to the
user comes from seat 0's view and from the events seat 0 receives (``tonk_narrate``). A match runs
deal after deal with running balances (T2) until the user quits, the input ends, or the match
length (``--deals``) or target (``--target``) is reached; then the final standings.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.markup import escape

from taverntable.bots import BotError, make_bot
from taverntable.engine import Bot, Event, play_out
from taverntable.games import get_game
from taverntable.games.tonk import TonkMove, TonkState, TonkView
from taverntable.games.tonk.match import TonkMatch

from . import tonk_narrate as narration
from . import tonk_render as show
from .command import DEFAULT_NAME, DEFAULT_PLAYERS, bot_level
from .io import PlayIO, Quit, ask_move, numbered, shared_command, shown
from .resume import ResumeError, SavedGame, tonk_saved
from .saving import Saver
from .seat import PersonAtSeat
from .words import count

# Bot names: the Black Company, after the seed's worked examples.
BOT_NAMES = (
    "Goblin",
    "Elmo",
    "One-Eye",
    "Silent",
    "Croaker",
    "Otto",
    "Hagop",
    "Raven",
    "Kostoprav",
    "Lady",
)


# Longer lists of moves are not printed at every prompt; 'moves' prints them all.
SHOWN_MOVES = 24

HELP = """\
Moves (the records notation; lower case, T for 10 and suit symbols are fine):
  drop                 show hands and end the deal (start of your turn only, T6)
  draw stock | draw pile   (pagat, stock empty: 'draw stock' declines the pile and ends the
                           deal, the lowest total winning, T11)
  spread 8S 8D 8H      lay a set or a run (T8)
  hit 0 8C             add cards to spread number 0 (T8)
  discard QH           discard and end your turn (T9)
  end                  end without discarding (tor, after a new spread, T9)
Or type a move's number from the list (1, 2 …); Tab completes moves and commands.
Commands: moves (or ?) lists your legal moves · history (the deal so far) · rules T9 (a rule's
text; rules lists them) · save FILE · help · quit"""


@dataclass(frozen=True)
class MatchPlan:
    """How long the match is: ``deals`` in all, or until a balance reaches ``+target`` units;
    ``earlier``/``finished_earlier``: deals (all / finished) from a resumed save."""

    deals: int | None = None
    target: int | None = None
    earlier: int = 0
    finished_earlier: int = 0
    notes: tuple[str, ...] = field(default=())


def refuse(io: PlayIO, message: str) -> int:
    io.console.print(f"[red]{message}[/red]")
    return 2


def play(args: argparse.Namespace, io: PlayIO, saved: SavedGame | None = None) -> int:
    """Run ``tavern play tonk|tor|pagat`` (or go on with a saved match); the exit status."""
    if args.teams:
        return refuse(
            io, "--teams is for three-towers (R15); in Tonk every player plays for themselves (T2)."
        )
    plan = MatchPlan(deals=args.deals, target=args.target)
    if saved is None:
        n = args.players or DEFAULT_PLAYERS
        name = args.name or DEFAULT_NAME
        players = [name, *[b for b in BOT_NAMES if b != name][: n - 1]]
        # The user's seat acts first in the first deal: the dealer is the seat before it (T2).
        match = TonkMatch(get_game(args.game).rules(), players, stake=args.stake or 1, dealer=n - 1)
        kept: list[dict[str, Any]] = []
    else:
        try:
            at = tonk_saved(saved)
        except ResumeError as e:
            return refuse(io, f"Cannot resume: {shown(str(e))}")
        players = saved.players
        why = conflicts(args, players, at.stake)
        if why:
            return refuse(io, shown(why))
        match = TonkMatch(at.rules, players, stake=at.stake, dealer=at.dealer, balances=at.balances)
        kept = saved.records
        notes = [
            f"Resumed {shown(saved.path)}: {count(len(saved.records), 'deal')} "
            f"({at.finished} finished)."
        ]
        if at.unfinished:
            notes.append(
                f"Deal {at.unfinished[-1]} was not finished when it was saved; its "
                "record shows every hand and the stock, so it is not played on: nobody "
                "pays for it and its dealer deals a new hand."
            )
        plan = MatchPlan(args.deals, args.target, len(saved.records), at.finished, tuple(notes))
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
    if plan.deals is not None and plan.finished_earlier >= plan.deals:
        return refuse(
            io,
            f"The saved match has {count(plan.finished_earlier, 'finished deal')} "
            f"already; --deals {plan.deals} is the whole match's length.",
        )
    targets = [args.save] if args.save else [args.resume] if args.resume else []
    session = TonkSession(
        match,
        [None, *bots],
        io,
        args.seed,
        Saver(io, targets, kept),
        levels=["", *(bot_level(b, args.game) for b in names)],
        plan=plan,
    )
    return session.run()


def conflicts(args: argparse.Namespace, players: Sequence[str], stake: int) -> str | None:
    """Why the options given contradict the saved match, or None."""
    if args.players is not None and args.players != len(players):
        return f"--players {args.players}: the saved match has {len(players)} players."
    if args.name is not None and args.name != players[0]:
        return f"--name {args.name}: in the saved match you are {players[0]}."
    if args.stake is not None and args.stake != stake:
        return f"--stake {args.stake}: the saved match is played for {stake}."
    return None


class TonkSession:
    """One match at the terminal: deals, the user's turns, the bots' turns, settlements."""

    def __init__(
        self,
        match: TonkMatch,
        bots: Sequence[Bot | None],
        io: PlayIO,
        seed: int | None,
        saver: Saver,
        *,
        levels: Sequence[str] = (),
        plan: MatchPlan = MatchPlan(),
    ) -> None:
        self.match = match
        self.bots = bots
        self.io = io
        self.out = io.console
        self.players = list(match.players)
        self.levels = list(levels) or [""] * len(self.players)
        # Separate generators: the deals depend on the seed only, not on what the bots compute.
        self.deal_rng = random.Random(seed)
        self.bot_rng = random.Random(f"bots-{seed}") if seed is not None else random.Random()
        self.saver = saver
        self.plan = plan
        self.log: list[str] = []  # the current (or last) deal's moves as the user saw them

    def run(self) -> int:
        """Play deals until the match ends, the user quits or the input ends; exit status 0."""
        self.out.print(
            f"[bold]Tavern Table: {self.match.rules.preset}[/bold] · "
            f"{len(self.players)} players · stake {self.match.stake}"
            f"{self.length_text()}. Type 'help' for help, 'quit' to leave."
        )
        self.out.print(
            "Seats: "
            + " · ".join(
                f"{show.name(self.players, s)}{f' ({escape(lv)} bot)' if lv else ''}"
                for s, lv in enumerate(self.levels)
            )
        )
        for note in self.plan.notes:
            self.out.print(note)
        try:
            while True:
                self.play_deal()
                if self.match_over():
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
        self.out.print(show.standings(self.players, self.match.balances, self.finished_deals))
        return 0

    def length_text(self) -> str:
        """`` · 5 deals`` or `` · first to +10``: the match's length, when it has one."""
        parts = []
        if self.plan.deals is not None:
            parts.append(count(self.plan.deals, "deal"))
        if self.plan.target is not None:
            parts.append(f"first to +{self.plan.target}")
        return "".join(f" · {p}" for p in parts)

    @property
    def finished_deals(self) -> int:
        """Deals that ended (and were settled), those of a resumed save included."""
        return self.plan.finished_earlier + sum(1 for d in self.match.deals if d.is_over)

    @property
    def deal_number(self) -> int:
        """The number of the current (or last) deal in the whole match."""
        return self.plan.earlier + len(self.match.deals)

    def match_over(self) -> bool:
        """After a deal: has the match reached its length or target?"""
        plan, balances = self.plan, self.match.balances
        if plan.target is not None and max(balances) >= plan.target:
            leaders = [s for s, b in enumerate(balances) if b == max(balances)]
            who = " and ".join("you" if s == 0 else escape(self.players[s]) for s in leaders)
            self.out.print(
                f"[bold yellow]Match over:[/bold yellow] {who} reached "
                f"+{max(balances)} (target +{plan.target})."
            )
            return True
        if plan.deals is not None and self.finished_deals >= plan.deals:
            self.out.print(
                f"[bold yellow]Match over:[/bold yellow] {count(plan.deals, 'deal')} played."
            )
            return True
        return False

    def play_deal(self) -> None:
        """Deal, show the upcard, play the turns through the one loop (``engine.play_out``),
        settle; everything told from the events seat 0 receives."""
        state = self.match.new_deal(self.deal_rng)
        self.log = []
        dealer = "You deal" if state.dealer == 0 else f"{shown(self.players[state.dealer])} deals"
        self.out.rule(f"Deal {self.deal_number} · {dealer}")
        opening = state.opening_events()
        first = (state.dealer + 1) % len(self.players)
        # Shown before anyone acts: a bot may take the upcard at once (T3, T7).
        self.out.print(narration.upcard_line(opening, self.players, first))
        if narration.deal_ended(opening):  # a win on the deal (T4)
            self.print_lines(narration.settlement(opening, self.players))
        self.before = state.view(0)
        seats = [bot or PersonAtSeat(lambda view: self.user_move(state, view)) for bot in self.bots]
        play_out(state, seats, self.bot_rng, chance_rng=self.deal_rng, on_move=self.tell)
        self.match.settle_if_over()
        self.out.print(show.balances(self.players, self.match.balances, self.finished_deals))
        self.saver.save_settled(self.settled_records)

    def tell(self, seat: int, move: object, events: Sequence[Event]) -> None:
        """``on_move``: the move as a sentence; the settlement when it ended the deal."""
        state = self.match.deals[-1]
        line = narration.narrate(events, self.before, self.players)
        self.log.append(line)
        self.out.print(line)
        if narration.deal_ended(events):
            self.print_lines(narration.settlement(events, self.players))
        self.before = state.view(0)

    def print_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.out.print(line)

    def table(self, state: TonkState) -> list[str]:
        """The table, the balances and the numbered legal moves, as the user sees them."""
        view = state.view(0)
        lines = show.table(view, self.players, self.levels)
        lines.append(
            show.balances(
                self.players,
                self.match.balances,
                self.finished_deals,
                f"deal {self.deal_number}{f' of {self.plan.deals}' if self.plan.deals else ''}",
            )
        )
        moves = view.legal_moves
        if len(moves) <= SHOWN_MOVES:
            lines.append("Moves: " + numbered(moves))
        else:
            lines.append(f"Moves: {len(moves)} — type 'moves' (or ?) to list them.")
        return lines

    def user_move(self, state: TonkState, view: TonkView) -> TonkMove:
        """Ask until the user enters a legal move (or a command that leaves)."""
        for line in self.table(state):
            self.out.print(line)
        move: TonkMove = ask_move(
            self.io, "Your move> ", lambda t: self.command(t, state), state, view.legal_moves
        )
        return move

    def command(self, text: str, state: TonkState | None) -> bool:
        """Handle a command that is not a move; True when ``text`` was one."""
        if not text:
            if state is not None:
                for line in self.table(state):
                    self.out.print(line)
            return True
        moves = None if state is None else (lambda: state.view(0).legal_moves)
        return shared_command(
            self.io,
            text,
            help_text=HELP,
            legal_moves=moves,
            save=self.save_command,
            history=self.history,
            game=self.match.rules.preset,
        )

    def history(self) -> list[str]:
        """``history``: the current (or last) deal's moves, numbered, as the user saw them."""
        if not self.log:
            return []
        return [
            f"Deal {self.deal_number} so far:",
            *(f"  {i:>3}. {line}" for i, line in enumerate(self.log, 1)),
        ]

    def between_deals(self) -> None:
        """Wait for the user to ask for the next deal."""
        self.io.offer(["history", "rules", "save", "help", "quit"])
        while True:
            text = self.io.read("Enter for the next deal, or quit> ").strip()
            if not text:
                return
            if not self.command(text, None):
                self.out.print(
                    "Press Enter for the next deal; 'history', 'save FILE', 'help' or 'quit'."
                )

    def settled_records(self) -> list[dict[str, Any]]:
        """The records of this session's finished deals (a record of a deal in progress would
        show the other hands and the stock)."""
        from taverntable.records import dump_record

        return [dump_record(d, self.players) for d in self.match.deals if d.is_over]

    def all_records(self) -> list[dict[str, Any]]:
        """Every deal of this session, the one in progress included."""
        from taverntable.records import dump_record

        return [dump_record(d, self.players) for d in self.match.deals]

    def save_command(self, path: str | None) -> None:
        """``save`` / ``save FILE``: the finished deals; the deal in progress goes in later."""
        finished = self.finished_deals
        withheld = None
        if self.match.current is not None:
            withheld = (
                "The deal in progress is not in the file: its record would show the "
                "other hands and the stock. It goes in when the deal ends, or when you "
                "leave the table."
            )
        self.saver.save_command(
            path, self.settled_records, count(finished, "finished deal"), withheld
        )

    def save_all(self) -> None:
        """On leaving: every deal, the unfinished one included (said plainly)."""
        unfinished = self.match.current is not None
        summary = count(self.plan.earlier + len(self.match.deals), "deal")
        if unfinished:
            summary += (
                f" (deal {self.deal_number} unfinished: its record shows every hand and "
                "the stock; --resume deals it again)"
            )
        self.saver.save_all(self.all_records, summary)
