"""The hard bot's per-decision set-up made cheaper (issue 28 item 7) with the same results: the
compared moves' kernel triples, the search's own generator seeded in the kernel, the unseen
cards in the same order (the order a search's worlds are dealt from), so every decision stays
the same (``docs/designer.md``, "The Python around the search")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from taverntable.bots import ismcts
from taverntable.bots.ismcts import IsmctsBot, search
from taverntable.bots.three_towers.fast.playouts import KernelPlayouts
from taverntable.bots.three_towers.search import TowersSearch
from taverntable.fast.differential import Table, tables
from taverntable.fast.jit import COMPILED, int_array
from taverntable.fast.search_random import SearchRandom
from taverntable.fast.stream import search_stream
from taverntable.games.three_towers.cards import full_deck
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.fast.differential import SUBJECT
from taverntable.games.three_towers.fast.play import move_of
from taverntable.games.three_towers.fast.state import load
from taverntable.games.three_towers.view import TowersView, unseen_cards
from taverntable.games.three_towers.worlds import sample_world

from three_towers_helpers import decision_views

# Two, three and four players, teams (R15), a hidden own store (R19) and more.
SOME = (0, 1, 2, 9, 16)


def _tables() -> list[Table]:
    everything = tables(SUBJECT)
    return [everything[i] for i in SOME]


def _every_legal_triple(st: object) -> dict[object, tuple[int, int, int]]:
    """The table ``_codes`` once built: every legal move of the world, the last triple kept."""
    kinds, xa, xb = (int_array(k.MAX_LEGAL) for _ in range(3))
    count = k.legal_moves(st, kinds, xa, xb)  # type: ignore[arg-type]
    return {
        move_of(int(kinds[i]), int(xa[i]), int(xb[i])): (int(kinds[i]), int(xa[i]), int(xb[i]))
        for i in range(count)
    }


@pytest.mark.parametrize("table", _tables(), ids=lambda t: f"{t.players}p-{t.rules!r}")
def test_the_compared_moves_triples_are_those_of_every_legal_move(table: Table) -> None:
    """``KernelPlayouts._codes`` looks only among the triples of each move's kind: for every
    legal move of 12 views it finds the triple that the table of all legal moves holds."""
    for view in decision_views(table, seed=7 + table.players, count=12):
        st = load(sample_world(view, random.Random(0)))
        every = _every_legal_triple(st)
        legal = list(view.legal_moves)
        codes = KernelPlayouts(legal, 10)._codes(st)
        found = [tuple(int(codes[3 * j + x]) for x in range(3)) for j in range(len(legal))]
        assert found == [every[m] for m in legal], view.phase


def _reference_unseen(view: TowersView) -> Counter[int]:
    """R16's unseen cards as ``unseen_cards`` counted them before: the full deck less a Counter
    of every card the seat can locate."""
    seen: Counter[int] = Counter(view.hand)
    for s, known in enumerate(view.known_stores):
        seen.update(view.store if s == view.seat and view.store is not None else known)
    for zone in (view.towers, view.nobility):
        for cards in zone:
            seen.update(cards)
    if view.trade is not None:
        for _, cards in view.trade.laid:
            seen.update(cards)
    if view.attack is not None:
        seen[view.attack.card] += 1
    return Counter(full_deck(view.rules.decks)) - seen


@pytest.mark.parametrize("table", _tables(), ids=lambda t: f"{t.players}p-{t.rules!r}")
def test_the_unseen_cards_keep_the_full_decks_order(table: Table) -> None:
    """The same counts and the same key order (``elements()`` is the pool a search's worlds
    are shuffled from: another order deals other worlds)."""
    for view in decision_views(table, seed=3 + table.players, count=12):
        got, want = unseen_cards(view), _reference_unseen(view)
        assert list(got.items()) == list(want.items())
        assert sum(got.values()) == view.deck_size + sum(
            n for s, n in enumerate(view.hand_sizes) if s != view.seat
        ) + sum(
            size - len(known)
            for s, (size, known) in enumerate(zip(view.store_sizes, view.known_stores, strict=True))
            if not (s == view.seat and view.store is not None)
        )


@pytest.mark.parametrize("seed", [0, 5, 2**32 + 3, 2**63 + 7, 2**64 - 1])
def test_a_search_random_draws_what_random_random_draws(seed: int) -> None:
    """Seeded on its first draw in Python, whichever method draws first (a method taken before
    the first draw included): then the numbers and the state of ``random.Random(seed)``."""
    firsts = ("random", "getrandbits", "shuffle", "choice", "getstate", "gauss", "randbytes")
    for first in firsts:
        own, plain = SearchRandom(seed), random.Random(seed)
        draw = own.random  # taken before the generator is seeded
        for rng in (own, plain):
            match first:
                case "getrandbits":
                    rng.getrandbits(64)
                case "shuffle":
                    rng.shuffle(list(range(30)))
                case "choice":
                    rng.choice(range(1000))
                case "getstate":
                    rng.getstate()
                case "gauss":
                    rng.gauss(0.0, 1.0)
                case "randbytes":
                    rng.randbytes(7)
        assert draw() == plain.random(), first
        assert own.getstate() == plain.getstate(), first
        cards, again = list(range(40)), list(range(40))
        own.shuffle(cards)
        plain.shuffle(again)
        assert cards == again
        reseeded, reference = SearchRandom(seed), random.Random(seed)
        reseeded.seed(9)
        reference.seed(9)
        assert reseeded.random() == reference.random()


@pytest.mark.skipif(not COMPILED, reason="the kernel's own stream needs numba")
def test_a_search_random_is_seeded_in_the_kernel_and_then_spent() -> None:
    """``SearchRandom(seed)``'s kernel stream is ``random.Random(seed)``'s, not handed back;
    once a search's dealer has drawn it, the generator refuses to draw again (it would repeat
    the search's numbers); a plain ``Random`` is copied and handed back as before."""
    for seed in (0, 5, 2**32 + 3, 2**64 - 1):
        stream, back = search_stream(SearchRandom(seed))
        assert not back
        assert tuple(int(x) for x in stream) == random.Random(seed).getstate()[1]
    _, back = search_stream(random.Random(5))
    assert back
    drawn = SearchRandom(5)
    drawn.random()  # drawn from in Python: its state is copied and handed back
    stream, back = search_stream(drawn)
    assert back and tuple(int(x) for x in stream) == drawn.getstate()[1]
    table = _tables()[0]
    view = next(v for v in decision_views(table, seed=11, count=40) if len(v.legal_moves) >= 2)
    rng = SearchRandom(99)
    search(TowersSearch(), view, rng, iterations=20, anchor=view.legal_moves[0], margin=1.0)
    with pytest.raises(RuntimeError, match="not handed back"):
        rng.random()


