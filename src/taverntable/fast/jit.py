"""Compile the kernels with numba where it can be had, else run them as plain Python.

numba (the ``fast`` extra) compiles the kernel modules' functions to machine code on first use
(cached on disk afterwards). Without it, or with the environment variable
``TAVERNTABLE_PURE_PYTHON=1`` (to test the fallback on a machine that has numba), every
``@kernel`` function stays the Python function it is: the same source, the same games, slower.

numba keys its cache by each kernel module's own source, while the tables a kernel reads as
constants come from other modules (``games/tonk/spreads.py`` and ``rules.py``,
``bots/tonk/policy.py``, the Three Towers rules): a cache beside the kernel would outlive a change
to them (a stale kernel, which the differential tests catch). So the cache lives in a folder
named by a digest of every module a kernel may read (``cache_folder``): a changed source, an
upgrade or another checkout compiles afresh into its own folder.

The kernels keep to what both can run: int64-sized ints in flat arrays (``IntArray``: a numpy
array when compiled, a list otherwise), floats, loops and calls of other kernels.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

PURE_ENV = "TAVERNTABLE_PURE_PYTHON"
FAST_ENV = "TAVERNTABLE_FAST"


class IntArray(Protocol):
    """A flat array of ints: a numpy int64 array when compiled, a list in the fallback."""

    def __getitem__(self, index: int, /) -> int: ...
    def __setitem__(self, index: int, value: int, /) -> None: ...
    def __len__(self) -> int: ...


class FloatArray(Protocol):
    """A flat array of floats: a numpy float64 array when compiled, a list in the fallback."""

    def __getitem__(self, index: int, /) -> float: ...
    def __setitem__(self, index: int, value: float, /) -> None: ...
    def __len__(self) -> int: ...


def _numba() -> Any:
    """The numba module, or None when it is missing or the fallback is forced."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    try:
        import numba
    except ImportError:  # the ``fast`` extra is not installed: the pure-Python fallback
        return None
    return numba


# The packages whose modules a kernel may read as constants: the kernels and their tables.
KERNEL_SOURCES = ("fast", "games", "bots")
CACHE_ENV = "NUMBA_CACHE_DIR"


