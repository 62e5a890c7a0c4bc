"""The Tonk bots in the kernel (over ``games/tonk/fast``): the heuristic and random bots
(``heuristic``) and whole bot deals (``deals``), the search's greedy playouts (``greedy``), its
opponent model's weighted guesses (``guesses``) and its root (``root``), and their differential
test (``differential``). Imported only when a bot plays on the fast path (numba loads here)."""
