"""The old home of ``lab.core.worker_life``, kept as a re-export for callers outside the lab
(the web server's bot pool imports ``die_with_parent`` from here)."""

from taverntable.lab.core.worker_life import die_with_parent

__all__ = ["die_with_parent"]
