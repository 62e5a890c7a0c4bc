"""Alembic migrations of the server's database (``store.py``), run by the server at start-up."""
