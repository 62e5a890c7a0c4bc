"""No message to a seat or a spectator holds a card hidden from it: many games of every game
through the server, every message checked against the receiving seat's view (``check_messages``
recomputes each view and each event from the table's records, with the engine); no replay of a
deal in play shows more than the asking seat may see (``check_replay``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx2
import pytest
import websockets

from taverntable.cards import RANKS, SUITS
from taverntable.games import get_game
from taverntable.records import replay_record
from taverntable.web import tables as tables_module
from taverntable.web.tables import Pace

from web_helpers import (
    HTTP,
    Player,
    check_messages,
    check_replay,
    create,
    join,
    records,
    server_thread,
    sqlite_url,
    start,
    stored_record,
    wait_for_a_person,
    ws_url,
)

# (game, options, people, bots): the people are scripted clients choosing random legal moves.
TABLES: list[tuple[str, dict[str, Any], int, int]] = [
    ("tonk", {}, 2, 1),
    ("tor", {}, 3, 1),
    ("pagat", {}, 2, 2),
    ("tonk", {"hit_lock": True}, 4, 2),
    ("three-towers", {"max_rounds": 1}, 2, 1),
    ("three-towers", {"max_rounds": 1, "teams": True, "own_store_visible": False}, 3, 1),
]


def play_tables(base: str, deals: int, seed: int) -> tuple[int, int]:
    """Every table of TABLES played at once for ``deals`` deals each; returns (deals played,
    messages checked)."""
    rng = random.Random(seed)
    games = []
    players: list[Player] = []
    for game, options, people, bots in TABLES:
        seats = [{"kind": "person"}] * people + [{"kind": "bot", "level": "easy"}] * bots
        rng.shuffle(seats)
        host = next(k for k, s in enumerate(seats) if s["kind"] == "person")
        per_table = deals if get_game(game).family != "three-towers" else max(1, deals // 10)
        made = create(
            base,
            game,
            seats,
            options=options,
            host_seat=host,
            host_name="Host",
            deals=per_table,
            absent_seconds=3600,
        )
        table = made["table"]["id"]
        tokens = {host: made["token"]}
        for k, seat in enumerate(seats):
            if seat["kind"] == "person" and k != host:
                tokens[k] = join(base, table, f"P{k}", k)["token"]
        start(base, table, made["host_token"])
        games.append(table)
        players += [
            Player(ws_url(base, table, t), s, rng.getrandbits(32)) for s, t in tokens.items()
        ]
        players.append(Player(ws_url(base, table), None, 0))  # a spectator

    async def run() -> None:
        await asyncio.gather(*(p.run(timeout=900) for p in players))

    asyncio.run(run())
    played = checked = 0
    by_url = {}
    for table in games:
        by_url[table] = records(base, table)
        played += len(by_url[table])
    for p in players:
        table = p.url.split("/ws/")[1].split("?")[0]
        checked += check_messages(by_url[table], p)
    return played, checked


def test_no_message_holds_a_hidden_card(database: str) -> None:
    with server_thread(database) as base:
        played, checked = play_tables(base, 30, seed=1)
    assert played >= 4 * 30 + 2 * 3 and checked > 3000


def test_no_log_or_announcement_holds_a_hidden_card(tmp_path: Path) -> None:
    """Issue 26: people who leave and come back every few moves get the deal's log (``log``)
    on each connection, and the bots' deal-ending moves are announced before the hands show
    (``announce``); every such frame is the events as that seat saw them (its own draws only,
    recomputed from the records), and the hands come only in the update after the
    announcement (T6: shown at the deal's end, never before)."""
    rng = random.Random(3)
    pace = Pace(bot_delay=0.0, deal_pause=0.0, announce=0.01)
    with server_thread(sqlite_url(tmp_path), pace) as base:
        players: list[Player] = []
        tables = []
        for game, options, deals in (
            ("tonk", {}, 12),
            ("pagat", {}, 12),
            ("three-towers", {"max_rounds": 1}, 1),
        ):
            seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
            seats += [{"kind": "bot", "level": "medium"}]
            made = create(
                base, game, seats, options=options, host_seat=0, deals=deals, absent_seconds=3600
            )
            table = made["table"]["id"]
            tables.append(table)
            start(base, table, made["host_token"])

            async def come_and_go(table: str = table, token: str = made["token"]) -> None:
                while HTTP.get(f"{base}/api/tables/{table}").json()["status"] != "finished":
                    player = Player(ws_url(base, table, token), 0, rng.getrandbits(32))
                    player.stop_after = rng.randrange(1, 4)
                    player.declines = ("drop",)  # longer deals: more to log
                    players.append(player)
                    await player.run(timeout=300)
                    watcher = Player(ws_url(base, table), None, 0)  # a spectator looks in
                    players.append(watcher)
                    with contextlib.suppress(TimeoutError):
                        await watcher.run(timeout=0.05)

            asyncio.run(come_and_go())
        checked = logs = announced = 0
        for p in players:
            table = p.url.split("/ws/")[1].split("?")[0]
            checked += check_messages(records(base, table), p)
            kinds = [m["type"] for m in p.messages]
            logs += kinds.count("log")
            announced += kinds.count("announce")
    assert checked > 100 and logs >= 20 and announced >= 5, (checked, logs, announced)


def hints_as_the_view_says(deals: list[dict[str, Any]], player: Player, every: int = 1) -> int:
    """Every ``hint`` frame the player got is for its own seat's decision, and is exactly the
    coach's hint computed here from that seat's view at the hint's version (replayed from the
    table's records by the engine): a hint is a function of the view, so it holds nothing the
    seat may not see. Three Towers' (playouts) are recomputed for every ``every``-th. Returns
    the hints checked."""
    from taverntable.coach.hints import tonk_hint, towers_hint
    from taverntable.web.protocol.frames import encode
    from taverntable.web.protocol.review import HintMessage, TonkHint, TowersHint
    from taverntable.web.tables import DEAL_VERSIONS

    hints = [m for m in player.messages if m["type"] == "hint"]
    assert player.seat is not None or not hints, "a spectator got a hint"
    checked = 0
    for k, hint in enumerate(hints):
        deal, moves = divmod(hint["version"], DEAL_VERSIONS)
        assert deal == hint["deal"]
        record = deals[deal - 1]
        head = {k: v for k, v in record.items() if k not in ("moves", "result")}
        # The version counts the engine's history, which the header's own chance steps start.
        done = len(replay_record({**head, "moves": []}).state.history)
        state = replay_record({**head, "moves": record["moves"][: moves - done]}).state
        assert len(state.history) == moves
        view = state.view(player.seat)
        assert view.legal_moves, "a hint for a seat without a decision"
        if "tonk" in hint:
            # At the start of a turn only: the drop and the draw (after it, nothing to say).
            assert view.phase == "start" and hint["tonk"]["caught"] is not None
            want = HintMessage(deal=deal, version=hint["version"], tonk=TonkHint(**tonk_hint(view)))
        elif k % every == 0:
            fields = towers_hint(view)
            want = HintMessage(deal=deal, version=hint["version"], towers=TowersHint(**fields))
        else:
            continue
        assert hint == json.loads(encode(want)), (hint, want)
        checked += 1
    return checked


def test_no_hint_holds_more_than_the_seats_own_view(tmp_path: Path) -> None:
    """Issue 27: at tables with hints on, every person's seat gets ``hint`` frames at its
    decisions (spectators none), and each is the coach's hint computed from that seat's view
    alone; the other messages still hold no hidden card."""
    rng = random.Random(5)
    with server_thread(sqlite_url(tmp_path)) as base:
        players: list[Player] = []
        tables = []
        for game, options, deals in (("tonk", {}, 6), ("pagat", {}, 4)):
            seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}]
            made = create(
                base,
                game,
                seats,
                options=options,
                host_seat=0,
                deals=deals,
                absent_seconds=3600,
                hints=True,
            )
            table = made["table"]["id"]
            tables.append(table)
            other = join(base, table, "P1", 1)["token"]
            for seat, token in ((0, made["token"]), (1, other)):
                player = Player(ws_url(base, table, token), seat, rng.getrandbits(32))
                player.declines = ("drop",)
                players.append(player)
            players.append(Player(ws_url(base, table), None, 0))  # a spectator
            start(base, table, made["host_token"])

        async def run() -> None:
            await asyncio.gather(*(p.run(timeout=600) for p in players))

        asyncio.run(run())
        by_table = {table: records(base, table) for table in tables}
    hinted = checked = 0
    for p in players:
        table = p.url.split("/ws/")[1].split("?")[0]
        checked += check_messages(by_table[table], p)
        hinted += hints_as_the_view_says(by_table[table], p)
    assert checked > 100 and hinted >= 20, (checked, hinted)


