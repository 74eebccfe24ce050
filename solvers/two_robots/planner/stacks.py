"""What a stack of the search's compact factory is worth: its facts, the value of a factory's shape
(robots, outs, progress), what a sacrifice can make of it, and the stack one card more makes."""
from __future__ import annotations

from itertools import combinations

from ..factory import possible_masks
from .nodes import ENERGY_BITS, NAME_SHIFT, Facts, Reach, SStack, add_card


class StackFacts:
    """A part of `turn_planner.Planner`: it reads the turn's part names (`full`), the unseen cards by part
    name (`unseen_by_name`) and the Event's cost, and keeps its caches."""

    # -- what a stack is worth to the score --

    def info(self, stack: SStack) -> Facts:
        """A stack's facts, with the part names cut down to what a score reads: which names a stack
        holds matters only for a robot, or for an unfrozen stack one part short (the missing name
        decides its outs); otherwise only how many (progress). Stacks that differ in nothing else
        then share cache entries and sacrifice answers."""
        hit = self._infos.get(stack)
        if hit is None:
            mask, names = ENERGY_BITS, 0
            for c in stack[1]:
                mask &= c
                names |= 1 << (c >> NAME_SHIFT)
            missing = self.full ^ names
            if missing and (stack[0] or missing & (missing - 1)):
                names = (1 << names.bit_count()) - 1
            hit = self._infos[stack] = Facts(mask=mask & ENERGY_BITS, names=names, frozen=stack[0])
        return hit

    def shape_value(self, shape: tuple[Facts, ...]) -> tuple[int, int, tuple[int, ...]]:
        """(robots, outs, progress) of a factory given as its sorted stack facts."""
        hit = self._shape_cache.get(shape)
        if hit is not None:
            return hit
        full = self.full
        robots = sum(nb == full for _, nb, _ in shape)
        masks = tuple(m for m, _, _ in shape)
        reach = possible_masks(masks)  # shapes are sorted, so equal factories share the cache
        outs_types: set[tuple[int, int]] = set()
        outs = 0
        for i, (_, nb, is_frozen) in enumerate(shape):
            missing = full ^ nb
            if is_frozen or missing == 0 or missing & (missing - 1):
                continue
            name = missing.bit_length() - 1
            for um, copies in self.unseen_by_name.get(name, ()):
                # the card may finish stack i exactly when some valid matching gives it one of its energies
                if (name, um) not in outs_types and um & reach[i]:
                    outs_types.add((name, um))
                    outs += copies
        progress = tuple(sorted((nb.bit_count() for _, nb, _ in shape), reverse=True))
        hit = self._shape_cache[shape] = (robots, outs, progress)
        return hit

    def reach(self, stack: SStack) -> Reach:
        """What the sacrifice can make of one stack, as far as outs go: the part name it misses if it
        is unfrozen and one part short (else -1); the energies it may take while keeping its part
        names; every energy it may take; whether it may go."""
        hit = self._reach.get(stack)
        if hit is None:
            mask, names, frozen = self.info(stack)
            missing = self.full ^ names
            short = missing.bit_length() - 1 if missing and not frozen and not missing & (missing - 1) else -1
            wide = same = mask
            cards = stack[1]
            gone = not frozen and len(cards) <= self.cost
            if not frozen:
                # the cards a sacrifice may take (as `fronts` lists them, without the dominance filter,
                # which never drops an energy or a same-names result)
                for n in range(1, min(self.cost, len(cards) - 1) + 1):
                    for picks in set(combinations(cards, n)):
                        rest = list(cards)
                        for c in picks:
                            rest.remove(c)
                        m, nb = ENERGY_BITS, 0
                        for c in rest:
                            m &= c
                            nb |= 1 << (c >> NAME_SHIFT)
                        wide |= m & ENERGY_BITS
                        if nb == names:
                            same |= m & ENERGY_BITS
            hit = self._reach[stack] = Reach(short=short, same=same if short >= 0 else 0, wide=0 if gone else wide,
                                             gone=gone)
        return hit

    def grow(self, stack: SStack | None, card: int) -> tuple[SStack, Facts, Reach | None]:
        """The stack with one more card (None: a new stack of it), its facts and, when an Event is to be
        paid, its reach."""
        key = (stack, card)
        hit = self._grow.get(key)
        if hit is None:
            grown = (False, (card,)) if stack is None else add_card(stack, card)
            hit = self._grow[key] = (grown, self.info(grown), self.reach(grown) if self.cost else None)
        return hit
