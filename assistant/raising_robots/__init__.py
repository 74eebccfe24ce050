"""Raising Robots: Friends. The pages as the game's hub and the table page list them, in the order a game uses
them (setup, planner, search, round end, final score; the activation checker last). The pages are in
their own modules and list none of their own."""
from __future__ import annotations

TOOLS = [
    ("raising-robots", "Competitions setup", "rr_competitions_setup.setup_page",
     "Deal one card of each competition; solo and 2P: the tokens on the round tracker and tile flips."),
    ("raising-robots", "The round", "rr_round.round_page",
     "Your phases this round and the energy of each, from the energy cards and the cubes; the running score."),
    ("raising-robots", "Competitions planner", "rr_competitions.planner_page",
     "Which competitions to complete now, in what order, paying what, and which reward to take."),
    ("raising-robots", "Friendship deck", "rr_friendship.page",
     "The Friendship deck built at setup, each draw kept on its own phone, and the odds of your next draw."),
    ("raising-robots", "Search odds", "rr_search.page",
     "Exact odds of a Search: what you will take, how deep it digs, the best criteria to name."),
    ("raising-robots", "Round end", "rr_round_end.round_end_page",
     "Johannes, Charlotte, Sacagawea and Friendship gains in the order you choose."),
    ("raising-robots", "Final score", "rr_score.score_page",
     "Every player's score line by line, Game End icons, tie-breakers and the solo target."),
    ("raising-robots", "Activation chains", "rr_activations.activations_page",
     "Check that no robot runs twice in one activation (Finite Loops Example)."),
]
