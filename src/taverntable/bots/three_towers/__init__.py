"""The Three Towers bots: the heuristic (its tactics and its replies out of turn), the fast
playout policy and the ISMCTS adapter. The game registry names them by import path
(``games/three_towers/game.py``), so nothing here is imported until a bot is built."""
