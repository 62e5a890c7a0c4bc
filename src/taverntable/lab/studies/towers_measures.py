"""What the designer's questions need from one finished Three Towers game (study ``designer``).

The play-testers' seven points (rules text, Part A, last paragraph) ask about things a game's
result does not hold: how long a tower takes, how long a seat waits for an ace, where the ♠
figures go, whether a Warlock pays, the jokers left in hand, the ♠ cards a seat has to put out,
the game's length in turns and what a two-card answer (R5 c) gives away. ``measure`` replays
the game's history on a fresh state (the engine's own transition, so the events are the ones
``towers_actions`` credits) and reads them off the state before and the events of every move.

A *turn* is a decision of the mover in the ``turn`` phase (A1-A4, or a pass, R11); answers,
defences and bonus choices are not turns.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from taverntable.engine import Event
from taverntable.games.three_towers import TowersMove, TowersState
from taverntable.games.three_towers.cards import (
    IS_TOWER_ACE,
    IS_WARRIOR,
    JOKER,
    SPADES,
    TEXT,
    THIEF,
    VALUE,
    WARLOCK,
    WITCH,
    suit,
)
from taverntable.games.three_towers.moves import (
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Deal,
    Defend,
    Fail,
    Give,
    Take,
    Yield,
)
from taverntable.games.three_towers.phases import TURN

from .towers_actions import store_changes

FIGURES = {TEXT[THIEF]: "thief", TEXT[WITCH]: "witch", TEXT[WARLOCK]: "warlock"}
CODE = {TEXT[c]: c for c in range(len(TEXT))}
SPADE_TEXTS = frozenset(t for t, c in CODE.items() if c != JOKER and suit(c) == SPADES)
HELD_TURNS = 60  # turns of a round over which the ♠ figures in hand are followed
# The kind of action a turn's move opens (its followers belong to it).
OPENED = {
    "Trade": "trade",
    "TradeJoker": "trade",
    "Build": "build",
    "Add": "add",
    "Raid": "raid",
    "Curse": "curse",
    "RedealJoker": "redeal",
    "RedealWarriors": "redeal",
    "RedealJacks": "redeal",
    "RedealQueens": "redeal",
    "RedealKings": "redeal",
    "Pass": "pass",
}
TURN_KINDS = ("trade", "build", "add", "raid", "curse", "redeal", "pass")


def _seat_of(zone: str) -> int:
    return int(zone.partition(":")[2]) if ":" in zone else -1


class _Curse:
    """One curse being resolved: its figure, owner, and the store changes it caused."""

    def __init__(self, figure: str, owner: int, n: int) -> None:
        self.figure, self.owner = figure, owner
        self.change = [0] * n
        self.through: bool | None = None


def measure(played: TowersState) -> dict[str, Any]:
    """The designer's measurements of a finished game (see the module)."""
    n = played.num_players
    state = TowersState.new(played.rules, n, dealer=played.first_dealer)
    turns = [0] * n  # every turn of each seat
    waiting = [0] * n  # turns with no tower under way and no ♥♦♣ ace in hand
    towerless = [0] * n  # turns with no tower under way
    kinds = {k: [0] * n for k in TURN_KINDS}
    round_turns: list[int] = []  # turns of every round
    towers: list[list[int]] = []  # per finished tower: builder's turns building, round turns
    started = [-1] * n  # the seat's turn count when its tower under way was started
    at_end = started  # ``started`` as the round ended
    this_round = 0
    held_sum = [0.0] * HELD_TURNS  # ♠ figures per hand at the t-th turn of a round, summed
    held_rounds = [0] * HELD_TURNS
    routes: dict[str, Counter[str]] = {f: Counter() for f in FIGURES.values()}
    curses: list[list[Any]] = []  # [figure, through, owner's margin change]
    curse: _Curse | None = None
    jokers_left: list[int] = []  # jokers in the hands at each round's end
    figures_left: list[int] = []  # ♠ figures in the hands at each round's end
    nobility_left: list[int] = []  # warriors in the nobilities at each round's end
    spades_out = [0] * n  # ♠ cards a seat put out of its hand (trades, curses, redeals)
    spades_own = [0] * n  # ♠ cards from a seat's hand into its own store (R6, the count)
    answers = Counter[str]()
    group, actor = "deal", -1
    for seat, move in played.history:
        assert isinstance(move, TowersMove), "a game seen whole"
        if isinstance(move, Deal):
            this_round = 0
        if state.phase == TURN and seat >= 0:
            _turn(state, seat, turns, waiting, towerless, this_round, held_sum, held_rounds)
            kind = OPENED.get(type(move).__name__, "pass")
            kinds[kind][seat] += 1
            if isinstance(move, Build):
                started[seat] = turns[seat]
            this_round += 1
            group, actor = kind, seat
        elif isinstance(move, Fail):
            group, actor = "fail", seat
        elif isinstance(move, Take | Give):
            group, actor = "tower bonus", seat
        if isinstance(move, Answer):
            _answer(state, move, answers)
        elif isinstance(move, AnswerJoker):
            answers["joker"] += 1
        elif isinstance(move, Fail):
            answers["fail"] += 1
        if isinstance(move, Curse):
            curse = _Curse(FIGURES[TEXT[move.card]], seat, n)
        elif curse is not None and isinstance(move, Defend | Yield) and curse.through is None:
            curse.through = isinstance(move, Yield)
        # The history was played by the engine already: checking each move again would list the
        # legal moves of every state, a third of a heuristic game's replay, for nothing.
        events = state.apply_known(move)
        if curse is not None:
            for k, c in enumerate(store_changes(events, n)):
                curse.change[k] += c
        ended = any(e.kind == "collect" for e in events)
        if ended:
            _round_end(events, jokers_left, figures_left, nobility_left)
            round_turns.append(this_round)
            at_end, started = started, [-1] * n
        for e in events:  # the count comes after the ♣ takes and dark gives (R13)
            tower = e.data.get("tower") if e.kind == "round_end" and e.data else None
            if isinstance(tower, list) and at_end[tower[0]] >= 0:
                b = tower[0]
                towers.append([b, turns[b] - at_end[b] + 1, round_turns[-1]])
        _figure_routes(events, group, actor, routes)
        _spades(events, spades_out, spades_own)
        next_curse = curse is not None and curse.through is not None and state.phase == TURN
        if next_curse or ended:
            if curse is not None and curse.through is not None:
                curses.append([curse.figure, curse.through, _margin(curse.change, curse.owner)])
            curse = None
    return {
        "turns": turns,
        "round_turns": round_turns,
        "waiting_turns": waiting,
        "towerless_turns": towerless,
        "turn_kinds": kinds,
        "towers_built": [t[1:] for t in towers],
        "tower_builders": [t[0] for t in towers],
        "figures_held": [held_sum, held_rounds],
        "figure_routes": {f: dict(c) for f, c in routes.items()},
        "curses": curses,
        "jokers_left": jokers_left,
        "figures_left": figures_left,
        "nobility_left": nobility_left,
        "spades_out": spades_out,
        "spades_own": spades_own,
        "answers": dict(answers),
    }


