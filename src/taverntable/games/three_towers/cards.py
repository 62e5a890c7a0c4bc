"""Three Towers cards (R1, R2): two 52-card decks and four jokers (R35: or three decks and six
jokers), as small int codes.

A card is a code 0..52: 0..51 are the standard cards in the canonical order of
``taverntable.cards`` (suits S H D C, each A 2 … 10 J Q K) and 52 is the joker, written ``X``.
Identical cards (two 7♥) have the same code, so a hand, a store or the deck is a list of codes
that may repeat: two equal cards are interchangeable everywhere in the rules.
"""

from __future__ import annotations

from collections.abc import Iterable

from taverntable.cards import CARDS, SUITS, CardError, parse_index

JOKER = 52
NUM_CODES = 53
DECK_SIZE = 108  # R1's two decks of 54
DECK_CARDS = 54  # one deck: 52 standard cards and 2 jokers (R1)
HAND_SIZE = 7
SPADES = 0

# The spade figures (A): Thief, Witch, Warlock, and the dark tower's ace.
DARK_TOWER = 0  # AS
THIEF = 10  # JS
WITCH = 11  # QS
WARLOCK = 12  # KS
CURSES = (THIEF, WITCH, WARLOCK)

TEXT: tuple[str, ...] = (*tuple(c.text for c in CARDS), "X")


def rank(code: int) -> int:
    """1 = ace … 13 = king; the joker has rank 0."""
    return 0 if code == JOKER else code % 13 + 1


def suit(code: int) -> int:
    """0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs; the joker has suit -1."""
    return -1 if code == JOKER else code // 13


def _classify(code: int, test: str) -> bool:
    if code == JOKER:
        return test == "joker"
    r, s = code % 13 + 1, code // 13
    match test:
        case "goods":
            return s != SPADES and 2 <= r <= 10
        case "penalty":
            return s == SPADES and 2 <= r <= 10
        case "warrior":
            return s != SPADES and r >= 11
        case "tower_ace":
            return s != SPADES and r == 1
        case "ace":
            return r == 1
        case "curse":
            return s == SPADES and r >= 11
        case _:
            return False


def _table(test: str) -> tuple[bool, ...]:
    return tuple(_classify(c, test) for c in range(NUM_CODES))


# Lookup tables: the move generator asks these questions for every card of every hand.
IS_GOODS = _table("goods")  # 2–10 of ♥♦♣
IS_PENALTY = _table("penalty")  # 2–10 of ♠
IS_WARRIOR = _table("warrior")  # J Q K of ♥♦♣
IS_TOWER_ACE = _table("tower_ace")  # A of ♥♦♣
IS_ACE = _table("ace")  # any ace, the dark tower's included
IS_CURSE = _table("curse")  # Thief, Witch, Warlock
# R5 (c): "non-spade, non-joker cards of any kind".
IS_PLAIN = tuple(c != JOKER and c // 13 != SPADES for c in range(NUM_CODES))


def _value(code: int) -> int:
    """R2: the points a card scores in a store."""
    if code == JOKER:
        return 0
    r, s = code % 13 + 1, code // 13
    if s == SPADES:
        return {1: -15, 11: -5, 12: -10, 13: -40}.get(r, -r)
    if r == 1:
        return 15
    return r if r <= 10 else 0


VALUE: tuple[int, ...] = tuple(_value(c) for c in range(NUM_CODES))
# Towers (R8): only goods count towards the 30.
TOWER_VALUE: tuple[int, ...] = tuple(rank(c) if IS_GOODS[c] else 0 for c in range(NUM_CODES))


def full_deck(decks: int = 2) -> list[int]:
    """R1: the 108 cards in canonical order (each standard card twice, then four jokers); R35:
    with ``decks`` 3, the 162 (each standard card three times, then six jokers)."""
    return [c for c in range(52) for _ in range(decks)] + [JOKER] * (2 * decks)


def deck_size(decks: int = 2) -> int:
    """R1: 108 cards; R35: 54 per deck."""
    return DECK_CARDS * decks


def parse_card(text: str) -> int:
    """The code of ``7H``, ``10h``, ``T♥`` or ``X`` (the joker); CardError if none."""
    t = text.strip()
    if t.upper() in ("X", "JOKER", "🃏"):
        return JOKER
    return parse_index(t)


def card_text(code: int) -> str:
    """The record text of a card: ``7H``, ``X``."""
    return TEXT[code]


def cards_text(codes: Iterable[int]) -> str:
    """Cards as space-separated record text."""
    return " ".join(TEXT[c] for c in codes)


def suit_text(s: int) -> str:
    """``S``, ``H``, ``D`` or ``C``."""
    return SUITS[s]


def parse_suit(text: str) -> int:
    """A suit letter or symbol; CardError if none."""
    t = text.strip().upper()
    symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    t = symbols.get(t, t)
    if len(t) != 1 or t not in SUITS:
        raise CardError(f"{text!r} is not a suit (S H D C)")
    return SUITS.index(t)


def total(codes: Iterable[int]) -> int:
    """R2: the value of some cards."""
    return sum(VALUE[c] for c in codes)


def card_class(code: int) -> str:
    """The card's class in words, for messages and displays."""
    if code == JOKER:
        return "joker"
    for name, table in (
        ("goods", IS_GOODS),
        ("penalty", IS_PENALTY),
        ("warrior", IS_WARRIOR),
        ("tower ace", IS_TOWER_ACE),
    ):
        if table[code]:
            return name
    return {DARK_TOWER: "dark tower", THIEF: "Thief", WITCH: "Witch", WARLOCK: "Warlock"}[code]