def source_digest(root: Path | None = None) -> str:
    """A digest of every Python module of ``KERNEL_SOURCES`` (paths and contents) under the
    package's ``root``: it changes with any source a compiled kernel may depend on."""
    base = Path(__file__).resolve().parent.parent if root is None else root
    digest = hashlib.blake2b(digest_size=8)
    for package in KERNEL_SOURCES:
        for path in sorted((base / package).rglob("*.py")):
            digest.update(path.relative_to(base).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _home() -> Path:
    """The user's home, or the temporary folder for a user without one (a service account)."""
    try:
        return Path.home()
    except RuntimeError:
        import tempfile

        return Path(tempfile.gettempdir())


def cache_folder(environ: dict[str, str] | None = None) -> Path:
    """Where numba caches the kernels: under ``$NUMBA_CACHE_DIR`` when set, else the user's
    cache (``$XDG_CACHE_HOME`` or ``~/.cache``) ``/taverntable``, in a folder of the sources'
    digest. (numba falls back to the ``__pycache__`` beside each module where this folder
    cannot be written.)"""
    env = os.environ if environ is None else environ
    base = env.get(CACHE_ENV) or ""
    if base:
        root = Path(base)
    else:
        xdg = env.get("XDG_CACHE_HOME") or ""
        root = (Path(xdg) if xdg else _home() / ".cache") / "taverntable"
    return root / f"numba-{source_digest()}"


_NUMBA = _numba()
if _NUMBA is not None:
    _NUMBA.config.CACHE_DIR = str(cache_folder())
COMPILED: bool = _NUMBA is not None
"""True when the kernels are compiled by numba, False in the pure-Python fallback."""


def fast_bots_on() -> bool:
    """Whether the lab and the arena play their bots' games in the kernels: numba compiles them
    (the pure-Python fallback is no faster than the engine) and the environment variable
    ``TAVERNTABLE_FAST`` is not ``0`` (the switch back to the engine)."""
    return COMPILED and os.environ.get(FAST_ENV, "1") != "0"


def store(array: IntArray, at: int, values: Sequence[int]) -> None:
    """``array[at:at + len(values)] = values`` from Python, at once (numpy arrays and lists both
    take a slice; the protocol only says what the kernels use)."""
    if values:
        cast(Any, array)[at : at + len(values)] = values


def kernel(fn: F) -> F:
    """Compile ``fn`` with numba (nopython, cached) or return it unchanged.

    The cast keeps the function's own signature for mypy: numba's dispatcher is called exactly
    like the function it wraps (numba ships no type hints, so mypy would see ``Any``)."""
    if _NUMBA is None:
        return fn
    return cast(F, _NUMBA.njit(cache=True, nogil=True)(fn))


def plain_kernel(fn: F) -> F:
    """``kernel`` for a function that allocates nothing: compiled without numba's reference
    counting (``_nrt=False``), so passing and copying its arrays costs no NRT call (an atomic
    increment and decrement each, which in a hot loop cost more than the arithmetic). Its
    arrays belong to its caller, which outlives the call. The same operations, the same floats."""
    if _NUMBA is None:
        return fn
    return cast(F, _NUMBA.njit(cache=True, nogil=True, _nrt=False)(fn))


def inline_kernel(fn: F) -> F:
    """``plain_kernel``, and inlined into each kernel that calls it (numba's
    ``inline="always"``): a small function called in a hot loop, whose call would cost more
    than its body. Inlined into a ``plain_kernel``, it counts no references either."""
    if _NUMBA is None:
        return fn
    return cast(F, _NUMBA.njit(cache=True, nogil=True, _nrt=False, inline="always")(fn))


def counted_kernel(fn: F) -> F:
    """``kernel`` with numba's reference counting asked for (``_nrt=True``), for a kernel that
    allocates (a ``new_ints`` of its own) called from ``plain_kernel``s: numba compiles a
    kernel called by another with its caller's setting unless the kernel sets its own, so a
    plain caller could not call an allocating kernel otherwise. It must return no new array
    (a plain caller would never release it); what it allocates it releases itself."""
    if _NUMBA is None:
        return fn
    return cast(F, _NUMBA.njit(cache=True, nogil=True, _nrt=True)(fn))


if _NUMBA is not None:
    import numpy as np
    from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

    # numba types its intrinsics as taking the typing context first; inside compiled code they
    # are called with the value alone, which is what these casts say.
    _trailing_zeros = cast(Callable[[int], int], trailing_zeros)
    _leading_zeros = cast(Callable[[int], int], leading_zeros)

    def int_array(values: Sequence[int] | int) -> IntArray:
        """A new int64 array: of ``values``, or of that many zeros."""
        if isinstance(values, int):
            return cast(IntArray, np.zeros(values, np.int64))
        return cast(IntArray, np.array(values, np.int64))

    def float_array(values: Sequence[float] | int) -> FloatArray:
        """A new float64 array: of ``values``, or of that many zeros."""
        if isinstance(values, int):
            return cast(FloatArray, np.zeros(values, np.float64))
        return cast(FloatArray, np.array(values, np.float64))

    @kernel
    def new_ints(size: int) -> IntArray:
        """A new array of ``size`` zero ints, inside a kernel."""
        return np.zeros(size, np.int64)

    @kernel
    def new_floats(size: int) -> FloatArray:
        """A new array of ``size`` zero floats, inside a kernel."""
        return np.zeros(size, np.float64)

    @kernel
    def low_index(mask: int) -> int:
        """The index of the lowest set bit of a non-zero mask."""
        return _trailing_zeros(mask)

    @kernel
    def bit_length(mask: int) -> int:
        """The number of bits a non-negative mask needs (``int.bit_length``)."""
        return 64 - _leading_zeros(mask)

else:

    def int_array(values: Sequence[int] | int) -> IntArray:
        """A new list of ints: ``values``, or that many zeros."""
        return [0] * values if isinstance(values, int) else list(values)

    def float_array(values: Sequence[float] | int) -> FloatArray:
        """A new list of floats: ``values``, or that many zeros."""
        return [0.0] * values if isinstance(values, int) else list(values)

    def new_ints(size: int) -> IntArray:
        """A new list of ``size`` zero ints, inside a kernel."""
        return [0] * size

    def new_floats(size: int) -> FloatArray:
        """A new list of ``size`` zero floats, inside a kernel."""
        return [0.0] * size

    def low_index(mask: int) -> int:
        """The index of the lowest set bit of a non-zero mask."""
        return (mask & -mask).bit_length() - 1

    def bit_length(mask: int) -> int:
        """The number of bits a non-negative mask needs."""
        return mask.bit_length()
