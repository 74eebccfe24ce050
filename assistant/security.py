"""Response headers (a strict Content-Security-Policy, no Server banner from the app), the session
cookie's flags, and the request checks that keep another site from acting with a phone's tables.

Cross-site requests: a page on another site can make a phone's browser send a form POST, or a
`no-cors` fetch with a "simple" body, to this app without asking first. Every request that may change
something (POST, PUT, PATCH, DELETE) is therefore refused when the browser says it comes from another
origin (`Origin`, or `Sec-Fetch-Site: cross-site`/`same-site`), and a body sent to the JSON API, or
an empty write to a table (an undo), must say `Content-Type: application/json`, which no page can
send across origins without a CORS preflight (which this app never grants); an empty undo that the
browser marks `Sec-Fetch-Site: same-origin` is one of the app's own pages and needs no type.
Requests that carry neither header (curl, scripts, the test client) are not a browser acting for
someone and stay allowed; browsers send `Origin` on every POST.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSessionInterface

from .api import ApiError, is_json_request
from .web.params import screen_request

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    # bar widths and chart sizes are set as style attributes; scripts stay out of them all the same
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
])
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class _SessionCookies(SecureCookieSessionInterface):
    """The session cookie is SameSite=Lax (not sent on another site's POST) and Secure when the request
    came over HTTPS (directly, or through a proxy that TABLEBOT_PROXY_HOPS trusts)."""

    def get_cookie_samesite(self, app: Flask) -> str:
        return app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or (has_request_context() and request.is_secure)


def _foreign_origin() -> str | None:
    """What says this request comes from another site (None: same origin, or not a browser page)."""
    site = request.headers.get("Sec-Fetch-Site")
    if site in ("cross-site", "same-site"):
        return f"Sec-Fetch-Site: {site}"
    origin = request.headers.get("Origin")
    if origin is None:
        return None
    # the host (and port) must be this app's; the scheme may differ behind a proxy that ends TLS
    if origin == "null" or urlsplit(origin).netloc.lower() != request.host.lower():
        return f"Origin: {origin[:100]}"
    return None


def _writes_a_table() -> bool:
    return request.path == "/api/tables" or "/tables/" in request.path


def check_request() -> None:
    if request.routing_exception is not None:  # a 404 or 405 comes first: nothing will run
        return
    screen_request()
    if request.method not in UNSAFE_METHODS:
        return
    foreign = _foreign_origin()
    if foreign:
        raise ApiError(403, "cross_site", "This request came from another site, so it was refused: open Tablebot "
                       "itself and try again there.", [{"path": "Origin", "message": f"not this site ({foreign})"}])
    # a body sent to the API must be JSON; so must an empty one that changes a table (an undo), unless
    # the browser itself says the request comes from this app's own pages (no page can forge that header)
    empty_from_here = not request.content_length and request.headers.get("Sec-Fetch-Site") == "same-origin"
    if (request.path.startswith("/api/") and not is_json_request() and not empty_from_here
            and (request.content_length or _writes_a_table())):
        raise ApiError(415, "unsupported_media_type",
                       "Send the body as JSON (Content-Type: application/json), even when it is empty.")


def _about_a_table() -> bool:
    """A table's page or answer (or a game page kept with a table): what one table holds, by its id."""
    path = request.path
    if path.startswith(("/api/tables", "/t/")) or "/tables/" in path:
        return True
    return bool(request.args.get("table") or (request.method == "POST" and request.form.get("table")))


def table_cache_control(response) -> None:
    """No cache keeps a table's answers (its state, names, secrets typed into it) once the page is gone:
    no-store; an answer that is revalidated by its ETag (a table's version, polled each second) is
    private, no-cache, so that the 304s keep working."""
    if "no-cache" in response.headers.get("Cache-Control", "") and response.headers.get("ETag"):
        response.headers["Cache-Control"] = "private, no-cache"
    else:
        response.headers["Cache-Control"] = "no-store"


def init_app(app: Flask) -> None:
    app.session_interface = _SessionCookies()
    app.before_request(check_request)

    @app.after_request
    def _headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        response.headers.pop("Server", None)  # the app names no server and no versions
        if _about_a_table():
            table_cache_control(response)
        return response
