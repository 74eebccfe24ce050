"""The three games: ids used in URLs and JSON, display names, player counts."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    id: str
    name: str
    min_players: int
    max_players: int
    blurb: str
    rounds: int | None  # how many rounds a game lasts, when the rules fix it


GAMES: dict[str, Game] = {g.id: g for g in (
    Game("raising-robots", "Raising Robots: Friends", 1, 6,
         "Competitions, Search odds, end-game score and round-end abilities.", 8),
    Game("robotariat", "Rise of the Robotariat", 3, 5,
         "The board, what the NPC dice will do, and where to move.", 6),
    Game("two-robots", "Two Robots", 2, 5,
         "Stacks, hybrids, legal plays and the odds of your next draw.", None),
)}
