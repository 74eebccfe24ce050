"""Two Robots Attack cards on the whole table: the legal targets and the best one for the player.

The rulebook ("Attack Cards", "Frozen Stacks", Alyssa example):
- an Attack card that destroys Part cards by energy must destroy exactly two of them; they may be in
  any Factory (the player's own too), in any Stack, frozen ones included, and a hybrid is hit when
  either of its energies matches. Tablebot's reading: with fewer matching Part cards in play than it
  must destroy, the card cannot be played;
- Ice Blast freezes an enemy Stack (Tablebot's reading: one Stack per card, not one already frozen).
- 2v2 teams ("Variations"; Tablebot's reading, `variations`): the partner (`spared`) is hit only when the
  card has no other legal target: the opponents' Part cards first, then the player's own, then the
  partner's; Ice Blast freezes a partner's stack only when no opponent's stack is left to freeze.

The best target set for the player, compared in this order (the first difference decides):
 1. fewer of the player's own Part cards destroyed (none unless nothing else is legal);
 2. the player's own factory as near to two robots as it stays (parts to two robots, then parts kept);
 3. the opponents pushed back, nearest first: each opponent's parts to two robots, smallest first;
 4. fewer opponents' active robots, then fewer that can be deployed;
 5. fewer opponents' parts left (distinct part names per stack).
Target sets that tie on all of these are all best.
"""
from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import NamedTuple

from .cards import DESTROY, FREEZE, Effect
from .factory import (
    BIT,
    ENERGIES,
    MAX_STACKS,
    Factory,
    Part,
    Stack,
    is_robot,
    or_list,
    stack_parts,
    title,
)

UNREACHABLE = 99  # parts to two robots of a factory that cannot hold two robots any more


@dataclass(frozen=True)
class PartRef:
    """One Part card on the table: factory (seat order), stack and position in it (bottom first)."""
    factory: int
    stack: int
    card: int
    part: Part


@dataclass(frozen=True)
class StackRef:
    factory: int
    stack: int


@dataclass(frozen=True)
class Pressure:
    """How far the opponents are from the win, as the comparison reads it (larger is better for us)."""
    distances: tuple[int, ...]     # each opponent's parts to two robots, nearest first
    robots: int                    # minus the opponents' active robots
    deployable: int                # minus those that can be deployed

    def key(self) -> tuple:
        return (self.distances, self.robots, self.deployable)


@dataclass(frozen=True)
class AttackOption:
    destroyed: tuple[PartRef, ...]   # DESTROY: the Part cards it takes
    frozen: StackRef | None          # FREEZE: the stack it freezes
    after: tuple[Factory, ...]       # every factory afterwards
    own_lost: int                    # the player's own Part cards destroyed
    value: tuple                     # the comparison of the module docstring, larger is better


@dataclass(frozen=True)
class AttackAnswer:
    effect: Effect
    playable: bool
    options: tuple[AttackOption, ...]   # every legal target set
    best: tuple[int, ...]               # indices into options: the best ones, all tied
    why: str
    own_hit: bool                       # the best destroys some of the player's own Part cards
    rules: tuple[str, ...]


class Standing(NamedTuple):
    """What the comparison reads of one factory (a tuple: target sets are told apart by it often)."""
    distance: int      # parts to two robots (UNREACHABLE when it cannot hold two)
    parts: int         # distinct part names per stack, summed
    robots: int
    deployable: int


@lru_cache(maxsize=1 << 15)
def _stack_standing(stack: Stack, part_names: tuple[str, ...]) -> tuple[int, bool, int | None]:
    """(distinct part names, an active robot, parts still needed: None when frozen short of a robot)."""
    have = len(stack.names() & set(part_names))
    robot = have == len(part_names)
    return have, robot, 0 if robot else None if stack.frozen else len(part_names) - have


