"""Helpers for game pages: the table a page is kept with (`?table=<id>`)."""
from __future__ import annotations

from flask import request

from . import table_store as store
from .db import engine


def current_table(game: str | None = None) -> store.TableRecord | None:
    """The table named by ?table=<id>, if it exists (and is of `game` when given)."""
    table_id = request.args.get("table") or request.form.get("table")
    if not table_id or len(table_id) > 64:
        return None
    table = store.get(engine(), table_id)
    if table is None or (game and table.game != game):
        return None
    return table


def table_context(game: str | None = None) -> dict:
    """Template variables every game page passes: `table` (or None) and `table_id` (sets body data)."""
    table = current_table(game)
    return {"table": table, "table_id": table.id if table else None}
