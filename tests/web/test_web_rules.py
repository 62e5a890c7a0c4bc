"""The rules pages of the browser table (``/rules/GAME?lang=``): every game's rules and readings
in each language, with an anchor at every rule an error message may name (T…, R…, A…, L…), and
the option choices the lobby's form offers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taverntable.games import get_game
from taverntable.games.texts import HOW_TO_PLAY, LANGUAGES
from taverntable.games.three_towers.reasons import REASONS as TOWERS_REASONS
from taverntable.web.app import create_app
from taverntable.web.rulespage import FAVICON

from web_helpers import sqlite_url

TONK_RULES = [f"T{n}" for n in range(1, 14)] + [f"L{n}" for n in range(1, 7)]
TOWERS_RULES = [f"A{n}" for n in range(1, 5)] + [f"R{n}" for n in range(1, 30)]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url(tmp_path))) as c:
        yield c


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("game", "rules"), [("tonk", TONK_RULES), ("tor", TONK_RULES), ("three-towers", TOWERS_RULES)]
)
def test_every_rule_has_an_anchor_in_every_language(
    client: TestClient, game: str, rules: list[str], lang: str
) -> None:
    page = client.get(f"/rules/{game}", params={"lang": lang})
    assert page.status_code == 200
    anchors = re.findall(r'<a id="([A-Z]\d+)"></a>', page.text)
    assert anchors == sorted(set(anchors), key=anchors.index)  # each once
    assert set(rules) <= set(anchors)
    assert f'<html lang="{lang}">' in page.text


@pytest.mark.parametrize(
    ("game", "lang", "title"),
    [
        ("three-towers", "en", "Rules: Three Towers"),
        ("three-towers", "uk", "Правила: Три Вежі"),
        ("tonk", "ru", "Правила: Тонк"),
        ("tor", "hu", "Szabályok: Tőr"),
    ],
)
def test_a_rules_page_is_titled_with_the_games_name_in_its_language(
    client: TestClient, game: str, lang: str, title: str
) -> None:
    page = client.get(f"/rules/{game}", params={"lang": lang}).text
    assert f"<title>{title}</title>" in page


def test_the_rules_that_refusals_name_are_on_the_rules_pages(client: TestClient) -> None:
    """Every rule a refusal can name links to an anchor (R4, R15 … and T5 … T11)."""
    towers = client.get("/rules/three-towers").text
    tonk = client.get("/rules/tonk").text
    named = set(re.findall(r"\((R\d+)\)", " ".join(TOWERS_REASONS.values())))
    assert named and all(f'id="{rule}"' in towers for rule in named)
    assert all(f'id="T{n}"' in tonk for n in (5, 6, 7, 8, 9, 11))


@pytest.mark.parametrize(
    ("lang", "words"), [("hu", "virítás"), ("ru", "открыться"), ("uk", "відкритися")]
)
def test_the_rules_are_translated_with_the_seeds_words(
    client: TestClient, lang: str, words: str
) -> None:
    """The Tonk rules in each language name the drop (T6) as the seeds do; every rules file and
    the how-to-play page have a translation (no English fallback)."""
    english = client.get("/rules/three-towers").text
    translated = client.get("/rules/three-towers", params={"lang": lang}).text
    assert "Part A — translation" in english and "Part A — translation" not in translated
    assert words in client.get("/rules/tonk", params={"lang": lang}).text.lower()
    for game in (get_game("tonk"), get_game("three-towers")):
        folder = game.texts.joinpath(lang)
        # Every rules file translated, and beside them only the player's page (how-to-play).
        assert sorted(p.name for p in folder.iterdir()) == sorted([*game.rules_files, HOW_TO_PLAY])


def test_rules_pages_refuse_unknown_games_and_fall_back_to_english(client: TestClient) -> None:
    assert client.get("/rules/chess").status_code == 404
    page = client.get("/rules/tonk", params={"lang": "xx"})
    assert page.status_code == 200 and '<html lang="en">' in page.text


def test_the_lobby_gets_each_options_choices(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["tonk"]["choices"]["stock_end"] == ["last_draw", "empty"]
    assert games["tonk"]["choices"]["hit_lock"] == [False, True]
    assert games["three-towers"]["choices"]["max_rounds"] == "int?"
    assert games["three-towers"]["choices"]["tower_goal"] == "int"


def test_the_browser_table_is_served_with_its_vendored_modules(client: TestClient) -> None:
    index = client.get("/t/abc")
    assert index.status_code == 200 and "/static/js/main.js" in index.text
    assert "https://" not in index.text  # nothing from outside at run time
    for path in (
        "/static/vendor/preact.module.js",
        "/static/vendor/htm.module.js",
        "/static/js/main.js",
        "/static/i18n/uk.json",
        "/static/css/app.css",
    ):
        assert client.get(path).status_code == 200, path


def test_every_page_has_its_icon_drawn_inline(client: TestClient) -> None:
    """Issue 26: the favicon was the page's only console error (a 404): the table's and the
    rules' pages name one inline SVG, so nothing is fetched for it."""
    icon = f'<link rel="icon" type="image/svg+xml" href="{FAVICON}">'
    assert FAVICON.startswith("data:image/svg+xml,") and "%3Csvg" in FAVICON
    assert icon in client.get("/").text
    assert icon in client.get("/t/abc").text
    assert icon in client.get("/rules/tonk?lang=hu").text
