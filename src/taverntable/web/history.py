"""The matches of signed-in people and their ratings: what a table tells the server's book when
a match starts, when a person sits down and when a match ends.

One ``plays`` row per person and match, written when the match starts (or when its person signs
up or sits down later) and completed at its end: place, total, and for a rated match the rating
before and after. A rated match's ratings are computed from its final standings with
``taverntable.ratings`` (openskill, the bots as fixed landmarks: ``ratings/bots.py``) in the same
transaction that completes the rows, which finds them still ``playing``: a match is rated once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, bindparam, case, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from taverntable.games import get_game
from taverntable.match import deal_points
from taverntable.ratings import (
    Entrant,
    Skill,
    bot_rating,
    display,
    is_provisional,
    new_player,
    places,
    rate_match,
)

from .accounts import accounts_t, plays_t, ratings_t
from .protocol.accounts import GameEntry, GameSeat
from .protocol.summary import Standing
from .store import Store, deals_t, seats_t

if TYPE_CHECKING:
    from .tables import Table

PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


@dataclass(frozen=True)
class RatingChange:
    before: int
    after: int
    provisional: bool


def standings(table: Table) -> list[Standing]:
    """Every seat's place by its match total, best first, with what the match did to ratings."""
    totals = table.balances()
    out = []
    for seat, (place, total) in enumerate(zip(places(totals), totals, strict=True)):
        change = table.rating_changes.get(seat)
        out.append(
            Standing(
                seat=seat,
                place=place,
                total=total,
                rating_before=None if change is None else change.before,
                rating_after=None if change is None else change.after,
                provisional=None if change is None else change.provisional,
            )
        )
    return sorted(out, key=lambda s: (s.place, s.seat))


def teams_of(table: Table) -> list[int | None]:
    """Each seat's team for the rating (Three Towers' pairs, R15: seats 0+2 against 1+3)."""
    pairs = bool(table.rules.options().get("teams")) and len(table.seats) == 4
    return [seat % 2 if pairs else None for seat in range(len(table.seats))]


