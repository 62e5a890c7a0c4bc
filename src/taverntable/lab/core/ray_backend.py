"""Running a study's batches on Ray: an existing cluster (``--ray ADDRESS``) or a local one
(``--ray local``, which starts Ray on this machine). Ray is the optional extra ``[ray]``.

Every node must have taverntable installed (the same version): a task carries only the study's
config and the game indices, and the worker finds the play function by the study's name.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from typing import Any

from taverntable.extras import install_hint

from .config import LabError
from .execute import Item, Result, play_batch


def import_ray() -> Any:
    """The ``ray`` module, or LabError saying how to install it."""
    try:
        return import_module("ray")
    except ImportError:
        raise LabError(f"Ray is not installed; install the extra: {install_hint('ray')}") from None


def ray_results(
    address: str, config_json: dict[str, Any], work: list[list[Item]], workers: int
) -> Iterator[list[Result]]:
    """Batches played as Ray tasks, yielded as they finish; at most ``2 × workers`` (or twice the
    cluster's CPUs) in flight."""
    ray = import_ray()
    local = address == "local"
    started_here = not ray.is_initialized()
    if started_here:
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if local:
            ray.init(num_cpus=workers, **kwargs)
        else:
            ray.init(address=address, **kwargs)
    try:
        cpus = int(ray.cluster_resources().get("CPU", workers))
        remote = ray.remote(num_cpus=1)(play_batch)
        limit = 2 * max(cpus, 1)
        queue = iter(work)
        # range first: zip stops on it without taking (and losing) one more batch from the queue.
        running = [
            remote.remote(config_json, items) for _, items in zip(range(limit), queue, strict=False)
        ]
        while running:
            ready, running = ray.wait(running, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
                nxt = next(queue, None)
                if nxt is not None:
                    running.append(remote.remote(config_json, nxt))
    finally:
        if started_here:
            ray.shutdown()
