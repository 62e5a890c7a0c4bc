"""Three Towers records (``shared/spec/records.md``): the bridge between the engine and the
records core, which loads this module lazily for ``"game": "three-towers"``.

Decisions where the spec is silent:
- ``players`` (2–4 names) and ``dealer`` are required; ``rules`` (the preset) and ``moves``
  (none) may be omitted; ``stake`` means nothing in Three Towers and may only be 1.
- ``cards`` is ``{"deck": [...]}``, the first round's 108 cards top first, or ``{"seed": N}``
  (the engine's own shuffle, replayable only on the same engine version). Every later random
  outcome — a round's deal, a shuffle after a redeal, a Thief's steal — is a chance move
  ``[-1, "deal …"]``, ``[-1, "shuffle …"]``, ``[-1, "steal …"]`` in ``moves``.
- ``result``: ``end`` ("towers" or "rounds"), ``winners`` (any order), ``scores`` and ``towers``
  per seat, and ``rounds``: per round the round points and the finished tower (``[seat, ace]``
  or null). A stated result must have all five keys.
"""

from __future__ import annotations

from typing import Any

from taverntable.cards import CardError
from taverntable.engine import TavernError
from taverntable.records.adapter import RecordError

from .cards import TEXT, parse_card
from .moves import Deal
from .rules import MAX_PLAYERS, MIN_PLAYERS, TowersRules, rules_from
from .state import TowersState, check_deck

GAME = "three-towers"
RESULT_KEYS = ("end", "winners", "scores", "towers", "rounds")


def _show(value: object) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


class TowersAdapter:
    """The records adapter of Three Towers."""

    games = (GAME,)
    unit = "game"

    def start(self, record: dict[str, Any]) -> TowersState:
        """The game the record describes, with its first round dealt."""
        rules = parse_rules(record.get("rules"))
        players = record.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip()
                                                    for p in players):
            raise RecordError("players: must be a list of names (non-empty strings)")
        n = len(players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RecordError(f"players: Three Towers needs {MIN_PLAYERS} to {MAX_PLAYERS} "
                              f"players, not {n} (R3)")
        try:
            rules.check_players(n)
        except TavernError as e:
            raise RecordError(f"rules: {e}") from None
        dealer = record.get("dealer")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise RecordError(f"dealer: must be a seat 0..{n - 1}, not {_show(dealer)}")
        if record.get("stake", 1) != 1 or isinstance(record.get("stake"), bool):
            raise RecordError("stake: Three Towers is scored in points; leave stake out")
        cards = record.get("cards")
        if not isinstance(cards, dict) or len(cards) != 1 or not ({"deck", "seed"} & set(cards)):
            raise RecordError('cards: must be {"deck": [108 cards, top first]} or {"seed": N}')
        if "seed" in cards:
            seed = cards["seed"]
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise RecordError(f"cards.seed: must be a whole number, not {_show(seed)}")
            return TowersState.start(rules, n, rng=seed, dealer=dealer)
        deck = parse_deck(cards["deck"])
        return TowersState.start(rules, n, deck=deck, dealer=dealer)

    def apply(self, state: TowersState, seat: int, move_text: str) -> None:
        """Parse and apply one move (seat -1: a chance step)."""
        state.apply_text(move_text)

    def result_json(self, state: TowersState) -> dict[str, Any] | None:
        """The ``result`` object, or None while the game goes on."""
        return None if state.result is None else state.result.to_json()

    def results_match(self, expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
        """Why a stated result differs from the replayed one (winners as a set), or None."""
        for key in expected:
            if key not in RESULT_KEYS:
                return f"unknown key {_show(key)} (known: {', '.join(RESULT_KEYS)})"
        for key in RESULT_KEYS:
            if key not in expected:
                return f"missing key {_show(key)}"
        winners = expected["winners"]
        if not isinstance(winners, list) or sorted(map(str, winners)) != sorted(
                map(str, actual["winners"])):
            return _differs("winners", winners, actual["winners"])
        for key in ("end", "scores", "towers", "rounds"):
            if expected[key] != actual[key]:
                return _differs(key, expected[key], actual[key])
        return None

    def dump(self, state: TowersState, players: list[str]) -> dict[str, Any]:
        """The whole record of a game: the first deck, every move, the result when over."""
        if len(players) != state.num_players:
            raise RecordError(f"{len(players)} names for {state.num_players} players")
        if not state.history or not isinstance(state.history[0][1], Deal):
            raise RecordError("only a game dealt by this engine (from its first deal) can be "
                              "written as a record")
        first = state.history[0][1]
        record: dict[str, Any] = {
            "game": GAME,
            "rules": {"preset": state.rules.preset, **state.rules.differences()},
            "players": list(players),
            "dealer": state.first_dealer,
            "cards": {"deck": [TEXT[c] for c in first.cards]},
            "moves": [[seat, str(move)] for seat, move in state.history[1:]],
        }
        if state.result is not None:
            record["result"] = state.result.to_json()
        return record

    def describe(self, record: dict[str, Any], state: TowersState) -> str:
        """A readable account of the game."""
        from .describe import describe

        return describe(record["players"], state)


ADAPTER = TowersAdapter()


def parse_rules(rules: object) -> TowersRules:
    """``{"preset": "three-towers", option: value, …}``, or None for the preset."""
    if rules is None:
        return rules_from(GAME)
    if not isinstance(rules, dict):
        raise RecordError('rules: must be an object like {"preset": "three-towers"}')
    options = dict(rules)
    preset = options.pop("preset", GAME)
    if preset != GAME:
        raise RecordError(f"rules: preset {_show(preset)} is not the game's (\"{GAME}\")")
    try:
        return rules_from(GAME, **options)
    except (TavernError, TypeError) as e:
        raise RecordError(f"rules: {e}") from None


def parse_deck(deck: object) -> list[int]:
    """The 108 cards of R1, top first."""
    if not isinstance(deck, list):
        raise RecordError("cards.deck: must be a list of the 108 cards, top first")
    out = []
    for i, text in enumerate(deck):
        if not isinstance(text, str):
            raise RecordError(f"cards.deck[{i}]: {_show(text)} is not a card")
        try:
            out.append(parse_card(text))
        except CardError as e:
            raise RecordError(f"cards.deck[{i}]: {e}") from None
    try:
        check_deck(out)
    except TavernError as e:
        raise RecordError(f"cards.deck: {e}") from None
    return out


def _differs(key: str, stated: object, replayed: object) -> str:
    return f"{key} is {_show(stated)} in the record but {_show(replayed)} on replay"
