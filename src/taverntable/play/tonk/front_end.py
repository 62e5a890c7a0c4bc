"""The Tonk family at the terminal: what the one session (``play/session.py``) asks these games
for.

A match runs deal after deal with running balances (T2) until the user quits, the input ends,
or the match length (``--deals``) or target (``--target``) is reached. This front end draws the
table with the balances and the numbered moves (``render``), tells each move and each deal's
end from the events seat 0 receives (``narrate``), and opens every deal with its dealer and
its upcard (T3).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from taverntable.engine import Event, Game, GameState
from taverntable.games.tonk import TonkView
from taverntable.match import VOCABULARY, MatchLength
from taverntable.options import RulesError
from taverntable.play.front_end import AtTable, Told, Turn
from taverntable.play.io import numbered, shown
from taverntable.play.resume import Resumed, SavedGame
from taverntable.play.words import count

from . import narrate as narration
from . import render as show

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
Commands: moves (or ?) lists your legal moves · table · history (the deal so far) · rules T9
(a rule's text; rules lists them) · save FILE · help · quit"""


def length_text(length: MatchLength) -> str:
    """`` · 5 deals`` or `` · first to +10``: the match's length, when it has one."""
    parts = []
    if length.deals is not None:
        parts.append(count(length.deals, "deal"))
    if length.target is not None:
        parts.append(f"first to {show.units(length.target)}")
    return "".join(f" · {p}" for p in parts)


class TonkFrontEnd:
    """Tonk's, Tőr's and pagat's part of ``tavern play``; see the module's docstring."""

    help = HELP
    example_rule = "T9"
    words = VOCABULARY["deal"]  # a match of deals

    # --- setting up ---------------------------------------------------------------------------

    def refused(self, args: argparse.Namespace) -> str | None:
        if args.teams:
            return (
                "--teams is for three-towers (R15); in Tonk every player plays for themselves (T2)."
            )
        return None

    def new_rules(self, game: Game, args: argparse.Namespace, num_players: int) -> Any:
        try:
            return game.rules(dict(args.option))
        except RulesError as e:
            return str(e)

    def length(self, args: argparse.Namespace) -> MatchLength:
        return MatchLength(deals=args.deals, target=args.target)

    def conflicts(self, args: argparse.Namespace, rules: Any) -> str | None:
        return None  # the stake, the one option of a Tonk match, the session checks

    def header(self, table: AtTable) -> list[str]:
        match = table.match
        return [
            f"[bold]Tavern Table: {match.rules.preset}[/bold] · "
            f"{match.num_players} players · stake {match.stake}"
            f"{length_text(table.length)}. Type 'help' for help, 'quit' to leave.",
            "Seats: "
            + " · ".join(
                f"{show.name(table.players, s)}{f' ({escape(lv)} bot)' if lv else ''}"
                for s, lv in enumerate(table.levels)
            ),
        ]

    # --- saving and resuming ------------------------------------------------------------------

    def settled(self, record: dict[str, Any], state: GameState[Any, Any]) -> dict[str, Any] | None:
        return None  # a deal in progress shows the other hands and the stock: nothing of it

    def save_summary(self, table: AtTable) -> tuple[str, str | None]:
        withheld = None
        if table.match.current is not None:
            withheld = (
                "The deal in progress is not in the file: its record would show the "
                "other hands and the stock. It goes in when the deal ends, or when you "
                "leave the table."
            )
        return count(table.match.finished, "finished deal"), withheld

    def leaving_summary(self, table: AtTable) -> str:
        summary = count(table.deal_number, "deal")
        if table.match.current is not None:
            summary += (
                f" (deal {table.deal_number} unfinished: its record shows every hand and "
                "the stock; --resume deals it again)"
            )
        return summary

    def resumed(self, saved: SavedGame, resumed: Resumed) -> list[str]:
        notes = [
            f"Resumed {shown(saved.path)}: {count(len(saved.records), 'deal')} "
            f"({resumed.match.finished} finished)."
        ]
        if resumed.unfinished:
            notes.append(
                f"Deal {resumed.unfinished[-1]} was not finished when it was saved; its "
                "record shows every hand and the stock, so it is not played on: nobody "
                "pays for it and its dealer deals a new hand."
            )
        return notes

    # --- playing ------------------------------------------------------------------------------

    def opening(self, table: AtTable, state: GameState[Any, Any], events: Sequence[Event]) -> Told:
        """The deal's heading, then the upcard, shown before anyone acts: a bot may take it at
        once (T3, T7); a win on the deal is settled at once (T4)."""
        players = table.players
        dealer = "You deal" if state.dealer == 0 else f"{shown(players[state.dealer])} deals"
        first = (state.dealer + 1) % len(players)
        after = [narration.upcard_line(events, players, first)]
        if narration.deal_ended(events):
            after += narration.settlement(events, players)
        return Told(
            heading=f"Deal {table.deal_number} · {dealer}",
            chapter=f"Deal {table.deal_number}",
            after=after,
        )

    def told(self, table: AtTable, before: Any, now: Any, events: Sequence[Event]) -> Told:
        """The move as a sentence; the settlement when it ended the deal."""
        ended = narration.deal_ended(events)
        return Told(
            lines=[narration.narrate(events, before, table.players)],
            after=narration.settlement(events, table.players) if ended else (),
        )

    def deal_over(self, table: AtTable) -> list[str]:
        """The balances after the deal (T2); the match's end when it has come."""
        match = table.match
        lines = [show.balances(table.players, match.totals, match.finished)]
        if table.over:
            lines.append(self.match_over(table))
        return lines

    def match_over(self, table: AtTable) -> str:
        """Why the match is over: a balance reached the target, or the deals were played."""
        length, totals = table.length, table.match.totals
        best = max(totals)
        if length.target is not None and best >= length.target:
            leaders = [s for s, total in enumerate(totals) if total == best]
            who = " and ".join("you" if s == 0 else escape(table.players[s]) for s in leaders)
            return (
                f"[bold yellow]Match over:[/bold yellow] {who} reached {show.units(best)} "
                f"(target {show.units(length.target)})."
            )
        assert length.deals is not None
        return f"[bold yellow]Match over:[/bold yellow] {count(length.deals, 'deal')} played."

    def draw(self, table: AtTable, view: TonkView) -> list[str]:
        """The table, the balances and the numbered legal moves, as the user sees them."""
        match = table.match
        lines = show.table(view, table.players, table.levels)
        of = f" of {table.length.deals}" if table.length.deals else ""
        lines.append(
            show.balances(
                table.players, match.totals, match.finished, f"deal {table.deal_number}{of}"
            )
        )
        moves = view.legal_moves
        if len(moves) <= SHOWN_MOVES:
            lines.append("Moves: " + numbered(moves))
        else:
            lines.append(f"Moves: {len(moves)} — type 'moves' (or ?) to list them.")
        return lines

    def turn(self, table: AtTable, view: TonkView, *, heading_shown: bool) -> Turn:
        return Turn(self.draw(table, view))

    def again(self, table: AtTable, view: TonkView) -> list[str]:
        return self.draw(table, view)

    def standings(self, table: AtTable) -> str:
        return show.standings(table.players, table.match.totals, table.match.finished)
