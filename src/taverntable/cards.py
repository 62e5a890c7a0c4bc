"""Playing cards: the 52 standard cards and the joker, with the text form of the records spec (T1).

A standard card has an index 0..51 in canonical order (suits S H D C, each A 2 … 10 J Q K), so
that a set of distinct cards is an int bit mask: bit ``index`` is set when the card is present.
Cards are interned: ``Card.parse("10H") is Card.parse("T♥")``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FULL_DECK_MASK = (1 << 52) - 1

# T1: input accepts ``T`` for 10. ``1`` is not an ace: T1 does not allow it, and a ``1`` is more
# likely a slip for ``10`` than a name for the ace.
_RANK_ALIASES = {"T": "10"}
_SUIT_ALIASES = {sym: s for sym, s in zip(SUIT_SYMBOLS, SUITS, strict=True)}
_SUIT_ALIASES.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})


class CardError(ValueError):
    """A text that names no card."""


class Card:
    """One of the 52 standard cards; compare by identity or by ``index``."""

    __slots__ = ("index", "mask", "rank", "suit", "text")

    index: int
    rank: int  # 1 = ace … 13 = king
    suit: int  # 0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs
    mask: int
    text: str

    def __init__(self, index: int) -> None:
        self.index = index
        self.rank = index % 13 + 1
        self.suit = index // 13
        self.mask = 1 << index
        self.text = RANKS[self.rank - 1] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self.text})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_at, (self.index,))

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, for display: ``10♥``."""
        return RANKS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``10H``, ``TH``, ``10h`` or ``10♥`` into the interned card."""
        return CARDS[parse_index(text)]


def parse_index(text: str) -> int:
    """The canonical index of the card named by ``text`` (T1 notation); CardError if none."""
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError(f"{text!r} is not a card (write rank then suit, like 10H or QS)")
    rank_text, suit_text = t[:-1], t[-1]
    rank_text = _RANK_ALIASES.get(rank_text, rank_text)
    suit_text = _SUIT_ALIASES.get(suit_text, suit_text)
    if rank_text == "1" and suit_text in SUITS:
        raise CardError(
            f"{text!r} is not a card: write an ace as A{suit_text}, a ten as "
            f"10{suit_text} or T{suit_text} (T1)"
        )
    if rank_text not in RANKS or suit_text not in SUITS:
        raise CardError(f"{text!r} is not a card (ranks A 2-10 J Q K, suits S H D C)")
    return SUITS.index(suit_text) * 13 + RANKS.index(rank_text)


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
# Each card's place in a player's order (by rank, then suit): ``display_order``'s sort key.
_DISPLAY_PLACE: tuple[int, ...] = tuple(
    sorted(range(52), key=lambda i: (CARDS[i].rank, CARDS[i].suit)).index(i) for i in range(52)
)


def card_at(index: int) -> Card:
    """The interned card with this canonical index."""
    return CARDS[index]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of distinct cards."""
    m = 0
    for c in cards:
        m |= c.mask
    return m


def indices(mask: int) -> Iterator[int]:
    """The card indices in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[Card]:
    """The cards in a mask, in canonical order."""
    return [CARDS[i] for i in indices(mask)]


def display_order(mask: int) -> list[Card]:
    """The cards in a mask sorted for a player: by rank, then suit."""
    return [CARDS[i] for i in sorted(indices(mask), key=_DISPLAY_PLACE.__getitem__)]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as space-separated record text."""
    return " ".join(c.text for c in cards)
