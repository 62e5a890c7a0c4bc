"""Each game family's observation encoder: a fixed-size float32 vector from a view's JSON.

The encoders read ``view.to_json()`` only, so an observation holds nothing its seat may not see
(the contract's view test covers the JSON; ``tests/envs/test_envs_observation.py`` the vectors).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from taverntable.engine import View
from taverntable.games import get_game

from .layout import Layout, Vector

# Game family (``Game.family``) -> the module that encodes its views.
ENCODERS = {
    "tonk": "taverntable.envs.observe_tonk",
    "three-towers": "taverntable.envs.observe_towers",
}


@dataclass(frozen=True)
class Encoder:
    """A family's layout and its ``encode(view_json)``."""

    layout: Layout
    encode_json: Callable[[dict[str, Any]], Vector]

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: View[Any]) -> Vector:
        """The observation of ``view`` (a seat's or a spectator's)."""
        return self.encode_json(view.to_json())


def encoder_for(game: str) -> Encoder:
    """The encoder of the registered game ``game`` (UnknownGame for another name)."""
    family = get_game(game).family
    module = import_module(ENCODERS[family])
    return Encoder(module.LAYOUT, module.encode)
