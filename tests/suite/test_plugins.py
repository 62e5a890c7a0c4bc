"""The games' plug-ins (issue 22, item 3): every plug-in of every registered game loads and is
of its kind, a bad one is a clear error, and a third game registered by one line in ``GAMES``
(``tests/fake_game.py``: Nim) is in the bot registry, the arena, the environments and
``/api/games`` with its own plug-ins, no other table of games touched."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taverntable import games as registry
from taverntable.bots.registry import bot_names, make_bot
from taverntable.cli import main
from taverntable.engine import play_out
from taverntable.games import all_games, game_names, get_game
from taverntable.plugins import LEVEL_NAMES, PlugIn, PlugInError, bot
from taverntable.plugins.lab import BenchKit
from taverntable.plugins.learning import Learning
from taverntable.plugins.terminal import FrontEnd, front_end

import fake_game
from web_helpers import sqlite_url

GAMES = game_names()


@pytest.mark.parametrize("name", GAMES)
def test_every_plug_in_of_every_game_loads_and_is_of_its_kind(name: str) -> None:
    game = get_game(name)
    for bot_name, plug_in in {**game.bots, **game.cheats}.items():
        cls = plug_in.load()
        assert isinstance(cls, type) and callable(getattr(cls, "choose", None)), bot_name
    assert set(game.levels) == set(LEVEL_NAMES)
    assert all(level in bot_names(name) for level in LEVEL_NAMES)
    adapter = game.search.load()()
    for hook in ("sample", "legal_moves", "step", "playout", "rewards", "root_moves"):
        assert callable(getattr(adapter, hook)), hook
    assert isinstance(game.terminal.load(), FrontEnd)
    kit = game.learning.load()
    assert isinstance(kit, Learning) and kit.layout.size > 0
    if game.arena_fast is not None:
        assert callable(game.arena_fast.load())
    if game.studies is not None:
        studies = game.studies.load()
        assert studies and all(study.family == game.family for study in studies)
    if game.benches is not None:
        benches = game.benches.load()
        assert isinstance(benches, BenchKit) and benches.benches()
        assert {spec.name for spec in benches.searches} <= set(benches.benches())


def test_the_lab_and_the_bench_take_their_studies_and_benches_from_the_registry() -> None:
    """No study or bench of a family is missing from the lab's and ``tavern bench``'s tables,
    and none is there that no registered game declares."""
    from taverntable.bench.command import BENCHES
    from taverntable.lab.core.studies import STUDIES

    declared = {study.name for game in all_games() if game.studies for study in game.studies.load()}
    assert declared == set(STUDIES)
    for game in all_games():
        if game.benches is not None:
            assert set(game.benches.load().benches()) <= set(BENCHES)


def test_a_game_of_a_family_shares_its_plug_ins_and_each_family_has_its_own() -> None:
    """The family's games name the same values (one module each), the families different ones."""
    by_family: dict[str, set[str]] = {}
    for game in all_games():
        by_family.setdefault(game.family, set()).add(game.search.path)
    assert all(len(paths) == 1 for paths in by_family.values()), by_family
    assert len(set.union(*by_family.values())) == len(by_family)


def test_a_bad_plug_in_is_a_plug_in_error_naming_it() -> None:
    with pytest.raises(PlugInError, match=r"no module taverntable\.nowhere"):
        bot("taverntable.nowhere:Bot").load()
    with pytest.raises(PlugInError, match="has no NoSuchBot"):
        bot("taverntable.bots.random_bot:NoSuchBot").load()
    with pytest.raises(PlugInError, match="is not a terminal front end"):
        front_end("taverntable.bots.random_bot:RandomBot").load()
    with pytest.raises(ValueError, match="module:attribute"):
        PlugIn[Any]("taverntable.bots.random_bot", "bot", callable)


def test_a_plug_in_is_imported_when_first_loaded_and_kept() -> None:
    plug_in = bot("taverntable.bots.random_bot:RandomBot")
    assert plug_in.load() is plug_in.load()


