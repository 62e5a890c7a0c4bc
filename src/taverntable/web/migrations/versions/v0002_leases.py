"""Leases: which server process owns each table (issue 12, several processes).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    # The first schema marked its version here; Alembic's own table does that now.
    op.execute("DROP TABLE IF EXISTS tavern_meta")


def downgrade() -> None:
    op.drop_table("leases")