@lru_cache(maxsize=1 << 14)
def _stack_facts(factory: Factory, part_names: tuple[str, ...]) -> tuple[tuple[int, bool, int | None, bool], ...]:
    """`_stack_standing` of each stack, with whether it is frozen."""
    return tuple(_stack_standing(s, part_names) + (s.frozen,) for s in factory.stacks)


def _standing(factory: Factory, part_names: tuple[str, ...],
              taken: dict[int, set[int]] | None = None, freeze: int | None = None) -> Standing:
    """The factory's standing, or with `taken` (stack -> card positions), the standing it would have
    without those cards (a stack left empty goes), or with `freeze`, with that stack frozen, worked
    out without building that factory: only the stacks they change are looked at again."""
    facts: Sequence[tuple[int, bool, int | None, bool] | None] = _stack_facts(factory, part_names)
    n = len(part_names)
    if taken or freeze is not None:
        facts = list(facts)
        for i, gone in (taken or {}).items():
            s = factory.stacks[i]
            left = {c.part for j, c in enumerate(s.cards) if j not in gone}
            if not left and len(gone) >= len(s.cards):
                facts[i] = None
                continue
            is_frozen = s.frozen or i == freeze
            have = len(left.intersection(part_names))
            robot = have == n
            facts[i] = (have, robot, 0 if robot else None if is_frozen else n - have, is_frozen)
        if freeze is not None and not (taken and freeze in taken):
            f = facts[freeze]
            if f is not None and not f[3]:
                facts[freeze] = (f[0], f[1], 0 if f[1] else None, True)
    parts = robots = deployable = stacks = 0
    # the two smallest numbers of parts still needed, a stack not yet started needing all of them
    first = second = UNREACHABLE
    for f in facts:
        if f is None:
            continue
        have, robot, need, is_frozen = f
        stacks += 1
        parts += have
        if robot:
            robots += 1
            deployable += not is_frozen
        if need is not None:
            if need < first:
                first, second = need, first
            elif need < second:
                second = need
    for _ in range(min(2, MAX_STACKS - stacks)):
        if n < first:
            first, second = n, first
        elif n < second:
            second = n
    # the same count as factory.parts_to_two_robots, from the stacks' cached facts
    return Standing(distance=first + second if second < UNREACHABLE else UNREACHABLE, parts=parts,
                    robots=robots, deployable=deployable)


# a factory's standing; factories recur across target sets and plans, so each is worked out once
standing = lru_cache(maxsize=1 << 14)(_standing)


def _value_of(standings: Sequence[Standing], player: int, own_lost: int) -> tuple:
    own = standings[player]
    dists, robots, deployable, parts = [], 0, 0, 0
    for k, x in enumerate(standings):
        if k != player:
            dists.append(x.distance)
            robots += x.robots
            deployable += x.deployable
            parts += x.parts
    dists.sort()
    # (own lost, own standing, Pressure.key() of the others, the others' parts)
    return (-own_lost, -own.distance, own.parts, (tuple(dists), -robots, -deployable), -parts)


def distance(factory: Factory, part_names: Sequence[str]) -> int:
    return standing(factory, tuple(part_names)).distance


def pressure(factories: Sequence[Factory], player: int, part_names: Sequence[str]) -> Pressure:
    others = [standing(f, tuple(part_names)) for k, f in enumerate(factories) if k != player]
    return Pressure(distances=tuple(sorted(o.distance for o in others)), robots=-sum(o.robots for o in others),
                    deployable=-sum(o.deployable for o in others))


def value(after: Sequence[Factory], player: int, part_names: Sequence[str], own_lost: int) -> tuple:
    names = tuple(part_names)
    own = standing(after[player], names)
    opp_parts = sum(standing(f, names).parts for k, f in enumerate(after) if k != player)
    return (-own_lost, -own.distance, own.parts, pressure(after, player, names).key(), -opp_parts)


