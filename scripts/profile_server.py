"""Run ``tavern serve`` under cProfile and write its statistics when it stops.

    TAVERN_SERVER="scripts/profile_server.py" TAVERN_PROFILE=/tmp/serve.prof \
        python scripts/loadtest.py --tables 200 --seconds 30

``scripts/loadtest.py`` starts its servers as ``python $TAVERN_SERVER serve …`` and stops them
with SIGTERM; uvicorn then re-raises the signal once it has shut down (``signal.raise_signal``),
which would end the process before the statistics are written, so this wrapper turns that off.
With ``TAVERN_PROFILE_CLOCK=cpu`` the profile counts the main thread's CPU time (system calls
as what they cost, not the time they waited for a core); ``kill -USR1 PID`` drops what was
counted before it (the set-up: the load test sends it as its measured seconds start). Read the
file with ``python -m pstats`` or ``scripts/profile_table.py``. cProfile's own cost is a call's,
so it inflates code of many small calls against C and system calls: read its shares with care.
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
import time


def main() -> int:
    out = os.environ.get("TAVERN_PROFILE", f"serve-{os.getpid()}.prof")
    if "{pid}" in out:
        out = out.replace("{pid}", str(os.getpid()))
    signal.raise_signal = lambda _signal: None  # uvicorn's re-raise after a clean shutdown
    from taverntable.cli import main as tavern

    # TAVERN_PROFILE_CLOCK=cpu: the thread's CPU time instead of the wall clock, so that a
    # system call's time is what it costs the process, not the time it waited for a core.
    clock = os.environ.get("TAVERN_PROFILE_CLOCK", "wall")
    if clock not in ("wall", "cpu"):
        message = f"profile_server: TAVERN_PROFILE_CLOCK is wall or cpu, not {clock!r}"
        print(message, file=sys.stderr)
        return 2
    profile = cProfile.Profile(time.thread_time) if clock == "cpu" else cProfile.Profile()
    # SIGUSR1: forget what was counted so far (the set-up), so that the file holds only what
    # came after, e.g. the load test's measured seconds.
    signal.signal(signal.SIGUSR1, lambda _signal, _frame: profile.clear())
    try:
        code = profile.runcall(tavern, sys.argv[1:])
    finally:
        profile.dump_stats(out)
    return int(code or 0)


if __name__ == "__main__":
    raise SystemExit(main())
