"""Two Robots hand: where each card may go, whether an Attack or Defense card may be played now, and
what in the hand cannot work ("Stacking Part Cards", "Attack / Defense Cards", "Defense Cards")."""
from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from .attacks import AttackAnswer, resolve
from .cards import CANCEL_EVENT, COUNTER_ATTACK, UNKNOWN, Effect, HandCard, effect_of
from .factory import (
    MAX_STACKS,
    Factory,
    Part,
    Placement,
    energy_text,
    matchable,
    or_list,
    placements,
    possible_masks,
    title,
    why_not_here,
)


@dataclass(frozen=True)
class HandView:
    card: HandCard
    playable: bool                   # may be played on your turn now
    requirement_met: bool            # enough unique stacks for its gold number (Attack and Defense cards)
    effect: Effect
    placements: tuple[Placement, ...]
    attack: AttackAnswer | None      # an Attack card Tablebot models: its targets on the whole table
    why: str
    rules: tuple[str, ...]


def _where(p: Placement) -> str:
    """A placement in a few words: where, and what it does to that stack."""
    if p.stack is None:
        where = f"as a new {title(p.energy)} stack" if p.energy else \
            f"as a new stack, still open ({or_list([title(e) for e in p.possible])})"
    else:
        where = f"on stack {p.stack + 1}"
        if p.completes_robot:
            where += ", completing a robot"
        elif p.duplicate:
            where += " as a spare copy"
    if p.forces:
        where += " (" + ", ".join(f"stack {k + 1} becomes {title(e)}" for k, e in p.forces) + ")"
    return where


def _requirement(factory: Factory, card: HandCard) -> tuple[bool, str]:
    n, need = len(factory.stacks), card.stacks_required
    frozen = sum(s.frozen for s in factory.stacks)
    count = f"you have {n} stack{'s' if n != 1 else ''}" + (f" ({frozen} frozen, which still count)" if frozen else "")
    ok = n >= need
    return ok, (f"Needs {need} unique stack{'s' if need != 1 else ''} and {count}." if ok else
                f"Needs {need} unique stack{'s' if need != 1 else ''} but {count}.")


REACTIVE_WHY = {
    COUNTER_ATTACK: ("It is played out of turn, when an opponent's Attack card goes for the parts in your factory; "
                     "on your own turn it only answers their Homing Missiles against your Attack, so it is no play "
                     "of yours."),
    CANCEL_EVENT: "It is played out of turn, to cancel an opponent's Event card in their Event Phase, so it is no play "
                  "of your turn.",
}


def hand_view(factory: Factory, card: HandCard, part_names: Sequence[str], table: Sequence[Factory] | None = None,
              player: int = 0, labels: Sequence[str] | None = None, spared: Collection[int] = ()) -> HandView:
    """Where a card in hand may go or whether it may be played now. `table` is every seat's factory,
    the player's at `player` (alone when not given): what a modelled Attack card may hit (a 2v2 partner,
    `spared`, only when nothing else is legal)."""
    n = len(factory.stacks)
    if card.kind != "part" or card.part is None:
        effect = effect_of(card)
        ok, why = _requirement(factory, card)
        rules = ("tr-attack-defense-cards",) + (("tr-frozen-stacks",) if any(s.frozen for s in factory.stacks)
                                                else ()) + effect.rules
        if effect.reactive:
            return HandView(card=card, playable=False, requirement_met=ok, effect=effect, placements=(), attack=None,
                            why=f"{why} {REACTIVE_WHY[effect.kind]}", rules=rules)
        if not effect.modelled:
            return HandView(card=card, playable=ok, requirement_met=ok, effect=effect, placements=(), attack=None,
                            why=f"{why} What it does is not in the rulebook: it is yours to resolve.", rules=rules)
        factories = tuple(table) if table is not None else (factory,)
        attack = resolve(effect, factories, player, part_names, labels, spared)
        return HandView(card=card, playable=ok and attack.playable, requirement_met=ok, effect=effect, placements=(),
                        attack=attack, why=f"{why} {attack.why}", rules=rules + attack.rules)
    ps = placements(factory, card.part, part_names)
    if ps:
        why = "May go " + or_list([_where(p) for p in ps]) + "."
    else:
        reasons = [why_not_here(factory, card.part, k) for k in [*range(n), None]]
        why = "No legal place. " + " ".join(reasons)
    return HandView(card=card, playable=bool(ps), requirement_met=True, effect=Effect(UNKNOWN), placements=tuple(ps),
                    attack=None, why=why, rules=("tr-stacking-part-cards", "tr-energy-stacks"))


