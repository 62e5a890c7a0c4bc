"""Reading the ratings: a game's leaderboard (the best 100, the asker's own place, the bots'
fixed places) and a person's public profile."""

from __future__ import annotations

from sqlalchemy import func, select

from taverntable.ratings import Skill, beside_bots, display, is_provisional, shipped_bot_ratings

from .accounts import accounts_t, plays_t, ratings_t
from .history import MatchBook
from .protocol.accounts import (
    BesideBots,
    BotLandmark,
    GameRating,
    LadderRow,
    Leaderboard,
    Profile,
    RatingPoint,
)
from .store import Store

TOP = 100
BOT_LEVELS = ("easy", "medium", "hard")
HISTORY_POINTS = 50


def _row(
    place: int, account: str, name: str, mu: float, sigma: float, matches: int, wins: int
) -> LadderRow:
    return LadderRow(
        place=place,
        account=account,
        name=name,
        rating=display(Skill(mu, sigma)),
        provisional=is_provisional(matches),
        matches=matches,
        wins=wins,
    )


async def leaderboard(store: Store, game: str, account_id: str | None) -> Leaderboard:
    """The best ``TOP`` of ``game`` by rating (equal ratings share a place), and the asker's
    own row wherever it stands."""
    columns = (
        ratings_t.c.account_id,
        accounts_t.c.name,
        ratings_t.c.mu,
        ratings_t.c.sigma,
        ratings_t.c.matches,
        ratings_t.c.wins,
    )
    async with store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(*columns)
                .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
                .where(ratings_t.c.game == game, accounts_t.c.deleted.is_(False))
                .order_by(ratings_t.c.mu.desc(), ratings_t.c.account_id)
                .limit(TOP)
            )
        ).all()
        mine = None
        if account_id is not None:
            own = (
                await conn.execute(
                    select(*columns)
                    .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
                    .where(ratings_t.c.game == game, ratings_t.c.account_id == account_id)
                )
            ).first()
            if own is not None:
                above = (
                    await conn.execute(
                        select(func.count())
                        .select_from(ratings_t)
                        .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
                        .where(
                            ratings_t.c.game == game,
                            ratings_t.c.mu > own.mu,
                            accounts_t.c.deleted.is_(False),
                        )
                    )
                ).scalar_one()
                mine = _row(1 + above, *own)
    top: list[LadderRow] = []
    for k, r in enumerate(rows):
        place = k + 1
        if k and r.mu == rows[k - 1].mu:
            place = top[-1].place
        top.append(_row(place, *r))
    bots = [BotLandmark(level=lv, rating=at) for lv, at in bot_places(game).items()]
    return Leaderboard(game=game, top=top, you=mine, bots=bots)


def bot_places(game: str) -> dict[str, int]:
    """Each bot level's displayed rating in ``game`` (the shipped calibration's)."""
    ladder = shipped_bot_ratings()
    return {lv: display(ladder.skill(game, lv)) for lv in BOT_LEVELS}


async def profile(store: Store, book: MatchBook, account_id: str) -> Profile | None:
    """What anyone may see of a person (None: no such account, or deleted)."""
    async with store.engine.connect() as conn:
        account = (
            await conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created).where(
                    accounts_t.c.id == account_id, accounts_t.c.deleted.is_(False)
                )
            )
        ).first()
        if account is None:
            return None
        held = (
            await conn.execute(
                select(ratings_t)
                .where(ratings_t.c.account_id == account_id)
                .order_by(ratings_t.c.game)
            )
        ).all()
        ratings = []
        for r in held:
            points = (
                await conn.execute(
                    select(plays_t.c.started, plays_t.c.rating_before, plays_t.c.rating_after)
                    .where(
                        plays_t.c.account_id == account_id,
                        plays_t.c.game == r.game,
                        plays_t.c.rated.is_(True),
                        plays_t.c.rating_after.is_not(None),
                    )
                    .order_by(plays_t.c.started.desc())
                    .limit(HISTORY_POINTS)
                )
            ).all()
            course = [RatingPoint(at=p.started, rating=p.rating_after) for p in reversed(points)]
            if points and len(points) < HISTORY_POINTS and points[-1].rating_before is not None:
                # The whole course: from where the person started (one match draws a line).
                first = points[-1]
                course.insert(0, RatingPoint(at=first.started, rating=first.rating_before))
            rating = display(Skill(r.mu, r.sigma))
            relation, level = beside_bots(rating, bot_places(r.game))
            ratings.append(
                GameRating(
                    game=r.game,
                    rating=rating,
                    bots=BesideBots(relation=relation, level=level),
                    provisional=is_provisional(r.matches),
                    matches=r.matches,
                    wins=r.wins,
                    history=course,
                )
            )
    played, won = await book.counts(account_id)
    recent, _ = await book.games(account_id, 1, 10, finished_only=True)
    return Profile(
        id=account.id,
        name=account.name,
        created=account.created,
        ratings=ratings,
        played=played,
        won=won,
        recent=recent,
    )
