"""Two Robots turn planner: the best up-to-three plays, the Event phase sacrifice and the cleanup discard.

Exhaustive search over the part cards in hand (identical cards are one choice) and every legal
placement, up to the actions left; each distinct end state is scored once. Attack and Defense
cards the player marks `play` go after the parts: placing parts never removes a stack, so the
stack count an Attack card needs is highest at the end of the plays. Card effects are not modelled.
The steps list the plays the way a player makes them: the plays that complete a robot first, then the
other plays onto the factory, then new stacks (the search's own order starts with the new stacks).

Only the Event phase sacrifice is costly to score, and three shortcuts keep it fast without changing
any answer (tests check them against brute force): sacrifice choices that another choice on the same
stack dominates are not tried; stacks that differ only in what no score reads share one answer; and
plans are scored in the order of an upper bound, stopping once the bound falls below both the best
score and the runner-up's (the two plans the answer reports).

A plan is judged by these terms, in this order (the first difference decides):
 1. won: two active robots after the plays (frozen ones count) ends the game at once, and then
    only the fewest plays matter;
 2. event: the Event phase option the player asked for can be paid;
 3. robots: active robots left after the Event phase sacrifice;
 4. wanted: Attack/Defense cards marked `play` that get played;
 5. outs: unseen cards that would each finish a robot next turn (more outs = better next draw);
 6. ready: Attack/Defense cards kept in hand whose stack requirement is met;
 7. progress: distinct parts per stack, most built stack first (compared stack by stack);
 8. kept: fewer cards lost to the hand limit at cleanup;
 9. fewer plays (cards kept in hand stay flexible and out of reach of Attack cards).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from solvers.errors import InputError

from .factory import (
    Factory,
    HandCard,
    Part,
    is_robot,
    matchable,
    placement,
    stack_parts,
)
from .odds import UnseenCard, p_at_least_one

EVENTS = ("none", "power", "active_robot")
EVENT_COST = {"power": 2, "active_robot": 1}
EVENT_NAME = {"power": "option A, use a Power card", "active_robot": "option B, reveal an Active Robot card"}

TERMS = ("won", "event", "robots", "wanted", "outs", "ready", "progress", "kept", "plays")
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


@dataclass(frozen=True)
class Score:
    won: bool
    event: bool
    robots: int
    wanted: int
    outs: int
    ready: int
    progress: tuple[int, ...]
    kept: int       # minus the cards discarded at cleanup
    plays: int      # minus the number of plays

    def key(self) -> tuple:
        return (self.won, self.event, self.robots, self.wanted, self.outs, self.ready, self.progress,
                self.kept, self.plays)


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
    hand_after: list[int]
    discards: list[int]
    p_robot_next_draw: Fraction
    summary: str
    reasons: list[str]
    runner_up: str | None
    ties: list[str]
    event_options: list[EventOption]
    notes: list[str] = field(default_factory=list)
    explored: int = 0


# ---- the search's own compact factory --------------------------------------------------------------
# A card is an int (part-name index << 5 | energy mask); a stack is (frozen, sorted card ints). Stacks
# and their derived facts hash fast, so each distinct end state is scored once and cheaply.

SStack = tuple[bool, tuple[int, ...]]
Info = tuple[int, int, bool]   # (candidate energies, part names as bits, frozen)


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
        self.flagged = [i for i, c in enumerate(turn.hand) if c.kind != "part" and c.play]
        # unseen part cards by part-name index: [(mask, copies)]
        self.unseen_by_name: dict[int, list[tuple[int, int]]] = {}
        for u in turn.unseen:
            if u.part is not None and u.part.part in self.index and u.count > 0:
                self.unseen_by_name.setdefault(self.index[u.part.part], []).append((u.part.mask, u.count))
        self.start: tuple[SStack, ...] = tuple(
            (s.frozen, tuple(sorted(self.card(c) for c in s.cards))) for s in turn.factory.stacks)
        self.cost = EVENT_COST.get(turn.event, 0)
        self.start_free = sum(len(s[1]) for s in self.start if not s[0])
        self._infos: dict[SStack, Info] = {}
        self._fronts: dict[SStack, tuple[tuple, tuple]] = {}
        self._reach: dict[SStack, tuple[int, int, int, bool]] = {}
        self._shape_cache: dict[tuple[Info, ...], tuple[int, int, tuple[int, ...]]] = {}
        self._bound_cache: dict[tuple, int] = {}
        self._sac_values: dict[tuple, tuple] = {}
        self._attack_cache: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def card(self, part: Part) -> int:
        if part.part not in self.index:
            raise InputError("part_names", f"{part.part!r} is not one of the part names {self.names}")
        return self.index[part.part] << 5 | part.mask

    # -- what a stack is worth to the score --

    def info(self, stack: SStack) -> Info:
        """(candidate energies, part names, frozen), with the part names cut down to what a score
        reads: which names a stack holds matters only for a robot, or for an unfrozen stack one part
        short (the missing name decides its outs); otherwise only how many (progress). Stacks that
        differ in nothing else then share cache entries and sacrifice answers."""
        hit = self._infos.get(stack)
        if hit is None:
            mask, names = 31, 0
            for c in stack[1]:
                mask &= c
                names |= 1 << (c >> 5)
            missing = self.full ^ names
            if missing and (stack[0] or missing & (missing - 1)):
                names = (1 << names.bit_count()) - 1
            hit = self._infos[stack] = (mask & 31, names, stack[0])
        return hit

    def shape_value(self, shape: tuple[Info, ...]) -> tuple[int, int, tuple[int, ...]]:
        """(robots, outs, progress) of a factory given as its sorted stack facts."""
        hit = self._shape_cache.get(shape)
        if hit is not None:
            return hit
        full = self.full
        robots = sum(nb == full for _, nb, _ in shape)
        masks = tuple(m for m, _, _ in shape)
        outs_types: set[tuple[int, int]] = set()
        outs = 0
        for i, (m, nb, frozen) in enumerate(shape):
            missing = full ^ nb
            if frozen or missing == 0 or missing & (missing - 1):
                continue
            name = missing.bit_length() - 1
            for um, copies in self.unseen_by_name.get(name, ()):
                if (name, um) in outs_types or not (um & m):
                    continue
                if matchable(masks[:i] + (m & um,) + masks[i + 1:]):
                    outs_types.add((name, um))
                    outs += copies
        progress = tuple(sorted((nb.bit_count() for _, nb, _ in shape), reverse=True))
        hit = self._shape_cache[shape] = (robots, outs, progress)
        return hit

    # -- the Event phase sacrifice --

    def can_pay(self, stacks: Sequence[SStack], infos: Sequence[Info], event: str, free: int | None = None) -> bool:
        """Can the factory pay for `event` ("The Event Phase"): enough parts in unfrozen stacks, an
        unused Power for A, a robot that can be deployed (not frozen) for B. `free` is the number of
        parts in unfrozen stacks when the caller knows it."""
        if free is None:
            free = sum(len(s[1]) for s in stacks if not s[0])
        if free < EVENT_COST[event]:
            return False
        if event == "power":
            return self.t.powers_left >= 1
        return any(x[1] == self.full and not x[2] for x in infos)

    def dominates(self, a: Info, b: Info) -> bool:
        """Is a stack left as `a` by a sacrifice at least as good as left as `b`, whatever the other
        stacks are? Yes when `a` keeps every energy `b` may take (wider energies never cost another
        stack its matching or an out) and at least `b`'s parts: the same names, or a robot, when `b`
        is a robot or one part short; otherwise at least as many."""
        if a[0] & b[0] != b[0]:
            return False
        full = self.full
        if a[1] == full:
            return True
        missing = full ^ b[1]
        if b[1] == full or (missing and not missing & (missing - 1) and not b[2]):
            return a[1] == b[1]
        return a[1].bit_count() >= b[1].bit_count()

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
            found: dict[Info | None, tuple[int, ...]] = {}
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
        n = self.cost
        # a stack that goes is () here, so that the stacks sort whatever their options
        sig = (kept_reqs, tuple(sorted((self.info(s),) + tuple(tuple(r or () for r, _ in f) for f in self.fronts(s)[:n])
                                       for s in stacks)))
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
        base = sum(1 for x in infos if x[1] == full)
        cands: list[tuple[int, dict, tuple]] = []

        def lost(i: int, res: Info | None) -> int:
            return 1 if infos[i][1] == full and (res is None or res[1] != full) else 0

        fronts = [self.fronts(s) for s in stacks]
        singles = [f[0] for f in fronts]
        if EVENT_COST[event] == 1:
            for i, options in enumerate(singles):
                for res, taken in options:
                    cands.append((base - lost(i, res), {i: res}, ((i, taken[0]),)))
        else:
            for i in range(len(stacks)):
                for res, taken in fronts[i][1]:
                    cands.append((base - lost(i, res), {i: res}, ((i, taken[0]), (i, taken[1]))))
            for i, j in combinations(range(len(stacks)), 2):
                for res_i, taken_i in singles[i]:
                    li = lost(i, res_i)
                    for res_j, taken_j in singles[j]:
                        cands.append((base - li - lost(j, res_j), {i: res_i, j: res_j},
                                      ((i, taken_i[0]), (j, taken_j[0]))))
        cands.sort(key=lambda c: -c[0])
        best: tuple | None = None
        ready = [sum(1 for r in kept_reqs if r <= k) for k in range(len(infos) + 1)]
        for robots, changes, picks in cands:
            if best is not None and robots < best[0][0]:
                break
            after = [x for x in (changes.get(k, inf) for k, inf in enumerate(infos)) if x is not None]
            shape = self.shape_value(tuple(sorted(after)))
            v = (shape[0], shape[1], ready[len(after)], shape[2])
            if best is None or v > best[0]:
                best = (v, picks)
        assert best is not None
        return _remove(stacks, best[1]), best[1], best[0][0] < base, best[0]

    def reach(self, stack: SStack) -> tuple[int, int, int, bool]:
        """What the sacrifice can make of one stack, as far as outs go: (the part name it misses if it
        is unfrozen and one part short, else -1; the energies it may take while keeping its part
        names; every energy it may take; whether it may go)."""
        hit = self._reach.get(stack)
        if hit is None:
            mask, names, frozen = self.info(stack)
            wide = same = mask
            gone = False
            for front in self.fronts(stack)[:self.cost]:
                for r, _ in front:
                    if r is None:
                        gone = True
                        continue
                    wide |= r[0]
                    if r[1] == names:
                        same |= r[0]
            missing = self.full ^ names
            short = missing.bit_length() - 1 if missing and not frozen and not missing & (missing - 1) else -1
            hit = self._reach[stack] = (short, same if short >= 0 else 0, 0 if gone else wide, gone)
        return hit

    def outs_bound(self, reaches: Sequence[tuple[int, int, int, bool]]) -> int:
        """At least the outs left by any sacrifice that keeps every robot. Such a sacrifice adds no
        part name, so a stack one part short after it was one part short before, missing the same
        name; each stack's energies stay within what `reach` allows, and a stack may go. Counting
        with every stack at its widest, and the stacks that may go left out of the matching, can only
        find more outs (wider energies and fewer stacks only make a matching easier)."""
        reach = tuple(sorted(reaches))
        hit = self._bound_cache.get(reach)
        if hit is not None:
            return hit
        outs_types: set[tuple[int, int]] = set()
        outs = 0
        for i, (name, same, _, _) in enumerate(reach):
            if name < 0:
                continue
            others = tuple(w for j, (_, _, w, gone) in enumerate(reach) if j != i and not gone)
            for um, copies in self.unseen_by_name.get(name, ()):
                if (name, um) in outs_types or not (um & same):
                    continue
                if matchable(others + (same & um,)):
                    outs_types.add((name, um))
                    outs += copies
        self._bound_cache[reach] = outs
        return outs

    # -- the plays --

    def attacks_for(self, n_stacks: int, left: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(marked Attack/Defense cards played, stack requirements of those kept) for a plan ending
        with n_stacks stacks and `left` actions."""
        key = (n_stacks, left)
        hit = self._attack_cache.get(key)
        if hit is None:
            t = self.t
            attacks = tuple([i for i in self.flagged if t.hand[i].stacks_required <= n_stacks][:max(left, 0)])
            reqs = tuple(sorted(t.hand[i].stacks_required for i in range(len(t.hand))
                                if t.hand[i].kind != "part" and i not in attacks))
            hit = self._attack_cache[key] = (attacks, reqs)
        return hit

    def kept(self, seq: tuple, attacks: Sequence[int]) -> list[int]:
        played = {i for i, _ in seq} | set(attacks)
        return [i for i in range(len(self.t.hand)) if i not in played]

    def evaluate(self, stacks: tuple[SStack, ...], infos: Sequence[Info], plays: int, robots_now: int,
                 reaches: Sequence[tuple[int, int, int, bool]] | None = None) -> tuple[tuple, tuple[int, ...], bool]:
        """(score key as in Score.key, marked cards played, exact) of the state after `plays` plays
        with `robots_now` robots. Given the stacks' `reach`, a state whose Event phase needs a
        sacrifice gets an upper bound instead (exact=False): a sacrifice adds no robot, stack or part
        name, and leaves at most `outs_bound` outs."""
        t = self.t
        if robots_now >= 2:  # the game is over: only the shortest way there matters
            return (True, True, robots_now, 0, 0, 0, (), 0, -plays), (), True
        n = len(infos)
        attacks, kept_reqs = self.attacks_for(n, t.actions - plays)
        lost = -max(0, len(t.hand) - plays - len(attacks) - t.hand_limit)
        # every play goes to an unfrozen stack, so the parts a sacrifice may take are easy to count
        event_ok = t.event == "none" or self.can_pay(stacks, infos, t.event, self.start_free + plays)
        if event_ok and t.event != "none":
            if reaches is not None:
                progress = tuple(sorted((x[1].bit_count() for x in infos), reverse=True))
                return ((False, True, robots_now, len(attacks), self.outs_bound(reaches),
                         sum(1 for r in kept_reqs if r <= n), progress, lost, -(plays + len(attacks))),
                        attacks, False)
            robots, outs, ready, progress = self.sacrifice_value(stacks, kept_reqs)
        else:
            robots, outs, progress = self.shape_value(tuple(sorted(infos)))
            ready = sum(1 for r in kept_reqs if r <= n)
        return ((False, event_ok, robots, len(attacks), outs, ready, progress, lost, -(plays + len(attacks))),
                attacks, True)

    def search(self) -> list[tuple]:
        """Every distinct end state of the plays as (score key or its upper bound, marked cards
        played, exact, stacks, plays as (hand index, stack or None)).

        Plays commute (a state is legal whenever a later one is, since fewer cards only widen the
        energies a stack may take), so each state is reached in one canonical order: first the plays
        that start new stacks, then those that add to a stack, each group by card kind. A state with
        two robots ends the game, so nothing is played after it."""
        seen: set[tuple[SStack, ...]] = set()
        found: list[tuple] = []
        actions = self.t.actions
        types = self.types
        part_cards = self.part_cards
        info, evaluate, full = self.info, self.evaluate, self.full
        # `reach` is only needed to bound states that pay for an Event (an empty tuple otherwise)
        cost, reach = self.cost, self.reach

        def rec(stacks: tuple[SStack, ...], infos: tuple[Info, ...], reaches: tuple, used: tuple[int, ...],
                seq: tuple, adding: bool, first: int) -> None:
            key = tuple(sorted(stacks))
            if key in seen:
                return
            seen.add(key)
            robots = sum(1 for x in infos if x[1] == full)
            found.append((*evaluate(stacks, infos, len(seq), robots, reaches), stacks, seq))
            if len(seq) == actions or robots >= 2:
                return
            masks = tuple(x[0] for x in infos)
            for t in range(len(types)):
                card = types[t]
                idxs = part_cards[card]
                if used[t] >= len(idxs):
                    continue
                cm = card & 31
                nused = used[:t] + (used[t] + 1,) + used[t + 1:]
                hand_index = idxs[used[t]]
                if not adding and t >= first and matchable(masks + (cm,)):
                    new = (False, (card,))
                    rec(stacks + (new,), infos + (info(new),), reaches + (reach(new),) if cost else (),
                        nused, seq + ((hand_index, None),), False, t)
                if adding and t < first:
                    continue
                for k, s in enumerate(stacks):
                    if s[0] or not (masks[k] & cm):
                        continue
                    if matchable(masks[:k] + (masks[k] & cm,) + masks[k + 1:]):
                        grown = _add(s, card)
                        rec(stacks[:k] + (grown,) + stacks[k + 1:], infos[:k] + (info(grown),) + infos[k + 1:],
                            reaches[:k] + (reach(grown),) + reaches[k + 1:] if cost else (),
                            nused, seq + ((hand_index, k),), True, t)

        rec(self.start, tuple(info(s) for s in self.start), tuple(reach(s) for s in self.start) if cost else (),
            tuple(0 for _ in types), (), False, 0)
        rec = None  # type: ignore[assignment]  # the closure refers to itself: free it now, not at a GC pass
        return found

    def score_all(self, found: list[tuple]) -> list[tuple]:
        """(key, stacks, plays, marked cards played) for the states that matter, best first. States
        are taken in the order of an upper bound on their score (exact unless the Event phase needs a
        sacrifice); once a bound is below both the best score and the runner-up's, the rest are
        skipped, since only those two (and ties with the best) are reported."""
        found.sort(key=lambda x: x[0], reverse=True)
        scored: list[tuple] = []
        best = lower = None
        for ub, attacks, exact, st, seq in found:
            if lower is not None and ub < lower:
                break
            if not exact:
                infos = [self.info(s) for s in st]
                ub = self.evaluate(st, infos, len(seq), sum(1 for x in infos if x[1] == self.full))[0]
            key = ub
            scored.append((key, st, seq, attacks))
            if best is None or key > best:
                if best is not None:
                    lower = best
                best = key
            elif key < best and (lower is None or key > lower):
                lower = key
        scored.sort(key=lambda x: x[0], reverse=True)
        return scored


