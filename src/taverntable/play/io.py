"""Where a terminal game reads its input and prints its output, so tests can replace both."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.markup import escape

from taverntable.engine import IllegalMove, MoveSyntaxError


@dataclass
class PlayIO:
    """A Rich console for output; ``read(prompt)`` returns one line, EOFError at the end."""

    console: Console
    read: Callable[[str], str]

    @classmethod
    def standard(cls) -> PlayIO:
        """The real terminal (or whatever stdin and stdout are)."""
        console = Console(highlight=False, soft_wrap=True)
        return cls(console, lambda prompt: read_line(console, prompt))


def read_line(console: Console, prompt: str) -> str:
    """One line from stdin; echoed when stdin is not a terminal, so a piped session reads well."""
    stdin = sys.stdin  # looked up at each call: tests and pipes replace it
    if stdin.isatty():
        # Rich's input() keeps the terminal's line editing and history.
        return console.input(prompt)
    console.print(prompt, end="")
    line = stdin.readline()
    if not line:
        console.print()
        raise EOFError
    line = line.rstrip("\r\n")
    console.print(line, markup=False)
    return line


def ask_move(io: PlayIO, prompt: str, is_command: Callable[[str], bool], state: Any) -> Any:
    """Ask until the user types a move the rules allow; ``is_command`` handles the other words
    (help, moves, save …) and says whether it took the line. Refusals name the rule."""
    while True:
        text = io.read(prompt).strip()
        if is_command(text):
            continue
        try:
            move = state.parse_move(text)
            state.check(move)
        except MoveSyntaxError as e:
            io.console.print(f"[red]{escape(str(e))}[/red]. Type 'moves' (or ?) for your "
                             "legal moves, 'help' for help.")
            continue
        except IllegalMove as e:
            io.console.print(f"[red]Not allowed:[/red] {escape(str(e))}")
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
    save: Callable[[str], None],
    save_path: str | None,
) -> bool:
    """The words every game's prompt understands (quit, help, moves, save); True when ``text``
    was one of them. ``legal_moves`` is None where there is no move to make (between deals)."""
    word, _, rest = text.partition(" ")
    match word.lower():
        case "quit" | "exit" | "q":
            raise Quit
        case "help" | "h":
            io.console.print(help_text, markup=False)
            return True
        case "moves" | "?" if legal_moves is not None:
            moves = legal_moves()
            io.console.print("Legal moves: " + " · ".join(str(m) for m in moves), markup=False)
            return True
        case "save":
            path = rest.strip() or save_path
            if path:
                save(path)
            else:
                io.console.print("Write 'save FILE.jsonl'.")
            return True
    return False


def write_jsonl(io: PlayIO, path: str, records: Iterable[dict[str, Any]]) -> bool:
    """Write records as JSON Lines; says why and returns False when the file cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            for record in records:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
    except OSError as e:
        io.console.print(f"[red]Could not save to {escape(path)}: {escape(str(e))}[/red]")
        return False
    return True
