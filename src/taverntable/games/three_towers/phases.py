"""What the state modules share: phases, the chance seat, a trade and an attack in progress."""

from __future__ import annotations

from dataclasses import dataclass, field

from taverntable.engine import CHANCE, DealError

__all__ = ["CHANCE", "DealError"]

# Phases: whose decision it is and which moves are legal.
DEAL = "deal"  # chance: a round's deck order
TURN = "turn"  # the mover acts (A1–A4, R8–R11)
ANSWER = "answer"  # a seat answers a trade (R5, R6)
DEFEND = "defend"  # the attacked seat defends or yields (R9)
STEAL = "steal"  # chance: the cards a Thief steals (R9)
NAME = "name"  # the Witch's owner names who takes its trade (R9)
QUEENS = "queens"  # 4-queens redeal: the mover stores cards of the hand (R10)
KINGS = "kings"  # 4-kings redeal: the mover gives each card of the hand to a store (R10)
SHUFFLE = "shuffle"  # chance: the deck's order after a redeal (R10)
CLUB = "club"  # a finished ♣ tower's builder takes cards from opponents' stores (R13)
DARK = "dark"  # a finished dark tower's builder gives away cards of their store (R13)
OVER = "over"
CHANCE_PHASES = (DEAL, STEAL, SHUFFLE)


@dataclass(slots=True)
class TradeState:
    """A trade in progress (R4–R7), or a Witch's spade trade (R9)."""

    leader: int
    suit: int
    witch: bool
    laid: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (seat, cards)
    bids: list[tuple[int, int]] = field(default_factory=list)  # (rank key, seat), in order
    queue: list[int] = field(default_factory=list)  # seats still to answer; the head answers
    failed: list[int] = field(default_factory=list)  # seats that failed under R6

    def copy(self) -> TradeState:
        return TradeState(
            self.leader,
            self.suit,
            self.witch,
            self.laid[:],
            self.bids[:],
            self.queue[:],
            self.failed[:],
        )


@dataclass(frozen=True, slots=True)
class Attack:
    """A raid or curse waiting for the defender (R9); ``card`` is the attacking card, ``raid``
    whether it attacks a tower (a warrior's, or R34's ♠ jack's) or curses a player."""

    attacker: int
    target: int
    card: int
    raid: bool

    @property
    def is_raid(self) -> bool:
        return self.raid
