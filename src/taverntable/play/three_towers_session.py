"""The Three Towers front end of ``tavern play``: you at seat 0, bots at the other seats.

Everything shown to the user comes from seat 0's view (R16); bots get their own views. Chance
steps (a round's deal, a shuffle, a Thief's steal) are drawn from the ``--seed`` generator, bots
from their own, so a seed repeats the first deal whatever the bots do. The game runs round after
round until someone has three towers (R14), the user quits, or the input ends.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from rich.markup import escape

from taverntable.bots import BotError, make_bot
from taverntable.engine import CHANCE, Bot
from taverntable.games.three_towers import TowersMove, TowersRules, TowersState, rules_from
from taverntable.games.three_towers.moves import Deal

from . import three_towers_render as show
from .io import PlayIO, Quit, ask_move, shared_command, write_jsonl
from .three_towers_narrate import narrate

# Bot names: the gremlin who plays Three Towers in Eador's campaign, and company.
BOT_NAMES = ("Zarr", "Goblin", "Elmo")
MAX_PLAYERS = 4

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
Commands: moves (or ?) lists your legal moves · table · save FILE · help · quit"""



def play(args: argparse.Namespace, io: PlayIO) -> int:
    """Run ``tavern play three-towers``; returns the exit status."""
    n = args.players
    teams = bool(getattr(args, "teams", False))
    if n > MAX_PLAYERS:
        io.console.print(f"[red]Three Towers is for 2 to {MAX_PLAYERS} players, not {n} (R3)."
                         "[/red]")
        return 2
    if teams and n != 4:
        io.console.print(f"[red]Team play needs --players 4, not {n} (R15).[/red]")
        return 2
    names = [x.strip() for x in args.bots.split(",") if x.strip()]
    if len(names) == 1:
        names *= n - 1
    if len(names) != n - 1:
        io.console.print(f"[red]--bots names {len(names)} bots for {n - 1} other seats; give "
                         "one name for all or one per seat.[/red]")
        return 2
    try:
        bots = [make_bot(x, "three-towers") for x in names]
    except BotError as e:
        io.console.print(f"[red]{escape(str(e))}[/red]")
        return 2
    players = [args.name, *[x for x in BOT_NAMES if x != args.name][: n - 1]]
    session = TowersSession(rules_from("three-towers", teams=teams), players, [None, *bots], io,
                            args.seed, args.save)
    return session.run()


class TowersSession:
    """One game at the terminal: the rounds, the user's decisions, the bots', the counts."""

    def __init__(
        self,
        rules: TowersRules,
        players: Sequence[str],
        bots: Sequence[Bot | None],
        io: PlayIO,
        seed: int | None,
        save_path: str | None,
    ) -> None:
        n = len(players)
        # The user's seat moves first in the first round: the dealer is the seat before it (R3).
        self.state = TowersState.new(rules, n, dealer=n - 1)
        self.players = list(players)
        self.bots = bots
        self.io = io
        self.out = io.console
        self.chance_rng = random.Random(seed)
        self.bot_rng = random.Random(f"bots-{seed}") if seed is not None else random.Random()
        self.save_path = save_path

    def run(self) -> int:
        """Play until the game ends, the user quits or the input ends; exit status 0."""
        table = "two pairs (seats 0+2 against 1+3)" if self.state.rules.teams else \
            f"{len(self.players)} players"
        self.out.print(f"[bold]Tavern Table: Three Towers[/bold] · {table}. "
                       "Type 'help' for help, 'quit' to leave.")
        try:
            self.play_game()
        except Quit:
            pass
        except EOFError:
            self.out.print("End of input: leaving the table.")
        except KeyboardInterrupt:
            if self.save_path:
                self.save(self.save_path)
            raise
        if self.save_path:
            self.save(self.save_path)
        self.out.print(show.standings(self.state.view(0), self.players))
        return 0

    def play_game(self) -> None:
        """Every step of the game: chance, bots and the user, each told as it happens."""
        state = self.state
        while (seat := state.current_seat) is not None:
            before = state.view(0)
            counted = len(state.rounds)
            move: TowersMove
            if seat == CHANCE:
                move = state.sample_chance(self.chance_rng)
            elif (bot := self.bots[seat]) is not None:
                move = bot.choose(state.view(seat), self.bot_rng)
            else:
                move = self.user_move(state)
            state.apply(move)
            after = state.view(0)
            if isinstance(move, Deal):
                dealer = "You deal" if after.dealer == 0 else \
                    f"{escape(self.players[after.dealer])} deals"
                self.out.rule(f"Round {after.round_no} · {dealer}")
            for line in narrate(move, seat, before, after, self.players):
                self.out.print(line)
            if len(state.rounds) > counted:
                for line in show.round_count(state.rounds[-1], len(state.rounds), after,
                                             self.players):
                    self.out.print(line)
                if self.save_path:
                    self.save(self.save_path, quiet=True)
        self.game_over()

    def game_over(self) -> None:
        result = self.state.result
        assert result is not None
        how = "three towers (+150, R14)" if result.end == "towers" else "the round limit (R14)"
        winners = " and ".join("you" if w == 0 else escape(self.players[w])
                               for w in result.winners)
        self.out.print(f"[bold yellow]Game over[/bold yellow] by {how}. Winner: {winners}.")

    def user_move(self, state: TowersState) -> TowersMove:
        """Ask until the user enters a legal move (or a command that leaves)."""
        view = state.view(0)
        if view.phase == "turn":
            self.print_lines(show.table(view, self.players))
        else:
            self.out.print(show.hand_line(view.hand))
        self.print_lines(show.decision(view, self.players))
        self.out.print(show.options_line(view), markup=False)
        prompt = PROMPTS.get(view.phase, "Your move> ")
        move: TowersMove = ask_move(self.io, prompt, lambda t: self.command(t, state), state)
        return move

    def command(self, text: str, state: TowersState) -> bool:
        """Handle a command that is not a move; True when ``text`` was one."""
        if not text:
            self.print_lines(show.decision(state.view(0), self.players))
            return True
        if text.lower() in ("table", "t"):
            self.print_lines(show.table(state.view(0), self.players))
            return True
        return shared_command(self.io, text, help_text=HELP,
                              legal_moves=lambda: state.view(0).legal_moves,
                              save=self.save, save_path=self.save_path)

    def print_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.out.print(line)

    def save(self, path: str, *, quiet: bool = False) -> None:
        """Write the game so far as one record (JSON Lines) that ``tavern replay`` reads."""
        from taverntable.records import dump_record

        if not write_jsonl(self.io, path, [dump_record(self.state, self.players)]):
            return
        if not quiet:
            self.out.print(f"Saved the game to {escape(path)}.")


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
