"""Study ``tonk-play``, the games: whole deals played by bots, with a drop tried at every turn.

At the start of every turn where a drop is legal (T6), the state is cloned and the clone drops:
the drop's outcome for that hand total, turn and table is recorded, and the real deal goes on
with the bot's own choice. So the drop figures come from the positions the bots' play produces,
and the deal's length, end and payments are those of the bots' play.
"""

from __future__ import annotations

import random

from taverntable.bots import make_bot
from taverntable.bots.runner import MAX_MOVES
from taverntable.games.tonk import Drop, TonkState, rules_from
from taverntable.games.tonk.movegen import START
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.studies import GameOutput
from taverntable.records import dump_record

DROP = Drop()
DEALER = 0  # seat 1 acts first; positions are counted from the dealer (T2)


def play(config: StudyConfig, index: int, seed: int) -> GameOutput:
    """Play one deal; the row holds its end, net by seat, length and every trial drop."""
    preset, players = config.cell(index)
    rules = rules_from(preset, **config.options)
    names = config.seat_bots(players)
    bots = [make_bot(name, preset) for name in names]
    rng = random.Random(seed)
    state = TonkState.deal(rules, players, rng=rng, dealer=DEALER)
    turns = [0] * players
    drops: list[list[int]] = []  # [turn of that player, hand total, succeeded 0/1, gain]
    stalled = False
    while (seat := state.current_seat) is not None:
        if len(state.history) >= MAX_MOVES:
            stalled = True  # pagat's pile-taking without a decline (T11): see bots.runner
            break
        if state.phase == START:
            turns[seat] += 1
            if DROP in state.legal_moves():
                trial = state.clone()
                trial.apply(DROP)
                assert trial.result is not None
                drops.append([turns[seat], state.total(seat), int(trial.result.end == "drop"),
                              trial.result.net[seat]])
        state.apply(bots[seat].choose(state.view(seat), rng))
    result = state.result
    row = {
        "preset": preset,
        "players": players,
        "end": "stalled" if stalled or result is None else result.end,
        "winners": [] if result is None else list(result.winners),
        "net": [0] * players if result is None else list(result.net),
        "moves": len(state.history),
        "rounds": max(turns),
        "drops": drops,
    }
    records = [dump_record(state, names)] if config.records and not stalled else []
    return row, records


def position(seat: int, players: int) -> int:
    """1 for the first to act … ``players`` for the dealer."""
    return (seat - DEALER - 1) % players + 1
