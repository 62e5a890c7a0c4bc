"""The coach's review says moves as the table's buttons do (issue 27, the review in the browser):
every legal move of random Tonk, Tőr, pagat and Three Towers games, in each language, comes out
in words with the page's card names, never in the record notation."""

from __future__ import annotations

import random
import re

import pytest

from taverntable.coach.family import Note
from taverntable.coach.texts import render
from taverntable.engine import CHANCE
from taverntable.games import get_game
from taverntable.web.move_words import card_words, move_words, quoted

LANGUAGES = ("en", "hu", "ru", "uk")
# A card in the record notation (T1, R1): what the words must never show.
NOTATION = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


def legal_moves_of_random_games(name: str, games: int) -> set[str]:
    game = get_game(name)
    moves: set[str] = set()
    for seed in range(games):
        rng = random.Random(seed)
        players = rng.randint(game.min_players, min(game.max_players, 4))
        state = game.start(game.rules(), players, rng=rng)
        for _ in range(game.max_moves):
            if state.is_over:
                break
            if state.current_seat == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
                continue
            legal = state.legal_moves()
            moves.update(str(m) for m in legal)
            # Rarely a drop, so that deals last long enough to hit spreads (T8).
            lasting = [m for m in legal if str(m) != "drop"] or list(legal)
            state.apply_unchecked(rng.choice(legal if rng.random() < 0.02 else lasting))
    return moves


@pytest.mark.parametrize("name", ["tonk", "tor", "pagat", "three-towers"])
def test_every_legal_move_is_said_in_words_in_every_language(name: str) -> None:
    family = get_game(name).family
    names = ["Anna", "Bence", "Csilla", "Dóra"]
    moves = legal_moves_of_random_games(name, 40)
    verbs = {m.split(" ")[0] for m in moves}
    assert len(verbs) >= (5 if family == "tonk" else 8), verbs  # the sample reaches most verbs
    for lang in LANGUAGES:
        for move in moves:
            words = move_words(move, family, lang, names)
            assert words != move and "{" not in words, (lang, move, words)
            assert not NOTATION.search(words), (lang, move, words)
            seat = re.search(r"^(?:raid|curse|take|name) (\d)|^give \S+ (\d)", move)
            if seat:
                assert names[int(seat.group(1) or seat.group(2))] in words, (move, words)


def test_the_words_are_the_pages_own() -> None:
    assert move_words("discard 7H", "tonk", "en") == "Discard 7♥"
    assert move_words("hit 0 8C", "tonk", "en") == "Hit spread 1 with 8♣"
    assert move_words("draw pile", "tonk", "ru") != move_words("draw stock", "tonk", "ru")
    assert card_words("QH", "ru") == "Д♥"
    assert move_words("raid 1 KH", "three-towers", "en", ["Anna", "Bence"]) == (
        "Raid Bence's tower with K♥"
    )


def test_a_notes_moves_are_quoted_words_when_the_browser_asks() -> None:
    note = Note("worse", "T7", {"chosen": "draw stock", "best": "draw pile", "unit": "stakes"})
    note = Note(note.key, note.rule, {**note.params, "chosen_value": -0.2, "best_value": 0.1})
    note = Note(note.key, note.rule, {**note.params, "loss": 0.3})
    plain = render(note, "en")
    assert plain.startswith("draw stock:")
    worded = render(note, "uk", lambda m: quoted(move_words(m, "tonk", "uk"), "uk"))
    assert "draw" not in worded and worded.startswith("«") and "»" in worded
