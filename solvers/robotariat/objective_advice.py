"""Advice that knows one player's secret objective (rulebook "Secret Objectives"; reading `objective-advice`).

The shared score (value.py) ranks turns for the Revolution. A player who tells their own phone their
objective gets the same search with a bonus for what the objective needs, in SPARK-equivalents:

  the objective met at a success             weight (50 unless changed)
  a step towards it while the game goes on   a tenth of the weight, scaled by how far the step goes

Saboteur: Reputation exactly 1 at the success; steps: Reputation at 2 (one loss from landing on 1),
  less at 1 (no room left). Traffic Director: every Oppressor on one space at the success; steps:
  Oppressors gathered on one space. Bursar: the Contributions track has reached its amount and later
  stood at 0; steps: the track rising to the amount, then falling back to 0. Scrapper: `threshold`
  posters torn down in one turn (this turn: the player's turn and the NPC turn after it); steps: posters
  torn down this turn. Dealer, Turncoat, Gambler: a card draw counts as a card played. Spy: nothing on
  the board helps, so no bonus.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .model import SUCCESS
from .objectives import NAMES

CARD_OBJECTIVES = ("dealer", "turncoat", "gambler")


@dataclass(frozen=True, kw_only=True)
class Goal:
    objective: str
    weight: Fraction = Fraction(50)
    threshold: int = 0  # the Bursar's amount, the Scrapper's posters, the Turncoat's cards (this player count)
    reached: bool = False  # Bursar: the track has hit the amount already this game

    @property
    def step(self) -> Fraction:
        return self.weight / 10

    def roll_term(self, *, reputation: int, ended: str | None, office: int, junked: int,
                  oppressors: tuple[int, ...]) -> Fraction:
        """The bonus for the table after one roll of the NPC turn (`junked`: posters torn down this turn)."""
        o, w = self.objective, self.weight
        if o == "saboteur":
            if ended == SUCCESS:
                return w if reputation == 1 else Fraction(0)
            return self.step if reputation == 2 else (self.step / 2 if reputation == 1 else Fraction(0))
        if o == "traffic_director":
            together = bool(oppressors) and len(set(oppressors)) == 1
            if ended == SUCCESS:
                return w if together else Fraction(0)
            if len(oppressors) < 2:
                return Fraction(0)
            biggest = max(oppressors.count(x) for x in set(oppressors))
            return self.step * Fraction(biggest - 1, len(oppressors) - 1)
        if o == "bursar" and self.threshold:
            reached = self.reached or office >= self.threshold
            met = self.reached and office == 0
            if ended == SUCCESS:
                return w if met else Fraction(0)
            if met:
                return 2 * self.step
            if reached:
                return self.step * (1 + Fraction(self.threshold - min(office, self.threshold), self.threshold))
            return self.step * Fraction(office, self.threshold)
        if o == "scrapper" and self.threshold:
            if junked >= self.threshold:
                return w if ended == SUCCESS else w / 2
            return self.step * Fraction(junked, self.threshold)
        return Fraction(0)

    def turn_term(self, draws_a_card: bool) -> Fraction:
        """The bonus for the turn itself: a card draw, for the objectives that count cards played."""
        return self.step if draws_a_card and self.objective in CARD_OBJECTIVES else Fraction(0)

    def how(self) -> str:
        """What the bonus rewards, in a few words for the suggestion's line."""
        return {"saboteur": "keeps Reputation at 2 for a landing on exactly 1",
                "traffic_director": "brings the Oppressors together on one space",
                "bursar": ("brings the office track back to 0" if self.reached
                           else f"raises the office track towards {self.threshold}"),
                "scrapper": f"tears down posters towards {self.threshold} in one turn",
                "dealer": "a card drawn counts as a card you played",
                "turncoat": f"a card drawn counts towards {self.threshold} cards played",
                "gambler": "a draw is a chance at “Sliding Scale” or “Adjust Traffic Reports”",
                "spy": "nothing on the board helps the Spy"}[self.objective]

    @property
    def name(self) -> str:
        return NAMES[self.objective]
