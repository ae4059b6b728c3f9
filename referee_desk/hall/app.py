"""The hall page's web app (Starlette): pages rendered by Jinja2, live by server-sent events.

Every page is rendered on the server from the hub's current ``HallView`` (Jinja2
autoescape on, so a pair named ``<script>`` is text, in HTML and in the bracket's SVG
alike). The browser listens on ``/events``; when the version changes it fetches its own
page again with ``X-Hall-Partial`` and swaps the main part in: the page never computes
anything. ``/board`` asks for the organizer's password (HTTP Basic, user any).
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import json
from contextlib import asynccontextmanager
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from referee_desk.hall.board import read_board
from referee_desk.hall.live import Hub
from referee_desk.hall.names import matches
from referee_desk.hall.words import decision_word, in_language, status_word, word
from referee_desk.store.postgres.wording import say

HERE = Path(__file__).parent
#: Seconds between status messages on an idle event stream (the page's watchdog waits 3×).
HEARTBEAT_SECONDS = 2.0
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
PAGES = ("overview", "standings", "bracket", "matches", "find")


def create_app(hub: Hub, lang: str = "zh", start_hub: bool = True) -> Starlette:
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(("html", "svg"), default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    organizer_password = _password(hub.source.address) if hub.source.on_server else ""

    def language(request: Request) -> str:
        chosen = request.query_params.get("lang") or request.cookies.get("lang") or lang
        return "en" if chosen == "en" else "zh"

    def render(request: Request, page: str, **values) -> Response:
        lg = language(request)
        status = hub.status()
        context = {
            "page": page,
            "pages": PAGES,
            "lang": lg,
            "w": lambda key, **kw: word(key, lg, **kw),
            "say": lambda key, **kw: say(key, "zh_CN" if lg == "zh" else "en", **kw),
            "status_word": lambda v: status_word(v, lg),
            "decision_word": lambda v: decision_word(v, lg),
            "label": lambda text: in_language(text, lg),
            "view": hub.view,
            "status": status,
            **values,
        }
        partial = request.headers.get("x-hall-partial") == "1"
        name = f"{page}.html"
        html = env.get_template(name if partial else "base.html").render(main=name, **context)
        response = HTMLResponse(html)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"
        if request.query_params.get("lang") in ("zh", "en"):
            response.set_cookie("lang", lg, samesite="lax")
        return response

    async def page(request: Request) -> Response:
        name = request.path_params.get("page", "overview")
        if name not in (*PAGES, "projector"):
            return HTMLResponse("not found", status_code=404)
        values = {}
        if name == "find":
            query = request.query_params.get("q", "")[:40]
            found = ()
            if hub.view is not None and query.strip():
                found = tuple(p for p in hub.view.players if matches(query, p.keys))[:20]
            values = {"query": query, "found": found}
        if name == "projector":
            try:
                values = {"cycle": min(max(int(request.query_params.get("cycle", 12)), 2), 300)}
            except ValueError:
                values = {"cycle": 12}
        return render(request, name, **values)

    async def board(request: Request) -> Response:
        if not organizer_password or not _authorized(request, organizer_password):
            return Response(
                "the organizer's password, please",
                status_code=401,
                headers={"WWW-Authenticate": 'Basic realm="referee-desk board", charset="UTF-8"'},
            )
        try:
            board = await asyncio.to_thread(read_board, hub.source.address)
            error = ""
        except Exception as exc:  # the server is away: say so on the board
            board, error = None, " ".join(str(exc).split())
        return render(request, "board", board=board, board_error=error)

    async def events(request: Request) -> Response:
        async def stream():
            sent = None
            while True:
                status = hub.status()
                message = json.dumps(
                    {"version": status.version, "live": status.live, "since": status.since}
                )
                if message != sent:
                    yield f"event: status\ndata: {message}\n\n"
                    sent = message
                else:
                    yield ": ping\n\n"
                if await request.is_disconnected():
                    return
                await hub.changed(HEARTBEAT_SECONDS)

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    @asynccontextmanager
    async def lifespan(_app: Starlette):
        hub.attach(asyncio.get_running_loop())
        if start_hub:
            await asyncio.to_thread(hub.start)
        try:
            yield
        finally:
            if start_hub:
                await asyncio.to_thread(hub.stop)

    return Starlette(
        routes=[
            Route("/", page),
            Route("/events", events),
            Route("/board", board),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
            Route("/{page}", page),
        ],
        lifespan=lifespan,
    )


def _password(address: str) -> str:
    """The organizer's password: in the address, else from the pass file."""
    from referee_desk.store.postgres.password import known

    return known(address) or ""


def _authorized(request: Request, password: str) -> bool:
    header = request.headers.get("authorization", "")
    if not header.lower().startswith("basic "):
        return False
    try:
        decoded = base64.b64decode(header[6:], validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    _, _, given = decoded.partition(":")
    return hmac.compare_digest(given.encode(), password.encode())
