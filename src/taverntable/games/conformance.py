"""Static conformance: each game's classes assigned to the contract's protocols.

Nothing here runs; mypy reads it. When a game drifts from ``taverntable.engine`` (a method
missing or with another signature, a view without ``to_json``) or declares a plug-in of the
wrong kind (``taverntable.plugins.RegisteredGame``: a ``PlugIn[FrontEnd]`` where a search adapter
belongs), these assignments stop type-checking and the build fails.
"""

from __future__ import annotations

from typing import Any

from taverntable.engine import ActionSpace, GameState, RecordAdapter, View
from taverntable.plugins import RegisteredGame

from .three_towers.actions import TowersActions
from .three_towers.game import TowersGame
from .three_towers.moves import TowersMove
from .three_towers.record import TowersAdapter
from .three_towers.state import TowersState
from .three_towers.view import TowersView
from .tonk.actions import TonkActions
from .tonk.game import TonkGame
from .tonk.moves import TonkMove
from .tonk.record import TonkAdapter
from .tonk.state import TonkState
from .tonk.view import TonkView


def tonk_state(state: TonkState) -> GameState[TonkMove, TonkView]:
    return state


def tonk_view(view: TonkView) -> View[TonkMove]:
    return view


def tonk_game(game: TonkGame) -> RegisteredGame:
    return game


def tonk_actions(actions: TonkActions) -> ActionSpace[TonkMove]:
    return actions


def tonk_record(adapter: TonkAdapter) -> RecordAdapter:
    return adapter


def towers_state(state: TowersState) -> GameState[TowersMove, TowersView]:
    return state


def towers_view(view: TowersView) -> View[TowersMove]:
    return view


def towers_game(game: TowersGame) -> RegisteredGame:
    return game


def towers_actions(actions: TowersActions) -> ActionSpace[TowersMove]:
    return actions


def towers_record(adapter: TowersAdapter) -> RecordAdapter:
    return adapter


def any_state(state: TonkState | TowersState) -> GameState[Any, Any]:
    return state
