"""What a stored value may hold, checked at the door and repaired on the way out.

Every page renders some part of a table's state, so one value that cannot be rendered or sent as JSON
(a lone surrogate, NaN, a 4,000-digit number, an 800-level nesting, a NUL that PostgreSQL refuses)
would lock the whole table out. Writes are therefore refused with the path of the bad part
(`check`), and reads replace any bad part that was stored before these rules (`repair`, `loads`):
the page opens and the rest of the state is kept.
"""
from __future__ import annotations

import json
import logging
import math
import re
import sys
from typing import Any

MAX_DEPTH = 32  # objects and lists inside one another; the games' states use under 10
# every number is one a phone's JavaScript holds as a finite number (JSON.parse makes more Infinity),
# and one Python can turn into a float: a 4,000-digit int cannot
MAX_NUMBER = sys.float_info.max
MAX_INT_DIGITS = 309  # what the JSON reader turns into an int at all (Python's own limit is 4,300)
MAX_STATE_BYTES = 64 * 1024  # one state, as compact JSON text (the API's body limit)

_BAD_CHAR = re.compile("[\x00\ud800-\udfff]")
log = logging.getLogger(__name__)


class HugeNumber:
    """What `read_int` gives for an integer with more digits than any number may have: `check` then
    names where it was, instead of the JSON reader failing on the whole body."""

    def __init__(self, digits: int):
        self.digits = digits


def read_int(digits: str) -> int | HugeNumber:
    """`parse_int` for json.loads: int() refuses past 4,300 digits, and takes a long time before that."""
    count = len(digits.lstrip("-"))
    return int(digits) if count <= MAX_INT_DIGITS else HugeNumber(count)


class UnsafeValue(ValueError):
    """A value that may not be stored; `path` names the part (`state.table.names[0]`)."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path, self.message = path, message


def _text_problem(text: str) -> str | None:
    bad = _BAD_CHAR.search(text)
    if bad is None:
        return None
    if bad.group() == "\x00":
        return "contains a NUL character"
    return "contains a lone UTF-16 surrogate (not valid Unicode text)"


def _number_problem(value: int | float) -> str | None:
    if isinstance(value, float) and not math.isfinite(value):
        return "must be a finite number"
    if abs(value) > MAX_NUMBER:
        return "is too large: a number must stay under 1.8e308, as on a phone"
    return None


def _key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def check(value: Any, path: str = "state", *, max_bytes: int | None = MAX_STATE_BYTES) -> None:
    """Raise UnsafeValue naming the first part of `value` that may not be stored."""
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if item is None or isinstance(item, bool):
            continue
        if isinstance(item, str):
            problem = _text_problem(item)
        elif isinstance(item, int | float):
            problem = _number_problem(item)
        elif isinstance(item, HugeNumber):
            problem = f"is a number of {item.digits} digits: a number must stay under 1.8e308, as on a phone"
        elif isinstance(item, dict | list | tuple):
            if depth >= MAX_DEPTH:
                raise UnsafeValue(where, f"is nested more than {MAX_DEPTH} levels deep")
            if isinstance(item, dict):
                for key, inner in item.items():
                    if not isinstance(key, str):
                        raise UnsafeValue(where, "has a key that is not text")
                    if _text_problem(key):
                        raise UnsafeValue(where, f"has a key that {_text_problem(key)}")
                    stack.append((inner, _key_path(where, key), depth + 1))
            else:
                stack.extend((inner, f"{where}[{i}]", depth + 1) for i, inner in enumerate(item))
            continue
        else:
            problem = "is not a JSON value"
        if problem:
            raise UnsafeValue(where, problem)
    if max_bytes is not None:
        size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        if size > max_bytes:
            raise UnsafeValue(path, f"is {size // 1024} KiB; a table's state may take {max_bytes // 1024} KiB")


def _repair_text(text: str) -> str:
    if _BAD_CHAR.search(text) is None:
        return text
    return _BAD_CHAR.sub(lambda m: "" if m.group() == "\x00" else "\ufffd", text)


def repair(value: Any, depth: int = 0) -> Any:
    """`value` with every part `check` refuses replaced: bad characters dropped or replaced by U+FFFD,
    numbers out of range and anything nested too deep read as null."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _repair_text(value)
    if isinstance(value, int | float):
        return None if _number_problem(value) else value
    if isinstance(value, dict | list | tuple):
        if depth >= MAX_DEPTH:
            return None
        if isinstance(value, dict):
            return {_repair_text(str(k)): repair(v, depth + 1) for k, v in value.items()}
        return [repair(v, depth + 1) for v in value]
    return None


def _int_or_none(digits: str) -> int | None:
    return int(digits) if len(digits.lstrip("-")) <= MAX_INT_DIGITS else None


def _float_or_none(text: str) -> float | None:
    number = float(text)
    return number if math.isfinite(number) else None


def loads(text: str | bytes | None) -> dict[str, Any]:
    """A stored state read leniently: whatever was kept, the answer is an object every page can render."""
    if text is None:
        return {}
    try:
        value = json.loads(text, parse_int=_int_or_none, parse_float=_float_or_none,
                           parse_constant=lambda _name: None)
    except (ValueError, RecursionError):
        log.warning("a stored state could not be read as JSON; it reads as empty")
        return {}
    value = repair(value)
    return value if isinstance(value, dict) else {}
