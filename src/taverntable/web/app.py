"""The FastAPI application of ``tavern serve``: the HTTP API, the WebSocket, the browser table.

``create_app`` builds the server's state (its hub of tables over the store and the bot pool),
answers the server's refusals as ``{"error", "code"}`` and includes a router per area
(``routes/``); the routes reach the hub through ``deps.py``. Routes and messages:
``docs/protocol.md`` (rendered from ``protocol/``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from taverntable.games import game_names

from .botpool import BotPool
from .hub import BadRequest, Hub
from .limits import BodyLimit
from .origins import OriginGuard, OriginPolicy, allowed_from_env
from .protocol.api import BodyProblem, HTTPError
from .reviews import Reviews
from .routes import ROUTERS
from .routes.pages import mount_static
from .store import Store
from .tables import MoveRefused, Pace
from .usage import Limits


def create_app(
    database: str,
    pace: Pace | None = None,
    bot_processes: int = 1,
    redis: str | None = None,
    allow_origins: Iterable[str] = (),
    api_docs: bool = False,
    limits: Limits | None = None,
    warm_bots: bool = False,
    group_window: float = 0.0,
) -> FastAPI:
    """The application over the database at ``database`` (an SQLAlchemy async URL); with a
    ``redis`` URL, one process of several sharing the tables (``cluster.py``).

    Pages of the server's own origin, of ``allow_origins`` and of ``TAVERN_ALLOW_ORIGINS`` may
    use its WebSocket and change things (``origins.py``); BadOrigin for one that is no origin.
    ``api_docs``: serve ``/docs``, ``/redoc`` and ``/openapi.json`` (off by default: the Swagger
    and ReDoc pages load their scripts from a CDN, and the API is in ``docs/protocol.md``).
    ``warm_bots``: start loading (or compiling) the hard bots' kernels in the bot pool as the
    server starts (``BotPool.warm_all``; ``tavern serve`` does, unless ``--no-warm-bots``).
    ``group_window``: seconds a group commit of moves waits for more (``Store``)."""
    policy = OriginPolicy([*allow_origins, *allowed_from_env()])
    store = Store(database, group_window=group_window)
    if redis is None:
        hub = Hub(store, BotPool(bot_processes), pace or Pace(), limits)
    else:
        from .cluster import ClusterHub

        hub = ClusterHub(store, BotPool(bot_processes), pace or Pace(), redis, limits)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        quiet_bad_frames()  # once uvicorn has set its logging up
        await hub.open()
        if warm_bots:
            hub.bots.warm_all(game_names())
        # What is loaded by now (modules, restored tables) lives as long as the server: kept
        # out of the garbage collector's full passes, whose pauses stall every table, and so
        # is, every few seconds, what lives on (tables, connections): ``GcPolicy``.
        hub.gc_policy.start()
        hub.watch.start()
        yield
        await hub.watch.stop()
        await hub.gc_policy.stop()
        await hub.close()

    app = FastAPI(
        title="Tavern Table",
        lifespan=lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url="/redoc" if api_docs else None,
        openapi_url="/openapi.json" if api_docs else None,
    )
    app.state.hub = hub
    app.state.reviews = Reviews(hub.bots)
    # The last added runs first: a foreign page is refused before its body is read.
    app.add_middleware(BodyLimit)
    app.add_middleware(OriginGuard, policy=policy)
    app.add_exception_handler(BadRequest, _bad_request)
    app.add_exception_handler(RequestValidationError, _bad_body)
    app.add_exception_handler(MoveRefused, _refused)
    for router in ROUTERS:
        app.include_router(router)
    mount_static(app)
    return app


class OneLineBadFrame(logging.Filter):
    """uvicorn logs a full traceback for every text frame that is not UTF-8 (a client's fault,
    answered by closing it with 1007): one line instead, a warning."""

    MESSAGE = "Invalid UTF-8 sequence received from client."

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == self.MESSAGE and record.exc_info:
            record.msg = "a WebSocket client sent a text frame that is not UTF-8: closed (1007)"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_bad_frames() -> None:
    """Install ``OneLineBadFrame`` on uvicorn's logger (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, OneLineBadFrame) for f in logger.filters):
        logger.addFilter(OneLineBadFrame())


# The problems of a bad body said in a 422, at most.
BODY_PROBLEMS = 20


def _refusal(
    status: int, message: str, code: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        HTTPError(error=message, code=code).model_dump(), status_code=status, headers=headers
    )


def printable(text: str, most: int = 300) -> str:
    """``text`` cut to ``most`` characters, with what UTF-8 cannot carry (a lone surrogate)
    escaped (``\\ud800``): an answer must always encode."""
    return text[:most].encode("utf-8", "backslashreplace").decode("utf-8")


async def _bad_body(request: Request, exc: Exception) -> JSONResponse:
    """A body of the wrong form: where and why (422), without FastAPI's echo of the input,
    which may be megabytes, or not encodable at all (a lone surrogate: the answer failed with a
    500 and two tracebacks)."""
    assert isinstance(exc, RequestValidationError)
    problems = [
        BodyProblem(
            loc=[part if isinstance(part, int) else printable(str(part), 80) for part in e["loc"]],
            msg=printable(str(e.get("msg", ""))),
            type=printable(str(e.get("type", "")), 80),
        )
        for e in exc.errors()[:BODY_PROBLEMS]
    ]
    first = problems[0] if problems else None
    where = "" if first is None else ".".join(str(x) for x in first.loc if x != "body")
    error = "the body is not of the form this request takes" if first is None else first.msg
    body = HTTPError(
        error=f"{where}: {error}" if where else error, code="bad-body", detail=problems
    )
    return JSONResponse(body.model_dump(), status_code=422)


async def _bad_request(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, BadRequest)
    return _refusal(exc.status, str(exc), exc.code, exc.headers)


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    """A host's action the table refuses (a start of a table already started …)."""
    assert isinstance(exc, MoveRefused)
    return _refusal(409, str(exc), exc.code)
