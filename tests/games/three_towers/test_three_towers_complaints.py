"""The rule options for the play-testers' complaints (``texts/en/three-towers-readings.md``,
R30 …): each default keeps today's rules, each is refused out of range naming its rule, each
plays in the engine and replays in records, and the bots play legally under each with every
card accounted for (the fast path's differential proof is in ``fast/test_fast_towers.py``)."""

from __future__ import annotations

import json
import random

import pytest

from taverntable.bots import make_bot
from taverntable.bots.ismcts import IsmctsBot
from taverntable.engine import CHANCE, IllegalMove, RecordError, play_out
from taverntable.games.three_towers import RulesError, TowersRules, TowersState, rules_from
from taverntable.games.three_towers.cards import full_deck
from taverntable.games.three_towers.phases import DEAL
from taverntable.games.three_towers.record import ADAPTER
from taverntable.records.core import replay_record

from three_towers_helpers import arrange, cards, hand, play, store_total

H1, H2 = "2S 3S 4S 5S 6S 7S 8S", "2H 3H 4H 5H 6H 7H 8H"
FULL = sorted(full_deck())
# One changed value of each complaint's option (the default of each is today's rules).
CHANGED: dict[str, object] = {
    "joker_points": 10,
    "hand_size": 10,
    "spade_jack_defends": True,
    "give_any": True,
}


def test_R30_to_R33_defaults_are_todays_rules() -> None:
    rules = TowersRules()
    assert rules.joker_points == 0 and rules.hand_size == 7
    assert rules.spade_jack_defends is False and rules.give_any is False
    assert rules.differences() == {}


@pytest.mark.parametrize(
    "option, value, rule",
    [
        ("joker_points", -1, "R30"),
        ("joker_points", 51, "R30"),
        ("joker_points", True, "R30"),
        ("joker_points", "5", "R30"),
        ("hand_size", 4, "R31"),
        ("hand_size", 13, "R31"),
        ("hand_size", 7.0, "R31"),
        ("spade_jack_defends", 1, "R32"),
        ("spade_jack_defends", "yes", "R32"),
        ("give_any", 0, "R33"),
    ],
)
def test_an_option_out_of_range_is_refused_naming_its_rule(
    option: str, value: object, rule: str
) -> None:
    with pytest.raises(RulesError, match=rf"^rule option {option} \({rule}\) must be "):
        TowersRules().with_options(**{option: value})


def test_R30_each_joker_in_a_store_scores_at_the_count() -> None:
    # Seat 0 finishes a ♦ tower holding a joker; seat 1 has two jokers in its store and one in
    # hand: every joker that reaches a store (R13 puts the hands there) scores 10.
    rules = rules_from(joker_points=10)
    state = arrange(
        ["10C X 3C 4C 5C 6C 7C", "X 2H 3H 4H 5H 6H 7H", H1],
        rules=rules,
        towers=["AD 10H 10D"],
        stores=["", "X X 9D"],
        deck_size=20,
    )
    play(state, "add 10C")
    assert state.phase == DEAL
    r = state.rounds[-1]
    assert r.points[0] == store_total(state, 0) + 1 * 10 + 50
    assert r.points[1] == store_total(state, 1) + 3 * 10
    assert r.points[2] == store_total(state, 2)


def test_R30_a_hearts_tower_doubles_the_jokers_too() -> None:
    rules = rules_from(joker_points=7)
    state = arrange(["10C X 3C 4C 5C 6C 7C", H1], rules=rules, towers=["AH 10H 10D"], deck_size=20)
    play(state, "add 10C")
    assert state.rounds[-1].points[0] == 2 * (store_total(state, 0) + 7)


def test_R30_by_default_a_joker_scores_nothing() -> None:
    state = arrange(["10C X 3C 4C 5C 6C 7C", H1], towers=["AD 10H 10D"], deck_size=20)
    play(state, "add 10C")
    assert state.rounds[-1].points[0] == store_total(state, 0) + 50


@pytest.mark.parametrize("option", sorted(CHANGED))
def test_records_carry_each_option_and_replay_only_under_it(option: str) -> None:
    rules = rules_from(max_rounds=2, **{option: CHANGED[option]})
    changed = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = TowersState.start(rules, 2 + seed % 3, rng=rng, dealer=0)
        bot = make_bot("heuristic", "three-towers")
        play_out(state, [bot] * state.num_players, rng)
        names = [f"P{s}" for s in range(state.num_players)]
        record = json.loads(json.dumps(ADAPTER.dump(state, names)))
        expected = {"preset": "three-towers", "max_rounds": 2, option: CHANGED[option]}
        assert record["rules"] == expected
        assert state.result is not None
        assert replay_record(record).result == state.result.to_json()
        # Under today's rules the same moves are another game, refused or scored otherwise
        # (in a game where the option never mattered, the same).
        record["rules"] = {"preset": "three-towers", "max_rounds": 2}
        try:
            again = replay_record(record).result
        except RecordError:
            changed += 1
            continue
        changed += again != state.result.to_json()
    assert changed > 0, f"{option} changed none of the games"


