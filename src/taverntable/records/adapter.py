"""The records adapter protocol and its error live in the game contract (``engine.py``)."""

from taverntable.engine import RecordAdapter, RecordError

__all__ = ["RecordAdapter", "RecordError"]
