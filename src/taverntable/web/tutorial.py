"""The guided first deal of each game (issue 26, item 5): a tutorial table with a stacked deck,
a bot whose moves are scripted, and a hint at each step that says what to do and why, naming
the rule.

A lesson is a deal written as a record's header (``docs/record-format.md``: the ``cards`` of a
stacked deal) and its moves, each with the hint the person reads before it. The table plays it
with the same engine as any table: the deal is the record's (``replay_record``), every move is
checked by the engine, and at the person's steps the table refuses any move but the lesson's
(``lesson-step``, with the step's hint and rule). Only the server makes a lesson's table
(``POST /api/lessons/GAME``); ``CreateTable`` has no field for a deck or a lesson, so no client
can stack the deck of a real table. A lesson's table is never rated, never in the lobby's list
and never on a ladder.
"""

from __future__ import annotations

from taverntable.games import get_game

from .lesson import BOT, PERSON, Lesson, Step
from .tonk_lesson import TONK
from .towers_lesson import THREE_TOWERS

__all__ = ["BOT", "LESSONS", "PERSON", "Lesson", "Step", "hint_keys", "lesson_named"]

LESSONS: dict[str, Lesson] = {lesson.name: lesson for lesson in (TONK, THREE_TOWERS)}
# Each game's lesson, by the game's family (Tőr and Pagat Tonk learn from Tonk's).
FAMILY_LESSON = {get_game(lesson.game).family: lesson.name for lesson in LESSONS.values()}


def lesson_named(name: str | None) -> Lesson | None:
    """The lesson of a table's settings (None: a real table)."""
    return None if name is None else LESSONS[name]


def lesson_of_family(family: str) -> str | None:
    """The lesson a game of ``family`` teaches with, if any."""
    return FAMILY_LESSON.get(family)


def hint_keys() -> set[str]:
    """Every key a lesson's frames name (the i18n tables must have them)."""
    return {key for lesson in LESSONS.values() for key in lesson.hint_keys()}
