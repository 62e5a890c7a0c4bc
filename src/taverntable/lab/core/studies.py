"""The named studies of every registered game family, collected from the registry.

Each family declares its studies in its own module (``Game.studies``, a ``plugins.lab``
plug-in: ``lab/studies/tonk_family.py``, ``lab/studies/towers_family.py``); a study names its
play and analyse functions by import path (``study.py``). Adding a study is one entry in its
family's module plus its play and analyse functions; the runner, the output folder, resuming,
the report and the CLI are shared, and name no game.
"""

from __future__ import annotations

from taverntable.games import all_games

from .config import LabError
from .study import GameOutput, PlayFunction, Study, load

__all__ = ["STUDIES", "GameOutput", "PlayFunction", "Study", "get_study", "load", "play_function"]


def _collect() -> dict[str, Study]:
    """Every registered game's studies, once per plug-in (the presets of a family share one),
    in the registry's order."""
    found: dict[str, Study] = {}
    seen: set[str] = set()
    for game in all_games():
        plugin = game.studies
        if plugin is None or plugin.path in seen:
            continue
        seen.add(plugin.path)
        for study in plugin.load():
            if not isinstance(study, Study):
                raise LabError(f"{plugin.path}: {study!r:.60} is not a lab Study")
            if study.name in found:
                raise LabError(f"two studies are called {study.name!r} ({plugin.path})")
            found[study.name] = study
    return found


STUDIES: dict[str, Study] = _collect()


def get_study(name: str) -> Study:
    """The study called ``name``; LabError naming the known ones otherwise."""
    if name not in STUDIES:
        raise LabError(f"unknown study {name!r} (known: {', '.join(STUDIES)})")
    return STUDIES[name]


def play_function(study: Study) -> PlayFunction:
    """The study's play function."""
    fn: PlayFunction = load(study.play)
    return fn
