"""The fast path's game-agnostic part: what every compiled kernel stands on, and nothing of any
game or bot (``tests/suite/test_imports.py`` holds it to that).

- ``jit``: numba's ``@kernel`` (nopython, cached), or the plain Python function where the
  compiler (the ``fast`` extra) is missing; int and float arrays; the switch of the lab's and the
  arena's bot games (``fast_bots_on``).
- ``stream`` and ``draws``: CPython's ``random.Random`` inside a kernel, draw for draw;
  ``search_random``: a search's own generator, which a kernel may seed itself.
- ``played``: the rule options a kernel plays, and its refusal of the others.
- ``differential``: the one harness that plays the same games through the checking engine and
  through a kernel and compares them.

The kernels live beside the code they mirror: each game's in ``games/GAME/fast``, each bot
family's in ``bots/GAME/fast`` (``docs/fast.md``). The checking engine stays the reference for
legality and records.
"""
