"""Two Robots turn planner: the best up-to-three plays, the Event phase sacrifice and the cleanup discard.

Exhaustive search over the cards in hand (identical cards are one choice): every legal placement of a
Part card, and every Attack card Tablebot models (`cards.Effect.modelled`: destroy by energy, Ice
Blast) played on the whole table, the other seats' factories included, aimed at its best targets
(`attacks.best_options`). Where targets tie, the card takes the first of them as the attack answer
lists them, unless the tie is between parts of yours: then each is tried, since they leave your
factory differently. Part plays between two Attack cards
commute, so each run of them is searched in one canonical order; each distinct end state is scored
once. Defense cards that answer an opponent (Homing Missiles, Sentry Gunship) are never a play of
your own turn ("Defense Cards"); the plan says when keeping one matters. Cards whose effect the
rulebook does not give are played only when the player marks them `play`, after the other plays
(their stack requirement is then highest), and their effect is the player's to resolve.
The steps list part plays the way a player makes them: in each run, the plays that complete a robot
first, then the other plays onto the factory, then new stacks.

Only the Event phase sacrifice is costly to score, and three shortcuts keep it fast without changing
any answer (tests check them against brute force): sacrifice choices that another choice on the same
stack dominates are not tried; stacks that differ only in what no score reads share one answer; and
plans are scored in the order of an upper bound, stopping once the bound falls below both the best
score and the runner-up's (the two plans the answer reports). Before the search, a few plans it would
reach anyway (wins within reach, a greedy line of Attack cards, a greedy line of part plays) are
scored, so that the runner-up is high from the start and more is cut; they are real plans' scores, so
no answer changes.

A plan is judged by these terms, in this order (the first difference decides):
 1. won: two active robots after the plays (frozen ones count) ends the game at once, and then
    only the fewest plays matter;
 2. event: the Event phase option the player asked for can be paid;
 3. robots: active robots left after the Event phase sacrifice;
 4. wanted: Attack/Defense cards marked `play` that get played;
 5. own_lost: fewer of your own Part cards destroyed by your Attack cards;
 6. pressure: the opponents pushed back, nearest first (`attacks.Pressure`);
 7. outs: unseen cards that would each finish a robot next turn (more outs = better next draw);
 8. ready: Attack/Defense cards kept in hand whose stack requirement is met;
 9. progress: distinct parts per stack, most built stack first (compared stack by stack);
10. kept: fewer cards lost to the hand limit at cleanup;
11. plays: fewer plays (cards kept in hand stay flexible and out of reach of Attack cards).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import NamedTuple

from solvers.errors import InputError

from .attacks import (
    UNREACHABLE,
    PartRef,
    Pressure,
    StackRef,
    best_options,
    describe,
    destroy_option,
    destroyed,
    freeze_option,
    frozen,
    pressure,
    verdict,
)
from .cards import CANCEL_EVENT, COUNTER_ATTACK, DESTROY, Effect, HandCard, effect_of
from .factory import (
    BIT,
    MAX_STACKS,
    Factory,
    Part,
    Stack,
    free_energies,
    is_robot,
    placement,
    possible_masks,
    stack_parts,
    title,
)
from .odds import UnseenCard, p_at_least_one

EVENTS = ("none", "power", "active_robot")
EVENT_COST = {"power": 2, "active_robot": 1}
EVENT_NAME = {"power": "option A, use a Power card", "active_robot": "option B, reveal an Active Robot card"}

TERMS = ("won", "event", "robots", "wanted", "own_lost", "pressure", "outs", "ready", "progress", "kept", "plays")
PARTS = 4  # distinct part names in a robot ("How to Build a Robot")


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


class Score(NamedTuple):
    """A plan's terms in comparison order (see the module docstring)."""
    won: bool
    event: bool
    robots: int
    wanted: int
    own_lost: int      # minus your own Part cards destroyed
    pressure: tuple    # Pressure.key() of the opponents after the plays
    outs: int
    ready: int
    progress: tuple[int, ...]
    kept: int          # minus the cards discarded at cleanup
    plays: int         # minus the number of plays

    def key(self) -> tuple:
        return tuple(self)


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


# ---- the search's own compact factory --------------------------------------------------------------
# A card is an int: its part-name index above the five energy bits (`pack`); a stack is (frozen,
# sorted card ints). Stacks and their derived facts hash fast, so each distinct end state is scored
# once and cheaply.

ENERGY_BITS = 31
NAME_SHIFT = 5

SStack = tuple[bool, tuple[int, ...]]


def pack(name_index: int, mask: int) -> int:
    return name_index << NAME_SHIFT | mask


class Facts(NamedTuple):
    """What a score reads of one stack."""
    mask: int      # candidate energies
    names: int     # part names as bits (cut down, see `_Planner.facts`)
    frozen: bool


class Reach(NamedTuple):
    """What a sacrifice can make of one stack, as far as outs go (see `_Planner.reach`)."""
    short: int     # the part name it misses if unfrozen and one part short, else -1
    same: int      # energies it may take while keeping its part names
    wide: int      # every energy it may take (0 when it may go)
    gone: bool     # whether it may go


