"""What a game supplies the one terminal session (``play/session.py``): a ``FrontEnd``.

The session plays every game the same way: the match of deals (``taverntable.match``), the
prompt and its commands, the bots' turns, saving and resuming. A game's front end supplies only
what differs between games: how its table is drawn (its renderer), how events become sentences
(its narration), what the user is asked at each decision (its prompting), and the words and
options that are the game's own. Each game's terminal package exports one front-end value
(``taverntable.play.tonk:FRONT_END``), which its ``Game.terminal`` names, a
``PlugIn[FrontEnd]``; assigning the value to this protocol makes mypy check it, and loading the
plug-in checks it again.

The hooks read the match through ``AtTable``, which the session is. Views and states are the
game's own (``Any`` here, as in the engine's ``Game``); so are the saved match and its replay
that ``resumed`` reads (``play.resume``), which the engine's side may not import.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from taverntable.engine import Event, Game, GameState
from taverntable.match import Match, MatchLength, Vocabulary

from .plugin import PlugIn

# The nouns the session's own sentences use for a game: the one vocabulary of ``match.py``
# ("the saved match has 3 players", "Enter for the next deal", "Nothing has happened yet in this
# round").
Words = Vocabulary


@dataclass(frozen=True)
class Told:
    """What the user reads when a deal opens or after a move.

    ``heading`` opens a new part of the deal (a Tonk deal, a Three Towers round) with a rule
    line, and ``history`` starts again under the name ``chapter``; ``lines`` are the move's
    sentences, kept for ``history``; ``after`` follows them without being kept (a settlement, a
    count). ``counted``: part of the deal was settled (a round counted), so saves are updated."""

    lines: Sequence[str] = ()
    heading: str | None = None
    chapter: str | None = None
    after: Sequence[str] = ()
    counted: bool = False


@dataclass(frozen=True)
class Turn:
    """What the user is shown before being asked for a move, and the prompt."""

    lines: Sequence[str] = ()
    prompt: str = "Your move> "


class AtTable(Protocol):
    """The match as a front end reads it (the session): seat 0 is the user."""

    @property
    def game(self) -> Game: ...

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def levels(self) -> Sequence[str]:
        """Each seat's bot level (``medium``), "" for the user's seat."""
        ...

    @property
    def match(self) -> Match: ...

    @property
    def length(self) -> MatchLength: ...

    @property
    def deal_number(self) -> int:
        """The number of the current (or last) deal in the whole match, a resumed one's
        included."""
        ...

    @property
    def state(self) -> GameState[Any, Any] | None:
        """The current (or last) deal."""
        ...

    @property
    def over(self) -> bool:
        """The match has reached its length."""
        ...


@runtime_checkable
class FrontEnd(Protocol):
    """A game at the terminal; see the module's docstring. The hooks return lines of Rich
    markup; anything a person typed or named in them is escaped (``io.shown``)."""

    # ``help``: the moves in the records notation and the commands.
    help: str
    # A rule to name in ``rules``'s hint: ``T9``.
    example_rule: str
    words: Words

    # --- setting up ---------------------------------------------------------------------------

    def refused(self, args: argparse.Namespace) -> str | None:
        """Why an option of ``tavern play`` does not apply to this game, or None."""
        ...

    def new_rules(self, game: Game, args: argparse.Namespace, num_players: int) -> Any:
        """The rules of a new match from the options, or a str: why not."""
        ...

    def length(self, args: argparse.Namespace) -> MatchLength:
        """How long the match is (``--deals``, ``--target``, or the game's own length)."""
        ...

    def conflicts(self, args: argparse.Namespace, rules: Any) -> str | None:
        """Why an option contradicts a saved match's rules, or None (the session checks the
        players, the user's name and the stake)."""
        ...

    def header(self, table: AtTable) -> list[str]:
        """The lines that open the session: the game, the table, the seats."""
        ...

    # --- saving and resuming ------------------------------------------------------------------

    def settled(self, record: dict[str, Any], state: GameState[Any, Any]) -> dict[str, Any] | None:
        """The part of an unfinished deal's record a save may hold while the user plays (one
        that shows no card the user may not see), or None."""
        ...

    def save_summary(self, table: AtTable) -> tuple[str, str | None]:
        """``save``: what the file holds now ("2 finished deals") and, when the deal in play is
        withheld, the sentence that says so."""
        ...

    def leaving_summary(self, table: AtTable) -> str:
        """On leaving: what the file holds ("3 deals (deal 3 unfinished …)")."""
        ...

    def resumed(self, saved: Any, resumed: Any) -> list[str]:
        """The notes on a saved match (``play.resume.SavedGame``) taken up again (``Resumed``);
        ResumeError when it cannot go on."""
        ...

    # --- playing ------------------------------------------------------------------------------

    def opening(self, table: AtTable, state: GameState[Any, Any], events: Sequence[Event]) -> Told:
        """A deal about to be played (``events``: its opening events, for seat 0)."""
        ...

    def told(self, table: AtTable, before: Any, now: Any, events: Sequence[Event]) -> Told:
        """A move as seat 0 saw it: its events, its view before and after the move."""
        ...

    def deal_over(self, table: AtTable) -> list[str]:
        """After a deal is booked (the balances; the match's end when it has come)."""
        ...

    def draw(self, table: AtTable, view: Any) -> list[str]:
        """The table as seat 0 sees it (the ``table`` command)."""
        ...

    def turn(self, table: AtTable, view: Any, *, heading_shown: bool) -> Turn:
        """What the user is asked now; ``heading_shown``: the deal's heading was the last line
        printed, so the table need not repeat it."""
        ...

    def again(self, table: AtTable, view: Any) -> list[str]:
        """An empty line at the prompt: what is being decided, again."""
        ...

    def standings(self, table: AtTable) -> str:
        """The last line: the final standings or scores."""
        ...


def front_end(path: str) -> PlugIn[FrontEnd]:
    """``Game.terminal``: the ``module:attribute`` of the game's front end."""
    return PlugIn(path, "terminal front end (play.front_end.FrontEnd)", _is_front_end)


def _is_front_end(value: object) -> bool:
    return isinstance(value, FrontEnd)
