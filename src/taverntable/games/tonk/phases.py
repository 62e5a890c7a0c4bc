"""The phases of a Tonk turn (T5) and the suit of a set, shared by every layer of the state."""

START = "start"  # the player on turn may drop or draw
PLAY = "play"  # after the draw: spread, hit, discard (or end)
OVER = "over"

SET = -1  # spread_suit of a set; a run stores its suit 0..3
