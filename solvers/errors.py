"""The one error a solver raises for input it cannot use; the API answers it with a 400 naming the field."""
from __future__ import annotations


class InputError(ValueError):
    """`path` names the bad field the way the API error body does ("pool[2].energy", "stacks[1]")."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message
