"""Upper bounds on scores, so that the search skips what cannot be the best plan or the runner-up.

Plans are scored in the order of an upper bound, stopping once the bound falls below both the best
score and the runner-up's (the two plans the answer reports). Each bound here is at least the score of
every state it stands for, so no answer changes (tests check it against brute force).
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..factory import free_energies
from .nodes import Facts, Reach, SStack
from .score import Score, win_score


class Bounds:
    """A part of `turn_planner.Planner`."""

    def outs_bound(self, reaches: Sequence[Reach]) -> int:
        """At least the outs left by any sacrifice that keeps every robot. Such a sacrifice adds no
        part name, so a stack one part short after it was one part short before, missing the same
        name; each stack's energies stay within what `reach` allows, and a stack may go. Counting
        with every stack at its widest, and the stacks that may go left out of the matching, can only
        find more outs (wider energies and fewer stacks only make a matching easier)."""
        reaches = tuple(reaches)
        hit = self._bound_cache.get(reaches)   # the same stacks in the same order: the usual case
        if hit is not None:
            return hit
        reach = tuple(sorted(reaches))
        hit = self._bound_cache.get(reach)
        if hit is not None:
            self._bound_cache[reaches] = hit
            return hit
        outs_types: set[tuple[int, int]] = set()
        outs = 0
        for i, r in enumerate(reach):
            if r.short < 0:
                continue
            others = tuple(sorted(x.wide for j, x in enumerate(reach) if j != i and not x.gone))
            free = free_energies(others)
            for um, copies in self.unseen_by_name.get(r.short, ()):
                if (r.short, um) in outs_types or not (um & r.same & free):
                    continue
                outs_types.add((r.short, um))
                outs += copies
        self._bound_cache[reach] = self._bound_cache[reaches] = outs
        return outs

    def below_runner(self, infos: Sequence[Facts], robots: int, plays: int, used_attacks: tuple[int, ...],
                     own_lost: int, table: int) -> bool:
        """Is every state after more plays from this one below the runner-up (`bar.runner`)? Then none
        of them can be the best, tie with it or be the runner-up. Each part play adds at most one part
        name to one stack, so a stack missing m names needs m more plays to become a robot; the
        Attack cards only take parts away, raise own_lost and push the opponents back (so the pressure
        is only known when none is left to play); marked cards played are at most the ones left, one
        per action."""
        runner = self.bar.runner
        left = self.t.actions - plays
        n_names = len(self.names)
        missing = [n_names - x.names.bit_count() for x in infos if not x.frozen and x.names != self.full]
        if n_names <= left:
            missing += [n_names] * left   # new stacks
        missing.sort()
        potential, spent = robots, 0
        for m in missing:
            spent += m
            if spent > left:
                break
            potential += 1
        if potential >= 2:
            # a win needs at least one more play; fewer plays are better
            return win_score(potential, plays + 1) < runner
        if not self.attack_types:
            return (False, True, potential, min(left, len(self.flagged)), -own_lost, self.pressure_of(table)) \
                < runner[:6]
        marked = sum(n for a, n in zip(self.attack_types, used_attacks) if a.marked)
        marked_left = sum(len(a.hand_indices) - n for a, n in zip(self.attack_types, used_attacks) if a.marked)
        first = (False, True, potential, marked + min(left, marked_left + len(self.flagged)), -own_lost)
        if any(n < len(a.hand_indices) for a, n in zip(self.attack_types, used_attacks)):
            return first < runner[:5]
        return first + (self.pressure_of(table),) < runner[:6]

    def progress_cap(self, stacks: Sequence[SStack]) -> tuple[int, ...]:
        """The best progress (part names per stack, most first) any Event phase sacrifice can leave.
        A stack loses no name to a card taken while it holds a spare copy (a card beyond one per
        name), else one name per card, and goes when its last card goes; a frozen stack gives none.
        More names on a stack never lowers the sorted progress, so each stack's best is enough."""
        triples = self._triples
        parts = []
        for s in stacks:
            hit = triples.get(s)
            if hit is None:
                n_cards = len(s[1])
                c = self.info(s).names.bit_count()
                spare = n_cards - c
                if s[0]:
                    hit = (c, -1, -1)
                else:
                    # -1: cannot give that many; 0: the stack goes
                    one = 0 if n_cards == 1 else c if spare else c - 1
                    two = -1 if n_cards < 2 else 0 if n_cards == 2 else c - max(0, 2 - spare)
                    hit = (c, one, two)
                triples[s] = hit
            parts.append(hit)
        key = tuple(sorted(parts))
        cap = self._caps.get(key)
        if cap is None:
            counts = [c for c, _, _ in key]
            best: tuple[int, ...] | None = None
            if self.cost == 1:
                choices = [((i, one),) for i, (_, one, _) in enumerate(key) if one >= 0]
            else:
                choices = [((i, two),) for i, (_, _, two) in enumerate(key) if two >= 0]
                choices += [((i, key[i][1]), (j, key[j][1])) for i, j in combinations(range(len(key)), 2)
                            if key[i][1] >= 0 and key[j][1] >= 0]
            for choice in choices:
                after = list(counts)
                for i, c in choice:
                    after[i] = c
                progress = tuple(sorted((c for c in after if c > 0), reverse=True))
                if best is None or progress > best:
                    best = progress
            # no sacrifice possible: the state is not scored with one (kept as it is)
            cap = self._caps[key] = best if best is not None else tuple(sorted(counts, reverse=True))
        return cap

    def settle(self, bound: Score, stacks: tuple[SStack, ...], kept_reqs: tuple[int, ...]) -> Score | None:
        """The exact score of a state `evaluate` only bounded: the bound with the terms the Event phase
        sacrifice decides (robots, outs, ready, progress) worked out; None when, with the progress a
        sacrifice can leave at best (`progress_cap`), the bound is below the runner-up."""
        # plain tuples: NamedTuple._replace is slow, and this runs for most states that pay for an Event
        if self.bar.runner is not None and bound[:8] + (self.progress_cap(stacks),) + bound[9:] < self.bar.runner:
            return None
        robots, outs, ready, progress = self.sacrifice_value(stacks, kept_reqs)
        return Score(bound[0], bound[1], robots, bound[3], bound[4], bound[5], outs, ready, progress, bound[9], bound[10])

    def first_terms(self, stacks: tuple[SStack, ...], infos: Sequence[Facts], plays: int, robots_now: int,
                    used_attacks: tuple[int, ...], own_lost: int, table: int, free: int) -> tuple:
        """The first six terms of a state's score, robots at most (a sacrifice only loses robots): when
        they are below the runner-up's, so is the whole score."""
        t = self.t
        _, _, wanted = self.tail(len(infos), t.actions - plays, used_attacks)
        paid = t.event == "none" or self.can_pay(stacks, infos, t.event, free)
        return (False, paid, robots_now, wanted, -own_lost, self.pressure_of(table))
