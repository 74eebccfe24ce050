"""The one reader of numbers from a query string or a form: ASCII digits in range, or a 400 naming the field.

`str.isdigit()` is true for "³" and "①", which `int()` refuses, and `int()` refuses more than 4,300
digits: a view that checks with one and converts with the other answers 500. Views read numbers here;
`screen_request` also refuses, before any view runs, a field that looks like a number to `isdigit`
but is not one (and a NUL character anywhere), so an older check in a view cannot reach `int()` with it.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from flask import request

from ..api import ApiError

_WHOLE = re.compile(r"[+-]?[0-9]{1,18}")
_BAD_CHAR = re.compile("[\x00\ud800-\udfff]")


class BadParam(ApiError):
    """A query or form field that is not what the view needs: a 400 that names it."""

    def __init__(self, field: str, message: str):
        super().__init__(400, "bad_request", f"{field}: {message}", [{"path": field, "message": message}])


def whole_number(field: str, raw: str | None, *, lo: int, hi: int, default: int | None = None) -> int:
    """`raw` read as a whole number from `lo` to `hi`; empty or missing gives `default` (if there is one)."""
    text = (raw or "").strip()
    if not text and default is not None:
        return default
    if not _WHOLE.fullmatch(text) or not lo <= int(text) <= hi:
        raise BadParam(field, f"must be a whole number from {lo} to {hi}")
    return int(text)


def query_int(field: str, *, lo: int, hi: int, default: int | None = None) -> int:
    return whole_number(field, request.args.get(field), lo=lo, hi=hi, default=default)


def form_int(field: str, *, lo: int, hi: int, default: int | None = None) -> int:
    return whole_number(field, request.form.get(field), lo=lo, hi=hi, default=default)


def _screen(fields: Mapping[str, list[str]]) -> None:
    for field, values in fields.items():
        if _BAD_CHAR.search(field):
            raise BadParam("field name", "contains a character that is not text")
        for value in values:
            if "\x00" in value:
                raise BadParam(field, "contains a NUL character")
            if _BAD_CHAR.search(value):
                raise BadParam(field, "is not valid Unicode text")
            text = value.strip()
            if text.isdigit() and not _WHOLE.fullmatch(text):
                raise BadParam(field, "must be a whole number written with the digits 0-9 (at most 18 of them)")


def screen_request() -> None:
    """Refuse, for every query and form field, what no view can read (called before every request)."""
    _screen(request.args.to_dict(flat=False))
    if request.method in ("POST", "PUT", "PATCH", "DELETE") and request.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        _screen(request.form.to_dict(flat=False))
