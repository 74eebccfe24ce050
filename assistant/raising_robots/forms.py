"""Reading the Raising Robots pages' no-JS forms: whole numbers within bounds, each problem named by its
field, so the page can say what to fix and keep everything else that was typed."""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from solvers.errors import InputError

from ..api import ApiError, validation_error

_UNSET: Any = object()


class FormReader:
    """`form` is the posted form (or the query string); `problems` collects {"path", "message"} entries."""

    def __init__(self, form):
        self.form = form
        self.problems: list[dict] = []

    def int(self, name: str, lo: int, hi: int, default: int | None, *, label: str = "", path: str = "",
            blank: int | None = _UNSET) -> int | None:
        """The whole number typed in field `name`: `blank` (or `default`) when empty, `default` with a
        problem when it is not a whole number from `lo` to `hi`."""
        raw = str(self.form.get(name) or "").strip()
        if raw == "":
            return default if blank is _UNSET else blank
        try:
            value = int(raw)
        except ValueError:
            return self._problem(name, path, label, f"“{raw[:20]}” is not a whole number", default)
        if not lo <= value <= hi:
            return self._problem(name, path, label, f"must be between {lo} and {hi}", default)
        return value

    def choice(self, name: str, allowed, default: str) -> str:
        value = self.form.get(name)
        return value if isinstance(value, str) and value in allowed else default

    def _problem(self, name: str, path: str, label: str, message: str, default: int | None) -> int | None:
        self.problems.append({"path": path or name, "message": f"{label}: {message}" if label else message})
        return default


def whole(raw: Any, lo: int, hi: int, default: int) -> int:
    """A stored number read safely: an int (not a bool) from lo to hi, else the default."""
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and lo <= raw <= hi else default


def answer_or_problems(fn, *args) -> tuple[Any, list[dict]]:
    """Run the same solver call the API makes; a page shows what the API would answer with a 400 as
    problems named by field, next to what was entered."""
    try:
        return fn(*args), []
    except ValidationError as err:
        return None, validation_error(err).fields or []
    except ApiError as err:
        return None, err.fields or [{"path": "body", "message": err.message}]
    except InputError as err:
        return None, [{"path": err.path or "body", "message": err.message}]