def test_a_three_towers_hint_is_the_seats_own_views(tmp_path: Path) -> None:
    """Issue 27: a Three Towers seat that takes its time (a person who lets the turn timer run
    out, a bot moving for them after a second) gets a hint at its decisions, computed in a
    worker from that seat's view alone (recomputed here from the stored moves); a spectator
    gets none."""
    database = sqlite_url(tmp_path)
    with server_thread(database) as base:
        seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
        seats += [{"kind": "bot", "level": "easy"}]
        made = create(
            base,
            "three-towers",
            seats,
            options={"max_rounds": 1},
            host_seat=0,
            deals=1,
            turn_seconds=1,
            absent_seconds=3600,
            hints=True,
        )
        table = made["table"]["id"]
        start(base, table, made["host_token"])

        async def listen(url: str, seconds: float) -> list[str]:
            frames: list[str] = []
            async with websockets.connect(url, max_size=None) as ws:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(seconds):
                        async for raw in ws:
                            frames.append(raw if isinstance(raw, str) else raw.decode())
            return frames

        async def both() -> list[list[str]]:
            return list(
                await asyncio.gather(
                    listen(ws_url(base, table, made["token"]), 40), listen(ws_url(base, table), 40)
                )
            )

        mine, spectators = asyncio.run(both())
        record = stored_record(database, table, 1)
    player = Player(ws_url(base, table, made["token"]), 0, 0, frames=mine)
    watcher = Player(ws_url(base, table), None, 0, frames=spectators)
    hints = [m for m in player.messages if m["type"] == "hint"]
    assert len(hints) >= 3, [m["type"] for m in player.messages]
    assert not [m for m in watcher.messages if m["type"] == "hint"]
    # The hints about moves the database holds by now (the deal is still in play).
    moves = len(record["moves"])
    player.frames = [
        f for f in mine if '"hint"' not in f or json.loads(f)["version"] % 10**6 <= moves
    ]
    assert hints_as_the_view_says([record], player, every=1) >= 3


