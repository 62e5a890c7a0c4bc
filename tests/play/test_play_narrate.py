"""The terminal's narration reads each move's events as the user's seat sees them (issue 9):
who won a trade (``win``), a failed answer (``show``), a Thief's take (``steal``), a round's count
(``round_end``), a Tonk draw (``draw``); nothing hidden from the seat reaches a sentence; and both
games are played through the one loop, ``engine.play_out``."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from rich.text import Text

from taverntable import engine
from taverntable.engine import Event, play_out, random_policy
from taverntable.games import game_names, get_game
from taverntable.games.three_towers import TowersState, rules_from
from taverntable.play import rules_text
from taverntable.play.three_towers.narrate import narrate as tell_towers
from taverntable.play.three_towers.render import round_count
from taverntable.play.tonk.narrate import narrate as tell_tonk
from taverntable.play.tonk.narrate import settlement

from play_helpers import run_play
from three_towers_helpers import arrange, play
from tonk_helpers import stacked

NAMES = ["Ann", "Bob", "Cy", "Di"]


def told(state: TowersState, text: str, seat: int = 0) -> list[str]:
    """Apply ``text`` and narrate it as ``seat`` sees it."""
    before = state.view(seat)
    return tell_towers(state.apply(state.parse_move(text)), before, NAMES)


def plain(lines: Sequence[str]) -> str:
    """What the person reads: the lines without their markup."""
    return Text.from_markup("\n".join(lines)).plain


# --- Three Towers -----------------------------------------------------------------------------


def test_R6_a_failed_answer_is_told_from_its_lay_show_and_draw_events() -> None:
    # Bob holds no heart, no joker and one plain card: he cannot answer (R6).
    state = arrange(["7H 2C 3C 4C 5C 6C 8C", "5D 2S 3S 4S 6S 7S 8S"], deck_size=40)
    play(state, "trade 7H")
    assert plain(told(state, "fail")) == (
        "Bob cannot answer (R6): lays 5♦; their hand 2♠ 3♠ 4♠ 6♠ 7♠ 8♠ goes into their store; "
        "7 new cards are drawn."
    )  # and he answers again: the trade goes on


def test_R6_R7_a_trade_ended_by_a_failed_answer_names_its_winner_from_the_win_events() -> None:
    # The deck is empty: Bob draws nothing and lays nothing more, so the trade ends and goes to
    # Ann's 7♥ (R7). The old narration named no winner after a failed answer.
    state = arrange(["7H 2C 3C 4C 5C 6C 8C", "5D 2S 3S 4S 6S 7S 8S"], deck_size=0)
    play(state, "trade 7H")
    assert plain(told(state, "fail")) == (
        "Bob cannot answer (R6): lays 5♦; their hand 2♠ 3♠ 4♠ 6♠ 7♠ 8♠ goes into their store; "
        "the deck is empty.\n"
        "You win the trade and take 7♥ 5♦ (+12 points) (R7)."
    )


@pytest.mark.parametrize(
    ("seat", "visible", "shown"),
    [
        (0, True, ": 9♥ 10♥ 8♦"),  # the thief's owner sees its store (R16)
        (1, True, ": 9♥ 10♥ 8♦"),  # so does the victim
        (2, True, ""),  # nobody else
        (0, False, ""),  # nor anyone, when players do not see their own stores
    ],
)
def test_R9_R16_the_thiefs_take_is_named_only_to_the_seats_that_see_it(
    seat: int, visible: bool, shown: str
) -> None:
    rules = rules_from(own_store_visible=visible)
    state = arrange(
        ["JS 2C 3C 4C 5C 6C 7C", "2S 3S 4S 5S 6S 7S 8S", "2H 3H 4H 5H 6H 7H 8H"],
        rules=rules,
        stores=["", "9H 10H 8D"],
    )
    play(state, "curse 1 JS", "yield")
    before = state.view(seat)
    events = state.apply(state.sample_chance(random.Random(0)))
    whose = "your" if seat == 1 else "Bob's"
    assert plain(tell_towers(events, before, NAMES)) == (
        f"The Thief steals 3 cards from {whose} store{shown}; the Thief stays there (−5)."
    )


def test_R9_a_thief_let_into_an_empty_store_is_told() -> None:
    state = arrange(["JS 2C 3C 4C 5C 6C 7C", "2S 3S 4S 5S 6S 7S 8S"])
    play(state, "curse 1 JS")
    assert plain(told(state, "yield")) == (
        "Bob lets the Thief through: their store is empty, so the Thief just goes into it (−5, R9)."
    )


def test_R9_the_witchs_trade_says_what_the_named_player_takes() -> None:
    state = arrange(["QS 4S 3C 4C 5C 6C 7C", "2S 2D 3D 4D 5D 6D 7D", "3S 2H 3H 4H 5H 6H 7H"])
    play(state, "curse 1 QS", "yield", "answer 2S", "answer 3S", "answer 4S")
    lines = plain(told(state, "name 2"))
    assert "You name Cy: the Witch's trade and the Witch go to Cy (R9)." in lines
    assert "Cy takes 2♠ 3♠ 4♠ Q♠ (-19 points) (R9)." in lines


def test_R9_a_raid_let_through_is_told_from_the_plunder() -> None:
    state = arrange(
        ["KH 2C 3C 4C 5C 6C 7C", "QD 2D 3D 4D 5D 6D 7D"], mover=1, towers=["AD 10D 9H", ""]
    )
    play(state, "raid 0 QD")
    assert plain(told(state, "yield", seat=1)) == (
        "Ann lets the raid through: you take A♦ 10♦ 9♥ (+34 points) (R9)."
    )


def test_R34_a_spade_jack_raid_is_told_as_a_raid_not_as_the_thief() -> None:
    rules = rules_from(spade_jack_raids=True, spade_jack_defends=True)
    for answer, says in (
        ("yield", "Ann lets the raid through: you take A♦ 10♦ 9♥ (+34 points) (R9)."),
        ("defend JH", "Ann repels the raid with J♥ (R9)."),
    ):
        state = arrange(
            ["JH 2C 3C 4C 5C 6C 7C", "JS 2D 3D 4D 5D 6D 7D"],
            rules=rules,
            mover=1,
            towers=["AD 10D 9H", ""],
        )
        assert plain(told(state, "raid 0 JS", seat=1)) == (
            "You raid Ann's tower with J♠ (R9, R34: a ♠ jack as a jack)."
        )
        assert plain(told(state, answer, seat=1)) == says


def test_R2_a_trade_worth_one_point_says_1_point() -> None:
    # 2♠ (-2), 3♥ (+3) and J♦ (0) are worth +1 (R2): "1 point", as "1 card".
    state = arrange(["2S 2C 3C 4C 5C 6C 8C", "3H JD 3S 4S 5S 6S 7S"], deck_size=40)
    play(state, "trade 2S")
    assert plain(told(state, "answer 3H JD")).endswith(
        "You win the trade and take 2♠ 3♥ J♦ (+1 point) (R7)."
    )


def test_R10_R16_a_card_stored_with_4_queens_is_named_to_its_owner_only() -> None:
    state = arrange(["9H 2C 3C 4C 5C 6C 7C", "2S 3S 4S 5S 6S 7S 8S"], nobility=["QH QD QC QH", ""])
    play(state, "redeal queens")
    twin = state.clone()
    assert plain(told(state, "store 9H")) == "You put 9♥ into your store (4 queens)."
    assert plain(told(twin, "store 9H", seat=1)) == "Ann puts a card into their store (4 queens)."


def test_R13_R28_the_count_reads_the_round_end_data_nobility_points_included() -> None:
    rules = rules_from(nobility_points=5)
    state = arrange(
        ["10C 2C 3C 4C 5C 6C 7C", "2S 3S 4S 5S 6S 7S 8S"],
        rules=rules,
        towers=["AD 10H 10D"],
        nobility=["JH QD"],
        deck_size=20,
    )
    events = state.apply(state.parse_move("add 10C"))
    data = next(e.data for e in events if e.kind == "round_end")
    assert data is not None
    lines = plain(round_count(data, state.view(0), NAMES[:2]))
    stores = state.view(0).store_sizes
    points = data["points"][0]
    assert "Round 1 counted: Ann finished a ♦ tower (+50)." in lines
    assert (
        f"  Ann: {stores[0]} cards worth {data['store_points'][0]:+d} +10 nobility (R28) "
        f"+50 ♦ = {points:+d} → round points {points:+d}"
    ) in lines
    assert f"Scores: Ann {points} (1 tower)" in lines


# --- Tonk ---------------------------------------------------------------------------------------


def test_T9_a_stock_draw_names_the_card_to_the_drawer_only() -> None:
    state = stacked("tonk", ["AH AC 2D 9S 10S", "8S 8D 8H 8C 2S", "2H 3H 4H 5H 6H"], "5D", "KD")
    mine, theirs = state.view(0), state.view(1)
    events = state.apply(state.parse_move("draw stock"))
    assert plain([tell_tonk(events, mine, NAMES)]) == "You draw K♦ from the stock."
    assert plain([tell_tonk(events, theirs, NAMES)]) == "Ann draws from the stock."


def test_T6_the_settlement_reads_the_show_and_deal_end_events() -> None:
    # Ann drops with 23 and Bob's 17 catches her (T6): every hand shown, Ann pays.
    state = stacked(
        "tonk", ["AH AC 2D 9S 10S", "2S 3S 4S 7H AD", "KH QH JH 10H 8H"], "5D", dealer=2
    )
    before = state.view(0)
    events = state.apply(state.parse_move("drop"))
    assert plain([tell_tonk(events, before, NAMES)]) == "You drop with 23."
    lines = plain(settlement(events, NAMES))
    assert "Deal over: You dropped with 23 and were caught (T6)." in lines
    assert "  Bob: A♦ 2♠ 3♠ 4♠ 7♥  (total 17)" in lines
    assert "Payments: You pay Bob 2" in lines


# --- nothing hidden reaches the screen -----------------------------------------------------------


def twin(events: Sequence[Event], seat: int) -> list[Event]:
    """The events with every card hidden from ``seat`` replaced: what another deal could have
    made of them. The narration must read the same."""
    return [
        e if not e.cards or e.visible_to(seat) else e._replace(cards=("X",) * len(e.cards))
        for e in events
    ]


class BlindCheck:
    """``on_move`` of random games: each move narrated for seat ``me`` from the real events and
    from their twin must read the same; counts the moves that hid cards from the seat."""

    def __init__(self, state: Any, me: int, narrate: Callable[[Sequence[Event], Any], Any]):
        self.state, self.me, self.narrate = state, me, narrate
        self.before = state.view(me)
        self.hidden = 0

    def __call__(self, seat: int, move: object, events: Sequence[Event]) -> None:
        told = self.narrate(events, self.before)
        assert self.narrate(twin(events, self.me), self.before) == told
        assert "?" not in str(told)
        self.hidden += any(e.cards and not e.visible_to(self.me) for e in events)
        self.before = self.state.view(self.me)


def check_blind(
    game: str,
    seeds: range,
    narrate: Callable[[Sequence[Event], Any], Any],
    options: dict[str, Any] | None = None,
) -> int:
    """Play random games, checking every move with ``BlindCheck``; the moves that hid cards."""
    hidden = 0
    rules = get_game(game).rules(options)
    for seed in seeds:
        rng = random.Random(seed)
        n = 2 + seed % 3
        state = get_game(game).start(rules, n, rng=rng)
        check = BlindCheck(state, seed % n, narrate)
        play_out(state, random_policy, rng, max_moves=400, on_move=check)
        hidden += check.hidden
    return hidden


@pytest.mark.parametrize("own_store_visible", [True, False])
def test_R16_three_towers_narration_never_depends_on_a_card_hidden_from_the_seat(
    own_store_visible: bool,
) -> None:
    hidden = check_blind(
        "three-towers",
        range(6),
        lambda events, before: tell_towers(events, before, NAMES),
        {"own_store_visible": own_store_visible},
    )
    assert hidden > 100  # deals, draws, hands collected, cards stored face down


def test_tonk_narration_never_depends_on_a_card_hidden_from_the_seat() -> None:
    hidden = check_blind("tonk", range(60), lambda events, before: tell_tonk(events, before, NAMES))
    assert hidden > 20  # deals and other seats' stock draws


# --- one loop, one registry ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (["tonk", "--seed", "1"], ["draw stock", "discard 10S", "quit"]),
        (
            ["three-towers", "--seed", "1", "--players", "2", "--bots", "random"],
            ["trade 2S", "quit"],
        ),
    ],
)
def test_both_terminal_games_play_through_engine_play_out(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    lines: list[str],
) -> None:
    calls: list[int] = []

    def spy(state: Any, bots: Any, rng: random.Random, **options: Any) -> engine.PlayedOut:
        calls.append(len(bots))
        return play_out(state, bots, rng, **options)

    monkeypatch.setattr("taverntable.play.session.play_out", spy)
    status, out = run_play(monkeypatch, capsys, args, lines)
    assert status == 0 and calls and "Not allowed" not in out


def test_every_registered_game_lists_its_rules_at_the_table() -> None:
    # ``rules`` finds a game's rule files through the registry's front end, not a name table.
    for name in game_names():
        titles = rules_text.rule_titles(name)
        assert titles and titles[0].startswith(("T1", "R1", "A1")), name
