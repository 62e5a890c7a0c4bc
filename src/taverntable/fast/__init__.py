"""The fast path beside the checking engine: compiled kernels for random play that play the same
games as the engine from the same random stream (``tonk``), with a pure-Python fallback
(``jit``) where the compiler (numba, the ``fast`` extra) is missing.

The checking engine stays the reference for legality and records; the differential test
(``differential``, ``tests/fast/test_fast_tonk.py``) proves that both paths play the same games.
"""
