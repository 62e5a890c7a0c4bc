"""Three Towers moves: small frozen values whose ``str`` is the record notation.

The full notation is in ``docs/three-towers-notation.md``. Cards are codes (``cards.py``);
seats are numbers. Moves that hold several cards keep them in a canonical order (sorted codes,
except a deck order), so that equal moves compare equal whatever order the text named them in.
"""

from __future__ import annotations

from dataclasses import dataclass

from taverntable.cards import CardError
from taverntable.engine import MoveSyntaxError

from .cards import JOKER, TEXT, cards_text, parse_card, parse_suit, suit_text

# --- the mover's actions (A1–A4, R4, R8–R11) --------------------------------------------------


@dataclass(frozen=True, slots=True)
class Trade:
    """A1/R4: lead a goods or penalty card."""

    card: int

    def __str__(self) -> str:
        return f"trade {TEXT[self.card]}"


@dataclass(frozen=True, slots=True)
class TradeJoker:
    """R4: lead a joker, naming the suit and whether it takes or gives."""

    suit: int
    take: bool

    def __str__(self) -> str:
        return f"trade X {suit_text(self.suit)} {'take' if self.take else 'give'}"


@dataclass(frozen=True, slots=True)
class Build:
    """A2/R8: start a tower with an ace, optionally with one goods card on it."""

    ace: int
    goods: int | None = None

    def __str__(self) -> str:
        extra = "" if self.goods is None else " " + TEXT[self.goods]
        return f"build {TEXT[self.ace]}{extra}"


@dataclass(frozen=True, slots=True)
class Add:
    """A3/R8: lay a goods card or a reinforcing ♥♦♣ ace on one's tower."""

    card: int

    def __str__(self) -> str:
        return f"add {TEXT[self.card]}"


@dataclass(frozen=True, slots=True)
class Raid:
    """R9: attack seat ``target``'s tower with a warrior."""

    target: int
    card: int

    def __str__(self) -> str:
        return f"raid {self.target} {TEXT[self.card]}"


@dataclass(frozen=True, slots=True)
class Curse:
    """R9: play a Thief, Witch or Warlock against seat ``target``."""

    target: int
    card: int

    def __str__(self) -> str:
        return f"curse {self.target} {TEXT[self.card]}"


@dataclass(frozen=True, slots=True)
class RedealJoker:
    """A4/R10: spend a joker from hand; the hand is shuffled into the deck."""

    def __str__(self) -> str:
        return "redeal X"


@dataclass(frozen=True, slots=True)
class RedealWarriors:
    """A4/R10: spend any 4 warriors of the nobility, by rank; the hand is shuffled into the deck.

    Warriors of one rank are interchangeable (their suits never matter), so the move names ranks.
    """

    jacks: int
    queens: int
    kings: int

    def __str__(self) -> str:
        ranks = ["J"] * self.jacks + ["Q"] * self.queens + ["K"] * self.kings
        return "redeal warriors " + " ".join(ranks)


@dataclass(frozen=True, slots=True)
class RedealJacks:
    """A4/R10: spend 4 jacks; the hand goes into seat ``target``'s store."""

    target: int

    def __str__(self) -> str:
        return f"redeal jacks {self.target}"


@dataclass(frozen=True, slots=True)
class RedealQueens:
    """A4/R10: spend 4 queens; then ``store`` cards of the hand, ``done``, the rest is shuffled."""

    def __str__(self) -> str:
        return "redeal queens"


@dataclass(frozen=True, slots=True)
class RedealKings:
    """A4/R10: spend 4 kings; then ``give`` every card of the hand to a store."""

    def __str__(self) -> str:
        return "redeal kings"


@dataclass(frozen=True, slots=True)
class Pass:
    """R11: nothing else is legal."""

    def __str__(self) -> str:
        return "pass"


# --- decisions out of turn (R5, R6, R9) ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """R5 (a): one card of the led suit, or (c): two non-spade non-joker cards (sorted)."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "answer " + cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class AnswerJoker:
    """R5 (b): a joker, taking or giving; ``take`` is None in a Witch's trade (R18)."""

    take: bool | None

    def __str__(self) -> str:
        if self.take is None:
            return "answer X"
        return f"answer X {'take' if self.take else 'give'}"


@dataclass(frozen=True, slots=True)
class Fail:
    """R6: cannot answer: lay the one non-spade card, show the hand into the store, draw 7."""

    def __str__(self) -> str:
        return "fail"


