"""The Tonk-family front end of ``tavern play``: you at seat 0, bots at the other seats.

Everything shown to the user comes from seat 0's view; bots get their own views. A match runs deal
after deal with running balances (T2) until the user quits or the input ends.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from rich.markup import escape

from taverntable.bots import BotError, make_bot
from taverntable.engine import Bot
from taverntable.games.tonk import TonkMove, TonkState, rules_from
from taverntable.games.tonk.match import TonkMatch

from . import tonk_render as show
from .io import PlayIO, Quit, ask_move, shared_command, write_jsonl

# Bot names: the Black Company, after the seed's worked examples.
BOT_NAMES = ("Goblin", "Elmo", "One-Eye", "Silent", "Croaker", "Otto", "Hagop", "Raven",
             "Kostoprav", "Lady")

HELP = """\
Moves (the records notation; lower case, T for 10 and suit symbols are fine):
  drop                 show hands and end the deal (start of your turn only, T6)
  draw stock | draw pile   (pagat, stock empty: 'draw stock' declines the pile and ends the
                           deal, the lowest total winning, T11)
  spread 8S 8D 8H      lay a set or a run (T8)
  hit 0 8C             add cards to spread number 0 (T8)
  discard QH           discard and end your turn (T9)
  end                  end without discarding (tor, after a new spread, T9)
Commands: moves (or ?) lists your legal moves · save FILE · help · quit"""



def play(args: argparse.Namespace, io: PlayIO) -> int:
    """Run ``tavern play tonk|tor|pagat``; returns the exit status."""
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    others = args.players - 1
    if len(names) == 1:
        names *= others
    if len(names) != others:
        io.console.print(f"[red]--bots names {len(names)} bots for {others} other seats; give "
                         "one name for all or one per seat.[/red]")
        return 2
    try:
        bots = [make_bot(n, args.game) for n in names]
    except BotError as e:
        io.console.print(f"[red]{escape(str(e))}[/red]")
        return 2
    players = [args.name, *[n for n in BOT_NAMES if n != args.name][:others]]
    # The user's seat acts first in the first deal: the dealer is the seat before it (T2).
    match = TonkMatch(rules_from(args.game), players, stake=args.stake, dealer=args.players - 1)
    session = TonkSession(match, [None, *bots], io, args.seed, args.save)
    return session.run()


class TonkSession:
    """One match at the terminal: deals, the user's turns, the bots' turns, settlements."""

    def __init__(
        self,
        match: TonkMatch,
        bots: Sequence[Bot | None],
        io: PlayIO,
        seed: int | None,
        save_path: str | None,
    ) -> None:
        self.match = match
        self.bots = bots
        self.io = io
        self.out = io.console
        self.players = list(match.players)
        # Separate generators: the deals depend on the seed only, not on what the bots compute.
        self.deal_rng = random.Random(seed)
        self.bot_rng = random.Random(f"bots-{seed}") if seed is not None else random.Random()
        self.save_path = save_path

    def run(self) -> int:
        """Play deals until the user quits or the input ends; exit status 0."""
        self.out.print(f"[bold]Tavern Table: {self.match.rules.preset}[/bold] · "
                       f"{len(self.players)} players · stake {self.match.stake}. "
                       "Type 'help' for help, 'quit' to leave.")
        try:
            while True:
                self.play_deal()
                self.between_deals()
        except Quit:
            pass
        except EOFError:
            self.out.print("End of input: leaving the table.")
        except KeyboardInterrupt:
            # Keep the match on Ctrl-C too; the command reports the interruption.
            if self.save_path:
                self.save(self.save_path)
            raise
        if self.save_path:
            self.save(self.save_path)
        self.out.print(show.balances(self.players, self.match.balances, self.finished_deals))
        return 0

    @property
    def finished_deals(self) -> int:
        """Deals that ended (and were settled)."""
        return sum(1 for d in self.match.deals if d.is_over)

    def play_deal(self) -> None:
        """Deal, play the turns, settle."""
        state = self.match.new_deal(self.deal_rng)
        dealer = self.players[state.dealer]
        self.out.rule(f"Deal {len(self.match.deals)} · {dealer} deals")
        while (seat := state.current_seat) is not None:
            bot = self.bots[seat]
            if bot is None:
                move = self.user_move(state)
            else:
                move = bot.choose(state.view(seat), self.bot_rng)
            state.apply(move)
            self.out.print(show.narrate(move, seat, self.players, state.view(seat)))
        self.match.settle_if_over()
        view = state.view(0)
        assert view.result is not None
        for line in show.settlement(view.result, view.revealed, view.history, self.players):
            self.out.print(line)
        self.out.print(show.balances(self.players, self.match.balances, self.finished_deals))
        if self.save_path:
            self.save(self.save_path, quiet=True)

    def user_move(self, state: TonkState) -> TonkMove:
        """Ask until the user enters a legal move (or a command that leaves)."""
        view = state.view(0)
        for line in show.table(view, self.players):
            self.out.print(line)
        move: TonkMove = ask_move(self.io, "Your move> ", lambda t: self.command(t, state), state)
        return move

    def command(self, text: str, state: TonkState | None) -> bool:
        """Handle a command that is not a move; True when ``text`` was one."""
        if not text:
            if state is not None:
                for line in show.table(state.view(0), self.players):
                    self.out.print(line)
            return True
        moves = None if state is None else (lambda: state.view(0).legal_moves)
        return shared_command(self.io, text, help_text=HELP, legal_moves=moves,
                              save=self.save, save_path=self.save_path)

    def between_deals(self) -> None:
        """Wait for the user to ask for the next deal."""
        while True:
            text = self.io.read("Enter for the next deal, or quit> ").strip()
            if not text:
                return
            if not self.command(text, None):
                self.out.print("Press Enter for the next deal; 'save FILE', 'help' or 'quit'.")

    def save(self, path: str, *, quiet: bool = False) -> None:
        """Write every deal so far, the current one included, as JSON Lines (one record each)."""
        from taverntable.records import dump_record

        if not write_jsonl(self.io, path, (dump_record(d, self.players) for d in self.match.deals)):
            return
        if not quiet:
            n = len(self.match.deals)
            self.out.print(f"Saved {n} deal{'s' if n != 1 else ''} to {escape(path)}.")
