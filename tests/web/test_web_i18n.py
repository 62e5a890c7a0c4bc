"""The browser table's strings in English, Hungarian, Russian and Ukrainian (issue 11): every
language has every key with the same placeholders, every key is used by the page, every key the
page uses exists, every refusal the engine can raise (A, R…, T…) has a sentence in each
language, and the games' terms are the seeds' own words."""

from __future__ import annotations

import json
import re

import pytest

from taverntable.characters import all_characters, name_key
from taverntable.games.three_towers.reasons import REASONS as TOWERS_REASONS
from taverntable.games.tonk.reasons import REASONS as TONK_REASONS
from taverntable.match import VOCABULARY
from taverntable.web.hub import games_info
from taverntable.web.tutorial import hint_keys

from paths import DATA, SRC

STATIC = SRC / "web" / "static"
LANGUAGES = ("en", "hu", "ru", "uk")
SEEDS = DATA / "seeds"
# The namespaces of the page's keys: a string literal in the page's code that starts with one
# of these and a dot is a key.
NAMESPACES = (
    "ui",
    "game",
    "lobby",
    "opt",
    "bot",
    "invite",
    "status",
    "table",
    "host",
    "join",
    "help",
    "seat",
    "turn",
    "prompt",
    "hand",
    "moves",
    "move",
    "tonk",
    "towers",
    "kind",
    "card",
    "log",
    "end",
    "sheet",
    "error",
    "http",
    "word",
    "showdown",
    "announce",
    "replay",
    "account",
    "games",
    "ladder",
    "profile",
    "outcome",
    "lesson",
    "chat",
)
LITERAL = re.compile('"((?:' + "|".join(NAMESPACES) + r')\.[A-Za-z0-9_./-]+)"')
CALL = re.compile(r'\bt\(\s*"([^"]+)"')
PLACEHOLDER = re.compile(r"\{(\w+)\}")


# The plural categories each language's numbers take (CLDR's cardinal rules, which the page
# reads through Intl.PluralRules): a string that counts something is an object of these forms.
PLURAL_FORMS = {
    "en": {"one", "other"},
    "hu": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "uk": {"one", "few", "many", "other"},
}


def table(lang: str) -> dict[str, str]:
    """The language's strings, a plural object's forms joined (for the placeholder checks)."""
    return {key: "\n".join(forms(value)) for key, value in raw_table(lang).items()}


def raw_table(lang: str) -> dict[str, str | dict[str, str]]:
    data: dict[str, str | dict[str, str]] = json.loads(
        (STATIC / "i18n" / f"{lang}.json").read_text("utf-8")
    )
    return data


def forms(value: str | dict[str, str]) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def page_code() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted((STATIC / "js").glob("*.js")))


def reason_keys() -> set[str]:
    return {f"reason.{key}" for key in (*TONK_REASONS, *TOWERS_REASONS)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_counting_string_has_its_languages_plural_forms_each_with_the_count(lang: str) -> None:
    """ "1 cards", "1 decisions": a string whose number may be one has a form for each plural
    category of the language (Russian and Ukrainian: 1 карта, 3 карты, 5 карт), each with
    the {count} that chooses it."""
    plural = {k: v for k, v in raw_table(lang).items() if isinstance(v, dict)}
    if lang == "en":
        for key in ("replay.moves", "replay.review_decisions", "hint.raid", "log.towers.steal"):
            assert key in plural, key
    for key, value in plural.items():
        assert set(value) == PLURAL_FORMS[lang], (key, sorted(value))
        for text in value.values():
            assert "{count}" in text and text.strip(), (key, text)
        if lang == "en":
            assert value["one"] != value["other"], key


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    english, other = table("en"), table(lang)
    assert sorted(set(english) - set(other)) == [], "missing"
    assert sorted(set(other) - set(english)) == [], "not in English"
    for key, text in other.items():
        assert text.strip(), key
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english[key])), key


def served_keys() -> set[str]:
    """The keys the server gives the page: each game's name and lobby line (``GET /api/games``)
    and the guided first deals' hints (``lesson`` frames)."""
    return {game[key] for game in games_info() for key in ("title_key", "about_key")} | hint_keys()


def character_keys() -> set[str]:
    """The bots' names (``taverntable.characters``): the page looks each up by the name the
    server gives a bot seat."""
    return {name_key(name) for name in all_characters()}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_bot_name_is_in_every_language_in_its_script(lang: str) -> None:
    """Item 7 of issue 26: a bot is called as the seeds call it; Russian and Ukrainian spell
    it in Cyrillic (Гоблин, Гоблін), English and Hungarian as the terminal prints it."""
    words = table(lang)
    for name in all_characters():
        said = words[name_key(name)]
        if lang in ("ru", "uk"):
            assert re.fullmatch(r"[А-Яа-яЁёІіЇїЄєҐґ'-]+", said), (lang, name, said)
        else:
            assert said == name, (lang, name, said)
    assert (
        words[name_key("Goblin")]
        == {"en": "Goblin", "hu": "Goblin", "ru": "Гоблин", "uk": "Гоблін"}[lang]
    )


