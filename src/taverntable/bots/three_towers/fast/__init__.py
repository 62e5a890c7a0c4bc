"""The Three Towers heuristic in the kernel (over ``games/three_towers/fast``): its decision
(``heuristic``), whole heuristic games (``games``), the hard bot's paired playouts
(``playouts``), a table of the heuristic played out with the engine's replay (``play_out``), and
their differential test (``differential``). Imported only when a bot plays on the fast path."""