# ---- explanations ------------------------------------------------------------------------------------

def _player_order(turn: Turn, seq: tuple) -> tuple:
    """The plays of `seq` (search order: new stacks first) in the order a player makes them: first the
    plays onto each stack that becomes an active robot this turn, then the other plays onto stacks
    already in the factory, then each new stack followed by the cards played onto it (the Attack and
    Defense cards come after all of these, as before). The plan stays the same: plays commute (the search's
    canonical order relies on it), new stacks keep their order, so every stack keeps its number, and the
    plays onto one stack keep theirs, so the factory after the plays is the same card for card."""
    start = len(turn.factory.stacks)
    targets, f = [], turn.factory
    for i, k in seq:
        targets.append(k if k is not None else len(f.stacks))
        part = turn.hand[i].part
        assert part is not None
        f = f.add(part, k)
    names = turn.part_names
    new_robots = {j for j in range(start) if is_robot(f.stacks[j], names) and not is_robot(turn.factory.stacks[j], names)}

    def rank(pos: int) -> tuple:
        target, new = targets[pos], seq[pos][1] is None
        return (0 if target in new_robots else 1 if target < start else 2, target, not new, pos)
    return tuple(seq[pos] for pos in sorted(range(len(seq)), key=rank))


def _summary(turn: Turn, seq: tuple, attacks: Sequence[int]) -> str:
    bits = []
    for i, k in seq:
        card = turn.hand[i].part
        assert card is not None
        bits.append(f"{card.label()} {'on stack ' + str(k + 1) if k is not None else 'as a new stack'}")
    bits += [f"play {turn.hand[i].name or turn.hand[i].kind}" for i in attacks]
    return "; ".join(bits) if bits else "play nothing"