def energy_parts(factories: Sequence[Factory], energy: str) -> list[PartRef]:
    """The Part cards an energy's Attack card may hit: any factory, any stack (frozen ones too), a
    hybrid when either of its energies matches."""
    bit = BIT[energy]
    return [PartRef(factory=k, stack=i, card=j, part=c) for k, f in enumerate(factories)
            for i, s in enumerate(f.stacks) for j, c in enumerate(s.cards) if c.mask & bit]


def destroyed(factories: Sequence[Factory], refs: Sequence[PartRef]) -> tuple[Factory, ...]:
    """The factories without the given Part cards (a stack left empty goes)."""
    out = list(factories)
    # highest positions first, so that one removal never moves another card or stack
    for r in sorted(refs, key=lambda r: (r.factory, r.stack, r.card), reverse=True):
        out[r.factory] = out[r.factory].remove(r.stack, r.card)
    return tuple(out)


def frozen(factories: Sequence[Factory], ref: StackRef) -> tuple[Factory, ...]:
    out = list(factories)
    stacks = list(out[ref.factory].stacks)
    stacks[ref.stack] = Stack(stacks[ref.stack].cards, frozen=True)
    out[ref.factory] = Factory(tuple(stacks))
    return tuple(out)


def destroy_option(factories: Sequence[Factory], refs: Sequence[PartRef], player: int,
                    part_names: Sequence[str]) -> AttackOption:
    after = destroyed(factories, refs)
    own_lost = sum(r.factory == player for r in refs)
    return AttackOption(destroyed=tuple(refs), frozen=None, after=after, own_lost=own_lost,
                        value=value(after, player, part_names, own_lost))


def freeze_option(factories: Sequence[Factory], ref: StackRef, player: int,
                   part_names: Sequence[str]) -> AttackOption:
    after = frozen(factories, ref)
    return AttackOption(destroyed=(), frozen=ref, after=after, own_lost=0, value=value(after, player, part_names, 0))


def freeze_targets(factories: Sequence[Factory], player: int, spared: Collection[int] = ()) -> list[StackRef]:
    """The stacks an Ice Blast may freeze: an enemy's not frozen yet; a partner's (`spared`) only when
    no other is left."""
    refs = [StackRef(factory=k, stack=i) for k, f in enumerate(factories) if k != player
            for i, s in enumerate(f.stacks) if not s.frozen]
    enemies = [r for r in refs if r.factory not in spared]
    return enemies or refs


def destroy_sets(refs: Sequence[PartRef], n: int, player: int, spared: Collection[int] = ()
                 ) -> Iterator[tuple[PartRef, ...]]:
    """The legal sets of n Part cards when the player's own are hit only if the others are too few, and
    a partner's (`spared`) only if the others and the player's own are too few: each tier is taken whole
    before the next is chosen from."""
    tiers = ([r for r in refs if r.factory != player and r.factory not in spared],
             [r for r in refs if r.factory == player], [r for r in refs if r.factory in spared and r.factory != player])
    fixed: list[PartRef] = []
    for tier in tiers:
        if len(fixed) + len(tier) >= n:
            return (tuple(fixed) + c for c in combinations(tier, n - len(fixed)))
        fixed += tier
    return iter(())


def best_options(effect: Effect, factories: Sequence[Factory], player: int,
                 part_names: Sequence[str], limit: int | None = None) -> tuple[AttackOption, ...]:
    """The best target sets (all tied, or the first `limit` of them), without listing the others
    (see `best_targets`)."""
    out = []
    for v, target in best_targets(effect, factories, player, part_names)[:limit]:
        if isinstance(target, StackRef):
            out.append(AttackOption(destroyed=(), frozen=target, after=frozen(factories, target), own_lost=0, value=v))
        else:
            out.append(AttackOption(destroyed=target, frozen=None, after=destroyed(factories, target),
                                    own_lost=sum(r.factory == player for r in target), value=v))
    return tuple(out)


