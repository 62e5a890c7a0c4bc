"""Why the rules refuse a Three Towers move: each refusal's stable key and its English template.

``legality.py`` and ``chance.py`` raise ``refuse(rule, key, **params)``; a front end translates
the key and fills in the parameters: ``card``/``cards``/``missing``/``extra``/``attacker`` are
cards in the T1 notation (the joker ``X``; several separated by spaces), ``move``/``example``
moves in the notation, ``suit`` a suit letter (S H D C), ``kind`` one of ``CARD_KINDS``, the
rest numbers (seats from 0, counts).
"""

from __future__ import annotations

from taverntable.engine import IllegalMove, refusal

# The classes of cards a reason may name (``card_class``), as the parameter ``kind``.
CARD_KINDS = (
    "joker",
    "goods",
    "penalty",
    "warrior",
    "tower ace",
    "dark tower",
    "Thief",
    "Witch",
    "Warlock",
)

# What the seat that decides now must do, by phase: "MOVE is not possible now: " + this.
NOT_NOW = "{move} is not possible now: "

REASONS: dict[str, str] = {
    "towers.game_over": "the game is over",
    "towers.not_now.turn": NOT_NOW + "it is seat {seat}'s turn to act (trade, build, add, raid, "
    "curse, redeal or pass)",
    "towers.not_now.answer": NOT_NOW + "seat {seat} must answer the trade ('answer …' or 'fail')",
    "towers.not_now.defend": NOT_NOW + "seat {seat} must defend against the attack or 'yield'",
    "towers.not_now.name": NOT_NOW + "seat {seat} must name who takes the Witch's trade "
    "('name SEAT')",
    "towers.not_now.queens": NOT_NOW + "seat {seat} is choosing cards for their store "
    "('store CARD' or 'done')",
    "towers.not_now.kings": NOT_NOW + "seat {seat} must give every card of their hand to a store "
    "('give CARD SEAT')",
    "towers.not_now.club": NOT_NOW + "seat {seat} is taking cards from opponents' stores "
    "('take SEAT CARD' or 'done')",
    "towers.not_now.dark": NOT_NOW + "seat {seat} is giving cards from their store "
    "('give CARD SEAT' or 'done')",
    "towers.not_legal": "{move} is not legal now",
    "towers.not_in_hand": "{card} is not in your hand",
    "towers.hold_only": "you hold only {count} {card}",
    "towers.no_seat": "there is no seat {seat} ({players} players)",
    "towers.not_self.raid": "you may not raid yourself",
    "towers.not_self.curse": "you may not curse yourself",
    "towers.not_self.redeal": "you may not give your hand to yourself",
    "towers.not_partner.raid": "you may not raid your partner (R15)",
    "towers.not_partner.curse": "you may not curse your partner (R15)",
    "towers.not_partner.redeal": "you may not give your hand to your partner (R15)",
    "towers.trade_lead": "a trade is led with goods (2–10 of ♥♦♣) or a penalty card (2–10 of ♠), "
    "not a {kind} ({card})",
    "towers.no_joker": "you hold no joker",
    "towers.tower_started": "you already have a tower under construction (continue it with 'add')",
    "towers.build_ace": "a tower starts with an ace, not {card}",
    "towers.build_goods": "only one goods card (2–10 of ♥♦♣) may go on the ace, not {card}",
    "towers.no_tower": "you have no tower under construction (start one with 'build')",
    "towers.add_card": "a tower takes goods (2–10 of ♥♦♣) or a ♥♦♣ ace as a reinforcement, "
    "not {card}",
    "towers.raid_no_tower": "seat {seat} has no tower under construction to raid",
    "towers.raid_card": "a raid is made with a warrior (J Q K of ♥♦♣), not {card}",
    "towers.curse_card": "a curse is made with a Thief, Witch or Warlock (J Q K of ♠), not {card}",
    "towers.redeal_warriors": "your nobility does not hold those 4 warriors",
    "towers.redeal_jacks": "your nobility does not hold 4 jacks",
    "towers.pass": "you may pass only when nothing else is legal (you could '{example}')",
    "towers.joker_witch": "a joker in a Witch's trade is laid without take or give: 'answer X'",
    "towers.joker_take_give": "a joker answer announces take or give: 'answer X take' or "
    "'answer X give'",
    "towers.fail": "you can answer the trade (e.g. '{example}'), so you may not fail",
    "towers.name_self": "you may not name yourself: name another player",
    "towers.give_no_seat": "there is no seat {seat}",
    "towers.give_other": "give to another player's store, not seat {seat}",
    "towers.store_lacks": "your store holds no {card}",
    "towers.take_opponent": "take from an opponent's store, not seat {seat}'s",
    "towers.their_store_lacks": "seat {seat}'s store holds no {card}",
    "towers.answer_count": "answer with one card of the led suit, a joker, or two non-spade cards",
    "towers.answer_spade": "in a spade trade a single answer is a penalty card (2–10 of ♠), not "
    "{card}; or lay two non-spade cards",
    "towers.answer_suit": "a single answer is goods of the led suit ({suit}), not {card}; or lay "
    "two non-spade, non-joker cards",
    "towers.answer_pair": "two cards laid together must be non-spade and non-joker, not {card}",
    "towers.give_any": "{card} may be given only without an answer of the led suit or a joker",
    "towers.defend_card": "defend with a warrior (J Q K of ♥♦♣) or a joker, not {card}",
    "towers.defend_rank": "{card} is lower than {attacker}: repel with a warrior of equal or "
    "higher rank (defence rule 'rank') or a joker",
    # Chance steps (seat -1): a record's deal, shuffle or steal that the rules do not allow.
    "towers.chance.deal.missing": "a round's deck must hold exactly its cards (missing {missing})",
    "towers.chance.deal.extra": "a round's deck must hold exactly its cards (extra {extra})",
    "towers.chance.deal.both": "a round's deck must hold exactly its cards (missing {missing}; "
    "extra {extra})",
    "towers.chance.shuffle.missing": "the shuffled deck must hold exactly its cards (missing "
    "{missing})",
    "towers.chance.shuffle.extra": "the shuffled deck must hold exactly its cards (extra {extra})",
    "towers.chance.shuffle.both": "the shuffled deck must hold exactly its cards (missing "
    "{missing}; extra {extra})",
    "towers.chance.steal_count": "the Thief steals {need} cards from seat {seat}'s store, not "
    "{count}",
    "towers.chance.steal_cards": "seat {seat}'s store does not hold {cards}",
    "towers.chance.expected": "the next step is chance: '{verb} …' (seat -1), not {move}",
}


def refuse(rule: str, key: str, **params: str | int) -> IllegalMove:
    """The refusal ``key`` (a key of ``REASONS``) under ``rule``."""
    return refusal(REASONS, rule, key, **params)
