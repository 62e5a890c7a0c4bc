"""Three Towers' fast path: the kernel (``kernel``: a game as a flat int array, its move
generator, transitions, chance steps and count, compiled by numba or run as Python,
``fast/jit.py``), an engine position loaded into it and read back (``state``), whole random games
as the engine's values (``play``, with ``PLAYED``: the rule options it plays and refuses), and
its differential test (``differential``). It imports the game and ``taverntable.fast``, never a
bot."""
