"""Two Robots variations as table settings ("Variations"): 2v2 teams and the two house rules.

The rulebook names them and leaves their details to the table; Tablebot's readings (rule entries
`tr-reading-teams` and `tr-reading-house-rules`):
- 2v2 teams, with four players: the partners share the win. A team wins when the other team's Salvagers
  are all out, or when one of its Salvagers wins the ordinary way (two robots, a house rule). An Attack
  card spares the partner: a partner's Part card or stack is a legal target only when the card has no
  other legal target (the player's own Part cards come before the partner's). A partner is no opponent:
  its Sentry Gunship cannot cancel the partner's Event ("Defense Cards": an opponent's Event Phase).
- A perfectly uniform robot (the rulebook's example: the four Part cards of the Electrical/Nuclear
  hybrid): a stack holding one card of each part name, all four with the same energies (one core, or the
  same hybrid pair); spare copies do not matter. With the house rule on, it wins the game.
- Five Stacks: a Factory with all five Energy Stacks (a lone hybrid counts as a stack, and a frozen one
  still counts: "Attack / Defense Cards", "Frozen Stacks"). With the house rule on, it wins the game.
The rulebook asks the table to agree on what each house rule gives; the reward Tablebot applies is the
win, and the settings say so.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence

from .factory import MAX_STACKS, Factory, Stack, analyse

TEAM_SEATS = 4
UNIFORM_ROBOT, FIVE_STACKS = "uniform_robot", "five_stacks"
HOUSE_RULES = {UNIFORM_ROBOT: "A perfectly uniform robot wins", FIVE_STACKS: "Five Stacks in a Factory win"}


def check_teams(teams: Sequence[int] | None, seats: int) -> str | None:
    """Why these teams cannot be played (None: they can, or there are none): 2v2 is four players in two
    teams of two ("Variations")."""
    if teams is None:
        return None
    if seats != TEAM_SEATS:
        return f"2v2 teams are played with four players; this table has {seats}"
    if len(teams) != TEAM_SEATS or sorted(teams) != [0, 0, 1, 1]:
        return "2v2: two teams of two players each"
    return None


def partner(teams: Sequence[int] | None, seat: int) -> int | None:
    """The seat's partner in 2v2 (None without teams)."""
    if not teams or seat >= len(teams):
        return None
    return next((k for k, t in enumerate(teams) if t == teams[seat] and k != seat), None)


def team_seats(teams: Sequence[int], team: int) -> list[int]:
    return [k for k, t in enumerate(teams) if t == team]


def opponents(teams: Sequence[int] | None, seat: int, seats: int) -> list[int]:
    """The seats an Event or an Attack card of `seat` is against: everyone else, the partner excepted."""
    mate = partner(teams, seat)
    return [k for k in range(seats) if k not in (seat, mate)]


def uniform_robot(stack: Stack, part_names: Sequence[str]) -> bool:
    """One card of each part name, all with the same energies (spare copies aside)."""
    for mask in {c.mask for c in stack.cards}:
        if {c.part for c in stack.cards if c.mask == mask} >= set(part_names):
            return True
    return False


def has_uniform_robot(factory: Factory, part_names: Sequence[str]) -> bool:
    return any(uniform_robot(s, part_names) for s in factory.stacks)


def has_five_stacks(factory: Factory) -> bool:
    return len(factory.stacks) >= MAX_STACKS


def won_by(factory: Factory, part_names: Sequence[str], house_rules: Collection[str] = ()) -> str | None:
    """How this factory wins, if it does: two robots ("Objective"), else a house rule that is on."""
    if analyse(factory, part_names).won:
        return "two_robots"
    if UNIFORM_ROBOT in house_rules and has_uniform_robot(factory, part_names):
        return UNIFORM_ROBOT
    if FIVE_STACKS in house_rules and has_five_stacks(factory):
        return FIVE_STACKS
    return None
