"""The rules' texts, shipped inside the package (``play/rules/*.md``: copies of the rules and of
the project's readings), so that ``rules T9`` at the table prints the rule a message cites.

Tonk's rules are ``## T9 Title`` sections and its readings ``- **L2 Title.**`` items; Three
Towers' readings are paragraphs opening with ``**R9 Title.**`` and its translated actions are
Part A's numbered items (cited as A1…A4). A rule runs until the next rule or heading.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import import_module
from importlib.resources import files

from taverntable.games import game_names, get_game


def rules_files(game: str) -> tuple[str, ...]:
    """The files that hold ``game``'s rules, in the order they are listed: named by the game's
    terminal front end (``RULES_FILES``), which the registry names (``Game.terminal``)."""
    front_end = import_module(get_game(game).terminal)
    names: tuple[str, ...] = front_end.RULES_FILES
    return names


_STARTS = (
    re.compile(r"^## (T\d+)\b"),
    re.compile(r"^\*\*(R\d+)\b"),
    re.compile(r"^- \*\*(L\d+)\b"),
)
_ACTION = re.compile(r"^(\d+)\. \*\*")


@cache
def _rules(file: str) -> dict[str, str]:
    """Rule number -> its text, in the file's order."""
    text = files("taverntable.play").joinpath("rules", file).read_text(encoding="utf-8")
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    in_part_a = False
    for line in text.splitlines():
        if line.startswith("## "):
            in_part_a = line.startswith("## Part A")
            current = None
        start = next((m for p in _STARTS if (m := p.match(line))), None)
        action = _ACTION.match(line) if in_part_a else None
        if start:
            current = found.setdefault(start.group(1), [])
        elif action:
            current = found.setdefault("A" + action.group(1), [])
        elif current is not None and in_part_a and line and not line.startswith(" "):
            current = None  # Part A's numbered item ends where unindented prose resumes
        if current is not None:
            current.append(line)
    return {code: "\n".join(lines).strip() for code, lines in found.items()}


def rule_text(code: str) -> str | None:
    """The text of rule ``code`` (``T9``, ``r14``, ``A1``, ``L2``), or None if there is none."""
    code = code.strip().upper()
    for file in dict.fromkeys(f for game in game_names() for f in rules_files(game)):
        if code in (rules := _rules(file)):
            return rules[code]
    return None


def rule_titles(game: str) -> list[str]:
    """``T1 Cards``, ``T2 Players, seats, stake`` …: the rules of ``game`` by number and title."""
    titles = []
    for file in rules_files(game):
        for code, text in _rules(file).items():
            first = text.splitlines()[0]
            bold = re.search(r"\*\*(.+?)\*\*", first)
            title = bold.group(1) if bold and not first.startswith("## ") else first[3:]
            title = title.removeprefix(code).strip().rstrip(".")
            titles.append(f"{code} {title}")
    return titles
