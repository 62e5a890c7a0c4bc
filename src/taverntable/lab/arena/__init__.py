"""``tavern arena``: bots against bots on duplicate deals with rotated seats, rated by mean,
margin and Elo. Every game comes from the game registry (``taverntable.games``)."""
