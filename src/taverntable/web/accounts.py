"""The server's accounts: people who signed up, and the browsers signed in as them.

An account is a display name (unique in its folded form, ``credentials.name_key``) and an
argon2id hash of its password. A session is a random token in an HttpOnly cookie, stored as its
SHA-256 digest in the database, so that a person signed in on one server process is signed in on
every one (``--redis``: they share one PostgreSQL). Deleting an account keeps its matches in the
other players' histories, its seats marked as a deleted player's, and its tables' records
replayable; its name is free again.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    delete,
    false,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .credentials import (
    Refusal,
    check_name,
    check_password,
    decoy_hash,
    hash_password,
    name_key,
    verify_password,
)
from .store import Store, digest, metadata, seats_t, tables_t

# A session lasts this long from signing in.
SESSION_SECONDS = 30 * 24 * 3600
# What the seats of a deleted account are called (the page translates it: ``deleted``).
DELETED_NAME = "deleted player"

accounts_t = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(128), nullable=True, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created", Float, nullable=False),
    Column("deleted", Boolean, nullable=False, server_default=false()),
)

sessions_t = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

# One row per person and match (a table's match): "My games", newest first (migration 0003).
plays_t = Table(
    "plays",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("game", String(32), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("started", Float, nullable=False),
    Column("status", String(16), nullable=False),  # playing, finished
    Column("place", Integer, nullable=True),
    Column("total", Float, nullable=True),
    Column("rating_before", Integer, nullable=True),
    Column("rating_after", Integer, nullable=True),
    Column("provisional", Boolean, nullable=True),
)

ratings_t = Table(
    "ratings",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)


@dataclass(frozen=True)
class Account:
    """What the server knows of a person (never their hash)."""

    id: str
    name: str
    created: float


class Accounts:
    """Accounts and sessions, in the server's database (``store.Store``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def sign_up(self, name: str, password: str) -> Account:
        """A new account; Refusal for a name or password it cannot have (``name-taken`` for a
        look-alike of a name in use)."""
        name = check_name(name)
        check_password(password, name)
        hashed = await asyncio.to_thread(hash_password, password)
        account = Account(secrets.token_urlsafe(12), name, time.time())
        try:
            async with self.store.write() as conn:
                await conn.execute(
                    accounts_t.insert().values(
                        id=account.id,
                        name=name,
                        name_key=name_key(name),
                        password_hash=hashed,
                        created=account.created,
                        deleted=False,
                    )
                )
        except IntegrityError:
            raise Refusal("name-taken", "this name, or one that looks like it, is taken") from None
        return account

    async def sign_in(self, name: str, password: str) -> Account | None:
        """The account of ``name`` if ``password`` is its own; None otherwise, after the same
        work for an unknown name as for a wrong password."""
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(accounts_t).where(
                        accounts_t.c.name_key == name_key(" ".join(name.split()))
                    )
                )
            ).first()
        stored = decoy_hash() if row is None else row.password_hash
        good = await asyncio.to_thread(verify_password, stored, password)
        if row is None or not good:
            return None
        return Account(row.id, row.name, row.created)

    async def new_session(self, account_id: str) -> str:
        """A session token for a browser signed in as ``account_id``."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        async with self.store.write() as conn:
            await conn.execute(
                sessions_t.insert().values(
                    token_hash=digest(token),
                    account_id=account_id,
                    created=now,
                    expires=now + SESSION_SECONDS,
                )
            )
        return token

    async def session(self, token: str | None) -> Account | None:
        """The account a session token is signed in as (None: no session, or it ran out)."""
        if not token or len(token) > 200:
            return None
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created)
                    .join(sessions_t, sessions_t.c.account_id == accounts_t.c.id)
                    .where(
                        sessions_t.c.token_hash == digest(token),
                        sessions_t.c.expires > time.time(),
                        accounts_t.c.deleted.is_(False),
                    )
                )
            ).first()
        return None if row is None else Account(row.id, row.name, row.created)

    async def end_session(self, token: str) -> None:
        async with self.store.write() as conn:
            await conn.execute(delete(sessions_t).where(sessions_t.c.token_hash == digest(token)))

    async def change_password(
        self, account: Account, old: str, new: str, keep_session: str | None
    ) -> bool:
        """A new password (False: ``old`` is not the password); every other session of the
        account is signed out."""
        check_password(new, account.name)
        async with self.store.engine.connect() as conn:
            stored = (
                await conn.execute(
                    select(accounts_t.c.password_hash).where(accounts_t.c.id == account.id)
                )
            ).scalar_one()
        if not await asyncio.to_thread(verify_password, stored, old):
            return False
        hashed = await asyncio.to_thread(hash_password, new)
        async with self.store.write() as conn:
            await conn.execute(
                update(accounts_t).where(accounts_t.c.id == account.id).values(password_hash=hashed)
            )
            others = delete(sessions_t).where(sessions_t.c.account_id == account.id)
            if keep_session:
                others = others.where(sessions_t.c.token_hash != digest(keep_session))
            await conn.execute(others)
        return True

    async def delete(self, account: Account, password: str) -> bool:
        """Delete the account (False: wrong password): its sessions, its ratings and its own
        list of matches go; its seats stay, named as a deleted player's, so that the other
        players' histories and the tables' records are whole."""
        async with self.store.engine.connect() as conn:
            stored = (
                await conn.execute(
                    select(accounts_t.c.password_hash).where(accounts_t.c.id == account.id)
                )
            ).scalar_one()
        if not await asyncio.to_thread(verify_password, stored, password):
            return False
        async with self.store.write() as conn:
            await conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account.id))
            await conn.execute(delete(ratings_t).where(ratings_t.c.account_id == account.id))
            await conn.execute(delete(plays_t).where(plays_t.c.account_id == account.id))
            await conn.execute(
                update(seats_t).where(seats_t.c.account_id == account.id).values(name=DELETED_NAME)
            )
            await conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account.id)
                .values(name=DELETED_NAME, name_key=None, password_hash="", deleted=True)
            )
        return True

    async def names(self, account_ids: Iterable[str]) -> dict[str, str | None]:
        """Each account's display name (None: deleted)."""
        ids = sorted(set(account_ids))
        if not ids:
            return {}
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.deleted).where(
                    accounts_t.c.id.in_(ids)
                )
            )
            return {r.id: None if r.deleted else r.name for r in rows}

    async def link_seats(
        self, account_id: str, seat_tokens: Sequence[tuple[str, str]]
    ) -> list[tuple[str, int]]:
        """A guest's seats (table id, seat token) become the account's, where they are nobody
        else's; returns the (table id, seat) linked."""
        linked: list[tuple[str, int]] = []
        if not seat_tokens:
            return linked
        async with self.store.write() as conn:
            for table_id, token in seat_tokens[:200]:
                row = (
                    await conn.execute(
                        select(seats_t.c.seat).where(
                            seats_t.c.table_id == table_id,
                            seats_t.c.token_hash == digest(token),
                            seats_t.c.account_id.is_(None),
                        )
                    )
                ).first()
                if row is None:
                    continue
                await conn.execute(
                    update(seats_t)
                    .where(seats_t.c.table_id == table_id, seats_t.c.seat == row.seat)
                    .values(account_id=account_id)
                )
                linked.append((table_id, row.seat))
        return linked


async def table_exists(store: Store, table_id: str) -> bool:
    async with store.engine.connect() as conn:
        found = await conn.execute(select(tables_t.c.id).where(tables_t.c.id == table_id))
        return found.first() is not None
