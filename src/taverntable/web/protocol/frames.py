"""The WebSocket's frames (``docs/protocol.md``, "The WebSocket"): each a JSON object whose
``type`` names it.

Every frame a client sends is validated here (``CLIENT_MESSAGE``) before the server acts on it;
anything else is answered with an ``error`` frame. Every frame the server sends is built as one of
the models below and encoded once (``encode``), however many connections of a seat receive it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Sequence
from typing import Annotated, Any, Literal, get_args

import orjson
from pydantic import BaseModel, Field, TypeAdapter, field_validator, model_validator
from pydantic_core import PydanticCustomError

from . import PROTOCOL_VERSION, FromClient, Strict, is_null
from .review import HintMessage
from .summary import TableSummary, Turn

MAX_FRAME = 4096  # bytes in one client message: a move is a few dozen
MAX_MOVE = 200  # characters in a move's text
MAX_CHAT = 200  # characters in a chat message's text

# The quick phrases of the table's chat: a client sends the key, every reader sees it in their
# own language (the page's ``chat.phrase.KEY``).
Phrase = Literal[
    "hello",
    "good-luck",
    "your-turn",
    "well-played",
    "nice-move",
    "oops",
    "thanks",
    "good-game",
    "rematch",
]
PHRASES: tuple[Phrase, ...] = get_args(Phrase)  # the keys, in the page's order
# Who reads a channel: a seat's players write into ``players`` (which everyone at the table
# reads), spectators into ``spectators`` (which only spectators read, so that no one watching
# can coach a player).
Channel = Literal["players", "spectators"]


# --- client to server -------------------------------------------------------------------------


class MoveMessage(FromClient):
    """A move for the client's seat."""

    type: Literal["move"] = Field(description="the frame's kind")
    move: str = Field(
        max_length=MAX_MOVE,
        description="the move in the record notation (`docs/record-format.md`)",
    )
    version: int | None = Field(
        default=None,
        description="the `version` of the update the move was chosen on: a move on a view the "
        "table has left is refused as `stale`",
    )


class PingMessage(FromClient):
    """Keeps the connection alive; answered with `pong`."""

    type: Literal["ping"] = Field(description="the frame's kind")


class WhyMessage(FromClient):
    """Why a move is not allowed now, without playing it: answered with `because`. A page asks
    it with the move its selected cards come closest to (`defend JS` for J♠ against a raid) when
    no legal move uses exactly them; the engine's own refusal comes back."""

    type: Literal["why"] = Field(description="the frame's kind")
    move: str = Field(max_length=MAX_MOVE, description="the move to check, in the record notation")
    version: int | None = Field(
        default=None, description="the `version` of the update the move was chosen on"
    )


def chat_text(text: str) -> str:
    """A chat message's text as it is stored and sent: control and formatting characters
    (C0, C1, DEL, bidirectional overrides, zero-width) removed, a line break or tab made a
    space, spaces at the ends trimmed. It stays text: a reader shows it as text, never as HTML."""
    out = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in "\t\n\r\v\f\u2028\u2029":
            out.append(" ")
        elif category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        else:
            out.append(ch)
    return "".join(out).strip()


class SayMessage(FromClient):
    """A chat message from the client: a free `text` or a quick `phrase` (exactly one), into
    its `channel`. Refused with `chat-*` codes: `chat-channel` (a spectator writing into the
    players' channel, or a player into the spectators'), `chat-empty`, `chat-too-long`,
    `chat-phrase` (no such quick phrase), `chat-both` (text and phrase, or neither),
    `chat-rate-limit` (more than 5 messages in 10 s from one person)."""

    type: Literal["say"] = Field(description="the frame's kind")
    channel: Channel | None = Field(
        default=None,
        description="the channel written into; null: the sender's own (a seat's `players`, a "
        "spectator's `spectators`)",
    )
    text: str | None = Field(
        default=None,
        description=f"free text, at most {MAX_CHAT} characters once control characters are "
        "removed (line breaks become spaces); shown as text, never as HTML",
    )
    phrase: str | None = Field(
        default=None, description="a quick phrase's key: " + ", ".join(f"`{p}`" for p in PHRASES)
    )

    @field_validator("text")
    @classmethod
    def _clean(cls, text: str | None) -> str | None:
        if text is None:
            return None
        if len(text) > 4 * MAX_CHAT:
            raise PydanticCustomError("chat-too-long", "a chat message has at most 200 characters")
        cleaned = chat_text(text)
        if len(cleaned) > MAX_CHAT:
            raise PydanticCustomError("chat-too-long", "a chat message has at most 200 characters")
        if not cleaned:
            raise PydanticCustomError("chat-empty", "the chat message is empty")
        return cleaned

    @field_validator("phrase")
    @classmethod
    def _known(cls, phrase: str | None) -> str | None:
        if phrase is not None and phrase not in PHRASES:
            raise PydanticCustomError("chat-phrase", "no such quick phrase")
        return phrase

    @model_validator(mode="after")
    def _one(self) -> SayMessage:
        if (self.text is None) == (self.phrase is None):
            raise PydanticCustomError(
                "chat-both", "a chat message has either a text or a phrase, not both or neither"
            )
        return self