# --- a third game -----------------------------------------------------------------------------


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Nim registered the way a third game is: one line in ``GAMES``."""
    monkeypatch.setitem(registry.GAMES, fake_game.NAME, "fake_game:GAME")
    yield fake_game.NAME


def test_a_third_game_is_in_the_bot_registry_by_its_own_plug_ins(nim: str) -> None:
    assert nim in game_names()
    assert bot_names(nim) == ["random", "greedy", "ismcts", "easy", "medium", "hard"]
    assert isinstance(make_bot("medium", nim), fake_game.GreedyBot)
    # Its cheat is the arena's only, like Tonk's.
    assert "cheat-peek" not in bot_names(nim)
    # The hard level searches with the game's own adapter.
    state = get_game(nim).start(get_game(nim).rules(), 2, rng=random.Random(1))
    played = play_out(state, [make_bot("hard", nim), make_bot("easy", nim)], random.Random(2))
    assert state.is_over and not played.capped and sum(state.returns()) == 0


def test_a_third_game_plays_in_the_arena_with_its_fast_path_and_its_cheat(
    nim: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_game.FAST_GAMES.clear()
    fake_game.PeekingBot.peeked.clear()
    assert main(["arena", "--game", nim, "--deals", "4", "--bots", "greedy,greedy"]) == 0
    out = capsys.readouterr().out
    assert "greedy" in out and len(fake_game.FAST_GAMES) == 8  # 4 deals × 2 rotations
    assert main(["arena", "--game", nim, "--deals", "2", "--bots", "cheat-peek,random"]) == 0
    out = capsys.readouterr().out
    assert "CHEATING: cheat-peek" in out and len(fake_game.PeekingBot.peeked) == 4
    assert main(["arena", "--game", nim, "--deals", "1", "--bots", "cheat-drop,random"]) == 2
    assert "cheat-peek" in capsys.readouterr().err  # the game's own cheats, not Tonk's


def test_a_third_game_is_an_environment_with_its_own_learning_kit(nim: str) -> None:
    from open_spiel.python.algorithms.get_all_states import get_all_states

    from taverntable.envs.observation import encoder_for
    from taverntable.envs.openspiel_game import load, register
    from taverntable.envs.pettingzoo_env import env

    assert encoder_for(nim).size == fake_game.LEARNING.layout.size
    assert "tavern_nim" in register()
    spiel = load(nim, players=2, stones=5)
    assert spiel.max_chance_outcomes() == fake_game.EXTRA
    assert spiel.get_type().utility.name == "ZERO_SUM"
    states = get_all_states(spiel, include_chance_states=True, to_string=str)
    assert len(states) > 10
    aec = env(nim, players=2)
    aec.reset(seed=3)
    steps = 0
    for _agent in aec.agent_iter():
        observation, _reward, done, truncated, _ = aec.last()
        assert observation["observation"].shape == (fake_game.LEARNING.layout.size,)
        action = None if done or truncated else int(observation["action_mask"].nonzero()[0][0])
        aec.step(action)
        steps += 1
    assert steps > 0


def test_a_third_game_is_offered_by_the_lobby_with_its_keys_and_rules_page(
    nim: str, tmp_path: Path
) -> None:
    from fastapi.testclient import TestClient

    from taverntable.web.app import create_app

    with TestClient(create_app(sqlite_url(tmp_path))) as client:
        offered = {g["name"]: g for g in client.get("/api/games").json()}
    assert offered[nim] | {"options": None, "choices": None} == {
        "name": nim,
        "title": "Nim",
        "family": nim,
        "title_key": "game.nim",
        "about_key": "game.nim.about",
        "rules": nim,
        "min_players": 2,
        "max_players": 4,
        "unit": "stakes",
        "length": "game",
        "options": None,
        "choices": None,
        "bots": ["random", "greedy", "ismcts", "easy", "medium", "hard"],
    }
    assert offered[nim]["choices"] == {"stones": "int"}
    assert set(GAMES) < set(offered)


def test_the_third_game_s_terminal_plug_in_is_refused_by_its_kind(nim: str) -> None:
    """Nim names no real front end: loading it says so instead of failing later."""
    with pytest.raises(PlugInError, match="not a terminal front end"):
        get_game(nim).terminal.load()


def test_a_plug_in_pickles_by_its_path_not_by_what_it_loaded() -> None:
    """A game sent to a worker process carries its plug-ins' paths, not their loaded values."""
    import pickle

    game = get_game(GAMES[0])
    game.terminal.load()
    again = pickle.loads(pickle.dumps(game.terminal))
    assert again == game.terminal and again._loaded == []
    assert again.load() is game.terminal.load()
