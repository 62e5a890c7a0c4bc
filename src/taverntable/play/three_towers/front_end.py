"""Three Towers at the terminal: what the one session (``play/session.py``) asks this game for.

A Three Towers state is a whole game of rounds (R13, R14), so the match at the terminal is one
game; the session deals it, plays it through ``engine.play_out`` and saves it. This front end
draws the table (``render``), tells each move from the events seat 0 receives (R16,
``narrate``), walks the user through each decision — a turn, an answer to a trade, a defence,
the Witch, redeals, tower bonuses (``prompts``) — and opens every round with its heading.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from taverntable.engine import Event, Game, GameState
from taverntable.games.three_towers import TowersState, TowersView
from taverntable.games.three_towers.moves import Deal
from taverntable.games.three_towers.phases import DEAL
from taverntable.match import VOCABULARY, MatchLength
from taverntable.options import RulesError
from taverntable.play.front_end import AtTable, Told, Turn
from taverntable.play.io import shown
from taverntable.play.resume import Resumed, ResumeError, SavedGame
from taverntable.play.words import count

from . import render as show
from .narrate import is_deal, narrate
from .prompts import PROMPTS, decision, options_line

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


def towers(state: GameState[Any, Any] | None) -> TowersState:
    """The session's deal, which for this game is a Three Towers game."""
    assert isinstance(state, TowersState)
    return state


def in_round(state: TowersState) -> bool:
    """A round is being played: its record would show the deck and every hand (R16)."""
    return not state.is_over and state.phase != DEAL


def settled_record(record: dict[str, Any], state: TowersState) -> dict[str, Any] | None:
    """The game's record up to the end of its last counted round (the round being played shows
    the deck and every hand), or None when no round has been counted yet."""
    if not in_round(state):
        return record
    last_deal = max(i for i, (_, move) in enumerate(state.history) if isinstance(move, Deal))
    if last_deal == 0:
        return None
    # history[0] is the first deal, written as the record's "cards"; history[i] is moves[i - 1].
    return {**record, "moves": record["moves"][: last_deal - 1]}


