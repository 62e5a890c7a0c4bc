"""Helpers for the Three Towers tests: stacked decks and arranged positions."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, TypeVar

import pytest

from taverntable.bots import make_bot
from taverntable.engine import RecordError, play_out
from taverntable.games.three_towers import (
    RulesError,
    TowersRules,
    TowersState,
    TowersView,
    rules_from,
)
from taverntable.games.three_towers.cards import TEXT, full_deck, parse_card, total
from taverntable.games.three_towers.phases import CHANCE, TURN
from taverntable.games.three_towers.record import ADAPTER
from taverntable.records.core import replay_record

T = TypeVar("T")


def cards(text: str) -> list[int]:
    """``"7H X AS"`` -> codes."""
    return [parse_card(w) for w in text.split()]


def stacked_deck(hands: Sequence[str], top: str = "", dealer: int = 0) -> list[int]:
    """A 108-card deck (top first) that deals ``hands`` (seat order) one card at a time from the
    dealer's left, then has ``top`` on top of the deck; the rest in canonical order."""
    n = len(hands)
    hs = [cards(h) for h in hands]
    assert all(len(h) == 7 for h in hs), "each hand is 7 cards"
    first = (dealer + 1) % n
    dealt = [hs[(first + k) % n][k // n] for k in range(7 * n)]
    head = dealt + cards(top)
    rest = Counter(full_deck()) - Counter(head)
    assert sum(rest.values()) + len(head) == 108, "a card is named too often"
    return head + sorted(rest.elements())


def deck_from_top(top: str) -> list[str]:
    """A record's 108-card deck, top first: ``top`` and then the rest in canonical order."""
    head = cards(top)
    rest = Counter(full_deck()) - Counter(head)
    return [TEXT[c] for c in head + sorted(rest.elements())]


def arrange(
    hands: Sequence[str],
    *,
    rules: TowersRules | None = None,
    mover: int = 0,
    towers: Sequence[str] = (),
    nobility: Sequence[str] = (),
    stores: Sequence[str] = (),
    deck_top: str = "",
    deck_size: int | None = None,
) -> TowersState:
    """A round in progress with these zones (seat order) and ``mover`` to act. Every card not
    named is in the deck under ``deck_top``; with ``deck_size`` the deck is cut to that many
    cards and the rest go to the last seat's store, so that all 108 cards stay in play."""
    n = len(hands)
    state = TowersState.new(rules or TowersRules(), n, dealer=(mover - 1) % n)
    pool = Counter(full_deck(state.rules.decks))  # R1, R35
    zones = {"hands": hands, "towers": towers, "nobility": nobility, "stores": stores}
    for name, texts in zones.items():
        target = getattr(state, name)
        for s, text in enumerate(texts):
            cs = cards(text)
            pool.subtract(cs)
            target[s] = sorted(cs) if name in ("hands", "nobility") else cs
    top = cards(deck_top)
    pool.subtract(top)
    assert all(v >= 0 for v in pool.values()), "a card is named too often"
    rest = sorted(pool.elements())
    if deck_size is not None:
        # Cards beyond the deck's size go to the last seat's store, so all 108 stay in play.
        keep = deck_size - len(top)
        state.stores[n - 1] += rest[keep:]
        rest = rest[:keep]
    state.deck = list(reversed(top + rest))
    state.round_no = 1
    state.phase = TURN
    state.mover = mover
    state.decider = mover
    return state


def play(state: TowersState, *texts: str) -> None:
    """Apply moves in notation, each checked."""
    for t in texts:
        state.apply_text(t)


def hand(state: TowersState, seat: int) -> str:
    from taverntable.games.three_towers.cards import cards_text

    return cards_text(state.hands[seat])


def store_total(state: TowersState, seat: int) -> int:
    return total(state.stores[seat])


def run_random(state: TowersState, rng: random.Random, steps: int) -> None:
    """Random legal moves (chance sampled) for up to ``steps`` steps."""
    for _ in range(steps):
        if state.is_over:
            return
        if state.decider == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_moves()))


def perturb_hidden(state: TowersState, seat: int, rng: random.Random) -> TowersState | None:
    """A copy in which two different cards hidden from ``seat`` have swapped places."""
    other = state.clone()
    slots: list[tuple[list[int], int]] = []
    for s in range(state.num_players):
        if s != seat:
            slots += [(other.hands[s], i) for i in range(len(other.hands[s]))]
        if s != seat or not state.rules.own_store_visible:
            spare = Counter(other.stores[s]) - Counter(other.known[s])
            for i, c in enumerate(other.stores[s]):
                if spare[c] > 0:
                    spare[c] -= 1
                    slots.append((other.stores[s], i))
    slots += [(other.deck, i) for i in range(len(other.deck))]
    rng.shuffle(slots)
    for (za, ia), (zb, ib) in itertools.pairwise(slots):
        if za[ia] != zb[ib]:
            za[ia], zb[ib] = zb[ib], za[ia]
            for h in other.hands:
                h.sort()
            return other
    return None


