"""Where a terminal game reads its input and prints its output, so tests can replace both."""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from taverntable.engine import IllegalMove, MoveSyntaxError, TavernError

from . import rules_text
from .completion import install_completion

# The words every prompt understands besides moves; offered to tab completion with the moves.
COMMANDS = ("moves", "table", "history", "rules", "save", "help", "quit")


def _no_completion(words: Sequence[str]) -> None:
    """Where there is no line editor (tests, pipes), there is nothing to complete."""


@dataclass
class PlayIO:
    """A Rich console for output; ``read(prompt)`` returns one line, EOFError at the end;
    ``offer(words)`` tells the line editor what tab completes to at the next prompt."""

    console: Console
    read: Callable[[str], str]
    offer: Callable[[Sequence[str]], None] = _no_completion
    # The first refusal that cites a rule also says how to read it; later ones do not repeat it.
    rules_hint_shown: bool = field(default=False)

    @classmethod
    def standard(cls) -> PlayIO:
        """The real terminal (or whatever stdin and stdout are)."""
        console = Console(highlight=False, soft_wrap=True)
        offer = install_completion() if sys.stdin.isatty() else None
        return cls(
            console,
            lambda prompt: read_line(console, prompt, tty=offer is not None),
            offer or _no_completion,
        )


def read_line(console: Console, prompt: str, *, tty: bool = False) -> str:
    """One line from stdin; echoed when stdin is not a terminal, so a piped session reads well.
    A line that is not UTF-8 text is refused here, so the table never sees it."""
    stdin = sys.stdin  # looked up at each call: tests and pipes replace it
    while True:
        try:
            return _read_one(console, stdin, prompt, tty=tty)
        except UnicodeDecodeError:
            console.print("[red]That line is not UTF-8 text; type it again.[/red]")


def _read_one(console: Console, stdin: Any, prompt: str, *, tty: bool) -> str:
    if stdin.isatty():
        if tty:
            # Plain input() with the prompt, so that readline (tab completion, history) knows
            # the prompt and redraws the line correctly after listing completions.
            return input(prompt)
        return console.input(prompt)
    console.print(prompt, end="", markup=False)
    line: str = stdin.readline()
    if not line:
        console.print()
        raise EOFError
    line = line.rstrip("\r\n")
    console.print(printable(line), markup=False)
    return line


def printable(text: str) -> str:
    """``text`` with control characters and lone surrogates written as escapes (``\\t``,
    ``\\x1b``), so that whatever a user typed or named cannot drive the terminal."""
    return "".join(
        ch.encode("unicode_escape", "backslashreplace").decode("ascii")
        if unicodedata.category(ch) in ("Cc", "Cs")
        else ch
        for ch in text
    )


def shown(text: str) -> str:
    """User-provided text as safe Rich markup: escaped and printable."""
    return escape(printable(text))


def numbered(moves: Sequence[object]) -> str:
    """``1 drop · 2 draw stock · 3 draw pile``: the numbers pick the move at the prompt."""
    return " · ".join(f"[cyan]{i}[/cyan] {escape(str(m))}" for i, m in enumerate(moves, 1))


def ask_move(
    io: PlayIO,
    prompt: str,
    is_command: Callable[[str], bool],
    state: Any,
    legal: Sequence[Any] = (),
) -> Any:
    """Ask until the user types a move the rules allow, or its number in ``legal``;
    ``is_command`` handles the other words (help, moves, save …) and says whether it took the
    line. Refusals name the rule."""
    io.offer([*(str(m) for m in legal), *COMMANDS])
    while True:
        text = io.read(prompt).strip()
        if text.isdecimal() and legal:
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            io.console.print(
                f"[red]There is no move {number}[/red]: pick 1 to {len(legal)}, or type the move."
            )
            continue
        if is_command(text):
            continue
        try:
            move = state.parse_move(text)
            state.check(move)
        except MoveSyntaxError as e:
            io.console.print(
                f"[red]{shown(str(e))}[/red]. Type 'moves' (or ?) for your "
                "legal moves, 'help' for help."
            )
            continue
        except IllegalMove as e:
            hint = ""
            if not io.rules_hint_shown and rules_text.rule_text(e.rule) is not None:
                hint = f" ('rules {e.rule}' shows the rule)"
                io.rules_hint_shown = True
            io.console.print(f"[red]Not allowed:[/red] {shown(str(e))}{hint}")
            continue
        return move


