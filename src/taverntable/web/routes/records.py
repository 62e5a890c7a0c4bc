"""A table's finished deals as records (``docs/record-format.md``)."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse

from taverntable.records import replay_record

from ..deps import StoreDep
from ..hub import BadRequest, check_table_id, no_table
from ..protocol.api import HTTPError

router = APIRouter(tags=["records"])


@router.get(
    "/api/tables/{table_id}/records",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {"application/x-ndjson": {}}},
        404: {"model": HTTPError},
        409: {"model": HTTPError},
    },
)
async def records(
    table_id: str,
    store: StoreDep,
    deal: Annotated[int | None, Query(description="only this deal's record")] = None,
) -> PlainTextResponse:
    """The finished deals as JSON Lines records (``tavern replay`` accepts them), or only
    ``deal``'s, as a file to download; a deal in play is left out (refused, asked for by its
    number): its record would show every hand."""
    check_table_id(table_id)
    stored = await store.load(table_id)
    if stored is None:
        raise no_table(table_id)
    chosen = stored.deals
    if deal is not None:
        chosen = [d for d in stored.deals if d.number == deal]
        if not chosen:
            raise BadRequest(404, f"the table has no deal {deal}", "no-deal")
        if not chosen[0].finished:
            raise BadRequest(
                409, "a deal in play has no record yet: it would show every hand", "deal-in-play"
            )
    lines = []
    for d in chosen:
        if d.finished:
            record = {**d.header, "moves": [[s, m] for s, m in d.moves]}
            lines.append(json.dumps(replay_record(record).record, ensure_ascii=False))
    name = f"tavern-{table_id}" + ("" if deal is None else f"-{deal}") + ".jsonl"
    return PlainTextResponse(
        "".join(line + "\n" for line in lines),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
