"""Three Towers in the learning environments: ``LEARNING``, which its ``Game.learning`` names
(``taverntable.plugins.learning``)."""

from .learning import LEARNING

__all__ = ["LEARNING"]
