"""The observation of a Three Towers seat: a fixed-size vector built from the seat's view JSON
(``view.to_json()``) and nothing else.

Seats are *absolute* (row ``s`` is seat ``s``) and the observer's seat is one-hot in ``me``:
Three Towers' action ids name seats (``raid T …``, ``name T``, ``give C T``), so the observation
names them the same way. Cards are counts per card code (two of each card and four jokers, R1;
R35: three and six). Counts and points are scaled to about [0, 1]: hand sizes by the rules' hand
size (R31), store and deck sizes by the rules' deck (R1's 108 cards, R35's 162).
"""

from __future__ import annotations

from typing import Any

from taverntable.cards import SUITS
from taverntable.games.three_towers.cards import NUM_CODES, TEXT
from taverntable.games.three_towers.rules import MAX_PLAYERS

from ..layout import Layout, Vector

SEATS = MAX_PLAYERS
PHASES = (
    "deal",
    "turn",
    "answer",
    "defend",
    "steal",
    "name",
    "queens",
    "kings",
    "shuffle",
    "club",
    "dark",
    "over",
)
_CODE = {text: code for code, text in enumerate(TEXT)}
# Scales: a hand holds the rules' hand size (R31), a deck its 54 cards a deck (R1, R35); a round
# scores about a hundred points.
DECK_CARDS, POINTS = 54.0, 500.0

LAYOUT = Layout(
    [
        ("me", 1, SEATS, "the observer's seat (one-hot)"),
        ("seats", 1, SEATS, "1 for each seat at the table"),
        ("hand", 1, NUM_CODES, "the observer's cards (counts by code; 52 is the joker)"),
        ("store", 1, NUM_CODES, "the observer's own store, when own_store_visible (R16)"),
        ("known_stores", SEATS, NUM_CODES, "per seat: the part of its store that filled in public"),
        ("towers", SEATS, NUM_CODES, "per seat: its tower's cards"),
        ("tower_values", 1, SEATS, "per seat: its tower's goods / tower_goal (R8, R29)"),
        ("nobility", SEATS, NUM_CODES, "per seat: its nobility (R7, R9)"),
        ("shown", SEATS, NUM_CODES, "per seat: its hand shown this round under R6"),
        ("hand_sizes", 1, SEATS, "cards in hand / hand_size (R31)"),
        ("store_sizes", 1, SEATS, "cards in store / the deck's cards (R1 108, R35 162)"),
        ("deck_size", 1, 1, "cards in the deck / the deck's cards"),
        ("phase", 1, len(PHASES), "the phase (one-hot, in the contract's order)"),
        ("to_play", 1, SEATS, "the seat to decide (one-hot; none at chance or over)"),
        ("mover", 1, SEATS, "the seat whose turn it is (one-hot)"),
        ("dealer", 1, SEATS, "the round's dealer (one-hot)"),
        ("trade", 1, 2, "a trade is on; it is a Witch's trade (R9)"),
        ("trade_leader", 1, SEATS, "the trade's leader (one-hot)"),
        ("trade_suit", 1, 4, "the trade's suit S H D C (one-hot)"),
        ("trade_laid", SEATS, NUM_CODES, "per seat: the cards it laid in the trade"),
        ("trade_bids", SEATS, 3, "per seat: bid rank / 13, a taking joker, a giving joker (R7)"),
        ("trade_queue", 1, SEATS, "seats still to answer"),
        ("trade_next", 1, SEATS, "the seat answering now (the queue's head)"),
        ("trade_failed", 1, SEATS, "seats that failed under R6"),
        ("attack", 1, 2, "an attack is on; it is a raid (else a curse) (R9)"),
        ("attacker", 1, SEATS, "the attacker (one-hot)"),
        ("target", 1, SEATS, "the attacked seat (one-hot)"),
        ("attack_card", 1, NUM_CODES, "the attacking card (one-hot)"),
        (
            "picks_passes",
            1,
            2,
            "cards chosen in a club take or dark give / 4; passes / 4 (R13, R17)",
        ),
        ("finished", 1, SEATS, "the seat that finished a tower this round (one-hot)"),
        ("tower_ace", 1, 4, "that tower's base ace by suit S H D C (one-hot)"),
        ("scores", 1, SEATS, "running scores / 500"),
        ("marks", 1, SEATS, "finished towers / 3 (R14)"),
        ("round", 1, 1, "the round's number / 100"),
        (
            "rules",
            1,
            5,
            "teams, own_store_visible, defence any, tower_goal / 100, nobility_points / 50",
        ),
    ]
)


