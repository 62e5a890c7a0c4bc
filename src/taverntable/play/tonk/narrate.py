"""Tonk moves and deal ends as sentences, told from the events one seat receives.

The events are filtered for the seat first (``Event.for_seat``), so another player's stock draw
stays ``?`` and only the seat's own drawn card is named. What a move did comes from its events:
the card drawn (``draw``) or taken (``take``), the spread's number (``spread:N``), the totals
shown at the end (``show``) and the payments (``deal_end``). ``before``, the seat's view just
before the move, is read only for whose spread a ``hit`` hits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.markup import escape

from taverntable.cards import Card
from taverntable.engine import Event
from taverntable.games.tonk import TonkView

from .render import card, name, subject


def cards_of(texts: Sequence[str]) -> str:
    """Cards named in an event (T1 texts, in the event's order), as markup."""
    return " ".join(card(Card.parse(text)) for text in texts)


def _first(events: Sequence[Event], kind: str) -> Event | None:
    return next((e for e in events if e.kind == kind), None)


def _number(zone: str) -> int:
    """``spread:3`` -> 3."""
    return int(zone.rpartition(":")[2])


def upcard_line(events: Sequence[Event], players: Sequence[str], first: int, me: int = 0) -> str:
    """T3: the upcard (from the deal's ``upcard`` event) and who plays first."""
    upcard = _first(events, "upcard")
    assert upcard is not None
    who = "you play" if first == me else f"{name(players, first)} plays"
    return f"Upcard: {cards_of(upcard.cards)} · {who} first."


def narrate(events: Sequence[Event], before: TonkView, players: Sequence[str]) -> str:
    """One move as a sentence, as ``before.seat`` saw it (its own stock draws named)."""
    me = before.seat
    seen = [e.for_seat(me) for e in events]
    seat, text = seen[0].seat, seen[0].move
    assert seat is not None

    def who(verb: str) -> str:
        return subject(players, seat, me, verb)

    word = text.partition(" ")[0]
    if word == "drop":
        shown = [e for e in seen if e.kind == "show" and e.seat == seat]
        total = f" with {(shown[0].data or {})['total']}" if shown else ""
        return who("drop") + f"{total}."
    if text == "draw stock":
        drawn = _first(seen, "draw")
        if drawn is None:
            # T11 (pagat): the stock was empty and the player declined the pile's top card.
            return who("decline") + " the pile's top card with the stock empty: the deal ends."
        if "?" in drawn.cards:
            return who("draw") + " from the stock."
        return who("draw") + f" {cards_of(drawn.cards)} from the stock."
    if word in ("draw", "spread", "hit", "discard"):
        return laid(word, seen, before, players)
    return who("end") + " the turn without discarding."


def laid(word: str, seen: Sequence[Event], before: TonkView, players: Sequence[str]) -> str:
    """A pile draw, a spread, a hit or a discard: the cards of the move's one card event."""
    me, mover = before.seat, seen[0]
    assert mover.seat is not None
    seat = mover.seat
    kind = {"draw": "take"}.get(word, word)
    event = _first(seen, kind)
    assert event is not None
    shown = cards_of(event.cards)
    who = subject(players, seat, me, kind)
    if kind == "take":
        return f"{who} {shown} from the pile."
    if kind == "spread":
        return f"{who} {shown} (spread {_number(event.dest)})."
    if kind == "discard":
        return f"{who} {shown}."
    number = _number(event.dest)
    owner = before.spreads[number][0]
    if owner == seat:
        whose = "your own" if seat == me else "their own"
    else:
        whose = "yours" if owner == me else f"{escape(players[owner])}'s"
    return f"{who} spread {number} ({whose}) with {shown}."


ENDINGS = {
    "tonk": "{w} {has} Tonk on the deal (T4)",
    "tor": "{w} {has} Tőr, only court cards, on the deal (T4)",
    "low": "{w} {has} 15 or less on the deal (T4)",
    "void": "two or more players won on the deal: the deal is void and the same dealer "
    "deals again (T4)",
    "drop": "{d} dropped with {total}; every other total is higher: the drop succeeds (T6)",
    "burned": "{d} dropped with {total} and {was} caught (T6)",
    "out": "{w} went out (T10)",
    "stock": "the stock ran out; the lowest total wins (T11)",
}


def deal_ended(events: Sequence[Event]) -> bool:
    """Whether ``events`` end the deal (T4, T6, T10, T11)."""
    return any(e.kind == "deal_end" for e in events)


def settlement(events: Sequence[Event], players: Sequence[str], me: int = 0) -> list[str]:
    """How the deal ended, every hand shown with its total (``show``), and every payment
    (``deal_end``), from the events of the move (or the deal) that ended it."""
    seen = [e.for_seat(me) for e in events]
    end = _first(seen, "deal_end")
    assert end is not None and end.data is not None
    result: Mapping[str, Any] = end.data

    def called(seat: int) -> str:
        return "you" if seat == me else escape(players[seat])

    mover = seen[0] if seen[0].kind == "move" else None
    dropper = mover.seat if mover is not None and mover.move == "drop" else None
    winners = [called(s) for s in result["winners"]]
    totals = result["totals"]
    text = ENDINGS[result["end"]].format(
        w=" and ".join(winners) or "nobody",
        has="has" if len(winners) == 1 and winners[0] != "you" else "have",
        d=called(dropper) if dropper is not None else "",
        was="were" if dropper == me else "was",
        total=totals[dropper] if dropper is not None else "",
    )
    lines = [f"[bold yellow]Deal over:[/bold yellow] {text[0].upper()}{text[1:]}."]
    for shown in (e for e in seen if e.kind == "show"):
        assert shown.seat is not None
        lines.append(
            f"  {name(players, shown.seat)}: {cards_of(shown.cards) or '(no cards)'}"
            f"  (total {totals[shown.seat]})"
        )
    if result["payments"]:
        lines.append(
            "Payments: "
            + " · ".join(
                f"{subject(players, a, me, 'pay')} {called(b)} {amount}"
                for a, b, amount in result["payments"]
            )
        )
    else:
        lines.append("Payments: none")
    return lines
