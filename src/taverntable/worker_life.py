"""Worker processes that end with the process that started them, even when it is killed.

A pool's workers otherwise outlive a ``kill -9`` of the parent: they finish their batch and wait
on a queue nobody will fill, and multiprocessing's resource tracker waits for them (it ends when
the last process that holds its pipe does). ``die_with_parent`` is the pool's initializer.

On Linux the kernel does it: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` asks for SIGKILL the moment
the parent ends, with no thread, no polling delay and nothing the worker's own work can hold up
(a thread would need the GIL). A worker keeps nothing worth saving, since only the parent writes
rows, so SIGKILL is the right signal. (Linux sends it when the *thread* that started the
worker ends: the lab and the arena start their pools from the main thread.) Elsewhere (macOS,
Windows) a daemon thread checks the parent's pid once a second and ends the worker when it
changes.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
POLL_SECONDS = 1.0


def die_with_parent(parent: int, ignore_ctrl_c: bool = False) -> None:
    """Pool initializer: end this process when ``parent`` ends. ``ignore_ctrl_c`` where the
    parent stops the pool itself on Ctrl-C (the lab: workers would only print tracebacks)."""
    if ignore_ctrl_c:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not (sys.platform.startswith("linux") and _death_signal()):
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    # The parent may have died before the request above: then nobody will send the signal.
    if os.getppid() != parent:
        os._exit(1)


# The switch of ``taverntable.fast.jit`` to the kernels' plain-Python fallback (named here, not
# imported: importing ``jit`` decides at once whether numba compiles).
PURE_PYTHON_ENV = "TAVERNTABLE_PURE_PYTHON"


def pure_python_worker(parent: int) -> None:
    """Pool initializer: ``die_with_parent``, and the kernels run as plain Python in this
    worker (``taverntable.fast.jit``'s fallback: nothing to compile, about 30 times slower).
    It runs before the worker's first task imports any kernel, since this module imports none."""
    os.environ[PURE_PYTHON_ENV] = "1"
    die_with_parent(parent)


def _death_signal() -> bool:
    """Ask Linux for SIGKILL when the parent ends; False if the call failed."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os._exit(1)
