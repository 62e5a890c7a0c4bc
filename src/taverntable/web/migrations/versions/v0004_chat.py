"""The table's chat (issue 26, item 6): one row per message, with its match, deal and the moves
of the deal made by then (its replay's step), its channel (``players`` or ``spectators``), its
writer (a seat, or one spectator's connection) and its free text or quick phrase's key.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("match", sa.Integer, nullable=False),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("after", sa.Integer, nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(128), nullable=True),
        sa.Column("sender", sa.String(32), nullable=False),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    # A table's recent lines (on connecting) and a deal's (its replay).
    op.create_index("ix_chat_table_deal", "chat", ["table_id", "deal", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_table_deal", "chat")
    op.drop_table("chat")
