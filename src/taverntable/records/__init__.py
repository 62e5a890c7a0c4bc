"""Game records (``docs/record-format.md``): read, replay, check and dump them.

``replay_record`` checks a record move by move and fills in its result; ``dump_record`` writes the
whole record of a game state (the play UI saves a match as JSON Lines, one deal a line);
``read_records`` reads ``.json``, ``.jsonl`` and standard input (``read_text``: an upload's
bytes); ``check_names`` is the rule for player names (what a front end should check before a
game starts). The limits of a record are in ``limits`` (``docs/records.md``).
"""

from taverntable.engine import RecordAdapter, RecordError
from taverntable.fields import check_names

from .core import Replayed, adapter_for, describe_record, dump_record, replay_record
from .reader import UnreadableInput, parse_json, read_records, read_text

__all__ = [
    "RecordAdapter",
    "RecordError",
    "Replayed",
    "UnreadableInput",
    "adapter_for",
    "check_names",
    "describe_record",
    "dump_record",
    "parse_json",
    "read_records",
    "read_text",
    "replay_record",
]