class Quit(Exception):
    """The user asked to leave the table."""


def shared_command(
    io: PlayIO,
    text: str,
    *,
    help_text: str,
    legal_moves: Callable[[], Sequence[object]] | None,
    save: Callable[[str | None], None],
    history: Callable[[], Sequence[str]] | None = None,
    game: str = "",
    example_rule: str = "",
    part: str = "deal",
) -> bool:
    """The words every game's prompt understands (quit, help, moves, save, rules, history); True
    when ``text`` was one of them. ``legal_moves`` is None where there is no move to make
    (between deals); ``save`` gets the file named, or None for the file in use; ``rules`` reads
    ``game``'s rules, naming ``example_rule`` in its hint; ``part`` is what ``history`` tells
    (a deal, a round)."""
    word, _, rest = text.partition(" ")
    match word.lower():
        case "quit" | "exit" | "q":
            raise Quit
        case "help" | "h":
            io.console.print(help_text, markup=False)
            return True
        case "moves" | "?" if legal_moves is not None:
            io.console.print("Legal moves: " + numbered(legal_moves()))
            return True
        case "save":
            save(rest.strip() or None)
            return True
        case "rules" | "rule":
            print_rules(io, rest.strip(), game, example_rule)
            return True
        case "history" | "log" if history is not None:
            lines = history()
            if not lines:
                io.console.print(f"Nothing has happened yet in this {part}.")
            for line in lines:
                io.console.print(line)
            return True
    return False


def print_rules(io: PlayIO, code: str, game: str, example: str) -> None:
    """``rules T9``: that rule of ``game`` as shipped with the package; ``rules``: the list,
    wrapped between rules (a title is never cut), and a hint naming ``example``."""
    titles = rules_text.rule_titles(game)
    if not code:
        for line in wrap_list(f"Rules of {game}: ", titles, io.console.width):
            io.console.print(line, markup=False)
        io.console.print(f"Type 'rules {example}' (a rule's number) to read one.")
        return
    text = rules_text.rule_text(code, game)
    if text is None:
        io.console.print(
            f"[red]There is no rule {shown(code)}[/red]: write its number as the messages "
            f"cite it ({rules_text.numbering(game)}); 'rules' lists them."
        )
        return
    io.console.print(text, markup=False)


def wrap_list(head: str, items: Sequence[str], width: int, sep: str = " · ") -> list[str]:
    """``head`` and ``items`` joined by ``sep`` in lines of at most ``width`` characters, broken
    only between items: a line that goes on ends with the separator's mark, the next is
    indented by two spaces. An item longer than a line gets a line of its own (the terminal
    wraps it)."""
    mark = sep.rstrip()
    lines: list[str] = []
    line = head
    for item in items:
        if line == head:  # the first item follows the head, whatever its length
            line += item
        elif len(line) + len(sep) + len(item) + len(mark) <= width:
            line += sep + item
        else:
            lines.append(line + mark)
            line = "  " + item
    lines.append(line)
    return lines


def write_jsonl(io: PlayIO, path: str, records: Iterable[dict[str, Any]]) -> bool:
    """Write records as JSON Lines; says why and returns False when the file cannot be written.

    The text is made in full before the file is opened, so that a record that cannot be written
    never leaves the file emptied (the file keeps what it held)."""
    try:
        text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
        data = text.encode("utf-8")
    except (ValueError, TavernError) as e:  # a record refused, or a lone surrogate
        io.console.print(f"[red]Could not save to {shown(path)}: {shown(str(e))}[/red]")
        return False
    try:
        with open(path, "wb") as f:
            f.write(data)
    except (OSError, ValueError) as e:  # ValueError: a NUL in the path
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        io.console.print(f"[red]Could not save to {shown(path)}: {shown(reason)}[/red]")
        return False
    return True
