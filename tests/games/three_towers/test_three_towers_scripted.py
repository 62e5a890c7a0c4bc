"""A hand-written two-round game from a stacked deck that uses every card class and every kind
of action; random outcomes (shuffles, the steal, the second deal) are written as chance moves.

``shuffle* CARDS`` and ``deal* HAND0 / HAND1 / TOP`` are shorthands of this test: the chance
move with those cards on top and the rest of the deck in canonical order.
"""

from __future__ import annotations

from collections import Counter

from taverntable.games.three_towers import TowersRules, TowersState
from taverntable.games.three_towers.cards import card_class, cards_text
from taverntable.games.three_towers.record import ADAPTER

from three_towers_helpers import cards, stacked_deck

HANDS = ["AH 10H 10D X KH QS JH", "9H 10C AS KD JS KS 5S"]
TOP = "2D 3D 4D 5D 6D 7D 2S 8C 9C 10D QC AD X 3C 4C 5C 7C JD 8C 9C"
SCRIPT = """
# Round 1: seat 1 deals, seat 0 (A) moves first.
build AH 10H            | A starts a ♥ tower with goods on it (A2)
build AS 10C            | B starts a dark tower (A2, R8)
raid 1 KH               | A raids B's tower (R9) ...
defend KD               | ... B repels with an equal warrior: KH, KD into B's nobility
curse 0 KS              | B's Warlock ...
yield                   | ... goes through into A's store
trade 10D               | A leads goods (R4)
answer 7D               | B answers (a); A wins (R7)
trade 5S                | B leads a penalty card
answer X give           | A gives with a joker (R5 b): B takes 5S and the joker
curse 1 QS              | A's Witch ...
yield                   | ... goes through: a spade trade, its owner last
answer 2S               | B answers a penalty card
answer JH 2D            | A answers two plain cards (R5 c)
name 1                  | A names B: JH to B's nobility, the rest and the Witch to B's store
curse 0 JS              | B's Thief ...
yield                   | ... goes through:
steal 7D 10D KS         | chance: it steals (all three of) A's store cards
add AD                  | A reinforces the tower with an ace (R8)
add 4D                  | B continues the dark tower
raid 1 QC               | A raids the dark tower ...
yield                   | ... and takes it whole (no reinforcing ace)
raid 0 JD               | B raids A's tower ...
yield                   | ... and takes it down to the reinforcing ace AD
redeal X                | A redeals with a joker (A4, R10)
shuffle* 9D 8D 10H 10C AC X 7H
redeal warriors J J K K | B spends 4 warriors of the nobility
shuffle* JC JC QD QD QH KC KC 2D JH KH JD 2H KD QC 7C 9C 2S 6C 8C
trade 9D
answer QD QH            | warriors laid in a trade go to the winner's nobility
raid 0 JC               | B takes A's tower whole
yield
trade 8D
answer QD KC            | A now holds 4 queens in the nobility
pass                    | B holds only warriors and there is no tower to raid (R11)
build AC 10H            | A starts a ♣ tower
raid 0 JC
defend X                | A repels with a joker (into A's store); JC into A's nobility
add 10C
trade 2S
answer 7H 2H            | the leader's penalty card wins against two plain cards
redeal queens           | A spends 4 queens ...
store 2D                | ... stores a card ...
done                    | ... and shuffles the rest into the deck
shuffle* 9H 2C 5H 6H 7D 8H 4H
build AS                | B starts another dark tower, with no goods on it
add 9H
trade 3S
answer 3S               | equal highest: the first laid (B's lead) wins
add 2C                  | 10 + 10 + 9 + 2 = 31: A finishes the ♣ tower, the round ends
take 1 AD               | the ♣ bonus: A takes cards from B's store (R13) ...
take 1 10D
done                    | ... two of the four allowed
# Round 2: seat 0 deals, seat 1 (B) moves first.
deal* 9H 2H 3H 4H 5H 6H X / AS 10H 2S 3S 4S 6S 5D / 8S KS 10D 10C 2C 3C X 7C 8C 4C 5C
build AS 10H
trade 9H
fail                    | B cannot answer: lays 5D, shows the spades into the store, draws 7
answer X take           | answers again, but no longer competes (R6)
add 10D
trade X H take          | A leads a joker, naming hearts and take (R4)
answer 2C 3C
add 10C                 | B finishes the dark tower: the round ends
give KS 0               | the dark bonus: B passes cards to A's store (R13) ...
give 8S 0
done
"""


def expand(state: TowersState, text: str) -> str:
    """Resolve the test's ``shuffle*`` and ``deal*`` shorthands into chance moves."""
    if text.startswith("shuffle*"):
        top = cards(text[len("shuffle*") :])
        rest = Counter(state.deck) - Counter(top)
        return "shuffle " + cards_text(top + sorted(rest.elements()))
    if text.startswith("deal*"):
        h0, h1, top = text[len("deal*") :].split("/")
        return "deal " + cards_text(stacked_deck([h0, h1], top, dealer=state.dealer))
    return text


def play_script() -> tuple[TowersState, list[str]]:
    state = TowersState.start(
        TowersRules(max_rounds=2), 2, deck=stacked_deck(HANDS, TOP, dealer=1), dealer=1
    )
    played = []
    for line in SCRIPT.strip().splitlines():
        text = line.split("|")[0].strip()
        if not text or text.startswith("#"):
            continue
        text = expand(state, text)
        state.apply_text(text)
        assert len(state.all_cards()) == 108
        played.append(text)
    return state, played


def test_scripted_game_result() -> None:
    state, _ = play_script()
    result = state.result
    assert result is not None
    assert result.to_json() == {
        "end": "rounds",
        "winners": [0],
        "scores": [103, -43],
        "towers": [1, 1],
        "rounds": [
            {"points": [110, -41], "tower": [0, "AC"]},
            {"points": [-7, -2], "tower": [1, "AS"]},
        ],
    }


def test_scripted_game_uses_every_card_class_and_action() -> None:
    _, played = play_script()
    verbs = {t.split()[0] for t in played} | {
        " ".join(t.split()[:2]) for t in played if t.startswith(("redeal", "trade X", "answer X"))
    }
    assert {
        "trade",
        "trade X",
        "answer",
        "answer X",
        "fail",
        "build",
        "add",
        "raid",
        "curse",
        "defend",
        "yield",
        "steal",
        "name",
        "redeal X",
        "redeal warriors",
        "redeal queens",
        "store",
        "done",
        "shuffle",
        "pass",
        "take",
        "give",
        "deal",
    } <= verbs
    words = {"take", "give", "warriors", "queens", "J", "K", "H"}
    laid = [
        c
        for t in played
        if not t.startswith(("deal", "shuffle", "steal"))
        for w in t.split()[1:]
        if not w.isdigit() and w not in words
        for c in cards(w)
    ]
    classes = {card_class(c) for c in laid}
    assert classes == {
        "goods",
        "penalty",
        "warrior",
        "tower ace",
        "Thief",
        "Witch",
        "Warlock",
        "dark tower",
        "joker",
    }


def test_scripted_game_replays_from_its_record() -> None:
    state, _ = play_script()
    record = ADAPTER.dump(state, ["Ann", "Bob"])
    assert record["dealer"] == 1 and len(record["cards"]["deck"]) == 108
    again = ADAPTER.start(record)
    for seat, text in record["moves"]:
        assert seat == again.current_seat
        ADAPTER.apply(again, seat, text)
    assert ADAPTER.results_match(record["result"], ADAPTER.result_json(again)) is None
    assert [str(m) for _, m in again.history] == [str(m) for _, m in state.history]
