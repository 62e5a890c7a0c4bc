"""What a Tonk move did, as engine events (kinds listed in ``docs/contract.md``).

Every move gives a ``move`` event (the seat and the notation), then the cards it moved, then, if
the deal ended, every hand shown and the result. ``apply`` builds them after the move from the
move, the card drawn (``state.drawn``) and the result: a Tonk move says itself what it moved,
so nothing is diffed. The events of the
commonest moves (a discard, a stock draw, a pile draw) depend only on the seat and the card and
are built once and shared, which keeps ``apply`` as fast as it was without events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from taverntable.cards import CARDS, display_order
from taverntable.engine import Event

from .moves import Discard, Draw, Drop, End, Hit, Spread, TonkMove

if TYPE_CHECKING:
    from .state import TonkState

_SHARED: dict[tuple[str, int, int], tuple[Event, ...]] = {}


def _shared(kind: str, seat: int, card: int) -> tuple[Event, ...]:
    """The events of a discard, stock draw or pile draw of ``card`` by ``seat``."""
    key = (kind, seat, card)
    events = _SHARED.get(key)
    if events is None:
        text = (CARDS[card].text,)
        hand = f"hand:{seat}"
        if kind == "discard":
            move = Event("move", seat, move=f"discard {text[0]}")
            event = Event("discard", seat, text, hand, "pile")
        elif kind == "draw":
            move = Event("move", seat, move="draw stock")
            event = Event("draw", seat, text, "stock", hand, 1 << seat)
        else:
            move = Event("move", seat, move="draw pile")
            event = Event("take", seat, text, "pile", hand)
        events = _SHARED[key] = (move, event)
    return events


def _texts(mask: int) -> tuple[str, ...]:
    return tuple(c.text for c in display_order(mask))


def move_events(state: TonkState, seat: int, move: TonkMove) -> tuple[Event, ...]:
    """The events of ``move``, just applied by ``seat``."""
    hand = f"hand:{seat}"
    match move:
        case Discard(card=card):
            events = _shared("discard", seat, card.index)
        case Draw(source="stock") if state.drawn[-1] < 0:
            # T11 (pagat): the stock was empty, the player declined the pile; the deal ends.
            events = (Event("move", seat, move=str(move)),)
        case Draw(source="stock"):
            events = _shared("draw", seat, state.drawn[-1])
        case Draw():
            events = _shared("take", seat, state.pile_card)
        case Spread(cards=cards):
            number = len(state.spread_mask) - 1
            events = (
                Event("move", seat, move=str(move)),
                Event("spread", seat, _texts(cards), hand, f"spread:{number}"),
            )
        case Hit(spread=number, cards=cards):
            events = (
                Event("move", seat, move=str(move)),
                Event("hit", seat, _texts(cards), hand, f"spread:{number}"),
            )
        case Drop() | End():
            events = (Event("move", seat, move=str(move)),)
    if state.result is not None:
        events += end_events(state)
    return events


def end_events(state: TonkState) -> tuple[Event, ...]:
    """T6, T10, T11: every hand is shown and the deal's result (payments) is booked."""
    assert state.result is not None
    shown = tuple(
        Event("show", s, _texts(state.hands[s]), f"hand:{s}", data={"total": state.total(s)})
        for s in range(state.num_players)
    )
    return (*shown, Event("deal_end", data=state.result.to_json()))


def opening_events(state: TonkState) -> tuple[Event, ...]:
    """T3: each seat's five cards (seen by that seat), the upcard; T4: a win on the deal."""
    if not state.initial_hands:  # a sampled world has no deal to tell
        return ()
    first = (state.dealer + 1) % state.num_players
    events = tuple(
        Event(
            "deal",
            s,
            tuple(CARDS[c].text for c in state.initial_hands[s]),
            "stock",
            f"hand:{s}",
            1 << s,
        )
        for s in [(first + k) % state.num_players for k in range(state.num_players)]
    )
    events += (Event("upcard", None, (CARDS[state.upcard].text,), "stock", "pile"),)
    if state.result is not None and not state.history:
        events += end_events(state)
    return events
