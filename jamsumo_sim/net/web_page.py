"""The browser page of ``host --web``: built once from ``assets/web/`` with the match's scene inlined,
served by the host's own WebSocket server (its ``process_request`` hook answers plain HTTP GETs for
``/``; WebSocket upgrades go on to the match). One self-contained HTML file: no CDN, no build step.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
import socket
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from jamsumo_sim.export.page import inline_json
from jamsumo_sim.resources import read_asset_text

PAGE_PATHS = ("/", "/index.html")
_SLOT = re.compile(r"\{(title|style|data|script)\}")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def build_page(scene: dict[str, Any], name: str = "play") -> tuple[bytes, str]:
    """The page's bytes and its Content-Security-Policy (only its own inline script and style may
    run, and it may connect only to the host that served it); ``name``: ``play`` (JamSumo) or
    ``cards`` (a card game), the files ``assets/web/NAME.html|css|js``."""
    style = read_asset_text("web", f"{name}.css")
    script = read_asset_text("web", f"{name}.js")
    data = inline_json(scene)
    parts = {
        "title": html.escape(str(scene["title"])),
        "style": style,
        "data": data,
        "script": script,
    }
    # one pass: nothing inserted is searched again for a placeholder
    page = _SLOT.sub(lambda m: parts[m.group(1)], read_asset_text("web", f"{name}.html"))
    csp = (
        f"default-src 'none'; script-src {_csp_hash(script)}; style-src {_csp_hash(style)}; "
        "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    )
    return page.encode("utf-8"), csp


def responder(page: bytes, csp: str) -> Callable[[Any, Request], Response | None]:
    """A ``process_request`` hook: the page for a GET of ``/``, 404 for any other plain GET, and
    None (go on with the WebSocket handshake) for an upgrade."""

    def respond(connection: Any, request: Request) -> Response | None:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        path = request.path.split("?", 1)[0]
        if path not in PAGE_PATHS:
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8", csp)
        return _response(HTTPStatus.OK, page, "text/html; charset=utf-8", csp)

    return respond


def _response(status: HTTPStatus, body: bytes, kind: str, csp: str) -> Response:
    headers = Headers(
        [
            ("Content-Type", kind),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Content-Security-Policy", csp),
            ("Connection", "close"),
        ]
    )
    return Response(status.value, status.phrase, headers, body)


def page_url(bind: str, port: int, tls: bool) -> str:
    """The link to give players: on an address open to all (0.0.0.0, ::), this computer's address
    on the local network, as far as the system tells it."""
    host = bind
    if bind in ("0.0.0.0", "::", ""):
        host = _lan_address(ipv6=bind == "::") or socket.gethostname()
    shown = f"[{host}]" if ":" in host else host
    return f"{'https' if tls else 'http'}://{shown}:{port}/"


def _lan_address(ipv6: bool) -> str | None:
    # a UDP "connect" sends nothing: it only asks the system which address would be used
    family, probe = (socket.AF_INET6, "2001:db8::1") if ipv6 else (socket.AF_INET, "192.0.2.1")
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            return str(s.getsockname()[0])
    except OSError:
        return None


def qr_lines(text: str) -> list[str] | None:
    """A QR code of ``text`` for the terminal (two rows a line), or None without ``segno`` (an
    optional, dependency-free library)."""
    try:
        import segno
    except ImportError:
        return None
    code = segno.make(text, error="m", boost_error=False)
    rows = [[bool(v) for v in row] for row in code.matrix_iter(scale=1, border=2)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    out = []
    for top, bottom in zip(rows[0::2], rows[1::2], strict=True):
        # dark modules as spaces on a light block: most terminals are dark on light or light on dark
        chars = {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}
        out.append("".join(chars[(a, b)] for a, b in zip(top, bottom, strict=True)))
    return out
