"""Three Towers points by action: each card's points credited to the action that stored it.

The credit is read off the events ``apply`` returns (``docs/contract.md``): every card that
moves into a seat's store (``store:S``) adds its value (R2) to that seat, every card that leaves
one (a Thief's steal, a ♣ take, a dark give) takes it away, and the change is credited to the
kind of the move *group* that caused it: a trade's lead and its answers are one ``trade`` (R7;
a failed answer's hand into the failing seat's own store is ``fail``, R6), an attack and its
defence one ``raid`` (R9 plunder) or ``curse`` (Thief, Warlock, the Witch's trade, a repelled
curse into its owner's store), a redeal with its stores, gives and shuffle one ``redeal`` (A4,
R10).

At a round's end (R12, R13: the move's ``collect`` events) the cards of each seat's tower count
as ``tower``, its hand and nobility as ``round_end``; the ``round_end`` event's
``tower_bonus`` (♥ doubling, ♦ 50) and the ♣ takes / dark gives count as ``tower`` too, its
``nobility_points`` (R28) as ``round_end``, and the ``win_bonus`` event's 150 (R14) as
``win_bonus``. So a seat's points per action sum to its round points, and over the game to its
score. ``own`` is the part from the seat's own doing: groups it opened (its trades, raids,
curses, redeals), its failed answers, ♣ takes and dark gives, its tower and hand at the round
end; the rest came from opponents' actions (a curse suffered, a ♣ take from its store, a jacks
redeal into it, another seat's trade it won).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from taverntable.engine import Event
from taverntable.games.three_towers import TowersMove, TowersState
from taverntable.games.three_towers.cards import NUM_CODES, TEXT, VALUE
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
    Trade,
    TradeJoker,
    Yield,
)

ACTION_SOURCES = ("trade", "fail", "tower", "raid", "curse", "redeal", "round_end", "win_bonus")
_OPENERS: dict[type, str] = {
    Trade: "trade",
    TradeJoker: "trade",
    Build: "tower",
    Add: "tower",
    Raid: "raid",
    Curse: "curse",
    RedealJoker: "redeal",
    RedealWarriors: "redeal",
    RedealJacks: "redeal",
    RedealQueens: "redeal",
    RedealKings: "redeal",
    Pass: "round_end",
}
# Moves that belong to the group opened before them (answers, defence, chance steps, choices).
_FOLLOWERS = (Answer, AnswerJoker, Defend, Yield, Name, Steal, Store, Give, Done, Shuffle)
_POINTS = {TEXT[c]: VALUE[c] for c in range(NUM_CODES)}

# One move as the lab sees it: the seat that made it (-1: chance), the move and its events.
PlayedMove = tuple[int, TowersMove, Sequence[Event]]


@dataclass(frozen=True, slots=True)
class ActionPoints:
    """Points by action: per round (``rounds[r][action][seat]``) and for the whole game.

    ``bonus[r][seat]`` is the part of a round's points that is not in the store (♥ doubling,
    ♦ 50, R28 nobility): a round's points by action minus it is the store's value.
    """

    rounds: list[dict[str, list[int]]]
    bonus: list[list[int]]
    game: dict[str, list[int]]
    own: dict[str, list[int]]  # the part of ``game`` from the seat's own doing


def store_changes(events: Iterable[Event], n: int) -> list[int]:
    """What ``events`` added to (or took from) each seat's store, in points (R2)."""
    change = [0] * n
    for e in events:
        if not e.cards:
            continue
        value = sum(_POINTS[c] for c in e.cards)
        if e.dest.startswith("store:"):
            change[int(e.dest[6:])] += value
        if e.source.startswith("store:"):
            change[int(e.source[6:])] -= value
    return change


def points_by_action(played: TowersState) -> ActionPoints:
    """The points by action of ``played`` (a finished game, or one in progress): its history is
    replayed on a fresh state for the events of every move."""
    state = TowersState.new(played.rules, played.num_players, dealer=played.first_dealer)
    moves: list[PlayedMove] = []
    for seat, move in played.history:
        assert isinstance(move, TowersMove), "a game seen whole, not through a seat's view"
        moves.append((seat, move, state.apply(move)))
    return action_points(played.num_players, moves)


