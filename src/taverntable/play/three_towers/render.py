"""How a Three Towers table looks in the terminal: Rich markup built only from one seat's view."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.markup import escape

from taverntable.cards import RANKS, SUIT_SYMBOLS
from taverntable.games.three_towers import TowersView
from taverntable.games.three_towers.cards import (
    IS_GOODS,
    IS_PENALTY,
    IS_TOWER_ACE,
    IS_WARRIOR,
    JOKER,
    TOWER_VALUE,
    VALUE,
    card_class,
    parse_card,
    rank,
    suit,
    total,
)
from taverntable.play.words import count

# The hand's classes in the order shown (A: card classes), each with the test that picks it.
HAND_GROUPS = ("goods", "aces", "warriors", "penalty", "spade figures", "joker")


def card(code: int) -> str:
    """One card with its suit symbol, hearts and diamonds in red; the joker is ``X``."""
    if code == JOKER:
        return "[magenta]X[/magenta]"
    text = RANKS[rank(code) - 1] + SUIT_SYMBOLS[suit(code)]
    return f"[red]{text}[/red]" if suit(code) in (1, 2) else text


def cards(codes: Iterable[int]) -> str:
    """Cards separated by spaces, as markup."""
    return " ".join(card(c) for c in codes)


def plain(code: int) -> str:
    """A card without markup (for prompts)."""
    return "X" if code == JOKER else RANKS[rank(code) - 1] + SUIT_SYMBOLS[suit(code)]


def name(players: Sequence[str], seat: int) -> str:
    """A player's name, safe as markup."""
    return f"[bold]{escape(players[seat])}[/bold]"


def whose(players: Sequence[str], seat: int, me: int) -> str:
    """``your`` or ``Goblin's``."""
    return "your" if seat == me else f"{escape(players[seat])}'s"


def group_of(code: int) -> str:
    if code == JOKER:
        return "joker"
    if IS_GOODS[code]:
        return "goods"
    if IS_TOWER_ACE[code]:
        return "aces"
    if IS_WARRIOR[code]:
        return "warriors"
    if IS_PENALTY[code]:
        return "penalty"
    return "spade figures"


def hand_line(hand: Sequence[int]) -> str:
    """The own hand grouped by class (A), each group with its points (R2)."""
    parts = []
    for group in HAND_GROUPS:
        of = sorted((c for c in hand if group_of(c) == group), key=lambda c: (rank(c), suit(c)))
        if not of:
            continue
        if group == "spade figures":
            shown = " ".join(f"{card(c)} {card_class(c)}" for c in of)
        else:
            shown = cards(of)
        parts.append(f"{group} {shown} ({total(of):+d})")
    return f"Your hand: {' · '.join(parts) or '(empty)'}  (hand total {total(hand):+d})"


def tower_line(view: TowersView, players: Sequence[str], seat: int) -> str:
    """A tower from its base ace up, its goods total and how far from the goal (R8, R29)."""
    tower = view.towers[seat]
    who = "You" if seat == view.seat else escape(players[seat])
    if not tower:
        return f"  {who}: no tower"
    goods = sum(TOWER_VALUE[c] for c in tower)
    kind = "dark tower" if suit(tower[0]) == 0 else f"{SUIT_SYMBOLS[suit(tower[0])]} tower"
    to_go = max(0, view.rules.tower_goal - goods)
    return f"  {who}: {kind} {cards(tower)} — goods {goods}, {to_go} to go"


def standings(view: TowersView, players: Sequence[str]) -> str:
    """Scores and tower marks (R13, R14); in team play the pairs' sums too (R15)."""
    return scores_line(view.scores, view.marks, view.rules.teams, players)


def scores_line(
    scores: Sequence[int], marks: Sequence[int], teams: bool, players: Sequence[str]
) -> str:
    """``Scores: You 41 (0 towers) · …``, and in team play the pairs' sums (R15)."""
    parts = [
        f"{name(players, s)} {scores[s]} ({count(marks[s], 'tower')})" for s in range(len(scores))
    ]
    line = "Scores: " + " · ".join(parts)
    if teams:
        pairs = []
        for a in (0, 1):
            b = a + 2
            both = f"{escape(players[a])}+{escape(players[b])}"
            pairs.append(f"{both} {scores[a] + scores[b]} ({count(marks[a] + marks[b], 'tower')})")
        line += "   Pairs: " + " · ".join(pairs)
    return line


