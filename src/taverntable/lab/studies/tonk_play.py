"""Study ``tonk-play``, the games: whole deals played by bots, with a drop tried at every turn.

At the start of every turn where a drop is legal (T6), the state is cloned and the clone drops:
the drop's outcome for that hand total, turn and table is recorded, and the real deal goes on
with the bot's own choice. So the drop figures come from the positions the bots' play produces,
and the deal's length, end and payments are those of the bots' play.
"""

from __future__ import annotations

import random
from typing import Any

from taverntable.bots import make_bot
from taverntable.bots.tonk.fast.deals import FastSeat, fast_table, play_deal, replay
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.games.tonk import Drop, TonkState
from taverntable.games.tonk.movegen import START
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.studies import GameOutput
from taverntable.records import dump_record

DROP = Drop()
DEALER = 0  # seat 1 acts first; positions are counted from the dealer (T2)


class DropTrials:
    """At the start of every turn (T6), a drop tried on a copy of the deal: the turn of that
    player, the hand total, whether it won and the gain, one entry per trial."""

    def __init__(self, state: TonkState, cap: int) -> None:
        self.state = state
        self.cap = cap  # no trial once the deal has made this many moves: it is stopped there
        self.turns = [0] * state.num_players
        self.drops: list[list[int]] = []  # [turn of that player, hand total, succeeded, gain]
        self.try_turn()

    def after_move(self, seat: int, move: Any, events: Any) -> None:
        """``play_out``'s ``on_move``: the next seat's decision may start a turn."""
        self.try_turn()

    def try_turn(self) -> None:
        state = self.state
        seat = state.current_seat
        if seat is None or state.phase != START or len(state.history) >= self.cap:
            return
        self.turns[seat] += 1
        if DROP in state.legal_moves():
            trial = state.clone()
            trial.apply(DROP)
            assert trial.result is not None
            self.drops.append(
                [
                    self.turns[seat],
                    state.total(seat),
                    int(trial.result.end == "drop"),
                    trial.result.net[seat],
                ]
            )


def play(config: StudyConfig, index: int, seed: int) -> GameOutput:
    """Play one deal; the row holds its end, net by seat, length and every trial drop. Deals of
    heuristic and random bots are played in the kernel where it is compiled (``play_fast``)."""
    preset, players = config.cell(index)
    game = get_game(preset)
    names = config.seat_bots(players)
    bots = [make_bot(name, preset) for name in names]
    rules = game.rules(config.options)
    seats = fast_table(rules, bots)
    if seats is not None:
        return play_fast(config, preset, names, seats, seed)
    rng = random.Random(seed)
    state = game.start(rules, players, rng=rng, dealer=DEALER)
    assert isinstance(state, TonkState)
    trials = DropTrials(state, game.max_moves)
    # pagat's pile-taking without a decline (T11) can go on for ever: the game's cap stops it.
    stalled = play_out(state, bots, rng, max_moves=game.max_moves, on_move=trials.after_move).capped
    result = state.result
    row = {
        "preset": preset,
        "players": players,
        "end": "stalled" if stalled or result is None else result.end,
        "winners": [] if result is None else list(result.winners),
        "net": [0] * players if result is None else list(result.net),
        "moves": len(state.history),
        "rounds": max(trials.turns),
        "drops": trials.drops,
    }
    records = [dump_record(state, names)] if config.records and not stalled else []
    return row, records


def position(seat: int, players: int) -> int:
    """1 for the first to act … ``players`` for the dealer."""
    return (seat - DEALER - 1) % players + 1


def play_fast(
    config: StudyConfig, preset: str, names: list[str], seats: list[FastSeat], seed: int
) -> GameOutput:
    """``play`` on the fast path (``bots.tonk.fast.deals``): the same deal, bots' moves and trial
    drops from the same seed, so the same row; a record is written from the engine's replay of
    the moves."""
    game = get_game(preset)
    rules = game.rules(config.options)
    players = len(seats)
    # One generator of the seed deals and draws the bots' moves, as in ``play``.
    deal = play_deal(
        rules, players, seats, deal_rng=seed, dealer=DEALER, max_moves=game.max_moves, trials=True
    )
    row = {
        "preset": preset,
        "players": players,
        "end": "stalled" if deal.capped or deal.end is None else deal.end,
        "winners": list(deal.winners),
        "net": list(deal.net) if deal.net else [0] * players,
        "moves": deal.moves,
        "rounds": max(deal.turns),
        "drops": [list(trial) for trial in deal.trials],
    }
    records = []
    if config.records and not deal.capped:
        records.append(dump_record(replay(rules, deal, players, seed), names))
    return row, records
