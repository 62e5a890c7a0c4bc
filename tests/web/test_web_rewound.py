"""A move whose write fails did not happen: the table goes back to the state before it
(issue 24), now by replaying the deal's own record without that move (``tables.rewound``)
instead of a copy made before every move (issue 23, sixth pass). Held equal to that copy at
every step of random deals of every game, chance steps included."""

from __future__ import annotations

import random

import pytest

from taverntable.engine import CHANCE, SPECTATOR
from taverntable.games import game_names, get_game
from taverntable.records import dump_record
from taverntable.web.tables import rewound


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_rewound_state_is_the_state_before_the_move(name: str, players: int) -> None:
    game = get_game(name)
    rng = random.Random(f"{name}-{players}")
    names = [f"P{k}" for k in range(players)]
    checked = 0
    for _ in range(8):
        state = game.start(game.rules(), players, rng=rng, dealer=rng.randrange(players))
        for _ in range(400):
            if state.is_over:
                break
            before = state.clone()
            number = len(state.history)
            seat = state.current_seat
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_moves()
                state.apply(legal[rng.randrange(len(legal))])
            # Every early move, and a few late ones (each check replays the deal so far).
            if number > 40 and rng.random() > 0.03:
                continue
            back = rewound(state, names, number)
            assert dump_record(back, names) == dump_record(before, names)
            for who in [SPECTATOR, *range(players)]:
                assert back.view(who).to_json() == before.view(who).to_json()
            checked += 1
    assert checked > 20
