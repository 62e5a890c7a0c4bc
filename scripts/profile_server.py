"""Run ``tavern serve`` under cProfile and write its statistics when it stops.

    TAVERN_SERVER="scripts/profile_server.py" TAVERN_PROFILE=/tmp/serve.prof \
        python scripts/loadtest.py --tables 200 --seconds 30

``scripts/loadtest.py`` starts its servers as ``python $TAVERN_SERVER serve …`` and stops them
with SIGTERM; uvicorn then re-raises the signal once it has shut down (``signal.raise_signal``),
which would end the process before the statistics are written, so this wrapper turns that off.
Read the file with ``python -m pstats`` or ``scripts/profile_table.py``.
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys


def main() -> int:
    out = os.environ.get("TAVERN_PROFILE", f"serve-{os.getpid()}.prof")
    if "{pid}" in out:
        out = out.replace("{pid}", str(os.getpid()))
    signal.raise_signal = lambda _signal: None  # uvicorn's re-raise after a clean shutdown
    from taverntable.cli import main as tavern

    profile = cProfile.Profile()
    try:
        code = profile.runcall(tavern, sys.argv[1:])
    finally:
        profile.dump_stats(out)
    return int(code or 0)


if __name__ == "__main__":
    raise SystemExit(main())
