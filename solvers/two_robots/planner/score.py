"""How the planner compares plans: a plan's terms, in this order (the first difference decides).

 1. won: two active robots after the plays (frozen ones count) ends the game at once, and then
    only the fewest plays matter;
 2. event: the Event phase option the player asked for can be paid;
 3. robots: active robots left after the Event phase sacrifice;
 4. wanted: Attack/Defense cards marked `play` that get played;
 5. own_lost: fewer of your own Part cards destroyed by your Attack cards;
 6. pressure: the opponents pushed back, nearest first (`attacks.Pressure`);
 7. outs: unseen cards that would each finish a robot next turn (more outs = better next draw);
 8. ready: Attack/Defense cards kept in hand whose stack requirement is met;
 9. progress: distinct parts per stack, most built stack first (compared stack by stack);
10. kept: fewer cards lost to the hand limit at cleanup;
11. plays: fewer plays (cards kept in hand stay flexible and out of reach of Attack cards).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

TERMS = ("won", "event", "robots", "wanted", "own_lost", "pressure", "outs", "ready", "progress", "kept", "plays")
PARTS = 4  # distinct part names in a robot ("How to Build a Robot")


class Score(NamedTuple):
    """A plan's terms in comparison order (see the module docstring)."""
    won: bool
    event: bool
    robots: int
    wanted: int
    own_lost: int      # minus your own Part cards destroyed
    pressure: tuple    # Pressure.key() of the opponents after the plays
    outs: int
    ready: int
    progress: tuple[int, ...]
    kept: int          # minus the cards discarded at cleanup
    plays: int         # minus the number of plays

    def key(self) -> tuple:
        return tuple(self)


def win_score(robots: int, plays: int) -> Score:
    """The score of every plan that has two active robots (`robots`) after `plays` plays: the game
    ends there, so no Event phase, hand or table after it counts, and fewer plays are better. The one
    place a win is scored."""
    return Score(won=True, event=True, robots=robots, wanted=0, own_lost=0, pressure=(), outs=0, ready=0,
                 progress=(), kept=0, plays=-plays)


@dataclass(slots=True)
class Bar:
    """The best and the runner-up exact scores met so far: a state whose score (or upper bound) is
    below the runner-up can never be the best, tie with it, or be the runner-up, so it is not kept."""
    best: Score | None = None
    runner: Score | None = None
    states: int = 0   # end states met
    cut: int = 0      # states whose later plays were not searched (`Bounds.below_runner`)

    def meet(self, score: Score) -> None:
        if self.best is None or score > self.best:
            self.runner, self.best = self.best, score
        elif score < self.best and (self.runner is None or score > self.runner):
            self.runner = score

    def keeps(self, score: Score) -> bool:
        return self.runner is None or score >= self.runner
