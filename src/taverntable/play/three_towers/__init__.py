"""Three Towers at the terminal: ``FRONT_END``, the game's part of the one session
(``play/session.py``), which ``Game.terminal`` names."""

from taverntable.play.front_end import FrontEnd

from .front_end import ThreeTowersFrontEnd

FRONT_END: FrontEnd = ThreeTowersFrontEnd()

__all__ = ["FRONT_END"]
