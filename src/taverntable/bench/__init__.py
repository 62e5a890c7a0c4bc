"""``tavern bench``: the engine's and the search's speed, per game of the registry."""