def test_no_player_reads_the_spectators_chat(tmp_path: Path) -> None:
    """Issue 26, item 6: chat carries no card, but its channels are a separation of their own:
    while two people play a match and a spectator watches, all three chat (the spectator into
    the players' channel too, refused); every frame each client received passes
    ``check_messages`` (a seat's connection never gets a line of the spectators' channel), the
    spectator reads both channels, and no chat frame carries a view or an event."""
    import json

    import websockets

    with server_thread(sqlite_url(tmp_path)) as base:
        seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}]
        made = create(base, "tonk", seats, host_seat=0, deals=2, absent_seconds=3600)
        table = made["table"]["id"]
        other = join(base, table, "Bence")
        players = [
            Player(ws_url(base, table, made["token"]), 0, 1),
            Player(ws_url(base, table, other["token"]), 1, 2),
            Player(ws_url(base, table), None, 3),
        ]
        refused: list[str] = []

        async def chatter(lines: int, ask: bool) -> None:
            # At most RATE_COUNT (5) lines from one person in 10 s, the refused one included.
            urls = [players[0].url, players[1].url, ws_url(base, table)]
            async with (
                websockets.connect(urls[0]) as a,
                websockets.connect(urls[1]) as b,
                websockets.connect(urls[2]) as w,
            ):
                for k in range(lines):
                    await a.send(json.dumps({"type": "say", "text": f"anna {k} QH"}))
                    await b.send(json.dumps({"type": "say", "phrase": "nice-move"}))
                    await w.send(json.dumps({"type": "say", "text": f"watching {k}"}))
                    await asyncio.sleep(0.1)
                if not ask:
                    return
                await w.send(json.dumps({"type": "say", "channel": "players", "text": "psst"}))
                async with asyncio.timeout(20):
                    while True:
                        m = json.loads(await w.recv())
                        if m["type"] == "error":
                            refused.append(m["code"])
                            return

        async def run() -> None:
            # Most of the chat is said before the match starts, the rest while it is played: a
            # fast server may end two deals before a line said during play arrives, and the
            # players' own connections read what was said before they came in the
            # ``chat-history`` frame, so each channel's separation is checked either way.
            await chatter(3, ask=True)
            start(base, table, made["host_token"])
            await asyncio.gather(chatter(1, ask=False), *(p.run(timeout=120) for p in players))

        asyncio.run(run())
        deals = records(base, table)
    assert refused == ["chat-channel"]
    for p in players:
        assert check_messages(deals, p) > 0
    said = [
        [
            line["channel"]
            for m in p.messages
            if m["type"] in ("chat", "chat-history")
            for line in ([m["line"]] if m["type"] == "chat" else m["lines"])
        ]
        for p in players
    ]
    assert said[0] and said[1] and set(said[0]) == set(said[1]) == {"players"}, said
    assert "spectators" in said[2] and "players" in said[2], said[2]


