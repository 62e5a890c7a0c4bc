"""Each game's observation encoder: a fixed-size float32 vector from a view's JSON.

A game's learning kit (``Game.learning``, ``taverntable.plugins.learning``) holds its layout and
its ``encode``. The encoders read ``view.to_json()`` only, so an observation holds nothing its
seat may not see (the contract's view test covers the JSON; ``tests/envs/test_envs_observation.py``
the vectors).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from taverntable.engine import View
from taverntable.games import get_game
from taverntable.plugins.learning import ObservationLayout

from .layout import Vector


@dataclass(frozen=True)
class Encoder:
    """A game's layout and its ``encode(view_json)``."""

    layout: ObservationLayout
    encode_json: Callable[[dict[str, Any] | None], Vector]

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: View[Any]) -> Vector:
        """The observation of ``view`` (a seat's or a spectator's)."""
        return self.encode_json(view.to_json())


def encoder_for(game: str) -> Encoder:
    """The encoder of the registered game ``game`` (UnknownGame for another name)."""
    kit = get_game(game).learning.load()
    return Encoder(kit.layout, kit.encode)
