"""The shell: home page, game hubs, the web app manifest, the service worker and the error pages."""
from __future__ import annotations

from flask import Blueprint, Flask, Response, abort, current_app, render_template, request
from werkzeug.exceptions import HTTPException

from . import outages, static_files
from .catalog import GAMES

bp = Blueprint("pages", __name__)


@bp.get("/")
def home():
    return render_template("home.html", games=GAMES.values())


@bp.get("/games/<game>")
def game(game: str):
    g = GAMES.get(game)
    if g is None:
        abort(404)
    tools = current_app.extensions.get("tablebot_tools", {}).get(game, [])
    return render_template("game.html", game=g, tools=tools)


@bp.get("/offline")
def offline():
    return render_template("offline.html")


def _with_hashed_urls(name: str, mimetype: str) -> Response:
    """A static file whose "/static/..." URLs name the content-hashed files the pages use."""
    registry = static_files.files()
    file = registry.get(name)
    if file is None:
        abort(404)
    text = registry.rewrite_urls(file.body.decode("utf-8"))
    response = Response(text, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    return _with_hashed_urls("manifest.webmanifest", "application/manifest+json")


@bp.get("/sw.js")
def service_worker():
    # served from the root so that its scope covers every page; its cache is named after the static
    # files' hash, so a new release installs a new worker, which drops the old cache
    response = _with_hashed_urls("js/sw.js", "text/javascript")
    text = response.get_data(as_text=True).replace('var ASSETS = "dev";',
                                                   f'var ASSETS = "{static_files.files().version()}";')
    response.set_data(text)
    response.headers["Service-Worker-Allowed"] = "/"
    response.add_etag()
    return response.make_conditional(request)


# ---- error pages: the app's own look for people; /api keeps the JSON error body of api.md ----

ERRORS = {
    400: ("That request was not understood", "Something in the address or the form could not be read."),
    404: ("Nothing here", "No page is at this address. It may have been typed wrong, or the table it "
                          "names may not exist on this server."),
    405: ("Not this way", "This address does not take that kind of request."),
    413: ("Too much at once", "What was sent is over the 64 KiB limit."),
    429: ("Too many tries", "Wait a minute, then try again."),
    503: ("Try again in a moment", "The server cannot keep changes just now. Nothing saved before is lost."),
    500: ("Something went wrong on our side", "Nothing you entered was lost. Go back and try again; if it "
                                              "happens again, the server's log says what failed."),
}


def error_page(status: int, message: str | None = None, headers: dict | None = None) -> tuple:
    title, default = ERRORS.get(status, ERRORS[500] if status >= 500 else ERRORS[400])
    message = message or default
    try:
        return render_template("errors/error.html", status=status, title=title, message=message), status, headers or {}
    except Exception:  # noqa: BLE001 - the page of last resort must answer even when templates fail
        current_app.logger.exception("the error page itself failed")
        return f"{title}. {message}\n", status, {"Content-Type": "text/plain; charset=utf-8"}


def install_error_pages(app: Flask) -> None:
    """Wrap the JSON error handlers (api.py) so that pages outside /api get an HTML page instead."""
    handlers = app.error_handler_spec[None][None]
    json_http, json_crash = handlers.get(HTTPException), handlers.get(Exception)

    def is_api() -> bool:
        return request.path.startswith("/api/")

    def http(err: HTTPException):
        if is_api() and json_http is not None:
            return json_http(err)
        if err.code is None or err.code < 400:
            return err
        # what the browser needs to know to try again (a rate limit's wait, the methods allowed) stays
        kept = {k: v for k, v in err.get_response().headers.items() if k in ("Retry-After", "Allow")}
        # a rate limit's or a storage budget's own sentence; other codes keep the page's default
        own = err.description if err.description and err.description != type(err).description else None
        message = err.description if err.code == 429 and err.description else (own if err.code == 413 else None)
        return error_page(err.code, message, kept)

    def crash(err: Exception):
        swap = bool(request.headers.get("X-Tablebot-Swap"))  # a page's own save reads the JSON answer
        if (is_api() or swap) and json_crash is not None:
            return json_crash(err)
        outage = outages.answer(err, page=True)
        if outage is not None:  # the database is down or the disk full: a 503 to retry, not a bug
            code, message, retry = outage
            app.logger.warning("answered 503 %s: %s", code, str(err).splitlines()[0] if str(err) else type(err).__name__)
            return error_page(503, message, {"Retry-After": str(retry)})
        app.logger.exception("unhandled error")
        return error_page(500)

    app.register_error_handler(HTTPException, http)
    app.register_error_handler(Exception, crash)
