"""A readable account of a replayed Tonk deal, for ``tavern replay``."""

from __future__ import annotations

from collections.abc import Sequence

from taverntable.cards import CARDS

from .moves import Discard, Draw
from .scoring import Result
from .state import TonkState

ENDS = {
    "tonk": "a Tonk on the deal (T4)",
    "tor": "a Tőr on the deal (T4)",
    "low": "a low hand on the deal (T4)",
    "void": "a void deal: two or more winning hands on the deal, nobody pays (T4)",
    "drop": "a drop that succeeded (T6)",
    "burned": "a drop that was caught (T6)",
    "out": "a player went out (T10)",
    "stock": "the stock ran out (T11)",
}


def describe(players: Sequence[str], state: TonkState) -> str:
    """The players, rules, cards, every move, and how the deal ended with every payment."""
    n = state.num_players
    rules = state.rules
    diffs = ", ".join(f"{k} {_value(v)}" for k, v in rules.differences().items())
    lines = [
        f"{rules.preset}{f' ({diffs})' if diffs else ''}, stake {state.stake}",
        "players: "
        + ", ".join(f"{s} {players[s]}" for s in range(n))
        + f"; {_does(players[state.dealer], 'deal')}, "
        f"{_does(players[(state.dealer + 1) % n], 'play')} first",
        "hands:",
    ]
    width = max(len(p) for p in players)
    values = rules.card_values
    for seat, hand in enumerate(state.initial_hands):
        total = sum(values[c % 13 + 1] for c in hand)
        lines.append(f"  {players[seat]:<{width}}  {_cards(hand)} ({total})")
    lines.append(f"upcard {CARDS[state.upcard]}; stock {len(state.initial_stock)} cards")
    lines += _moves(players, state)
    lines += _ending(players, state)
    return "\n".join(lines)


def _moves(players: Sequence[str], state: TonkState) -> list[str]:
    """One line per move; draws say which card was taken."""
    if not state.history:
        return []
    lines = ["moves:"]
    pile = [state.upcard]  # replayed here because the state keeps only the final pile
    for number, ((seat, move), drawn) in enumerate(zip(state.history, state.drawn, strict=True), 1):
        text = str(move)
        match move:
            case Draw(source="stock") if drawn < 0:
                text += " (declines the pile: the deal ends, T11)"  # the stock was empty
            case Draw(source="stock"):
                text += f" ({CARDS[drawn]})"
            case Draw():
                text += f" ({CARDS[pile.pop()]})"
            case Discard(card=card):
                pile.append(card.index)
            case _:
                pass
        lines.append(f"  {number:>3}. {players[seat]}: {text}")
    return lines


def _ending(players: Sequence[str], state: TonkState) -> list[str]:
    """How the deal ended, or whose turn it is while it goes on."""
    result = state.result
    if result is None:
        seat = state.current_seat_
        return [f"in progress: {players[seat]} to move"]
    lines = [f"end: {ENDS[result.end]}"]
    if result.end in ("drop", "burned"):
        dropper = state.history[-1][0]
        lines[0] += f"; {players[dropper]} dropped with {result.totals[dropper]}"
    if result.winners:
        lines.append("winners: " + ", ".join(players[s] for s in result.winners))
    lines.append("totals: " + _per_seat(players, result.totals))
    lines.append("payments: " + _payments(players, result))
    lines.append("net: " + _per_seat(players, result.net, signed=True))
    return lines


def _payments(players: Sequence[str], result: Result) -> str:
    if not result.payments:
        return "none"
    return ", ".join(
        f"{_does(players[a], 'pay')} {players[b]} {amount}" for a, b, amount in result.payments
    )


def _does(name: str, verb: str) -> str:
    """``Elmo pays``; ``You pay`` for a player called You (``tavern play``'s default name)."""
    return f"{name} {verb}" if name == "You" else f"{name} {verb}s"


def _per_seat(players: Sequence[str], numbers: Sequence[int], *, signed: bool = False) -> str:
    return ", ".join(
        f"{players[s]} {v:+d}" if signed else f"{players[s]} {v}" for s, v in enumerate(numbers)
    )


def _cards(cards: Sequence[int]) -> str:
    return " ".join(CARDS[c].text for c in cards)


def _value(v: object) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)
