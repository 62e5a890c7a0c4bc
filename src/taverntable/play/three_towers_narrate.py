"""Three Towers moves as sentences, told from one seat's views just before and after the move.

Hidden moves (a card stored or given in a redeal, a Thief's steal) are told as the seat saw them:
the view's history holds ``store ?`` for the others, so nothing leaks (R16).
"""

from __future__ import annotations

from collections.abc import Sequence

from taverntable.games.three_towers import TowersMove, TowersView
from taverntable.games.three_towers.cards import (
    JOKER,
    SPADES,
    THIEF,
    TOWER_VALUE,
    WARLOCK,
    WITCH,
    card_class,
    rank,
    suit,
)
from taverntable.games.three_towers.moves import (
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Deal,
    Defend,
    Done,
    Fail,
    Give,
    Hidden,
    Name,
    Pass,
    Raid,
    RedealJacks,
    RedealJoker,
    RedealKings,
    RedealQueens,
    RedealWarriors,
    Shuffle,
    Steal,
    Store,
    Take,
    Trade,
    TradeJoker,
    Yield,
)

from .three_towers_render import card, cards, name, value_text, whose
from .words import count

SUIT_WORDS = {0: "♠", 1: "[red]♥[/red]", 2: "[red]♦[/red]", 3: "♣"}
CURSE_NAMES = {THIEF: "the Thief", WITCH: "the Witch", WARLOCK: "the Warlock"}


def subject(players: Sequence[str], seat: int, me: int, verb: str) -> str:
    """``You lead`` for ``me``, ``Goblin leads`` for the others."""
    if seat == me:
        return f"[bold]You[/bold] {verb}"
    first, _, rest = verb.partition(" ")
    if first.endswith(("s", "sh", "ch", "x")):
        third = first + "es"
    elif first.endswith("y") and first[-2:-1] not in ("a", "e", "o", "u"):
        third = first[:-1] + "ies"
    else:
        third = first + "s"
    return f"{name(players, seat)} {third}{' ' + rest if rest else ''}"


def narrate(
    move: TowersMove, seat: int, before: TowersView, after: TowersView,
    players: Sequence[str],
) -> list[str]:
    """The move as sentences, and the trade's or attack's outcome when the move settled it."""
    lines = [sentence(move, seat, before, after, players)]
    lines += trade_outcome(move, seat, before, after, players)
    return [line for line in lines if line]


