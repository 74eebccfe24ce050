"""Two Robots: the factory checker, the turn planner and the odds of the next draw."""
from __future__ import annotations

# the pages as the game's hub and the table page list them
TOOLS = [
    ("two-robots", "Factory and turn plan", "two_robots.factory_page",
     "Which energy each stack has, where each card in hand may go, and the best plays for your turn."),
    ("two-robots", "Draw odds", "two_robots.odds_page",
     "The exact chance that your next three cards finish a robot, or bring any card you want."),
]
