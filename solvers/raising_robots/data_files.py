"""Where the Raising Robots game data files live (assistant/data/raising_robots/*.toml) and the sources a
value in them may name: `rulebook` (with its section), `public` (with its URL) or `unverified`."""
from __future__ import annotations

import tomllib
from pathlib import Path

from solvers.provenance import GAME_DATA_SOURCES

DATA_DIR = Path(__file__).resolve().parents[2] / "assistant" / "data" / "raising_robots"
SOURCES = GAME_DATA_SOURCES


def read_toml(path: Path) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)
