"""No import circle inside a game package: each game's modules are layers (docs/contract.md).

The graph is grimp's, read from the source: imports at the top of a module, inside functions
and under ``TYPE_CHECKING`` all count (a type named in a signature is a dependency too). Each
package under ``taverntable.games`` is checked with everything below it (a game's ``fast/``
included), and ``taverntable.games`` as a whole, the registry with its games.
"""

from __future__ import annotations

import pkgutil
from graphlib import CycleError, TopologicalSorter

import grimp
import pytest

import taverntable.games

GAMES = taverntable.games.__name__
GAME_PACKAGES = sorted(
    f"{GAMES}.{module.name}"
    for module in pkgutil.iter_modules(taverntable.games.__path__)
    if module.ispkg
)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("taverntable", cache_dir=None, exclude_type_checking_imports=False)


def import_cycle(graph: grimp.ImportGraph, package: str) -> list[str] | None:
    """A circle of imports among ``package`` and the modules under it (first module repeated
    last), or None when they import one another in layers."""
    modules = {package} | graph.find_descendants(package)
    imports = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    try:
        TopologicalSorter(imports).prepare()
    except CycleError as e:
        return list(reversed(e.args[1]))  # graphlib lists it against the imports' direction
    return None


def test_the_game_packages_are_found() -> None:
    assert {f"{GAMES}.tonk", f"{GAMES}.three_towers"} <= set(GAME_PACKAGES)


@pytest.mark.parametrize("package", [*GAME_PACKAGES, GAMES])
def test_no_import_cycle_inside(graph: grimp.ImportGraph, package: str) -> None:
    cycle = import_cycle(graph, package)
    assert cycle is None, "an import circle: " + " -> ".join(cycle or [])


def test_a_circle_through_a_function_level_import_is_found() -> None:
    """The check itself: the shape the games had (the state imports its rules modules, which
    import the state for its type, and the state imports its view inside a method)."""
    graph = grimp.ImportGraph()
    for name in ("game", "game.state", "game.movegen", "game.view"):
        graph.add_module(name)
    graph.add_import(importer="game.state", imported="game.movegen")
    graph.add_import(importer="game.movegen", imported="game.cards")
    graph.add_import(importer="game.view", imported="game.state")
    assert import_cycle(graph, "game") is None
    graph.add_import(importer="game.state", imported="game.view")  # inside ``State.view``
    assert import_cycle(graph, "game") in (
        ["game.state", "game.view", "game.state"],
        ["game.view", "game.state", "game.view"],
    )
