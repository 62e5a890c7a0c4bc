"""The Three Towers search's scale of rewards and the worth of finished towers, apart from
``search`` so that the kernel's world dealer (``fast.worlds``) reads them without importing
the search that imports it."""

from __future__ import annotations

# Points per unit of reward: rewards are point margins over this, about [-1, 1] for a round.
SCORE_SCALE = 200.0
# The later worth of finished towers, in points, for two players: the mean margin the seat with
# these marks (own, other's) made from the next round on in 1,500 heuristic games (±22 each).
# The third mark ends the game with its +150 (R14), so a mark is worth more near the end.
MARK_VALUE = {(0, 0): 0.0, (1, 0): 50.0, (2, 0): 97.0, (1, 1): 0.0, (2, 1): 69.0, (2, 2): 0.0}
# With more players (or teams) a mark over the table's mean is worth about this much.
MARK_POINTS = 50.0