def test_a_record_with_an_option_this_replayer_does_not_know_is_refused() -> None:
    # docs/record-format.md: never replayed under today's rules. "royal_tax" is no option of
    # this engine.
    state = TowersState.start(rules_from(max_rounds=1), 2, rng=random.Random(1), dealer=0)
    record = json.loads(json.dumps(ADAPTER.dump(state, ["A", "B"])))
    record["rules"]["royal_tax"] = 3
    with pytest.raises(RecordError, match="royal_tax"):
        replay_record(record)


def _play_accounted(rules: TowersRules, players: int, bot: str, seed: int, steps: int) -> int:
    """A game of ``bot`` at every seat (the hard bot with a short search), every move legal and
    every card in one zone after every step; returns the moves made."""
    rng = random.Random(seed)
    state = TowersState.start(rules, players, rng=rng, dealer=seed % players)
    bots = [
        IsmctsBot(iterations=60) if bot == "hard" else make_bot(bot, "three-towers")
        for _ in range(players)
    ]
    made = 0
    while not state.is_over and made < steps:
        assert sorted(state.all_cards()) == FULL
        if state.current_seat == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_seat
        move = bots[seat].choose(state.view(seat), rng)
        assert move in set(state.legal_moves()), f"{bot} chose an illegal {move}"
        state.apply(move)
        made += 1
    assert sorted(state.all_cards()) == FULL
    return made


@pytest.mark.parametrize("option", sorted(CHANGED))
def test_the_heuristic_plays_legally_under_each_option_and_no_card_is_lost(option: str) -> None:
    rules = rules_from(max_rounds=2, **{option: CHANGED[option]})
    for seed in range(12):
        assert _play_accounted(rules, 2 + seed % 3, "heuristic", seed, 10_000) > 0


@pytest.mark.parametrize("option", sorted(CHANGED))
def test_the_hard_bot_plays_legally_under_each_option_and_no_card_is_lost(option: str) -> None:
    rules = rules_from(max_rounds=1, **{option: CHANGED[option]})
    for seed in range(2):
        assert _play_accounted(rules, 2 + seed, "hard", seed, 400) > 20


def test_random_play_under_every_option_keeps_every_card() -> None:
    rules = rules_from(max_rounds=2, **CHANGED)  # type: ignore[arg-type]
    for seed in range(40):
        n = 2 + seed % 3
        rng = random.Random(seed)
        state = TowersState.start(rules, n, rng=rng, dealer=seed % n)
        while not state.is_over:
            assert sorted(state.all_cards()) == FULL
            if state.current_seat == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_moves()))
        assert sorted(state.all_cards()) == FULL


def test_R31_the_deal_gives_each_seat_the_hand_size() -> None:
    for n, size in ((2, 10), (4, 12), (3, 5)):
        state = TowersState.start(rules_from(hand_size=size), n, rng=random.Random(n), dealer=0)
        assert [len(h) for h in state.hands] == [size] * n
        assert len(state.deck) == 108 - size * n


def test_R31_R12_the_refill_draws_up_to_the_hand_size() -> None:
    rules = rules_from(hand_size=9)
    state = arrange(
        ["7H 2C 3C 4C 5C 6C 8C 9C 10C", "8H 2D 3D 4D 5D 6D 7D 8D 9D"], rules=rules, deck_size=40
    )
    play(state, "trade 7H", "answer 8H")
    assert [len(h) for h in state.hands] == [9, 9] and len(state.deck) == 38


def test_R31_R6_a_failing_seat_draws_the_hand_size() -> None:
    rules = rules_from(hand_size=8)
    state = arrange(
        ["7H 2C 3C 4C 5C 6C 8C 9C", "2S 3S JS QS KS AS 4S 5D"],
        rules=rules,
        deck_top="10H 2D 3D 4D 6D 7D 8D 9D",
        deck_size=30,
    )
    play(state, "trade 7H")
    assert [str(m) for m in state.legal_moves()] == ["fail"]
    play(state, "fail")
    assert hand(state, 1) == "10H 2D 3D 4D 6D 7D 8D 9D"  # 8 fresh cards (R6, R31)


def test_R31_by_default_hands_are_seven() -> None:
    state = TowersState.start(TowersRules(), 3, rng=random.Random(2), dealer=0)
    assert [len(h) for h in state.hands] == [7, 7, 7]