ClientMessage = Annotated[
    MoveMessage | PingMessage | WhyMessage | SayMessage, Field(discriminator="type")
]
CLIENT_MESSAGE: TypeAdapter[MoveMessage | PingMessage | WhyMessage | SayMessage] = TypeAdapter(
    ClientMessage
)
# The codes of a refused chat message (``SayMessage``'s validators and the table's checks).
CHAT_CODES = frozenset(
    {"chat-channel", "chat-empty", "chat-too-long", "chat-phrase", "chat-both", "chat-rate-limit"}
)

# Who made a move for a person's seat when it was not the person: the turn timer ran out, or
# the person was away for the table's ``absent_seconds`` (a bot of the table's level played).
StandIn = Literal["timer", "absent"]


# --- server to client -------------------------------------------------------------------------


class You(Strict):
    """Who the connection is at the table."""

    seat: int | None = Field(description="its seat; null for a spectator")
    role: Literal["player", "spectator"] = Field(description="a seat's player, or a spectator")
    host: bool = Field(description="the connection is the table's host's")


class HelloMessage(Strict):
    """First, once, on every connection."""

    type: Literal["hello"] = Field(default="hello", description="the frame's kind")
    protocol: int = Field(default=PROTOCOL_VERSION, description="the protocol's version")
    table: str = Field(description="the table's id")
    you: You = Field(description="who the connection is")


def hello(table: str, seat: int | None, host: bool) -> HelloMessage:
    """The ``hello`` of a connection of ``seat`` (None: a spectator)."""
    role: Literal["player", "spectator"] = "player" if seat is not None else "spectator"
    return HelloMessage(table=table, you=You(seat=seat, role=role, host=host))


class TableMessage(Strict):
    """On connecting, and whenever the table changes: a seat taken, someone connecting or
    leaving, a deal ending, the match ending."""

    type: Literal["table"] = Field(default="table", description="the frame's kind")
    table: TableSummary = Field(description="the table's summary")


class UpdateMessage(Strict):
    """On connecting (no events), and after every move and new deal."""

    type: Literal["update"] = Field(default="update", description="the frame's kind")
    version: int = Field(
        description="deal × 1,000,000 + moves in the deal; it survives a restart of the server"
    )
    deal: int = Field(description="the deal's number at the table")
    view: dict[str, Any] = Field(
        description="the seat's view (`docs/contract.md`); a spectator's has no hand"
    )
    events: list[dict[str, Any]] = Field(
        description="the move's events as this seat may see them (`docs/contract.md`)"
    )
    turn: Turn | None = Field(description="whose decision it is now")
    by: StandIn | None = Field(
        default=None,
        exclude_if=is_null,
        description="a person's seat's move a bot made for them: `timer` (the turn timer ran "
        "out) or `absent` (they were away)",
    )


class LogEntry(Strict):
    """One move of the deal (or the deal's setting up) in a `log` frame."""

    by: StandIn | None = Field(
        default=None, exclude_if=is_null, description="as the `update` frame's `by`"
    )
    events: list[dict[str, Any]] = Field(
        description="the move's events as this seat saw them (the setting up's: the deal's "
        "opening events)"
    )


