"""The "How to play" pages: each game's player's page (``texts/LANG/how-to-play.md``) as HTML,
with the cards it names drawn the way the table draws them.

A page writes cards as ``[[AS 8D 8H]]`` in the record notation; each group becomes a row of small
cards (the rank in the page's language, the suit by its symbol, a spoken name for screen
readers), so that the page shows the newcomer the very cards the table will show them.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from importlib.resources import files

from markdown_it import MarkdownIt

from taverntable.games import get_game
from taverntable.games.texts import LANGUAGES, how_to_play_markdown

from .rulespage import BACK, game_title
from .tutorial import lesson_of_family

CARD_GROUP = re.compile(r"\[\[([0-9AJQKXSHDC ]+)\]\]")
_CARD = re.compile(r"^(?:(10|[2-9AJQK])([SHDC])|X)$")
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
HOW_TO_PLAY = {
    "en": "How to play",
    "hu": "Játékszabály röviden",
    "ru": "Как играть",
    "uk": "Як грати",
}
# The link to the game's guided first deal (``tutorial.py``, ``/learn/NAME``).
LEARN = {
    "en": "Learn by playing: a guided first deal against a bot",
    "hu": "Tanulj játszva: vezetett első osztás egy gép ellen",
    "ru": "Учитесь, играя: первая раздача с подсказками против бота",
    "uk": "Вчіться, граючи: перша роздача з підказками проти бота",
}
FULL_RULES = {
    "en": "The full rules",
    "hu": "A teljes szabályok",
    "ru": "Полные правила",
    "uk": "Повні правила",
}


@cache
def _words(lang: str) -> dict[str, str]:
    """The browser table's translations in ``lang`` (card names among them)."""
    text = files("taverntable.web").joinpath("static", "i18n", f"{lang}.json").read_text("utf-8")
    words: dict[str, str] = json.loads(text)
    return words


def card_html(text: str, lang: str) -> str:
    """One small card as the table draws it (``cards.js``'s ``Card``), in ``lang``."""
    m = _CARD.match(text)
    if m is None:
        raise ValueError(f"not a card in a how-to-play page: {text!r}")
    words = _words(lang)
    if text == "X":
        name, corner, pip, kind = words["card.joker"], "★", "★", "joker"
    else:
        rank, suit = m.group(1), m.group(2)
        short = words.get(f"card.short.{rank}", rank)
        spoken = words.get(f"card.rank.{rank}", rank)
        name = (
            words["card.name"]
            .replace("{rank}", spoken)
            .replace("{suit}", words[f"card.suit.{suit}"])
        )
        corner, pip, kind = f"{short}<br>{SUIT_SYMBOL[suit]}", SUIT_SYMBOL[suit], f"suit-{suit}"
    label = html.escape(name, quote=True)
    return (
        f'<span class="card small {kind}" role="img" aria-label="{label}" title="{label}" '
        f'data-card="{text}"><span class="corner" aria-hidden="true">{corner}</span>'
        f'<span class="pip" aria-hidden="true">{pip}</span></span>'
    )


def with_cards(markdown_html: str, lang: str) -> str:
    """The rendered page with every ``[[…]]`` group drawn as a row of cards."""

    def row(m: re.Match[str]) -> str:
        cards = "".join(card_html(text, lang) for text in m.group(1).split())
        return f'<span class="card-row">{cards}</span>'

    return CARD_GROUP.sub(row, markdown_html)


def has_how_to_play(game: str) -> bool:
    return how_to_play_markdown(get_game(game)) is not None


@cache
def how_to_play_page(game: str, lang: str) -> str:
    """The whole HTML page of ``game``'s player's page in ``lang`` (a game that has one; a known
    language)."""
    markdown = how_to_play_markdown(get_game(game), lang)
    if markdown is None:
        raise LookupError(f"{game} has no how-to-play page")
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = with_cards(md.render(markdown), lang)
    others = " · ".join(
        f'<a href="/how-to-play/{game}?lang={code}" lang="{code}">{code.upper()}</a>'
        for code in LANGUAGES
        if code != lang
    )
    title = f"{HOW_TO_PLAY[lang]}: {html.escape(game_title(game, lang))}"
    lesson = lesson_of_family(get_game(game).family)
    learn = (
        ""
        if lesson is None
        else f'<p class="learn"><a class="button primary" data-link="learn" '
        f'href="/learn/{lesson}?lang={lang}">{LEARN[lang]} →</a></p>'
    )
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title>"
        '<link rel="stylesheet" href="/static/css/app.css">'
        '<link rel="stylesheet" href="/static/css/rules.css">'
        '<link rel="stylesheet" href="/static/css/howto.css"></head>'
        f'<body class="howto"><nav><a href="javascript:history.back()">← {BACK[lang]}</a>'
        f'<span class="langs">{others}</span></nav><main>{learn}{body}'
        f'<p class="full-rules"><a href="/rules/{game}?lang={lang}">'
        f"{FULL_RULES[lang]} →</a></p></main></body></html>"
    )
