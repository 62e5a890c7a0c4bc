"""Tavern Table's games for game-AI research: PettingZoo environments and OpenSpiel games.

Thin adapters over the game contract (``taverntable.engine``): observations are encoded from a
seat's view only (``observation``), actions are the games' action ids (``Game.actions``), rewards
are ``state.returns()``. The modules here need the optional extra ``rl`` (numpy, gymnasium,
PettingZoo, OpenSpiel); nothing outside ``envs`` imports them. See ``docs/environments.md``.
"""