def a_share(tables: Sequence[T], every: int, seed: int = 0) -> list[T]:
    """About one table in ``every`` of an every-combination list (``fast.differential.tables``),
    drawn at random from ``seed`` and kept in order: a CI-sized share of the combinations (R34
    and R35 tripled them) that still meets each rule option's every value at every seating
    (checked here, so that a share that does not is an error, not a quiet gap)."""
    rng = random.Random(seed)
    share = sorted(rng.sample(range(len(tables)), max(1, len(tables) // every)))
    chosen = [tables[i] for i in share]

    def values(of: Sequence[T]) -> set[tuple[int, str, object]]:
        return {
            (t.players, f.name, getattr(t.rules, f.name))  # type: ignore[attr-defined]
            for t in of
            for f in dataclasses.fields(t.rules)  # type: ignore[attr-defined]
        }

    missed = values(tables) - values(chosen)
    assert not missed, f"the share misses {sorted(missed, key=str)[:5]}"
    return chosen


def heuristic_decisions(
    rules: TowersRules, players: int, seed: int, count: int, share: float
) -> list[TowersState]:
    """``count`` positions (copies) where a seat decides among two or more legal moves, about
    ``share`` of such positions met in heuristic play, games dealt from ``seed``."""
    # Imported here: the other helpers serve engine tests, which import no bot.
    from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot

    rng = random.Random(seed)
    bot = ThreeTowersHeuristicBot()
    out: list[TowersState] = []
    while len(out) < count:
        state = TowersState.start(rules, players, rng=rng, dealer=rng.randrange(players))
        while not state.is_over and len(out) < count:
            seat = state.current_seat
            assert seat is not None
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view = state.view(seat)
            if len(view.legal_moves) > 1 and rng.random() < share:
                out.append(state.clone())
            state.apply(bot.choose(view, rng))
    return out


class RulesAndPlayers(Protocol):
    rules: TowersRules
    players: int


def decision_views(table: RulesAndPlayers, seed: int, count: int) -> list[TowersView]:
    """The deciding seats' views of ``heuristic_decisions`` (a tenth of the decisions met)."""
    found = heuristic_decisions(table.rules, table.players, seed, count, share=0.1)
    return [state.view(state.current_seat or 0) for state in found]


def heuristic_game(rules: TowersRules, seed: int) -> TowersState:
    """A whole game of heuristic bots under ``rules``, 2-4 seats by the seed, played to its end
    (what the record and scoring tests read)."""
    rng = random.Random(seed)
    state = TowersState.start(rules, 2 + seed % 3, rng=rng, dealer=0)
    play_out(state, [make_bot("heuristic", "three-towers")] * state.num_players, rng)
    assert state.result is not None, "the game is played to its end"
    return state


def assert_a_replayer_without_the_option_refuses(
    monkeypatch: pytest.MonkeyPatch, option: str, value: int
) -> None:
    """A record naming ``option`` read by rules that do not know it (as a replayer before the
    option would be) is refused naming the option, never replayed under today's rules."""
    from taverntable.games.three_towers import record as record_module

    state = heuristic_game(rules_from(max_rounds=1, **{option: value}), 0)
    names = [f"P{s}" for s in range(state.num_players)]
    record = json.loads(json.dumps(ADAPTER.dump(state, names)))
    real = record_module.rules_from

    def before_the_option(preset: str = "three-towers", **options: object) -> TowersRules:
        if option in options:
            raise RulesError(f"unknown rule option '{option}'")
        return real(preset, **options)

    monkeypatch.setattr(record_module, "rules_from", before_the_option)
    with pytest.raises(RecordError, match=option):
        replay_record(record)


def assert_in_every_readings(rule: str, option: str, after: str) -> None:
    """``rule`` (e.g. ``"R37"``) is written, naming ``option``, in the readings of every
    language, after the rule ``after``."""
    from taverntable.games.three_towers import rules as rules_module

    for lang in ("en", "hu", "ru", "uk"):
        path = Path(rules_module.__file__).parent / "texts" / lang / "three-towers-readings.md"
        text = path.read_text(encoding="utf-8")
        assert f"**{rule} " in text and f"`{option}`" in text, (lang, rule)
        assert text.index(f"**{rule} ") > text.index(f"**{after} "), (lang, rule)
