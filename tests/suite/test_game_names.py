"""No game is named in Python code outside ``games/`` and the per-game packages and modules
(issue 22): a layer reads its games from the registry and their plug-ins, so that a third game
is its packages plus one registry line. Per-game code is a ``tonk`` or ``three_towers`` package
(``bots/tonk/``, ``bench/three_towers/``) or a module named for its family (``lab/studies/
tonk_play.py``, ``lab/report/towers_options.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import taverntable
from taverntable.games import all_games

SOURCE = Path(taverntable.__file__).parent
PER_GAME_PACKAGES = {"tonk", "three_towers"}
PER_GAME_PREFIXES = ("tonk_", "towers_")


def is_per_game(path: Path) -> bool:
    parts = path.relative_to(SOURCE).parts
    if parts[0] == "games" or PER_GAME_PACKAGES & set(parts[:-1]):
        return True
    return path.stem in PER_GAME_PACKAGES or path.stem.startswith(PER_GAME_PREFIXES)


def test_the_per_game_rule_tells_a_layer_from_a_game() -> None:
    assert is_per_game(SOURCE / "bots" / "tonk" / "heuristic.py")
    assert is_per_game(SOURCE / "lab" / "studies" / "towers_family.py")
    assert not is_per_game(SOURCE / "lab" / "core" / "studies.py")
    assert not is_per_game(SOURCE / "bench" / "command.py")


def test_no_game_name_outside_the_games_and_their_packages() -> None:
    names = {game.name for game in all_games()} | {game.family for game in all_games()}
    found = [
        f"{path.relative_to(SOURCE)}:{node.lineno}: {node.value!r}"
        for path in sorted(SOURCE.rglob("*.py"))
        if not is_per_game(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in names
    ]
    assert found == [], found