def _turn(
    state: TowersState,
    seat: int,
    turns: list[int],
    waiting: list[int],
    towerless: list[int],
    this_round: int,
    held_sum: list[float],
    held_rounds: list[int],
) -> None:
    """Count a turn of ``seat`` in ``state`` (before its move)."""
    turns[seat] += 1
    if not state.towers[seat]:
        towerless[seat] += 1
        if not any(IS_TOWER_ACE[c] for c in state.hands[seat]):
            waiting[seat] += 1
    if this_round < HELD_TURNS:
        n = state.num_players
        figures = sum(1 for h in state.hands for c in h if c in (THIEF, WITCH, WARLOCK))
        held_sum[this_round] += figures / n
        held_rounds[this_round] += 1


def _answer(state: TowersState, move: Answer, answers: Counter[str]) -> None:
    """R5: one goods card (a) or two plain cards (c); for (c), what it gave and whether the seat
    could have answered without giving an ace or a warrior."""
    if len(move.cards) == 1:
        answers["suit"] += 1
        return
    answers["pair"] += 1
    ace = any(IS_TOWER_ACE[c] for c in move.cards)
    warrior = any(IS_WARRIOR[c] for c in move.cards)
    if not (ace or warrior):
        return
    answers["pair_ace"] += ace
    answers["pair_warrior"] += warrior
    answers["pair_ace_points"] += sum(VALUE[c] for c in move.cards if IS_TOWER_ACE[c])
    answers["pair_warriors"] += sum(1 for c in move.cards if IS_WARRIOR[c])

    def dear(m: TowersMove) -> bool:
        if isinstance(m, AnswerJoker):
            return False
        if not isinstance(m, Answer):
            return True
        return any(IS_TOWER_ACE[c] or IS_WARRIOR[c] for c in m.cards)

    if all(dear(m) for m in state.legal_moves()):
        answers["pair_forced"] += 1


def _round_end(
    events: Sequence[Event], jokers: list[int], figures: list[int], nobility: list[int]
) -> None:
    """What the round's end collects: jokers and ♠ figures still in the hands, and the warriors
    still in the nobilities (R19; under R28 they score)."""
    nobility.append(
        sum(len(e.cards) for e in events if e.kind == "collect" and e.source.startswith("nob"))
    )
    hands = [e for e in events if e.kind == "collect" and e.source.startswith("hand:")]
    jokers.append(sum(e.cards.count(TEXT[JOKER]) for e in hands))
    figures.append(sum(1 for e in hands for c in e.cards if c in FIGURES))


def _figure_routes(
    events: Sequence[Event], group: str, actor: int, routes: dict[str, Counter[str]]
) -> None:
    """Where each ♠ figure went into a store: by the kind of action, and whose store (``own``:
    the acting seat's, or the hand's owner at the count)."""
    for e in events:
        if not e.dest.startswith("store:"):
            continue
        for c in e.cards:
            if c not in FIGURES:
                continue
            if e.kind == "collect":
                route = "held to the count"
            else:
                whose = "own" if _seat_of(e.dest) == actor else "other"
                route = f"{group}, {whose}"
            routes[FIGURES[c]][route] += 1


def _spades(events: Sequence[Event], out: list[int], own: list[int]) -> None:
    for e in events:
        if not e.source.startswith("hand:") or e.kind == "collect":
            continue
        k = sum(1 for c in e.cards if c in SPADE_TEXTS)
        if not k:
            continue
        seat = _seat_of(e.source)
        if e.dest == f"store:{seat}":
            own[seat] += k
        else:
            out[seat] += k


def _margin(change: Sequence[int], seat: int) -> float:
    """``seat``'s change minus the mean change of the others."""
    others = [c for s, c in enumerate(change) if s != seat]
    return change[seat] - sum(others) / len(others)
