"""The rules pages of the browser table: each game's rules and the project's readings, in the
UI's languages, as HTML with an anchor at every rule (``#T9``, ``#R14``, ``#A1``, ``#L2``) so
that an error message naming a rule links to it.

The texts are each game's own (``texts/LANG/FILE.md`` in its package, ``games/texts.py``), with
the same rule numbers and the same markup in every language, so one anchoring rule serves all.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from importlib.resources import files

from markdown_it import MarkdownIt

from taverntable.games import get_game
from taverntable.games.texts import LANGUAGES, rules_markdown

_HEADING = re.compile(r"^(## )(T\d+)\b")
_BOLD = re.compile(r"^(- )?\*\*([RL]\d+)\b")
_ACTION = re.compile(r"^(\d+)\. \*\*")
TITLES = {"en": "Rules", "hu": "Szabályok", "ru": "Правила", "uk": "Правила"}
BACK = {
    "en": "Back to the table",
    "hu": "Vissza az asztalhoz",
    "ru": "Назад к столу",
    "uk": "Назад до столу",
}


def game_title(game: str, lang: str) -> str:
    """The game's name in ``lang``, from the browser table's own translations."""
    text = files("taverntable.web").joinpath("static", "i18n", f"{lang}.json").read_text("utf-8")
    title: str = json.loads(text).get(f"game.{game}", game)
    return title


def anchored(markdown: str) -> str:
    """The markdown with an empty anchor before every rule's first words."""
    out = []
    in_part_a = False
    for line in markdown.splitlines():
        if line.startswith("## "):
            # Part A's numbered items are the actions A1…A4 (Three Towers); a translation's
            # heading of that part begins "## A " ("## A rész", "## A — переклад").
            in_part_a = line.startswith(("## Part A", "## A "))
        if m := _HEADING.match(line):
            line = f'{m.group(1)}<a id="{m.group(2)}"></a>{line[m.end(1) :]}'
        elif m := _BOLD.match(line):
            lead = m.group(1) or ""
            line = f'{lead}<a id="{m.group(2)}"></a>{line[len(lead) :]}'
        elif in_part_a and (m := _ACTION.match(line)):
            line = f'{line[: m.end(1) + 2]}<a id="A{m.group(1)}"></a>{line[m.end(1) + 2 :]}'
        out.append(line)
    return "\n".join(out) + "\n"


# The pages' icon: a card with a red diamond, drawn inline (nothing fetched; the same as
# static/index.html's, which a test keeps equal).
FAVICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='"
    "0 0 32 32'%3E%3Crect x='5' y='2' width='22' height='28' rx='3' fill='%23fbf8f1' "
    "stroke='%231f5b3a' stroke-width='2'/%3E%3Cpath d='M16 7 23 16 16 25 9 16Z' fill="
    "'%23b3121f'/%3E%3C/svg%3E"
)


@cache
def rules_page(game: str, lang: str) -> str:
    """The whole HTML page of ``game``'s rules in ``lang`` (a registered game; a known language)."""
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    rules = get_game(game)
    body = "\n".join(md.render(anchored(rules_markdown(rules, f, lang))) for f in rules.rules_files)
    others = " · ".join(
        f'<a href="/rules/{game}?lang={code}" lang="{code}">{code.upper()}</a>'
        for code in LANGUAGES
        if code != lang
    )
    title = f"{TITLES[lang]}: {html.escape(game_title(game, lang))}"
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="icon" type="image/svg+xml" href="{FAVICON}">'
        '<link rel="stylesheet" href="/static/css/rules.css"></head>'
        f'<body><nav><a href="javascript:history.back()">← {BACK[lang]}</a>'
        f'<span class="langs">{others}</span></nav><main>{body}</main></body></html>'
    )
