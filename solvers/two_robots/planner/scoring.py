"""The score of a state of the search: what every state after the same plays shares (the cards played
last and kept, the marked cards played, the hand limit, the opponents' pressure), and the terms read
off your stacks, the Event phase sacrifice included or bounded (`Bounds`)."""
from __future__ import annotations

from collections.abc import Sequence

from .nodes import Facts, LeafContext, Play, Reach, SStack
from .score import Score, win_score


class Scoring:
    """A part of `turn_planner.Planner`."""

    def tail(self, n_stacks: int, left: int, used_attacks: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """(marked cards of unknown effect played last, stack requirements of the cards kept, marked
        cards played in all) for a plan ending with n_stacks stacks, `left` actions and the modelled
        Attack cards used so far."""
        key = (n_stacks, left, used_attacks)
        hit = self._tail_cache.get(key)
        if hit is None:
            t = self.t
            tail = tuple([i for i in self.flagged if t.hand[i].stacks_required <= n_stacks][:max(left, 0)])
            played = set(tail)
            wanted = len(tail)
            for a, n in zip(self.attack_types, used_attacks):
                played.update(a.hand_indices[:n])
                wanted += n if a.marked else 0
            reqs = tuple(sorted(t.hand[i].stacks_required for i in range(len(t.hand))
                                if t.hand[i].kind != "part" and i not in played))
            hit = self._tail_cache[key] = (tail, reqs, wanted)
        return hit

    def kept(self, seq: Sequence[Play], tail: Sequence[int]) -> list[int]:
        played = {p.hand_index for p in seq} | set(tail)
        return [i for i in range(len(self.t.hand)) if i not in played]

    def evaluate(self, stacks: tuple[SStack, ...], infos: Sequence[Facts], plays: int, robots_now: int,
                 used_attacks: tuple[int, ...], own_lost: int, table: int, free: int,
                 reaches: Sequence[Reach] | None = None) -> tuple[Score, tuple[int, ...], bool]:
        """(score, marked cards of unknown effect played last, exact) of the state after `plays`
        plays with `robots_now` robots and `free` parts in unfrozen stacks. Given the stacks'
        `reach`, a state whose Event phase needs a sacrifice gets an upper bound instead
        (exact=False): a sacrifice adds no robot, stack or part name, and leaves at most
        `outs_bound` outs."""
        t = self.t
        if robots_now >= 2:  # the game is over: only the shortest way there matters
            return win_score(robots_now, plays), (), True
        n = len(infos)
        tail, kept_reqs, wanted = self.tail(n, t.actions - plays, used_attacks)
        lost = -max(0, len(t.hand) - plays - len(tail) - t.hand_limit)
        event_ok = t.event == "none" or self.can_pay(stacks, infos, t.event, free)
        press = self.pressure_of(table)
        if event_ok and t.event != "none":
            if reaches is not None:
                progress = tuple(sorted((x.names.bit_count() for x in infos), reverse=True))
                return Score(won=False, event=True, robots=robots_now, wanted=wanted, own_lost=-own_lost,
                             pressure=press, outs=self.outs_bound(reaches),
                             ready=sum(1 for r in kept_reqs if r <= n), progress=progress, kept=lost,
                             plays=-(plays + len(tail))), tail, False
            robots, outs, ready, progress = self.sacrifice_value(stacks, kept_reqs)
        else:
            robots, outs, progress = self.shape_value(tuple(sorted(infos)))
            ready = sum(1 for r in kept_reqs if r <= n)
        return Score(won=False, event=event_ok, robots=robots, wanted=wanted, own_lost=-own_lost, pressure=press,
                     outs=outs, ready=ready, progress=progress, kept=lost, plays=-(plays + len(tail))), tail, True

    def leaf_context(self, n_stacks: int, plays: int, used_attacks: tuple[int, ...], own_lost: int,
                     table: int) -> LeafContext:
        key = (n_stacks, plays, used_attacks, table)
        hit = self._leaf_cache.get(key)
        if hit is None:
            t = self.t
            tail, kept_reqs, wanted = self.tail(n_stacks, t.actions - plays, used_attacks)
            hit = self._leaf_cache[key] = LeafContext(
                tail=tail, kept_reqs=kept_reqs, wanted=wanted, ready=sum(1 for r in kept_reqs if r <= n_stacks),
                kept=-max(0, len(t.hand) - plays - len(tail) - t.hand_limit), plays=-(plays + len(tail)),
                pressure=self.pressure_of(table))
        return hit

    def exact_score(self, stacks: tuple[SStack, ...], infos: Sequence[Facts], plays: int, robots: int,
                    used_attacks: tuple[int, ...], own_lost: int, table: int, free: int,
                    reaches: Sequence[Reach] | None = None) -> tuple[Score | None, Score, tuple[int, ...]]:
        """(score, order, marked cards of unknown effect played last) of a state, as `evaluate` gives
        them; when `evaluate` only bounds it, the sacrifice is worked out (`settle`) while the bound
        can still reach the runner-up, else the score is None. Without `reaches`, they are read off
        the stacks."""
        if reaches is None:
            reaches = tuple(self.reach(s) for s in stacks) if self.cost else ()
        order, tail, exact = self.evaluate(stacks, infos, plays, robots, used_attacks, own_lost, table, free, reaches)
        if exact:
            return order, order, tail
        if not self.bar.keeps(order):
            return None, order, tail
        return self.settle(order, stacks, self.tail(len(stacks), self.t.actions - plays, used_attacks)[1]), order, tail
