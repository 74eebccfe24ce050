"""The one form reader: which fields a page's form posted, by their paths (see paths.py).

Inputs are named by the path of the state they edit. A checkbox sends "true" and is preceded by a
hidden input of the same name that sends "false", so an unticked box still says so (the last value
wins). A name ending in `[]` is a list of values (a multi-select, several ticked names). Names that
are not paths of the state (`version`, `table`, `do`, anything starting with `_`) are left out.
"""
from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

RESERVED = frozenset({"version", "table", "do", "csrf_token"})
MAX_FIELDS = 400
MAX_PATH = 200


def posted_fields(form: MultiDict, prefix: str = "") -> dict[str, Any]:
    """{path: value} for every posted field under `prefix` (the prefix is kept in the path)."""
    out: dict[str, Any] = {}
    for name in list(form.keys())[:MAX_FIELDS]:
        if name in RESERVED or name.startswith("_") or len(name) > MAX_PATH or not name.startswith(prefix):
            continue
        if name.endswith("[]"):
            out[name[:-2]] = [v for v in form.getlist(name) if v != ""]
        else:
            values = form.getlist(name)
            out[name] = values[-1] if values else ""
    return out


def shown_version(form: MultiDict) -> int | None:
    """The table version the page showed when the player changed it (its hidden `version` field)."""
    raw = form.get("version", "")
    return int(raw) if raw.isascii() and raw.isdecimal() and len(raw) < 10 else None
