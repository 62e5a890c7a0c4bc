"""Per-game seeds: each game's seed depends only on the study seed and the game's index.

So a game plays the same whichever worker runs it, in whatever order, and a resumed or a parallel
study gives exactly the rows of an uninterrupted single-core one.
"""

from __future__ import annotations

from hashlib import blake2b


def game_seed(study_seed: int, index: int) -> int:
    """A 64-bit seed for game ``index`` of a study; a hash, so nearby indices are unrelated."""
    digest = blake2b(f"taverntable-lab:{study_seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")
