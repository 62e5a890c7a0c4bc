"""Driving ``tavern play`` as a user would: scripted stdin, captured output."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from taverntable import cli


class ScriptedStdin:
    """Standard input that types ``lines``; ``watch(n)`` runs before the line after the first
    ``n`` is read, so a test can look at a file between two commands."""

    def __init__(self, lines: Sequence[str], watch: Callable[[int], None] | None) -> None:
        self.lines = list(lines)
        self.read = 0
        self.watch = watch

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        if self.watch is not None:
            self.watch(self.read)
        if self.read >= len(self.lines):
            return ""
        self.read += 1
        return self.lines[self.read - 1] + "\n"


def run_play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    lines: list[str],
    watch: Callable[[int], None] | None = None,
) -> tuple[int, str]:
    """Run ``tavern play ARGS`` with ``lines`` typed in; returns (exit status, everything shown)."""
    monkeypatch.setattr("sys.stdin", ScriptedStdin(lines, watch))
    status = cli.main(["play", *args])
    return status, capsys.readouterr().out
