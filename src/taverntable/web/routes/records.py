"""A table's finished deals as records (``docs/record-format.md``)."""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from taverntable.records import replay_record

from ..deps import StoreDep
from ..hub import BadRequest
from ..protocol.api import HTTPError

router = APIRouter(tags=["records"])


@router.get(
    "/api/tables/{table_id}/records",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {"application/x-ndjson": {}}},
        404: {"model": HTTPError},
    },
)
async def records(table_id: str, store: StoreDep) -> PlainTextResponse:
    """The finished deals as JSON Lines records (``tavern replay`` accepts them); a deal
    in play is left out: its record would show every hand."""
    stored = await store.load(table_id)
    if stored is None:
        raise BadRequest(404, f"there is no table {table_id[:40]!r}", "no-table")
    lines = []
    for deal in stored.deals:
        if deal.finished:
            record = {**deal.header, "moves": [[s, m] for s, m in deal.moves]}
            lines.append(json.dumps(replay_record(record).record, ensure_ascii=False))
    return PlainTextResponse(
        "".join(line + "\n" for line in lines), media_type="application/x-ndjson"
    )
