"""A table's finished deals as records (``docs/record-format.md``)."""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from taverntable.records import replay_record

from ..deps import StoreDep
from ..hub import check_table_id, no_table
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
    check_table_id(table_id)
    stored = await store.load(table_id)
    if stored is None:
        raise no_table(table_id)
    lines = []
    for deal in stored.deals:
        if deal.finished:
            record = {**deal.header, "moves": [[s, m] for s, m in deal.moves]}
            lines.append(json.dumps(replay_record(record).record, ensure_ascii=False))
    return PlainTextResponse(
        "".join(line + "\n" for line in lines), media_type="application/x-ndjson"
    )
