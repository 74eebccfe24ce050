"""The one loader of game data: `solvers/<game>/data/*.toml`, read through importlib.resources so that
it works from a checkout and from an installed package alike.

Every value in a data file says where it comes from (architecture.md): `rulebook` (stated in the
rules, with its section), `public` (a public source, with its URL) or `unverified` (a default to check
against the printed components). A game's loader may allow more (Robotariat: `example`, `tablebot`).
"""
from __future__ import annotations

import tomllib
from importlib import resources

SOURCES = ("rulebook", "public", "unverified")


def read(game: str, name: str) -> dict:
    """The parsed TOML file `name` of `solvers/<game>/data/` (game: the package name, e.g. `two_robots`)."""
    with resources.files(f"solvers.{game}").joinpath("data", name).open("rb") as f:
        return tomllib.load(f)


def path(game: str, name: str):
    """Where the file is (for messages and for tests that read it as text)."""
    return resources.files(f"solvers.{game}").joinpath("data", name)
