"""Shuffles at the server (issue 24, item 8): every deal is dealt from a seed of its own, drawn
from ``secrets`` when the deal begins, so the stock orders a finished match's records publish
tell nothing of the table's other deals; and the records still replay with ``tavern replay``."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from taverntable import cli
from taverntable.records import dump_record
from taverntable.web import tables
from taverntable.web.botpool import BotPool
from taverntable.web.hub import Hub
from taverntable.web.protocol.api import CreateTable, SeatSpec
from taverntable.web.store import Store
from taverntable.web.usage import Limits

from web_helpers import QUICK, sqlite_url

# Bot tables nobody watches play on here (they would pause after a minute).
PLAY_ON = Limits(unwatched_seconds=0.0)


def header_of(state: Any, players: list[str]) -> dict[str, Any]:
    record = dump_record(state, players)
    return {k: v for k, v in record.items() if k not in ("moves", "result")}


def test_each_deal_is_dealt_from_a_fresh_seed_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(Tonk: its deals are short; the server deals every game through the same code.)"""
    # The source of ``secrets`` replaced by a known one, every draw noted.
    source = random.Random(2024)
    draws: list[tuple[int, int]] = []

    def randbits(bits: int) -> int:
        value = source.getrandbits(bits)
        draws.append((bits, value))
        return value

    monkeypatch.setattr(tables.secrets, "randbits", randbits)

    async def play() -> tuple[list[dict[str, Any]], Any, list[str]]:
        hub = Hub(Store(sqlite_url(tmp_path)), BotPool(1), QUICK, PLAY_ON)
        await hub.open()
        seats = [SeatSpec(kind="bot", level="easy") for _ in range(3)]
        made = await hub.create(CreateTable(game="tonk", seats=seats, deals=4))
        table = made.table
        await table.start()
        deadline = time.monotonic() + 120
        while table.status != "finished":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)
        stored = await hub.store.load(table.id)
        assert stored is not None
        await hub.close()
        return [d.header for d in stored.deals], table, table.players()

    headers, table, players = asyncio.run(play())
    assert len(headers) == 4
    seeds = [value for _, value in draws]  # (bots draw theirs there too)
    rules = table.rules
    stake = table.settings.stake
    # Each deal is the one a fresh generator deals from a seed drawn for it, one draw a deal
    # (the first draw: the generator the table was made with, before any deal).
    used = []
    for header in headers:
        matches = [
            k
            for k, seed in enumerate(seeds)
            if header_of(
                table.game.start(
                    rules,
                    len(players),
                    rng=random.Random(seed),
                    dealer=header["dealer"],
                    stake=stake,
                ),
                players,
            )
            == header
        ]
        assert len(matches) == 1, "a deal not dealt from a fresh seed of its own"
        used.append(matches[0])
    assert len(set(used)) == 4 and used == sorted(used)
    # Not one generator serving successive deals: the generator of a deal, dealing on,
    # deals something else than the next deal.
    for k in range(3):
        rng = random.Random(seeds[used[k]])
        table.game.start(rules, len(players), rng=rng, dealer=headers[k]["dealer"], stake=stake)
        after = table.game.start(
            rules, len(players), rng=rng, dealer=headers[k + 1]["dealer"], stake=stake
        )
        assert header_of(after, players) != headers[k + 1]


def test_a_tables_records_replay_with_tavern_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def play() -> list[str]:
        hub = Hub(Store(sqlite_url(tmp_path)), BotPool(1), QUICK, PLAY_ON)
        await hub.open()
        seats = [SeatSpec(kind="bot", level="easy") for _ in range(3)]
        made = await hub.create(CreateTable(game="tonk", seats=seats, deals=3))
        await made.table.start()
        deadline = time.monotonic() + 120
        while made.table.status != "finished":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)
        stored = await hub.store.load(made.table.id)
        assert stored is not None
        await hub.close()
        return [
            json.dumps({**d.header, "moves": [[s, m] for s, m in d.moves]}) for d in stored.deals
        ]

    lines = asyncio.run(play())
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    assert cli.main(["replay", "--json", str(path)]) == 0
    replayed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(replayed) == 3 and all("result" in r for r in replayed)
