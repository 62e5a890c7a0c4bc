"""Three Towers moves as sentences, told from the events one seat receives (R16).

``narrate(events, before, players)`` takes a move's events and ``before``, the seat's view just
before the move. The events are filtered for that seat first (``Event.for_seat``), so a card
hidden from it — another player's stored card, a Thief's take it may not see — reaches no
sentence. What the move did (who won a trade, what a raid took, what a failed answer showed)
comes from the events alone; ``before`` is read only for what the move acted on: the tower an
``add`` grows, the attack a ``yield`` lets through, the deck a shuffle shuffles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taverntable.engine import Event
from taverntable.games.three_towers import TowersView
from taverntable.games.three_towers.cards import (
    IS_CURSE,
    SPADES,
    THIEF,
    TOWER_VALUE,
    WARLOCK,
    WITCH,
    parse_card,
    rank,
    suit,
)
from taverntable.games.three_towers.moves import (
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Defend,
    Done,
    Fail,
    Name,
    Pass,
    Raid,
    RedealJacks,
    RedealJoker,
    RedealKings,
    RedealQueens,
    RedealWarriors,
    Take,
    TowersMove,
    Trade,
    TradeJoker,
    Yield,
    parse_move,
)
from taverntable.play.words import count, third_person

from .render import card, cards, name, value_text, whose

SUIT_WORDS = {0: "♠", 1: "[red]♥[/red]", 2: "[red]♦[/red]", 3: "♣"}
CURSE_NAMES = {THIEF: "the Thief", WITCH: "the Witch", WARLOCK: "the Warlock"}
# The words of a move's public notation whose cards the events tell (they may be hidden: the
# notation then reads ``store ?``, ``give ? 1``, ``steal ? ?``, ``deal``, ``shuffle``).
TOLD_BY_EVENTS = ("deal", "shuffle", "steal", "store", "give")


def subject(players: Sequence[str], seat: int, me: int, verb: str) -> str:
    """``You lead`` for ``me``, ``Goblin leads`` for the others (``verb`` may run on:
    ``cannot answer``)."""
    if seat == me:
        return f"[bold]You[/bold] {verb}"
    first, _, rest = verb.partition(" ")
    third = first if first == "cannot" else third_person(first)
    return f"{name(players, seat)} {third}{' ' + rest if rest else ''}"


@dataclass(frozen=True)
class Told:
    """One move as ``before.seat`` saw it: its events (already filtered), the view before."""

    events: tuple[Event, ...]
    before: TowersView
    players: Sequence[str]

    @property
    def me(self) -> int:
        return self.before.seat

    @property
    def seat(self) -> int:
        """The seat that moved (-1 for a chance step)."""
        return self.events[0].seat if self.events and self.events[0].seat is not None else -1

    @property
    def text(self) -> str:
        """The move's notation as every seat may read it."""
        return self.events[0].move if self.events else ""

    def of(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def who(self, verb: str) -> str:
        return subject(self.players, self.seat, self.me, verb)

    def called(self, seat: int) -> str:
        """``you`` or the player's name, as an object."""
        return "you" if seat == self.me else name(self.players, seat)

    @property
    def their(self) -> str:
        return "your" if self.seat == self.me else "their"


def is_deal(events: Sequence[Event]) -> bool:
    """Whether ``events`` are a round's deal (the chance move that opens a round, R3)."""
    return bool(events) and events[0].kind == "move" and events[0].move == "deal"


def narrate(events: Sequence[Event], before: TowersView, players: Sequence[str]) -> list[str]:
    """The move as sentences, and the trade's outcome when the move settled one (R7, R9)."""
    told = Told(tuple(e.for_seat(before.seat) for e in events), before, players)
    lines = [sentence(told), *outcome(told)]
    return [line for line in lines if line]


def sentence(t: Told) -> str:
    """What the move was, in one sentence."""
    word = t.text.partition(" ")[0]
    if word in TOLD_BY_EVENTS:
        return hidden_sentence(word, t)
    move = parse_move(t.text)
    return turn_sentence(move, t) or reply_sentence(move, t) or t.who("play") + f" {move}."


def zone_seat(zone: str) -> int:
    """``store:2`` -> 2."""
    return int(zone.rpartition(":")[2])


def shown_cards(event: Event | None) -> list[int]:
    """The codes of an event's cards, or none when they are hidden from the seat."""
    if event is None or "?" in event.cards:
        return []
    return [parse_card(text) for text in event.cards]


def hidden_sentence(word: str, t: Told) -> str:
    """The moves whose cards only the events tell, as far as the seat may see them."""
    me, players = t.me, t.players
    if word == "deal":
        return ""  # the round's heading says it
    if word == "shuffle":
        return f"The deck is shuffled ({count(t.before.deck_size, 'card')})."
    if word == "steal":
        stolen = t.of("steal")[0]
        seen = shown_cards(stolen)
        shown = f": {cards(seen)}" if seen else ""
        return (
            f"The Thief steals {count(len(stolen.cards), 'card')} from "
            f"{whose(players, zone_seat(stolen.source), me)} store{shown}; the Thief stays "
            "there (−5)."
        )
    if word == "store":
        seen = shown_cards(t.of("store")[0])
        return (
            t.who("put") + f" {cards(seen) if seen else 'a card'} into {t.their} store (4 queens)."
        )
    given = t.of("give")
    if given:  # 4 kings: the card goes face down unless the seat may see it (R10, R16)
        seen = shown_cards(given[0])
        return (
            t.who("give") + f" {cards(seen) if seen else 'a card'} to "
            f"{whose(players, zone_seat(given[0].dest), me)} store (4 kings)."
        )
    passed = t.of("dark_give")[0]  # the dark tower's bonus, in the open (R13)
    return (
        t.who("pass") + f" {cards(shown_cards(passed))} from {t.their} store to "
        f"{whose(players, zone_seat(passed.dest), me)} (dark tower, R13)."
    )


def turn_sentence(move: TowersMove, t: Told) -> str:
    """The mover's own actions (A1–A4, R8–R11)."""
    their = t.their
    match move:
        case Trade(card=c):
            kind = "penalty" if suit(c) == SPADES else "goods"
            return t.who("lead") + f" {card(c)}: a trade in {SUIT_WORDS[suit(c)]} ({kind}, R4)."
        case TradeJoker(suit=led, take=take):
            aim = "to take" if take else "to give away"
            return t.who("lead") + f" a joker in {SUIT_WORDS[led]}, {aim} the trade (R4)."
        case Build(ace=ace, goods=goods):
            kind = "a dark tower" if suit(ace) == SPADES else f"a {SUIT_WORDS[suit(ace)]} tower"
            extra = "" if goods is None else f" and {card(goods)}"
            text = t.who("start") + f" {kind} with {card(ace)}{extra}"
            if goods is not None and TOWER_VALUE[goods] >= t.before.rules.tower_goal:  # R8, R29
                return text + " — the tower is finished and the round ends (R8)!"
            return text + " (R8)."
        case Add(card=c):
            return add_sentence(c, t)
        case Raid(target=target, card=c):
            rule = "R9, R34: a ♠ jack as a jack" if c == THIEF else "R9"
            return (
                t.who("raid") + f" {whose(t.players, target, t.me)} tower with {card(c)} ({rule})."
            )
        case Curse(target=target, card=c):
            return t.who("curse") + f" {t.called(target)} with {CURSE_NAMES[c]} ({card(c)}, R9)."
        case RedealJoker():
            return t.who("spend") + f" a joker to redeal: {their} hand is shuffled into the deck."
        case RedealWarriors(jacks=j, queens=q, kings=k):
            return (
                t.who("spend") + f" 4 warriors of {their} nobility ({j} J, {q} Q, {k} K) "
                f"to redeal: {their} hand is shuffled into the deck (R10)."
            )
        case RedealJacks(target=target):
            given = t.of("give")
            size = len(given[0].cards) if given else 0
            return (
                t.who("spend") + f" 4 jacks: {their} hand ({count(size, 'card')}) goes "
                f"into {whose(t.players, target, t.me)} store (R10)."
            )
        case RedealQueens():
            return (
                t.who("spend") + f" 4 queens: {their} chosen cards go into {their} store, "
                "the rest into the deck (R10)."
            )
        case RedealKings():
            return t.who("spend") + f" 4 kings: {their} hand is shared out among the stores (R10)."
        case Pass():
            return t.who("pass") + " (no legal action, R11)."
    return ""


def add_sentence(c: int, t: Told) -> str:
    """R8, R23, R29: a card on the mover's tower (as it stood before the move)."""
    if rank(c) == 1:
        return t.who("reinforce") + f" {t.their} tower with {card(c)} (R8, R23)."
    goods = sum(TOWER_VALUE[x] for x in t.before.towers[t.seat]) + TOWER_VALUE[c]
    text = t.who("add") + f" {card(c)} to {t.their} tower: goods {goods}"
    goal = t.before.rules.tower_goal
    if goods >= goal:
        return text + " — the tower is finished and the round ends (R8)!"
    return text + f", {goal - goods} to go."


def reply_sentence(move: TowersMove, t: Told) -> str:
    """Answers, defences and the choices that follow a turn (R5–R10, R13)."""
    match move:
        case Answer(cards=laid):
            if len(laid) == 2:
                return t.who("answer") + f" with two cards: {cards(laid)} (R5 c)."
            return t.who("answer") + f" with {card(laid[0])}."
        case AnswerJoker(take=take):
            aim = "" if take is None else (", to take" if take else ", to give away")
            return t.who("answer") + f" with a joker{aim}."
        case Fail():
            return fail_sentence(t)
        case Defend(card=c):
            repelled = shown_cards(t.of("repelled")[0])[0]
            raid = t.before.attack is not None and t.before.attack.is_raid  # R34: a ♠ jack raids
            what = CURSE_NAMES[repelled] if IS_CURSE[repelled] and not raid else "the raid"
            return t.who("repel") + f" {what} with {card(c)} (R9)."
        case Yield():
            return yield_sentence(t)
        case Name(seat=target):
            return (
                t.who("name") + f" {t.called(target)}: the Witch's trade and the Witch go "
                f"to {t.called(target)} (R9)."
            )
        case Take(seat=target, card=c):
            return (
                t.who("take") + f" {card(c)} from {whose(t.players, target, t.me)} store "
                "(♣ tower, R13)."
            )
        case Done():
            return t.who("stop") + " choosing."
    return ""


def fail_sentence(t: Told) -> str:
    """R6: the one plain card laid (if any), the hand shown into the store, the new cards."""
    laid = shown_cards(next(iter(t.of("lay")), None))
    lays = f" lays {card(laid[0])};" if laid else ""
    shown = [c for e in t.of("show") for c in shown_cards(e)]
    drawn = sum(len(e.cards) for e in t.of("draw"))
    if drawn == 7:
        refill = "7 new cards are drawn"
    elif drawn:
        refill = f"only {count(drawn, 'new card')} {'is' if drawn == 1 else 'are'} left to draw"
    else:
        refill = "the deck is empty"
    return (
        t.who("cannot") + f" answer (R6):{lays} {t.their} hand {cards(shown) or 'nothing'} "
        f"goes into {t.their} store; {refill}."
    )


def yield_sentence(t: Told) -> str:
    """R9: what the yielded attack did, from its events (the attack from the view before)."""
    verb = t.who("let")
    attack = t.before.attack
    assert attack is not None
    attacker = t.called(attack.attacker)
    s = "" if attack.attacker == t.me else "s"
    plundered = t.of("plunder")
    if plundered:
        taken = shown_cards(plundered[0])
        return (
            f"{verb} the raid through: {attacker} take{s} {cards(taken)} {value_text(taken)} (R9)."
        )
    cursed = [c for e in t.of("curse") for c in shown_cards(e)]
    if WARLOCK in cursed:
        return f"{verb} the Warlock through: it goes into {t.their} store (−40)."
    if THIEF in cursed:  # an empty store: nothing to steal, the Thief stays (R9)
        return (
            f"{verb} the Thief through: {t.their} store is empty, so the Thief just goes "
            "into it (−5, R9)."
        )
    if attack.card == THIEF:
        return f"{verb} the Thief through (R9)."
    return (
        f"{verb} the Witch through: a spade trade; everyone answers, {attacker} last, then "
        f"{attacker} name{s} who takes it."
    )


def outcome(t: Told) -> list[str]:
    """R7: who won the trade the move settled and what they took (the ``win`` events); R9: what
    the player named takes of the Witch's trade."""
    won = t.of("win")
    if not won:
        return []
    winner = won[0].seat
    assert winner is not None
    taken = sorted(c for e in won for c in shown_cards(e))
    s = "" if winner == t.me else "s"
    who = subject(t.players, winner, t.me, "take")
    if t.text.startswith("name"):
        return [f"{who} {cards(taken)} {value_text(taken)} (R9)."]
    return [
        f"{subject(t.players, winner, t.me, 'win')} the trade and take{s} {cards(taken)} "
        f"{value_text(taken)} (R7)."
    ]
