"""Research bots in the arena: OpenSpiel's ISMCTS and random bot (``envs/openspiel_bots.py``)
and a trained policy (``envs/learned_bot.py``), built from arena specs like any bot."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from taverntable.bots.registry import RESEARCH, bot_names
from taverntable.cli import main
from taverntable.engine import CHANCE
from taverntable.envs.learned_bot import LearnedBot
from taverntable.envs.observation import encoder_for
from taverntable.envs.openspiel_bots import OpenSpielIsmctsBot, spiel_state
from taverntable.extras import install_hint
from taverntable.games import get_game
from taverntable.lab.arena.bots import build_bot


def arena_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["arena", "--json", *args]) == 0
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


def test_the_arena_plays_openspiel_bots_in_every_family(capsys: pytest.CaptureFixture[str]) -> None:
    tonk = arena_json(
        capsys,
        "--game",
        "tor",
        "--players",
        "3",
        "--deals",
        "2",
        "--bots",
        "openspiel-ismcts:simulations=20,openspiel-random,heuristic",
    )
    towers = arena_json(
        capsys,
        "--game",
        "three-towers",
        "--rule",
        "max_rounds=1",
        "--deals",
        "1",
        "--bots",
        "openspiel-ismcts:simulations=5,random",
    )
    for report, games in ((tonk, 6), (towers, 2)):
        bots = report["bots"]
        assert isinstance(bots, dict)
        assert all(b["games"] == games for b in bots.values())


def test_openspiel_ismcts_decisions_replay_from_the_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = (
        "--game",
        "tonk",
        "--players",
        "2",
        "--deals",
        "2",
        "--seed",
        "4",
        "--bots",
        "openspiel-ismcts:simulations=30,heuristic",
    )
    one, two = arena_json(capsys, *args), arena_json(capsys, *args)
    one.pop("seconds")
    two.pop("seconds")
    assert one == two


def test_the_bot_plays_a_legal_move_from_the_view_alone() -> None:
    game = get_game("three-towers")
    rng = random.Random(2)
    state = game.start(game.rules({"max_rounds": 1}), 3, rng=rng)
    bot = OpenSpielIsmctsBot(simulations=10)
    for _ in range(40):
        if state.is_over:
            break
        if state.current_seat == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        view = state.view(state.current_seat)
        move = bot.choose(view, rng)
        assert move in view.legal_moves
        state.apply(move)


def test_the_openspiel_state_of_a_view_is_a_world_the_view_cannot_tell_apart() -> None:
    game = get_game("pagat")
    state = game.start(game.rules(), 4, rng=random.Random(1), dealer=2)
    view = state.view(state.current_seat)
    spiel = spiel_state(view, random.Random(5))
    seat = view.seat
    assert spiel.current_player() == seat
    assert spiel.information_state_string(seat) == spiel_state(
        view, random.Random(6)
    ).information_state_string(seat)
    assert json.loads(spiel.information_state_string(seat)) == view.to_json()


def test_exploration_defaults_to_the_scale_of_a_games_results() -> None:
    bot = OpenSpielIsmctsBot()
    assert bot.exploration("tonk") == 2.0  # stakes
    assert bot.exploration("three-towers") == 200.0  # points: ~100 a round
    assert OpenSpielIsmctsBot(uct_c=0.5).exploration("three-towers") == 0.5


def write_weights(path: Path, game: str, seed: int = 0) -> None:
    """Small random weights of the shape ``learned`` reads."""
    r = np.random.default_rng(seed)
    size = encoder_for(game).size
    actions = get_game(game).actions.size
    np.savez(
        path,
        game=np.array(game),
        w0=r.normal(size=(size, 8)),
        b0=np.zeros(8),
        embed=r.normal(size=(actions, 8)),
        bias=np.zeros(actions),
    )


def test_a_learned_policy_plays_in_the_arena(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weights = tmp_path / "policy.npz"
    write_weights(weights, "three-towers")
    report = arena_json(
        capsys,
        "--game",
        "three-towers",
        "--rule",
        "max_rounds=1",
        "--deals",
        "2",
        "--bots",
        f"learned:weights={weights},random",
    )
    bots = report["bots"]
    assert isinstance(bots, dict) and len(bots) == 2


def test_a_learned_policy_picks_its_highest_scoring_legal_move(tmp_path: Path) -> None:
    weights = tmp_path / "policy.npz"
    write_weights(weights, "tonk", seed=3)
    bot = LearnedBot(str(weights))
    game = get_game("tonk")
    state = game.start(game.rules(), 3, rng=random.Random(8))
    view = state.view(state.current_seat)
    scores = bot.scores(view)
    assert len(scores) == len(view.legal_moves)
    assert bot.choose(view, random.Random(1)) == view.legal_moves[int(np.argmax(scores))]
    sampled = LearnedBot(str(weights), greedy=False)
    assert {sampled.choose(view, random.Random(k)) for k in range(30)} <= set(view.legal_moves)
    with pytest.raises(ValueError, match="these weights play tonk, not three-towers"):
        towers = get_game("three-towers")
        t = towers.start(towers.rules(), 2, rng=random.Random(1))
        bot.choose(t.view(t.current_seat), random.Random(1))


BAD = {
    "learned": "learned needs its weights: learned:weights=FILE.npz",
    "learned:weights=/no/such/file.npz": "cannot read weights '/no/such/file.npz'",
    "openspiel-ismcts:simulations=0": "simulations must be at least 1, not 0",
    "openspiel-ismcts:uct_c=-1": "uct_c must be above 0, not -1.0",
    "openspiel-ismcts:world_samples=0": "world_samples must be -1 (no limit) or at least 1",
    "openspiel-ismcts:rollouts=0": "rollouts must be at least 1, not 0",
    "openspiel-ismcts:iterations=5": "'iterations=5' is not a setting of openspiel-ismcts",
}


@pytest.mark.parametrize("spec", BAD, ids=list(BAD))
def test_a_bad_research_bot_spec_is_one_line(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["arena", "--game", "tonk", "--deals", "1", "--bots", f"{spec},random"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and BAD[spec] in err


def test_research_bots_are_built_by_the_arena_but_not_offered_to_players() -> None:
    for name in RESEARCH:
        assert name not in bot_names("tonk") and name not in bot_names("three-towers")
    assert isinstance(build_bot("openspiel-ismcts:simulations=7", "tonk"), OpenSpielIsmctsBot)


def test_without_the_rl_extra_a_research_bot_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import taverntable.bots.registry as registry
    import taverntable.plugins.plugin as plugin

    real = plugin.import_module

    def missing(name: str) -> object:
        if name.startswith("taverntable.envs"):
            raise ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel")
        return real(name)

    monkeypatch.setattr(plugin, "import_module", missing)
    # A fresh plug-in: the registry's may have loaded the bot already in this process.
    fresh = plugin.bot(registry.RESEARCH["openspiel-ismcts"].path)
    monkeypatch.setitem(registry.RESEARCH, "openspiel-ismcts", fresh)
    status = main(["arena", "--game", "tonk", "--deals", "1", "--bots", "openspiel-ismcts,random"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert f"bot 'openspiel-ismcts' needs the optional extra rl ({install_hint('rl')})" in err