def _defence_after(move: str, defender: str, **options: object) -> TowersState:
    state = arrange(
        ["QH JH KS JS 2C 3C 4C", defender, H2],
        rules=rules_from(**options),
        towers=["", "AD 5D"],
    )
    play(state, move)
    return state


def test_R32_a_spade_jack_repels_a_jack_raid_and_a_thief_and_goes_into_the_store() -> None:
    for attack in ("raid 1 JH", "curse 1 JS"):
        state = _defence_after(attack, "JS 2D 3D 4D 5D 6D 7D", spade_jack_defends=True)
        assert "defend JS" in {str(m) for m in state.legal_moves()}
        play(state, "defend JS")
        # The ♠ jack is no warrior for the nobility (R7, R10): it keeps its -5 in the store.
        assert cards("JS")[0] in state.known[1] and cards("JS")[0] not in state.nobility[1]
        assert state.towers[1] == cards("AD 5D")
        assert state.current_seat == 1  # the turn ended (R12): the defender moves next


def test_R32_a_spade_jack_is_a_jack_so_it_cannot_repel_a_queen_or_a_king() -> None:
    for attack in ("raid 1 QH", "curse 1 KS"):
        state = _defence_after(attack, "JS 2D 3D 4D 5D 6D 7D", spade_jack_defends=True)
        assert [str(m) for m in state.legal_moves()] == ["yield"]
        with pytest.raises(IllegalMove) as e:
            state.apply_text("defend JS")
        assert e.value.rule == "R9"


def test_R32_R9_with_defence_any_a_spade_jack_repels_a_king() -> None:
    state = _defence_after(
        "curse 1 KS", "JS 2D 3D 4D 5D 6D 7D", spade_jack_defends=True, defence="any"
    )
    play(state, "defend JS")
    assert cards("KS")[0] in state.stores[0]  # a repelled Warlock goes to its owner's store


def test_R32_by_default_a_spade_jack_cannot_defend() -> None:
    state = _defence_after("raid 1 JH", "JS 2D 3D 4D 5D 6D 7D")
    assert [str(m) for m in state.legal_moves()] == ["yield"]
    with pytest.raises(IllegalMove) as e:
        state.apply_text("defend JS")
    assert e.value.rule == "R9"


def test_R33_a_seat_without_an_a_or_b_answer_may_give_any_two_cards_but_jokers() -> None:
    state = arrange(
        ["7H 2C 3C 4C 5C 6C 8C", "AD AC KS 5S 5S 2D 3D", H2], rules=rules_from(give_any=True)
    )
    play(state, "trade 7H")
    legal = [str(m) for m in state.legal_moves()]
    assert "answer AD AC" in legal and "answer 2D 3D" in legal  # (c) as today
    assert "answer 5S KS" in legal and "answer 5S 5S" in legal and "answer KS AD" in legal
    assert len(legal) == len(set(legal))  # each pair once
    play(state, "answer 5S KS")  # the Warlock and a penalty card to the trade's winner
    play(state, "answer 2H")
    # Nobody outbid the 7H: the leader takes every laid card, the ♠ figure into the store (R7).
    assert sorted(cards("7H 5S KS 2H")) == sorted(state.known[0])
    assert cards("KS")[0] not in state.nobility[0]


def test_R33_a_seat_with_an_answer_of_the_suit_or_a_joker_cannot_give_spades() -> None:
    for hand_text in ("8H AD KS 5S 2D 3D 4D", "X AD KS 5S 2D 3D 4D"):
        state = arrange(["7H 2C 3C 4C 5C 6C 8C", hand_text, H2], rules=rules_from(give_any=True))
        play(state, "trade 7H")
        assert not any("S" in str(m) for m in state.legal_moves())
        with pytest.raises(IllegalMove) as e:
            state.apply_text("answer 5S KS")
        assert e.value.rule == "R33"


def test_R33_by_default_spades_are_never_given() -> None:
    state = arrange(["7H 2C 3C 4C 5C 6C 8C", "AD AC KS 5S 5S 2D 3D", H2])
    play(state, "trade 7H")
    assert not any("S" in str(m) for m in state.legal_moves())
    with pytest.raises(IllegalMove) as e:
        state.apply_text("answer 5S KS")
    assert e.value.rule == "R5"


def test_R33_R6_a_hand_of_spades_alone_gives_two_instead_of_failing() -> None:
    state = arrange(
        ["7H 2C 3C 4C 5C 6C 8C", "2S 3S JS QS KS AS 4S", H2], rules=rules_from(give_any=True)
    )
    play(state, "trade 7H")
    legal = [str(m) for m in state.legal_moves()]
    assert "fail" not in legal and "answer 2S 3S" in legal and "answer JS KS" in legal
