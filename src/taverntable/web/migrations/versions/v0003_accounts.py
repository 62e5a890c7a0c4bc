"""Accounts (issue 25): people who sign up, their sessions, their matches and their ratings.

- ``accounts``: a display name (``name_key``: its folded form, unique, so that look-alikes of a
  name cannot sign up; null once the account is deleted) and an argon2id hash;
- ``sessions``: a signed-in browser's token, kept as a SHA-256 digest, in the database so that
  every server process knows it;
- ``plays``: one row per person and match (a table's match), newest first by ``started`` for
  "My games";
- ``ratings``: a person's skill per game (openskill's mu and sigma);
- ``seats.account_id``: the account that sits at a seat.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "plays",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer, nullable=True),
        sa.Column("total", sa.Float, nullable=True),
        sa.Column("rating_before", sa.Integer, nullable=True),
        sa.Column("rating_after", sa.Integer, nullable=True),
        sa.Column("provisional", sa.Boolean, nullable=True),
    )
    # My games: a person's matches newest first, a page at a time (an index, not a scan).
    op.create_index("ix_plays_account_started", "plays", ["account_id", "started", "table_id"])
    op.create_index("ix_plays_table_match", "plays", ["table_id", "match"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    # The leaderboard: a game's ratings, best first.
    op.create_index("ix_ratings_game_mu", "ratings", ["game", "mu"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index("ix_seats_account", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_account", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    op.drop_table("ratings")
    op.drop_table("plays")
    op.drop_table("sessions")
    op.drop_table("accounts")