def best_targets(effect: Effect, factories: Sequence[Factory], player: int, part_names: Sequence[str],
                 spared: Collection[int] = ()) -> tuple[tuple[tuple, tuple[PartRef, ...] | StackRef], ...]:
    """The best targets (all tied) with their value: the stack an Ice Blast freezes, or the Part cards
    a destroy card takes. With enough opponents' Part cards to take, sets holding the player's own are
    never best (term 1), so they are not tried; otherwise every opponent's matching card is taken and
    only the player's own are chosen. Sets that leave the table the same (two copies of one card) are
    one. Only values are compared here: the factories after are built for the targets kept. A partner
    in 2v2 (`spared`) is hit only when nothing else is legal."""
    names = tuple(part_names)
    base = [standing(f, names) for f in factories]
    if effect.kind == FREEZE:
        refs = freeze_targets(factories, player, spared)
        if not refs:
            return ()
        frozen_scored = []
        for r in refs:
            standings = list(base)
            standings[r.factory] = _standing(factories[r.factory], names, freeze=r.stack)
            frozen_scored.append((_value_of(standings, player, 0), r))
        top = max(v for v, _ in frozen_scored)
        return tuple((v, r) for v, r in frozen_scored if v == top)
    if effect.kind != DESTROY or effect.energy not in ENERGIES:
        return ()
    refs = energy_parts(factories, effect.energy)
    theirs = [r for r in refs if r.factory != player and r.factory not in spared]
    n = effect.count
    if len(refs) < n:
        return ()
    if n == 2 and len(theirs) >= 2:
        return _best_pairs(factories, player, names, base, theirs)
    sets = destroy_sets(refs, n, player, spared)
    # equal cards in one stack leave the same table, so sets that differ only in which copy are one:
    # each card gets the number of its kind (factory, stack, part); each set changes one or two
    # factories, whose standings after are worked out once per kind of cards taken from them
    kinds: dict[tuple, int] = {}
    kind_of = {id(r): kinds.setdefault((r.factory, r.stack, r.part.part, r.part.mask), len(kinds)) for r in refs}
    after_of: dict[tuple, Standing] = {}
    values: dict[tuple, tuple] = {}
    seen: set[tuple] = set()
    scored: list[tuple[tuple, tuple[PartRef, ...]]] = []
    for refs_set in sets:
        sig = tuple(sorted(kind_of[id(r)] for r in refs_set))
        if sig in seen:
            continue
        seen.add(sig)
        standings = list(base)
        own_lost = 0
        for k in {r.factory for r in refs_set}:
            group = tuple(sorted(kind_of[id(r)] for r in refs_set if r.factory == k))
            hit = after_of.get(group)
            if hit is None:
                hit = after_of[group] = _without(factories[k], names, tuple(sorted(
                    (r.stack, r.card) for r in refs_set if r.factory == k)))
            standings[k] = hit
            if k == player:
                own_lost = len(group)
        # many sets leave the same standings
        value_key = (own_lost, *standings)
        v = values.get(value_key)
        if v is None:
            v = values[value_key] = _value_of(standings, player, own_lost)
        scored.append((v, refs_set))
    top = max(v for v, _ in scored)
    return tuple((v, tuple(rs)) for v, rs in scored if v == top)


@lru_cache(maxsize=1 << 14)
def _without(factory: Factory, names: tuple[str, ...], removal: tuple[tuple[int, int], ...]) -> Standing:
    """The factory's standing without the cards at these (stack, position) places: the same factories
    lose the same cards across the Attack cards and seats that are weighed."""
    taken: dict[int, set[int]] = {}
    for i, j in removal:
        taken.setdefault(i, set()).add(j)
    return _standing(factory, names, taken)


