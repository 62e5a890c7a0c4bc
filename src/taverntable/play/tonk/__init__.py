"""The Tonk family (tonk, tor, pagat) at the terminal: ``FRONT_END``, the games' part of the
one session (``play/session.py``), which ``Game.terminal`` names."""

from taverntable.play.front_end import FrontEnd

from .front_end import TonkFrontEnd

FRONT_END: FrontEnd = TonkFrontEnd()

__all__ = ["FRONT_END"]
