"""Records of the Tonk family (``tonk``, ``tor``, ``pagat``): setting up, comparing and dumping.

Decisions where the spec is silent:
- ``dealer`` and ``cards`` are required; ``rules`` (the game's preset), ``stake`` (1) and
  ``moves`` (none) may be omitted. ``rules`` may leave out ``preset``, meaning the game's own;
  a preset other than the game's is an error, so that a record has one meaning.
- In the ``hands`` form the ``stock`` may be omitted: it is then completed entirely, as any
  short stock is, in canonical order. A ``deck`` must hold all 52 cards.
- Card names accept every input form of T1 (``TH``, ``10h``, ``10♥``); dumps write ``10H``.
- Player names are non-empty strings of at most 64 characters without control characters
  (they go into one-line messages); the same name twice is allowed. ``dump`` checks the names
  too, so that a saved record always replays.
- A stated ``result`` must be an object with all five keys (``null`` is an error too).
"""

from __future__ import annotations

from typing import Any

from taverntable.cards import CARDS, Card, CardError
from taverntable.engine import RecordError, TavernError
from taverntable.fields import check_names, check_rule_values, int_list, is_int, show

from .describe import describe
from .rules import MAX_PLAYERS, MIN_PLAYERS, TonkRules, rules_from
from .state import TonkState

GAMES = ("tonk", "tor", "pagat")
HAND_SIZE = 5
CARD_FORMS = "hands/upcard/stock, deck or seed"
RESULT_KEYS = ("end", "winners", "totals", "payments", "net")


