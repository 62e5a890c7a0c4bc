"""Where a terminal game reads its input and prints its output, so tests can replace both."""

from __future__ import annotations

import sys
from collections.abc import Callable
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
