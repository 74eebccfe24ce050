"""The Event phase sacrifice ("The Event Phase"): whether a factory can pay, and the best cards to give.

Only the sacrifice is costly to score, and two shortcuts keep it fast without changing any answer
(tests check them against brute force): sacrifice choices that another choice on the same stack
dominates are not tried, and stacks that differ only in what no score reads share one answer.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .nodes import Facts, SStack, remove_cards
from .records import EVENT_COST

NO_CAP = 1 << 30   # outs bound of a sacrifice that breaks a robot: none known (see `Sacrifice.sacrifice`)


class Sacrifice:
    """A part of `turn_planner.Planner` (reads the stack facts of `StackFacts` and the bound of `Bounds`)."""

    # -- the Event phase sacrifice --

    def can_pay(self, stacks: Sequence[SStack], infos: Sequence[Facts], event: str, free: int | None = None) -> bool:
        """Can the factory pay for `event` ("The Event Phase"): enough parts in unfrozen stacks, an
        unused Power for A, a robot that can be deployed (not frozen) for B. `free` is the number of
        parts in unfrozen stacks when the caller knows it."""
        if free is None:
            free = sum(len(s[1]) for s in stacks if not s[0])
        if free < EVENT_COST[event]:
            return False
        if event == "power":
            return self.t.powers_left >= 1
        return any(x.names == self.full and not x.frozen for x in infos)

    def dominates(self, a: Facts, b: Facts) -> bool:
        """Is a stack left as `a` by a sacrifice at least as good as left as `b`, whatever the other
        stacks are? Yes when `a` keeps every energy `b` may take (wider energies never cost another
        stack its matching or an out) and at least `b`'s parts: the same names, or a robot, when `b`
        is a robot or one part short; otherwise at least as many."""
        if a.mask & b.mask != b.mask:
            return False
        full = self.full
        if a.names == full:
            return True
        missing = full ^ b.names
        if b.names == full or (missing and not missing & (missing - 1) and not b.frozen):
            return a.names == b.names
        return a.names.bit_count() >= b.names.bit_count()

    def fronts(self, stack: SStack) -> tuple[tuple, tuple]:
        """For taking one card and for taking two from the stack: each distinct result (the stack's
        facts after, or None when it is gone) with the cards taken, leaving out results another one
        dominates. A frozen stack gives nothing ("Frozen Stacks")."""
        hit = self._fronts.get(stack)
        if hit is not None:
            return hit
        out: list[tuple] = []
        cards = stack[1]
        for n in (1, 2):
            found: dict[Facts | None, tuple[int, ...]] = {}
            if not stack[0] and len(cards) >= n:
                for picks in sorted(set(combinations(cards, n))):
                    rest = list(cards)
                    for c in picks:
                        rest.remove(c)
                    after = self.info((False, tuple(rest))) if rest else None
                    found.setdefault(after, picks)
            out.append(tuple((r, p) for r, p in found.items()
                             if r is None or not any(o is not None and o != r and self.dominates(o, r)
                                                     for o in found)))
        hit = self._fronts[stack] = (out[0], out[1])
        return hit

    def sacrifice_value(self, stacks: tuple[SStack, ...], kept_reqs: tuple[int, ...]) -> tuple:
        """(robots, outs, ready, progress) after the best sacrifice. Factories whose stacks agree on
        everything a sacrifice can reach share one answer."""
        sig_of = self._sac_sig
        parts = []
        for s in stacks:
            part = sig_of.get(s)
            if part is None:
                # a stack that goes is () here, so that the stacks sort whatever their options
                part = sig_of[s] = (self.info(s),) + tuple(tuple(r or () for r, _ in f) for f in self.fronts(s)[:self.cost])
            parts.append(part)
        parts.sort()
        sig = (kept_reqs, tuple(parts))
        hit = self._sac_values.get(sig)
        if hit is None:
            hit = self._sac_values[sig] = self.sacrifice(stacks, kept_reqs, self.t.event)[3]
        return hit

    def sacrifice(self, stacks: tuple[SStack, ...], kept_reqs: tuple[int, ...], event: str) -> tuple:
        """(stacks after, picks as (stack, card), breaks a robot, value) for the best sacrifice for
        `event` of a factory that can pay. Every way not dominated is tried, those keeping more
        robots first."""
        full = self.full
        infos = [self.info(s) for s in stacks]
        base = sum(1 for x in infos if x.names == full)
        cands: list[tuple[int, dict, tuple]] = []

        def lost(i: int, res: Facts | None) -> int:
            return 1 if infos[i].names == full and (res is None or res.names != full) else 0

        fronts = [self.fronts(s) for s in stacks]
        singles = [f[0] for f in fronts]
        n = len(infos)
        counts = [x.names.bit_count() for x in infos]
        ready = [sum(1 for r in kept_reqs if r <= k) for k in range(n + 1)]
        # Each choice's robots, ready and progress are read off its stacks; only the outs need the
        # matching. With the outs bound of the stacks (a sacrifice keeping every robot leaves at most
        # that many), the choices are tried best bound first until the bound falls below the best
        # value found. Among equal values the first choice wins in the order of fewest robots lost,
        # then as listed here (each stack's own choices, then pairs of stacks), as when every one is
        # tried in that order.
        cap = self.outs_bound([self.reach(s) for s in stacks]) if EVENT_COST[event] == self.cost else None
        # the choices as (robots, changes, picks), in the order above
        raw: list[tuple[int, tuple, tuple]] = []
        if EVENT_COST[event] == 1:
            pairs: list[tuple[int, int]] = []
            for i, options in enumerate(singles):
                for res, taken in options:
                    raw.append((base - lost(i, res), ((i, res),), ((i, taken[0]),)))
        else:
            for i in range(n):
                for res, taken in fronts[i][1]:
                    raw.append((base - lost(i, res), ((i, res),), ((i, taken[0]), (i, taken[1]))))
            pairs = list(combinations(range(n), 2))
        for i, j in pairs:
            for res_i, taken_i in singles[i]:
                li = lost(i, res_i)
                for res_j, taken_j in singles[j]:
                    raw.append((base - li - lost(j, res_j), ((i, res_i), (j, res_j)), ((i, taken_i[0]), (j, taken_j[0]))))
        # a choice that breaks a robot is worse than any that keeps them all (robots come first), so
        # those are only ranked when every choice breaks one
        keep_all = [gen for gen, c in enumerate(raw) if c[0] == base]
        cands: list[tuple] = []   # (upper bound, order, changes, picks)
        for gen in keep_all or range(len(raw)):
            robots, changes, picks = raw[gen]
            pc = [c for k, c in enumerate(counts) if k != changes[0][0] and (len(changes) == 1 or k != changes[1][0])]
            pc += [r.names.bit_count() for _, r in changes if r is not None]
            cands.append(((robots, cap if cap is not None and robots == base else NO_CAP, ready[len(pc)],
                           tuple(sorted(pc, reverse=True))), (-robots, gen), changes, picks))
        cands.sort(key=lambda c: c[0], reverse=True)
        best: tuple | None = None
        best_order: tuple = ()
        for upper, order, changes, picks in cands:
            if best is not None and upper < best[0]:
                break
            changed = {k for k, _ in changes}
            after = [x for k, x in enumerate(infos) if k not in changed] + [r for _, r in changes if r is not None]
            shape = self.shape_value(tuple(sorted(after)))
            v = (shape[0], shape[1], upper[2], shape[2])
            if best is None or v > best[0] or (v == best[0] and order < best_order):
                best, best_order = (v, picks), order
        assert best is not None
        return remove_cards(stacks, best[1]), best[1], best[0][0] < base, best[0]
