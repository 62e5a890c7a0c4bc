"""A guided first deal's parts (``tutorial.py``): a lesson is a deal written as a record's header
(its stacked ``cards``) and its moves, each with the hint the person reads before it. Each game's
lesson is in its own module (``tonk_lesson.py``, ``towers_lesson.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from taverntable.engine import GameState
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


def stacked(first: list[str], pool: list[str]) -> list[str]:
    """``first``, then the cards of ``pool`` it does not use (each copy once), in ``pool``'s
    order: a stacked deck whose top is the lesson's and whose rest is fixed."""
    left = list(pool)
    for card in first:
        left.remove(card)
    return first + left
