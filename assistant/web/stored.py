"""Reading a stored table state leniently: keep what is valid, drop what is not.

A table's state is whatever the phones saved, possibly by an older Tablebot or by hand through the API.
A page must open all the same, so a game's state model is read with `lenient(Model, raw)`: each part
that fails validation is removed (a list item, an object key) and validation runs again, so defaults
stand in for the broken parts and everything else is kept. API bodies use the model strictly instead.
"""
from __future__ import annotations

import copy
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)
MAX_ROUNDS = 64  # every round removes at least one part; a state this broken reads as the default


def lenient(model: type[M], raw: Any) -> M:
    """`model` validated from `raw`, with every invalid part dropped (the model's defaults fill in)."""
    try:
        data = copy.deepcopy(raw) if isinstance(raw, dict) else {}
    except RecursionError:
        data = {}
    for _ in range(MAX_ROUNDS):
        try:
            return model.model_validate(data)
        except ValidationError as err:
            targets = [t for t in (_target(data, tuple(e["loc"])) for e in err.errors()) if t is not None]
            if not targets:
                break
            _remove(targets)
        except (RecursionError, TypeError, ValueError):
            break
    return model()


def _target(data: Any, loc: tuple) -> tuple[Any, Any] | None:
    """The (container, key) of the deepest part of `data` that `loc` reaches."""
    parent, key, node = None, None, data
    for part in loc:
        if isinstance(node, dict) and part in node:
            parent, key, node = node, part, node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            parent, key, node = node, part, node[part]
        else:
            break  # a union member's tag, a validator's name or a missing key: drop what we reached
    return None if parent is None else (parent, key)


def _remove(targets: list[tuple[Any, Any]]) -> None:
    # all targets are found before anything is removed, and list items go from the end, so that one
    # removal never shifts another's index
    by_container: dict[int, tuple[Any, set]] = {}
    for container, key in targets:
        by_container.setdefault(id(container), (container, set()))[1].add(key)
    for container, keys in by_container.values():
        for key in sorted(keys, reverse=True):
            try:
                del container[key]
            except (KeyError, IndexError):
                pass  # an enclosing part went first