def _best_pairs(factories: Sequence[Factory], player: int, names: tuple[str, ...], base: list[Standing],
                theirs: list[PartRef]) -> tuple[tuple[tuple, tuple[PartRef, ...]], ...]:
    """`best_targets` for the usual card, two Part cards taken, with enough of the opponents' to take:
    the same sets, values and order, with each pair's value read from the one or two factories it
    changes."""
    own = base[player]
    head = (0, -own.distance, own.parts)
    others = [k for k in range(len(factories)) if k != player]
    dists0 = [x.distance for x in base]
    robots0 = sum(base[k].robots for k in others)
    deploy0 = sum(base[k].deployable for k in others)
    parts0 = sum(base[k].parts for k in others)
    # equal cards in one stack leave the same table: a pair differing only in which copy is one set
    kinds: dict[tuple, int] = {}
    kid = [kinds.setdefault((r.factory, r.stack, r.part.part, r.part.mask), len(kinds)) for r in theirs]
    single: dict[int, Standing] = {}
    values: dict[tuple, tuple] = {}
    seen: set[tuple[int, int]] = set()
    scored: list[tuple[tuple, tuple[PartRef, PartRef]]] = []
    m = len(theirs)
    for i in range(m - 1):
        ra, a = theirs[i], kid[i]
        for j in range(i + 1, m):
            b = kid[j]
            sig = (a, b) if a <= b else (b, a)
            if sig in seen:
                continue
            seen.add(sig)
            rb = theirs[j]
            ka, kb = ra.factory, rb.factory
            if ka == kb:
                sa = _without(factories[ka], names, tuple(sorted(((ra.stack, ra.card), (rb.stack, rb.card)))))
                key: tuple = (ka, sa)
                v = values.get(key)
                if v is None:
                    x = base[ka]
                    dists = list(dists0)
                    dists[ka] = sa.distance
                    v = values[key] = head + ((tuple(sorted(dists[k] for k in others)),
                                               -(robots0 - x.robots + sa.robots),
                                               -(deploy0 - x.deployable + sa.deployable)),
                                              -(parts0 - x.parts + sa.parts))
            else:
                sa = single.get(a)
                if sa is None:
                    sa = single[a] = _without(factories[ka], names, ((ra.stack, ra.card),))
                sb = single.get(b)
                if sb is None:
                    sb = single[b] = _without(factories[kb], names, ((rb.stack, rb.card),))
                key = (ka, sa, kb, sb)
                v = values.get(key)
                if v is None:
                    x, y = base[ka], base[kb]
                    dists = list(dists0)
                    dists[ka], dists[kb] = sa.distance, sb.distance
                    v = values[key] = head + ((tuple(sorted(dists[k] for k in others)),
                                               -(robots0 - x.robots - y.robots + sa.robots + sb.robots),
                                               -(deploy0 - x.deployable - y.deployable + sa.deployable + sb.deployable)),
                                              -(parts0 - x.parts - y.parts + sa.parts + sb.parts))
            scored.append((v, (ra, rb)))
    top = max(v for v, _ in scored)
    return tuple((v, rs) for v, rs in scored if v == top)


# ---- the answer for one card, with every legal target set and the reasons ------------------------------

def _owner(k: int, player: int, labels: Sequence[str]) -> str:
    return "your own" if k == player else f"{labels[k]}'s"


