"""How a Tonk table looks in the terminal: Rich markup built only from one seat's view (the
moves and the deal's end are told by ``narrate`` from the events)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape

from taverntable.cards import CARDS, Card, display_order
from taverntable.games.tonk import TonkView
from taverntable.play.words import count


def card(c: Card) -> str:
    """One card with its suit symbol; hearts and diamonds in red."""
    return f"[red]{c.symbol}[/red]" if c.suit in (1, 2) else c.symbol


def cards(mask: int) -> str:
    """Cards sorted by rank, then suit (T1), as markup."""
    return " ".join(card(c) for c in display_order(mask))


def name(players: Sequence[str], seat: int) -> str:
    """A player's name, safe as markup."""
    return f"[bold]{escape(players[seat])}[/bold]"


def table(view: TonkView, players: Sequence[str], levels: Sequence[str] | None = None) -> list[str]:
    """The table as seen from ``view.seat``: pile, stock, spreads, others (with their bot
    levels, when given per seat), own hand."""
    me = view.seat
    top = f"{card(CARDS[view.pile[-1].bit_length() - 1])} on top" if view.pile else "empty"
    lines = [
        f"Pile: {top} ({count(len(view.pile), 'card')})   Stock: {count(view.stock_size, 'card')}"
    ]
    if view.spreads:
        shown = []
        for number, (owner, mask) in enumerate(view.spreads):
            whose = "yours" if owner == me else f"{escape(players[owner])}'s"
            shown.append(f"[cyan]{number}[/cyan] {whose}: {cards(mask)}")
        lines.append("Spreads: " + " · ".join(shown))
    else:
        lines.append("Spreads: none")
    others = []
    for seat in range(view.num_players):
        if seat == me:
            continue
        level = f" ({escape(levels[seat])})" if levels and levels[seat] else ""
        text = f"{name(players, seat)}{level} {count(view.hand_sizes[seat], 'card')}"
        if view.known[seat]:
            text += f" (holds {cards(view.known[seat])} from the pile)"
        others.append(text)
    lines.append("Others: " + " · ".join(others))
    lines.append(f"Your hand: {cards(view.hand)}  (total {view.total()})")
    return lines


def subject(players: Sequence[str], seat: int, me: int, verb: str) -> str:
    """``You draw`` for the user's own seat, ``Goblin draws`` for the others."""
    if seat == me:
        return f"[bold]You[/bold] {verb}"
    consonant_y = verb.endswith("y") and verb[-2] not in "aeiou"
    third = verb[:-1] + "ies" if consonant_y else verb + ("es" if verb[-1] == "h" else "s")
    return f"{name(players, seat)} {third}"


def units(amount: float) -> str:
    """A balance in units, signed: ``+2``, ``-1``, ``+0`` (T2: payments are whole units)."""
    return f"{round(amount):+d}" if amount == round(amount) else f"{amount:+}"


def balances(
    players: Sequence[str], totals: Sequence[float], deals: int, during: str | None = None
) -> str:
    """The running balances of a match (T2); ``during`` says where the match is now."""
    shown = " · ".join(f"{name(players, s)} {units(b)}" for s, b in enumerate(totals))
    where = f" ({during})" if during else ""
    return f"Balances after {count(deals, 'deal')}{where}: {shown}"


def standings(players: Sequence[str], totals: Sequence[float], deals: int) -> str:
    """The final standings: best balance first, equal balances sharing a place."""
    order = sorted(range(len(totals)), key=lambda s: -totals[s])
    shown = " · ".join(
        f"{1 + sum(1 for b in totals if b > totals[s])}. {name(players, s)} {units(totals[s])}"
        for s in order
    )
    return f"[bold]Final standings[/bold] after {count(deals, 'deal')}: {shown}"
