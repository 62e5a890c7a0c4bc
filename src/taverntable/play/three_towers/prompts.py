"""What the user is deciding at a Three Towers table, step by step: a turn, an answer to a trade,
a defence, the Witch's recipient, a redeal's cards, a tower bonus (R4–R13), with the rule and the
numbered options, and the prompt for each."""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape

from taverntable.cards import RANKS, SUIT_SYMBOLS
from taverntable.games.three_towers import TowersView
from taverntable.games.three_towers.cards import rank

from .render import card, cards, name, value_text

# The prompt of each decision (``TowersView.phase``).
PROMPTS = {
    "turn": "Your move> ",
    "answer": "Answer the trade> ",
    "defend": "Defend or yield> ",
    "name": "Name who takes the Witch's trade> ",
    "queens": "Store a card or done> ",
    "kings": "Give a card> ",
    "club": "Take a card or done> ",
    "dark": "Give a card or done> ",
}


def seats_line(view: TowersView, players: Sequence[str]) -> str:
    """Seat numbers, for moves that name a seat (raid, curse, name, give, take)."""
    return "Seats: " + " · ".join(
        f"{s} {'You' if s == view.seat else escape(players[s])}" for s in range(view.num_players)
    )


def decision(view: TowersView, players: Sequence[str]) -> list[str]:
    """What the user is deciding now, in words, with the rule (out of turn included)."""
    me = view.seat
    match view.phase:
        case "turn":
            return [
                "[bold]Your turn:[/bold] trade, build, add, raid, curse, redeal (or pass "
                "when nothing else is legal)."
            ]
        case "answer":
            return answer_decision(view, players)
        case "defend":
            a = view.attack
            assert a is not None
            who = name(players, a.attacker)
            if a.is_raid:
                from taverntable.bots.three_towers.tactics import tower_take

                taken = tower_take(view.towers[me])
                need = (
                    "any warrior"
                    if view.rules.defence == "any"
                    else f"a warrior of rank {RANKS[rank(a.card) - 1]} or higher"
                )
                return [
                    f"[bold]{who} raids your tower with {card(a.card)}.[/bold] "
                    f"'defend CARD' with {need} or a joker, or 'yield' (R9). "
                    f"If it goes through they take {cards(taken)} {value_text(taken)}."
                ]
            what = {
                10: "the Thief (up to 4 cards of your store)",
                11: "the Witch (a spade trade they hand out)",
                12: "the Warlock (−40 into your store)",
            }[a.card]
            return [
                f"[bold]{who} curses you with {what}.[/bold] 'defend CARD' with a warrior "
                "or a joker, or 'yield' (R9)."
            ]
        case "name":
            return [
                "[bold]Your Witch went through:[/bold] 'name SEAT' gives its trade and the "
                "Witch to that player (R9).",
                seats_line(view, players),
            ]
        case "queens":
            return [
                "[bold]4 queens:[/bold] 'store CARD' puts a card of your hand into your "
                "store; 'done' shuffles the rest into the deck (R10)."
            ]
        case "kings":
            return [
                "[bold]4 kings:[/bold] 'give CARD SEAT' for every card of your hand "
                "(your own seat included, R10).",
                seats_line(view, players),
            ]
        case "club":
            lines = [
                "[bold]♣ tower bonus:[/bold] 'take SEAT CARD' takes a card from an "
                "opponent's store (up to 4), 'done' stops (R13)."
            ]
            for s in range(view.num_players):
                if s != me and view.known_stores[s]:
                    theirs = cards(view.known_stores[s])
                    lines.append(f"  {s} {escape(players[s])}'s store: {theirs}")
            return lines
        case "dark":
            store = view.store if view.store is not None else view.known_stores[me]
            return [
                "[bold]Dark tower bonus:[/bold] 'give CARD SEAT' passes a card of your store "
                "to another player (up to 4), 'done' stops (R13).",
                f"  Your store: {cards(store)}",
                seats_line(view, players),
            ]
    return []


def answer_decision(view: TowersView, players: Sequence[str]) -> list[str]:
    """R5, R6, R9: the trade being answered, what has been laid, and the answers allowed."""
    trade = view.trade
    assert trade is not None
    laid = " · ".join(f"{escape(players[s])} {cards(cs)}" for s, cs in trade.laid) or "nothing yet"
    if trade.witch:
        head = (
            "[bold]The Witch's trade in ♠:[/bold] answer with a penalty card (2–10♠), "
            "'answer X' (a joker) or two non-spade cards; the Witch's owner names who "
            "takes it all (R9)."
        )
    else:
        led = SUIT_SYMBOLS[trade.suit]
        kind = "penalty" if trade.suit == 0 else "goods"
        best = max(trade.bids, key=lambda b: b[0])
        bid = (
            "a taking joker"
            if best[0] >= 100
            else "a giving joker"
            if best[0] < 0
            else f"{RANKS[best[0] - 1]}{led}"
        )
        head = (
            f"[bold]{escape(players[trade.leader])} leads a trade in {led}:[/bold] answer "
            f"with a {led} {kind} card, a joker ('answer X take' or 'answer X give') or "
            f"two non-spade cards (R5). Highest bid: {bid} by "
            f"{'you' if best[1] == view.seat else escape(players[best[1]])}."
        )
    lines = [head, f"  Laid: {laid}"]
    if len(view.legal_moves) == 1 and str(view.legal_moves[0]) == "fail":
        lines.append(
            "  You cannot answer: 'fail' lays your one non-spade card (if any), shows "
            "your hand into your store and draws 7 (R6)."
        )
    return lines


def options_line(view: TowersView, limit: int = 24) -> str:
    """The legal moves, numbered for the prompt, or how many there are when the list is long."""
    moves = view.legal_moves
    if len(moves) <= limit:
        return "Options: " + " · ".join(
            f"[cyan]{i}[/cyan] {escape(str(m))}" for i, m in enumerate(moves, 1)
        )
    return f"Options: {len(moves)} moves — type 'moves' (or ?) to list them."