class LogMessage(Strict):
    """On connecting, before the first `update`: the deal's whole log as the connection's seat
    saw it, in order (its own draws named, every other hidden card `null`), so a refresh or a
    reconnect loses no line."""

    type: Literal["log"] = Field(default="log", description="the frame's kind")
    deal: int = Field(description="the deal's number at the table")
    entries: list[LogEntry] = Field(
        description="the setting up, then every move, oldest first (at most the last 400)"
    )


class AnnounceMessage(Strict):
    """A bot's move that ends the deal (a Tonk drop), told before the hands are shown: the
    `update` with the deal's end follows after a moment (`Pace.announce`)."""

    type: Literal["announce"] = Field(default="announce", description="the frame's kind")
    deal: int = Field(description="the deal's number at the table")
    seat: int = Field(description="the seat whose move it is")
    move: str = Field(description="the move, as every seat may read it")
    total: int | None = Field(
        default=None,
        exclude_if=is_null,
        description="the mover's hand's total, when the move shows it (a drop: T6)",
    )


class LessonMessage(Strict):
    """At a guided first deal's table (`POST /api/lessons/GAME`), to the person's seat only,
    after every `update` and on connecting: the step the deal stands at and its hint, or, once
    the deal is over, the closing message. A hint names only cards the person sees."""

    type: Literal["lesson"] = Field(default="lesson", description="the frame's kind")
    lesson: str = Field(description="the lesson's name (`tonk`, `three-towers`)")
    deal: int = Field(description="the deal's number at the table")
    step: int = Field(description="the step the deal stands at, from 0 (`steps` when over)")
    steps: int = Field(description="the lesson's steps")
    seat: int | None = Field(description="whose step it is (the person's or a bot's); null: over")
    hint: str = Field(description="the hint's key in the page's languages (`lesson.…`)")
    params: dict[str, Any] = Field(
        description="its parameters: `who` a seat, `card`/`cards` cards in the record notation, "
        "numbers"
    )
    rule: str = Field(description="the rule the step teaches (`T7`, `R8`)")
    move: str | None = Field(
        default=None,
        exclude_if=is_null,
        description="the person's step: the move the lesson waits for (any other is refused "
        "as `lesson-step`)",
    )
    done: bool = Field(default=False, description="the deal is over: the closing message")


class Reason(Strict):
    """An illegal move's refusal without words, for a client that says it in its own language."""

    key: str = Field(description="the refusal's key (`games/*/reasons.py`)")
    params: dict[str, Any] = Field(description="its parameters (numbers or texts)")


class ErrorMessage(Strict):
    """A frame the server refused; nothing changed at the table."""

    type: Literal["error"] = Field(default="error", description="the frame's kind")
    code: str = Field(description="why, without words (the codes below)")
    message: str = Field(description="why, in English")
    rule: str | None = Field(
        default=None, exclude_if=is_null, description="an illegal move's rule (`T9`)"
    )
    reason: Reason | None = Field(
        default=None, exclude_if=is_null, description="an illegal move's reason"
    )


class BecauseMessage(Strict):
    """The answer to `why`: whether the move is legal now and, if not, the engine's refusal."""

    type: Literal["because"] = Field(default="because", description="the frame's kind")
    move: str = Field(description="the move asked about")
    legal: bool = Field(description="the move could be played now")
    code: str | None = Field(
        default=None, exclude_if=is_null, description="why not, as an `error` frame's `code`"
    )
    message: str | None = Field(
        default=None, exclude_if=is_null, description="why not, in English (the terminal's words)"
    )
    rule: str | None = Field(default=None, exclude_if=is_null, description="the rule (`R9`)")
    reason: Reason | None = Field(
        default=None, exclude_if=is_null, description="why not, for the page's own language"
    )


