"""The coach's sentences in the four languages: every key everywhere, the same placeholders."""

from __future__ import annotations

import string

import pytest

from taverntable.coach import LANGS, TEXTS, Note, render
from taverntable.coach.texts import number


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_in_every_language_with_the_same_placeholders(lang: str) -> None:
    assert set(TEXTS[lang]) == set(TEXTS["en"])
    for key, template in TEXTS["en"].items():
        assert placeholders(TEXTS[lang][key]) == placeholders(template), key


def test_a_note_renders_signed_values_and_its_rule() -> None:
    note = Note(
        "tonk.drop_caught",
        "T6",
        {
            "chosen": "drop",
            "best": "draw stock",
            "chosen_value": -0.6,
            "best_value": 0.1,
            "total": 12,
            "pct": 41,
            "catcher": "Goblin",
            "catcher_pct": 30,
            "unit": "stakes",
        },
    )
    assert render(note) == (
        "Drop at 12: someone holds 12 or less in about 41% of the worlds (Goblin in 30%); "
        "expected −0.60 stakes, draw stock was +0.10 (T6)"
    )
    for lang in LANGS:
        assert render(note, lang).endswith("(T6)") and "−0.60" in render(note, lang)


def test_numbers_are_signed_and_zero_is_not() -> None:
    assert number(0.004, "stakes") == "0.00"
    assert number(-1.5, "points") == "−1.5"
    assert number(2, "stakes") == "+2.00"
