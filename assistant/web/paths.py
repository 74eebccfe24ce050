"""Field paths: how a form field names the part of a game's state it edits.

A path is dotted keys and list positions, `seats.0.inventory.gear`; an item of a list of objects with
an `id` is named by that id, `seats.0.robots.@a1b2c3d4.vp`, so that a field keeps pointing at the
same robot when another phone adds or removes one. Input names on pages are these paths.
"""
from __future__ import annotations

from typing import Any

MISSING = object()  # what `get` answers for a path that reaches nothing, when asked to
_RAISE = object()


class PathError(LookupError):
    """The path does not reach anything in this state (a robot removed on another phone, say)."""


def parts(path: str) -> list[str]:
    return [p for p in path.split(".") if p != ""]


def _step(node: Any, part: str) -> tuple[Any, Any]:
    """(container key, child) for one part of a path."""
    if isinstance(node, dict):
        if part in node:
            return part, node[part]
        raise PathError(part)
    if isinstance(node, list):
        if part.startswith("@"):
            for i, item in enumerate(node):
                if isinstance(item, dict) and str(item.get("id")) == part[1:]:
                    return i, item
            raise PathError(part)
        if part.isdecimal() and len(part) < 6 and int(part) < len(node):
            return int(part), node[int(part)]
    raise PathError(part)


def get(data: Any, path: str, default: Any = _RAISE) -> Any:
    node = data
    try:
        for part in parts(path):
            _, node = _step(node, part)
    except PathError:
        if default is _RAISE:
            raise
        return default
    return node


def set_(data: Any, path: str, value: Any) -> None:
    """Set the value at `path`; every part but the last must exist (the last may be a new object key)."""
    keys = parts(path)
    if not keys:
        raise PathError(path)
    node = data
    for part in keys[:-1]:
        _, node = _step(node, part)
    last = keys[-1]
    if isinstance(node, dict):
        node[last] = value
        return
    key, _ = _step(node, last)
    node[key] = value


def from_loc(data: Any, loc: tuple) -> str:
    """A pydantic error location as a path, naming list items by their id where they have one. Parts of
    the location past the data (a union member's tag like `int`) are left out."""
    out: list[str] = []
    node = data
    for part in loc:
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            item = node[part]
            has_id = isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"]
            out.append(f"@{item['id']}" if has_id else str(part))
            node = item
        elif isinstance(node, dict) and isinstance(part, str):
            out.append(part)
            if part not in node:
                break  # a missing field: it is named, and there is nothing below it
            node = node[part]
        else:
            break
    return ".".join(out)