class MatchBook:
    """What a table writes of its signed-in people's matches (``Table.book``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def match_started(self, table: Table) -> None:
        rows = [
            self._row(table, s.seat, s.account_id, time.time())
            for s in table.seats
            if s.account_id is not None
        ]
        if rows:
            async with self.store.write() as conn:
                await _insert_new(conn, rows)

    async def seat_taken(self, table: Table, seat: int, account_id: str) -> None:
        """A signed-in person sat down at a match already under way."""
        if table.status == "playing":
            async with self.store.write() as conn:
                await _insert_new(conn, [self._row(table, seat, account_id, time.time())])

    def _row(self, table: Table, seat: int, account_id: str, started: float) -> dict[str, object]:
        return {
            "account_id": account_id,
            "table_id": table.id,
            "match": table.match,
            "seat": seat,
            "game": table.game.name,
            "preset": table.rules.preset,
            "rated": table.settings.rated,
            "started": started,
            "status": "playing",
        }

    async def linked(self, account_id: str, table_id: str, seat: int) -> None:
        """A guest's seat became an account's (signing up or in): the table's matches so far
        join the account's history, each finished one with its place and total (unrated:
        ratings count only the matches a person played signed in)."""
        stored = await self.store.load(table_id)
        if stored is None:
            return
        game = stored.game
        try:
            preset = get_game(game).rules(stored.options).preset
        except Exception:  # a table whose rules no longer load: its game's name will do
            preset = game
        stake = int(stored.settings.get("stake", 1))
        rows = []
        for match in sorted({d.match for d in stored.deals}):
            deals = [d for d in stored.deals if d.match == match]
            over = match < stored.match or stored.status == "finished"
            row: dict[str, object] = {
                "account_id": account_id,
                "table_id": table_id,
                "match": match,
                "seat": seat,
                "game": game,
                "preset": preset,
                "rated": False,
                "started": stored.created + match * 1e-3,
                "status": "finished" if over else "playing",
            }
            if over:
                totals = [0.0] * len(stored.seats)
                for d in deals:
                    if d.finished:
                        for s, p in enumerate(deal_points(d.returns or (), stake)):
                            totals[s] += p
                row["place"] = places(totals)[seat]
                row["total"] = totals[seat]
            rows.append(row)
        if rows:
            async with self.store.write() as conn:
                await _insert_new(conn, rows)

    async def match_finished(
        self, table: Table, match: int, totals: Sequence[float]
    ) -> dict[int, RatingChange]:
        """Match ``match`` of the table ended with these ``totals``: its people's rows are
        completed and, if it is rated, their ratings updated, in one transaction. The table
        calls this once it has told everyone the match is over (the ratings follow a moment
        later: they add nothing to the end of a match, ``scripts/bench_history.py``); a server
        stopped in between rates the match when it starts again (``Hub.booked``). Returns each
        rated seat's change (bots too: their fixed rating, before and after)."""
        placed = places(totals)
        game = table.game.name
        changes: dict[int, RatingChange] = {}
        async with self.store.write() as conn:
            # Each person's row and, in the same read, their rating in the game.
            rows = (
                await conn.execute(
                    select(
                        plays_t.c.account_id,
                        plays_t.c.seat,
                        ratings_t.c.mu,
                        ratings_t.c.sigma,
                        ratings_t.c.matches,
                        ratings_t.c.wins,
                    )
                    .outerjoin(
                        ratings_t,
                        and_(
                            ratings_t.c.account_id == plays_t.c.account_id,
                            ratings_t.c.game == game,
                        ),
                    )
                    .where(
                        plays_t.c.table_id == table.id,
                        plays_t.c.match == match,
                        plays_t.c.status == "playing",
                    )
                )
            ).all()
            if not rows:  # none signed in, or rated already
                return changes
            people = {r.seat: r for r in rows}
            if table.settings.rated:
                changes = await self._rate(conn, table, game, placed, people)
            await conn.execute(
                update(plays_t)
                .where(
                    plays_t.c.account_id == bindparam("who"),
                    plays_t.c.table_id == table.id,
                    plays_t.c.match == match,
                )
                .values(
                    status="finished",
                    place=bindparam("place"),
                    total=bindparam("total"),
                    rating_before=bindparam("before"),
                    rating_after=bindparam("after"),
                    provisional=bindparam("provisional"),
                ),
                [
                    {
                        "who": row.account_id,
                        "place": placed[seat],
                        "total": totals[seat],
                        "before": None if seat not in changes else changes[seat].before,
                        "after": None if seat not in changes else changes[seat].after,
                        "provisional": None if seat not in changes else changes[seat].provisional,
                    }
                    for seat, row in people.items()
                ],
            )
        return changes

    async def _rate(
        self,
        conn: AsyncConnection,
        table: Table,
        game: str,
        placed: Sequence[int],
        people: dict[int, Any],
    ) -> dict[int, RatingChange]:
        teams = teams_of(table)
        entrants = []
        for seat, info in enumerate(table.seats):
            row = people.get(seat)
            if info.is_bot:
                skill, fixed = bot_rating(game, info.level or "medium"), True
            elif row is not None and row.mu is not None:
                skill, fixed = Skill(row.mu, row.sigma), False
            else:  # a newcomer to the game (or a seat nobody signed in holds: not rated)
                skill, fixed = new_player(), False
            entrants.append(Entrant(skill, placed[seat], fixed=fixed, team=teams[seat]))
        after = rate_match(entrants)
        now = time.time()
        changes: dict[int, RatingChange] = {}
        inserts: list[dict[str, Any]] = []
        updates: list[dict[str, Any]] = []
        for seat, info in enumerate(table.seats):
            if info.is_bot:
                fixed_rating = display(entrants[seat].skill)
                changes[seat] = RatingChange(fixed_rating, fixed_rating, False)
                continue
            row = people.get(seat)
            if row is None:
                continue
            had = row.mu is not None
            matches = (row.matches if had else 0) + 1
            wins = (row.wins if had else 0) + (1 if placed[seat] == 1 else 0)
            values = {
                "who": row.account_id,
                "mu": after[seat].mu,
                "sigma": after[seat].sigma,
                "matches": matches,
                "wins": wins,
                "updated": now,
            }
            (updates if had else inserts).append(values)
            changes[seat] = RatingChange(
                display(entrants[seat].skill), display(after[seat]), is_provisional(matches)
            )
        if inserts:
            await conn.execute(
                ratings_t.insert().values(
                    account_id=bindparam("who"),
                    game=game,
                    mu=bindparam("mu"),
                    sigma=bindparam("sigma"),
                    matches=bindparam("matches"),
                    wins=bindparam("wins"),
                    updated=bindparam("updated"),
                ),
                inserts,
            )
        if updates:
            await conn.execute(
                update(ratings_t)
                .where(ratings_t.c.account_id == bindparam("who"), ratings_t.c.game == game)
                .values(
                    mu=bindparam("mu"),
                    sigma=bindparam("sigma"),
                    matches=bindparam("matches"),
                    wins=bindparam("wins"),
                    updated=bindparam("updated"),
                ),
                updates,
            )
        return changes

    async def changes(self, table: Table) -> dict[int, RatingChange]:
        """A finished match's rating changes as stored (a table restored after a restart)."""
        if not table.settings.rated:
            return {}
        async with self.store.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(
                        plays_t.c.seat,
                        plays_t.c.rating_before,
                        plays_t.c.rating_after,
                        plays_t.c.provisional,
                    ).where(
                        plays_t.c.table_id == table.id,
                        plays_t.c.match == table.match,
                        plays_t.c.status == "finished",
                    )
                )
            ).all()
        out = {
            r.seat: RatingChange(r.rating_before, r.rating_after, bool(r.provisional))
            for r in rows
            if r.rating_before is not None and r.rating_after is not None
        }
        for info in table.seats:
            if info.is_bot and out:
                fixed = display(bot_rating(table.game.name, info.level or "medium"))
                out[info.seat] = RatingChange(fixed, fixed, False)
        return out

    async def unfinished(self) -> set[tuple[str, int]]:
        """The (table, match) pairs whose people's rows still say ``playing``."""
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(
                select(plays_t.c.table_id, plays_t.c.match)
                .where(plays_t.c.status == "playing")
                .distinct()
            )
            return {(r.table_id, r.match) for r in rows}

    # --- reading --------------------------------------------------------------------------

    async def games(
        self, account_id: str, page: int, size: int = PAGE_SIZE, finished_only: bool = False
    ) -> tuple[list[GameEntry], bool]:
        """A page of the person's matches, newest first, and whether an older page follows."""
        query = select(plays_t).where(plays_t.c.account_id == account_id)
        if finished_only:
            query = query.where(plays_t.c.status == "finished")
        query = (
            query.order_by(plays_t.c.started.desc(), plays_t.c.table_id.desc())
            .limit(size + 1)
            .offset((page - 1) * size)
        )
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            more = len(rows) > size
            rows = rows[:size]
            ids = sorted({r.table_id for r in rows})
            if not ids:
                return [], False
            seat_rows = (
                await conn.execute(
                    select(seats_t, accounts_t.c.deleted)
                    .outerjoin(accounts_t, accounts_t.c.id == seats_t.c.account_id)
                    .where(seats_t.c.table_id.in_(ids))
                    .order_by(seats_t.c.table_id, seats_t.c.seat)
                )
            ).all()
            deal_rows = (
                await conn.execute(
                    select(deals_t.c.table_id, deals_t.c.match, deals_t.c.number)
                    .where(deals_t.c.table_id.in_(ids), deals_t.c.finished.is_(True))
                    .order_by(deals_t.c.table_id, deals_t.c.number)
                )
            ).all()
        seats: dict[str, list[GameSeat]] = {}
        for s in seat_rows:
            deleted = bool(s.deleted)
            seats.setdefault(s.table_id, []).append(
                GameSeat(
                    seat=s.seat,
                    name=s.name
                    or (
                        f"Bot {s.seat + 1} ({s.level})" if s.kind == "bot" else f"Seat {s.seat + 1}"
                    ),
                    kind=s.kind,
                    level=s.level,
                    account=None if deleted else s.account_id,
                    deleted=deleted,
                )
            )
        deals: dict[tuple[str, int], list[int]] = {}
        for d in deal_rows:
            deals.setdefault((d.table_id, d.match), []).append(d.number)
        items = [
            GameEntry(
                table=r.table_id,
                match=r.match,
                game=r.game,
                preset=r.preset,
                rated=bool(r.rated),
                started=r.started,
                status=r.status,
                seat=r.seat,
                seats=seats.get(r.table_id, []),
                place=r.place,
                total=r.total,
                rating_before=r.rating_before,
                rating_after=r.rating_after,
                provisional=r.provisional,
                deals=deals.get((r.table_id, r.match), []),
            )
            for r in rows
        ]
        return items, more

    async def counts(self, account_id: str) -> tuple[int, int]:
        """(matches finished, matches won)."""
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(
                        func.count(),
                        func.coalesce(func.sum(case((plays_t.c.place == 1, 1), else_=0)), 0),
                    ).where(plays_t.c.account_id == account_id, plays_t.c.status == "finished")
                )
            ).one()
        return int(row[0]), int(row[1])


async def _insert_new(conn: AsyncConnection, rows: Sequence[dict[str, object]]) -> None:
    """Insert the rows not there yet (a person's match is written once)."""
    for row in rows:
        found = (
            await conn.execute(
                select(plays_t.c.status).where(
                    plays_t.c.account_id == row["account_id"],
                    plays_t.c.table_id == row["table_id"],
                    plays_t.c.match == row["match"],
                )
            )
        ).first()
        if found is None:
            await conn.execute(plays_t.insert().values(**row))
