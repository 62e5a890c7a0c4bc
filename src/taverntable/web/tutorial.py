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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from taverntable.cards import CARDS
from taverntable.engine import GameState
from taverntable.games.three_towers.cards import TEXT as TOWERS_TEXT
from taverntable.records import replay_record

from .protocol.frames import LessonMessage

# Where the person sits at a lesson's table, and the bot.
PERSON = 0
BOT = 1


@dataclass(frozen=True)
class Step:
    """One move of the lesson's deal and the hint shown before it.

    ``params`` fill the hint's placeholders: ``who`` is a seat (the page names it), ``cards``
    and the like are cards in the record notation, all of them cards the person sees when the
    hint is shown (a bot's step names none of its hidden cards)."""

    seat: int
    move: str
    hint: str  # the hint's key in the page's languages (static/i18n)
    rule: str  # the rule the step teaches (T7, R8): the rules page's anchor
    params: Mapping[str, str | int] = field(default_factory=dict)


@dataclass(frozen=True)
class Lesson:
    """A guided first deal: the game and rules, the stacked deal, the script and its hints."""

    name: str
    game: str
    options: Mapping[str, Any]
    bot_name: str
    bot_level: str
    dealer: int
    cards: Mapping[str, Any]  # the record's ``cards`` (a stacked deal)
    steps: tuple[Step, ...]
    end_hint: str  # the closing message's key
    end_rule: str
    end_params: Callable[[dict[str, Any]], dict[str, str | int]]  # from the deal's result
    person: int = PERSON  # the person's seat (the bot sits at ``BOT``)

    def header(self, players: list[str]) -> dict[str, Any]:
        """The deal as a record's header (no moves)."""
        return {
            "game": self.game,
            "rules": {"preset": self.game, **self.options},
            "players": players,
            "dealer": self.dealer,
            "stake": 1,
            "cards": dict(self.cards),
            "moves": [],
        }

    def deal(self, players: list[str]) -> GameState[Any, Any]:
        """The lesson's deal, dealt by the engine from the stacked cards."""
        state: GameState[Any, Any] = replay_record(self.header(players)).state
        return state

    @cached_property
    def base(self) -> int:
        """The moves in a fresh deal's history before the first step (a Three Towers deal's
        chance step)."""
        return len(self.deal(["You", self.bot_name]).history)

    def step(self, state: GameState[Any, Any]) -> Step | None:
        """The step the deal stands at, or None: the deal is over, or it left the script (a
        stand-in bot played something else after a restart; the lesson then says nothing)."""
        done = len(state.history) - self.base
        if state.is_over or not 0 <= done < len(self.steps):
            return None
        for (seat, move), expected in zip(state.history[self.base :], self.steps, strict=False):
            if seat != expected.seat or str(move) != str(state.parse_move(expected.move)):
                return None
        return self.steps[done]

    def scripted(self, state: GameState[Any, Any]) -> Any | None:
        """The step's move for the seat on turn (a bot's, or a stand-in's for the person)."""
        step = self.step(state)
        if step is None or step.seat != state.current_seat:
            return None
        return state.parse_move(step.move)

    def wrong(self, state: GameState[Any, Any], move: Any) -> Step | None:
        """The step the person missed when ``move`` (legal) is not the lesson's, else None."""
        step = self.step(state)
        if step is None or str(move) == str(state.parse_move(step.move)):
            return None
        return step

    def frame(self, state: GameState[Any, Any], deal: int) -> LessonMessage | None:
        """The ``lesson`` frame for the person: the step's hint (the person's or a bot's turn)
        or, once the deal is over, the closing message."""
        if state.is_over:
            result = state.result
            assert result is not None
            return LessonMessage(
                lesson=self.name,
                deal=deal,
                step=len(self.steps),
                steps=len(self.steps),
                seat=None,
                hint=self.end_hint,
                params=self.end_params(result.to_json()),
                rule=self.end_rule,
                done=True,
            )
        step = self.step(state)
        if step is None:
            return None
        mine = step.seat == self.person
        return LessonMessage(
            lesson=self.name,
            deal=deal,
            step=len(state.history) - self.base,
            steps=len(self.steps),
            seat=step.seat,
            hint=step.hint,
            params=dict(step.params),
            rule=step.rule,
            move=step.move if mine else None,
        )

    def hint_keys(self) -> set[str]:
        return {s.hint for s in self.steps} | {self.end_hint}


def _rest(first: list[str], pool: list[str]) -> list[str]:
    """``first``, then the cards of ``pool`` it does not use (each copy once), in ``pool``'s
    order: a stacked deck whose top is the lesson's and whose rest is fixed."""
    left = list(pool)
    for card in first:
        left.remove(card)
    return first + left


# --- Tonk: draw, discard, take from the pile, spread, drop (T5–T9, T6) ------------------------

_TONK_HANDS = [["7S", "7D", "2C", "3H", "KD"], ["KH", "QC", "7C", "9D", "8S"]]
_TONK_UPCARD = "JH"
_TONK_STOCK = _rest(
    ["9H", "6D", "QH"],
    [c.text for c in CARDS if c.text not in {*_TONK_HANDS[0], *_TONK_HANDS[1], _TONK_UPCARD}],
)


