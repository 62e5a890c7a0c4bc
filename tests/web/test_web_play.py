"""``tavern serve`` plays whole matches: clients over real WebSockets, bots, records, leaks.

The server runs in uvicorn, in a thread of the test process; the clients are scripted players
that choose random legal moves from their own views.
"""

from __future__ import annotations

import asyncio

from taverntable.records import replay_record

from web_helpers import (
    Player,
    check_messages,
    create,
    join,
    play_from_the_start,
    records,
    server_thread,
    start,
    ws_url,
)


def test_two_people_and_a_bot_play_a_whole_tonk_match(database: str) -> None:
    """T12-T13: a match of 4 deals; the balances are the sums of the deals' payments, every
    deal downloads as a record that replays to its result."""
    with server_thread(database) as base:
        made = create(
            base,
            "tonk",
            [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "medium"}],
            host_seat=0,
            host_name="Anna",
            deals=4,
            stake=2,
        )
        table = made["table"]["id"]
        other = join(base, table, "Bence")
        assert other["seat"] == 1
        # The people never drop (T6; the bot does), so that each has a turn: with random drops
        # one match in 500 left a person without any (6 of 3,000 simulated; none of 3,000
        # when the people never drop).
        players = [
            Player(ws_url(base, table, made["token"]), 0, 1, declines=("drop",)),
            Player(ws_url(base, table, other["token"]), 1, 2, declines=("drop",)),
            Player(ws_url(base, table), None, 3),
        ]
        asyncio.run(play_from_the_start(players, lambda: start(base, table, made["host_token"])))
        deals = records(base, table)
    assert len(deals) == 4
    final = [m for m in players[0].messages if m["type"] == "table"][-1]["table"]
    net = [sum(replay_record(d).result["net"][s] for d in deals) for s in range(3)]
    assert final["balances"] == net and sum(net) == 0
    assert [d["players"] for d in deals] == [["Anna", "Bence", "Goblin"]] * 4
    for p in players:
        assert check_messages(deals, p) > 0
    assert players[0].moves > 0 and players[1].moves > 0


def test_a_whole_three_towers_game_with_two_people_and_a_bot(database: str) -> None:
    """R14: one whole game of two rounds; the result in the record is the table's."""
    with server_thread(database) as base:
        made = create(
            base,
            "three-towers",
            [{"kind": "person"}, {"kind": "bot"}, {"kind": "person"}],
            options={"max_rounds": 2},
            host_seat=2,
            host_name="Zarr",
            deals=1,
        )
        table = made["table"]["id"]
        other = join(base, table, "Ilse")
        assert other["seat"] == 0
        players = [
            Player(ws_url(base, table, made["token"]), 2, 5),
            Player(ws_url(base, table, other["token"]), 0, 6),
            Player(ws_url(base, table), None, 7),
        ]
        asyncio.run(play_from_the_start(players, lambda: start(base, table, made["host_token"])))
        deals = records(base, table)
    assert len(deals) == 1
    result = replay_record(deals[0]).result
    assert result is not None and len(result["rounds"]) == 2
    final = [m for m in players[1].messages if m["type"] == "table"][-1]["table"]
    assert final["balances"] == [float(x) for x in result["scores"]]
    for p in players:
        assert check_messages(deals, p) > 0
