"""JSON API plumbing: one error body for every failure, and one place that turns bad input into a 400.

Every /api error has the body of the API contract:
{"error": {"code": ..., "message": "one clear sentence", "fields": [{"path": ..., "message": ...}]}}
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from flask import Blueprint, Flask, jsonify, render_template, request
from pydantic import BaseModel, ValidationError
from werkzeug.exceptions import HTTPException

from solvers.errors import InputError

from . import outages
from .tables import jsonsafe

M = TypeVar("M", bound=BaseModel)

bp = Blueprint("api", __name__)


class ApiError(Exception):
    """Raise in a view to answer with the contract's error body."""

    def __init__(self, status: int, code: str, message: str, fields: list[dict] | None = None,
                 extra: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.fields = fields or []
        self.extra = extra or {}

    def response(self):
        body: dict[str, Any] = {"error": {"code": self.code, "message": self.message, "fields": self.fields}}
        body.update(self.extra)
        return jsonify(body), self.status

    def page(self):
        """The same error for a page: a short page that says what was wrong, with the same status."""
        return render_template("tables/problem.html", status=self.status, message=self.message,
                               fields=self.fields), self.status


def bad_field(path: str, message: str) -> ApiError:
    return ApiError(400, "bad_request", f"{path}: {message}", [{"path": path, "message": message}])


def _path(loc: tuple) -> str:
    out = ""
    for part in loc:
        if part == "[key]":  # pydantic's marker for "the key itself" of a dict entry
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "body"


def _clean(message: str) -> str:
    # pydantic prefixes custom errors with "Value error, "; players need the sentence only
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix):]
    return message


def validation_error(err: ValidationError, prefix: str = "") -> ApiError:
    fields = []
    for e in err.errors(include_url=False):
        loc = tuple(x for x in e["loc"] if x not in ("function-after", "function-before", "function-plain"))
        path = _path(((prefix,) if prefix else ()) + loc)
        fields.append({"path": path, "message": _clean(e["msg"])})
    first = fields[0] if fields else {"path": "body", "message": "is not valid"}
    more = f" (and {len(fields) - 1} more)" if len(fields) > 1 else ""
    return ApiError(400, "bad_request", f"{first['path']}: {first['message']}{more}", fields)


def is_json_request() -> bool:
    mimetype = request.mimetype or ""
    return mimetype == "application/json" or mimetype.endswith("+json")


def json_body() -> Any:
    """The request's JSON body, or an ApiError (415 not JSON, 400 malformed or holding a value that no
    page could store or show: see tables/jsonsafe.py). None for an empty body."""
    if not is_json_request():
        raise ApiError(415, "unsupported_media_type", "Send the body as JSON (Content-Type: application/json).")
    raw = request.get_data()
    if not raw:
        return None
    try:
        # NaN, Infinity (and 1e999, which reads as Infinity) are read so that the check below names where
        # they are; Python would take them and then echo invalid JSON back
        data = json.loads(raw, parse_constant=float, parse_int=jsonsafe.read_int)
    except RecursionError:
        raise ApiError(400, "bad_json", "The body is nested too deeply.",
                       [{"path": "body", "message": "nested too deeply"}]) from None
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad_json", "The body is not valid JSON.",
                       [{"path": "body", "message": "not valid JSON"}]) from None
    try:
        jsonsafe.check(data, "", max_bytes=None)
    except jsonsafe.UnsafeValue as e:
        raise bad_field(e.path or "body", e.message) from None
    return data


def parse(model: type[M], data: Any = None, parser: Callable[[type[M], Any], M] | None = None) -> M:
    """Validate the JSON body (or data) with a pydantic model (or `parser(model, data)`, a game's strict
    reading of its state models); a 400 naming each bad field otherwise."""
    if data is None:
        data = json_body()
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "The body must be a JSON object.", [{"path": "body", "message": "must be an object"}])
    try:
        return parser(model, data) if parser else model.model_validate(data)
    except ValidationError as err:
        raise validation_error(err) from None


