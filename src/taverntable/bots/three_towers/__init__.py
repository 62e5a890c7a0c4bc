"""The Three Towers bots: the heuristic (its tactics and its replies out of turn), the fast
playout policy and the ISMCTS adapter. The game names them by typed plug-ins
(``games/three_towers/game.py``, ``taverntable.plugins``), so nothing here is imported until a
bot is built."""
