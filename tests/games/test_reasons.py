"""The engine's reasons for refusing a move have stable keys (A, R…, T…): every refusal names a
key of its game's ``reasons.py``, its English sentence is that key's template filled with its
parameters, cards among the parameters are T1 texts, and every template is raised somewhere."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from taverntable.cards import card_at, parse_index
from taverntable.engine import CHANCE, IllegalMove
from taverntable.games import get_game
from taverntable.games.three_towers import reasons as towers_reasons
from taverntable.games.three_towers.cards import TEXT as TOWERS_TEXT
from taverntable.games.tonk import reasons as tonk_reasons

from policies import patient

GAME_REASONS = {"tonk": tonk_reasons, "three-towers": towers_reasons}
CARD_PARAMS = {"card", "cards", "fourth", "spread_cards", "attacker", "missing", "extra"}


def refusals(name: str, games: int, seed: int) -> list[IllegalMove]:
    """The refusals of random actions (mostly illegal) tried at every position of random games."""
    game = get_game(name)
    rng = random.Random(seed)
    found = []
    for k in range(games):
        n = game.min_players + k % (min(game.max_players, 4) - game.min_players + 1)
        rules = game.rules({"max_rounds": 1} if get_game(name).family == "three-towers" else None)
        state = game.start(rules, n, rng=rng, dealer=k % n)
        for _ in range(300):
            seat = state.current_seat
            if seat is None:
                break
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            tries = [game.actions.decode(rng.randrange(game.actions.size)) for _ in range(6)]
            if get_game(name).family != "three-towers":
                tries += [state.parse_move(text) for text in tonk_tries(state, rng)]
            for move in tries:
                try:
                    state.check(move)
                except IllegalMove as e:
                    found.append(e)
            state.apply(patient(state, rng))
    return found


def tonk_tries(state: Any, rng: random.Random) -> list[str]:
    """Moves a person might try with the cards of the hand: most are refused."""
    hand = state.view(state.current_seat).to_json()["hand"]
    spreads = len(state.view(state.current_seat).to_json()["spreads"])
    tries = [
        "drop",
        "end",
        "draw stock",
        "draw pile",
        f"discard {rng.choice(hand)}",
        f"hit {rng.randrange(spreads + 1)} {rng.choice(hand)}",
    ]
    if len(hand) >= 3:
        tries.append("spread " + " ".join(rng.sample(hand, 3)))
    return tries


@pytest.mark.parametrize("name", ["tonk", "tor", "pagat", "three-towers"])
def test_every_refusal_has_a_key_whose_template_gives_its_english_sentence(name: str) -> None:
    reasons = GAME_REASONS["three-towers" if get_game(name).family == "three-towers" else "tonk"]
    found = refusals(name, 12, 5)
    assert len(found) > 200
    for e in found:
        assert e.key in reasons.REASONS, e
        assert e.reason == reasons.REASONS[e.key].format(**e.params)
        assert str(e) == f"{e.reason} ({e.rule})" and re.fullmatch(r"A|[RT]\d+", e.rule)
        for param, value in e.params.items():
            assert isinstance(value, str | int)
            if param in CARD_PARAMS:
                for text in str(value).split():  # T1 texts as printed (Three Towers' joker X)
                    assert (
                        text in TOWERS_TEXT
                        if get_game(name).family == "three-towers"
                        else card_at(parse_index(text)).text == text
                    )
    # Random actions meet most of the reasons a player can run into.
    assert len({e.key for e in found}) >= 12


@pytest.mark.parametrize("game", sorted(GAME_REASONS))
def test_every_reason_key_is_raised_by_the_engine_and_every_raised_key_exists(game: str) -> None:
    reasons = GAME_REASONS[game]
    folder = Path(reasons.__file__).parent
    source = "\n".join(p.read_text() for p in folder.glob("*.py") if p.name != "reasons.py")
    raised = r'(?:refuse\(|_why\()[^)]*?"((?:tonk|towers)\.[a-z_.]+)"'
    literal = set(re.findall(raised, source, re.S))
    families = set(re.findall(r'f"((?:tonk|towers)\.[a-z_.]*)\{', source))
    assert literal and families
    assert literal <= set(reasons.REASONS), literal - set(reasons.REASONS)
    for key in reasons.REASONS:
        assert key in literal or any(key.startswith(f) for f in families), key


def test_a_refusal_keeps_rule_reason_and_key_for_a_front_end() -> None:
    """T9: a Tonk discard of the card taken from the pile, before going out."""
    e = tonk_reasons.refuse("T9", "tonk.pile_card_kept", card="QH")
    assert (e.rule, e.key, e.params) == ("T9", "tonk.pile_card_kept", {"card": "QH"})
    assert (
        str(e) == "QH was taken from the pile this turn; it may only be discarded as your "
        "last card (T9)"
    )