def parse_action(model: type[M], types: Sequence[str]) -> M:
    """A table action endpoint's body (`{"version", "action": {"type", ...}}`, the action a union tagged by
    `type`), or a 400 naming each bad field as the caller wrote it: `action.seat`, not pydantic's
    `action.<type>.seat`; an unknown or missing `type` is `action.type`, listing `types` in their order."""
    data = json_body()
    if not isinstance(data, dict):
        raise bad_field("body", "must be an object")
    try:
        return model.model_validate(data)
    except ValidationError as err:
        fields = []
        for e in err.errors(include_url=False):
            loc = list(e["loc"])
            msg = e["msg"].removeprefix("Value error, ")
            if loc[:1] == ["action"] and len(loc) > 1 and loc[1] in types:
                del loc[1]
            elif loc == ["action"] and e["type"].startswith("union_tag"):
                loc, msg = ["action", "type"], "must be one of " + ", ".join(types)
            fields.append({"path": ".".join(str(x) for x in loc) or "body", "message": msg[:1].lower() + msg[1:]})
        raise ApiError(400, "bad_request", f"{fields[0]['path']}: {fields[0]['message']}", fields) from None


@bp.get("/api/health")
def health():
    """200 {"status": "ok", ...} when the database answers and has room; 503 with Retry-After otherwise."""
    from . import db, outages

    report = outages.check(db.engine())
    if report["status"] == "ok":
        return report
    retry = outages.STORAGE_RETRY_SECONDS if report["storage"] == "full" else outages.DATABASE_RETRY_SECONDS
    return report, 503, {"Retry-After": str(retry)}


_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 409: "conflict",
          413: "too_large", 415: "unsupported_media_type", 429: "too_many_requests"}
_MESSAGES = {404: "Nothing is at this address.", 405: "This address does not take that method.",
             413: "The body is over the 64 KiB limit.", 429: "Too many tries; wait a minute and try again."}


def install_error_handlers(app: Flask) -> None:
    app.after_request(outages.forget_full_after_a_write)

    def wants_json() -> bool:
        return request.path.startswith("/api/") or request.path.endswith(".json") or is_json_request()

    @app.errorhandler(ApiError)
    def _api_error(err: ApiError):
        return err.response() if wants_json() else err.page()

    @app.errorhandler(jsonsafe.UnsafeValue)
    def _unsafe_value(err: jsonsafe.UnsafeValue):
        # a page or endpoint tried to store a value that could not be shown again: a 400 naming the part
        problem = bad_field(err.path, err.message)
        return problem.response() if wants_json() else problem.page()

    @app.errorhandler(InputError)
    def _input_error(err: InputError):
        # a solver found input it cannot use: on the API a 400 naming the field; pages catch it themselves
        if not wants_json():
            raise err
        return bad_field(err.path or "body", err.message).response()

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException):
        if not wants_json():
            if err.code == 429:  # a rate limit on a page: say so in the app's own page, and when to retry
                body, status = ApiError(429, "too_many_requests", err.description or _MESSAGES[429]).page()
                return body, status, {"Retry-After": err.get_response().headers.get("Retry-After", "60")}
            return err
        status = err.code or 500
        own = err.description if err.description != type(err).description else None
        message = own or _MESSAGES.get(status) or (err.description or err.name)
        body, status = ApiError(status, _CODES.get(status, "error"), message).response()
        for name in ("Retry-After", "Allow"):  # what the client needs to know to try again
            if name in err.get_response().headers:
                body.headers[name] = err.get_response().headers[name]
        return body, status

    @app.errorhandler(Exception)
    def _crash(err: Exception):  # never let a solver bug show as a bare 500 page without a message
        # a page's own in-place save (X-Tablebot-Swap) reads the JSON to say what it waits for
        as_json = wants_json() or bool(request.headers.get("X-Tablebot-Swap"))
        outage = outages.answer(err, page=not as_json)
        if outage is not None:  # the database is down or the disk full: wait and retry, not a bug
            code, message, retry = outage
            app.logger.warning("answered 503 %s: %s", code, str(err).splitlines()[0] if str(err) else type(err).__name__)
            problem = ApiError(503, code, message)
            body, status = problem.response() if as_json else problem.page()
            return body, status, {"Retry-After": str(retry)}
        app.logger.exception("unhandled error")
        if wants_json():
            return ApiError(500, "internal", "Something went wrong on our side; nothing you entered was lost.").response()
        return "Something went wrong on our side; nothing you entered was lost.", 500
