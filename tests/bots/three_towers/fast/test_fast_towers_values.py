"""The heuristic kernel's values worked out once a decision (issue 28 item 7) are the values it
worked out per action: the decision's ``keep`` (its weight, its best warrior found once, the
answer's table of the held cards) is ``keep`` float for float on every card in hand; a playout's
one scratch array, reused decision after decision, decides as a fresh one does; and an answer's
pairs, enumerated from the held cards, are R5 (c)'s pairs of every two plain cards in hand, in
the engine's order. Positions: every decision of whole heuristic games in the kernel at 2, 3
and 4 players, with teams at 4."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from taverntable.bots.three_towers.fast import heuristic as h
from taverntable.fast.jit import int_array, new_floats
from taverntable.fast.stream import stream_of
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.fast.play import option_codes
from taverntable.games.three_towers.rules import TowersRules

SEATINGS = [(2, TowersRules()), (3, TowersRules()), (4, TowersRules(teams=True))]
CHANCE_PHASES = (k.DEAL, k.SHUFFLE, k.STEAL)


def decisions(players: int, rules: TowersRules, games: int, seed: int) -> Iterator[tuple]:
    """Each decision with more than one legal move of ``games`` kernel heuristic games: the
    state, the legal moves and their count (the state is played on after each yield)."""
    st = int_array(k.STATE_SIZE)
    kinds, xa, xb = (int_array(k.MAX_LEGAL) for _ in range(3))
    unseen = int_array(h.U_SIZE)
    stream = stream_of(random.Random(seed))
    for g in range(games):
        k.new_game(st, option_codes(rules), players, g % players)
        while st[k.PHASE] != k.OVER:
            if st[k.PHASE] in CHANCE_PHASES:
                k.chance_step(st, stream)
                continue
            count = k.legal_moves(st, kinds, xa, xb)
            if count > 1:
                yield st, kinds, xa, xb, count
            pick = h.decide(st, kinds, xa, xb, count, unseen)
            k.apply_move(st, kinds[pick], xa[pick], xb[pick])


@pytest.mark.parametrize(("players", "rules"), SEATINGS, ids=lambda x: str(x)[:12])
def test_a_decisions_keep_is_keep_on_every_card_in_hand(players: int, rules: TowersRules) -> None:
    """``_keep`` (weight and best warrior once a decision) and the answer's table equal
    ``keep`` exactly, the defender's bonus included (a warrior in hand, goods on the tower)."""
    unseen, parts = int_array(h.U_SIZE), new_floats(h.DECISION_PARTS)
    defended = cards = 0
    for st, _, _, _, _ in decisions(players, rules, games=3, seed=players):
        me = st[k.DECIDER]
        h.knowledge(st, me, unseen)
        h._decision_start(st, unseen, parts)
        h._answer_keeps(st, me, parts)
        for c in range(k.CODES):
            if st[k.HAND + me * k.CODES + c]:
                expected = h.keep(st, me, c)
                assert h._keep(st, me, c, parts) == expected, (c, expected)
                assert parts[h.P_KEEP + c] == expected, (c, expected)
                cards += 1
                defended += int(c == h._best_warrior(st, me) and st[k.TOWER_GOODS + me] > 0)
    assert cards > 1000 and defended > 20, (cards, defended)


@pytest.mark.parametrize(("players", "rules"), SEATINGS, ids=lambda x: str(x)[:12])
def test_one_scratch_reused_decides_as_a_fresh_one(players: int, rules: TowersRules) -> None:
    """A playout passes one ``parts`` array to every decision (``decide_into``, and the styled
    ``decide_styled_into``): nothing of a decision's parts may leak into the next."""
    unseen, parts = int_array(h.U_SIZE), new_floats(h.DECISION_PARTS)
    fresh_unseen = int_array(h.U_SIZE)
    phases = set()
    for st, kinds, xa, xb, count in decisions(players, rules, games=3, seed=10 + players):
        fresh = h.decide(st, kinds, xa, xb, count, fresh_unseen)
        assert h.decide_into(st, kinds, xa, xb, count, unseen, parts) == fresh
        for style in h.STYLE_CODES.values():
            expected = h.decide_styled(st, kinds, xa, xb, count, fresh_unseen, style)
            got = h.decide_styled_into(st, kinds, xa, xb, count, unseen, style, parts)
            assert got == expected, (style, got, expected)
        phases.add(int(st[k.PHASE]))
    assert {k.TURN, k.ANSWER, k.DEFEND} <= phases, phases


def r5_pairs(st: object, seat: int) -> list[tuple[int, int]]:
    """R5 (c): two plain cards (codes 13..51, not the led ♠ penalties), a card twice when held
    twice, by the first card's code and then the second's."""
    held = [st[k.HAND + seat * k.CODES + c] for c in range(k.CODES)]  # type: ignore[index]
    pairs = []
    for a in range(13, 52):
        if held[a]:
            if held[a] >= 2:
                pairs.append((a, a))
            pairs += [(a, b) for b in range(a + 1, 52) if held[b]]
    return pairs


@pytest.mark.parametrize(("players", "rules"), SEATINGS, ids=lambda x: str(x)[:12])
def test_an_answers_pairs_are_every_two_plain_cards_held(players: int, rules: TowersRules) -> None:
    answers = 0
    for st, kinds, xa, xb, count in decisions(players, rules, games=3, seed=20 + players):
        if st[k.PHASE] != k.ANSWER or st[k.OPT_GIVE_ANY]:
            continue
        seat = st[k.QUEUE + st[k.Q_HEAD]]
        pairs = [(xa[i], xb[i]) for i in range(count) if kinds[i] == k.M_ANSWER and xb[i] >= 0]
        assert pairs == r5_pairs(st, seat)
        answers += int(len(pairs) > 1)
    assert answers > 30, answers
