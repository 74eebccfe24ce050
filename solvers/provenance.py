"""Where a game-data value comes from; every data file says it for each value (architecture.md)."""
from __future__ import annotations

# rulebook: stated in the rules; public: a public source (with its URL); unverified: a default to check
# against the printed components
GAME_DATA_SOURCES = ("rulebook", "public", "unverified")
