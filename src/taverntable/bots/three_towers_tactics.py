"""The old home of ``bots.three_towers.tactics``: ``play/`` (the terminal) still imports
``tower_take`` from here. Kept as a re-export until ``play/`` reads the new path."""

from taverntable.bots.three_towers.tactics import tower_take

__all__ = ["tower_take"]
