"""T13: the seeds' worked examples, written from the rules text, replay to the results it states."""

from __future__ import annotations

from taverntable.cards import parse_index

from tonk_helpers import play, stacked


def test_T13_tor_example_abdzsan_drops_with_4() -> None:
    # Airun deals; play order Alex, Alyr, Abdzsan, Airun.
    state = stacked(
        "tor",
        ["AS 7H 10C JH QH", "AH 2C 2D 7D 9C", "AC AD 2H KD KH", "3H 5S 6C 6S 10H"],
        "3C",
        "8C KS 9D 4H",
        dealer=3,
    )
    assert not state.is_over  # nobody has Tőr or 15 or less
    play(state, "draw stock", "discard 7H", "draw stock", "discard KS")
    play(state, "draw pile", "spread KS KD KH", "end")
    assert {c.text for c in state.hand(2)} == {"AC", "AD", "2H"}
    play(state, "draw stock", "discard 10H")
    play(state, "draw pile", "spread 10H JH QH", "discard 10C")
    assert {c.text for c in state.hand(0)} == {"AS", "8C"}
    play(state, "draw stock", "discard 9C", "drop")
    r = state.result
    assert r is not None and r.end == "drop"
    assert r.totals == (9, 16, 4, 29)
    assert r.net == (-1, -1, 3, -1)


def test_T13_tonk_example_1_kostoprav_drops_with_9() -> None:
    state = stacked(
        "tonk",
        ["10S 8D 8H 5S 4C", "KC 10C 3C 2S AH", "QH 8C 6D 2C 2D"],
        "5C",
        "6S AC 7S 8S 3S 7H",
        dealer=2,
    )
    assert [state.total(s) for s in range(3)] == [35, 26, 28]
    assert not state.is_over  # no Tonk
    play(state, "draw stock", "discard 10S", "draw stock", "discard KC", "draw stock", "discard QH")
    play(state, "draw stock", "spread 8S 8D 8H", "discard 6S", "draw stock", "discard 10C")
    play(state, "draw stock", "hit 0 8C", "discard 6D")
    assert state.pile[-1] == parse_index("6D")  # not the seed's "6т" (6C) typo
    play(state, "drop")
    r = state.result
    assert r is not None and r.end == "drop"
    assert r.totals == (9, 10, 18)
    assert sorted(r.payments) == [(1, 0, 1), (2, 0, 1)]
    assert r.net == (2, -1, -1)


def test_T13_tonk_example_2_goblin_drops_with_5() -> None:
    state = stacked(
        "tonk",
        ["QC 10S 9S 6H 5H", "JC 10C 4S 4C AS", "8S 7H 5D 2D AD"],
        "QD",
        "JS 10H 9H",
        dealer=2,
    )
    assert [state.total(s) for s in range(3)] == [40, 29, 23]
    play(state, "draw stock", "spread 9S 10S JS", "discard QC")
    play(state, "draw pile", "spread 10C JC QC", "discard 4S")
    assert sorted(c.text for c in state.hand(1)) == ["4C", "AS"]  # the seed's "4б Тп" typo
    play(state, "draw stock", "hit 0 8S", "discard 10H")
    play(state, "draw stock", "discard 9H", "drop")
    r = state.result
    assert r is not None and r.end == "drop"
    assert r.totals == (11, 5, 15)
    assert r.net == (-1, 2, -1)
