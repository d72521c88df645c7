"""The board in a browser (``companion board --web``), through Textualize's textual-serve.

Design decisions:

* textual-serve runs one board process per browser tab (its ``AppService``) and
  streams the terminal to xterm.js. We subclass its ``Server`` rather than fork it.
* Every request needs the access token: ``?token=…`` on the first page, which then
  sets an HttpOnly, SameSite=Strict cookie for the page's scripts and websocket.
  Without it: 403. The token is random per run (``secrets``), compared in constant
  time, and printed with the URL. It guards the local network, where a TV needs
  ``--host 0.0.0.0``; on 127.0.0.1 (the default) it costs one click.
* The websocket also checks that its ``Origin`` is the board's own host, so a page
  from elsewhere cannot open a board in a visitor's browser.
* URLs in the page are built from the request's own ``Host``, so the page works
  however the TV reached it (IP address, host name), not only at the bind address.
* The page template is textual-serve's own minus its web-font link: a TV on a
  local network without internet must not wait for a font server.
"""

from __future__ import annotations

import re
import secrets
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from textual_serve.server import Server, to_int

from companion.hardware.lan import interface_addresses, reachable_addresses

__all__ = ["BoardServer", "interface_addresses", "reachable_addresses"]

COOKIE = "companion_board"
DEFAULT_FONT_SIZE = 22
"""xterm.js font size in CSS pixels: about 80 columns on a 1920-pixel-wide TV."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def offline_template_dir() -> Path:
    """textual-serve's page template without the remote font stylesheet."""
    import textual_serve

    source = Path(textual_serve.__file__).parent / "templates" / "app_index.html"
    html = source.read_text(encoding="utf-8")
    html = re.sub(r"<link\s[^>]*fonts\.googleapis\.com[^>]*>", "", html, flags=re.S)
    folder = Path(tempfile.mkdtemp(prefix="companion-board-"))
    (folder / "app_index.html").write_text(html, encoding="utf-8")
    return folder


class BoardServer(Server):
    """textual-serve's server with an access token and same-origin websockets."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        token: str | None = None,
        font_size: int = DEFAULT_FONT_SIZE,
        title: str = "Companion board",
        announce: Callable[[str], None] = print,
    ) -> None:
        super().__init__(
            command, host=host, port=port, title=title, templates_path=offline_template_dir()
        )
        self.token = token or secrets.token_urlsafe(18)
        self.font_size = font_size
        self.announce = announce

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self._require_token)
        return app

    def _authorised(self, request: web.Request) -> tuple[bool, bool]:
        """(allowed, came with the query token)."""
        query = request.query.get("token", "")
        if query and secrets.compare_digest(query, self.token):
            return True, True
        cookie = request.cookies.get(COOKIE, "")
        return bool(cookie) and secrets.compare_digest(cookie, self.token), False

    @web.middleware
    async def _require_token(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        allowed, by_query = self._authorised(request)
        if not allowed:
            raise web.HTTPForbidden(
                text="This board needs its access token: open the URL "
                "that `companion board --web` printed.\n"
            )
        if request.path == "/ws":
            origin = request.headers.get("Origin")
            if origin is not None and re.sub(r"^https?://", "", origin) != request.host:
                raise web.HTTPForbidden(text="Cross-origin board connections are refused.\n")
        response = await handler(request)
        if by_query:
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict", path="/")
        return response

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        base = f"{request.scheme}://{request.host}"
        ws_base = ("wss://" if request.scheme == "https" else "ws://") + request.host
        router = request.app.router
        context: dict[str, Any] = {
            "font_size": to_int(request.query.get("fontsize", ""), self.font_size),
            "app_websocket_url": ws_base + str(router["websocket"].url_for()),
            "config": {
                "static": {
                    "url": base + str(router["static"].url_for(filename="/")).rstrip("/") + "/",
                }
            },
            "application": {"name": self.title},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    def urls(self) -> list[str]:
        """Where a browser can open the board (with the token)."""
        return [
            f"http://{address}:{self.port}/?token={self.token}"
            for address in reachable_addresses(self.host)
        ]

    async def on_startup(self, app: web.Application) -> None:
        for url in self.urls():
            self.announce(url)