class TonkAdapter:
    """The records adapter of the Tonk family."""

    games: tuple[str, ...] = GAMES
    unit = "deal"

    def start(self, record: dict[str, Any]) -> TonkState:
        """The deal the record describes, with any win on the deal (T4) already settled."""
        rules = parse_rules(record.get("rules"), record["game"])
        n = len(parse_players(record.get("players")))
        dealer = parse_dealer(record.get("dealer"), n)
        stake = record.get("stake", 1)
        if not is_int(stake) or stake < 1:
            raise RecordError(
                f"stake: must be a whole number of at least 1, not {show(stake)} (T2)"
            )
        if "cards" not in record:
            raise RecordError(f"cards: missing ({CARD_FORMS})")
        try:
            return deal(record["cards"], rules, n, dealer, stake)
        except RecordError:
            raise
        except TavernError as e:  # the engine's DealError: a check this module does not repeat
            raise RecordError(f"cards: {e}") from None

    def apply(self, state: TonkState, seat: int, move_text: str) -> None:
        """Parse and apply one move for the seat on turn."""
        state.apply_text(move_text)

    def result_json(self, state: TonkState) -> dict[str, Any] | None:
        """The ``result`` object, or None while the deal goes on."""
        return None if state.result is None else state.result.to_json()

    def results_match(self, expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
        """Why a stated result differs from the replayed one (winners as a set, payments as a
        multiset), or None when they agree."""
        for key in expected:
            if key not in RESULT_KEYS:
                return f"unknown key {show(key)} (known: {', '.join(RESULT_KEYS)})"
        for key in RESULT_KEYS:
            if key not in expected:
                return f"missing key {show(key)}"
        if expected["end"] != actual["end"]:
            return _differs("end", expected["end"], actual["end"])
        for key in ("winners", "totals", "net"):
            if not int_list(expected[key]):
                return f"{key} must be a list of whole numbers"
        if set(expected["winners"]) != set(actual["winners"]):
            return _differs("winners", expected["winners"], actual["winners"])
        for key in ("totals", "net"):
            if expected[key] != actual[key]:
                return _differs(key, expected[key], actual[key])
        stated = expected["payments"]
        if not isinstance(stated, list) or not all(int_list(p) and len(p) == 3 for p in stated):
            return "payments must be a list of [from, to, amount] triples"
        if sorted(map(tuple, stated)) != sorted(map(tuple, actual["payments"])):
            return _differs("payments", stated, actual["payments"])
        return None

    def dump(self, state: TonkState, players: list[str]) -> dict[str, Any]:
        """The whole record of a deal: the complete stock, every move, the result when over."""
        if len(parse_players(players)) != state.num_players:
            raise RecordError(f"players: {len(players)} names for {state.num_players} players")
        rules = state.rules
        record: dict[str, Any] = {
            "game": rules.preset,
            "rules": {"preset": rules.preset, **rules.differences()},
            "players": list(players),
            "dealer": state.dealer,
            "stake": state.stake,
            "cards": {
                "hands": [[CARDS[c].text for c in hand] for hand in state.initial_hands],
                "upcard": CARDS[state.upcard].text,
                "stock": [CARDS[c].text for c in state.initial_stock],
            },
            "moves": [[seat, str(move)] for seat, move in state.history],
        }
        if state.result is not None:
            record["result"] = state.result.to_json()
        return record

    def describe(self, record: dict[str, Any], state: TonkState) -> str:
        """A readable account of the deal."""
        return describe(record["players"], state)


ADAPTER = TonkAdapter()


def parse_rules(rules: object, game: str) -> TonkRules:
    """``{"preset": NAME, option: value, …}``, or None for the game's own preset."""
    if rules is None:
        return rules_from(game)
    if not isinstance(rules, dict):
        raise RecordError('rules: must be an object like {"preset": "tonk"}')
    check_rule_values(rules)
    options = dict(rules)
    preset = options.pop("preset", game)
    if not isinstance(preset, str):
        raise RecordError(f'rules: preset must be a name like "tonk", not {show(preset)}')
    try:
        rules = rules_from(preset, **options)
    except TavernError as e:
        raise RecordError(f"rules: {e}") from None
    if preset != game:
        # One meaning per record: the game names its preset; other choices are options.
        raise RecordError(
            f"rules: preset {show(preset)} is not the game's ({show(game)}); "
            f"write the options that differ from {show(game)} instead"
        )
    return rules


def parse_players(players: object) -> list[str]:
    """2 to 10 names in seat order (T2); see ``check_names``."""
    players = check_names(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RecordError(
            f"players: Tonk needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)} (T2)"
        )
    return players


def parse_dealer(dealer: object, n: int) -> int:
    """The dealer's seat, 0 to n - 1."""
    if dealer is None:
        raise RecordError("dealer: missing (the dealer's seat number)")
    if isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < n:
        return dealer
    raise RecordError(f"dealer: must be a seat 0..{n - 1}, not {show(dealer)}")


def deal(cards: object, rules: TonkRules, n: int, dealer: int, stake: int) -> TonkState:
    """The deal in any of the three forms of ``cards``."""
    if not isinstance(cards, dict):
        raise RecordError(f"cards: must be an object ({CARD_FORMS})")
    form = [k for k in ("deck", "seed") if k in cards]
    if form:
        others = [k for k in cards if k != form[0]]
        if others:
            raise RecordError(
                f"cards: {show(form[0])} comes alone, not with {show(others[0])} ({CARD_FORMS})"
            )
        if form[0] == "seed":
            seed = cards["seed"]
            if not is_int(seed):
                raise RecordError(f"cards.seed: must be a whole number, not {show(seed)}")
            return TonkState.deal(rules, n, rng=seed, dealer=dealer, stake=stake)
        deck = parse_deck(cards["deck"])
        return TonkState.deal(rules, n, deck=deck, dealer=dealer, stake=stake)
    for key in cards:
        if key not in ("hands", "upcard", "stock"):
            raise RecordError(f"cards: unknown key {show(key)} ({CARD_FORMS})")
    hands, upcard, stock = parse_hands(cards, n)
    return TonkState.from_cards(rules, hands, upcard, stock, dealer=dealer, stake=stake)


def parse_deck(deck: object) -> list[int]:
    """The 52 cards, top first, each once."""
    if not isinstance(deck, list):
        raise RecordError("cards.deck: must be a list of the 52 cards, top first")
    seen: dict[int, str] = {}
    out = [_card(c, f"cards.deck[{i}]", seen) for i, c in enumerate(deck)]
    if len(out) != 52:
        missing = " ".join(c.text for c in CARDS if c.index not in seen)
        raise RecordError(f"cards.deck: holds {len(out)} cards, not 52 (missing: {missing})")
    return out


def parse_hands(cards: dict[str, Any], n: int) -> tuple[list[list[int]], int, list[int]]:
    """Hands, upcard and stock (top first); a short stock is completed in canonical order."""
    for key in ("hands", "upcard"):
        if key not in cards:
            raise RecordError(f"cards: missing {show(key)}")
    hands = cards["hands"]
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError("cards.hands: must be a list of hands, each a list of cards")
    if len(hands) != n:
        raise RecordError(f"cards.hands: {len(hands)} hands for {n} players")
    seen: dict[int, str] = {}
    dealt = []
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise RecordError(f"cards.hands[{seat}]: {len(hand)} cards; a hand is {HAND_SIZE} (T3)")
        dealt.append([_card(c, f"cards.hands[{seat}][{i}]", seen) for i, c in enumerate(hand)])
    upcard = _card(cards["upcard"], "cards.upcard", seen)
    stock = cards.get("stock", [])
    if not isinstance(stock, list):
        raise RecordError("cards.stock: must be a list of cards, top first")
    given = [_card(c, f"cards.stock[{i}]", seen) for i, c in enumerate(stock)]
    # Canonical completion (spec): the cards not named go to the bottom, in index order.
    rest = [c.index for c in CARDS if c.index not in seen]
    return dealt, upcard, given + rest


def _card(text: object, where: str, seen: dict[int, str]) -> int:
    """The index of the card named at ``where``; each card may be named once."""
    if not isinstance(text, str):
        raise RecordError(f"{where}: {show(text)} is not a card (write rank then suit, like 10H)")
    try:
        index = Card.parse(text).index
    except CardError as e:
        raise RecordError(f"{where}: {e}") from None
    if index in seen:
        raise RecordError(f"{where}: {CARDS[index]} is dealt twice (also at {seen[index]})")
    seen[index] = where
    return index


def _differs(key: str, stated: object, replayed: object) -> str:
    return f"the record says {key} {show(stated)}, the replay gives {show(replayed)}"
