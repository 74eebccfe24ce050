"""Two Robots turn planner: the best up-to-three plays, the Event phase sacrifice and the cleanup discard.

Exhaustive search over the cards in hand (identical cards are one choice): every legal placement of a
Part card, and every Attack card Tablebot models (`cards.Effect.modelled`: destroy by energy, Ice
Blast) played on the whole table, the other seats' factories included, aimed at its best targets
(`moves`). Part plays between two Attack cards commute, so each run of them is searched in one
canonical order; each distinct end state is scored once (`search`). Defense cards that answer an
opponent (Homing Missiles, Sentry Gunship) are never a play of your own turn ("Defense Cards"); the
plan says when keeping one matters. Cards whose effect the rulebook does not give are played only when
the player marks them `play`, after the other plays (their stack requirement is then highest), and
their effect is the player's to resolve. A plan is judged term by term (`score`); the Event phase
sacrifice (`sacrifice`) is the costly term, and branch and bound (`bound`, `seeds`) keeps it fast
without changing any answer. The steps list part plays the way a player makes them (`steps`), with
the reasons in words (`explain`).

The package's modules: `records` (the turn asked and the plan answered), `score` (the terms and their
order), `nodes` (the search's records), `stacks`, `sacrifice`, `scoring`, `bound`, `moves`, `seeds`,
`search` (the parts of `turn_planner.Planner`), `steps` and `explain` (the answer in words), `plan`
(`plan_turn`, the entry point).
"""
from .plan import plan_turn
from .records import EVENT_COST, EVENT_NAME, EVENTS, EventOption, Step, Turn, TurnPlan
from .score import PARTS, TERMS, Bar, Score, win_score
from .turn_planner import Planner

__all__ = ["EVENTS", "EVENT_COST", "EVENT_NAME", "PARTS", "TERMS", "Bar", "EventOption", "Planner", "Score", "Step",
           "Turn", "TurnPlan", "plan_turn", "win_score"]
