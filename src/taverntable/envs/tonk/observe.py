"""The observation of a Tonk-family seat (``tonk``, ``tor``, ``pagat``): a fixed-size vector
built from the seat's view JSON (``view.to_json()``) and nothing else.

Seats are *relative* to the observer (row 0 is the observer, row 1 the next seat in turn order,
...), so that one policy plays every seat: Tonk's action ids never name a seat. Spread rows are
by spread number, as the ``hit N …`` action ids are (T8). Counts are scaled to about [0, 1].
"""

from __future__ import annotations

from typing import Any

from taverntable.cards import CARDS
from taverntable.games.tonk.actions import MAX_SPREADS
from taverntable.games.tonk.rules import MAX_PLAYERS, PRESETS

from ..layout import Layout, Vector

SEATS = MAX_PLAYERS
PHASES = ("deal", "start", "play", "over")  # "deal": an OpenSpiel state before its deal is done
PRESET_NAMES = tuple(PRESETS)
_INDEX = {card.text: card.index for card in CARDS}

LAYOUT = Layout(
    [
        ("hand", 1, 52, "the observer's cards"),
        ("pile", 1, 52, "cards in the pile"),
        ("pile_top", 1, 52, "the pile's top card (one-hot)"),
        ("pile_card", 1, 52, "the card the seat on turn took from the pile this turn (T9)"),
        ("spreads", MAX_SPREADS, 52, "cards of spread 0, 1, … (T8)"),
        ("spread_owner", MAX_SPREADS, SEATS, "relative owner of each spread (one-hot)"),
        ("known", SEATS, 52, "per relative seat: cards it took from the pile and still holds"),
        ("hand_sizes", 1, SEATS, "per relative seat: cards in hand / 10"),
        ("seats", 1, SEATS, "1 for each relative seat at the table"),
        ("to_play", 1, SEATS, "relative seat on turn (one-hot; none when over)"),
        ("dealer", 1, SEATS, "relative dealer (one-hot)"),
        ("hit_locked", 1, SEATS, "per relative seat: T6 hit lock"),
        ("stock_size", 1, 1, "cards in the stock / 52"),
        ("phase", 1, len(PHASES), "deal, start, play, over (one-hot)"),
        ("flags", 1, 2, "spread this turn (T9), last stock card drawn (T11)"),
        ("preset", 1, len(PRESET_NAMES), "tonk, tor, pagat (one-hot)"),
    ]
)


def encode(view: dict[str, Any] | None) -> Vector:
    """The vector of a view's JSON; None: before the deal (an OpenSpiel chance state)."""
    out = LAYOUT.zeros()
    if view is None:
        out[LAYOUT.at("phase", 0, PHASES.index("deal"))] = 1.0
        return out
    n: int = view["num_players"]
    me: int = view["seat"] if view["seat"] is not None else 0

    def rel(seat: int) -> int:
        return (seat - me) % n

    def cards(name: str, texts: list[str], row: int = 0) -> None:
        base = LAYOUT.at(name, row)
        for text in texts:
            out[base + _INDEX[text]] = 1.0

    def one(name: str, column: int, row: int = 0, value: float = 1.0) -> None:
        out[LAYOUT.at(name, row, column)] = value

    cards("hand", view["hand"])
    cards("pile", view["pile"])
    if view["pile"]:
        cards("pile_top", view["pile"][-1:])
    if view["pile_card"] is not None:
        cards("pile_card", [view["pile_card"]])
    for spread in view["spreads"]:
        cards("spreads", spread["cards"], spread["number"])
        one("spread_owner", rel(spread["owner"]), spread["number"])
    for seat in range(n):
        r = rel(seat)
        cards("known", view["known"][seat], r)
        one("hand_sizes", r, value=view["hand_sizes"][seat] / 10)
        one("seats", r)
        if view["hit_locked"][seat]:
            one("hit_locked", r)
    if view["current_seat"] is not None:
        one("to_play", rel(view["current_seat"]))
    one("dealer", rel(view["dealer"]))
    one("stock_size", 0, value=view["stock_size"] / 52)
    one("phase", PHASES.index(view["phase"]))
    if view["spread_this_turn"]:
        one("flags", 0)
    if view["last_draw_taken"]:
        one("flags", 1)
    one("preset", PRESET_NAMES.index(view["rules"]["preset"]))
    return out
