"""Hints during play (issue 27, item 3): at a table with ``hints`` on, each person's seat with a
decision gets a ``hint`` frame — the coach's numbers (``coach/hints.py``) computed from that
seat's own view, sent to that seat's connections only (here and in other processes).

Tonk's hint is a few lookups and sums (well under a millisecond), made where it is asked; Three
Towers' plays worlds out (a tenth of a second to a second), so it runs in the bot pool's
decision workers (as a hard bot's move; the coach's own workers may be busy with a review for
a minute) and is sent when it comes back — unless the table has moved on by then. At most one
is computed per seat at a time: a decision that comes meanwhile gets its hint after it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from taverntable.coach.hints import tonk_hint, towers_hint
from taverntable.games.tonk import TonkView

from .protocol.frames import encode
from .protocol.review import HintMessage, TonkHint, TowersHint

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger(__name__)


def hint_seats(table: Table, only: int | None = None) -> list[int]:
    """The seats owed a hint now: a person's, with a decision in its view, someone connected."""
    state = table.state
    if not table.settings.hints or state is None or state.is_over or table.status != "playing":
        return []
    watched = {c.seat for c in table.conns} | set(table.remote.values())
    out = []
    for info in table.seats:
        s = info.seat
        if info.is_bot or s not in watched or (only is not None and s != only):
            continue
        if state.view(s).legal_moves:
            out.append(s)
    return out


def send_hints(table: Table, only: int | None = None) -> None:
    """Compute and send the hints owed now (``hint_seats``); Three Towers' in a worker."""
    for seat in hint_seats(table, only):
        state = table.state
        assert state is not None
        view = state.view(seat)  # the seat's own view: all a hint reads
        if not isinstance(view, TonkView):  # Three Towers: playouts, in a worker
            if seat in table.hint_tasks:
                table.hint_again.add(seat)  # after the one being computed
                continue
            task = asyncio.get_running_loop().create_task(_towers(table, seat, view))
            table.hint_tasks[seat] = task
        else:
            fields = tonk_hint(view)
            if fields["caught"] is None and fields["pile"] is None:
                continue  # after the draw: nothing to say (the start of a turn is)
            frame = HintMessage(deal=table.deal_no, version=table.version, tonk=TonkHint(**fields))
            _deliver(table, seat, encode(frame))


async def _towers(table: Table, seat: int, view: Any) -> None:
    version, deal = table.version, table.deal_no
    try:
        fields = await table.bots.search(towers_hint, view)
    except Exception as e:  # a hint is a help: its failure costs the table nothing
        log.warning("table %s: the hint for seat %d failed: %s", table.id, seat, e)
        fields = None
    finally:
        table.hint_tasks.pop(seat, None)
    # Nothing to say (no tower under construction, no attack): no frame.
    if fields is not None and not fields["towers"] and fields["attack"] is None:
        fields = None
    if fields is not None and table.version == version and table.deal_no == deal:
        frame = HintMessage(deal=deal, version=version, towers=TowersHint(**fields))
        _deliver(table, seat, encode(frame))
    # Else the table moved on meanwhile: the hint is about a position that is gone.
    if seat in table.hint_again:
        table.hint_again.discard(seat)
        send_hints(table, seat)


def _deliver(table: Table, seat: int, frame: str) -> None:
    """``frame`` to the connections of ``seat`` only."""
    for conn in table.conns:
        if conn.seat == seat:
            conn.push(frame)
    if table.outlet is not None and seat in set(table.remote.values()):
        from .tables import seat_key

        table.outlet.updates(table.id, {seat_key(seat): frame})
