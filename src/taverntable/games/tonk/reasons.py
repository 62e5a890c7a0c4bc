"""Why the rules refuse a Tonk move: each refusal's stable key and its English template.

``legality.py`` raises ``refuse(rule, key, **params)``; a front end translates the key and fills
in the parameters (cards as T1 texts, several cards separated by spaces; numbers as numbers).
"""

from __future__ import annotations

from taverntable.engine import IllegalMove, refusal

REASONS: dict[str, str] = {
    "tonk.deal_over": "the deal is over",
    "tonk.pile_card_kept": "{card} was taken from the pile this turn; it may only be discarded "
    "as your last card",
    "tonk.decline_after_draw": "you have already drawn this turn; declining the pile ('draw "
    "stock' with the stock empty) is only possible at the start of "
    "your turn",
    "tonk.already_drawn": "you have already drawn this turn",
    "tonk.stock_empty": "the stock is empty (T11: the deal ends after the turn that drew its "
    "last card)",
    "tonk.pile_empty": "the pile is empty: draw from the stock",
    "tonk.drop_after_draw": "a drop is only allowed at the start of your turn, before drawing",
    "tonk.drop_hit_lock": "one of your spreads was hit since your last turn, so you may not drop "
    "this turn (hit lock)",
    "tonk.not_a_spread": "{cards} is neither a set (3 or 4 of a rank) nor a run (3+ in sequence "
    "in one suit)",
    "tonk.no_such_spread": "there is no spread {spread} on the table ({count} spreads)",
    "tonk.end_must_discard": "you must discard a card to end your turn",
    "tonk.end_needs_spread": "you may end without discarding only after laying a new spread "
    "this turn",
    "tonk.not_a_move": "{move} is not a Tonk move",
    "tonk.draw_first.discard": "draw first: you may discard only after drawing",
    "tonk.draw_first.spread": "draw first: you may spread only after drawing",
    "tonk.draw_first.hit": "draw first: you may hit only after drawing",
    "tonk.draw_first.end": "draw first: you may end the turn only after drawing",
    "tonk.not_in_hand.one": "{cards} is not in your hand",
    "tonk.not_in_hand.many": "{cards} are not in your hand",
    "tonk.hit_sets_off": "these rules allow hits on runs only (hit_sets is off)",
    "tonk.set_full": "spread {spread} already holds all four cards of its rank",
    "tonk.set_fourth_only": "spread {spread} is a set; only its fourth card {fourth} can hit it",
    "tonk.hit_not_run": "{cards} does not extend spread {spread} ({spread_cards}) into one "
    "unbroken run",
}


def refuse(rule: str, key: str, **params: str | int) -> IllegalMove:
    """The refusal ``key`` (a key of ``REASONS``) under ``rule``."""
    return refusal(REASONS, rule, key, **params)
