"""The coach's messages (``docs/protocol.md``, "Reviews" and the `hint` frame): a finished deal's
review, as the replay viewer asks for it, and a hint to one seat during play."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from . import Strict, is_null


class ReviewOption(Strict):
    """One move the seat could have made, and its value from the seat's view."""

    move: str = Field(description="the move, in the record notation")
    value: float = Field(description="its expected value, in the review's `unit`")
    low: float = Field(description="the 95% interval's low end")
    high: float = Field(description="the 95% interval's high end")
    words: dict[str, str] = Field(
        description="the move as the table's button says it, in each language (en, hu, ru, uk)"
    )


class ReviewNote(Strict):
    """The coach's sentence about a decision, as a template and its parameters."""

    key: str = Field(description="the template's key (`coach/texts.py`)")
    rule: str = Field(description="the rule the sentence names (`T6`, `R9`)")
    params: dict[str, Any] = Field(description="the template's parameters (numbers or texts)")


class ReviewDecision(Strict):
    """One decision of the reviewed seat with more than one legal move."""

    step: int = Field(
        description="its index in the record's `moves` (from 0): the replay's step `step + 1` "
        "shows the move made"
    )
    seat: int = Field(description="the seat that decided")
    options: list[ReviewOption] = Field(description="the moves compared, in the legal order")
    chosen: str = Field(description="the move made")
    best: str = Field(description="the move of the highest value")
    loss: float = Field(description="best minus chosen, paired on the same worlds")
    loss_low: float = Field(description="the loss's 95% interval, low end")
    loss_high: float = Field(description="the loss's 95% interval, high end")
    flagged: bool = Field(
        description="a mistake: the loss is above the game's threshold and its interval "
        "excludes zero"
    )
    note: ReviewNote = Field(description="what mattered at the decision")
    text: dict[str, str] = Field(
        description="the note's sentence in each language (en, hu, ru, uk)"
    )


class CoachReview(Strict):
    """A review of one seat of one finished deal (`coach.review_record`, docs/coach.md)."""

    game: str = Field(description="the game's registry name")
    seat: int = Field(description="the seat reviewed")
    player: str = Field(description="its player's name")
    unit: Literal["stakes", "points"] = Field(description="what the values count")
    worlds: int = Field(description="the worlds each decision was valued over")
    seed: int = Field(description="the seed of the worlds (the same review every time)")
    threshold: float = Field(description="a loss at most this large is never a mistake")
    decisions: list[ReviewDecision] = Field(description="every valued decision, in order")
    mistakes: int = Field(description="how many decisions are flagged")
    lost: float = Field(description="what the flagged decisions cost in all, in `unit`")
    cpu_seconds: float = Field(description="the CPU time the review took in its worker")


class ReviewStatus(Strict):
    """The answer to `POST` and `GET /api/replays/ID/DEAL/review?seat=S`: the review, or where
    it stands in the coach's queue."""

    status: Literal["queued", "running", "done", "failed", "none"] = Field(
        description="`queued` (waiting for a worker), `running`, `done` (with `review`), "
        "`failed` (with `error`), `none` (a `GET` for a review nobody asked for)"
    )
    seat: int = Field(description="the seat reviewed")
    ahead: int | None = Field(
        default=None,
        exclude_if=is_null,
        description="queued: the reviews before it (running or waiting)",
    )
    cached: bool | None = Field(
        default=None, exclude_if=is_null, description="done: the answer came from the cache"
    )
    review: CoachReview | None = Field(
        default=None, exclude_if=is_null, description="done: the review"
    )
    error: str | None = Field(
        default=None, exclude_if=is_null, description="failed: why, in English"
    )


class TonkHint(Strict):
    """Tonk's numbers for a decision (hints on): from the drop model and the seat's hand."""

    total: int = Field(description="the seat's hand total now")
    caught: float | None = Field(
        description="the chance that a drop now is caught (T6), from the drop model the bots "
        "use; null when a drop is not legal now"
    )
    pile: str | None = Field(description="the pile's top card (null: none, or not a draw now)")
    pile_value: float | None = Field(
        description="what taking the pile's top card lowers the hand's total by, in points, "
        "against a draw from the stock (T7): positive, the pile is worth more"
    )
    pile_spread: bool | None = Field(
        description="the pile's top card makes a spread or a hit with the hand (T8)"
    )


class TowerChance(Strict):
    """One tower under construction and the chance that it is finished this round."""

    seat: int = Field(description="its builder")
    suit: str = Field(description="its suit (`S`: a dark tower)")
    goods: int = Field(description="the goods it holds (30 finish it, R8)")
    chance: float = Field(
        description="the share of worlds (drawn from the seat's view, played out by the "
        "heuristic) in which it is finished before the round ends"
    )


class AttackCost(Strict):
    """What an attack on the seat would cost it if let through (R9)."""

    kind: str = Field(
        description="`raid` (a warrior on a tower) or `curse` (Thief, Witch, Warlock)"
    )
    card: str = Field(description="the attacking card")
    cost: float = Field(
        description="points the seat's store loses or gains against it, negative a loss "
        "(a Thief: the expected value of up to 4 cards of the store; a Witch: at least its −10)"
    )
    cards: int = Field(
        description="cards the seat loses (a raid: of its tower; a Thief: of its store)"
    )


class TowersHint(Strict):
    """Three Towers' numbers for a decision (hints on)."""

    towers: list[TowerChance] = Field(description="every tower under construction")
    attack: AttackCost | None = Field(
        description="an attack on the seat to answer now, and its cost if let through"
    )
    worlds: int = Field(description="the worlds the chances were counted over")


class HintMessage(Strict):
    """To one person's seat only, at its decisions, when the table has hints on: numbers the
    coach computes from that seat's view alone (never another seat's cards)."""

    type: Literal["hint"] = Field(default="hint", description="the frame's kind")
    deal: int = Field(description="the deal's number at the table")
    version: int = Field(description="the `version` of the update it is about")
    tonk: TonkHint | None = Field(
        default=None, exclude_if=is_null, description="Tonk, Tőr, pagat: the drop and the pile"
    )
    towers: TowersHint | None = Field(
        default=None, exclude_if=is_null, description="Three Towers: the towers and an attack"
    )