def describe(option: AttackOption, before: Sequence[Factory], player: int, part_names: Sequence[str],
             labels: Sequence[str]) -> str:
    """What a target set takes and what that does to each factory, in one or two sentences."""
    if option.frozen is not None:
        r = option.frozen
        s = before[r.factory].stacks[r.stack]
        have = len(stack_parts(s, part_names)[0])
        what = ("its active robot then cannot be deployed, though it still counts for the win"
                if is_robot(s, part_names) else f"it holds {have} of 4 parts and takes no more")
        return f"Freeze {labels[r.factory]}'s stack {r.stack + 1}: {what}."
    cards = or_list([f"{_owner(r.factory, player, labels)} {r.part.label()} on stack {r.stack + 1}"
                     for r in option.destroyed], "and")
    effects = []
    for k in sorted({r.factory for r in option.destroyed}):
        whose = "your" if k == player else f"{labels[k]}'s"
        for i in sorted({r.stack for r in option.destroyed if r.factory == k}):
            effects.append(_stack_loss(before[k].stacks[i], {r.card for r in option.destroyed
                                                             if r.factory == k and r.stack == i},
                                       f"{whose} stack {i + 1}", part_names))
        d0, d1 = distance(before[k], part_names), distance(option.after[k], part_names)
        if d1 != d0:
            who = "you" if k == player else labels[k]
            effects.append(f"{who} then need{'' if k == player else 's'} {_parts(d1)} for two robots, not {d0}")
    return f"Destroy {cards}" + (": " + "; ".join(effects) if effects else "") + "."


def _stack_loss(stack: Stack, taken: set[int], name: str, part_names: Sequence[str]) -> str:
    left = Stack(tuple(c for j, c in enumerate(stack.cards) if j not in taken), stack.frozen)
    if not left.cards:
        return f"{name} is gone"
    if is_robot(stack, part_names):
        return f"the robot on {name} is broken" if not is_robot(left, part_names) else \
            f"the robot on {name} only loses a spare copy"
    n0, n1 = len(stack_parts(stack, part_names)[0]), len(stack_parts(left, part_names)[0])
    return f"{name} drops from {n0} parts to {n1}" if n1 < n0 else f"{name} only loses a spare copy"


def _parts(d: int) -> str:
    return "no way left" if d >= UNREACHABLE else f"{d} part{'s' if d != 1 else ''}"


def resolve(effect: Effect, factories: Sequence[Factory], player: int, part_names: Sequence[str],
            labels: Sequence[str] | None = None, spared: Collection[int] = ()) -> AttackAnswer:
    """Every legal target set of an Attack card the rulebook describes, the best ones and why (in 2v2,
    without the sets that hit the partner, `spared`, while another is legal)."""
    labels = list(labels) if labels is not None else [f"Seat {k + 1}" for k in range(len(factories))]
    rules = effect.rules
    if effect.kind == FREEZE:
        refs = freeze_targets(factories, player, spared)
        if not refs:
            return AttackAnswer(effect, False, (), (), "No enemy stack is left to freeze.", False, rules)
        options = tuple(freeze_option(factories, r, player, part_names) for r in refs)
        n_theirs = 0
    elif effect.kind == DESTROY and effect.energy in ENERGIES:
        refs_all = energy_parts(factories, effect.energy)
        if len(refs_all) < effect.count:
            return AttackAnswer(effect, False, (), (), _too_few(effect, len(refs_all)), False, rules)
        unspared = [r for r in refs_all if r.factory not in spared]
        # every set of the cards outside the partner's factory (the player's own are legal), else the
        # partner's cards only as many as the card still needs
        sets = combinations(unspared, effect.count) if len(unspared) >= effect.count \
            else destroy_sets(refs_all, effect.count, player, spared)
        options = tuple(destroy_option(factories, c, player, part_names) for c in sets)
        n_theirs = len(refs_all) - sum(r.factory == player for r in refs_all)
    else:
        return AttackAnswer(effect, False, (), (), UNKNOWN_EFFECT, False, ())
    top = max(o.value for o in options)
    best = tuple(i for i, o in enumerate(options) if o.value == top)
    first = options[best[0]]
    why = _why(effect, first, factories, player, part_names, labels, len(options), len(best), n_theirs)
    hit = {r.factory for r in first.destroyed} | ({first.frozen.factory} if first.frozen is not None else set())
    if hit & set(spared):
        why += " Your partner is hit only because nothing else is legal (2v2, Tablebot's reading)."
    elif spared:
        why += " Your partner is spared (2v2)."
    return AttackAnswer(effect, True, options, best, why, first.own_lost > 0, rules)


