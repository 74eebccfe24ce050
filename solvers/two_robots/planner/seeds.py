"""Plans scored before the search, so that the runner-up is high from the start and more is cut: wins
within reach, a greedy line of Attack cards, a greedy line of part plays. They are real plans' scores,
met the way the search meets them, so no answer changes (a test checks them against brute force).
"""
from __future__ import annotations

from ..factory import free_energies, possible_masks
from .nodes import NAME_SHIFT, SStack, add_card
from .score import win_score


class Seeds:
    """A part of `turn_planner.Planner`."""

    def seed_wins(self) -> None:
        """Meet the scores of the wins within reach before the search, so that it cuts everything else
        from the start (the search, new stacks first, would find them late). Only part plays that add
        a missing part name to a stack are tried: they are real plays of the search, so these are
        scores it meets anyway."""
        bar, full = self.bar, self.full
        actions, n_names = self.t.actions, len(self.names)
        seen: set[tuple] = set()

        def dive(stacks: tuple[SStack, ...], used: tuple[int, ...], plays: int) -> None:
            key = (tuple(sorted(stacks)), used)
            if key in seen:
                return
            seen.add(key)
            infos = [self.info(s) for s in stacks]
            robots = sum(1 for x in infos if x.names == full)
            if robots >= 2:
                bar.meet(win_score(robots, plays))
                return
            left = actions - plays
            need = sorted(n_names - x.names.bit_count() for x in infos if not x.frozen and x.names != full)
            if len(need) < 2 - robots or sum(need[:2 - robots]) > left:
                return   # the robots still missing need more plays than are left
            possible = possible_masks(tuple(x.mask for x in infos))
            for t, card, _, onto in self.part_moves(stacks, possible, 0, used):   # room 0: no new stack
                bit = 1 << (card >> NAME_SHIFT)
                for k in onto:
                    if any(1 << (c >> NAME_SHIFT) == bit for c in stacks[k][1]):
                        continue   # only plays that add a missing part name
                    dive(stacks[:k] + (add_card(stacks[k], card),) + stacks[k + 1:],
                         used[:t] + (used[t] + 1,) + used[t + 1:], plays + 1)

        dive(self.start, tuple(0 for _ in self.types), 0)

    def seed_parts(self) -> None:
        """Meet the exact scores of one line of part plays before the search, so that it cuts more
        from the start: at each play, the one that leaves the best robots, outs and progress (read off
        the stacks, without the Event phase sacrifice, so this stays cheap). These are states the
        search reaches anyway (part plays commute; the same state is scored the same way), so no
        answer changes."""
        bar, actions, full, grow = self.bar, self.t.actions, self.full, self.grow
        stacks = self.start
        infos = tuple(self.info(s) for s in stacks)
        used = [0] * len(self.types)
        no_attacks = tuple(0 for _ in self.attack_types)
        for plays in range(1, actions + 1):
            if sum(1 for x in infos if x.names == full) >= 2:
                return
            masks = tuple(x.mask for x in infos)
            possible, room = possible_masks(masks), free_energies(masks)
            best: tuple | None = None
            for t, card, _, where in self.part_moves(stacks, possible, room, used):
                for k in where:
                    grown, ni, _ = grow(stacks[k] if k is not None else None, card)
                    after = infos + (ni,) if k is None else infos[:k] + (ni,) + infos[k + 1:]
                    v = self.shape_value(tuple(sorted(after)))
                    if best is None or v > best[0]:
                        best = (v, stacks + (grown,) if k is None else stacks[:k] + (grown,) + stacks[k + 1:], after,
                                t)
            if best is None:
                return
            _, stacks, infos, t = best
            used[t] += 1
            robots = sum(1 for x in infos if x.names == full)
            free = sum(len(st[1]) for st in stacks if not st[0])
            score = self.exact_score(stacks, infos, plays, robots, no_attacks, 0, 0, free)[0]
            if score is not None:
                bar.meet(score)

    def seed_strikes(self, stacks: tuple[SStack, ...], used_attacks: tuple[int, ...], table: int, own_lost: int,
                     plays: int) -> tuple | None:
        """Meet the exact score of each modelled Attack card played now as play number `plays` (as the
        search scores that state); the best of them as (score, stacks, used attacks, table, own lost)."""
        bar, info, full = self.bar, self.info, self.full
        follow: tuple | None = None
        for _, nused_a, strike in self.attack_moves(stacks, used_attacks, table):
            new_stacks = strike.stacks if strike.stacks is not None else stacks
            lost = own_lost + strike.own_lost
            infos = tuple(info(s) for s in new_stacks)
            robots = sum(1 for x in infos if x.names == full)
            free = sum(len(s[1]) for s in new_stacks if not s[0])
            score = self.exact_score(new_stacks, infos, plays, robots, nused_a, lost, strike.table, free)[0]
            if score is None:
                continue
            bar.meet(score)
            if robots < 2 and (follow is None or score > follow[0]):
                follow = (score, new_stacks, nused_a, strike.table, lost)
        return follow

    def seed_attacks(self) -> None:
        """Meet the exact scores of some plans that play only modelled Attack cards before the search:
        they push the opponents back (an early term), so the runner-up rises early and more is cut.
        Each Attack card is scored on the table, and the best of them is followed by the next (greedy,
        so this stays cheap). These are states the search reaches anyway (the same plays, scored the
        same way), so no answer changes."""
        stacks, table, own_lost = self.start, 0, 0
        used_attacks = tuple(0 for _ in self.attack_types)
        if sum(1 for s in stacks if self.info(s).names == self.full) >= 2:
            return
        for plays in range(1, self.t.actions + 1):
            follow = self.seed_strikes(stacks, used_attacks, table, own_lost, plays)
            if follow is None:
                return
            _, stacks, used_attacks, table, own_lost = follow
