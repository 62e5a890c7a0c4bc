"""Tonk's fast path: the kernel (``kernel``: a deal as a flat int array, its move generator,
transitions and random play, compiled by numba or run as Python, ``fast/jit.py``), its tables
(``tables``), an engine state loaded into it (``state``), whole random deals as the engine's
values (``play``, with ``PLAYED``: the rule options it plays and refuses), and its differential
test (``differential``). It imports the game and ``taverntable.fast``, never a bot."""
