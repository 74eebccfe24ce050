"""Following a table: every open page of a table asks for its version about once a second.

An unchanged table costs one indexed read and a 304 with an empty body, so a worker thread is never
held and 50 phones following tables cost about 50 tiny requests a second. Only when the version moves
does a page fetch its new rendering (the ordinary page URL) and swap in the parts that changed.
"""
from __future__ import annotations

from flask import Blueprint, request

from ..api import ApiError
from ..db import engine
from . import store

bp = Blueprint("tables_live", __name__)


@bp.get("/api/tables/<table_id>/version")
def api_version(table_id: str):
    version = store.current_version(engine(), table_id) if len(table_id) <= 64 else None
    if version is None:
        raise ApiError(404, "not_found", "No table has this id.")
    etag = f'"v{version}"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if etag in request.headers.get("If-None-Match", ""):
        return "", 304, headers
    return {"version": version}, 200, headers
