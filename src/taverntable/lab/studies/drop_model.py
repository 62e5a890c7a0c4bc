"""Study ``drop-model``: every drop-or-not decision of bot play, with the drop model's features.

At the start of every turn where a drop is legal (T6) and not hopeless (the heuristic bot's
bound: a total above four average cards), the deciding seat's view gives one feature row per
other player (``bots/tonk/drop_model.py``: public facts only), and a copy of the deal drops: the
engine's result on the true hands says which players caught the drop and what it paid. The real
deal goes on with the bot's own choice, so the decisions are those the bots' play reaches.
``tavern lab fit-drop-model`` fits the model on these rows.
"""

from __future__ import annotations

import random
from typing import Any

from taverntable.bots import make_bot
from taverntable.bots.tonk.drop_model import opponent_features
from taverntable.bots.tonk.fast.deals import fast_table
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.games.tonk import Drop, TonkState
from taverntable.games.tonk.movegen import START
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.studies import GameOutput
from taverntable.lab.studies.drop_decisions import drop_decisions

DROP = Drop()
DEALER = 0
# Features are stored rounded: the fit does not need more, and the rows stay small.
DIGITS = 4


def hopeless(state: TonkState, seat: int) -> bool:
    """The heuristic bot's bound (``drop_value``): four average cards or more never drop."""
    values = state.rules.card_values
    return state.total(seat) > 4 * sum(values[1:]) / 13


class DropDecisions:
    """``play_out``'s ``on_move``: records each drop decision (module docstring)."""

    def __init__(self, state: TonkState, cap: int) -> None:
        self.state = state
        self.cap = cap
        self.turns = [0] * state.num_players
        # [seat, turn of that seat, own total, drop's net, [[*features, caught], ...]]
        self.decisions: list[list[Any]] = []
        self.look()

    def after_move(self, seat: int, move: Any, events: Any) -> None:
        self.look()

    def look(self) -> None:
        state = self.state
        seat = state.current_seat
        if seat is None or state.phase != START or len(state.history) >= self.cap:
            return
        self.turns[seat] += 1
        if DROP not in state.legal_moves() or hopeless(state, seat):
            return
        view = state.view(seat)
        trial = state.clone()
        trial.apply(DROP)
        result = trial.result
        assert result is not None
        catchers = {payee for payer, payee, _ in result.payments if payer == seat}
        if result.end == "drop":
            catchers = set()
        rows = [
            [*(round(x, DIGITS) for x in opponent_features(view, other)), int(other in catchers)]
            for other in range(state.num_players)
            if other != seat
        ]
        self.decisions.append(
            [seat, self.turns[seat], view.total(), result.net[seat] // state.stake, rows]
        )


def play(config: StudyConfig, index: int, seed: int) -> GameOutput:
    """Play one deal; the row holds its preset, players, end and every drop decision."""
    preset, players = config.cell(index)
    game = get_game(preset)
    names = config.seat_bots(players)
    bots = [make_bot(name, preset) for name in names]
    rng = random.Random(seed)
    rules = game.rules(config.options)
    seats = fast_table(rules, bots)
    if seats is not None:
        # Heuristic and random seats: the kernel plays the deal from the same seed and reads
        # each decision off its own state (``drop_decisions.py``): the same rows.
        deal = drop_decisions(
            rules, players, seats, seed=seed, dealer=DEALER, max_moves=game.max_moves
        )
        row = {
            "preset": preset,
            "players": players,
            "end": deal.end or "stalled",
            "decisions": deal.rows(DIGITS),
        }
        return row, []
    state = game.start(rules, players, rng=rng, dealer=DEALER)
    assert isinstance(state, TonkState)
    decisions = DropDecisions(state, game.max_moves)
    stalled = play_out(
        state, bots, rng, max_moves=game.max_moves, on_move=decisions.after_move
    ).capped
    result = state.result
    row = {
        "preset": preset,
        "players": players,
        "end": "stalled" if stalled or result is None else result.end,
        "decisions": decisions.decisions,
    }
    return row, []
