"""Three Towers records (``docs/record-format.md``): the bridge between the engine and the
records core, which loads this module lazily for ``"game": "three-towers"``.

Decisions where the spec is silent:
- ``players`` (2–4 names) and ``dealer`` are required; ``rules`` (the preset) and ``moves``
  (none) may be omitted; ``stake`` means nothing in Three Towers and may only be 1 (the whole
  number: not ``1.0`` or ``true``). Names follow the same rules as Tonk's: non-empty, at most 64
  characters, no control characters.
- ``cards`` is ``{"deck": [...]}``, the first round's 108 cards top first (R35: the 162 of
  three decks when the rules say ``"decks": 3``), or ``{"seed": N}``
  (the engine's own shuffle, replayable only on the same engine version). Every later random
  outcome — a round's deal, a shuffle after a redeal, a Thief's steal — is a chance move
  ``[-1, "deal …"]``, ``[-1, "shuffle …"]``, ``[-1, "steal …"]`` in ``moves``.
- ``result``: ``end`` ("towers" or "rounds"), ``winners`` (any order), ``scores`` and ``towers``
  per seat, and ``rounds``: per round the round points and the finished tower (``[seat, ace]``
  or null). A stated result must have all five keys, each of the type the replay writes: whole
  numbers are not written as strings, floats or true/false.
"""

from __future__ import annotations

from typing import Any

from taverntable.cards import CardError
from taverntable.engine import RecordError, TavernError
from taverntable.fields import check_names, check_rule_values, int_list, is_int, show

from .cards import TEXT, deck_size, parse_card
from .describe import describe
from .moves import Deal
from .rules import MAX_PLAYERS, MIN_PLAYERS, TowersRules, rules_from
from .state import TowersState, check_deck

GAME = "three-towers"
RESULT_KEYS = ("end", "winners", "scores", "towers", "rounds")


class TowersAdapter:
    """The records adapter of Three Towers."""

    games = (GAME,)
    unit = "game"

    def start(self, record: dict[str, Any]) -> TowersState:
        """The game the record describes, with its first round dealt."""
        rules = parse_rules(record.get("rules"))
        n = len(check_names(record.get("players")))
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RecordError(
                f"players: Three Towers needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n} (R3)"
            )
        try:
            rules.check_players(n)
        except TavernError as e:
            raise RecordError(f"rules: {e}") from None
        dealer = record.get("dealer")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise RecordError(f"dealer: must be a seat 0..{n - 1}, not {show(dealer)}")
        stake = record.get("stake", 1)
        if not is_int(stake) or stake != 1:
            raise RecordError("stake: Three Towers is scored in points; leave stake out")
        cards = record.get("cards")
        if not isinstance(cards, dict) or len(cards) != 1 or not ({"deck", "seed"} & set(cards)):
            raise RecordError(
                f'cards: must be {{"deck": [{deck_size(rules.decks)} cards, top first]}} or '
                '{"seed": N}'
            )
        if "seed" in cards:
            seed = cards["seed"]
            if not is_int(seed):
                raise RecordError(f"cards.seed: must be a whole number, not {show(seed)}")
            return TowersState.start(rules, n, rng=seed, dealer=dealer)
        deck = parse_deck(cards["deck"], rules.decks)
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
                return f"unknown key {show(key)} (known: {', '.join(RESULT_KEYS)})"
        for key in RESULT_KEYS:
            if key not in expected:
                return f"missing key {show(key)}"
        if expected["end"] != actual["end"]:
            return _differs("end", expected["end"], actual["end"])
        for key in ("winners", "scores", "towers"):
            # Types first: Python finds 95.0 == 95 and false == 0, the spec's JSON does not.
            if not int_list(expected[key]):
                return f"{key} must be a list of whole numbers"
        if sorted(expected["winners"]) != sorted(actual["winners"]):
            return _differs("winners", expected["winners"], actual["winners"])
        for key in ("scores", "towers"):
            if expected[key] != actual[key]:
                return _differs(key, expected[key], actual[key])
        rounds = expected["rounds"]
        if not isinstance(rounds, list) or not all(map(_is_round, rounds)):
            return (
                'rounds must be a list of {"points": [whole numbers], "tower": [seat, ace] or null}'
            )
        if rounds != actual["rounds"]:
            return _differs("rounds", rounds, actual["rounds"])
        return None

    def dump(self, state: TowersState, players: list[str]) -> dict[str, Any]:
        """The whole record of a game: the first deck, every move, the result when over."""
        if len(check_names(players)) != state.num_players:
            raise RecordError(f"players: {len(players)} names for {state.num_players} players")
        if not state.history or not isinstance(state.history[0][1], Deal):
            raise RecordError(
                "only a game dealt by this engine (from its first deal) can be written as a record"
            )
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
        return describe(record["players"], state)


ADAPTER = TowersAdapter()


def parse_rules(rules: object) -> TowersRules:
    """``{"preset": "three-towers", option: value, …}``, or None for the preset."""
    if rules is None:
        return rules_from(GAME)
    if not isinstance(rules, dict):
        raise RecordError('rules: must be an object like {"preset": "three-towers"}')
    check_rule_values(rules)
    options = dict(rules)
    preset = options.pop("preset", GAME)
    if preset != GAME:
        raise RecordError(f'rules: preset {show(preset)} is not the game\'s ("{GAME}")')
    try:
        return rules_from(GAME, **options)
    except (TavernError, TypeError) as e:
        raise RecordError(f"rules: {e}") from None


def parse_deck(deck: object, decks: int = 2) -> list[int]:
    """The 108 cards of R1 (R35: the 162 of three decks), top first."""
    if not isinstance(deck, list):
        raise RecordError(f"cards.deck: must be a list of the {deck_size(decks)} cards, top first")
    out = []
    for i, text in enumerate(deck):
        if not isinstance(text, str):
            raise RecordError(f"cards.deck[{i}]: {show(text)} is not a card")
        try:
            out.append(parse_card(text))
        except CardError as e:
            raise RecordError(f"cards.deck[{i}]: {e}") from None
    try:
        check_deck(out, decks)
    except TavernError as e:
        raise RecordError(f"cards.deck: {e}") from None
    return out


def _is_round(entry: object) -> bool:
    """The shape of one round of a stated result: ``{"points": [...], "tower": [seat, ace]}``."""
    if not isinstance(entry, dict) or set(entry) != {"points", "tower"}:
        return False
    tower = entry["tower"]
    return int_list(entry["points"]) and (
        tower is None
        or (
            isinstance(tower, list)
            and len(tower) == 2
            and is_int(tower[0])
            and isinstance(tower[1], str)
        )
    )


def _differs(key: str, stated: object, replayed: object) -> str:
    return f"{key} is {show(stated)} in the record but {show(replayed)} on replay"
