"""The games: each a package that keeps the contract of ``taverntable.engine``."""
