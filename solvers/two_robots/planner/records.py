"""What the planner is asked and what it answers: the turn, the plan's steps, the Event options, the plan."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..attacks import PartRef
from ..cards import HandCard
from ..factory import Factory, Part
from ..odds import UnseenCard
from .score import Score

EVENTS = ("none", "power", "active_robot")
EVENT_COST = {"power": 2, "active_robot": 1}
EVENT_NAME = {"power": "option A, use a Power card", "active_robot": "option B, reveal an Active Robot card"}


@dataclass(frozen=True)
class Turn:
    factory: Factory
    hand: tuple[HandCard, ...]
    part_names: tuple[str, ...]
    unseen: tuple[UnseenCard, ...] = ()
    actions: int = 3
    event: str = "none"
    powers_left: int = 3
    hand_limit: int = 7
    others: tuple[Factory, ...] = ()      # the other seats' factories, in seat order
    labels: tuple[str, ...] = ()          # names for [you, *others]; "Seat n" when not given

    def label(self, k: int) -> str:
        if k == 0:
            return "you"
        return self.labels[k] if k < len(self.labels) else f"Seat {k + 1}"


@dataclass(frozen=True)
class Step:
    phase: str                 # "play", "event", "cleanup"
    action: str                # "part", "attack", "defense", "sacrifice", "discard"
    card: str                  # the card's label
    hand_index: int | None     # index in the hand given (plays and discards)
    stack: int | None          # play: target stack (None = new stack); sacrifice: stack it leaves
    new_stack: bool
    why: str
    rules: tuple[str, ...]
    destroyed: tuple[PartRef, ...] = ()   # an Attack card's Part cards taken (factory 0 is yours)
    frozen: tuple[int, int] | None = None  # Ice Blast: (factory, stack) frozen
    destroys_own: bool = False


@dataclass(frozen=True)
class EventOption:
    event: str
    available: bool
    sacrifice: tuple[tuple[int, Part, str], ...]   # (stack in the factory after plays, card, why)
    breaks_robot: bool
    why: str


@dataclass
class TurnPlan:
    steps: list[Step]
    score: Score
    factory_after_plays: Factory
    factory_after: Factory
    others_after: tuple[Factory, ...]
    hand_after: list[int]
    discards: list[int]
    p_robot_next_draw: Fraction
    summary: str
    reasons: list[str]
    runner_up: str | None
    ties: list[str]
    event_options: list[EventOption]
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)   # plays that destroy your own parts, said plainly
    explored: int = 0
