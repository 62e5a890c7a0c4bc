"""How a Tonk table looks in the terminal: Rich markup built only from one seat's view."""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape

from taverntable.cards import CARDS, Card, display_order
from taverntable.games.tonk import (
    Discard,
    Draw,
    Drop,
    End,
    Hit,
    Result,
    Spread,
    TonkMove,
    TonkView,
)

from .words import count


def card(c: Card) -> str:
    """One card with its suit symbol; hearts and diamonds in red."""
    return f"[red]{c.symbol}[/red]" if c.suit in (1, 2) else c.symbol


def cards(mask: int) -> str:
    """Cards sorted by rank, then suit (T1), as markup."""
    return " ".join(card(c) for c in display_order(mask))


def name(players: Sequence[str], seat: int) -> str:
    """A player's name, safe as markup."""
    return f"[bold]{escape(players[seat])}[/bold]"


def table(
    view: TonkView, players: Sequence[str], levels: Sequence[str] | None = None
) -> list[str]:
    """The table as seen from ``view.seat``: pile, stock, spreads, others (with their bot
    levels, when given per seat), own hand."""
    me = view.seat
    top = f"{card(CARDS[view.pile[-1].bit_length() - 1])} on top" if view.pile else "empty"
    lines = [f"Pile: {top} ({count(len(view.pile), 'card')})   "
             f"Stock: {count(view.stock_size, 'card')}"]
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


def narrate(
    move: TonkMove, seat: int, players: Sequence[str], after: TonkView, me: int = 0
) -> str:
    """One move as a sentence; ``after`` is ``me``'s view just after it (own draws shown)."""

    def who(verb: str) -> str:
        return subject(players, seat, me, verb)

    match move:
        case Drop():
            totals = after.result.totals if after.result else ()
            return who("drop") + (f" with {totals[seat]}." if totals else ".")
        case Draw(source="stock") if after.result is not None:
            # Only a decline ends the deal at once (T11, pagat); a last stock card ends it later.
            return who("decline") + " the pile's top card with the stock empty: the deal ends."
        case Draw(source="stock"):
            if seat == me and after.own_draws and after.own_draws[-1][0] == len(after.history) - 1:
                return who("draw") + f" {card(CARDS[after.own_draws[-1][1]])} from the stock."
            return who("draw") + " from the stock."
        case Draw():
            return who("take") + f" {card(CARDS[after.pile_card])} from the pile."
        case Spread(cards=mask):
            return who("spread") + f" {cards(mask)} (spread {len(after.spreads) - 1})."
        case Hit(spread=number, cards=mask):
            owner = after.spreads[number][0]
            if owner == seat:
                whose = "your own" if seat == me else "their own"
            else:
                whose = "yours" if owner == me else f"{escape(players[owner])}'s"
            return who("hit") + f" spread {number} ({whose}) with {cards(mask)}."
        case Discard(card=c):
            return who("discard") + f" {card(c)}."
        case End():
            return who("end") + " the turn without discarding."


ENDINGS = {
    "tonk": "{w} {has} Tonk on the deal (T4)",
    "tor": "{w} {has} Tőr, only court cards, on the deal (T4)",
    "low": "{w} {has} 15 or less on the deal (T4)",
    "void": "two or more players won on the deal: the deal is void and the same dealer "
    "deals again (T4)",
    "drop": "{d} dropped with {total}; every other total is higher: the drop succeeds (T6)",
    "burned": "{d} dropped with {total} and {was} caught: the drop is burned (T6)",
    "out": "{w} went out (T10)",
    "stock": "the stock ran out; the lowest total wins (T11)",
}


def settlement(
    result: Result, hands: Sequence[int], history: Sequence[tuple[int, TonkMove]],
    players: Sequence[str], me: int = 0,
) -> list[str]:
    """How the deal ended, every hand shown with its total, and every payment."""
    def called(seat: int) -> str:
        return "you" if seat == me else escape(players[seat])

    winners = [called(s) for s in result.winners]
    dropper = history[-1][0] if history and isinstance(history[-1][1], Drop) else None
    text = ENDINGS[result.end].format(
        w=" and ".join(winners) or "nobody",
        has="has" if len(winners) == 1 and winners[0] != "you" else "have",
        d=called(dropper) if dropper is not None else "",
        was="were" if dropper == me else "was",
        total=result.totals[dropper] if dropper is not None else "",
    )
    lines = [f"[bold yellow]Deal over:[/bold yellow] {text[0].upper()}{text[1:]}."]
    for seat, hand in enumerate(hands):
        lines.append(f"  {name(players, seat)}: {cards(hand) or '(no cards)'}"
                     f"  (total {result.totals[seat]})")
    if result.payments:
        lines.append("Payments: " + " · ".join(
            f"{subject(players, a, me, 'pay')} {called(b)} {amount}"
            for a, b, amount in result.payments
        ))
    else:
        lines.append("Payments: none")
    return lines


def balances(
    players: Sequence[str], totals: Sequence[int], deals: int, during: str | None = None
) -> str:
    """The running balances of a match (T2); ``during`` says where the match is now."""
    shown = " · ".join(f"{name(players, s)} {b:+d}" for s, b in enumerate(totals))
    where = f" ({during})" if during else ""
    return f"Balances after {count(deals, 'deal')}{where}: {shown}"


def standings(players: Sequence[str], totals: Sequence[int], deals: int) -> str:
    """The final standings: best balance first, equal balances sharing a place."""
    order = sorted(range(len(totals)), key=lambda s: -totals[s])
    shown = " · ".join(
        f"{1 + sum(1 for b in totals if b > totals[s])}. {name(players, s)} {totals[s]:+d}"
        for s in order)
    return f"[bold]Final standings[/bold] after {count(deals, 'deal')}: {shown}"