def encode(view: dict[str, Any]) -> Vector:
    """The vector of a Three Towers view's JSON (a spectator's too: no hand, no ``me``)."""
    out = LAYOUT.zeros()
    n: int = view["num_players"]
    rules = view["rules"]
    hand, deck = float(rules["hand_size"]), DECK_CARDS * rules["decks"]

    def cards(name: str, texts: list[str], row: int = 0) -> None:
        base = LAYOUT.at(name, row)
        for text in texts:
            out[base + _CODE[text]] += 1.0

    def one(name: str, column: int, row: int = 0, value: float = 1.0) -> None:
        out[LAYOUT.at(name, row, column)] = value

    if view["seat"] is not None:
        one("me", view["seat"])
    cards("hand", view["hand"])
    if view["store"] is not None:
        cards("store", view["store"])
    for s in range(n):
        one("seats", s)
        cards("known_stores", view["known_stores"][s], s)
        cards("towers", view["towers"][s], s)
        cards("nobility", view["nobility"][s], s)
        one("tower_values", s, value=view["tower_values"][s] / view["tower_goal"])
        one("hand_sizes", s, value=view["hand_sizes"][s] / hand)
        one("store_sizes", s, value=view["store_sizes"][s] / deck)
        one("scores", s, value=view["scores"][s] / POINTS)
        one("marks", s, value=view["marks"][s] / 3)
    for shown in view["shown"]:
        cards("shown", shown["cards"], shown["seat"])
    one("deck_size", 0, value=view["deck_size"] / deck)
    one("phase", PHASES.index(view["phase"]))
    if view["current_seat"] is not None and view["current_seat"] >= 0:
        one("to_play", view["current_seat"])
    one("mover", view["mover"])
    one("dealer", view["dealer"])
    trade = view["trade"]
    if trade is not None:
        one("trade", 0)
        if trade["witch"]:
            one("trade", 1)
        one("trade_leader", trade["leader"])
        one("trade_suit", SUITS.index(trade["suit"]))
        for laid in trade["laid"]:
            cards("trade_laid", laid["cards"], laid["seat"])
        for bid in trade["bids"]:
            value = bid["bid"]
            column = 1 if value == 100 else 2 if value < 0 else 0
            one("trade_bids", column, bid["seat"], value / 13 if column == 0 else 1.0)
        for s in trade["queue"]:
            one("trade_queue", s)
        if trade["queue"]:
            one("trade_next", trade["queue"][0])
        for s in trade["failed"]:
            one("trade_failed", s)
    attack = view["attack"]
    if attack is not None:
        one("attack", 0)
        if attack["kind"] == "raid":
            one("attack", 1)
        one("attacker", attack["attacker"])
        one("target", attack["target"])
        cards("attack_card", [attack["card"]])
    one("picks_passes", 0, value=view["picks"] / 4)
    one("picks_passes", 1, value=view["passes"] / 4)
    if view["finished"] is not None:
        one("finished", view["finished"])
    if view["tower_ace"] is not None:
        one("tower_ace", SUITS.index(view["tower_ace"][-1]))
    one("round", 0, value=view["round"] / 100)
    for column, value in enumerate(
        (
            float(rules["teams"]),
            float(rules["own_store_visible"]),
            float(rules["defence"] == "any"),
            rules["tower_goal"] / 100,
            rules["nobility_points"] / 50,
        )
    ):
        one("rules", column, value=value)
    return out
