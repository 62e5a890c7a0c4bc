"""The three forms of ``cards``, canonical completion of the stock, deal-time wins, games in
progress (spec: Tonk family, The result)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from taverntable.cards import CARDS
from taverntable.games.tonk import TonkState, rules_from
from taverntable.records import RecordError, dump_record, replay_record

from paths import EXAMPLES

Record = dict[str, Any]


def example(name: str = "seed-tonk-1") -> Record:
    record: Record = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return record


def deck_of(state: TonkState) -> list[str]:
    """The whole deck, top first, that deals ``state``'s hands one card at a time (T3)."""
    n = state.num_players
    first = (state.dealer + 1) % n
    deck = [state.initial_hands[(first + k) % n][k // n] for k in range(5 * n)]
    deck += [state.upcard, *state.initial_stock]
    return [CARDS[c].text for c in deck]


def random_moves(state: TonkState, rng: random.Random, limit: int) -> list[list[Any]]:
    """Random legal play for at most ``limit`` moves; the moves as record pairs."""
    moves: list[list[Any]] = []
    while not state.is_over and len(moves) < limit:
        seat = state.current_seat
        move = rng.choice(state.legal_moves())
        state.apply(move)
        moves.append([seat, str(move)])
    return moves


@pytest.mark.parametrize("preset", ["tonk", "tor", "pagat"])
@pytest.mark.parametrize("seed", range(8))
def test_deck_seed_and_hands_forms_agree(preset: str, seed: int) -> None:
    n, dealer = 2 + seed % 9, seed % 3
    rng = random.Random(seed)
    state = TonkState.deal(rules_from(preset), n, rng=seed, dealer=dealer)
    moves = random_moves(state, rng, 200)
    base = dump_record(state, [f"P{i}" for i in range(n)])
    forms = [base["cards"], {"deck": deck_of(state)}, {"seed": seed}]
    results = []
    for cards in forms:
        replayed = replay_record({**base, "cards": cards, "moves": moves})
        assert replayed.state.initial_hands == state.initial_hands
        assert replayed.state.initial_stock == state.initial_stock
        results.append((replayed.result, replayed.state.history))
    assert results[0] == results[1] == results[2]
    assert results[0][0] == base.get("result")


def test_deck_form_deals_one_card_at_a_time_from_the_seat_after_the_dealer() -> None:
    deck = [f"{r}{s}" for s in "SHDC" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]]
    # Two players, dealer 1: seat 0 gets deck[0], deck[2], … and seat 1 gets deck[1], deck[3], …
    record = {"game": "tor", "players": ["A", "B"], "dealer": 1, "cards": {"deck": deck}}
    state = replay_record(record).state
    assert [CARDS[c].text for c in state.initial_hands[0]] == ["AS", "3S", "5S", "7S", "9S"]
    assert [CARDS[c].text for c in state.initial_hands[1]] == ["2S", "4S", "6S", "8S", "10S"]
    assert CARDS[state.upcard].text == "JS"
    assert CARDS[state.initial_stock[0]].text == "QS"


def test_seed_form_is_the_engine_shuffle() -> None:
    record = {
        "game": "pagat",
        "players": ["A", "B", "C"],
        "dealer": 2,
        "stake": 3,
        "cards": {"seed": 12345},
    }
    state = replay_record(record).state
    direct = TonkState.deal(rules_from("pagat"), 3, rng=12345, dealer=2, stake=3)
    assert state.initial_hands == direct.initial_hands
    assert state.initial_stock == direct.initial_stock
    assert state.stake == 3


def test_canonical_completion_of_a_short_stock() -> None:
    record = example("seed-tonk-2")
    state = replay_record(record).state
    given = [CARDS[c].text for c in state.initial_stock[:3]]
    assert given == ["JS", "10H", "9H"]
    rest = list(state.initial_stock[3:])
    assert rest == sorted(rest)  # suits S H D C, each A..K: the canonical index order
    named = {c for h in state.initial_hands for c in h} | {state.upcard, *state.initial_stock[:3]}
    assert set(rest) == set(range(52)) - named
    assert CARDS[rest[0]].text == "2S"  # AS is in Goblin's hand


def test_omitted_stock_is_completed_entirely() -> None:
    record = example("seed-tonk-2")
    del record["cards"]["stock"], record["result"]
    state = replay_record({**record, "moves": []}).state
    assert list(state.initial_stock) == sorted(state.initial_stock)
    assert len(state.initial_stock) == 52 - 16
    # Kostoprav now draws 2S (AS is Goblin's), not JS, so his spread names a card he lacks.
    with pytest.raises(
        RecordError,
        match=r'^move 2 \(seat 0 Kostoprav, "spread 9S 10S JS"\): '
        r"JS is not in your hand \(T8\)$",
    ):
        replay_record(record)


def test_deck_form_errors() -> None:
    deck = [c.text for c in CARDS]
    base = {"game": "tonk", "players": ["A", "B"], "dealer": 0}
    with pytest.raises(RecordError, match=r"^cards.deck: holds 51 cards, not 52 \(missing: KC\)$"):
        replay_record({**base, "cards": {"deck": deck[:-1]}})
    with pytest.raises(RecordError, match=r"^cards.deck\[51\]: AS is dealt twice"):
        replay_record({**base, "cards": {"deck": [*deck[:-1], "AS"]}})
    with pytest.raises(RecordError, match=r"^cards.deck: must be a list"):
        replay_record({**base, "cards": {"deck": "AS 2S"}})
    with pytest.raises(RecordError, match=r"^cards.seed: must be a whole number, not 1.5$"):
        replay_record({**base, "cards": {"seed": 1.5}})
    with pytest.raises(RecordError, match=r"^cards.seed: must be a whole number, not true$"):
        replay_record({**base, "cards": {"seed": True}})


def test_card_names_accept_the_T1_input_forms() -> None:
    record = example()
    record["cards"]["hands"][0] = ["TS", "8d", "8♥", "5S", "4C"]
    assert replay_record(record).result == example()["result"]


def test_T1_one_is_not_an_ace_in_a_record() -> None:
    record = example()
    record["cards"]["hands"][1][4] = "1H"  # Goblin's AH
    with pytest.raises(
        RecordError,
        match=r"^cards.hands\[1\]\[4\]: '1H' is not a card: write an "
        r"ace as AH, a ten as 10H or TH \(T1\)$",
    ):
        replay_record(record)
    record = example()
    record["moves"][1] = [0, "discard 1S"]  # a slip for 10S
    with pytest.raises(
        RecordError,
        match=r'^move 2 \(seat 0 Kostoprav, "discard 1S"\): .*'
        r"'1S' is not a card: write an ace as AS, a ten as 10S",
    ):
        replay_record(record)
    towers = {
        "game": "three-towers",
        "players": ["A", "B"],
        "dealer": 0,
        "cards": {"deck": ["1H"] + ["AH"] * 107},
    }
    with pytest.raises(RecordError, match=r"^cards.deck\[0\]: '1H' is not a card: write an ace"):
        replay_record(towers)


def _hands_record(game: str, hands: list[list[str]]) -> Record:
    return {
        "game": game,
        "players": [f"P{i}" for i in range(len(hands))],
        "dealer": 0,
        "cards": {"hands": hands, "upcard": "9C"},
    }


@pytest.mark.parametrize(
    ("game", "hands", "end", "winners", "net"),
    [
        (
            "tonk",
            [["AS", "2S", "3S", "4S", "5S"], ["KH", "QH", "JH", "10H", "8H"]],
            "tonk",
            [0],
            [2, -2],
        ),
        (
            "tonk",
            [["KS", "QS", "JS", "10S", "9S"], ["KH", "QH", "JH", "10H", "9H"]],
            "tonk",
            [0, 1],
            [0, 0],
        ),
        (
            "tor",
            [
                ["KS", "QS", "JS", "KH", "QH"],
                ["AS", "7H", "10C", "JH", "8D"],
                ["KD", "QD", "JD", "KC", "QC"],
            ],
            "void",
            [],
            [0, 0, 0],
        ),
        (
            "tor",
            [
                ["KS", "QS", "JS", "KH", "QH"],
                ["AS", "7H", "10C", "JH", "8D"],
                ["AD", "2D", "3D", "4D", "5D"],
            ],
            "tor",
            [0],
            [4, -2, -2],
        ),
        (
            "tor",
            [
                ["AS", "2S", "3S", "4S", "5S"],
                ["6S", "7H", "10C", "JH", "8D"],
                ["AD", "2D", "3D", "4D", "5D"],
            ],
            "low",
            [0, 2],
            [1, -2, 1],
        ),
        (
            "pagat",
            [["KS", "QS", "JS", "10S", "9S"], ["AS", "7H", "10C", "JH", "8D"]],
            "tonk",
            [0],
            [2, -2],
        ),
        (
            "pagat",
            [["KS", "QS", "JS", "10S", "9S"], ["KH", "QH", "JH", "10H", "10D"]],
            "void",
            [],
            [0, 0],
        ),
    ],
)
def test_T4_win_on_the_deal_replays_without_moves(
    game: str, hands: list[list[str]], end: str, winners: list[int], net: list[int]
) -> None:
    replayed = replay_record(_hands_record(game, hands))
    assert replayed.result is not None
    assert replayed.result["end"] == end
    assert sorted(replayed.result["winners"]) == winners
    assert replayed.result["net"] == net
    dumped = dump_record(replayed.state, [f"P{i}" for i in range(len(hands))])
    assert dumped["moves"] == []
    assert replay_record(dumped).result == replayed.result


@pytest.mark.parametrize("name", ["seed-tonk-1", "seed-tonk-2", "seed-tor"])
def test_game_in_progress_replays_without_a_result(name: str) -> None:
    record = example(name)
    del record["result"]
    for cut in range(len(record["moves"])):
        partial = {**record, "moves": record["moves"][:cut]}
        replayed = replay_record(partial)
        assert replayed.result is None
        assert "result" not in replayed.record
        assert replayed.record == partial
        assert not replayed.state.is_over
        dumped = dump_record(replayed.state, record["players"])
        assert "result" not in dumped
        assert dumped["moves"] == [[s, str(m)] for s, m in replayed.state.history]


def test_moves_may_be_omitted() -> None:
    record = example()
    del record["moves"], record["result"]
    assert replay_record(record).state.history == []


def test_rules_options_are_applied_and_dumped() -> None:
    record = example()
    record["rules"] = {"preset": "tonk", "face_values": "11/12/13"}
    del record["result"]
    replayed = replay_record(record)
    assert replayed.state.rules.face_values == "11/12/13"
    assert replayed.result is not None and replayed.result["totals"] == [9, 10, 18]
    assert dump_record(replayed.state, record["players"])["rules"] == {
        "preset": "tonk",
        "face_values": "11/12/13",
    }
    record["rules"] = {"hit_sets": False}  # the preset defaults to the game's
    with pytest.raises(RecordError, match=r"^move 13 .*hits on runs only"):
        replay_record(record)