def round_heading(view: TowersView, players: Sequence[str], *, dealt: bool = True) -> str:
    """``Round 2 · Zarr dealt · deck 87 cards`` (``deals`` as the round starts)."""
    verb = "dealt" if dealt else "deal" if view.dealer == view.seat else "deals"
    dealer = "You" if view.dealer == view.seat else escape(players[view.dealer])
    return f"Round {view.round_no} · {dealer} {verb} · deck {count(view.deck_size, 'card')}"


def table(
    view: TowersView,
    players: Sequence[str],
    levels: Sequence[str] | None = None,
    *,
    heading: bool = True,
) -> list[str]:
    """The table as ``view.seat`` sees it (R16); ``levels`` names each bot seat's level;
    ``heading=False`` leaves out the round line (just shown as the round began)."""
    me, n = view.seat, view.num_players
    lines = [round_heading(view, players)] if heading else []
    lines += [standings(view, players), "Towers:"]
    lines += [tower_line(view, players, s) for s in range(n)]
    nobility = []
    for s in range(n):
        who = "You" if s == me else escape(players[s])
        nobility.append(f"{who} {cards(view.nobility[s]) or 'none'}")
    lines.append("Nobility: " + " · ".join(nobility))
    stores = []
    for s in range(n):
        who = "You" if s == me else escape(players[s])
        size = view.store_sizes[s]
        text = f"{who} {count(size, 'card')}"
        if s == me and view.store is not None:
            text += f" ({total(view.store):+d}{': ' + cards(view.store) if view.store else ''})"
        stores.append(text)
    lines.append("Stores: " + " · ".join(stores))
    hands = [
        f"{escape(players[s])}{f' ({escape(levels[s])})' if levels and levels[s] else ''}"
        f" {view.hand_sizes[s]}"
        for s in range(n)
        if s != me
    ]
    lines.append("Cards in hand: " + " · ".join(hands))
    lines.append(hand_line(view.hand))
    return lines


TOWER_KINDS = {
    0: "a dark tower",
    1: "a ♥ tower (round points doubled)",
    2: "a ♦ tower (+50)",
    3: "a ♣ tower",
}


def round_count(data: Mapping[str, Any], view: TowersView, players: Sequence[str]) -> list[str]:
    """R13 from a ``round_end`` event's data: each seat's store, the nobility's points (R28),
    the tower bonus and the round points; then scores and marks. ``view``: the table at the
    count, whose stores lie face up (R19), for how many cards each holds."""
    tower = data["tower"]
    builder = -1 if tower is None else tower[0]
    ace = -1 if tower is None else parse_card(tower[1])
    why = (
        "the deck ran out (R12)"
        if tower is None
        else f"{name(players, builder)} finished {TOWER_KINDS[suit(ace)]}"
    )
    lines = [f"[bold yellow]Round {data['round']} counted:[/bold yellow] {why}."]
    points, noble = data["points"], data["nobility_points"]
    for s, store in enumerate(data["store_points"]):
        extra = f" {noble[s]:+d} nobility (R28)" if noble[s] else ""
        if s == builder and suit(ace) == 1:
            extra += f" ×2 ♥ = {points[s]:+d}"
        elif s == builder and suit(ace) == 2:
            extra += f" +{data['tower_bonus']} ♦ = {points[s]:+d}"
        lines.append(
            f"  {name(players, s)}: {count(view.store_sizes[s], 'card')} worth "
            f"{store:+d}{extra} → round points {points[s]:+d}"
        )
    lines.append(scores_line(data["scores"], data["marks"], view.rules.teams, players))
    return lines


def value_text(codes: Iterable[int]) -> str:
    """``(+16 points)``, ``(+1 point)``."""
    points = sum(VALUE[c] for c in codes)
    return f"({points:+d} point{'' if abs(points) == 1 else 's'})"


def towers_not_enough(
    view: TowersView, players: Sequence[str], builder: int, winners: Sequence[int]
) -> str:
    """R14: one line on why the player who built the third tower (+150) did not win."""

    def score(s: int) -> int:
        partner = (s + 2) % 4 if view.rules.teams else s
        return view.scores[s] + (view.scores[partner] if partner != s else 0)

    def called(s: int) -> str:
        who = "you" if s == view.seat else escape(players[s])
        if view.rules.teams:
            mate = (s + 2) % 4
            who += " and " + ("you" if mate == view.seat else escape(players[mate]))
        return who

    built = called(builder)
    best = winners[0]
    if view.rules.teams:
        theirs = called(best)  # the winning pair
    else:
        theirs = " and ".join("you" if w == view.seat else escape(players[w]) for w in winners)
    return (
        f"{built[0].upper()}{built[1:]} built the third tower (+150) but ended with "
        f"{score(builder)} points, {theirs} with {score(best)}: the highest score wins the "
        "game (R14)."
    )
