"""Fuzzed round trips: random legal play, dumped to JSON, replays to the same history and result;
``tavern replay --json`` prints each input record plus its result."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from taverntable import cli
from taverntable.games.tonk import PRESETS, Draw, Drop, Hit, Spread, TonkMove, TonkState
from taverntable.games.tonk.rules import TonkRules
from taverntable.records import dump_record, replay_record

GAMES = 1000
# Options a house may change, with their values (T12); a few games play with some changed.
OPTIONS: dict[str, tuple[Any, ...]] = {
    "face_values": ("10/10/10", "11/12/13"),
    "hit_sets": (True, False),
    "hit_lock": (True, False),
    "discard": ("mandatory", "optional_after_spread"),
    "tonk_out_double": (True, False),
    "stock_end": ("last_draw", "empty"),
}


def random_rules(preset: str, rng: random.Random) -> TonkRules:
    """The preset, or in one game of four the preset with random options."""
    rules = PRESETS[preset]
    if rng.random() < 0.25:
        rules = rules.with_options(
            **{k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.5}
        )
    return rules


def random_game(preset: str, rng: random.Random) -> tuple[TonkState, list[str]]:
    """A random deal played by random legal moves; one game in ten stops early (in progress)."""
    n = rng.randint(2, 10)
    state = TonkState.deal(
        random_rules(preset, rng), n, rng=rng, dealer=rng.randrange(n), stake=rng.randint(1, 3)
    )
    stop = rng.randint(0, 40) if rng.random() < 0.1 else 10_000
    while not state.is_over and len(state.history) < stop:
        state.apply(random_move(state, rng))
    return state, [f"Player {i}" for i in range(n)]


def random_move(state: TonkState, rng: random.Random) -> TonkMove:
    """A random legal move, biased so that deals last: drops are rare, spreads and hits common."""
    moves = state.legal_moves()
    if isinstance(moves[0], Drop | Draw):
        drops = [m for m in moves if isinstance(m, Drop)]
        if drops and rng.random() < 0.04:
            return drops[0]
        return rng.choice([m for m in moves if not isinstance(m, Drop)] or moves)
    laying = [m for m in moves if isinstance(m, Spread | Hit)]
    if laying and rng.random() < 0.7:
        return rng.choice(laying)
    return rng.choice([m for m in moves if not isinstance(m, Spread | Hit)] or moves)


@pytest.fixture(scope="module", params=sorted(PRESETS))
def games(request: pytest.FixtureRequest) -> list[tuple[TonkState, dict[str, Any]]]:
    """GAMES random games of one preset with their records after a JSON round trip."""
    rng = random.Random(f"records-{request.param}")
    out = []
    for _ in range(GAMES):
        state, players = random_game(request.param, rng)
        out.append((state, json.loads(json.dumps(dump_record(state, players)))))
    return out


@pytest.mark.slow
def test_dump_json_replay_reproduces_history_and_result(
    games: list[tuple[TonkState, dict[str, Any]]],
) -> None:
    ends = set()
    for state, record in games:
        replayed = replay_record(record)
        assert replayed.state.history == state.history
        assert replayed.state.drawn == state.drawn
        expected = None if state.result is None else state.result.to_json()
        assert replayed.result == expected
        assert replayed.record == record  # a dumped record already carries its result
        assert sum(expected["net"]) == 0 if expected else "result" not in record
        ends.add(expected["end"] if expected else None)
    # The fuzz reaches every way a deal ends by play, and games in progress.
    assert {None, "drop", "burned", "out", "stock"} <= ends


@pytest.mark.slow
def test_replay_json_prints_each_record_plus_its_result(
    games: list[tuple[TonkState, dict[str, Any]]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cli, "COMMANDS", {"replay": "taverntable.records.command"})
    inputs = []
    for _, record in games[:300]:
        stripped = {k: v for k, v in record.items() if k != "result"}
        inputs.append(stripped)
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in inputs), encoding="utf-8")
    assert cli.main(["replay", "--json", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(inputs)
    for line, given, (state, _) in zip(out, inputs, games, strict=False):
        printed = json.loads(line)
        if state.result is None:
            assert printed == given
        else:
            assert printed == {**given, "result": state.result.to_json()}
            assert list(printed) == [*given, "result"]