@pytest.mark.parametrize("table", _tables(), ids=lambda t: f"{t.players}p-{t.rules!r}")
def test_a_search_decides_alike_with_its_own_generator(table: Table) -> None:
    """The same view and seed: the same move, visits and values (float for float) with a
    ``SearchRandom`` (stream seeded in the kernel) as with ``random.Random`` (state copied)."""
    for i, view in enumerate(decision_views(table, seed=20 + table.players, count=8)):
        legal = list(view.legal_moves)[:3]
        if len(legal) < 2:
            continue
        seed = 1000 + i
        own = search(TowersSearch(), view, SearchRandom(seed), iterations=60, anchor=legal[0])
        plain = search(TowersSearch(), view, random.Random(seed), iterations=60, anchor=legal[0])
        assert (own.move, own.visits, own.values) == (plain.move, plain.visits, plain.values)


@pytest.mark.parametrize("style", [None, "raider"])
def test_the_hard_bot_chooses_as_with_plain_generators(
    style: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``IsmctsBot.choose`` with its ``SearchRandom`` generators (the search's and the
    anchor's) makes the moves it makes with ``random.Random`` ones, decision after decision,
    and draws only the seed from the caller's generator either way."""
    views = decision_views(_tables()[0], seed=31, count=12)
    runs = []
    for make in (SearchRandom, random.Random):
        monkeypatch.setattr(ismcts, "SearchRandom", make)
        bot, rng = IsmctsBot(style=style), random.Random(4)
        moves, searched = [], 0
        for view in views:
            moves.append(bot.choose(view, rng))
            searched += bot.last is not None
        runs.append((moves, rng.getstate()))
        assert searched >= 2  # decisions the search made, not only forced or lone moves
    assert runs[0] == runs[1]
