"""Rule entry ids the Robotariat answers cite (rulebook section slugs, fixed by the rules data).

The character sections' ids follow the rules data's slug of each heading; they are kept here, in one
place, and tests/test_robotariat_api.py checks every id below exists in the rules index.
"""
from __future__ import annotations

CHARACTER_RULES = {"a1_5": "rb-a1-5", "arcitech": "rb-arcitech", "uberbot": "rb-berbot",
                   "mr_postman": "rb-mr-postman", "mt_rho": "rb-mt", "electric_eye": "rb-electric-eye",
                   "wally_st": "rb-wally-st", "alice_smith": "rb-alice-smith"}
CHARACTER_READINGS = {"alice_smith": "rb-reading-alice-smith", "mt_rho": "rb-reading-mt-rho"}
