"""One way to turn a solver's or a model's complaint into what a page shows next to the field.

A problem is a field path (as the page's input names, see paths.py) and one sentence in players'
words. Pages show a problem beside its field (`ui.problem(problems, path)`) and the rest at the top.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from solvers.errors import InputError

from . import paths

_PYDANTIC_WORDS = (
    ("Input should be greater than or equal to ", "at least "),
    ("Input should be less than or equal to ", "at most "),
    ("Input should be a valid integer, unable to parse string as an integer", "a whole number is needed"),
    ("Input should be a valid integer", "a whole number is needed"),
    ("Input should be a valid number, unable to parse string as a number", "a number is needed"),
    ("Input should be a valid boolean", "yes or no"),
    ("Input should be a valid string", "some text is needed"),
    ("Input should be ", "must be "),
    ("String should have at most ", "at most "),
    ("List should have at most ", "at most "),
    ("Field required", "this is needed"),
    ("Extra inputs are not permitted", "not a field of this page"),
    ("Value error, ", ""),
    ("Assertion failed, ", ""),
)


@dataclass(frozen=True)
class Problem:
    path: str  # the field it is about ("" when it is about the whole page)
    message: str


def plain(message: str) -> str:
    for old, new in _PYDANTIC_WORDS:
        if message.startswith(old):
            message = new + message[len(old):]
    return message


def from_validation(err: ValidationError, data: Any = None, prefix: str = "") -> list[Problem]:
    out = []
    for e in err.errors(include_url=False):
        path = paths.from_loc(data, tuple(e["loc"])) if data is not None else ".".join(map(str, e["loc"]))
        out.append(Problem(f"{prefix}{path}" if prefix and path else (prefix.rstrip(".") or path), plain(e["msg"])))
    return out


def from_input_error(err: InputError, prefix: str = "") -> list[Problem]:
    """A solver's InputError names its field as `a.b[2].c`; pages name fields `a.b.2.c`."""
    path = err.path.replace("[", ".").replace("]", "")
    return [Problem(f"{prefix}{path}", plain(err.message))]


def at(problems: list[Problem], path: str) -> list[str]:
    return [p.message for p in problems if p.path == path]


def elsewhere(problems: list[Problem], shown: set[str]) -> list[Problem]:
    """The problems no field of the page shows (for the list at the top of the form)."""
    return [p for p in problems if p.path not in shown]