@dataclass(frozen=True, slots=True)
class Defend:
    """R9: repel an attack with a warrior or a joker."""

    card: int

    def __str__(self) -> str:
        return f"defend {TEXT[self.card]}"


@dataclass(frozen=True, slots=True)
class Yield:
    """R9: let an attack through."""

    def __str__(self) -> str:
        return "yield"


@dataclass(frozen=True, slots=True)
class Name:
    """R9: the Witch's owner names who takes its trade."""

    seat: int

    def __str__(self) -> str:
        return f"name {self.seat}"


# --- choices, one card at a time (R10, R13) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Store:
    """R10 (4 queens): put one card of the hand into one's own store."""

    card: int

    def __str__(self) -> str:
        return f"store {TEXT[self.card]}"


@dataclass(frozen=True, slots=True)
class Give:
    """R10 (4 kings): a hand card to seat's store; R13 (dark tower): a store card to seat's."""

    card: int
    seat: int

    def __str__(self) -> str:
        return f"give {TEXT[self.card]} {self.seat}"


@dataclass(frozen=True, slots=True)
class Take:
    """R13 (♣ tower): take one card from seat's store."""

    seat: int
    card: int

    def __str__(self) -> str:
        return f"take {self.seat} {TEXT[self.card]}"


@dataclass(frozen=True, slots=True)
class Done:
    """End a choice of several cards (4 queens, ♣ take, dark give) early."""

    def __str__(self) -> str:
        return "done"


# --- chance steps, made by seat -1 (R1, R10, R9) -------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's 108 cards, top first; dealt 7 each one at a time from the dealer's left."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "deal " + cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Shuffle:
    """The deck's new order after a redeal, top first."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "shuffle " + cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Steal:
    """The cards a Thief takes at random from its victim's store (sorted)."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return ("steal " + cards_text(self.cards)).rstrip()


@dataclass(frozen=True, slots=True)
class Hidden:
    """A history entry as a seat saw it when the move's cards were hidden (``deal``,
    ``store ?``); never applied, only shown in views and kept in sampled worlds."""

    text: str

    def __str__(self) -> str:
        return self.text


def redact(move: TowersMove | Hidden) -> Hidden:
    """A move as the seats that did not see it whole saw it (R16): deck orders, stolen cards
    and cards stored or given face down become ``?``."""
    match move:
        case Deal():
            return Hidden("deal")
        case Shuffle():
            return Hidden("shuffle")
        case Steal(cards=cards):
            return Hidden(" ".join(["steal"] + ["?"] * len(cards)))
        case Store():
            return Hidden("store ?")
        case Give(seat=to):
            return Hidden(f"give ? {to}")
        case _:
            return Hidden(str(move))


TowersMove = (
    Trade
    | TradeJoker
    | Build
    | Add
    | Raid
    | Curse
    | RedealJoker
    | RedealWarriors
    | RedealJacks
    | RedealQueens
    | RedealKings
    | Pass
    | Answer
    | AnswerJoker
    | Fail
    | Defend
    | Yield
    | Name
    | Store
    | Give
    | Take
    | Done
    | Deal
    | Shuffle
    | Steal
)
ChanceMove = Deal | Shuffle | Steal

PASS = Pass()
FAIL = Fail()
YIELD = Yield()
DONE = Done()
REDEAL_JOKER = RedealJoker()
REDEAL_QUEENS = RedealQueens()
REDEAL_KINGS = RedealKings()

_BARE: dict[str, TowersMove] = {"pass": PASS, "fail": FAIL, "yield": YIELD, "done": DONE}
# The verbs a player types, named when a line is none of them; the chance steps (deal, shuffle,
# steal) parse too, for records, but no player makes them (R20).
VERBS = (
    "trade, build, add, raid, curse, redeal, pass, answer, fail, defend, yield, name, store, "
    "give, take, done"
)


def _card(word: str, text: str) -> int:
    try:
        return parse_card(word)
    except CardError as e:
        raise MoveSyntaxError(f"{text!r}: {e}") from None


def _seat(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()):  # "²" is a digit to Python, not to int()
        raise MoveSyntaxError(f"{text!r}: {word!r} is not a seat number")
    return int(word)


def _take_give(word: str, text: str) -> bool:
    w = word.lower()
    if w not in ("take", "give"):
        raise MoveSyntaxError(f"{text!r}: a joker takes or gives, not {word!r}")
    return w == "take"


