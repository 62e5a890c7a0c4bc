"""Driving ``tavern play`` as a user would: scripted stdin, captured output."""

from __future__ import annotations

import io

import pytest

from taverntable import cli


def run_play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    lines: list[str],
) -> tuple[int, str]:
    """Run ``tavern play ARGS`` with ``lines`` typed in; returns (exit status, everything shown)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = cli.main(["play", *args])
    return status, capsys.readouterr().out
