"""The lab's core: study definitions and configs, running games (inline, on processes or Ray),
the study folder and its lock, per-game seeds, worker processes' life, and statistics."""