TERM_TEXT = {  # what the better plan has more (or less) of, for "Better than ..." (values follow)
    "won": "it wins now",
    "event": "it can pay for the Event phase you chose",
    "robots": "more active robots kept",
    "wanted": "more of your marked Attack/Defense cards played",
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
            if name in ("kept", "plays"):
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


def _play_steps(turn: Turn, seq: tuple, attacks: Sequence[int]) -> tuple[list[Step], Factory]:
    steps = []
    f = turn.factory
    for i, k in seq:
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
        steps.append(Step("play", "part", card.label(), i, k, k is None, effect[:1].upper() + effect[1:],
                          tuple(rules)))
        f = f.add(card, k)
    n = len(f.stacks)
    for i in attacks:
        c = turn.hand[i]
        frozen = sum(s.frozen for s in f.stacks)
        why = (f"{c.name or c.kind.title()} needs {c.stacks_required} unique stack"
               f"{'s' if c.stacks_required != 1 else ''}; you have {n}"
               + (f" ({frozen} frozen, which count)" if frozen else "") + ". Its effect is yours to resolve.")
        rules = ("tr-attack-defense-cards",) + (("tr-frozen-stacks",) if frozen else ())
        steps.append(Step("play", c.kind, c.name or c.kind.title(), i, None, False, why, rules))
    return steps, f


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
        return EventOption(event, False, (), False, why)
    _, picks, breaks, _ = planner.sacrifice(stacks, kept_reqs, event)
    explained, _ = _explain_sacrifice(f, picks, t.part_names, planner.card_parts)
    why = "Sacrifice " + "; ".join(f"{c.label()}: {w}" for _, c, w in explained) + "."
    return EventOption(event, True, tuple((i, c, w) for i, c, w in explained), breaks, why)


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


def plan_turn(turn: Turn) -> TurnPlan:
    if turn.event not in EVENTS:
        raise InputError("event", f"must be one of {', '.join(EVENTS)}")
    if not 0 <= turn.actions <= 3:
        raise InputError("actions", "a turn has at most three actions")
    planner = _Planner(turn)
    states = planner.search()
    explored = len(states)
    scored = planner.score_all(states)
    best_key, stacks, seq, attacks = scored[0]
    seq = _player_order(turn, seq)
    score = Score(*best_key)
    total_unseen = sum(u.count for u in turn.unseen)

    steps, f_plays = _play_steps(turn, seq, attacks)
    notes: list[str] = []
    for i in planner.flagged:
        if i in attacks:
            continue
        c = turn.hand[i]
        if c.stacks_required > len(f_plays.stacks):
            notes.append(f"{c.name or c.kind.title()} is not played: it needs {c.stacks_required} stacks and "
                         f"the best plan reaches {len(f_plays.stacks)}.")
        else:
            notes.append(f"{c.name or c.kind.title()} is not played: no action is left for it.")
    kept = planner.kept(seq, attacks)
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
                steps.append(Step("event", "sacrifice", card.label(), None, i, False,
                                  f"{why[:1].upper()}{why[1:]}.",
                                  ("tr-the-event-phase", "tr-note-sacrifice-anywhere", "tr-duplicate-parts")))
        else:
            notes.append(f"The Event phase you chose cannot be paid: {opt.why}")
    discards, reasons = ([], {}) if score.won else _discards(turn, after, kept)
    for i in discards:
        steps.append(Step("cleanup", "discard", turn.hand[i].label(), i, None, False,
                          f"Discard {turn.hand[i].label()}: {reasons[i]}, the least useful card kept "
                          f"(hand limit {turn.hand_limit}).", ("tr-cleanup-phase",)))

    ties = [_summary(turn, _player_order(turn, s[2]), s[3]) for s in scored[1:] if s[0] == best_key][:3]
    lower = next((s for s in scored if s[0] < best_key), None)
    runner = None
    if lower is not None:
        runner = (f"Better than \"{_summary(turn, _player_order(turn, lower[2]), lower[3])}\": "
                  f"{_difference(score, Score(*lower[0]))}.")
    p_next = p_at_least_one(total_unseen, score.outs, 3) if total_unseen else Fraction(0)
    summary = _summary(turn, seq, attacks)
    if not seq and not attacks:
        summary = "Keep your cards: no play this turn improves your factory."
    return TurnPlan(steps, score, f_plays, after, [i for i in kept if i not in discards], discards, p_next,
                    summary, _reasons(turn, score, total_unseen), runner, ties, event_options, notes, explored)
