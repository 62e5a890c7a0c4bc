"""The how-to-play pages (``/how-to-play/GAME?lang=``, issue 26 item 5): a player's page per game
in the four languages, with the table's own cards, the same sections and cards in every
language, the seeds' worked example dealt as its record deals it, and no engineering words."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taverntable.games import game_names, get_game
from taverntable.games.texts import LANGUAGES, how_to_play_markdown
from taverntable.web.app import create_app
from taverntable.web.howto import CARD_GROUP

from paths import EXAMPLES
from web_helpers import sqlite_url

# Words of the engine room that a player's page must not use (issue 26: the rules page "reads as
# an engineering document"): rule numbers, the engine, the seeds, the readings' marks.
ENGINE_ROOM = re.compile(
    r"\b[TRAL]\d+\b|engine|seed|\[interp|program|движ|рушій|програм|motor|forrásszöveg",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url(tmp_path_factory.mktemp("howto")))) as c:
        yield c


def card_groups(text: str) -> list[list[str]]:
    return [m.group(1).split() for m in CARD_GROUP.finditer(text)]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", game_names())
def test_every_game_has_a_page_in_every_language_with_its_cards_drawn(
    client: TestClient, game: str, lang: str
) -> None:
    page = client.get(f"/how-to-play/{game}", params={"lang": lang})
    assert page.status_code == 200
    assert f'<html lang="{lang}">' in page.text
    markdown = how_to_play_markdown(get_game(game), lang)
    assert markdown is not None
    cards = [card for group in card_groups(markdown) for card in group]
    drawn = re.findall(r'data-card="([^"]+)"', page.text)
    assert drawn == cards and len(cards) >= 10
    assert "[[" not in page.text  # every group was drawn
    # The rank in the page's language: a Russian ace is "Т", a Hungarian jack "L"…
    short = json.loads(
        (Path(__file__).parents[2] / "src/taverntable/web/static/i18n" / f"{lang}.json").read_text()
    )["card.short.A"]
    if "AS" in cards:
        assert f'data-card="AS"><span class="corner" aria-hidden="true">{short}<br>♠' in page.text
    assert f'href="/rules/{game}?lang={lang}"' in page.text


@pytest.mark.parametrize("family", ["tonk", "three-towers"])
def test_translations_keep_the_sections_and_the_cards(family: str) -> None:
    game = get_game(family)
    english = how_to_play_markdown(game, "en")
    assert english is not None
    for lang in LANGUAGES:
        text = how_to_play_markdown(game, lang)
        assert text is not None
        assert text.count("\n## ") == english.count("\n## "), lang
        assert card_groups(text) == card_groups(english), lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tonk_example_is_the_seeds_first_worked_example(lang: str) -> None:
    """T13's first Tonk example: the page deals the hands and the upcard its record deals."""
    record = json.loads((EXAMPLES / "seed-tonk-1.json").read_text())
    text = how_to_play_markdown(get_game("tonk"), lang)
    assert text is not None
    example = text.split("\n## ")[5]  # the sixth part: the example
    groups = card_groups(example)
    assert groups[:4] == [*record["cards"]["hands"], [record["cards"]["upcard"]]]
    # The dropper's last hand and its total, as the record's result states them (T6).
    dropper = record["result"]["winners"][0]
    assert ["5S", "4C"] in groups and record["result"]["totals"][dropper] == 9


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("family", ["tonk", "three-towers"])
def test_a_players_page_uses_no_engineering_words(family: str, lang: str) -> None:
    text = how_to_play_markdown(get_game(family), lang)
    assert text is not None
    assert not ENGINE_ROOM.findall(CARD_GROUP.sub("", text))


def test_an_unknown_game_is_404_and_an_unknown_language_english(client: TestClient) -> None:
    assert client.get("/how-to-play/chess").status_code == 404
    page = client.get("/how-to-play/tonk", params={"lang": "xx"})
    assert page.status_code == 200 and '<html lang="en">' in page.text
