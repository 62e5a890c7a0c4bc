"""The coach: what each decision of a finished deal (or Three Towers game) was worth.

``review_record(record, seat, worlds=…, seed=…)`` replays a record and values every decision
the seat made from its own view, with the hard bot's worlds and playouts (``review``,
``values``); each game family's side is in ``tonk`` and ``towers``; the sentences in four
languages in ``texts``; ``tavern review`` in ``command`` (docs/coach.md). Above the bots: the
engine and the games import nothing from here.
"""

from .family import Note
from .review import Decision, OptionValue, Review, decision_counts, review_record
from .texts import LANGS, TEXTS, render

__all__ = [
    "LANGS",
    "TEXTS",
    "Decision",
    "Note",
    "OptionValue",
    "Review",
    "decision_counts",
    "render",
    "review_record",
]