class _Ledger:
    """The running credit of one game: the current round's, the finished rounds' and ``own``."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.rounds: list[dict[str, list[int]]] = []
        self.bonus: list[list[int]] = []
        self.cur = self.empty()
        self.own = self.empty()
        self.win = [0] * n

    def empty(self) -> dict[str, list[int]]:
        return {a: [0] * self.n for a in ACTION_SOURCES}

    def credit(self, kind: str, change: Sequence[int], owner: int | None = None) -> None:
        """``change`` to ``kind``; the seat ``owner`` (None: every seat) made it its own."""
        for s in range(self.n):
            self.cur[kind][s] += change[s]
            if owner is None or s == owner:
                self.own[kind][s] += change[s]

    def round_end(self, events: Sequence[Event], kind: str, actor: int) -> None:
        """A move that ended the round (R12, R13): what it stored before the hands, towers and
        nobility were collected is its group's; the towers are ``tower``, the rest
        ``round_end``."""
        first = next(k for k, e in enumerate(events) if e.kind == "collect")
        self.credit(kind, store_changes(events[:first], self.n), actor)
        collected = events[first:]
        towers = store_changes((e for e in collected if e.source.startswith("tower:")), self.n)
        rest = store_changes((e for e in collected if not e.source.startswith("tower:")), self.n)
        self.credit("tower", towers)
        self.credit("round_end", rest)

    def count(self, data: dict[str, object]) -> None:
        """The count (R13, R28): the points not in the stores, then the round is closed."""
        points, nobility = data["points"], data["nobility_points"]
        tower, bonus = data["tower"], data["tower_bonus"]
        assert isinstance(points, list) and isinstance(nobility, list) and isinstance(bonus, int)
        builder = tower[0] if isinstance(tower, list) else -1
        tower_bonus = [bonus if s == builder else 0 for s in range(self.n)]
        self.credit("tower", tower_bonus)
        self.credit("round_end", nobility)
        self.rounds.append(self.cur)
        self.bonus.append([nobility[s] + tower_bonus[s] for s in range(self.n)])
        self.cur = self.empty()


def action_points(n: int, moves: Iterable[PlayedMove]) -> ActionPoints:
    """The points by action of a game of ``n`` seats from its moves and their events."""
    ledger = _Ledger(n)
    group, opener = "round_end", -1
    bonus_phase = False  # the ♣ takes or dark gives after a tower (R13), until the count
    for seat, move, events in moves:
        if isinstance(move, Deal):
            continue
        actor = opener
        if bonus_phase:
            kind, actor = "tower", seat  # R13: the ♣ takes and dark gives
        elif isinstance(move, Fail):
            kind, actor = "fail", seat
        elif isinstance(move, _FOLLOWERS):
            kind = group
        else:
            kind = group = _OPENERS[type(move)]
            actor = opener = seat
        ended = not bonus_phase and any(
            e.kind == "collect" and e.source.startswith("hand:") for e in events
        )
        if ended:
            ledger.round_end(events, kind, actor)
        else:
            ledger.credit(kind, store_changes(events, n), actor)
        counted = False
        for e in events:
            if e.kind == "round_end" and e.data is not None:
                ledger.count(dict(e.data))
                counted = True
            elif e.kind == "win_bonus" and e.seat is not None and e.data is not None:
                ledger.win[e.seat] += int(e.data["points"])
        bonus_phase = (bonus_phase or ended) and not counted
    game = {a: [sum(r[a][s] for r in ledger.rounds) for s in range(n)] for a in ACTION_SOURCES}
    for s in range(n):
        game["win_bonus"][s] = ledger.win[s]
        ledger.own["win_bonus"][s] += ledger.win[s]
    return ActionPoints(ledger.rounds, ledger.bonus, game, ledger.own)
