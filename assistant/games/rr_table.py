"""How the Raising Robots pages save to their table: each save is a change applied to the newest state
(page_helpers.update_table re-applies it when another phone saved first), touching only this page's keys."""
from __future__ import annotations

from flask import flash

from .. import table_store as store
from ..page_helpers import update_table


def save(table, mutate) -> object:
    """Apply `mutate` (a function of the newest state) and return the table as saved; when the table kept
    changing under it, say so and return the table as it was."""
    try:
        return update_table(table, mutate)
    except store.Conflict:
        flash("Not saved with the table: it kept changing. Try again.", "error")
        return table