def _expect(args: list[str], counts: tuple[int, ...], text: str, form: str) -> None:
    if len(args) not in counts:
        raise MoveSyntaxError(f"{text!r}: write {form}")


def parse_move(text: str) -> TowersMove:
    """Parse the record notation (``docs/three-towers-notation.md``)."""
    words = text.split()
    if not words:
        raise MoveSyntaxError("empty move")
    verb, args = words[0].lower(), words[1:]
    match verb:
        case "pass" | "fail" | "yield" | "done":
            _expect(args, (0,), text, f"'{verb}' alone")
            return _BARE[verb]
        case "trade":
            _expect(args, (1, 3), text, "'trade CARD' or 'trade X SUIT take|give'")
            card = _card(args[0], text)
            if len(args) == 1:
                if card == JOKER:
                    raise MoveSyntaxError(
                        f"{text!r}: a joker lead names a suit and take or "
                        "give, like 'trade X H take'"
                    )
                return Trade(card)
            if card != JOKER:
                raise MoveSyntaxError(f"{text!r}: only a joker lead names a suit")
            try:
                s = parse_suit(args[1])
            except CardError as e:
                raise MoveSyntaxError(f"{text!r}: {e}") from None
            return TradeJoker(s, _take_give(args[2], text))
        case "build":
            _expect(args, (1, 2), text, "'build ACE' or 'build ACE GOODS'")
            goods = _card(args[1], text) if len(args) == 2 else None
            return Build(_card(args[0], text), goods)
        case "add":
            _expect(args, (1,), text, "'add CARD'")
            return Add(_card(args[0], text))
        case "raid" | "curse":
            _expect(args, (2,), text, f"'{verb} SEAT CARD'")
            target, card = _seat(args[0], text), _card(args[1], text)
            return Raid(target, card) if verb == "raid" else Curse(target, card)
        case "redeal":
            return _parse_redeal(args, text)
        case "answer":
            _expect(args, (1, 2), text, "'answer CARD', 'answer CARD CARD' or 'answer X take|give'")
            first = _card(args[0], text)
            if first == JOKER and len(args) == 2 and args[1].lower() in ("take", "give"):
                return AnswerJoker(_take_give(args[1], text))
            if first == JOKER and len(args) == 1:
                return AnswerJoker(None)
            return Answer(tuple(sorted(_card(a, text) for a in args)))
        case "defend":
            _expect(args, (1,), text, "'defend CARD'")
            return Defend(_card(args[0], text))
        case "name":
            _expect(args, (1,), text, "'name SEAT'")
            return Name(_seat(args[0], text))
        case "store":
            _expect(args, (1,), text, "'store CARD'")
            return Store(_card(args[0], text))
        case "give":
            _expect(args, (2,), text, "'give CARD SEAT'")
            return Give(_card(args[0], text), _seat(args[1], text))
        case "take":
            _expect(args, (2,), text, "'take SEAT CARD'")
            return Take(_seat(args[0], text), _card(args[1], text))
        case "deal" | "shuffle":
            cards = tuple(_card(a, text) for a in args)
            return Deal(cards) if verb == "deal" else Shuffle(cards)
        case "steal":
            return Steal(tuple(sorted(_card(a, text) for a in args)))
        case _:
            raise MoveSyntaxError(f"{text!r} is not a Three Towers move ({VERBS})")


def _parse_redeal(args: list[str], text: str) -> TowersMove:
    form = (
        "'redeal X', 'redeal warriors J Q K K', 'redeal jacks SEAT', 'redeal queens' or "
        "'redeal kings'"
    )
    if not args:
        raise MoveSyntaxError(f"{text!r}: write {form}")
    kind, rest = args[0].lower(), args[1:]
    match kind:
        case "x" | "joker" if not rest:
            return REDEAL_JOKER
        case "queens" if not rest:
            return REDEAL_QUEENS
        case "kings" if not rest:
            return REDEAL_KINGS
        case "jacks" if len(rest) == 1:
            return RedealJacks(_seat(rest[0], text))
        case "warriors" if len(rest) == 4 and all(r.upper() in ("J", "Q", "K") for r in rest):
            ranks = [r.upper() for r in rest]
            return RedealWarriors(ranks.count("J"), ranks.count("Q"), ranks.count("K"))
        case "warriors":
            raise MoveSyntaxError(
                f"{text!r}: name the ranks of the 4 warriors, like 'redeal warriors J Q K K'"
            )
        case _:
            raise MoveSyntaxError(f"{text!r}: write {form}")
