"""The rules' texts at the terminal (each game's ``texts/en/*.md``, ``games/texts.py``), so that
``rules T9`` at the table prints the rule a message cites.

Tonk's rules are ``## T9 Title`` sections and its readings ``- **L2 Title.**`` items; Three
Towers' readings are paragraphs opening with ``**R9 Title.**`` and its translated actions are
Part A's numbered items (cited as A1…A4). A rule runs until the next rule or heading.
"""

from __future__ import annotations

import re
from functools import cache

from taverntable.games import all_games, get_game
from taverntable.games.texts import rules_markdown

_STARTS = (
    re.compile(r"^## (T\d+)\b"),
    re.compile(r"^\*\*(R\d+)\b"),
    re.compile(r"^- \*\*(L\d+)\b"),
)
_ACTION = re.compile(r"^(\d+)\. \*\*")


@cache
def _rules(game: str, file: str) -> dict[str, str]:
    """Rule number -> its text, in the file's order."""
    text = rules_markdown(get_game(game), file)
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


def rule_text(code: str, game: str | None = None) -> str | None:
    """The text of rule ``code`` (``T9``, ``r14``, ``A1``, ``L2``) of ``game`` (of any game when
    None), or None if there is none."""
    code = code.strip().upper()
    for each in [get_game(game)] if game is not None else all_games():
        for file in each.rules_files:
            if code in (rules := _rules(each.name, file)):
                return rules[code]
    return None


def numbering(game: str) -> str:
    """``T1…T13, L1…L6``: how ``game``'s rules are numbered, each series first to last."""
    series: dict[str, list[str]] = {}
    for file in get_game(game).rules_files:
        for code in _rules(game, file):
            series.setdefault(code.rstrip("0123456789"), []).append(code)
    return ", ".join(f"{codes[0]}…{codes[-1]}" for codes in series.values())


def rule_titles(game: str) -> list[str]:
    """``T1 Cards``, ``T2 Players, seats, stake`` …: the rules of ``game`` by number and title."""
    titles = []
    for file in get_game(game).rules_files:
        for code, text in _rules(game, file).items():
            first = text.splitlines()[0]
            bold = re.search(r"\*\*(.+?)\*\*", first)
            title = bold.group(1) if bold and not first.startswith("## ") else first[3:]
            title = title.removeprefix(code).strip().rstrip(".")
            titles.append(f"{code} {title}")
    return titles
