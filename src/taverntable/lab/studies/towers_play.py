"""Study ``towers-play``, the games: whole Three Towers games played by bots (R1–R15).

A row keeps what the balance questions of the play-testers need (the rules text,
``games/three_towers/texts/en/three-towers.md``, Part A): how each round ended, towers and the
150 bonus, points by source (card kind) and by action (``towers_actions``: trades, towers, raids,
curses, redeals, the hands at the round end, per seat), the actions each seat took (trades,
builds, raids, curses, redeals, jokers), who traded first, and each seat's margin.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from taverntable.bots import make_bot
from taverntable.bots.three_towers.fast.play_out import fast_table, play_out_heuristic
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.games.three_towers import TowersState
from taverntable.games.three_towers.cards import IS_GOODS, IS_PENALTY, IS_TOWER_ACE, VALUE, suit
from taverntable.games.three_towers.scoring import DIAMOND_BONUS, DIAMONDS, HEARTS, WIN_BONUS
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.studies import GameOutput
from taverntable.records import dump_record

from .towers_actions import PlayedMove, action_points
from .towers_score import margin

DEALER = 0  # the first round's dealer; seat 1 moves first (R3)
# Moves counted per seat: the player's own decisions (chance steps and count picks left out).
ACTIONS = (
    "Trade",
    "TradeJoker",
    "Build",
    "Add",
    "Raid",
    "Curse",
    "Defend",
    "Yield",
    "AnswerJoker",
    "Fail",
    "RedealJoker",
    "RedealWarriors",
    "RedealJacks",
    "RedealQueens",
    "RedealKings",
)
SOURCES = (
    "goods",
    "tower_aces",
    "penalty",
    "spade_figures",
    "hearts_bonus",
    "diamond_bonus",
    "win_bonus",
)


def source_of(card: int) -> str | None:
    """Which kind of points a card in a store scores (R2); None for the 0-point cards."""
    if IS_GOODS[card]:
        return "goods"
    if IS_TOWER_ACE[card]:
        return "tower_aces"
    if IS_PENALTY[card]:
        return "penalty"
    return "spade_figures" if VALUE[card] < 0 else None


def play(config: StudyConfig, index: int, seed: int) -> GameOutput:
    """Play one game; the row holds its rounds, sources of points, actions and margins."""
    preset, players = config.cell(index)
    game = get_game(preset)
    rules = game.rules(config.options)
    names = config.seat_bots(players)
    bots = [make_bot(name, preset) for name in names]
    rng = random.Random(seed)
    state = game.start(rules, players, rng=rng, dealer=DEALER)
    assert isinstance(state, TowersState)
    moves: list[PlayedMove] = []  # every move with its events, for the points by action

    def keep(seat: int, move: Any, events: Any) -> None:
        moves.append((seat, move, events))

    # All-heuristic tables: the kernel decides, the engine replays
    # (``bots.three_towers.fast.play_out``).
    if (styles := fast_table(state, bots)) is not None:
        played = play_out_heuristic(
            state, rng, max_moves=game.max_moves, on_move=keep, checked=False, styles=styles
        )
    else:
        played = play_out(state, bots, rng, max_moves=game.max_moves, on_move=keep)
    result = state.result
    if played.capped or result is None:
        return {"preset": preset, "players": players, "end": "stalled"}, []
    sources: Counter[str] = Counter()
    round_ends = []
    for r in result.rounds:
        for store in r.stores:
            for card in store:
                kind = source_of(card)
                if kind is not None:
                    sources[kind] += VALUE[card]
        tower_suit = suit(r.tower) if r.builder >= 0 else -1
        round_ends.append([r.builder, tower_suit])
        if tower_suit == HEARTS:
            sources["hearts_bonus"] += r.points[r.builder] // 2
        elif tower_suit == DIAMONDS:
            sources["diamond_bonus"] += DIAMOND_BONUS
    if result.end == "towers":
        sources["win_bonus"] += WIN_BONUS
    actions = {name: [0] * players for name in ACTIONS}
    first_trade = -1
    for seat, move in state.history:
        name = type(move).__name__
        if name in actions:
            actions[name][seat] += 1
            if first_trade < 0 and name in ("Trade", "TradeJoker"):
                first_trade = seat
    by_action = action_points(players, moves)
    row: dict[str, Any] = {
        "preset": preset,
        "players": players,
        "end": result.end,
        "rounds": len(result.rounds),
        "scores": list(result.scores),
        "towers": list(result.towers),
        "winners": list(result.winners),
        "margins": [margin(result, s, rules.teams) for s in range(players)],
        "round_ends": round_ends,
        "sources": {k: sources[k] for k in SOURCES},
        "action_points": by_action.game,
        "action_points_own": by_action.own,
        "actions": actions,
        "first_trade": first_trade,
    }
    return row, [dump_record(state, names)] if config.records else []


def position(seat: int, players: int) -> int:
    """1 for the first to move in the first round … ``players`` for its dealer."""
    return (seat - DEALER - 1) % players + 1
