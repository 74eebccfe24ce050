"""Helpers for game pages: the table a page is kept with (`?table=<id>`), and reading its state safely.

A table's state is whatever JSON object the phones saved, so pages read it through these helpers:
a part of the wrong type reads as empty instead of breaking the page for everyone at the table.
"""
from __future__ import annotations

from typing import Any

from flask import request

from ..db import engine
from ..tables import store


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


def as_dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list:
    return value if isinstance(value, list) else []


def state_part(table: store.TableRecord | None, key: str) -> dict:
    """`table.state[key]` when it is an object, else {} (a missing or broken part reads as empty)."""
    return as_dict(table.state.get(key)) if table is not None else {}


def seat_names(table: store.TableRecord | None, seats: int | None = None) -> list[str]:
    """The players' names from the table page, one per seat; "Player n" where none was entered."""
    count = seats if seats is not None else (table.players if table is not None else 1)
    names = as_list(state_part(table, "table").get("names"))
    return [(n.strip() if isinstance(n, str) and n.strip() else f"Player {i + 1}")[:40]
            for i, n in enumerate((names + [None] * count)[:count])]


def update_table(table: store.TableRecord, mutate) -> store.TableRecord:
    """Save one page's change (a function of the state, touching only its own key) on the newest state."""
    return store.apply_change(engine(), table.id, mutate)
