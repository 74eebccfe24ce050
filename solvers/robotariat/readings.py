"""How Tablebot's Robotariat planner reads what the rules leave open (GET /api/robotariat/readings).

Each answer's `readings` field lists the ids it relies on; `rules` lists rule entry ids, and includes
each reading's `entry`: the rules assistant's entry (kind "reading") that states it for players, so a
page can link `/rules/<entry>`. These are Tablebot's readings, in our own words, not rules text.
"""
from __future__ import annotations

from .rule_ids import CHARACTER_RULES as CR

READINGS: list[dict] = [
    {"id": "planner-score", "entry": "rb-reading-planner-score",
     "title": "What “better” means for the planner",
     "text": ("Tablebot scores a table state in SPARK-equivalents: funds x spark weight + Reputation x "
              "reputation weight + future donations (the Office Reward at the current contributions times the "
              "expected civilian visits to a Recruitment Office over the look-ahead horizon, and for each poster "
              "the expected civilian visits to its space), + win bonus if the Revolution succeeded, - loss "
              "penalty if it failed. Defaults: spark 1, reputation 5, office 1, poster 1, win 100, loss 100, "
              "horizon one round of NPC turns (cut at the end of round 6). It also counts what is already known to "
              "come before each player's piece moves again: +1 SPARK for every Civilian expected to move onto "
              "it and -2 for every Oppressor (the exact expected arrivals on each NPC's own die, the entry "
              "track's NPC entering at the round start where the X faces take the Entry token included), and "
              "the NPC turn right before a round start is valued after that round start's entry, exactly. A "
              "move's score is the exact expectation of this value after the NPC turn that follows, minus its "
              "value now. The same score "
              "picks Alice Smith's path, MT-ρ's re-roll and ArciTech's re-posted poster. All weights and the "
              "horizon can be changed per request."),
     "rules": ["rb-npc-turn", "rb-game-end", "rb-revolution-table", "rb-character-abilities"]},
    {"id": "donation-parts", "entry": "rb-reading-donation-parts",
     "title": "A civilian's donation that reaches the target",
     "text": ("A civilian's encounter gives its parts in the rulebook's order: players, then posters, then the "
              "Office Reward. Each part is added whole; the Revolution succeeds as soon as the funds reach the "
              "target, and the parts after that are not added. This only changes the funds shown, never who wins."),
     "rules": ["rb-encounter-quick-reference-table", "rb-game-end"]},
    {"id": "choice-ties", "entry": "rb-reading-choice-ties",
     "title": "Ties inside the NPC turn",
     "text": ("Alice Smith takes the yellow path when both paths are worth the same (and the answer says it was a "
              "tie). MT-ρ keeps a roll worth exactly the average of a fresh roll. ArciTech declines a re-post "
              "that gains nothing, and otherwise takes the first best space in board order."),
     "rules": ["rb-character-abilities", CR["alice_smith"], CR["mt_rho"], CR["arcitech"]]},
    {"id": "arcitech-not-at-round-start", "entry": "rb-reading-arcitech",
     "title": "ArciTech and the round-start entry",
     "text": ("ArciTech's re-post is once per NPC turn. The NPC that enters at the start of a round is not part of "
              "an NPC turn, and neither is an NPC moved by Move the Masses, so Tablebot does not offer the re-post "
              "then."),
     "rules": [CR["arcitech"], "rb-round-order", "rb-activation-move-the-masses"]},
    {"id": "suggestion-options", "entry": "rb-reading-suggestions",
     "title": "Which turns the suggestions list",
     "text": ("The active player may stay or move along one black line, and may activate either the space they "
              "leave (before moving) or the space they reach (after moving), not one with an Oppressor on it. "
              "Sabotage and Upgrade draws are listed, scored like not activating, because the cards are unknown. "
              "Scrap Yard placements are tried on the spaces an NPC can reach next turn plus the best other "
              "space; when that is too many, posters are placed one at a time where they score best. "
              "On boards of more than 16 spaces, a placed poster is tried where an NPC can move next or enter, "
              "and on the best other space, and Move the Masses' six best NPC moves (with the player staying) "
              "are tried with each move of the player. Mr. Postman's and WallyST's extra poster moves are "
              "applied at the end of the turn; the three that are "
              "best on their own are tried with the five best options (Mr. Postman's among the moves from the three best spaces to take a poster from to the four best to put it on)."),
     "rules": ["rb-player-turn", "rb-types-of-space-activations", CR["mr_postman"], CR["wally_st"]]},
    {"id": "lookahead-scope", "entry": "rb-reading-lookahead",
     "title": "What the look-ahead assumes",
     "text": ("The k-turn look-ahead rolls both dice every NPC turn: it does not model Alice Smith's choice, "
              "MT-ρ's re-rolls, Move the Masses or NPCs entering at round start. “Reach” is the chance that an "
              "NPC moves onto the space at some turn within k (a move is what triggers an encounter); "
              "“present” is the chance one stands there after k turns."),
     "rules": ["rb-npc-turn", "rb-rolling-for-human-oppressor-civilian-robot-movement"]},
    {"id": "objective-history", "entry": "rb-reading-objective-history",
     "title": "Reading the objectives from the table's history",
     "text": ("A turn, for the Scrapper, is one player's turn together with the NPC turn they conduct after it; "
              "the round-start entry counts as a turn of its own. The Bursar needs the Contributions track to "
              "reach the threshold and, at any later moment, stand at 0. Cards played are Upgrade and Sabotage "
              "cards; A1-5's setup card does not count. The Traffic Director needs at least one Oppressor on the "
              "board, all on one space. With Completely Cooperative Mode nobody has an objective and everyone "
              "wins if the Revolution succeeds within 6 rounds."),
     "rules": ["rb-secret-objectives", "rb-scrapper", "rb-bursar", CR["a1_5"], "rb-traffic-director",
               "rb-completely-cooperative-mode"]},
    {"id": "game-forecast", "entry": "rb-reading-game-forecast",
     "title": "How the whole-game forecast plays the game out",
     "text": ("From the table as it is, every player in turn plays the suggestions' best turn, the NPC turn "
              "follows with every roll at its exact chance, each round starts with the entry track's NPC, and "
              "the game ends when the SPARK target is reached, Reputation hits 0 or round 6 is over. When the "
              "tree of rolls is small (late in the game) every branch is counted and the chances are exact; "
              "otherwise Tablebot plays many whole games with a fixed random seed and shows each chance with "
              "its 95 % range. In those games a turn is picked by a quick estimate of the suggestions' score "
              "(the score itself decides near the game's end), which ends games as often as the suggestions "
              "themselves within the strength benchmark's 95 % intervals. The games are kept for the table state and shared by every phone, so each "
              "view narrows the range. Sabotage and Upgrade draws are played as if the space were not used, because "
              "the card texts are unknown, and secret objectives play no part."),
     "rules": ["rb-game-end", "rb-revolution-table", "rb-round-order", "rb-npc-turn"]},
    {"id": "objective-advice", "entry": "rb-reading-objective-advice",
     "title": "How a secret objective changes the advice",
     "text": ("When a player tells their own phone their secret objective, that phone's suggestions add a bonus "
              "for what the objective needs on top of the shared score: the Revolution succeeding the way the "
              "objective asks (worth the objective weight, 50 unless changed), and smaller steps towards it "
              "(Reputation kept at 2 for a Saboteur, Oppressors gathered for a Traffic Director, the office "
              "track for a Bursar, tear-downs in one turn for a Scrapper, card draws for a Dealer, Turncoat or "
              "Gambler). The objective is sent with that one request and never saved with the table. The Spy's "
              "objective does not depend on the board, so it changes nothing."),
     "rules": ["rb-secret-objectives", "rb-reading-planner-score"]},
    {"id": "card-effects", "entry": "rb-reading-card-effects",
     "title": "What a card in play does",
     "text": ("The players enter what an Upgrade or Sabotage card does as they read it (the texts are not public): a "
              "piece moved (an NPC meets the space where it stops), a die set to one face for an NPC turn, SPARK "
              "taken or given (Funds or Office Contributions), or Reputation changed, at the start of a turn, as "
              "an NPC turn starts, or at the next round start. A held Upgrade card acts at every such moment of "
              "its holder (or of any player); a played Sabotage card once, then it is turned face down. Any "
              "other effect is named under the answers as not taken into account. The look past the coming NPC "
              "turn leaves the cards out."),
     "rules": ["rb-activation-sabotage", "rb-activation-upgrade", "rb-unverified-cards"]},
]

READING_ENTRIES = {r["id"]: r["entry"] for r in READINGS}


def with_reading_entries(rules: list[str], readings: list[str], *more: str) -> list[str]:
    """`rules` followed by the entries of `readings` and any `more` ids, each id once, order kept."""
    out = list(rules)
    for rid in [READING_ENTRIES[r] for r in readings] + list(more):
        if rid not in out:
            out.append(rid)
    return out
