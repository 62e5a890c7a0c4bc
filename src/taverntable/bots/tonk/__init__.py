"""The Tonk family's bots (``tonk``, ``tor``, ``pagat``): the heuristic, its fast playout policy,
the inference of opponents' hands and the ISMCTS adapter. The game registry names them by import
path (``games/tonk/game.py``), so nothing here is imported until a bot is built."""
