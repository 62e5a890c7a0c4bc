"""R34 (♠ jacks raid, ``spade_jack_raids``) and R35 (a third deck, ``decks``), the readings'
last proposed options (``texts/en/three-towers-readings.md``): the defaults are today's rules,
R34 without R32 is refused as a contradiction naming both rules, a ♠ jack's raid is a jack's
raid and never a Thief's steal, three decks deal 162 cards with six jokers, and records carry
both and replay only under them."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from taverntable.bots import make_bot
from taverntable.engine import CHANCE, DealError, IllegalMove, RecordError, play_out
from taverntable.games.three_towers import RulesError, TowersRules, TowersState, rules_from
from taverntable.games.three_towers.cards import JOKER, THIEF, deck_size, full_deck, total
from taverntable.games.three_towers.phases import STEAL
from taverntable.games.three_towers.record import ADAPTER
from taverntable.games.three_towers.state import check_deck
from taverntable.records.core import replay_record

from three_towers_helpers import arrange, cards, play

RAIDS = {"spade_jack_raids": True, "spade_jack_defends": True}
H2 = "2H 3H 4H 5H 6H 7H 8H"


def test_R34_R35_defaults_are_todays_rules() -> None:
    rules = TowersRules()
    assert rules.spade_jack_raids is False and rules.decks == 2
    assert rules.differences() == {} and rules_from(decks=2) == rules


def test_R34_without_R32_is_a_contradiction_naming_both_rules() -> None:
    with pytest.raises(RulesError) as e:
        rules_from(spade_jack_raids=True)
    said = str(e.value)
    assert "spade_jack_raids (R34)" in said and "spade_jack_defends (R32)" in said
    assert "contradict" in said and len(said.splitlines()) == 1
    assert rules_from(**RAIDS).spade_jack_raids  # with R32 it is a rule set
    with pytest.raises(RulesError, match="R34"):
        rules_from(spade_jack_raids=True, spade_jack_defends=False)


@pytest.mark.parametrize(
    ("name", "value", "rule"),
    [
        ("spade_jack_raids", 1, "R34"),
        ("spade_jack_raids", "yes", "R34"),
        ("decks", 1, "R35"),
        ("decks", 4, "R35"),
        ("decks", True, "R35"),
        ("decks", 3.0, "R35"),
        ("decks", "3", "R35"),
    ],
)
def test_R34_R35_out_of_range_is_refused_naming_the_rule(
    name: str, value: object, rule: str
) -> None:
    options: dict[str, object] = {name: value}
    if name == "spade_jack_raids":
        options["spade_jack_defends"] = True
    with pytest.raises(RulesError, match=f"{name} \\({rule}\\)"):
        rules_from(**options)


def _raid(defender: str, move: str = "raid 1 JS", **options: object) -> TowersState:
    state = arrange(
        ["QH JH KS JS 2C 3C 4C", defender, H2],
        rules=rules_from(**{**RAIDS, **options}),
        towers=["", "AD 5D 9D"],
        stores=["", "10H 10D"],
    )
    play(state, move)
    return state


def test_R34_a_spade_jack_raids_as_a_jack_beside_its_curse() -> None:
    state = arrange(["JS 2C 3C 4C 5C 6C 7C", H2], rules=rules_from(**RAIDS), towers=["", "AD 5D"])
    moves = [str(m) for m in state.legal_moves()]
    # The same card raids the tower (R34) or curses as the Thief (R9): two moves.
    assert "raid 1 JS" in moves and "curse 1 JS" in moves
    assert moves.index("raid 1 JS") < moves.index("curse 1 JS")


def test_R34_by_default_a_spade_jack_cannot_raid() -> None:
    for rules in (TowersRules(), rules_from(spade_jack_defends=True)):
        state = arrange(["JS 2C 3C 4C 5C 6C 7C", H2], rules=rules, towers=["", "AD 5D"])
        assert "raid 1 JS" not in {str(m) for m in state.legal_moves()}
        with pytest.raises(IllegalMove) as e:
            state.apply_text("raid 1 JS")
        assert e.value.rule == "R9"


def test_R34_a_raid_let_through_plunders_and_the_spade_jack_goes_into_the_raiders_store() -> None:
    state = _raid("2D 3D 4D 6D 7D 8D 10C")
    assert [str(m) for m in state.legal_moves()] == ["yield"]  # no warrior, joker or ♠ jack
    before = list(state.stores[1])
    play(state, "yield")
    assert state.phase != STEAL  # a raid, not a Thief: nothing is stolen
    assert state.stores[1] == before and state.towers[1] == []
    # R9/R23: the whole tower (no reinforcing ace) into the raider's store, then the ♠ jack,
    # which is no warrior for the nobility: it keeps its -5 in the raider's store.
    assert Counter(state.stores[0]) == Counter(cards("AD 5D 9D JS"))
    assert THIEF not in state.nobility[0] and state.nobility[0] == []
    assert total(state.stores[0]) == 15 + 5 + 9 - 5


@pytest.mark.parametrize(
    ("defender_card", "into_nobility"), [("JH", True), ("KD", True), ("X", False), ("JS", False)]
)
def test_R34_a_repelled_spade_jack_goes_into_its_owners_store_as_a_repelled_thief(
    defender_card: str, into_nobility: bool
) -> None:
    state = _raid(f"{defender_card} 2D 3D 4D 6D 7D 8D")
    assert f"defend {defender_card}" in {str(m) for m in state.legal_moves()}
    play(state, f"defend {defender_card}")
    (d,) = cards(defender_card)
    # R9: a defending warrior into the defender's nobility, a joker (R32: a ♠ jack) into the
    # defender's store; the raiding ♠ jack into its owner's store, never the defender's.
    assert (d in state.nobility[1]) == into_nobility and (d in state.stores[1]) != into_nobility
    assert state.stores[0] == cards("JS") and THIEF not in state.nobility[1]
    assert state.towers[1] == cards("AD 5D 9D")


def test_R34_R9_a_spade_jack_raid_is_a_jack_raid_so_rank_lets_any_warrior_defend() -> None:
    state = _raid("JD QC 2D 3D 4D 6D 7D")
    assert [str(m) for m in state.legal_moves()] == ["defend JD", "defend QC", "yield"]


def test_R34_a_spade_jack_played_as_the_thief_still_steals() -> None:
    state = _raid("2D 3D 4D 6D 7D 8D 10C", move="curse 1 JS")
    play(state, "yield")
    assert state.phase == STEAL and state.current_seat == CHANCE


def test_R34_the_raid_is_told_as_a_raid() -> None:
    state = _raid("JH 2D 3D 4D 6D 7D 8D")
    view = state.view(1).to_json()
    assert view["attack"]["kind"] == "raid" and view["attack"]["card"] == "JS"


def _bot_game(rules: TowersRules, seed: int) -> TowersState:
    rng = random.Random(seed)
    state = TowersState.start(rules, 2 + seed % 3, rng=rng, dealer=0)
    play_out(state, [make_bot("heuristic", "three-towers")] * state.num_players, rng)
    return state


@pytest.mark.parametrize("options", [RAIDS, {"decks": 3}], ids=["R34", "R35"])
def test_R34_R35_records_carry_the_option_and_replay_only_under_it(
    options: dict[str, object],
) -> None:
    rules = rules_from(max_rounds=2, **options)
    changed = 0
    for seed in range(6):
        state = _bot_game(rules, seed)
        record = json.loads(
            json.dumps(ADAPTER.dump(state, [f"P{s}" for s in range(state.num_players)]))
        )
        assert record["rules"] == {"preset": "three-towers", "max_rounds": 2, **options}
        assert state.result is not None
        assert replay_record(record).result == state.result.to_json()
        record["rules"] = {"preset": "three-towers", "max_rounds": 2}
        if "decks" in options:  # a deck of 162 cards is no deck of R1
            with pytest.raises(RecordError, match="108 cards of R1"):
                replay_record(record)
            changed += 1
            continue
        try:
            changed += replay_record(record).result != state.result.to_json()
        except RecordError:
            changed += 1
    assert changed > 0


def test_R34_the_heuristic_raids_with_spade_jacks_when_it_may() -> None:
    raids = 0
    for seed in range(10):
        state = _bot_game(rules_from(max_rounds=2, **RAIDS), seed)
        raids += sum(
            1 for _, m in state.history if str(m).startswith("raid") and str(m).endswith("JS")
        )
    assert raids > 0


def test_R35_three_decks_are_162_cards_and_six_jokers() -> None:
    deck = full_deck(3)
    assert len(deck) == deck_size(3) == 162 and deck.count(JOKER) == 6
    assert all(deck.count(c) == 3 for c in range(52))
    assert total(deck) == 3 * 83  # R1's check per deck: the count's 249 instead of 166
    assert len(full_deck()) == deck_size() == 108 and total(full_deck()) == 166


def test_R35_a_round_is_dealt_from_three_decks() -> None:
    rules = rules_from(decks=3)
    for n in (2, 3, 4):
        state = TowersState.start(rules, n, rng=random.Random(n), dealer=0)
        assert [len(h) for h in state.hands] == [7] * n
        assert len(state.deck) == 162 - 7 * n
        assert Counter(state.all_cards()) == Counter(full_deck(3))


def test_R35_a_deal_of_the_wrong_decks_is_refused() -> None:
    with pytest.raises(DealError, match="162 cards of R35"):
        check_deck(full_deck(2), 3)
    with pytest.raises(DealError, match="108 cards of R1"):
        check_deck(full_deck(3), 2)
    with pytest.raises(IllegalMove, match=r"missing AS .* \(R35\)"):
        TowersState.start(rules_from(decks=3), 2, deck=full_deck(2), dealer=0)


def test_R35_every_card_stays_in_play_and_the_bots_play_legally() -> None:
    rules = rules_from(max_rounds=2, decks=3, hand_size=12)
    full = Counter(full_deck(3))
    for seed in range(6):
        rng = random.Random(seed)
        n = 2 + seed % 3
        state = TowersState.start(rules, n, rng=rng, dealer=seed % n)
        bots = [make_bot("heuristic", "three-towers") for _ in range(n)]
        while not state.is_over:
            assert Counter(state.all_cards()) == full
            if state.current_seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_seat
            assert seat is not None
            move = bots[seat].choose(state.view(seat), rng)
            assert move in set(state.legal_moves())
            state.apply(move)
        assert Counter(state.all_cards()) == full


def test_R35_a_view_counts_the_unseen_cards_of_three_decks() -> None:
    from taverntable.games.three_towers.view import unseen_cards

    state = TowersState.start(rules_from(decks=3), 2, rng=random.Random(4), dealer=0)
    unseen = unseen_cards(state.view(0))
    assert sum(unseen.values()) == 162 - 7 and unseen[JOKER] == 6 - state.hands[0].count(JOKER)


@pytest.mark.parametrize("lang", ["en", "hu", "ru", "uk"])
def test_R34_R35_are_written_in_the_readings_of_every_language(lang: str) -> None:
    from taverntable.games.three_towers import rules as rules_module

    path = Path(rules_module.__file__).parent / "texts" / lang / "three-towers-readings.md"
    text = path.read_text(encoding="utf-8")
    for rule, name in (("R34", "spade_jack_raids"), ("R35", "decks")):
        assert f"**{rule} " in text and f"`{name}`" in text
        assert text.index(f"**{rule} ") > text.index("**R33 ")
    assert "162" in text and "249" in text  # R35: the count of three decks
    if lang == "en":
        assert "not an option here" not in text  # R31 no longer says a third deck is none


def test_R34_R35_tavern_replay_replays_the_records_and_refuses_a_contradiction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from taverntable.cli import main

    records = []
    for options in (RAIDS, {"decks": 3}):
        state = _bot_game(rules_from(max_rounds=1, **options), 1)
        records.append(ADAPTER.dump(state, ["Anna", "Bo", "Cy"]))
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(["replay", "--json", str(path)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["result"] for r in out] == [r["result"] for r in records]
    assert len(out[1]["cards"]["deck"]) == 162  # R35: the deck is the rules' three decks
    # A record naming R34 without R32 is refused in one line naming both rules.
    bad = {**records[0], "rules": {"preset": "three-towers", "spade_jack_raids": True}}
    path.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "(R34)" in err and "(R32)" in err


def test_R34_its_need_of_R32_is_declared_and_the_differential_runs_set_it() -> None:
    """The option table declares what R34 needs (``options.option`` ``needs``), the same pair
    the rules refuse without; the short differential runs change R34 together with R32, and
    the long runs leave out the contradicting combinations."""
    from taverntable.fast.differential import rule_sets
    from taverntable.games.three_towers.fast.differential import SUBJECT
    from taverntable.options import option_needs

    declared = option_needs(TowersRules)
    assert declared["spade_jack_raids"] == {"spade_jack_defends": True}
    for name, needs in {"spade_jack_raids": declared["spade_jack_raids"]}.items():
        with pytest.raises(RulesError):
            rules_from(**{name: True, **{k: not v for k, v in needs.items()}})
        assert getattr(rules_from(**{name: True, **needs}), name) is True
    short = rule_sets(SUBJECT)
    assert [r.differences() for r in short if r.spade_jack_raids] == [RAIDS]
    every = rule_sets(SUBJECT, every=True, fixed={"max_rounds": 1})
    assert sum(r.spade_jack_raids for r in every) == len(every) // 3  # 1 of the 3 pairs left
