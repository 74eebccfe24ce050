"""The plays of the search: the one generator of part plays, in the search's canonical order, and the
Attack card plays with their best targets on the whole table (`attacks.best_options`).

Where targets tie, the card takes the first of them as the attack answer lists them, unless the tie
is between parts of yours: then each is tried, since they leave your factory differently.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..attacks import UNREACHABLE, PartRef, best_options, destroyed
from ..cards import DESTROY, Effect
from ..factory import BIT, MAX_STACKS, Factory
from .nodes import AttackType, SStack, Strike, remove_cards
from .score import PARTS

_NO_FACTORY = Factory(())

PartMoves = tuple[int, int, int, list["int | None"]]   # (kind, card, hand index, stacks; None: a new stack)


class Moves:
    """A part of `turn_planner.Planner`: it reads the kinds of Part card in hand (`part_kinds`: identical
    cards are one kind, with its energies and hand indices) and of modelled Attack card (`attack_types`)."""

    def part_moves(self, stacks: Sequence[SStack], possible: Sequence[int], room: int, used: Sequence[int],
                   adding: bool = False, first: int = 0) -> list[PartMoves]:
        """Every part play from a state, kind by kind: (kind, card, hand index, where), `where` the
        stacks it may go onto in order, after None (a new stack) when it may start one.

        `possible` (`factory.possible_masks`) holds each stack's energies: a card may go onto an
        unfrozen stack when it shares one of them; `room` (`factory.free_energies`): a card may start a
        new stack when it carries one of these. `used`: the copies of each kind played so far.
        Part plays commute, so the search reaches each state in one canonical order: in a run of
        part plays, first the plays that start new stacks, then those that add to a stack, each group
        by kind (`adding`: the run has added to a stack; `first`: the kind of its last play)."""
        out: list[PartMoves] = []
        places: dict[int, list[int | None]] = {}   # card energies -> the stacks it may go onto
        open_stacks = [(k, p) for k, (s, p) in enumerate(zip(stacks, possible)) if not s[0]]
        # plain loops, no comprehension per kind: this is the search's hottest code
        for t, card, cm, idxs in self.part_kinds:
            n = used[t]
            if n >= len(idxs) or (adding and t < first):
                continue
            onto = places.get(cm)
            if onto is None:
                onto = places[cm] = []
                for k, p in open_stacks:
                    if p & cm:
                        onto.append(k)
            if not adding and t >= first and room & cm:
                out.append((t, card, idxs[n], [None, *onto]))
            elif onto:
                out.append((t, card, idxs[n], onto))
        return out

    def attack_moves(self, stacks: tuple[SStack, ...], used_attacks: tuple[int, ...], table: int
                     ) -> list[tuple[int, tuple[int, ...], Strike]]:
        """Every modelled Attack card play from a state, as (hand index, Attack cards used after it, what
        it does): each kind whose stack requirement your stacks meet, on each of its tied best targets
        (`attack_options`)."""
        out = []
        for a_i, a in enumerate(self.attack_types):
            if used_attacks[a_i] >= len(a.hand_indices) or len(stacks) < a.stacks_required:
                continue
            hand_index = a.hand_indices[used_attacks[a_i]]
            after = used_attacks[:a_i] + (used_attacks[a_i] + 1,) + used_attacks[a_i + 1:]
            for strike in self.attack_options(a, stacks, table):
                out.append((hand_index, after, strike))
        return out

    def attack_options(self, a: AttackType, stacks: tuple[SStack, ...], table: int) -> tuple[Strike, ...]:
        """The tied best target sets of a modelled Attack card on the table now (`attacks.best_options`).
        When the opponents hold enough matching cards, yours are never chosen, so the answer depends on
        their factories only and is shared by every state of yours. Otherwise all of theirs go, and of
        yours the choice that keeps you nearest two robots (`attacks.value`'s order; the opponents'
        terms are then the same for every choice)."""
        others = self.tables[table]
        e = a.effect
        if e.kind == DESTROY and e.energy is not None:
            theirs = self._theirs.get((e.energy, table))
            if theirs is None:
                bit = BIT[e.energy]
                theirs = self._theirs[(e.energy, table)] = [
                    (k, i, c) for k, f in enumerate(others, start=1) for i, st in enumerate(f.stacks)
                    for c in st.cards if c.mask & bit]
            if len(theirs) < e.count:
                return self._own_strikes(e, stacks, table, theirs, BIT[e.energy])
        key = (e.kind, e.energy, e.count, table)
        hit = self._attack_cache.get(key)
        if hit is None:
            hit = self._attack_cache[key] = tuple(
                Strike(stacks=None, table=self.table_id(tuple(o.after[1:])), own_lost=0,
                       targets=tuple((r.factory, r.stack, r.part) for r in o.destroyed),
                       freeze=(o.frozen.factory, o.frozen.stack) if o.frozen else None)
                # your own factory is never hit here, and its terms are the same for every choice
                for o in best_options(e, (_NO_FACTORY, *others), 0, self.names, limit=1))
        return hit

    def _own_strikes(self, e: Effect, stacks: tuple[SStack, ...], table: int, theirs: list, bit: int
                     ) -> tuple[Strike, ...]:
        need = e.count - len(theirs)
        mine = [(k, c) for k, st in enumerate(stacks) for c in st[1] if c & bit]
        if len(mine) < need:
            return ()
        key = (e, table, stacks)
        hit = self._attack_cache.get(key)
        if hit is not None:
            return hit
        others = self.tables[table]
        after_table = self.table_id(tuple(destroyed((Factory(()), *others), [
            PartRef(factory=k, stack=i, card=j, part=c) for k, f in enumerate(others, start=1)
            for i, st in enumerate(f.stacks) for j, c in enumerate(st.cards) if c.mask & bit])[1:]))
        best: list[tuple[tuple, tuple[SStack, ...], tuple]] = []
        seen: set[tuple] = set()
        for picks in combinations(mine, need):
            after = remove_cards(stacks, picks)
            shape = tuple(sorted(after))
            if shape in seen:
                continue
            seen.add(shape)
            v = self.own_standing(after)
            if not best or v > best[0][0]:
                best = [(v, after, picks)]
            elif v == best[0][0]:
                best.append((v, after, picks))
        hit = self._attack_cache[key] = tuple(
            Strike(stacks=after, table=after_table, own_lost=need,
                   targets=tuple((k, i, c) for k, i, c in theirs) + tuple((0, k, self.card_parts[c]) for k, c in picks),
                   freeze=None)
            for _, after, picks in best)
        return hit

    def own_standing(self, stacks: Sequence[SStack]) -> tuple[int, int]:
        """(minus parts to two robots, parts kept) of your stacks, as `attacks.value` compares them."""
        full, options, parts = self.full, [], 0
        for s in stacks:
            x = self.info(s)
            n = x.names.bit_count()
            parts += n
            if x.names == full:
                options.append(0)
            elif not x.frozen:
                options.append(PARTS - n)
        options = sorted(options) + [PARTS] * (MAX_STACKS - len(stacks))
        return (-(options[0] + options[1]) if len(options) >= 2 else -UNREACHABLE, parts)
