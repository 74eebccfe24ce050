"""Rule entry ids the Robotariat answers cite (rulebook section slugs, fixed by the rules data).

The character sections' ids follow the rules data's slug of each heading; they are kept here, in one
place, and tests/test_robotariat_api.py checks every id below exists in the rules index.
"""
from __future__ import annotations

CHARACTER_RULES = {"a1_5": "rb-a1-5", "arcitech": "rb-arcitech", "uberbot": "rb-uberbot",
                   "mr_postman": "rb-mr-postman", "mt_rho": "rb-mt", "electric_eye": "rb-electric-eye",
                   "wally_st": "rb-wally-st", "alice_smith": "rb-alice-smith"}
# Tablebot's readings (rule entries of kind "reading") of the characters whose choices the solvers make
CHARACTER_READINGS = {"alice_smith": "rb-reading-alice-smith", "mt_rho": "rb-reading-mt-rho",
                      "arcitech": "rb-reading-arcitech"}
# readings behind one objective's check (the objectives answer adds them to that check's rules)
OBJECTIVE_READINGS = {"bursar": ["rb-reading-objective-history"], "dealer": ["rb-reading-cards-played"],
                      "gambler": ["rb-reading-cards-played"], "scrapper": ["rb-reading-scrapper-turn"],
                      "traffic_director": ["rb-reading-traffic-director"],
                      "turncoat": ["rb-reading-cards-played"]}
# readings behind one suggested option: a card draw scored as not activating, a bounded search
CARD_DRAW_READING = "rb-reading-card-draws"
SEARCH_LIMITS_READING = "rb-reading-suggestion-limits"
