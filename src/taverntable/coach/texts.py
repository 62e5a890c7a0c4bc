"""The coach's sentences and labels in the four languages (en, hu, ru, uk).

A ``Note`` keeps a template key and its parameters; ``render`` fills the template of a language.
Numbers are formatted here (signed, a true minus sign), moves stay in the record notation
(unless the caller words them: the browser's review says them as its buttons do), the unit is
translated. The browser will render the same keys from the same table (``TEXTS`` as
JSON), so every key must exist in every language with the same placeholders (tested).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .family import Note

LANGS = ("en", "hu", "ru", "uk")

# Parameters that are values in the note's unit: formatted signed, two decimals for stakes and
# one for points.
VALUE_PARAMS = ("chosen_value", "best_value", "drop_value", "loss", "lost")

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "unit.stakes": "stakes",
        "unit.points": "points",
        "tonk.drop_caught": "Drop at {total}: someone holds {total} or less in about {pct}% of the "
        "worlds ({catcher} in {catcher_pct}%); expected {chosen_value} {unit}, {best} was "
        "{best_value} ({rule})",
        "tonk.drop_missed": "{chosen} at {total}: nobody else holds {total} or less in about "
        "{pct}% of the worlds; a drop was worth {drop_value} {unit}, {chosen} {chosen_value} "
        "({rule})",
        "tonk.drop_close": "{chosen} at {total}: a drop would win in about {pct}% of the worlds "
        "({drop_value} {unit}), about as good as {chosen} ({chosen_value}) ({rule})",
        "tonk.drop_right": "Drop at {total}: caught in about {pct}% of the worlds; expected "
        "{chosen_value} {unit}, the best move ({rule})",
        "tonk.drop_declined": "No drop at {total}: it would be caught in about {pct}% of the "
        "worlds, by {catcher} in {catcher_pct}% ({drop_value} {unit}); {chosen} {chosen_value} "
        "({rule})",
        "best": "{chosen} was the best move: expected {chosen_value} {unit} ({rule})",
        "close": "{chosen} ({chosen_value} {unit}) and {best} ({best_value}) are within the noise "
        "({rule})",
        "worse": "{chosen}: expected {chosen_value} {unit}; {best} was {best_value}, a difference "
        "of {loss} ({rule})",
        "ui.title": "Review of {player} (seat {seat}), {game}: {worlds} worlds a decision, seed "
        "{seed}",
        "ui.decision": "Move {number}: {player}",
        "ui.move": "Move",
        "ui.value": "Value",
        "ui.interval": "95% interval",
        "ui.chosen": "chosen",
        "ui.best": "best",
        "ui.mistake": "MISTAKE",
        "ui.mistakes": "Mistakes: {count}, {lost} {unit} lost",
        "ui.no_decisions": "No decisions to review (every move was forced)",
    },
    "hu": {
        "unit.stakes": "tét",
        "unit.points": "pont",
        "tonk.drop_caught": "Virítás {total} ponton: a világok kb. {pct}%-ában valakinél {total} "
        "vagy kevesebb van ({catcher}: {catcher_pct}%); várható {chosen_value} {unit}, a(z) "
        "{best} {best_value} lett volna ({rule})",
        "tonk.drop_missed": "{chosen} {total} ponton: a világok kb. {pct}%-ában senki másnál nincs "
        "{total} vagy kevesebb; a virítás {drop_value} {unit} volt, a(z) {chosen} {chosen_value} "
        "({rule})",
        "tonk.drop_close": "{chosen} {total} ponton: a virítás a világok kb. {pct}%-ában nyerne "
        "({drop_value} {unit}), nagyjából annyit ér, mint a(z) {chosen} ({chosen_value}) ({rule})",
        "tonk.drop_right": "Virítás {total} ponton: a világok kb. {pct}%-ában fogják meg; várható "
        "{chosen_value} {unit}, ez a legjobb lépés ({rule})",
        "tonk.drop_declined": "Nincs virítás {total} ponton: a világok kb. {pct}%-ában megfognák, "
        "{catcher} {catcher_pct}%-ban ({drop_value} {unit}); a(z) {chosen} {chosen_value} "
        "({rule})",
        "best": "A(z) {chosen} volt a legjobb lépés: várható {chosen_value} {unit} ({rule})",
        "close": "A(z) {chosen} ({chosen_value} {unit}) és a(z) {best} ({best_value}) a zajon "
        "belül van ({rule})",
        "worse": "{chosen}: várható {chosen_value} {unit}; a(z) {best} {best_value} lett volna, a "
        "különbség {loss} ({rule})",
        "ui.title": "{player} elemzése ({seat}. hely), {game}: döntésenként {worlds} világ, mag "
        "{seed}",
        "ui.decision": "{number}. lépés: {player}",
        "ui.move": "Lépés",
        "ui.value": "Érték",
        "ui.interval": "95%-os intervallum",
        "ui.chosen": "választott",
        "ui.best": "legjobb",
        "ui.mistake": "HIBA",
        "ui.mistakes": "Hibák: {count}, elveszett {lost} {unit}",
        "ui.no_decisions": "Nincs elemezhető döntés (minden lépés kényszerű volt)",
    },
    "ru": {
        "unit.stakes": "ст.",
        "unit.points": "очк.",
        "tonk.drop_caught": "Открыться при {total}: примерно в {pct}% миров у кого-то {total} или "
        "меньше ({catcher} — в {catcher_pct}%); ожидание {chosen_value} {unit}, {best} давало "
        "{best_value} ({rule})",
        "tonk.drop_missed": "{chosen} при {total}: примерно в {pct}% миров ни у кого больше нет "
        "{total} или меньше; открытие давало {drop_value} {unit}, {chosen} — {chosen_value} "
        "({rule})",
        "tonk.drop_close": "{chosen} при {total}: открытие выиграло бы примерно в {pct}% миров "
        "({drop_value} {unit}), почти как {chosen} ({chosen_value}) ({rule})",
        "tonk.drop_right": "Открыться при {total}: поймают примерно в {pct}% миров; ожидание "
        "{chosen_value} {unit}, лучший ход ({rule})",
        "tonk.drop_declined": "Не открываться при {total}: открытие поймали бы примерно в {pct}% "
        "миров, {catcher} — в {catcher_pct}% ({drop_value} {unit}); {chosen} — {chosen_value} "
        "({rule})",
        "best": "{chosen} — лучший ход: ожидание {chosen_value} {unit} ({rule})",
        "close": "{chosen} ({chosen_value} {unit}) и {best} ({best_value}) в пределах шума "
        "({rule})",
        "worse": "{chosen}: ожидание {chosen_value} {unit}; {best} давало {best_value}, разница "
        "{loss} ({rule})",
        "ui.title": "Разбор: {player} (место {seat}), {game}: {worlds} миров на решение, зерно "
        "{seed}",
        "ui.decision": "Ход {number}: {player}",
        "ui.move": "Ход",
        "ui.value": "Ценность",
        "ui.interval": "95% интервал",
        "ui.chosen": "сделан",
        "ui.best": "лучший",
        "ui.mistake": "ОШИБКА",
        "ui.mistakes": "Ошибок: {count}, потеряно {lost} {unit}",
        "ui.no_decisions": "Нечего разбирать (все ходы были вынужденными)",
    },
    "uk": {
        "unit.stakes": "ст.",
        "unit.points": "оч.",
        "tonk.drop_caught": "Відкритися при {total}: приблизно в {pct}% світів у когось {total} "
        "або менше ({catcher} — у {catcher_pct}%); очікування {chosen_value} {unit}, {best} "
        "давало {best_value} ({rule})",
        "tonk.drop_missed": "{chosen} при {total}: приблизно в {pct}% світів ні в кого більше "
        "немає {total} або менше; відкриття давало {drop_value} {unit}, {chosen} — {chosen_value} "
        "({rule})",
        "tonk.drop_close": "{chosen} при {total}: відкриття виграло б приблизно в {pct}% світів "
        "({drop_value} {unit}), майже як {chosen} ({chosen_value}) ({rule})",
        "tonk.drop_right": "Відкритися при {total}: спіймають приблизно в {pct}% світів; "
        "очікування {chosen_value} {unit}, найкращий хід ({rule})",
        "tonk.drop_declined": "Не відкриватися при {total}: відкриття спіймали б приблизно в "
        "{pct}% світів, {catcher} — у {catcher_pct}% ({drop_value} {unit}); {chosen} — "
        "{chosen_value} ({rule})",
        "best": "{chosen} — найкращий хід: очікування {chosen_value} {unit} ({rule})",
        "close": "{chosen} ({chosen_value} {unit}) і {best} ({best_value}) в межах шуму ({rule})",
        "worse": "{chosen}: очікування {chosen_value} {unit}; {best} давало {best_value}, різниця "
        "{loss} ({rule})",
        "ui.title": "Розбір: {player} (місце {seat}), {game}: {worlds} світів на рішення, зерно "
        "{seed}",
        "ui.decision": "Хід {number}: {player}",
        "ui.move": "Хід",
        "ui.value": "Цінність",
        "ui.interval": "95% інтервал",
        "ui.chosen": "зроблено",
        "ui.best": "найкращий",
        "ui.mistake": "ПОМИЛКА",
        "ui.mistakes": "Помилок: {count}, втрачено {lost} {unit}",
        "ui.no_decisions": "Немає що розбирати (усі ходи були вимушеними)",
    },
}


def number(value: float, unit: str) -> str:
    """A value in ``unit``, signed with a true minus: ``+0.10``, ``−0.62`` stakes, ``+3.5``
    points (a zero that rounds to nothing has no sign)."""
    digits = 2 if unit == "stakes" else 1
    text = f"{abs(value):.{digits}f}"
    if float(text) == 0:
        return text
    return ("+" if value > 0 else "\u2212") + text


def text(key: str, lang: str, params: Mapping[str, object], unit: str = "stakes") -> str:
    """The template ``key`` of ``lang`` (English where the language lacks it) filled with
    ``params``: values in ``unit`` formatted by ``number``, ``unit`` translated."""
    table = TEXTS.get(lang, TEXTS["en"])
    template = table.get(key, TEXTS["en"][key])
    filled: dict[str, object] = {}
    for name, value in params.items():
        if name in VALUE_PARAMS and isinstance(value, int | float):
            filled[name] = number(float(value), unit)
        else:
            filled[name] = value
    filled["unit"] = table.get(f"unit.{unit}", unit)
    return template.format(**filled)


# The note's parameters that are moves, in the record notation.
MOVE_PARAMS = ("chosen", "best")


def render(note: Note, lang: str = "en", said: Callable[[str], str] | None = None) -> str:
    """The note's sentence in ``lang``; ``said`` words its moves (the browser's button words,
    ``web/move_words.py``), else they stay in the record notation (the terminal's own)."""
    unit = str(note.params.get("unit", "stakes"))
    params: dict[str, object] = {**note.params, "rule": note.rule}
    if said is not None:
        for name in MOVE_PARAMS:
            if isinstance(params.get(name), str):
                params[name] = said(str(params[name]))
    return text(note.key, lang, params, unit)
