"""Experiment: the ``drop-model`` study's rows with extra raw features after the 26 (for
``scripts/drop_gbm.py --extra N``). Plays the engine path (not the kernel) so that the features
can be read off each view; the first 26 are the study's own (the kernel gives the same rows).

    python scripts/drop_rows_extra.py --preset tonk --players 3 --games 20000 --out DIR
"""

from __future__ import annotations

import os
import sys

os.environ["TAVERNTABLE_FAST"] = "0"  # the engine path: the extras need the view

from taverntable.bots.tonk import drop_model
from taverntable.cards import indices
from taverntable.cli import main
from taverntable.games.tonk import Discard, Draw, TonkView
from taverntable.lab.studies import drop_model as study

EXTRA = (
    "hand_size",  # cards they hold
    "known_cards",  # of which the seat can name (taken from the pile)
    "last_draw_pile",  # their last draw was from the pile
    "discards",  # how many discards they made
    "disc_low",  # discards worth 1-3
    "disc_mid",  # 4-6
    "disc_high",  # 7-9
    "disc_ten",  # 10 or more
    "relative_seat",  # (seat - deciding seat) mod players: 1 plays next
    "own_cards",  # cards in the deciding seat's hand
    "min_possible",  # their known points + the lowest `unknown` unseen values
    "low_unseen",  # unseen cards worth at most own_total
)


def extra_features(view: TonkView, seat: int) -> list[float]:
    values = view.rules.card_values
    d = view.total()
    unseen = sorted(values[c % 13 + 1] for c in indices(view.unseen))
    known = view.known[seat]
    known_points = sum(values[c % 13 + 1] for c in indices(known))
    unknown = view.hand_sizes[seat] - known.bit_count()
    discards: list[int] = []
    last_pile = 0
    for mover, move in view.history:
        if mover != seat:
            continue
        if isinstance(move, Draw):
            last_pile = int(move.source != "stock")
        elif isinstance(move, Discard):
            discards.append(values[move.card.rank])
    n = view.num_players
    return [
        float(view.hand_sizes[seat]),
        float(known.bit_count()),
        float(last_pile),
        float(len(discards)),
        float(sum(1 for v in discards if v <= 3)),
        float(sum(1 for v in discards if 4 <= v <= 6)),
        float(sum(1 for v in discards if 7 <= v <= 9)),
        float(sum(1 for v in discards if v >= 10)),
        float((seat - view.seat) % n),
        float(view.hand_sizes[view.seat]),
        float(known_points + sum(unseen[:unknown])),
        float(sum(1 for v in unseen if v <= d)),
    ]


def features(view: TonkView, seat: int) -> list[float]:
    return drop_model.opponent_features(view, seat) + extra_features(view, seat)


if __name__ == "__main__":
    setattr(study, "opponent_features", features)  # noqa: B010 (a patch, in this process)
    sys.exit(main(["lab", "run", "drop-model", "--workers", "1", "--quiet", *sys.argv[1:]]))