def new_stacks_within(factory: Factory, parts: Sequence[Part], plays: int) -> int:
    """The most new stacks the part cards can start with `plays` plays ("Attack / Defense Cards" note:
    a new stack counts at once, even a lone hybrid). Playing on an existing stack only narrows its
    energies, so it never helps to start more."""
    masks = factory.masks()
    room = min(plays, MAX_STACKS - len(masks), len(parts))
    kinds = sorted({c.mask for c in parts})
    count = {m: sum(c.mask == m for c in parts) for m in kinds}
    for k in range(room, 0, -1):
        for pick in combinations_with_replacement(kinds, k):
            if all(pick.count(m) <= count[m] for m in set(pick)) and matchable(masks + pick):
                return k
    return 0


@dataclass(frozen=True)
class HandProblem:
    hand: int                  # index of the card in the hand
    stacks: tuple[int, ...]    # the stacks the sentence names
    message: str


def _no_place(factory: Factory, card: Part) -> tuple[tuple[int, ...], str]:
    """Why a part card fits nowhere, as one sentence (it has been checked to fit nowhere)."""
    poss = possible_masks(factory.masks())
    reasons: list[str] = []
    named: list[int] = []
    for k, s in enumerate(factory.stacks):
        if not s.mask & card.mask:
            continue
        named.append(k)
        reasons.append(f"stack {k + 1} is frozen" if s.frozen else
                       f"on stack {k + 1} it would leave that stack {energy_text(s.mask & card.mask)}, "
                       "which another stack needs")
    if len(factory.stacks) >= MAX_STACKS:
        reasons.append("you already have a stack for each of the five energies")
    else:
        holders = [k for k, m in enumerate(poss) if m & card.mask and m.bit_count() == 1]
        named += [k for k in holders if k not in named]
        who = or_list([f"stack {k + 1}" for k in holders], "and") if holders else "your other stacks"
        reasons.append(f"a new stack would need {or_list([title(e) for e in card.energies], 'or')}, "
                       f"which {who} {'holds' if len(holders) == 1 else 'hold'}")
    return tuple(sorted(named)), f"{card.label()} in your hand has no legal place: {'; '.join(reasons)}."


def hand_problems(factory: Factory, views: Sequence[HandView], plays: int = 3) -> list[HandProblem]:
    """What in the hand cannot work in this factory, one sentence each: a part card with no legal
    place now, and an Attack or Defense card whose stack requirement stays out of reach even after
    `plays` plays that each start a new stack from the part cards in hand."""
    out: list[HandProblem] = []
    parts = [v.card.part for v in views if v.card.kind == "part" and v.card.part is not None]
    n = len(factory.stacks)
    reach: int | None = None
    for i, v in enumerate(views):
        card = v.card
        if card.kind == "part" and card.part is not None:
            if not v.playable:
                stacks, message = _no_place(factory, card.part)
                out.append(HandProblem(hand=i, stacks=stacks, message=message))
            continue
        if v.requirement_met:
            continue
        if reach is None:
            reach = new_stacks_within(factory, parts, plays)
        need, name = card.stacks_required, card.name or card.kind.title()
        if need > MAX_STACKS:
            out.append(HandProblem(hand=i, stacks=(), message=f"{name} needs {need} unique stacks, more than the five energies allow."))
        elif n + reach < need:
            more = ("and no card in your hand can start another" if reach == 0 else
                    f"and the parts in your hand can start at most {reach} more")
            out.append(HandProblem(hand=i, stacks=(), message=f"{name} needs {need} unique stacks; you have {n} {more} this turn."))
    return out

