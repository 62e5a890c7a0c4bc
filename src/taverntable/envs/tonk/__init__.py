"""The Tonk family (``tonk``, ``tor``, ``pagat``) in the learning environments: ``LEARNING``,
which the games' ``Game.learning`` names (``taverntable.plugins.learning``)."""

from .learning import LEARNING

__all__ = ["LEARNING"]