UNKNOWN_EFFECT = "Tablebot does not know what this card does: it is yours to resolve."


def _too_few(effect: Effect, found: int) -> str:
    return (f"Only {found} {title(effect.energy or '')} part{'s' if found != 1 else ''} in play: it must destroy "
            f"exactly {effect.count}, so it cannot be played (Tablebot's reading).")


def _why(effect: Effect, first: AttackOption, factories: Sequence[Factory], player: int, part_names: Sequence[str],
         labels: Sequence[str], n_options: int, n_best: int, n_theirs: int) -> str:
    """`resolve`'s reason: the first best target set, and how many others tie with it."""
    why = describe(first, factories, player, part_names, labels)
    if first.own_lost:
        why += (f" It must destroy exactly {effect.count} {title(effect.energy or '')} parts and only "
                f"{n_theirs} are outside your factory, so "
                f"{'one of yours goes' if first.own_lost == 1 else 'yours go'} too.")
    elif effect.kind == DESTROY and n_options > 1:
        why += " None of your own parts is taken."
    if n_best > 1:
        why += f" {n_best - 1} other choice{'s are' if n_best > 2 else ' is'} just as good."
    return why


@dataclass(frozen=True)
class Verdict:
    """What `resolve` says of a card, without listing every target set."""
    playable: bool
    own_hit: bool
    why: str


def verdict(effect: Effect, factories: Sequence[Factory], player: int, part_names: Sequence[str],
            labels: Sequence[str] | None = None) -> Verdict:
    """`resolve`'s playable, own_hit and why, from the best target sets alone (`best_targets`): target
    sets that differ only in which copy of a card are counted, not built."""
    labels = list(labels) if labels is not None else [f"Seat {k + 1}" for k in range(len(factories))]
    if effect.kind == FREEZE:
        refs = freeze_targets(factories, player)
        if not refs:
            return Verdict(False, False, "No enemy stack is left to freeze.")
        best = best_targets(effect, factories, player, part_names)
        target = best[0][1]
        assert isinstance(target, StackRef)
        first = freeze_option(factories, target, player, part_names)
        return Verdict(True, False, _why(effect, first, factories, player, part_names, labels, len(refs), len(best), 0))
    if not (effect.kind == DESTROY and effect.energy in ENERGIES):
        return Verdict(False, False, UNKNOWN_EFFECT)
    refs_all = energy_parts(factories, effect.energy)
    n = effect.count
    if len(refs_all) < n:
        return Verdict(False, False, _too_few(effect, len(refs_all)))
    best = best_targets(effect, factories, player, part_names)
    # `resolve` lists every set of n cards, copies apart: a best set stands for the sets of n cards with
    # the same number of each kind of card (factory, stack, part), as many as there are ways to pick them
    count: dict[tuple, int] = {}
    for r in refs_all:
        k = (r.factory, r.stack, r.part.part, r.part.mask)
        count[k] = count.get(k, 0) + 1
    n_best = 0
    for _, target in best:
        assert not isinstance(target, StackRef)
        used: dict[tuple, int] = {}
        for r in target:
            k = (r.factory, r.stack, r.part.part, r.part.mask)
            used[k] = used.get(k, 0) + 1
        ways = 1
        for k, u in used.items():
            ways *= comb(count[k], u)
        n_best += ways
    first_refs = best[0][1]
    assert not isinstance(first_refs, StackRef)
    # in `resolve`'s order: a set's cards as the table lists them
    first = destroy_option(factories, sorted(first_refs, key=lambda r: (r.factory, r.stack, r.card)), player,
                           part_names)
    n_theirs = len(refs_all) - sum(r.factory == player for r in refs_all)
    why = _why(effect, first, factories, player, part_names, labels, comb(len(refs_all), n), n_best, n_theirs)
    return Verdict(True, first.own_lost > 0, why)
