"""The messages of ``tavern serve``, one model each, in both directions (``docs/protocol.md``).

- ``api``: the HTTP API's request bodies and answers;
- ``summary``: the table summary, which the HTTP API and the WebSocket's ``table`` frame share;
- ``frames``: the WebSocket's frames, client to server and server to client;
- ``replay``: the replay viewer's answers (a deal step by step).

Every model is a Pydantic model that refuses unknown fields, with a description on each field:
the server validates what a client sends with them, builds what it sends through them, and
``docs/protocol.md``'s message tables are rendered from them (``doc.py``; a test keeps the doc up
to date).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

PROTOCOL_VERSION = 1


class Strict(BaseModel):
    """A message with no field beyond its own: a client's unknown field is an error, and a
    client validating the server's messages learns of a field its models lack."""

    model_config = ConfigDict(extra="forbid")


class FromClient(Strict):
    """A message a client sends: its types are strict too, so that ``true``, ``"1"`` and ``1.0``
    are no seat 1 (a number field takes a JSON number of its kind, a text field a string)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def is_null(value: object) -> bool:
    """For ``Field(exclude_if=is_null)``: a field left out of the message when it is null."""
    return value is None
