"""Rise of the Robotariat: the board and its editor, the NPC turn, suggestions, look-ahead, the game
data and the secret objectives."""
from __future__ import annotations

# the pages as the game's hub and the table page list them, in the order a game uses them
TOOLS = [
    ("robotariat", "Board, forecast and moves", "robotariat.play",
     "Your pieces on the board; what the NPC dice will do; where the active player should go."),
    ("robotariat", "Enter the board", "robotariat_board.guide",
     "Your printed board in about 5 minutes: each space's kind, arrows and black lines, by tapping."),
    ("robotariat", "Board editor", "robotariat_board.editor",
     "Draw or fix the board by tapping; copy another table's board by its code, or a file."),
    ("robotariat", "Game data", "robotariat_facts.game_data",
     "Die faces, Office Rewards and starting Reputation: defaults to check against your components."),
    ("robotariat", "Objectives at the end", "robotariat_facts.objectives",
     "Which secret objectives are met when the game ends, and whether the Revolution succeeded."),
]