class ThreeTowersFrontEnd:
    """Three Towers' part of ``tavern play``; see the module's docstring."""

    help = HELP
    example_rule = "R9"
    words = VOCABULARY["game"]  # a match of games, each of rounds

    # --- setting up ---------------------------------------------------------------------------

    def refused(self, args: argparse.Namespace) -> str | None:
        if args.deals is not None or args.target is not None:
            return (
                "--deals and --target are for Tonk matches; a Three Towers game ends "
                "when someone has three towers (R14)."
            )
        if args.stake is not None:
            return "--stake is for Tonk; Three Towers is scored in points (R13)."
        return None

    def new_rules(self, game: Game, args: argparse.Namespace, num_players: int) -> Any:
        teams = bool(args.teams)
        if teams and num_players != 4:
            return f"Team play needs --players 4, not {num_players} (R15)."
        try:
            return game.rules({"teams": teams, **dict(args.option)})
        except RulesError as e:
            return str(e)

    def length(self, args: argparse.Namespace) -> MatchLength:
        return MatchLength(deals=1)  # one game, until someone has three towers (R14)

    def conflicts(self, args: argparse.Namespace, rules: Any) -> str | None:
        if args.teams and not rules.teams:
            return "--teams: the saved game is not played in pairs."
        for name, value in args.option:
            if getattr(rules, name, value) != value:
                return f"--option {name}: the saved game has {getattr(rules, name)!r}."
        return None

    def header(self, table: AtTable) -> list[str]:
        players = table.players
        seated = (
            "two pairs (seats 0+2 against 1+3)"
            if table.match.rules.teams
            else f"{len(players)} players"
        )
        return [
            f"[bold]Tavern Table: {table.game.title}[/bold] · {seated}. "
            "Type 'help' for help, 'quit' to leave.",
            "Seats: "
            + " · ".join(
                f"{s} {show.name(players, s)}{f' ({escape(lv)} bot)' if lv else ''}"
                for s, lv in enumerate(table.levels)
            ),
        ]

    # --- saving and resuming ------------------------------------------------------------------

    def settled(self, record: dict[str, Any], state: GameState[Any, Any]) -> dict[str, Any] | None:
        return settled_record(record, towers(state))

    def save_summary(self, table: AtTable) -> tuple[str, str | None]:
        state = towers(table.state)
        rounds = len(state.rounds)
        summary = (
            f"the game up to the end of round {rounds}"
            if rounds
            else "no round yet (none has been counted)"
        )
        withheld = (
            "The round in progress is not in the file: its record would show the deck "
            "and every hand. It goes in when the round is counted, or when you leave "
            "the table."
        )
        return summary, withheld if in_round(state) else None

    def leaving_summary(self, table: AtTable) -> str:
        state = towers(table.state)
        if in_round(state) and state.history:
            return (
                f"the game (round {state.round_no} unfinished: its record shows every hand "
                "and the deck; --resume deals it again)"
            )
        return "the game"

    def resumed(self, saved: SavedGame, resumed: Resumed) -> list[str]:
        last = towers(saved.replayed[-1].state)
        if last.result is not None:
            raise ResumeError(
                f"{saved.path}: the game is over ({last.result.end}); start a new one"
            )
        going_on = resumed.match.current
        rounds = 0 if going_on is None else len(towers(going_on).rounds)
        notes = [f"Resumed {shown(saved.path)}: {count(rounds, 'round')} counted."]
        if len(saved.records) in resumed.unfinished:
            notes.append(
                f"Round {last.round_no} was not finished when it was saved; its record "
                "shows every hand and the deck, so it is not played on: it is dealt "
                "again (the unfinished record stays in the file)."
            )
        return notes

    # --- playing ------------------------------------------------------------------------------

    def opening(self, table: AtTable, state: GameState[Any, Any], events: Sequence[Event]) -> Told:
        """A game just dealt opens with its first round's heading; one taken up before its
        next deal (a resumed game) gets the heading when that deal comes."""
        game = towers(state)
        if not game.history or not isinstance(game.history[-1][1], Deal):
            return Told()
        return self.round_opens(table, game.view(0))

    def round_opens(self, table: AtTable, view: TowersView) -> Told:
        """One line opens a round; the table below it leaves its own heading out."""
        return Told(
            heading=show.round_heading(view, table.players, dealt=False),
            chapter=f"Round {view.round_no}",
        )

    def told(self, table: AtTable, before: Any, now: Any, events: Sequence[Event]) -> Told:
        """The move's sentences, a new round's heading, the count, the game's end; everything
        read from the events as seat 0 sees them (R16) and the table it sees."""
        seen = [e.for_seat(0) for e in events]
        opens = self.round_opens(table, now) if is_deal(seen) else Told()
        ended = {e.kind: e for e in seen if e.kind in ("round_end", "win_bonus", "game_end")}
        after: list[str] = []
        if "round_end" in ended:
            after += show.round_count(ended["round_end"].data or {}, now, table.players)
        if "game_end" in ended:
            after += self.game_over(table, ended["game_end"], ended.get("win_bonus"), now)
        return Told(
            lines=narrate(seen, before, table.players),
            heading=opens.heading,
            chapter=opens.chapter,
            after=after,
            counted="round_end" in ended,
        )

    def game_over(
        self, table: AtTable, end: Event, bonus: Event | None, view: TowersView
    ) -> list[str]:
        """R14: why the game ended (with the +150 of a third tower) and who won."""
        result = end.data or {}
        winners = result["winners"]
        how = (
            "the round limit (R14)"
            if bonus is None
            else f"three towers (+{(bonus.data or {})['points']}, R14)"
        )
        names = " and ".join("you" if w == 0 else escape(table.players[w]) for w in winners)
        lines = [f"[bold yellow]Game over[/bold yellow] by {how}. Winner: {names}."]
        if bonus is not None and bonus.seat not in winners:
            assert bonus.seat is not None
            lines.append(show.towers_not_enough(view, table.players, bonus.seat, winners))
        return lines

    def deal_over(self, table: AtTable) -> list[str]:
        return []  # the game's end was told with its last move

    def draw(self, table: AtTable, view: Any) -> list[str]:
        return show.table(view, table.players, table.levels)

    def turn(self, table: AtTable, view: Any, *, heading_shown: bool) -> Turn:
        """A turn shows the whole table; a decision out of turn (an answer, a defence …) the
        hand it is made from; then what is decided, with the rule, and the numbered options."""
        if view.phase == "turn":
            lines = show.table(view, table.players, table.levels, heading=not heading_shown)
        else:
            lines = [show.hand_line(view.hand)]
        lines += decision(view, table.players)
        lines.append(options_line(view))
        return Turn(lines, PROMPTS.get(view.phase, "Your move> "))

    def again(self, table: AtTable, view: Any) -> list[str]:
        return decision(view, table.players)

    def standings(self, table: AtTable) -> str:
        return show.standings(towers(table.state).view(0), table.players)
