"""The house's import structure (issue 22), from the import graph of ``src/taverntable`` that
grimp builds (the engine of import-linter; imports inside functions counted, as Python runs
them): the top-level packages import each other one way only; the engine and the games import
nothing from the bots, the front ends, the lab, the environments or the bench; the generic fast
path (``fast/``: the jit switch, the random stream, the differential harness) imports no game and
no bot; and no compiled module (``*.fast``) is in an import cycle.

Run it alone with ``pytest tests/suite/test_imports.py`` (docs/fast.md, "The import check")."""

from __future__ import annotations

import functools

import grimp
import pytest

ROOT = "taverntable"
# The top-level packages and modules; engine, cards, options and fields are the shared
# vocabulary every game speaks, plugins the protocols of what a game names in the layers above
# the engine (its bots, search, front end …), match a match of deals through the contract,
# characters the bots' names (each game's, for the terminal and the server), names,
# worker_life and extras small helpers, ratings the ladder (above the bots, below the
# server), coach the review of a deal (likewise), cli the command line.
TOP = (
    "engine",
    "cards",
    "options",
    "fields",
    "names",
    "plugins",
    "games",
    "records",
    "match",
    "characters",
    "bots",
    "ratings",
    "coach",
    "play",
    "web",
    "lab",
    "envs",
    "bench",
    "fast",
    "worker_life",
    "extras",
    "cli",
)
# What the engine and the games must never reach, even through another package.
EDGES = ("bots", "ratings", "coach", "play", "web", "lab", "envs", "bench", "cli")


@functools.cache
def graph() -> grimp.ImportGraph:
    # cache_dir=None: no cache folder written into the working tree.
    return grimp.build_graph(ROOT, cache_dir=None)


def top_of(module: str) -> str:
    return module.split(".")[1] if module.count(".") >= 1 else module


def package_imports() -> dict[str, set[str]]:
    """Each top-level package and the other top-level packages it imports directly."""
    g = graph()
    out: dict[str, set[str]] = {name: set() for name in TOP}
    for module in g.modules:
        for imported in g.find_modules_directly_imported_by(module):
            a, b = top_of(module), top_of(imported)
            if a != b and a != ROOT and b != ROOT:
                out.setdefault(a, set()).add(b)
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_top_level_package_is_named_here() -> None:
    """A new top-level package joins the checks below by being named in ``TOP``."""
    assert {top_of(m) for m in graph().modules if m != ROOT} == set(TOP)


def test_the_top_level_packages_import_each_other_one_way_only() -> None:
    edges = package_imports()
    found = cycles(edges)
    chains = [
        graph().find_shortest_chain(
            importer=f"{ROOT}.{a}", imported=f"{ROOT}.{b}", as_packages=True
        )
        for group in found
        for a in group
        for b in group
        if b in edges[a]
    ]
    assert found == [], chains


@pytest.mark.parametrize("package", ["engine", "cards", "options", "fields", "plugins", "games"])
def test_the_engine_and_the_games_import_no_bot_front_end_lab_environment_or_bench(
    package: str,
) -> None:
    """STYLE 8: adapters depend on the engine, never the other way round (through any chain)."""
    g = graph()
    reached = {
        edge: g.find_shortest_chain(
            importer=f"{ROOT}.{package}", imported=f"{ROOT}.{edge}", as_packages=True
        )
        for edge in EDGES
    }
    assert {edge: chain for edge, chain in reached.items() if chain} == {}


def test_the_plug_in_protocols_import_only_the_engine_and_the_match() -> None:
    """A game names its plug-ins' protocols (``taverntable.plugins``), so they sit beside the
    engine: they import no game, no record, nothing above."""
    assert package_imports()["plugins"] <= {"engine", "match"}


def test_the_generic_fast_path_imports_no_game_and_no_bot() -> None:
    """``fast/`` is game-agnostic: each game's kernel lives in ``games/GAME/fast``, each bot
    family's in ``bots/GAME/fast``, and they import ``fast``, never the other way."""
    g = graph()
    reached = {
        other: g.find_shortest_chain(
            importer=f"{ROOT}.fast", imported=f"{ROOT}.{other}", as_packages=True
        )
        for other in ("games", "bots", "records", *EDGES)
    }
    assert {other: chain for other, chain in reached.items() if chain} == {}


def test_a_games_kernel_imports_no_bot_and_the_compiled_code_is_in_no_cycle() -> None:
    """The compiled copies sit beside what they mirror: a game's kernel imports only the game
    and ``fast``; a bot family's compiled code imports the game's kernel and the Python bot's
    tables, and what calls it (the search) imports it: no module of ``*.fast`` is in a cycle."""
    g = graph()
    kernels = sorted(m for m in g.modules if m.startswith(f"{ROOT}.games.") and ".fast" in m)
    assert kernels, "no game kernel found"
    for kernel in kernels:
        reached = g.find_upstream_modules(kernel)  # everything it imports, through any chain
        assert {m for m in reached if top_of(m) in ("bots", *EDGES)} == set(), kernel
    edges = {m: set(g.find_modules_directly_imported_by(m)) for m in g.modules}
    compiled = [
        group for group in cycles(edges) if any(".fast." in m or m.endswith(".fast") for m in group)
    ]
    assert compiled == []
