"""Accounts, a person's matches, ratings and profiles: the HTTP API's bodies and answers
(``docs/protocol.md``, "Accounts"). Nothing here carries a card: a match's deals are named by
number, and a finished one is read through its record."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from . import Strict, is_null

# A password longer than this is not even hashed (the rule says 128; this bounds the work).
MAX_PASSWORD_FIELD = 1024


class SignUp(Strict):
    """The body of `POST /api/account/signup`."""

    name: str = Field(max_length=200, description="the display name (2 to 32 characters)")
    password: str = Field(
        max_length=MAX_PASSWORD_FIELD, description="the password (8 to 128 characters)"
    )
    seats: dict[str, str] = Field(
        default_factory=dict,
        description="seat tokens this browser keeps (table id to token), besides its seat "
        "cookies: those seats, a guest's, become the account's",
    )


class SignIn(Strict):
    """The body of `POST /api/account/signin`."""

    name: str = Field(max_length=200, description="the display name")
    password: str = Field(max_length=MAX_PASSWORD_FIELD, description="the password")
    seats: dict[str, str] = Field(
        default_factory=dict, description="seat tokens this browser keeps, as for `SignUp`"
    )


class ChangePassword(Strict):
    """The body of `POST /api/account/password`."""

    old: str = Field(max_length=MAX_PASSWORD_FIELD, description="the password now")
    new: str = Field(max_length=MAX_PASSWORD_FIELD, description="the new password")


class DeleteAccount(Strict):
    """The body of `POST /api/account/delete`."""

    password: str = Field(max_length=MAX_PASSWORD_FIELD, description="the password")


class AccountInfo(Strict):
    """The signed-in person (`GET /api/account`, and the answer to signing up or in)."""

    id: str = Field(description="the account's id, as in `/players/ID`")
    name: str = Field(description="the display name")
    created: float = Field(description="when the account was made (epoch seconds)")


class GameSeat(Strict):
    """A seat of a match in a person's history."""

    seat: int = Field(description="its number, from 0")
    name: str = Field(description="who sat there, as the table named them")
    kind: str = Field(description="`person` or `bot`")
    level: str | None = Field(description="a bot seat's level")
    account: str | None = Field(description="a signed-in person's account id (their profile)")
    deleted: bool = Field(description="the person deleted their account since")


class GameEntry(Strict):
    """One match of a person: a table's match, running or finished."""

    table: str = Field(description="the table's id")
    match: int = Field(description="the match's number at the table (a rematch adds one)")
    game: str = Field(description="the game's registry name")
    preset: str = Field(description="the rules' preset")
    rated: bool = Field(description="a rated match")
    started: float = Field(description="when it began (epoch seconds)")
    status: str = Field(description="`playing` or `finished`")
    seat: int = Field(description="the person's seat")
    seats: list[GameSeat] = Field(description="every seat of the table")
    place: int | None = Field(description="the person's place at the end (1: won; shared)")
    total: float | None = Field(description="the person's total of the match")
    rating_before: int | None = Field(description="a rated match: the rating before it")
    rating_after: int | None = Field(description="a rated match: the rating after it")
    provisional: bool | None = Field(description="the rating after it is still provisional")
    deals: list[int] = Field(
        description="the match's finished deals (games), each one to watch again "
        "(`/replay/TABLE/DEAL?seat=SEAT`) or download (`/api/tables/TABLE/records?deal=DEAL`)"
    )


class MyGames(Strict):
    """The answer to `GET /api/account/games?page=N`: a page of the person's matches, newest
    first."""

    items: list[GameEntry] = Field(description="this page's matches")
    page: int = Field(description="the page's number, from 1")
    size: int = Field(description="matches a page holds")
    more: bool = Field(description="an older page follows")


class LadderRow(Strict):
    """A person's place on a game's leaderboard."""

    place: int = Field(description="1 is the best rating; equal ratings share a place")
    account: str = Field(description="the account's id")
    name: str = Field(description="the display name")
    rating: int = Field(description="the rating (1500: the medium bot)")
    provisional: bool = Field(description="fewer than 10 rated matches of the game")
    matches: int = Field(description="rated matches played")
    wins: int = Field(description="rated matches won (first place, shared or not)")


class BotLandmark(Strict):
    """A bot level's fixed place on the ladder (``docs/ratings.md``)."""

    level: str = Field(description="the bot level")
    rating: int = Field(description="its rating in the game")


class Leaderboard(Strict):
    """The answer to `GET /api/ladder/GAME`."""

    game: str = Field(description="the game's registry name")
    top: list[LadderRow] = Field(description="the best 100, best first")
    you: LadderRow | None = Field(
        default=None, exclude_if=is_null, description="the signed-in person's own row, if rated"
    )
    bots: list[BotLandmark] = Field(description="the bot levels' fixed ratings")


class RatingPoint(Strict):
    """A rating after one rated match (a profile's plot)."""

    at: float = Field(description="when the match began (epoch seconds)")
    rating: int = Field(description="the rating after it")


class BesideBots(Strict):
    """Where a rating stands beside the bots' fixed places (``ratings.beside_bots``): "about as
    well as the medium bot" (within 50 points of it), "better than" the best level below it,
    or "below" the lowest."""

    relation: Literal["about", "above", "below"] = Field(description="how it compares")
    level: str = Field(description="with which bot level")


class GameRating(Strict):
    """A person's rating in one game."""

    game: str = Field(description="the game's registry name")
    rating: int = Field(description="the rating")
    bots: BesideBots = Field(description="the rating beside the bot levels' places")
    provisional: bool = Field(description="fewer than 10 rated matches")
    matches: int = Field(description="rated matches")
    wins: int = Field(description="rated matches won")
    history: list[RatingPoint] = Field(
        description="the rating after each of the last 50 rated matches, oldest first; "
        "fewer than 50: the rating before the first one leads (where the person started)"
    )


class Profile(Strict):
    """The answer to `GET /api/players/ID`: what anyone may see of a person."""

    id: str = Field(description="the account's id")
    name: str = Field(description="the display name")
    created: float = Field(description="when the account was made (epoch seconds)")
    ratings: list[GameRating] = Field(description="a rating per game played rated")
    played: int = Field(description="matches finished, rated or not")
    won: int = Field(description="of which won (first place)")
    recent: list[GameEntry] = Field(description="the last 10 finished matches, newest first")