def sentence(
    move: TowersMove, seat: int, before: TowersView, after: TowersView, players: Sequence[str]
) -> str:
    me = before.seat

    def who(verb: str) -> str:
        return subject(players, seat, me, verb)

    def target(t: int) -> str:
        return "you" if t == me else name(players, t)

    their = "your" if seat == me else "their"
    match move:
        case Deal():
            return ""
        case Shuffle(cards=deck):
            return f"The deck is shuffled ({count(len(deck), 'card')})."
        case Steal(cards=stolen):
            a = before.attack
            assert a is not None
            seen = after.history[-1][1] if after.history else move
            shown = "" if isinstance(seen, Hidden) else f": {cards(stolen)}"
            return (f"The Thief steals {len(stolen)} card{'s' if len(stolen) != 1 else ''} from "
                    f"{whose(players, a.target, me)} store{shown}; the Thief stays there (−5).")
        case Trade(card=c):
            kind = "penalty" if suit(c) == SPADES else "goods"
            return who("lead") + f" {card(c)}: a trade in {SUIT_WORDS[suit(c)]} ({kind}, R4)."
        case TradeJoker(suit=led, take=take):
            aim = "to take" if take else "to give away"
            return who("lead") + f" a joker in {SUIT_WORDS[led]}, {aim} the trade (R4)."
        case Build(ace=ace, goods=goods):
            kind = "a dark tower" if suit(ace) == SPADES else f"a {SUIT_WORDS[suit(ace)]} tower"
            extra = "" if goods is None else f" and {card(goods)}"
            text = who("start") + f" {kind} with {card(ace)}{extra}"
            if goods is not None and TOWER_VALUE[goods] >= before.rules.tower_goal:  # R8, R29
                return text + " — the tower is finished and the round ends (R8)!"
            return text + " (R8)."
        case Add(card=c):
            tower = before.towers[seat]
            goods = sum(TOWER_VALUE[x] for x in tower) + TOWER_VALUE[c]
            if rank(c) == 1:
                return who("reinforce") + f" {their} tower with {card(c)} (R8, R23)."
            text = who("add") + f" {card(c)} to {their} tower: goods {goods}"
            goal = before.rules.tower_goal  # R8, R29
            if goods >= goal:
                return text + " — the tower is finished and the round ends (R8)!"
            return text + f", {goal - goods} to go."
        case Raid(target=t, card=c):
            return who("raid") + f" {whose(players, t, me)} tower with {card(c)} (R9)."
        case Curse(target=t, card=c):
            return who("curse") + f" {target(t)} with {CURSE_NAMES[c]} ({card(c)}, R9)."
        case RedealJoker():
            return who("spend") + f" a joker to redeal: {their} hand is shuffled into the deck."
        case RedealWarriors(jacks=j, queens=q, kings=k):
            return who("spend") + f" 4 warriors of {their} nobility ({j} J, {q} Q, {k} K) to " \
                f"redeal: {their} hand is shuffled into the deck (R10)."
        case RedealJacks(target=t):
            size = before.hand_sizes[seat]
            return who("spend") + f" 4 jacks: {their} hand ({count(size, 'card')}) goes into " \
                f"{whose(players, t, me)} store (R10)."
        case RedealQueens():
            return who("spend") + f" 4 queens: {their} chosen cards go into {their} store, " \
                "the rest into the deck (R10)."
        case RedealKings():
            return who("spend") + f" 4 kings: {their} hand is shared out among the stores (R10)."
        case Pass():
            return who("pass") + " (no legal action, R11)."
        case Answer(cards=laid):
            if len(laid) == 2:
                return who("answer") + f" with two cards: {cards(laid)} (R5 c)."
            return who("answer") + f" with {card(laid[0])}."
        case AnswerJoker(take=take):
            aim = "" if take is None else (", to take" if take else ", to give away")
            return who("answer") + f" with a joker{aim}."
        case Fail():
            hands = [h for s, h in after.shown if s == seat]
            hand = cards(hands[-1]) if hands else "nothing"
            return who("cannot") + f" answer (R6): {their} hand {hand} goes into {their} " \
                "store; 7 new cards are drawn."
        case Defend(card=c):
            a = before.attack
            assert a is not None
            what = "the raid" if a.is_raid else CURSE_NAMES.get(a.card, "the attack")
            return who("repel") + f" {what} with {card(c)} (R9)."
        case Yield():
            return yield_text(seat, before, players)
        case Name(seat=t):
            return who("name") + f" {target(t)}: the Witch's trade and the Witch go to " \
                f"{target(t)} (R9)."
        case Store(card=c):
            seen = after.history[-1][1]
            shown = "a card" if isinstance(seen, Hidden) else card(c)
            return who("put") + f" {shown} into {their} store (4 queens)."
        case Give(card=c, seat=t) if before.phase == "kings":
            seen = after.history[-1][1]
            shown = "a card" if isinstance(seen, Hidden) else card(c)
            return who("give") + f" {shown} to {whose(players, t, me)} store (4 kings)."
        case Give(card=c, seat=t):
            return who("pass") + f" {card(c)} from {their} store to " \
                f"{whose(players, t, me)} (dark tower, R13)."
        case Take(seat=t, card=c):
            return who("take") + f" {card(c)} from {whose(players, t, me)} store (♣ tower, R13)."
        case Done():
            return who("stop") + " choosing."
    return who("play") + f" {move}."


def yield_text(seat: int, before: TowersView, players: Sequence[str]) -> str:
    """What a yielded attack does (R9)."""
    me = before.seat
    a = before.attack
    assert a is not None
    verb = subject(players, seat, me, "let")
    attacker = "you" if a.attacker == me else name(players, a.attacker)
    if a.is_raid:
        from taverntable.bots.three_towers_tactics import tower_take

        taken = tower_take(before.towers[seat])
        return f"{verb} the raid through: {attacker} take{'s' if a.attacker != me else ''} " \
            f"{cards(taken)} {value_text(taken)} (R9)."
    if a.card == WARLOCK:
        return f"{verb} the Warlock through: it goes into their store (−40)." if seat != me \
            else f"{verb} the Warlock through: it goes into your store (−40)."
    if a.card == THIEF:
        return f"{verb} the Thief through (R9)."
    return f"{verb} the Witch through: a spade trade; everyone answers, " \
        f"{attacker} last, then {attacker} name{'s' if a.attacker != me else ''} who takes it."


def trade_outcome(
    move: TowersMove, seat: int, before: TowersView, after: TowersView, players: Sequence[str]
) -> list[str]:
    """R7: after the last answer, who won the trade and what they took."""
    trade = before.trade
    if trade is None or trade.witch or after.trade is not None:
        return []
    if not isinstance(move, (Answer, AnswerJoker, Fail)):
        return []
    bids = list(trade.bids)
    laid = [c for _, cs in trade.laid for c in cs]
    match move:
        case Answer(cards=cs):
            laid += cs
            if len(cs) == 1 and seat not in trade.failed:
                bids.append((rank(cs[0]), seat))
        case AnswerJoker(take=take):
            laid.append(JOKER)
            if take is not None and seat not in trade.failed:
                bids.append((100 if take else -1, seat))
        case _:
            return []
    winner = max(bids, key=lambda b: b[0])[1]
    me = before.seat
    text = subject(players, winner, me, "win")
    return [f"{text} the trade and take{'s' if winner != me else ''} {cards(sorted(laid))} "
            f"{value_text(laid)} (R7)."]


def card_words(code: int) -> str:
    """A card and its class, for messages: ``K♠ (Warlock)``."""
    return f"{card(code)} ({card_class(code)})"
