"""The hall's web app (Starlette): pages for players and the projector, and a live stream.

Every page reads the board's current view; ``/events`` is a server-sent-events stream
that says when the view changed (or stopped being live), and the page's script then
fetches its content again. Jinja2 escapes every name (a pair named ``<script>`` shows
as text). Read-only: no route writes anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from referee_desk.hall.board import Board, Status
from referee_desk.hall.bracket_svg import bracket_svg
from referee_desk.hall.texts import LANGUAGES, text

TEMPLATES = Path(__file__).with_name("templates")
#: A comment line on an idle stream, so proxies and phones keep the connection.
KEEPALIVE_SECONDS = 15.0


class Hall:
    """The app's state: the board, the default language, the streams waiting for news."""

    def __init__(self, board: Board, lang: str = "zh") -> None:
        self.board = board
        self.lang = lang if lang in LANGUAGES else "zh"
        self.waiters: set[asyncio.Event] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.env = Environment(
            loader=FileSystemLoader(TEMPLATES),
            autoescape=select_autoescape(["html", "svg"], default=True),
        )
        board.on_version = self._from_board

    def _from_board(self, _status: Status) -> None:
        """Called on the board's thread: wake every stream on the app's loop."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        for waiter in self.waiters:
            waiter.set()

    def language(self, request: Request) -> str:
        lang = request.query_params.get("lang", self.lang)
        return lang if lang in LANGUAGES else self.lang


def create_app(board: Board, lang: str = "zh") -> Starlette:
    """The Starlette app over ``board`` (started and stopped with the app)."""
    hall = Hall(board, lang)

    def page(name: str, request: Request, **extra: object) -> Response:
        lang = hall.language(request)
        status = board.status
        context = {
            "t": lambda key, **params: text(key, lang, **params),
            "lang": lang,
            "other_lang": "en" if lang == "zh" else "zh",
            "view": board.view,
            "status": status,
            "page": name,
            "fragment": request.query_params.get("fragment") == "1",
            **extra,
        }
        html = hall.env.get_template(f"{name}.html").render(context)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def standings(request: Request) -> Response:
        return page("standings", request)

    async def matches(request: Request) -> Response:
        return page("matches", request)

    async def find(request: Request) -> Response:
        query = request.query_params.get("q", "")[:40]
        view = board.view
        found = view.find(query) if (view is not None and query.strip()) else ()
        return page("find", request, query=query, found=found)

    async def bracket(request: Request) -> Response:
        view = board.view
        svg = bracket_svg(view.knockout, hall.language(request)) if view else ""
        return page("bracket", request, svg=svg)

    async def projector(request: Request) -> Response:
        return page("projector", request)

    async def events(request: Request) -> Response:
        return StreamingResponse(
            _stream(hall, request),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        hall.loop = asyncio.get_running_loop()
        if not board.started:
            board.start()
        try:
            yield
        finally:
            board.stop()

    app = Starlette(
        routes=[
            Route("/", standings),
            Route("/matches", matches),
            Route("/find", find),
            Route("/bracket", bracket),
            Route("/projector", projector),
            Route("/events", events),
        ],
        lifespan=lifespan,
    )
    app.state.hall = hall
    return app


def _message(status: Status) -> str:
    data = {
        "version": status.version,
        "live": status.live,
        "last_live": status.last_live.strftime("%H:%M") if status.last_live else "",
    }
    return f"data: {json.dumps(data)}\n\n"


async def _stream(hall: Hall, request: Request) -> AsyncIterator[str]:
    """The board's status now, then each time it changes; a keep-alive comment meanwhile."""
    waiter = asyncio.Event()
    hall.waiters.add(waiter)
    try:
        yield "retry: 1000\n\n" + _message(hall.board.status)
        while not await request.is_disconnected():
            try:
                await asyncio.wait_for(waiter.wait(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            waiter.clear()
            yield _message(hall.board.status)
    finally:
        hall.waiters.discard(waiter)
