"""What a Three Towers move did, as engine events (kinds listed in ``docs/contract.md``).

Every move gives a ``move`` event (the seat and the notation as every seat may read it), then
the cards it moved, zone to zone, in the order they moved, then what it ended (``round_end``,
``win_bonus``, ``game_end``). The transitions build them where the cards move and return them
(``transitions.play``); each takes ``noting``, False on the unchecked path (search playouts,
random play), where they build nothing and return ``NO_EVENTS``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from taverntable.engine import EVERYONE, Event

from .cards import TEXT
from .moves import TowersMove, redact

Events = tuple[Event, ...]
NO_EVENTS: Events = ()


def move_event(seat: int, move: TowersMove, seen: int, everyone: int) -> Event:
    """The ``move`` event: the notation, with the cards hidden (R16) unless every seat
    (``everyone``, the mask of all seats) sees the whole move (``seen``)."""
    public = str(move) if seen == everyone else redact(move).text
    return Event("move", seat, move=public)


def moved(
    kind: str, seat: int, cards: Sequence[int], source: str, dest: str, seen: int = EVERYONE
) -> Event:
    """``cards`` moving from zone ``source`` to ``dest``, seen by the seats in ``seen``."""
    return Event(kind, seat, tuple(TEXT[c] for c in cards), source, dest, seen)


def told(kind: str, seat: int | None, data: Mapping[str, Any]) -> Event:
    """An event without cards: public details (``round_end``, ``win_bonus``, ``game_end``)."""
    return Event(kind, seat, data=data)
