"""How the Raising Robots pages save to their table. A save is a change, not a snapshot: a no-JS form
carries the part of the state it was drawn from (`drawn`), the view compares what was posted with it, and
only the fields the player changed are written on the newest state (web.context.update_table re-applies
the change when another phone saved first). So an edit made on another phone in between is kept."""
from __future__ import annotations

import copy
import json
from typing import Any

from ..db import engine
from ..tables import store
from ..web.context import as_dict, update_table
from ..web.save import notice

DELETED: Any = object()  # a change that removes the key
Change = tuple[tuple[str, ...], Any]  # (path of keys, new value or DELETED)
MAX_DRAWN = 60_000


class Stale(Exception):
    """The change only makes sense on the state the page was drawn from (a Search recorded on that deck,
    the round that was ending), and another phone changed that part since."""


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)  # True is not 1, 1 is not 1.0


def changes(old: Any, new: Any, path: tuple[str, ...] = ()) -> list[Change]:
    """What turns `old` into `new`: objects key by key (down to the leaves), anything else whole."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[Change] = []
        for key, value in new.items():
            out += changes(old[key], value, (*path, key)) if key in old else [((*path, key), value)]
        return out + [((*path, key), DELETED) for key in old if key not in new]
    return [] if _same(old, new) else [(path, new)]


def apply_changes(target: dict, items: list[Change]) -> dict:
    """`target` with the changes made (in place; an object on the way that is missing or of another type
    is started afresh)."""
    for path, value in items:
        if not path:
            continue
        node = target
        for key in path[:-1]:
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        if value is DELETED:
            node.pop(path[-1], None)
        else:
            node[path[-1]] = copy.deepcopy(value)
    return target


def as_one(items: list[Change], new: dict, key: str) -> list[Change]:
    """The changes with those below `key` made one change of its whole new value: for values whose parts
    only make sense together (a Search's row and energy range)."""
    inside = [c for c in items if c[0] and c[0][0] == key]
    return [c for c in items if c not in inside] + ([((key,), new[key])] if inside else [])


def under(items: list[Change], key: str) -> list[Change]:
    """The changes below `key`, with paths relative to it."""
    return [(path[1:], value) for path, value in items if path and path[0] == key and len(path) > 1]


def drawn_json(model: dict) -> str:
    return json.dumps(model, separators=(",", ":"))


def read_drawn(form) -> dict | None:
    """The page part the posted form was drawn from (its hidden `drawn` field), or None."""
    raw = form.get("drawn") or ""
    if not raw or len(raw) > MAX_DRAWN:
        return None
    try:
        return as_dict(json.loads(raw)) or None
    except ValueError:
        return None


def save(table, mutate) -> object:
    """Apply `mutate` (a function of the newest state) and return the table as saved; the table bar says
    what happened. When the table kept changing under it, or the change no longer fits (Stale), say so
    and return the newest table."""
    try:
        current = store.get(engine(), table.id)
        if current is not None and mutate(copy.deepcopy(current.state)) == current.state:
            return current  # nothing changed (a form sent as it was drawn): no new version for the phones to fetch
        saved = update_table(table, mutate)
        notice("ok", f"Saved with table {saved.code} (version {saved.version}).")
        return saved
    except store.Conflict:
        notice("error", "Not saved with the table: it kept changing. Try again.")
    except Stale as stale:
        notice("conflict", str(stale))
    return store.get(engine(), table.id) or table