@dataclass(frozen=True)
class Play:
    """One play of the search: a Part card onto a stack (None: a new one), or a modelled Attack card
    with what it hits (cards named by value; factory 0 is yours)."""
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
    bound `_Planner.evaluate` gives before the Event phase sacrifice is worked out (the score itself
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
    a few are ever looked at again (`_Planner.materialize` makes the Candidate)."""
    score: Score
    order: Score
    parent: Candidate
    card: int                      # the card played
    stack: int | None              # onto this stack of the parent's (None: a new stack)
    hand_index: int


@dataclass(slots=True)
class Bar:
    """The best and the runner-up exact scores met so far: a state whose score (or upper bound) is
    below the runner-up can never be the best, tie with it, or be the runner-up, so it is not kept."""
    best: Score | None = None
    runner: Score | None = None
    states: int = 0   # end states met
    cut: int = 0      # states whose later plays were not searched (`_Planner.below_runner`)

    def meet(self, score: Score) -> None:
        if self.best is None or score > self.best:
            self.runner, self.best = self.best, score
        elif score < self.best and (self.runner is None or score > self.runner):
            self.runner = score

    def keeps(self, score: Score) -> bool:
        return self.runner is None or score >= self.runner


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


_NO_FACTORY = Factory(())
_NO_CAP = 1 << 30   # outs bound of a sacrifice that breaks a robot: none known (see `_Planner.sacrifice`)


def _short_name(missing: int) -> int:
    """The part name a stack misses when it is one part short (`missing`: the names it lacks), else -1."""
    return missing.bit_length() - 1 if missing and not missing & (missing - 1) else -1


def _add(stack: SStack, card: int) -> SStack:
    return stack[0], tuple(sorted(stack[1] + (card,)))


def _remove(stacks: Sequence[SStack], picks: Sequence[tuple[int, int]]) -> tuple[SStack, ...]:
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


class _Planner:
    def __init__(self, turn: Turn):
        self.t = turn
        self.names = turn.part_names
        self.index = {n: i for i, n in enumerate(self.names)}
        self.full = (1 << len(self.names)) - 1
        self.part_cards: dict[int, list[int]] = {}
        for i, c in enumerate(turn.hand):
            if c.kind == "part" and c.part is not None:
                self.part_cards.setdefault(self.card(c.part), []).append(i)
        self.types = list(self.part_cards)
        self.card_parts: dict[int, Part] = {}
        for c in [*(c.part for c in turn.hand if c.part is not None),
                  *(c for st in turn.factory.stacks for c in st.cards)]:
            self.card_parts[self.card(c)] = c
        self.effects = [effect_of(c) if c.kind != "part" else None for c in turn.hand]
        groups: dict[tuple, list[int]] = {}
        for i, c in enumerate(turn.hand):
            e = self.effects[i]
            if e is not None and e.modelled:
                groups.setdefault((e, c.stacks_required, c.play), []).append(i)
        self.attack_types = [AttackType(effect=e, stacks_required=req, marked=marked, hand_indices=tuple(idx))
                             for (e, req, marked), idx in groups.items()]
        # marked cards whose effect Tablebot does not model are played last, when the stacks allow
        self.flagged = [i for i, c in enumerate(turn.hand)
                        if c.kind != "part" and c.play and self.effects[i] is not None
                        and not self.effects[i].modelled and not self.effects[i].reactive]
        # unseen part cards by part-name index: [(mask, copies)]
        self.unseen_by_name: dict[int, list[tuple[int, int]]] = {}
        for u in turn.unseen:
            if u.part is not None and u.part.part in self.index and u.count > 0:
                self.unseen_by_name.setdefault(self.index[u.part.part], []).append((u.part.mask, u.count))
        self.start: tuple[SStack, ...] = tuple(
            (s.frozen, tuple(sorted(self.card(c) for c in s.cards))) for s in turn.factory.stacks)
        self.cost = EVENT_COST.get(turn.event, 0)
        self.start_free = sum(len(s[1]) for s in self.start if not s[0])
        # the other seats' factories as they stand after each Attack card: index 0 is the table as given
        self.tables: list[tuple[Factory, ...]] = [tuple(turn.others)]
        self._table_index: dict[tuple, int] = {self._table_key(self.tables[0]): 0}
        self._pressure: dict[int, tuple] = {}
        self._infos: dict[SStack, Facts] = {}
        self._fronts: dict[SStack, tuple[tuple, tuple]] = {}
        self._reach: dict[SStack, Reach] = {}
        self._shape_cache: dict[tuple[Facts, ...], tuple[int, int, tuple[int, ...]]] = {}
        self._bound_cache: dict[tuple, int] = {}
        self._sac_values: dict[tuple, tuple] = {}
        self._sac_sig: dict[SStack, tuple] = {}
        self._triples: dict[SStack, tuple[int, int, int]] = {}
        self._caps: dict[tuple, tuple[int, ...]] = {}
        self._tail_cache: dict[tuple, tuple[tuple[int, ...], tuple[int, ...], int]] = {}
        self._leaf_cache: dict[tuple, LeafContext] = {}
        self._grow: dict[tuple, tuple[SStack, Facts, Reach | None]] = {}
        self._attack_cache: dict[tuple, tuple[Strike, ...]] = {}
        self._theirs: dict[tuple[str, int], list[tuple[int, int, Part]]] = {}

    def card(self, part: Part) -> int:
        if part.part not in self.index:
            raise InputError("part_names", f"{part.part!r} is not one of the part names {self.names}")
        return pack(self.index[part.part], part.mask)

    @staticmethod
    def _table_key(others: tuple[Factory, ...]) -> tuple:
        return tuple(f.key() for f in others)

    def table_id(self, others: tuple[Factory, ...]) -> int:
        key = self._table_key(others)
        hit = self._table_index.get(key)
        if hit is None:
            hit = self._table_index[key] = len(self.tables)
            self.tables.append(others)
        return hit

    def pressure_of(self, table: int) -> tuple:
        hit = self._pressure.get(table)
        if hit is None:
            hit = self._pressure[table] = self.pressure_record(table).key()
        return hit

    def pressure_record(self, table: int) -> Pressure:
        return pressure((Factory(()), *self.tables[table]), 0, self.names)

    def factory_of(self, stacks: Sequence[SStack]) -> Factory:
        return Factory(tuple(Stack(tuple(self.card_parts[c] for c in cards), frozen) for frozen, cards in stacks))

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
            cands.append(((robots, cap if cap is not None and robots == base else _NO_CAP, ready[len(pc)],
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
        return _remove(stacks, best[1]), best[1], best[0][0] < base, best[0]

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

    # -- the plays --

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
            return Score(won=True, event=True, robots=robots_now, wanted=0, own_lost=0, pressure=(), outs=0,
                         ready=0, progress=(), kept=0, plays=-plays), (), True
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
            return Score(won=True, event=True, robots=potential, wanted=0, own_lost=0, pressure=(), outs=0, ready=0,
                         progress=(), kept=0, plays=-(plays + 1)) < runner
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

    def seed_wins(self) -> None:
        """Meet the scores of the wins within reach before the search, so that it cuts everything else
        from the start (the search, new stacks first, would find them late). Only part plays that add
        a missing part name to a stack are tried: they are real plays of the search, so these are
        scores it meets anyway."""
        bar, full, types, part_cards = self.bar, self.full, self.types, self.part_cards
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
                bar.meet(Score(won=True, event=True, robots=robots, wanted=0, own_lost=0, pressure=(), outs=0,
                               ready=0, progress=(), kept=0, plays=-plays))
                return
            left = actions - plays
            need = sorted(n_names - x.names.bit_count() for x in infos if not x.frozen and x.names != full)
            if len(need) < 2 - robots or sum(need[:2 - robots]) > left:
                return   # the robots still missing need more plays than are left
            possible = possible_masks(tuple(x.mask for x in infos))
            for t, card in enumerate(types):
                if used[t] >= len(part_cards[card]):
                    continue
                bit = 1 << (card >> NAME_SHIFT)
                nused = used[:t] + (used[t] + 1,) + used[t + 1:]
                for k, st in enumerate(stacks):
                    if st[0] or not possible[k] & card & ENERGY_BITS or any(1 << (c >> NAME_SHIFT) == bit for c in st[1]):
                        continue
                    dive(stacks[:k] + (_add(st, card),) + stacks[k + 1:], nused, plays + 1)

        dive(self.start, tuple(0 for _ in types), 0)

    def seed_parts(self) -> None:
        """Meet the exact scores of one line of part plays before the search, so that it cuts more
        from the start: at each play, the one that leaves the best robots, outs and progress (read off
        the stacks, without the Event phase sacrifice, so this stays cheap). These are states the
        search reaches anyway (part plays commute; the same state is scored the same way), so no
        answer changes."""
        bar, actions, full, cost = self.bar, self.t.actions, self.full, self.cost
        types, part_cards, grow, reach = self.types, self.part_cards, self.grow, self.reach
        stacks = self.start
        infos = tuple(self.info(s) for s in stacks)
        used = [0] * len(types)
        no_attacks = tuple(0 for _ in self.attack_types)
        for plays in range(1, actions + 1):
            if sum(1 for x in infos if x.names == full) >= 2:
                return
            masks = tuple(x.mask for x in infos)
            possible, room = possible_masks(masks), free_energies(masks)
            best: tuple | None = None
            for t, card in enumerate(types):
                if used[t] >= len(part_cards[card]):
                    continue
                cm = card & ENERGY_BITS
                onto = [k for k, st in enumerate(stacks) if not st[0] and possible[k] & cm]
                for k in ([None] if room & cm else []) + onto:
                    grown, ni, _ = grow(stacks[k] if k is not None else None, card)
                    after = infos + (ni,) if k is None else infos[:k] + (ni,) + infos[k + 1:]
                    v = self.shape_value(tuple(sorted(after)))
                    if best is None or v > best[0]:
                        best = (v, stacks + (grown,) if k is None else stacks[:k] + (grown,) + stacks[k + 1:], after, t)
            if best is None:
                return
            _, stacks, infos, t = best
            used[t] += 1
            robots = sum(1 for x in infos if x.names == full)
            free = sum(len(st[1]) for st in stacks if not st[0])
            order, _, exact = self.evaluate(stacks, infos, plays, robots, no_attacks, 0, 0, free,
                                            tuple(reach(st) for st in stacks) if cost else ())
            score = order if exact else (self.settle(order, stacks, self.tail(
                len(stacks), actions - plays, no_attacks)[1]) if bar.keeps(order) else None)
            if score is not None:
                bar.meet(score)

    def seed_strikes(self, stacks: tuple[SStack, ...], used_attacks: tuple[int, ...], table: int, own_lost: int,
                     plays: int) -> tuple | None:
        """Meet the exact score of each modelled Attack card played now as play number `plays` (as the
        search scores that state); the best of them as (score, stacks, used attacks, table, own lost)."""
        bar, actions, info, reach, cost, full = self.bar, self.t.actions, self.info, self.reach, self.cost, self.full
        follow: tuple | None = None
        for a_i, a in enumerate(self.attack_types):
            if used_attacks[a_i] >= len(a.hand_indices) or len(stacks) < a.stacks_required:
                continue
            nused_a = used_attacks[:a_i] + (used_attacks[a_i] + 1,) + used_attacks[a_i + 1:]
            for strike in self.attack_options(a, stacks, table):
                new_stacks = strike.stacks if strike.stacks is not None else stacks
                lost = own_lost + strike.own_lost
                infos = tuple(info(s) for s in new_stacks)
                robots = sum(1 for x in infos if x.names == full)
                free = sum(len(s[1]) for s in new_stacks if not s[0])
                order, _, exact = self.evaluate(new_stacks, infos, plays, robots, nused_a, lost, strike.table,
                                                free, tuple(reach(s) for s in new_stacks) if cost else ())
                score = order if exact else (self.settle(order, new_stacks, self.tail(
                    len(new_stacks), actions - plays, nused_a)[1]) if bar.keeps(order) else None)
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
            after = _remove(stacks, picks)
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

    def grow(self, stack: SStack | None, card: int) -> tuple[SStack, Facts, Reach | None]:
        """The stack with one more card (None: a new stack of it), its facts and, when an Event is to be
        paid, its reach."""
        key = (stack, card)
        hit = self._grow.get(key)
        if hit is None:
            grown = (False, (card,)) if stack is None else _add(stack, card)
            hit = self._grow[key] = (grown, self.info(grown), self.reach(grown) if self.cost else None)
        return hit

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

    def materialize(self, leaf: Leaf) -> Candidate:
        p = leaf.parent
        if leaf.stack is None:
            stacks = p.stacks + ((False, (leaf.card,)),)
        else:
            stacks = p.stacks[:leaf.stack] + (_add(p.stacks[leaf.stack], leaf.card),) + p.stacks[leaf.stack + 1:]
        tail = self.leaf_context(len(stacks), len(p.seq) + 1, self._used_attacks(p.seq), 0, p.others).tail
        return Candidate(score=leaf.score, order=leaf.order, tail=tail if not leaf.score.won else (), stacks=stacks,
                         others=p.others, seq=p.seq + (Play(hand_index=leaf.hand_index, stack=leaf.stack),))

    def search(self) -> list[Candidate | Leaf]:
        """The end states of the plays that may matter, with their score or an upper bound on it (the
        others are only counted, in `self.bar`).

        Part plays commute (a state is legal whenever a later one is, since fewer cards only widen
        the energies a stack may take), so between two Attack cards each state is reached in one
        canonical order: first the plays that start new stacks, then those that add to a stack, each
        group by card kind. An Attack card that takes none of your parts commutes with part plays too,
        so no part play follows it. A state with two robots ends the game, so nothing is played after it."""
        seen: set[tuple] = set()
        found: list[Candidate | Leaf] = []
        bar = self.bar = Bar()
        actions = self.t.actions
        types = self.types
        part_cards = self.part_cards
        info, evaluate, full = self.info, self.evaluate, self.full
        attack_types = self.attack_types
        # `reach` is only needed to bound states that pay for an Event (an empty tuple otherwise)
        cost, reach = self.cost, self.reach

        event, powers = self.t.event, self.t.powers_left >= 1
        shape_value, outs_bound, leaf_context, grow = self.shape_value, self.outs_bound, self.leaf_context, self.grow
        settle, tail_of = self.settle, self.tail

        def settle_state(bound: Score, stacks: tuple[SStack, ...], plays: int, used_attacks: tuple[int, ...]
                         ) -> Score | None:
            """The exact score of a state `evaluate` bounded, or None when the bound is below the runner-up."""
            if not bar.keeps(bound):
                return None
            return settle(bound, stacks, tail_of(len(stacks), actions - plays, used_attacks)[1])


        def leaves(parent: Candidate, stacks: tuple[SStack, ...], infos: tuple[Facts, ...], reaches: tuple,
                   used: tuple[int, ...], used_attacks: tuple[int, ...], table: int, own_lost: int, free: int,
                   robots: int, possible: tuple[int, ...], room: int, adding: bool, first: int) -> None:
            """The states one more part play makes, scored in place: the last play of the turn. What
            they share is worked out once (`leaf_context`); each only differs in one stack."""
            plays = len(parent.seq) + 1
            n = len(stacks)
            same, grown_ctx = leaf_context(n, plays, used_attacks, own_lost, table), \
                leaf_context(n + 1, plays, used_attacks, own_lost, table)
            pays = event == "none" or (free + 1 >= cost and (event == "active_robot" or powers))
            deployable = sum(1 for x in infos if x.names == full and not x.frozen)
            parts_now = [x.names.bit_count() for x in infos]
            # children that leave the same facts on the same stack score alike: each is scored once
            memo: dict[tuple, tuple] = {}
            # a play that finishes no robot leaves the first terms as they are (robots, and a robot to
            # deploy, stay): once those are below the runner-up's, only the plays that finish a robot
            # are looked at, and the others are only counted
            paid_as_is = event == "none" or (pays and (event == "power" or deployable > 0))
            first_new = (False, paid_as_is, robots, grown_ctx.wanted, -own_lost, grown_ctx.pressure)
            first_add = (False, paid_as_is, robots, same.wanted, -own_lost, same.pressure)
            finishing: dict[int, list[int]] = {}   # part name -> the stacks it would make a robot
            for k, x in enumerate(infos):
                name = -1 if x.frozen else _short_name(full ^ x.names)
                if name >= 0:
                    finishing.setdefault(name, []).append(k)
            open_stacks = [k for k, s in enumerate(stacks) if not s[0]]
            places: dict[int, list[int]] = {}      # card energies -> the stacks it may go onto
            def child(card: int, hand_index: int, k: int | None) -> None:
                _, ni, nr = grow(stacks[k] if k is not None else None, card)
                memo_key = (k, ni, nr)
                hit = memo.get(memo_key)
                if hit is None:
                    robot = ni.names == full
                    if k is None:
                        now, dep, ctx = robots + robot, deployable + robot, grown_ctx
                    else:
                        old = infos[k]
                        was = old.names == full
                        now, dep, ctx = robots - was + robot, deployable - (was and not old.frozen) + robot, same
                    paid = event == "none" or (pays and (event == "power" or dep))
                    if now < 2 and bar.runner is not None and \
                            (False, paid, now, ctx.wanted, -own_lost, ctx.pressure) < bar.runner[:6]:
                        # its first terms are already below the runner-up's (robots only fall in a
                        # sacrifice): whatever the rest, it is not kept
                        memo[memo_key] = (None, None, None)
                        bar.states += 1
                        return
                    if now >= 2:
                        won = Score(won=True, event=True, robots=now, wanted=0, own_lost=0, pressure=(), outs=0,
                                    ready=0, progress=(), kept=0, plays=-plays)
                        hit = (won, won, None)
                    elif event == "none" or not paid:
                        after = infos + (ni,) if k is None else infos[:k] + (ni,) + infos[k + 1:]
                        r, outs, progress = shape_value(tuple(sorted(after)))
                        score = Score(won=False, event=event == "none", robots=r, wanted=ctx.wanted,
                                      own_lost=-own_lost, pressure=ctx.pressure, outs=outs, ready=ctx.ready,
                                      progress=progress, kept=ctx.kept, plays=ctx.plays)
                        hit = (score, score, None)
                    else:
                        counts = parts_now + [ni.names.bit_count()] if k is None else \
                            parts_now[:k] + [ni.names.bit_count()] + parts_now[k + 1:]
                        progress = tuple(sorted(counts, reverse=True))
                        reach_after = reaches + (nr,) if k is None else reaches[:k] + (nr,) + reaches[k + 1:]
                        # an upper bound: the sacrifice depends on the cards, not only on these facts,
                        # so each child works it out (`settle`, shared through `sacrifice_value`)
                        hit = (None, Score(won=False, event=True, robots=now, wanted=ctx.wanted,
                                           own_lost=-own_lost, pressure=ctx.pressure,
                                           outs=outs_bound(reach_after), ready=ctx.ready, progress=progress,
                                           kept=ctx.kept, plays=ctx.plays), ctx.kept_reqs)
                    memo[memo_key] = hit
                    if hit[2] is None:
                        bar.meet(hit[0])
                bar.states += 1
                score, order, kept_reqs = hit
                if kept_reqs is not None:
                    # the sacrifice is worked out only while the bound can still reach the runner-up
                    if not bar.keeps(order):
                        return
                    grown = grow(stacks[k] if k is not None else None, card)[0]
                    score = settle(order, stacks + (grown,) if k is None else
                                   stacks[:k] + (grown,) + stacks[k + 1:], kept_reqs)
                    if score is None:
                        return
                    bar.meet(score)
                if score is not None and bar.keeps(score):
                    found.append(Leaf(score=score, order=order, parent=parent, card=card, stack=k,
                                      hand_index=hand_index))

            runner, cut_new, cut_add = None, False, False
            if bar.runner is not None:
                runner = bar.runner
                cut_new, cut_add = first_new < runner[:6], first_add < runner[:6]
                if cut_add and (cut_new or adding):
                    # every play that finishes no robot is cut (the runner-up only rises): those are
                    # only counted, and the plays that finish one are scored in the usual order
                    met, todo = 0, []
                    for t in range(len(types)):
                        card = types[t]
                        idxs = part_cards[card]
                        if used[t] >= len(idxs):
                            continue
                        cm = card & ENERGY_BITS
                        if not adding and t >= first and room & cm:
                            met += 1
                        if not (adding and t < first):
                            onto = places.get(cm)
                            if onto is None:
                                onto = places[cm] = [k for k in open_stacks if possible[k] & cm]
                            met += len(onto)
                            for k in finishing.get(card >> NAME_SHIFT, ()):
                                if k in onto:
                                    todo.append((card, idxs[used[t]], k))
                                    met -= 1
                    bar.states += met
                    for card, hand_index, k in todo:
                        child(card, hand_index, k)
                    return
            for t in range(len(types)):
                card = types[t]
                idxs = part_cards[card]
                if used[t] >= len(idxs):
                    continue
                if bar.runner is not runner:
                    runner = bar.runner
                    cut_new, cut_add = first_new < runner[:6], first_add < runner[:6]
                cm = card & ENERGY_BITS
                hand_index = idxs[used[t]]
                children = []
                if not adding and t >= first and room & cm:
                    if cut_new:
                        bar.states += 1
                    else:
                        children.append(None)
                if not (adding and t < first):
                    onto = places.get(cm)
                    if onto is None:
                        onto = places[cm] = [k for k in open_stacks if possible[k] & cm]
                    if cut_add:
                        ends = [k for k in finishing.get(card >> NAME_SHIFT, ()) if k in onto]
                        bar.states += len(onto) - len(ends)
                        children += ends
                    else:
                        children += onto
                for k in children:
                    child(card, hand_index, k)

        def rec(stacks: tuple[SStack, ...], infos: tuple[Facts, ...], reaches: tuple, used: tuple[int, ...],
                used_attacks: tuple[int, ...], table: int, own_lost: int, free: int, seq: tuple,
                adding: bool, first: int, attacks_only: bool = False) -> None:
            key = (tuple(sorted(stacks)), used, used_attacks, table, attacks_only)
            if key in seen:
                return
            seen.add(key)
            robots = sum(1 for x in infos if x.names == full)
            bar.states += 1
            if robots < 2 and bar.runner is not None and \
                    self.first_terms(stacks, infos, len(seq), robots, used_attacks, own_lost, table, free) \
                    < bar.runner[:6]:
                # as an end state it is below the runner-up already; the states after it may not be
                here = Candidate(score=None, order=None, tail=(), stacks=stacks, others=table, seq=seq)
            else:
                order, tail, exact = evaluate(stacks, infos, len(seq), robots, used_attacks, own_lost, table, free,
                                              reaches)
                score = order if exact else settle_state(order, stacks, len(seq), used_attacks)
                here = Candidate(score=score, order=order, tail=tail, stacks=stacks, others=table, seq=seq)
                if score is not None:
                    bar.meet(score)
                    if bar.keeps(score):
                        found.append(here)
            if len(seq) == actions or robots >= 2:
                return
            if bar.runner is not None and self.below_runner(infos, robots, len(seq), used_attacks, own_lost, table):
                bar.cut += 1
                return
            masks = tuple(x.mask for x in infos)
            possible = possible_masks(masks)   # a card may go on stack k when it shares an energy with these
            room = free_energies(masks)        # or start a stack when it carries one of these
            if attacks_only:
                pass
            elif len(seq) + 1 == actions:
                leaves(here, stacks, infos, reaches, used, used_attacks, table, own_lost, free, robots,
                       possible, room, adding, first)
            else:
                for t in range(len(types)):
                    card = types[t]
                    idxs = part_cards[card]
                    if used[t] >= len(idxs):
                        continue
                    cm = card & ENERGY_BITS
                    nused = used[:t] + (used[t] + 1,) + used[t + 1:]
                    hand_index = idxs[used[t]]
                    if not adding and t >= first and room & cm:
                        new, ni, nr = grow(None, card)
                        rec(stacks + (new,), infos + (ni,), reaches + (nr,) if cost else (), nused,
                            used_attacks, table, own_lost, free + 1,
                            seq + (Play(hand_index=hand_index, stack=None),), False, t)
                    if adding and t < first:
                        continue
                    for k, s in enumerate(stacks):
                        if s[0] or not (possible[k] & cm):
                            continue
                        grown, ni, nr = grow(s, card)
                        rec(stacks[:k] + (grown,) + stacks[k + 1:], infos[:k] + (ni,) + infos[k + 1:],
                            reaches[:k] + (nr,) + reaches[k + 1:] if cost else (), nused, used_attacks,
                            table, own_lost, free + 1, seq + (Play(hand_index=hand_index, stack=k),), True, t)
            for a_i, a in enumerate(attack_types):
                if used_attacks[a_i] >= len(a.hand_indices) or len(stacks) < a.stacks_required:
                    continue
                hand_index = a.hand_indices[used_attacks[a_i]]
                nused_a = used_attacks[:a_i] + (used_attacks[a_i] + 1,) + used_attacks[a_i + 1:]
                last = len(seq) + 1 == actions
                for strike in self.attack_options(a, stacks, table):
                    new_stacks = strike.stacks if strike.stacks is not None else stacks
                    play = Play(hand_index=hand_index, attack=True, targets=strike.targets, freeze=strike.freeze)
                    if last and strike.stacks is None:
                        # the turn's last play leaves your factory as it is: scored in place, like a leaf
                        bar.states += 1
                        if bar.runner is not None and self.first_terms(
                                stacks, infos, actions, robots, nused_a, own_lost, strike.table, free) < bar.runner[:6]:
                            continue
                        order, tail, exact = evaluate(stacks, infos, actions, robots, nused_a, own_lost, strike.table,
                                                      free, reaches)
                        score = order if exact else settle_state(order, stacks, actions, nused_a)
                        if score is not None:
                            bar.meet(score)
                            if bar.keeps(score):
                                found.append(Candidate(score=score, order=order, tail=tail, stacks=stacks,
                                                       others=strike.table, seq=seq + (play,)))
                        continue
                    new_infos = tuple(info(s) for s in new_stacks)
                    # an Attack card that leaves your factory alone commutes with part plays (its targets
                    # and its stack requirement only get easier with more parts down), so parts go first
                    rec(new_stacks, new_infos, tuple(reach(s) for s in new_stacks) if cost else (), used,
                        nused_a, strike.table, own_lost + strike.own_lost,
                        sum(len(s[1]) for s in new_stacks if not s[0]), seq + (play,), False, 0,
                        strike.stacks is None)

        self.seed_wins()
        self.seed_attacks()
        self.seed_parts()
        rec(self.start, tuple(info(s) for s in self.start), tuple(reach(s) for s in self.start) if cost else (),
            tuple(0 for _ in types), tuple(0 for _ in attack_types), 0, 0, self.start_free, (), False, 0)
        rec = None  # type: ignore[assignment]  # the closure refers to itself: free it now, not at a GC pass
        return found

    def score_all(self, found: list[Candidate | Leaf]) -> list[Candidate]:
        """The best state, the next three tied with it and the first runner-up, in that order (what a
        plan reports). Tied scores are in the order of the upper bound `evaluate` gives
        (`Candidate.order`), then in the search's; two ways to one state count once."""
        found.sort(key=lambda c: (c.score, c.order), reverse=True)
        scored: list[Candidate] = []
        seen: set[tuple] = set()
        for item in found:
            if len(scored) == 4 and item.score == scored[0].score:
                continue
            c = self.materialize(item) if isinstance(item, Leaf) else item
            key = (tuple(sorted(c.stacks)), tuple(sorted(p.hand_index for p in c.seq)), c.others)
            if key in seen:
                continue
            seen.add(key)
            scored.append(c)
            if c.score < scored[0].score:
                break
        return scored

    def _used_attacks(self, seq: Sequence[Play]) -> tuple[int, ...]:
        idx = {p.hand_index for p in seq if p.attack}
        return tuple(sum(1 for i in a.hand_indices if i in idx) for a in self.attack_types)


# ---- explanations ------------------------------------------------------------------------------------

def _runs(seq: Sequence[Play]) -> list[tuple[bool, list[Play]]]:
    """The plays cut into runs: (is a run of part plays, its plays); each Attack card is a run."""
    out: list[tuple[bool, list[Play]]] = []
    for p in seq:
        is_part = not p.attack
        if is_part and out and out[-1][0]:
            out[-1][1].append(p)
        else:
            out.append((is_part, [p]))
    return out


def _player_order(turn: Turn, seq: Sequence[Play]) -> tuple[Play, ...]:
    """The plays of `seq` in the order a player makes them. In each run of part plays (between
    Attack cards): first the plays onto each stack that becomes an active robot in the run, then the
    other plays onto stacks already in the factory, then each new stack followed by the cards played
    onto it. The plan stays the same: part plays commute within a run (the search's canonical order
    relies on it), new stacks keep their order, so every stack keeps its number, and the plays onto
    one stack keep theirs, so the factory after the plays is the same card for card."""
    out: list[Play] = []
    f = turn.factory
    others = turn.others
    for is_part, plays in _runs(seq):
        if is_part:
            out += _run_order(turn, f, plays)
            for p in plays:
                part = turn.hand[p.hand_index].part
                assert part is not None
                f = f.add(part, p.stack)
        else:
            f, others = _apply_attack(f, others, plays[0])
            out += plays
    return tuple(out)


def _run_order(turn: Turn, f: Factory, plays: Sequence[Play]) -> list[Play]:
    """One run of part plays onto factory `f`, in the player's order (see `_player_order`)."""
    start = len(f.stacks)
    targets, g = [], f
    for p in plays:
        targets.append(p.stack if p.stack is not None else len(g.stacks))
        part = turn.hand[p.hand_index].part
        assert part is not None
        g = g.add(part, p.stack)
    names = turn.part_names
    new_robots = {j for j in range(start) if is_robot(g.stacks[j], names) and not is_robot(f.stacks[j], names)}

    def rank(pos: int) -> tuple:
        target, new = targets[pos], plays[pos].stack is None
        return (0 if target in new_robots else 1 if target < start else 2, target, not new, pos)
    return [plays[pos] for pos in sorted(range(len(plays)), key=rank)]


def _refs(factories: Sequence[Factory], targets: Sequence[tuple[int, int, Part]]) -> list[PartRef]:
    """The named cards as positions in these factories: the top copy of equal cards, each once."""
    taken: set[tuple[int, int, int]] = set()
    refs = []
    for k, i, part in targets:
        cards = factories[k].stacks[i].cards
        j = max(j for j, c in enumerate(cards) if c == part and (k, i, j) not in taken)
        taken.add((k, i, j))
        refs.append(PartRef(factory=k, stack=i, card=j, part=part))
    return refs


def _apply_attack(f: Factory, others: tuple[Factory, ...], play: Play) -> tuple[Factory, tuple[Factory, ...]]:
    table = (f, *others)
    if play.freeze is not None:
        after = frozen(table, StackRef(factory=play.freeze[0], stack=play.freeze[1]))
    else:
        after = destroyed(table, _refs(table, play.targets))
    return after[0], tuple(after[1:])


def _summary(turn: Turn, seq: Sequence[Play], tail: Sequence[int]) -> str:
    bits = []
    for p in seq:
        c = turn.hand[p.hand_index]
        if not p.attack:
            assert c.part is not None
            bits.append(f"{c.part.label()} {'on stack ' + str(p.stack + 1) if p.stack is not None else 'as a new stack'}")
        elif p.freeze is not None:
            bits.append(f"play {c.title} on {turn.label(p.freeze[0])}'s stack {p.freeze[1] + 1}")
        else:
            whose = [f"{turn.label(k)}'s" for k in sorted({k for k, _, _ in p.targets if k})]
            whose += ["your own"] if any(k == 0 for k, _, _ in p.targets) else []
            bits.append(f"play {c.title} on {' and '.join(whose)} parts")
    bits += [f"play {turn.hand[i].name or turn.hand[i].kind}" for i in tail]
    return "; ".join(bits) if bits else "play nothing"


TERM_TEXT = {  # what the better plan has more (or less) of, for "Better than ..." (values follow)
    "won": "it wins now",
    "event": "it can pay for the Event phase you chose",
    "robots": "more active robots kept",
    "wanted": "more of your marked Attack/Defense cards played",
    "own_lost": "fewer of your own parts destroyed",
    "pressure": "it sets the opponents back further (parts each still needs for two robots, nearest first",
    "outs": "more unseen cards that would finish a robot",
    "ready": "more Attack/Defense cards in hand with their stack requirement met",
    "progress": "further-built stacks (parts per stack, most built first",
    "kept": "fewer cards lost to the hand limit",
    "plays": "fewer cards played, so more stay in hand",
}


def _difference(a: Score, b: Score) -> str:
    """The first term on which plan a beats plan b, in words, with both values."""
    for name in TERMS:
        x, y = getattr(a, name), getattr(b, name)
        if x != y:
            if name in ("won", "event"):
                return TERM_TEXT[name]
            if name == "progress":
                def show(v: tuple[int, ...]) -> str:
                    return ", ".join(f"{n}/{PARTS}" for n in v) or "no stack"
                return f"{TERM_TEXT[name]}: {show(x)} against {show(y)})"
            if name == "pressure":
                def dist(v: tuple) -> str:
                    return ", ".join(str(d) for d in v[0]) if v else "none"
                if x[0] == y[0]:
                    return "it leaves the opponents fewer active robots"
                return f"{TERM_TEXT[name]}: {dist(x)} against {dist(y)})"
            if name in ("kept", "plays", "own_lost"):
                x, y = -x, -y
            return f"{TERM_TEXT[name]} ({x} against {y})"
    return "nothing"


def _reasons(turn: Turn, score: Score, total_unseen: int) -> list[str]:
    out = []
    if score.won:
        out.append("Two active robots after these plays: you win (frozen robots count).")
        return out
    if turn.event != "none":
        out.append(f"The Event phase ({EVENT_NAME[turn.event]}) can be paid." if score.event else
                   f"The Event phase you chose ({EVENT_NAME[turn.event]}) cannot be paid with any plan.")
    out.append(f"{score.robots} active robot{'s' if score.robots != 1 else ''} at the end of the turn.")
    if score.wanted:
        out.append(f"{score.wanted} marked Attack/Defense card{'s' if score.wanted != 1 else ''} played.")
    if score.own_lost:
        out.append(f"Your own Attack cards destroy {-score.own_lost} of your own parts.")
    if total_unseen:
        p = p_at_least_one(total_unseen, score.outs, 3)
        out.append(f"{score.outs} of {total_unseen} unseen cards would finish a robot: "
                   f"{float(p) * 100:.1f} % to draw one in your next three." if score.outs else
                   "No unseen card finishes a robot in one play yet.")
    if score.ready:
        out.append(f"{score.ready} Attack/Defense card{'s' if score.ready != 1 else ''} kept in hand "
                   "can be played (stack requirement met).")
    if score.progress:
        out.append("Parts per stack, most built first: " + ", ".join(f"{n}/{PARTS}" for n in score.progress) + ".")
    return out


def _attack_step(turn: Turn, f: Factory, others: tuple[Factory, ...], play: Play) -> Step:
    c = turn.hand[play.hand_index]
    table = (f, *others)
    labels = [turn.label(k) for k in range(len(table))]
    if play.freeze is not None:
        real = freeze_option(table, StackRef(factory=play.freeze[0], stack=play.freeze[1]), 0, turn.part_names)
    else:
        real = destroy_option(table, _refs(table, play.targets), 0, turn.part_names)
    frozen = sum(s.frozen for s in f.stacks)
    n = len(f.stacks)
    need = (f"{c.title} needs {c.stacks_required} unique stack{'s' if c.stacks_required != 1 else ''}; you have {n}"
            + (f" ({frozen} frozen, which count)" if frozen else "") + ". ")
    what = describe(real, table, 0, turn.part_names, labels)
    own = [r for r in real.destroyed if r.factory == 0]
    if own:
        stacks = sorted({r.stack + 1 for r in own})
        what += (f" Warning: this destroys your own {' and '.join(r.part.label() for r in own)}, which breaks "
                 f"your stack{'s' if len(stacks) > 1 else ''} {' and '.join(map(str, stacks))}: the card must take "
                 f"exactly {effect_of(c).count} {title(effect_of(c).energy or '')} parts and no other choice is legal.")
    rules = ("tr-attack-defense-cards",) + (("tr-frozen-stacks",) if frozen else ()) + effect_of(c).rules
    return Step(phase="play", action=c.kind, card=c.title, hand_index=play.hand_index, stack=None, new_stack=False,
                why=need + what, rules=rules, destroyed=real.destroyed, frozen=play.freeze, destroys_own=bool(own))


def _play_steps(turn: Turn, seq: Sequence[Play], tail: Sequence[int]) -> tuple[list[Step], Factory, tuple[Factory, ...]]:
    steps = []
    f, others = turn.factory, turn.others
    for play in seq:
        if play.attack:
            steps.append(_attack_step(turn, f, others, play))
            f, others = _apply_attack(f, others, play)
            continue
        i, k = play.hand_index, play.stack
        card = turn.hand[i].part
        assert card is not None
        p = placement(f, card, k, turn.part_names)
        assert p is not None
        rules = ["tr-stacking-part-cards", "tr-energy-stacks"]
        if p.completes_robot:
            rules.append("tr-how-to-build-a-robot")
        if p.duplicate:
            rules.append("tr-duplicate-parts")
        effect = p.why.split(": ", 1)[-1]  # the sentence names the card and place; the step title does already
        steps.append(Step(phase="play", action="part", card=card.label(), hand_index=i, stack=k, new_stack=k is None,
                          why=effect[:1].upper() + effect[1:], rules=tuple(rules)))
        f = f.add(card, k)
    n = len(f.stacks)
    for i in tail:
        c = turn.hand[i]
        frozen = sum(s.frozen for s in f.stacks)
        why = (f"{c.title} needs {c.stacks_required} unique stack"
               f"{'s' if c.stacks_required != 1 else ''}; you have {n}"
               + (f" ({frozen} frozen, which count)" if frozen else "") +
               ". What it does is not in the rulebook: it is yours to resolve.")
        rules = ("tr-attack-defense-cards",) + (("tr-frozen-stacks",) if frozen else ())
        steps.append(Step(phase="play", action=c.kind, card=c.title, hand_index=i, stack=None, new_stack=False,
                          why=why, rules=rules))
    return steps, f, others


def _explain_sacrifice(f: Factory, picks: Sequence[tuple[int, int]], names: Sequence[str],
                       card_of: dict[int, Part]) -> tuple[list[tuple[int, Part, str]], Factory]:
    """Take the picks one by one from the factory after the plays: (stack, card, why) and the result.
    A pick names a stack and a card; the top copy of equal cards goes (the sideways duplicate)."""
    out = []
    stacks = list(f.stacks)
    alive = list(range(len(stacks)))        # original index of each remaining stack
    for i, cid in picks:
        pos = alive.index(i)
        s = stacks[pos]
        card = card_of[cid]
        j = max(k for k, c in enumerate(s.cards) if c == card)
        copies = sum(c.part == card.part for c in s.cards)
        robot = is_robot(s, names)
        if copies > 1:
            why = f"a spare copy of {card.part.upper()} on stack {i + 1}, so no part is lost"
        elif len(s.cards) == 1:
            why = f"the only card of stack {i + 1}, which goes away"
        elif robot:
            why = f"from the robot in stack {i + 1}, which breaks it (no other choice keeps it)"
        else:
            have = len(stack_parts(s, names)[0])
            why = f"stack {i + 1} goes from {have} parts to {have - 1}, the loss that hurts least"
        out.append((i, card, why))
        rest = s.without(j)
        if rest.cards:
            stacks[pos] = rest
        else:
            del stacks[pos]
            del alive[pos]
    return out, Factory(tuple(stacks))


def _event_option(planner: _Planner, f: Factory, stacks: tuple, event: str, kept_reqs: tuple[int, ...]) -> EventOption:
    t = planner.t
    n = EVENT_COST[event]
    if not planner.can_pay(stacks, [planner.info(s) for s in stacks], event):
        if event == "power" and t.powers_left < 1:
            why = "No unused Power card left."
        elif event == "active_robot" and not any(is_robot(s, t.part_names) and not s.frozen for s in f.stacks):
            why = ("No active robot that can be deployed (a frozen robot cannot)." if
                   any(is_robot(s, t.part_names) for s in f.stacks) else "No active robot in your factory.")
        else:
            free = sum(len(s.cards) for s in f.stacks if not s.frozen)
            why = f"Needs {n} part{'s' if n != 1 else ''} from unfrozen stacks; you have {free}."
        return EventOption(event=event, available=False, sacrifice=(), breaks_robot=False, why=why)
    _, picks, breaks, _ = planner.sacrifice(stacks, kept_reqs, event)
    explained, _ = _explain_sacrifice(f, picks, t.part_names, planner.card_parts)
    why = "Sacrifice " + "; ".join(f"{c.label()}: {w}" for _, c, w in explained) + "."
    return EventOption(event=event, available=True, sacrifice=tuple((i, c, w) for i, c, w in explained),
                       breaks_robot=breaks, why=why)


def _discards(turn: Turn, f: Factory, kept: list[int]) -> tuple[list[int], dict[int, str]]:
    """Which cards to discard down to the hand limit, worst first, each with its reason."""
    extra = len(kept) - turn.hand_limit
    reasons: dict[int, str] = {}
    ranks: dict[int, tuple] = {}
    n = len(f.stacks)
    for i in kept:
        c = turn.hand[i]
        if c.kind != "part" or c.part is None:
            if c.stacks_required <= n:
                ranks[i], reasons[i] = (3,), f"its stack requirement ({c.stacks_required}) is met"
            else:
                ranks[i], reasons[i] = (1,), f"needs {c.stacks_required} stacks, you have {n}"
            continue
        best = (0,)
        why = "it has no legal place in your factory now"
        for k in [*range(n), None]:
            p = placement(f, c.part, k, turn.part_names)
            if p is None:
                continue
            if p.completes_robot:
                cand = (4,), f"it finishes the robot in stack {k + 1}" if k is not None else "it finishes a robot"
            elif k is not None and not p.duplicate:
                cand = (3,), f"it adds a new part to stack {k + 1}"
            elif k is None:
                cand = (2,), "it could only start a new stack"
            else:
                cand = (1,), "it would only be a duplicate"
            if cand[0] > best:
                best, why = cand
        ranks[i], reasons[i] = best, why
    if extra <= 0:
        return [], reasons
    # lowest rank first; among equals, copies of a card kept anyway, then later cards in hand
    def label(i: int) -> str:
        return turn.hand[i].label()
    order = sorted(kept, key=lambda i: (ranks[i], -sum(label(j) == label(i) for j in kept), -i))
    return order[:extra], reasons


def _card_notes(turn: Turn, planner: _Planner, seq: Sequence[Play], tail: Sequence[int], f: Factory,
                others: tuple[Factory, ...]) -> list[str]:
    """Why each Attack or Defense card that is not played stays in hand, and when keeping a reactive
    one matters: Homing Missiles when your parts are in reach of an opponent's Attack card or your
    own Attack card may be answered; Sentry Gunship when an opponent can reveal an Event."""
    from .standings import DESTROY_THREAT, EVENT, FINISH, Seat, threats_to  # reads the planner's neighbours

    played = {p.hand_index for p in seq} | set(tail)
    notes: list[str] = []
    labels = [turn.label(k) for k in range(len(others) + 1)]
    threats = None
    # only the threats the reactive cards kept are read for: an attack on your parts, an Event or a robot
    kinds = {k for i, e in enumerate(planner.effects) if e is not None and e.reactive and i not in played
             for k in ((DESTROY_THREAT,) if e.kind == COUNTER_ATTACK else (EVENT, FINISH))}
    for i, c in enumerate(turn.hand):
        e = planner.effects[i]
        if e is None or i in played:
            continue
        if e.reactive:
            if threats is None:
                seats = [Seat(label=labels[k], factory=g) for k, g in enumerate((f, *others))]
                threats = threats_to(seats, 0, turn.part_names, turn.unseen, kinds) if others else ()
            if e.kind == COUNTER_ATTACK:
                at_risk = [t for t in threats if t.kind == "destroy" and (t.breaks_robot or t.harm > 0)]
                attacked = [p for p in seq if p.attack and (any(k for k, _, _ in p.targets) or p.freeze)]
                why = [t.why for t in at_risk[:2]]
                if attacked:
                    why.append("your Attack this turn may be answered with Homing Missiles, which yours cancels")
                matters = (" Keeping it matters now: " + "; ".join(_lower(w.rstrip(".")) for w in why) + ".") if why else \
                    " Nothing of yours is in reach of an Attack card now."
                notes.append(f"{_not_now(c)}{c.title}: it is played out of turn, against an Attack card on "
                             f"your parts.{matters}")
            elif e.kind == CANCEL_EVENT:
                events = [t for t in threats if t.kind == "event"]
                near = [t for t in threats if t.kind == "finish"]
                why = [t.why for t in events[:2]] or [t.why for t in near[:1]]
                matters = (" Keeping it matters now: " + " ".join(_lower(w) for w in why)) if why else \
                    " No opponent can deploy a robot for an Event yet."
                notes.append(f"{_not_now(c)}{c.title}: it cancels an opponent's Event card, out of turn.{matters}")
            continue
        if c.stacks_required > len(f.stacks) and (c.play or e.modelled):
            notes.append(f"{c.title} is not played: it needs {c.stacks_required} stacks and the best plan reaches "
                         f"{len(f.stacks)}.")
        elif e.modelled:
            answer = verdict(e, (f, *others), 0, turn.part_names, labels)
            if not answer.playable:
                notes.append(f"{c.title} is not played: {answer.why}")
            elif answer.own_hit:
                notes.append(f"{c.title} is kept: it would have to destroy your own parts. {answer.why}")
            else:
                notes.append(f"{c.title} is kept: the plan is better without it now ({answer.why})")
        elif c.play:
            notes.append(f"{c.title} is not played: no action is left for it.")
    return notes


def _lower(sentence: str) -> str:
    """A sentence to go after a colon: its first letter small, unless it starts with a name."""
    first = sentence.split(" ", 1)[0]
    return sentence if first not in ("A", "An", "The") else sentence[:1].lower() + sentence[1:]


def _not_now(c: HandCard) -> str:
    return "Not a play of your turn, keep " if c.play else "Keep "


def plan_turn(turn: Turn) -> TurnPlan:
    if turn.event not in EVENTS:
        raise InputError("event", f"must be one of {', '.join(EVENTS)}")
    if not 0 <= turn.actions <= 3:
        raise InputError("actions", "a turn has at most three actions")
    planner = _Planner(turn)
    states = planner.search()
    explored = planner.bar.states
    scored = planner.score_all(states)
    best = scored[0]
    score, stacks, tail = best.score, best.stacks, best.tail
    seq = _player_order(turn, best.seq)
    total_unseen = sum(u.count for u in turn.unseen)

    steps, f_plays, others_after = _play_steps(turn, seq, tail)
    notes = _card_notes(turn, planner, seq, tail, f_plays, others_after)
    warnings = [f"{s.card}: {s.why.split('Warning: ', 1)[1]}" for s in steps if s.destroys_own]
    kept = planner.kept(seq, tail)
    kept_reqs = tuple(sorted(turn.hand[i].stacks_required for i in kept if turn.hand[i].kind != "part"))
    event_options = [_event_option(planner, f_plays, stacks, e, kept_reqs) for e in ("power", "active_robot")]
    after = f_plays
    if score.won:
        notes.append("The game ends when your second robot is built, so no Event phase is needed.")
    elif turn.event != "none":
        opt = next(o for o in event_options if o.event == turn.event)
        if opt.available:
            picks = planner.sacrifice(stacks, kept_reqs, turn.event)[1]
            explained, after = _explain_sacrifice(f_plays, picks, turn.part_names, planner.card_parts)
            for i, card, why in explained:
                steps.append(Step(phase="event", action="sacrifice", card=card.label(), hand_index=None, stack=i,
                                  new_stack=False, why=f"{why[:1].upper()}{why[1:]}.",
                                  rules=("tr-the-event-phase", "tr-note-sacrifice-anywhere", "tr-duplicate-parts")))
        else:
            notes.append(f"The Event phase you chose cannot be paid: {opt.why}")
    discards, reasons = ([], {}) if score.won else _discards(turn, after, kept)
    for i in discards:
        steps.append(Step(phase="cleanup", action="discard", card=turn.hand[i].label(), hand_index=i, stack=None,
                          new_stack=False, why=f"Discard {turn.hand[i].label()}: {reasons[i]}, the least useful card "
                                               f"kept (hand limit {turn.hand_limit}).", rules=("tr-cleanup-phase",)))

    ties = [_summary(turn, _player_order(turn, s.seq), s.tail) for s in [s for s in scored[1:] if s.score == score][:3]]
    lower = next((s for s in scored if s.score < score), None)
    runner = None
    if lower is not None:
        runner = (f"Better than \"{_summary(turn, _player_order(turn, lower.seq), lower.tail)}\": "
                  f"{_difference(score, lower.score)}.")
    p_next = p_at_least_one(total_unseen, score.outs, 3) if total_unseen else Fraction(0)
    summary = _summary(turn, seq, tail)
    if not seq and not tail:
        summary = "Keep your cards: no play this turn improves your factory."
    return TurnPlan(steps=steps, score=score, factory_after_plays=f_plays, factory_after=after,
                    others_after=others_after, hand_after=[i for i in kept if i not in discards], discards=discards,
                    p_robot_next_draw=p_next, summary=summary, reasons=_reasons(turn, score, total_unseen),
                    runner_up=runner, ties=ties, event_options=event_options, notes=notes, warnings=warnings,
                    explored=explored)