@pytest.mark.slow
def test_no_message_holds_a_hidden_card_in_thousands_of_games(tmp_path: Path) -> None:
    """The same over 2,100 games (about 3 minutes; SQLite only, to keep CI short)."""
    with server_thread(sqlite_url(tmp_path)) as base:
        played, checked = play_tables(base, 500, seed=2)
    assert played >= 2000 and checked > 50_000


def test_no_replay_shows_a_hidden_card_of_a_deal_in_play(database: str) -> None:
    """Every table of TABLES left in the middle of a deal (each person makes a few moves, then
    leaves; nobody plays for them): its replay, asked for with every ``seat`` and every token
    (none, each person's), is refused (409 open, 403 another seat) or is exactly what the
    token's seat (or a spectator) may see, step by step (``check_replay``); the deal's record
    does not download."""
    rng = random.Random(3)
    with server_thread(database) as base:
        tables = []
        for game, options, people, bots in TABLES:
            seats = [{"kind": "person"}] * people + [{"kind": "bot", "level": "easy"}] * bots
            rng.shuffle(seats)
            host = next(k for k, s in enumerate(seats) if s["kind"] == "person")
            made = create(base, game, seats, options=options, host_seat=host, absent_seconds=3600)
            table = made["table"]["id"]
            tokens = {host: made["token"]}
            for k, seat in enumerate(seats):
                if seat["kind"] == "person" and k != host:
                    tokens[k] = join(base, table, f"P{k}", k)["token"]
            start(base, table, made["host_token"])
            tables.append((table, tokens, len(seats)))
        players = [
            Player(ws_url(base, table, token), seat, rng.getrandbits(32), stop_after=3)
            for table, tokens, _ in tables
            for seat, token in tokens.items()
        ]

        async def run(player: Player) -> None:
            with contextlib.suppress(TimeoutError):  # waiting for a seat that has left
                await player.run(timeout=6)

        async def everyone() -> None:
            await asyncio.gather(*(run(p) for p in players))

        asyncio.run(everyone())
        client = httpx2.Client(timeout=30)  # no seat cookie: only the tokens given below
        checked = refused = moved = 0
        for table, tokens, size in tables:
            deal = wait_for_a_person(base, table, set(tokens))
            record = stored_record(database, table, deal)
            moved += len(record["moves"]) > 0  # (a deal may have just begun)
            download = client.get(f"{base}/api/tables/{table}/records", params={"deal": deal})
            assert download.status_code == 409
            for token_seat in [None, *tokens]:
                headers = {} if token_seat is None else {"X-Seat-Token": tokens[token_seat]}
                for seat in [None, "open", "spectator", *map(str, range(size))]:
                    params = {} if seat is None else {"seat": seat}
                    answer = client.get(
                        f"{base}/api/replays/{table}/{deal}", params=params, headers=headers
                    )
                    if answer.status_code in (403, 409):
                        refused += 1
                        continue
                    assert answer.status_code == 200, answer.text
                    body = answer.json()
                    assert body["seen_as"] != "open" and body["result"] is None
                    if body["seen_as"] == "seat":
                        assert body["seat"] == token_seat  # only the asking seat's own eyes
                    check_replay(body, record, body["seat"])
                    checked += 1
    assert checked >= 6 * 2 and refused >= 6 * 3 and moved >= 4


