"""The search's records: its own compact factory, the plays, the states it keeps and the nodes it visits.

A card is an int: its part-name index above the five energy bits (`pack`); a stack is (frozen,
sorted card ints). Stacks and their derived facts hash fast, so each distinct end state is scored
once and cheaply.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..cards import Effect
from ..factory import Part
from .score import Score

ENERGY_BITS = 31
NAME_SHIFT = 5

SStack = tuple[bool, tuple[int, ...]]


def pack(name_index: int, mask: int) -> int:
    return name_index << NAME_SHIFT | mask


class Facts(NamedTuple):
    """What a score reads of one stack."""
    mask: int      # candidate energies
    names: int     # part names as bits (cut down, see `StackFacts.info`)
    frozen: bool


class Reach(NamedTuple):
    """What a sacrifice can make of one stack, as far as outs go (see `StackFacts.reach`)."""
    short: int     # the part name it misses if unfrozen and one part short, else -1
    same: int      # energies it may take while keeping its part names
    wide: int      # every energy it may take (0 when it may go)
    gone: bool     # whether it may go


class Play(NamedTuple):
    """One play of the search: a Part card onto a stack (None: a new one), or a modelled Attack card
    with what it hits (cards named by value; factory 0 is yours). A NamedTuple: the search makes one
    for every state it visits, and a frozen dataclass is three times slower to make."""
    hand_index: int
    stack: int | None = None
    attack: bool = False
    targets: tuple[tuple[int, int, Part], ...] = ()   # (factory, stack, card) destroyed
    freeze: tuple[int, int] | None = None             # (factory, stack) frozen


@dataclass(frozen=True)
class Strike:
    """A modelled Attack card as the search applies it: your stacks after (None: untouched), the other
    seats' factories after (an index into the planner's table states), and what it hits."""
    stacks: tuple[SStack, ...] | None
    table: int
    own_lost: int
    targets: tuple[tuple[int, int, Part], ...]   # (factory, stack, card) destroyed; factory 0 is yours
    freeze: tuple[int, int] | None                # (factory, stack) frozen


@dataclass(slots=True)
class Candidate:
    """An end state of the plays with its score (None when it was below the runner-up before it was
    scored, and kept only as the state leaves start from) and its order among tied scores: the upper
    bound `Scoring.evaluate` gives before the Event phase sacrifice is worked out (the score itself
    when there is none), so that tied plans are listed in the same order whatever the search skips."""
    score: Score | None
    order: Score | None
    tail: tuple[int, ...]          # marked cards of unknown effect played after the plays
    stacks: tuple[SStack, ...]
    others: int                    # index into the planner's table states
    seq: tuple[Play, ...]


@dataclass(slots=True)
class Leaf:
    """An end state one part play after an explored state, kept light: most states are leaves and only
    a few are ever looked at again (`Search.materialize` makes the Candidate)."""
    score: Score
    order: Score
    parent: Candidate
    card: int                      # the card played
    stack: int | None              # onto this stack of the parent's (None: a new stack)
    hand_index: int


@dataclass(frozen=True)
class LeafContext:
    """What every end state after the same plays shares, whatever its stacks."""
    tail: tuple[int, ...]
    kept_reqs: tuple[int, ...]
    wanted: int
    ready: int
    kept: int
    plays: int
    pressure: tuple


def short_name(missing: int) -> int:
    """The part name a stack misses when it is one part short (`missing`: the names it lacks), else -1."""
    return missing.bit_length() - 1 if missing and not missing & (missing - 1) else -1


def add_card(stack: SStack, card: int) -> SStack:
    return stack[0], tuple(sorted(stack[1] + (card,)))


def remove_cards(stacks: Sequence[SStack], picks: Sequence[tuple[int, int]]) -> tuple[SStack, ...]:
    out = []
    for i, s in enumerate(stacks):
        cards = list(s[1])
        for k, c in picks:
            if k == i:
                cards.remove(c)
        if cards:
            out.append((s[0], tuple(cards)))
    return tuple(out)


@dataclass(frozen=True)
class AttackType:
    """A kind of modelled Attack card in hand: identical cards are one choice."""
    effect: Effect
    stacks_required: int
    marked: bool
    hand_indices: tuple[int, ...]


@dataclass(slots=True)
class Node:
    """A state of the search after some plays, with what its children are built from: your stacks and
    their facts (and reaches, only when an Event is to be paid), the copies of each kind of Part card
    and of each kind of Attack card played, the other seats' factories (an index into the planner's
    table states), your own parts destroyed, the parts in unfrozen stacks, your active robots, the
    plays. `adding` and
    `first` keep the part plays of a run in canonical order (`Moves.part_moves`); after an Attack card
    that leaves your stacks alone only Attack cards follow (`attacks_only`)."""
    stacks: tuple[SStack, ...]
    infos: tuple[Facts, ...]
    reaches: tuple[Reach | None, ...]
    used: tuple[int, ...]
    used_attacks: tuple[int, ...]
    table: int
    own_lost: int
    free: int
    robots: int
    seq: tuple[Play, ...]
    adding: bool = False
    first: int = 0
    attacks_only: bool = False