class ChatLine(Strict):
    """One message of the table's chat, as stored with the match."""

    id: int = Field(description="its number at the table (growing)")
    channel: Channel = Field(description="`players` or `spectators`")
    seat: int | None = Field(description="the writer's seat; null for a spectator")
    name: str | None = Field(description="the writer's seat's name; null for a spectator")
    sender: str = Field(
        description="who wrote it, for a reader's mute: `seat-N`, or `spectator-XXXXXX` (one "
        "spectator's connection)"
    )
    text: str | None = Field(
        description="the free text, as sent (control characters removed): text, never HTML"
    )
    phrase: Phrase | None = Field(description="the quick phrase's key, for the reader's language")
    match: int = Field(description="the table's match it was written in")
    deal: int = Field(description="the deal (game) in play or last played then (0: none yet)")
    after: int = Field(description="the moves of that deal made by then (its replay's step)")
    at: float = Field(description="when, in Unix seconds")


class ChatMessage(Strict):
    """A chat message, to every connection that reads its channel (the players' channel:
    everyone at the table; the spectators': spectators only)."""

    type: Literal["chat"] = Field(default="chat", description="the frame's kind")
    line: ChatLine = Field(description="the message")


class ChatHistoryMessage(Strict):
    """On connecting, after `table`: the table's recent chat that the connection may read
    (at most the last 50), oldest first, so a refresh or a reconnect keeps it."""

    type: Literal["chat-history"] = Field(default="chat-history", description="the frame's kind")
    lines: list[ChatLine] = Field(description="the messages, oldest first")


class PongMessage(Strict):
    """The answer to `ping`."""

    type: Literal["pong"] = Field(default="pong", description="the frame's kind")


Outgoing = (
    HelloMessage
    | TableMessage
    | LogMessage
    | UpdateMessage
    | AnnounceMessage
    | LessonMessage
    | ChatMessage
    | ChatHistoryMessage
    | ErrorMessage
    | BecauseMessage
    | PongMessage
    | HintMessage
)
ServerMessage = Annotated[Outgoing, Field(discriminator="type")]
SERVER_MESSAGE: TypeAdapter[Outgoing] = TypeAdapter(ServerMessage)


def encode(message: BaseModel) -> str:
    """A frame's text on the wire (compact JSON, UTF-8 text as it is)."""
    return message.model_dump_json()


def encode_update(
    version: int,
    deal: int,
    view: dict[str, Any] | orjson.Fragment,
    events: list[dict[str, Any]] | orjson.Fragment,
    turn: dict[str, Any] | None,
    by: str | None = None,
) -> str:
    """An ``update`` frame's text, the same as ``encode(UpdateMessage(...))`` gives (same
    fields in the same order), built without the model's validation: the server sends one
    after every move to every seat, and the view and events come from the engine's own JSON
    (issue 23; ``tests/web/test_web_frames_fast.py`` holds the two equal)."""
    message: dict[str, Any] = {
        "type": "update",
        "version": version,
        "deal": deal,
        "view": view,
        "events": events,
        "turn": turn,
    }
    if by is not None:
        message["by"] = by
    return orjson.dumps(message).decode()


# A view's JSON as runs of fields every seat shares, encoded once, and the names of a seat's
# own fields between them (``view_template``, ``fill_view``).
ViewTemplate = list[bytes | tuple[str, bytes]]


def view_template(
    public: dict[str, Any], fields: Sequence[str], own: Collection[str]
) -> ViewTemplate:
    """``fields`` in order: each run of fields not in ``own`` encoded from ``public`` once (the
    members without their braces), each field in ``own`` as its name and its key's bytes, for
    ``fill_view`` (issue 23, sixth pass: a move's three or four frames encoded the same
    history, spreads and rules each)."""
    template: ViewTemplate = []
    run: dict[str, Any] = {}
    for name in fields:
        if name in own:
            if run:
                template.append(orjson.dumps(run)[1:-1])
                run = {}
            template.append((name, orjson.dumps(name) + b":"))
        else:
            run[name] = public[name]
    if run:
        template.append(orjson.dumps(run)[1:-1])
    return template


def fill_view(template: ViewTemplate, own: dict[str, Any]) -> orjson.Fragment:
    """The view's JSON, ``orjson.dumps`` of the whole dict to the byte, from ``template`` and
    a seat's ``own`` fields: a fragment that ``encode_update`` writes as it is."""
    pieces = [
        piece if isinstance(piece, bytes) else piece[1] + orjson.dumps(own[piece[0]])
        for piece in template
    ]
    return orjson.Fragment(b"{" + b",".join(pieces) + b"}")