def _tonk_end(result: dict[str, Any]) -> dict[str, str | int]:
    totals = result["totals"]
    return {"who": BOT, "mine": totals[PERSON], "theirs": totals[BOT]}


TONK = Lesson(
    name="tonk",
    game="tonk",
    options={},
    bot_name="Elmo",
    bot_level="medium",
    dealer=BOT,
    cards={"hands": _TONK_HANDS, "upcard": _TONK_UPCARD, "stock": _TONK_STOCK},
    steps=(
        Step(PERSON, "draw stock", "lesson.tonk.draw_stock", "T5", {"total": 29}),
        Step(PERSON, "discard KD", "lesson.tonk.discard_high", "T9", {"cards": "KD"}),
        Step(BOT, "draw stock", "lesson.tonk.bot_turn", "T5", {"who": BOT}),
        Step(BOT, "discard 7C", "lesson.tonk.bot_turn", "T5", {"who": BOT}),
        Step(
            PERSON,
            "draw pile",
            "lesson.tonk.take_pile",
            "T7",
            {"who": BOT, "card": "7C", "cards": "7S 7D"},
        ),
        Step(PERSON, "spread 7S 7D 7C", "lesson.tonk.spread", "T8", {"cards": "7S 7D 7C"}),
        Step(PERSON, "discard 9H", "lesson.tonk.discard_not_taken", "T9", {"card": "7C"}),
        Step(BOT, "draw stock", "lesson.tonk.bot_again", "T5", {"who": BOT}),
        Step(BOT, "discard QH", "lesson.tonk.bot_again", "T5", {"who": BOT}),
        Step(PERSON, "drop", "lesson.tonk.drop", "T6", {"total": 5}),
    ),
    end_hint="lesson.tonk.end",
    end_rule="T6",
    end_params=_tonk_end,
)


# --- Three Towers: build, answer a trade, add, repel a raid, finish, the count (R4–R13) ----------

_TOWERS_HANDS = [
    ["AD", "10D", "10C", "10H", "9H", "KH", "4S"],
    ["8H", "QC", "2C", "6D", "7S", "JD", "3C"],
]
_TOWERS_POOL = [text for text in TOWERS_TEXT[:52] for _ in range(2)] + ["X"] * 4
_TOWERS_DEAL = [c for pair in zip(*_TOWERS_HANDS, strict=True) for c in pair]
_TOWERS_DECK = _rest([*_TOWERS_DEAL, "5C", "3D", "2H", "4C", "6C", "7D", "8C", "5D"], _TOWERS_POOL)


def _towers_end(result: dict[str, Any]) -> dict[str, str | int]:
    scores = result["scores"]
    return {"who": BOT, "mine": scores[PERSON], "theirs": scores[BOT]}


THREE_TOWERS = Lesson(
    name="three-towers",
    game="three-towers",
    options={"max_rounds": 1},
    bot_name="Zarr",
    bot_level="medium",
    dealer=BOT,
    cards={"deck": _TOWERS_DECK},
    steps=(
        Step(PERSON, "build AD 10D", "lesson.towers.build", "R8", {"cards": "AD 10D"}),
        Step(BOT, "trade 8H", "lesson.towers.bot_turn", "R4", {"who": BOT}),
        Step(
            PERSON,
            "answer 9H",
            "lesson.towers.answer",
            "R7",
            {"who": BOT, "card": "8H", "cards": "9H", "keep": "10H"},
        ),
        Step(PERSON, "add 10C", "lesson.towers.add", "R12", {"cards": "10C", "won": "8H 9H"}),
        Step(BOT, "raid 0 QC", "lesson.towers.bot_again", "R9", {"who": BOT}),
        Step(
            PERSON,
            "defend KH",
            "lesson.towers.defend",
            "R9",
            {"who": BOT, "card": "QC", "cards": "KH"},
        ),
        Step(PERSON, "add 10H", "lesson.towers.finish", "R8", {"cards": "10H"}),
    ),
    end_hint="lesson.towers.end",
    end_rule="R13",
    end_params=_towers_end,
)

LESSONS: dict[str, Lesson] = {lesson.name: lesson for lesson in (TONK, THREE_TOWERS)}
# Each game's lesson, by the game's family (Tőr and Pagat Tonk learn from Tonk's).
FAMILY_LESSON = {"tonk": "tonk", "three-towers": "three-towers"}


def lesson_named(name: str | None) -> Lesson | None:
    """The lesson of a table's settings (None: a real table)."""
    return None if name is None else LESSONS[name]


def lesson_of_family(family: str) -> str | None:
    """The lesson a game of ``family`` teaches with, if any."""
    return FAMILY_LESSON.get(family)


def hint_keys() -> set[str]:
    """Every key a lesson's frames name (the i18n tables must have them)."""
    return {key for lesson in LESSONS.values() for key in lesson.hint_keys()}