def test_every_key_is_used_and_every_used_key_exists() -> None:
    english = set(table("en"))
    code = page_code()
    used = set(LITERAL.findall(code)) | set(CALL.findall(code)) | served_keys() | character_keys()
    assert sorted(used - english) == [], "used by the page but in no language"
    unused = english - used - reason_keys()
    assert sorted(unused) == [], "in the languages but never used"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_registered_game_has_its_name_and_lobby_line_in_every_language(lang: str) -> None:
    """A game's title and about keys come from ``/api/games``: a new game's words are its
    entries in the tables, not a table of games in the page's code."""
    words = table(lang)
    for game in games_info():
        assert game["title_key"] in words and game["about_key"] in words, (lang, game["name"])


def test_every_refusal_the_engine_can_raise_has_a_sentence_in_every_language() -> None:
    """A, R…, T…: the keys of both games' reasons.py, each with its parameters."""
    for lang in LANGUAGES:
        words = table(lang)
        assert {k for k in words if k.startswith("reason.")} == reason_keys(), lang
        for key, template in (*TONK_REASONS.items(), *TOWERS_REASONS.items()):
            # A sentence may leave a parameter out (a seat number the page does not show).
            english = set(PLACEHOLDER.findall(template))
            assert set(PLACEHOLDER.findall(words[f"reason.{key}"])) <= english, (lang, key)


def test_every_rule_option_of_the_lobby_has_its_label_and_values() -> None:
    words = table("en")
    for game in games_info():
        for name, choices in game["choices"].items():
            assert f"opt.{name}" in words
            if isinstance(choices, list) and not isinstance(choices[0], bool):
                for value in choices:
                    assert f"opt.{name}.{value}" in words, (name, value)


@pytest.mark.parametrize(
    ("lang", "key", "seed", "word"),
    [
        ("hu", "move.tonk.drop", "000_2965cd7c858948fd.txt", "virítás"),
        ("hu", "tonk.stock", "000_2965cd7c858948fd.txt", "talon"),
        ("hu", "card.rank.J", "000_2965cd7c858948fd.txt", "lovag"),
        ("ru", "tonk.pile", "001_603de158cc9083fa.txt", "куча"),
        ("ru", "move.tonk.drop", "001_603de158cc9083fa.txt", "открыться"),
        ("ru", "card.short.A", "001_603de158cc9083fa.txt", "т"),
        ("uk", "towers.nobility", "002_bb1253062c96189f.txt", "знать"),  # the seed: знати, знаті
        ("uk", "kind.goods", "002_bb1253062c96189f.txt", "товар"),
        ("uk", "kind.thief", "002_bb1253062c96189f.txt", "злодій"),
    ],
)
def test_the_games_terms_are_the_seeds_own_words(lang: str, key: str, seed: str, word: str) -> None:
    assert table(lang)[key].lower() == word
    # The seeds' texts are copied into the tests' data (tests/data/seeds), so a clean clone
    # checks this too.
    assert word.rstrip("ь") in (SEEDS / seed).read_text("utf-8").lower()


def test_the_match_words_are_the_one_vocabulary() -> None:
    """Issue 26: Tonk plays a match of deals, Three Towers a match of games of rounds; the
    page's English words are the vocabulary the terminal uses (``match.VOCABULARY``), and every
    language has its own word for each."""
    english = table("en")
    tonk, towers = VOCABULARY["deal"], VOCABULARY["game"]
    assert english["word.match"] == f"{tonk.match} {{number}}" == f"{towers.match} {{number}}"
    assert english["word.deal"] == f"{tonk.deal} {{number}}"
    assert english["word.game"] == f"{towers.deal} {{number}}"
    assert english["word.round"] == f"{towers.part} {{number}}"
    assert english["log.deal_start"].lower().startswith(tonk.deal)
    assert english["log.game_start"].lower().startswith(towers.deal)
    for lang in LANGUAGES:
        words = table(lang)
        assert len({words["word.deal"], words["word.game"], words["word.round"]}) == 3, lang


def test_every_quick_phrase_of_the_server_has_its_words_in_every_language() -> None:
    """The chat's quick phrases go as keys (``frames.PHRASES``); every language says each."""
    from taverntable.web.protocol.frames import PHRASES

    code = (STATIC / "js" / "chat.js").read_text("utf-8")
    for phrase in PHRASES:
        assert f'"chat.phrase.{phrase}"' in code, phrase
        for lang in LANGUAGES:
            assert table(lang)[f"chat.phrase.{phrase}"].strip(), (lang, phrase)
    assert {k for k in table("en") if k.startswith("chat.phrase.")} == {
        f"chat.phrase.{p}" for p in PHRASES
    }
