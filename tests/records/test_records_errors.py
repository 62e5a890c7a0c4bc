"""Malformed records are rejected with one line that says where and why (spec: Errors)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from taverntable import games
from taverntable.records import RecordError, dump_record, read_records, replay_record

from paths import EXAMPLES

Record = dict[str, Any]


def example() -> Record:
    """Tonk example 1 (Kostoprav, Goblin, Elmo; Elmo deals)."""
    record: Record = json.loads((EXAMPLES / "seed-tonk-1.json").read_text(encoding="utf-8"))
    return record


def rejected(change: Callable[[Record], object]) -> str:
    """The message that rejects example 1 after ``change``."""
    record = copy.deepcopy(example())
    change(record)
    with pytest.raises(RecordError) as info:
        replay_record(record)
    message = str(info.value)
    assert "\n" not in message
    return message


def _set(path: str, value: object) -> Callable[[Record], None]:
    """Set ``record[a][b]…`` (keys separated by dots; list indices as numbers)."""

    def change(record: Record) -> None:
        *head, last = path.split(".")
        target: Any = record
        for key in head:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


def _delete(key: str) -> Callable[[Record], None]:
    return lambda record: record.pop(key)


CASES: list[tuple[str, Callable[[Record], object], str]] = [
    ("unknown top-level key", _set("dealr", 2), 'unknown key "dealr"'),
    ("unknown key in cards", _set("cards.stok", []), 'cards: unknown key "stok"'),
    (
        "unknown rule option",
        _set("rules", {"preset": "tonk", "hit_lok": True}),
        "rules: unknown rule option 'hit_lok'",
    ),
    ("unknown key in result", _set("result.winner", [0]), 'result: unknown key "winner"'),
    ("unknown preset", _set("rules", {"preset": "poker"}), "rules: unknown Tonk preset 'poker'"),
    ("preset not a name", _set("rules", {"preset": ["tonk"]}), "rules: preset must be a name"),
    (
        "preset of another game",
        _set("rules", {"preset": "tor"}),
        'rules: preset "tor" is not the game\'s ("tonk")',
    ),
    ("rules not an object", _set("rules", "tonk"), "rules: must be an object"),
    (
        "bad option value",
        _set("rules", {"hit_lock": "yes"}),
        "rules: rule option hit_lock must be true or false",
    ),
    ("unknown game", _set("game", "poker"), 'game: "poker" is not a game of this version'),
    ("missing game", _delete("game"), "game: missing"),
    ("missing players", _delete("players"), "players: missing"),
    ("one player", _set("players", ["Solo"]), "players: Tonk needs 2 to 10 players, not 1 (T2)"),
    ("eleven players", _set("players", [f"P{i}" for i in range(11)]), "not 11 (T2)"),
    ("player not a string", _set("players.1", 7), "players: must be a list of names"),
    ("empty name", _set("players.1", " "), "players: must be a list of names"),
    (
        "name with a line break",
        _set("players.1", "Gob\nlin"),
        'players[1]: "Gob\\nlin" holds a control character',
    ),
    ("missing dealer", _delete("dealer"), "dealer: missing"),
    ("dealer out of range", _set("dealer", 3), "dealer: must be a seat 0..2, not 3"),
    ("dealer is a bool", _set("dealer", True), "dealer: must be a seat 0..2, not true"),
    ("stake zero", _set("stake", 0), "stake: must be a whole number of at least 1, not 0"),
    ("stake is a bool", _set("stake", True), "stake: must be a whole number of at least 1"),
    ("stake is a string", _set("stake", "1"), 'not "1" (T2)'),
    ("missing cards", _delete("cards"), "cards: missing"),
    ("cards not an object", _set("cards", []), "cards: must be an object"),
    ("two card forms", _set("cards.seed", 5), 'cards: "seed" comes alone, not with "hands"'),
    ("missing upcard", lambda r: r["cards"].pop("upcard"), 'cards: missing "upcard"'),
    ("unknown card", _set("cards.hands.0.2", "1X"), "cards.hands[0][2]: '1X' is not a card"),
    ("card not a string", _set("cards.upcard", 5), "cards.upcard: 5 is not a card"),
    (
        "card dealt twice",
        _set("cards.stock.1", "10S"),
        "cards.stock[1]: 10S is dealt twice (also at cards.hands[0][0])",
    ),
    (
        "upcard also in a hand",
        _set("cards.upcard", "KC"),
        "cards.upcard: KC is dealt twice (also at cards.hands[1][0])",
    ),
    ("short hand", lambda r: r["cards"]["hands"][1].pop(), "cards.hands[1]: 4 cards; a hand is 5"),
    (
        "long hand",
        lambda r: r["cards"]["hands"][1].append("KS"),
        "cards.hands[1]: 6 cards; a hand is 5 (T3)",
    ),
    (
        "fewer hands than players",
        lambda r: r["players"].append("Dora"),
        "cards.hands: 3 hands for 4 players",
    ),
    ("stock not a list", _set("cards.stock", "6S"), "cards.stock: must be a list"),
    ("moves not a list", _set("moves", {}), "moves: must be a list"),
    ("move not a pair", _set("moves.0", "draw stock"), 'move 1: must be [seat, "move"]'),
    (
        "move with a text seat",
        _set("moves.2", ["1", "draw stock"]),
        'move 3: must be [seat, "move"], not ["1", "draw stock"]',
    ),
    ("move with a bool seat", _set("moves.0", [False, "draw stock"]), "move 1: must be"),
    ("move of three parts", _set("moves.0", [0, "draw", "stock"]), "move 1: must be"),
    (
        "seat not on turn",
        _set("moves.2", [2, "draw stock"]),
        'move 3 (seat 2 Elmo, "draw stock"): it is seat 1 Goblin\'s turn',
    ),
    (
        "no such seat",
        _set("moves.0", [5, "draw stock"]),
        'move 1 (seat 5, "draw stock"): there is no seat 5 (3 players)',
    ),
    (
        "move after the end",
        lambda r: r["moves"].append([1, "draw stock"]),
        'move 16 (seat 1 Goblin, "draw stock"): the deal is already over (drop)',
    ),
    (
        "card not in hand",
        _set("moves.3", [1, "discard QD"]),
        'move 4 (seat 1 Goblin, "discard QD"): QD is not in your hand (T9)',
    ),
    ("drop after drawing", _set("moves.1", [0, "drop"]), 'move 2 (seat 0 Kostoprav, "drop"): '),
    (
        "move syntax",
        _set("moves.0", [0, "draw deck"]),
        "move 1 (seat 0 Kostoprav, \"draw deck\"): 'draw deck': write 'draw stock' or 'draw pile'",
    ),
    ("not a spread", _set("moves.7", [0, "spread 8S 8D 5S"]), "neither a set"),
    ("end in tonk", _set("moves.8", [0, "end"]), "you must discard a card to end your turn (T9)"),
    (
        "result end differs",
        _set("result.end", "burned"),
        'result: the record says end "burned", the replay gives "drop"',
    ),
    (
        "result winners differ",
        _set("result.winners", [1]),
        "result: the record says winners [1], the replay gives [0]",
    ),
    (
        "result totals differ",
        _set("result.totals", [9, 10, 19]),
        "result: the record says totals [9, 10, 19]",
    ),
    (
        "result net differs",
        _set("result.net", [1, 0, -1]),
        "result: the record says net [1, 0, -1], the replay gives [2, -1, -1]",
    ),
    (
        "result payment differs",
        _set("result.payments", [[1, 0, 1], [2, 0, 2]]),
        "result: the record says payments",
    ),
    (
        "result payment missing",
        _set("result.payments", [[1, 0, 1]]),
        "result: the record says payments",
    ),
    (
        "result payment duplicated",
        _set("result.payments", [[1, 0, 1], [1, 0, 1], [2, 0, 1]]),
        "result: the record says payments",
    ),
    (
        "result payments malformed",
        _set("result.payments", [[1, 0]]),
        "result: payments must be a list of [from, to, amount] triples",
    ),
    (
        "result winners malformed",
        _set("result.winners", [[0]]),
        "result: winners must be a list of whole numbers",
    ),
    ("result key missing", lambda r: r["result"].pop("net"), 'result: missing key "net"'),
    ("result not an object", _set("result", "drop"), "result: must be a JSON object"),
    ("result null", _set("result", None), "result: must be a JSON object"),
    (
        "result of a game in progress",
        lambda r: r["moves"].pop(),
        "result: the record states a result, but the deal is not over (seat 0 Kostoprav to move)",
    ),
]


@pytest.mark.parametrize(("change", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_record_is_rejected_naming_the_problem(
    change: Callable[[Record], object], expected: str
) -> None:
    assert expected in rejected(change)


def test_result_order_of_winners_and_payments_does_not_matter() -> None:
    record = example()
    record["result"]["payments"].reverse()
    assert replay_record(record).result is not None
    tor: Record = json.loads((EXAMPLES / "seed-tor.json").read_text(encoding="utf-8"))
    tor["result"]["payments"] = [[3, 2, 1], [0, 2, 1], [1, 2, 1]]
    assert (
        replay_record(tor).result
        == json.loads((EXAMPLES / "seed-tor.json").read_text(encoding="utf-8"))["result"]
    )


def test_record_that_is_not_an_object_is_rejected() -> None:
    with pytest.raises(RecordError, match="a record must be a JSON object"):
        replay_record([])  # type: ignore[arg-type]


def test_unsupported_three_towers_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    # Point the game registry at a module that does not exist, as in a build without Three
    # Towers: the other games still replay.
    monkeypatch.setitem(games.GAMES, "three-towers", "taverntable.games.no_such_game:GAME")
    record = {"game": "three-towers", "players": ["A", "B"], "cards": {"seed": 1}, "moves": []}
    with pytest.raises(
        RecordError,
        match=r"^three-towers records are not supported by this "
        r"version$",
    ):
        replay_record(record)
    tonk = json.loads((EXAMPLES / "seed-tor.json").read_text(encoding="utf-8"))
    assert replay_record(tonk).result is not None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"game": "tonk",', "not valid JSON"),
        ('{"game": "tonk", "game": "tor"}', 'not valid JSON: key "game" appears twice'),
        ('{"stake": NaN}', "not valid JSON: NaN is not a JSON number"),
        ("[1, 2]", "a record must be a JSON object, not an array"),
        ("null", "a record must be a JSON object, not null"),
    ],
)
def test_bad_json_is_rejected(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    [(label, item)] = list(read_records(str(path)))
    assert label == str(path)
    assert isinstance(item, RecordError)
    assert expected in str(item)


def test_deal_time_win_has_no_moves() -> None:
    record = {
        "game": "tonk",
        "players": ["A", "B"],
        "dealer": 1,
        "cards": {
            "hands": [["AS", "2S", "3S", "4S", "5S"], ["KH", "QH", "JH", "10H", "9H"]],
            "upcard": "2C",
        },
        "moves": [[0, "drop"]],
    }
    with pytest.raises(
        RecordError,
        match=r'^move 1 \(seat 0 A, "drop"\): the deal is already '
        r"over \(tonk\)$",
    ):
        replay_record(record)


def test_dump_checks_the_names() -> None:
    state = replay_record(example()).state
    with pytest.raises(RecordError, match=r"^players: 2 names for 3 players$"):
        dump_record(state, ["A", "B"])
    with pytest.raises(RecordError, match=r"^players: must be a list of names"):
        dump_record(state, ["A", "", "C"])