# --- the history, the leaderboard and profiles (issue 25) ---------------------------------------

CARDS = {rank + suit for rank in RANKS for suit in SUITS}
# What a view or a record holds: none of these is a key of a history answer.
VIEW_KEYS = {"hand", "hands", "stock", "pile", "cards", "moves", "view", "header", "deck"}


def holds_a_card(value: Any) -> bool:
    """Whether any string of the answer is a card or a list of cards, or any key a view's."""
    if isinstance(value, dict):
        return bool(VIEW_KEYS & set(value)) or any(holds_a_card(v) for v in value.values())
    if isinstance(value, list):
        return any(holds_a_card(v) for v in value)
    if isinstance(value, str):
        words = value.split()
        return bool(words) and all(w in CARDS for w in words)
    return False


def test_no_history_ladder_or_profile_answer_shows_a_card_of_a_deal_in_play(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A signed-in person's match with a deal in play (the person to move, the bot's hand and
    the stock hidden from everyone else): My games, the profile, the leaderboard and the
    deal's record name the deal by number only, and its record is not given out."""
    # A first deal not over before its first move (no win on the deal, T4); the person, after
    # the dealer, moves first (T5), and is never played for: the deal waits for them.
    tonk = get_game("tonk")
    seed = next(
        s
        for s in range(1000)
        if not tonk.start(tonk.rules({}), 2, rng=random.Random(s), dealer=0).is_over
    )
    monkeypatch.setattr(tables_module, "secrets", SimpleNamespace(randbits=lambda bits: seed))
    with server_thread(database) as base:
        anna = httpx2.Client(base_url=base, timeout=30)
        me = anna.post(
            "/api/account/signup", json={"name": "Anna", "password": "a tavern of cards"}
        ).json()
        made = anna.post(
            "/api/tables",
            json={
                "game": "tonk",
                "seats": [{"kind": "bot", "level": "easy"}, {"kind": "person"}],
                "host_seat": 1,
                "deals": 3,
                "absent_seconds": 3600,
            },
        ).json()
        table = made["table"]["id"]
        anna.post(f"/api/tables/{table}/start", headers={"X-Host-Token": made["host_token"]})
        summary = anna.get(f"/api/tables/{table}").json()
        assert summary["status"] == "playing" and summary["sheet"] == []  # deal 1 in play
        guest = httpx2.Client(base_url=base, timeout=30)
        answers = {
            "my games": anna.get("/api/account/games").json(),
            "profile": guest.get(f"/api/players/{me['id']}").json(),
            "ladder": guest.get("/api/ladder/tonk").json(),
        }
        (entry,) = answers["my games"]["items"]
        assert entry["status"] == "playing" and entry["deals"] == []  # no deal to watch yet
        assert answers["profile"]["recent"] == []  # a running match is not on the profile
        for what, answer in answers.items():
            assert not holds_a_card(answer), what
        running = guest.get(f"/api/tables/{table}/records?deal=1")
        assert (running.status_code, running.json()["code"]) == (409, "deal-in-play")
        assert guest.get(f"/api/tables/{table}/records").text == ""
    assert holds_a_card({"hand": []}) and holds_a_card(["x", "10H QS"])  # the check checks
