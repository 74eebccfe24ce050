"""Two Robots factory: which energy each stack has, where a part may go, robots and the win.

The reading (design/semantics.md "Two Robots: factory"; rulebook "Energy Stacks", "Stacking Part
Cards", "How to Build a Robot", "Duplicate Parts", "Frozen Stacks", "Attack / Defense Cards"):
- a stack's *candidates* are the energies every card in it carries;
- no two stacks share an energy, so the stacks' energies are a matching of stacks to candidates;
  a stack is *locked* when every valid matching gives it the same energy, else it is unlocked;
- a part may go on a stack, or start a new one, only if a valid matching exists afterwards;
- an active robot is a stack holding all four part names; two of them win (frozen ones count);
- a stack's energy follows from the cards in it now (if the card that locked it is destroyed, the
  stack may be unlocked again: the rules are silent, and this is the reading that needs no memory).

Energies are handled as 5-bit masks so the planner can test thousands of factories quickly.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from solvers.errors import InputError
from solvers.wording import article

ENERGIES: tuple[str, ...] = ("chemical", "electrical", "mechanical", "nuclear", "solar")
BIT: dict[str, int] = {e: 1 << i for i, e in enumerate(ENERGIES)}
MAX_STACKS = len(ENERGIES)

RULES_FACTORY = ("tr-energy-stacks", "tr-stacking-part-cards", "tr-how-to-build-a-robot",
                 "tr-duplicate-parts")


def mask_of(energies: Iterable[str]) -> int:
    m = 0
    for e in energies:
        m |= BIT[e]
    return m


def energies_of(mask: int) -> tuple[str, ...]:
    return tuple(e for e in ENERGIES if mask & BIT[e])


def title(energy_or_part: str) -> str:
    return energy_or_part.replace("_", " ").title()


def energy_text(mask: int, joiner: str = "/") -> str:
    return joiner.join(title(e) for e in energies_of(mask)) or "no energy"


def or_list(words: Sequence[str], conj: str = "or") -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {conj} " + words[-1]


# ---- cards, stacks, factories ---------------------------------------------------------------------

@dataclass(frozen=True)
class Part:
    """A Robot Part card: a part name and one energy (core) or two (hybrid)."""
    part: str
    mask: int

    @classmethod
    def of(cls, part: str, energies: Iterable[str]) -> Part:
        energies = list(energies)
        mask = mask_of(energies)
        if not 1 <= len(energies) <= 2 or mask.bit_count() != len(energies):
            raise InputError("energies", "a part card has one energy (core) or two different energies (hybrid)")
        return cls(part, mask)

    @property
    def energies(self) -> tuple[str, ...]:
        return energies_of(self.mask)

    @property
    def hybrid(self) -> bool:
        return self.mask.bit_count() == 2

    def label(self) -> str:
        return f"{self.part.upper()} ({energy_text(self.mask)})"


@dataclass(frozen=True)
class Stack:
    """Cards bottom to top; a frozen stack takes no new parts and gives none to sacrifices."""
    cards: tuple[Part, ...]
    frozen: bool = False

    @property
    def mask(self) -> int:
        m = 31
        for c in self.cards:
            m &= c.mask
        return m

    def names(self) -> frozenset[str]:
        return frozenset(c.part for c in self.cards)

    def with_card(self, card: Part) -> Stack:
        return Stack(self.cards + (card,), self.frozen)

    def without(self, index: int) -> Stack:
        return Stack(self.cards[:index] + self.cards[index + 1:], self.frozen)

    def __hash__(self) -> int:
        # stacks are hashed often (factories key the solvers' caches): work it out once
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((tuple((c.part, c.mask) for c in self.cards), self.frozen))
            object.__setattr__(self, "_hash", h)
        return h


@dataclass(frozen=True)
class Factory:
    stacks: tuple[Stack, ...] = ()

    @classmethod
    def of(cls, stacks: Iterable[Stack | Iterable[Part]]) -> Factory:
        return cls(tuple(s if isinstance(s, Stack) else Stack(tuple(s)) for s in stacks))

    def masks(self) -> tuple[int, ...]:
        return tuple(s.mask for s in self.stacks)

    def add(self, card: Part, stack: int | None) -> Factory:
        """The factory with `card` on stack `stack` (None: a new stack), legal or not."""
        if stack is None:
            return Factory(self.stacks + (Stack((card,)),))
        s = list(self.stacks)
        s[stack] = s[stack].with_card(card)
        return Factory(tuple(s))

    def remove(self, stack: int, card: int) -> Factory:
        """The factory without one card; a stack left empty disappears."""
        s = list(self.stacks)
        rest = s[stack].without(card)
        if rest.cards:
            s[stack] = rest
        else:
            del s[stack]
        return Factory(tuple(s))

    def key(self) -> tuple:
        """Equal for factories that differ only in the order of stacks or of cards in a stack."""
        k = self.__dict__.get("_key")
        if k is None:
            k = tuple(sorted((s.frozen, tuple(sorted((c.part, c.mask) for c in s.cards))) for s in self.stacks))
            object.__setattr__(self, "_key", k)
        return k

    def __hash__(self) -> int:
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(self.stacks)
            object.__setattr__(self, "_hash", h)
        return h


# ---- the matching ----------------------------------------------------------------------------------

@lru_cache(maxsize=1 << 16)
def _matchable_sorted(masks: tuple[int, ...]) -> bool:
    if not masks:
        return True
    if len(masks) > MAX_STACKS or masks[0] == 0:
        return False
    first, rest = masks[0], masks[1:]
    m = first
    while m:
        bit = m & -m
        m ^= bit
        if _matchable_sorted(tuple(sorted(x & ~bit for x in rest))):
            return True
    return False


def matchable(masks: Iterable[int]) -> bool:
    """Can every stack get its own energy among its candidates?"""
    return _matchable_sorted(tuple(sorted(masks)))


@lru_cache(maxsize=1 << 16)
def possible_masks(masks: tuple[int, ...]) -> tuple[int, ...]:
    """For each stack, the energies some valid matching gives it (all 0 when none exists)."""
    if not matchable(masks):
        return tuple(0 for _ in masks)
    out = []
    for i, m in enumerate(masks):
        ok = 0
        rest = masks[:i] + masks[i + 1:]
        bits = m
        while bits:
            bit = bits & -bits
            bits ^= bit
            if matchable(x & ~bit for x in rest):
                ok |= bit
        out.append(ok)
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def free_energies(masks: tuple[int, ...]) -> int:
    """The energies a new stack may take beside these stacks: those some valid matching leaves free.
    With `possible_masks`, this decides any play with bit tests (a card may go on stack k when
    `possible[k] & card`, or start a stack when `free & card`), since narrowing one stack, or adding
    one, keeps a matching exactly when one of the matchings the test names already allows it."""
    if len(masks) >= MAX_STACKS or not matchable(masks):
        return 0
    free = 0
    for bit in (1 << i for i in range(MAX_STACKS)):
        if matchable(tuple(m & ~bit for m in masks)):
            free |= bit
    return free


def hall_violations(masks: Sequence[int]) -> list[tuple[int, ...]]:
    """Smallest groups of stacks that have fewer energies between them than stacks (Hall's
    condition): each names a reason no matching exists. Stacks with no energy at all come alone."""
    found: list[tuple[int, ...]] = []
    n = len(masks)
    for size in range(1, n + 1):
        for group in combinations(range(n), size):
            if any(set(f) <= set(group) for f in found):
                continue
            union = 0
            for i in group:
                union |= masks[i]
            if union.bit_count() < size:
                found.append(group)
        if len(found) >= 6:  # enough to explain; a long list helps nobody
            break
    return found


# ---- analysis --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    stacks: tuple[int, ...]
    message: str


@dataclass(frozen=True)
class StackView:
    index: int
    energy: str | None            # the locked energy, None while unlocked (or impossible)
    candidates: tuple[str, ...]   # energies every card in the stack carries
    possible: tuple[str, ...]     # energies some valid matching gives the stack
    parts: tuple[str, ...]        # distinct part names, in part-name order
    duplicates: tuple[str, ...]   # one entry per extra copy of a part name
    missing: tuple[str, ...]
    active_robot: bool
    frozen: bool
    deployable: bool
    why: str


@dataclass(frozen=True)
class FactoryView:
    stacks: tuple[StackView, ...]
    unique_stacks: int
    active_robots: int
    deployable_robots: int
    won: bool
    problems: tuple[Problem, ...]
    rules: tuple[str, ...]

    @property
    def possible(self) -> bool:
        return not self.problems


def stack_parts(stack: Stack, part_names: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(distinct parts in part-name order, duplicates, missing part names)."""
    seen: list[str] = []
    dups: list[str] = []
    for c in stack.cards:
        (dups if c.part in seen else seen).append(c.part)
    order = {p: i for i, p in enumerate(part_names)}
    parts = tuple(sorted(seen, key=lambda p: (order.get(p, len(order)), p)))
    missing = tuple(p for p in part_names if p not in seen)
    return parts, tuple(dups), missing


def is_robot(stack: Stack, part_names: Sequence[str]) -> bool:
    names = stack.names()
    return all(p in names for p in part_names)


def check_part_names(factory: Factory, hand: Sequence, part_names: Sequence[str]) -> None:
    """Every part card is one of the table's four part names ("How to Build a Robot"), else an
    InputError naming the card (`stacks[i].cards[j].part`, `hand[k].part`)."""
    where = [(f"stacks[{i}].cards[{j}].part", c) for i, s in enumerate(factory.stacks) for j, c in enumerate(s.cards)]
    where += [(f"hand[{k}].part", c.part) for k, c in enumerate(hand) if c.part is not None]
    for path, card in where:
        if card.part not in part_names:
            raise InputError(path, f"{card.part!r} is not one of the four part names ({', '.join(part_names)})")


def _impossible_problems(factory: Factory) -> list[Problem]:
    masks = factory.masks()
    problems: list[Problem] = []
    for group in hall_violations(masks):
        if len(group) == 1:
            i = group[0]
            cards = factory.stacks[i].cards
            kinds = or_list(sorted({energy_text(c.mask) for c in cards}), "and")
            problems.append(Problem(stacks=group, message=f"Stack {i + 1} mixes {kinds} cards: no energy is on every card "
                                           "in it, and a stack has one energy."))
            continue
        union = 0
        for i in group:
            union |= masks[i]
        names = or_list([str(i + 1) for i in group], "and")
        if union == 31:
            problems.append(Problem(stacks=group, message=f"Stacks {names} are {len(group)} stacks, but there are only five "
                                           "energies and no two stacks may share one."))
            continue
        energies = or_list([title(e) for e in energies_of(union)], "or")
        problems.append(Problem(stacks=group, message=f"Stacks {names} can only be {energies} between them: {len(group)} stacks "
                                       f"cannot share {union.bit_count()} energies, since no two stacks "
                                       "may have the same energy."))
    return problems


def _energy_why(i: int, masks: tuple[int, ...], possible: tuple[int, ...], factory: Factory) -> str:
    cand, poss = masks[i], possible[i]
    stack = factory.stacks[i]
    if cand.bit_count() == 1:
        core = next((c for c in stack.cards if c.mask == cand), None)
        if core is not None:
            return f"{title(energies_of(cand)[0])}: the {core.part.upper()} card is {title(energies_of(cand)[0])} only."
        return f"{title(energies_of(cand)[0])}: it is the only energy every card here carries."
    # two candidates (all hybrids of the same pair)
    pair = energy_text(cand)
    if poss == cand:
        return (f"Not locked yet: every card here is {pair}, and either energy is still free, so it counts as a "
                "stack of its own until a card with one of them decides it.")
    taken = cand & ~poss
    e = energies_of(taken)[0]
    left = title(energies_of(poss)[0])
    holders = [j for j, m in enumerate(possible) if j != i and m == BIT[e]]
    if holders:
        who = f"stack {holders[0] + 1} is {title(e)}"
    else:
        who = f"the other stacks need {title(e)} between them"
    return f"{left}: every card here is {pair}, but {who}, and no two stacks share an energy."


def analyse(factory: Factory, part_names: Sequence[str]) -> FactoryView:
    masks = factory.masks()
    problems = tuple(_impossible_problems(factory)) if not matchable(masks) else ()
    possible = possible_masks(masks)
    views = []
    for i, stack in enumerate(factory.stacks):
        parts, dups, missing = stack_parts(stack, part_names)
        robot = not missing
        poss = possible[i]
        locked = energies_of(poss)[0] if poss.bit_count() == 1 else None
        if problems:
            why = next((p.message for p in problems if i in p.stacks), "Another stack makes this factory impossible.")
        else:
            why = _energy_why(i, masks, possible, factory)
        if robot:
            why += (" Frozen: it counts for the win but cannot be deployed." if stack.frozen
                    else " It holds all four parts: an active robot.")
        elif stack.frozen:
            why += " Frozen: it takes no new parts and pays for no Event, but still counts as a stack."
        views.append(StackView(index=i, energy=locked, candidates=energies_of(masks[i]), possible=energies_of(poss),
                               parts=parts, duplicates=dups, missing=missing, active_robot=robot,
                               frozen=stack.frozen, deployable=robot and not stack.frozen, why=why))
    robots = sum(v.active_robot for v in views)
    rules = list(RULES_FACTORY)
    if any(s.frozen for s in factory.stacks):
        rules.append("tr-frozen-stacks")
    return FactoryView(stacks=tuple(views), unique_stacks=len(factory.stacks), active_robots=robots,
                       deployable_robots=sum(v.deployable for v in views), won=robots >= 2 and not problems,
                       problems=problems, rules=tuple(rules))


# ---- how far a factory is from the win -------------------------------------------------------------

def stack_distance(stack: Stack, part_names: Sequence[str]) -> int | None:
    """Part cards a stack still needs to be an active robot: 0 for a robot, None when it is frozen
    short of one (it takes no new parts)."""
    missing = len(part_names) - len(stack.names() & set(part_names))
    return 0 if missing == 0 else None if stack.frozen else missing


def parts_to_two_robots(factory: Factory, part_names: Sequence[str]) -> int | None:
    """The fewest Part cards that would give the factory two active robots (the win), counting part
    names only: its two nearest stacks that can still become robots, or new stacks (four parts each)
    while energies are free. None when it cannot hold two robots any more."""
    options = sorted(d for d in (stack_distance(s, part_names) for s in factory.stacks) if d is not None)
    options += [len(part_names)] * (MAX_STACKS - len(factory.stacks))
    return options[0] + options[1] if len(options) >= 2 else None


# ---- where a part may go ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Placement:
    stack: int | None          # existing stack, or None for a new stack
    energy: str | None         # the stack's energy after the play when locked, else None
    possible: tuple[str, ...]  # energies the stack may still have after the play
    completes_robot: bool
    duplicate: bool
    forces: tuple[tuple[int, str], ...]  # other stacks this play locks, with their energy
    why: str


def _locked(poss: int) -> str | None:
    return energies_of(poss)[0] if poss.bit_count() == 1 else None


def placement(factory: Factory, card: Part, stack: int | None, part_names: Sequence[str]) -> Placement | None:
    """The placement of `card` on `stack` (None: a new stack) if it is legal, else None."""
    if stack is not None and factory.stacks[stack].frozen:
        return None
    before = possible_masks(factory.masks())
    after_f = factory.add(card, stack)
    after_masks = after_f.masks()
    if not matchable(after_masks):
        return None
    after = possible_masks(after_masks)
    j = len(factory.stacks) if stack is None else stack
    target = after_f.stacks[j]
    duplicate = stack is not None and card.part in factory.stacks[stack].names()
    robot_now = is_robot(target, part_names) and (stack is None or not is_robot(factory.stacks[stack], part_names))
    forces = tuple((k, _locked(after[k])) for k in range(len(factory.stacks))
                   if k != j and _locked(after[k]) and not _locked(before[k]))
    energy = _locked(after[j])
    where = f"on stack {stack + 1}" if stack is not None else "as a new stack"
    bits = [f"{card.label()} {where}"]
    if stack is None:
        bits.append(f"starts {article(title(energy))} {title(energy)} stack" if energy else
                    f"starts a stack still open ({or_list([title(e) for e in energies_of(after[j])])})")
    elif energy:
        bits.append(f"stays {title(energy)}" if _locked(before[stack]) else f"locks it to {title(energy)}")
    else:
        bits.append(f"leaves it open ({or_list([title(e) for e in energies_of(after[j])])})")
    if duplicate:
        bits.append(f"a duplicate {card.part.upper()}, placed sideways")
    if robot_now:
        bits.append("completes an active robot")
    for k, e in forces:
        bits.append(f"locks stack {k + 1} to {title(e)}")
    why = bits[0] + (": " + "; ".join(bits[1:]) if len(bits) > 1 else "") + "."
    return Placement(stack=stack, energy=energy, possible=energies_of(after[j]), completes_robot=robot_now,
                     duplicate=duplicate, forces=forces, why=why)


def why_not_here(factory: Factory, card: Part, stack: int | None) -> str:
    """One sentence: why `card` may not go on `stack` (None: a new stack)."""
    if stack is None:
        if len(factory.stacks) >= MAX_STACKS:
            return "A new stack is not possible: five stacks already use all five energies."
        taken = [title(e) for e in card.energies]
        return (f"A new stack is not possible: {or_list(taken, 'and')} "
                f"{'is' if len(taken) == 1 else 'are'} needed by your other stacks.")
    s = factory.stacks[stack]
    if s.frozen:
        return f"Stack {stack + 1} is frozen: it takes no new parts."
    if not (s.mask & card.mask):
        return f"Stack {stack + 1} is {energy_text(s.mask)}: the card shares no energy with it."
    return (f"On stack {stack + 1} the card would leave it {energy_text(s.mask & card.mask)}, which your other "
            "stacks need: no two stacks may share an energy.")


def placements(factory: Factory, card: Part, part_names: Sequence[str]) -> list[Placement]:
    out = []
    for k in [*range(len(factory.stacks)), None]:
        p = placement(factory, card, k, part_names)
        if p is not None:
            out.append(p)
    return out


# ---- the Apocalypse clarification -------------------------------------------------------------

@dataclass(frozen=True)
class ApocalypseCheck:
    qualifying: tuple[int, ...]
    frozen: tuple[int, ...]
    may_trigger: bool
    why: str


def apocalypse_check(factory: Factory, part_names: Sequence[str]) -> ApocalypseCheck:
    """Clarifications: Apocalypse's ability needs two stacks of three different parts, and a frozen
    one does not serve. Reading: 'three different parts' means at least three part names."""
    three = [i for i, s in enumerate(factory.stacks) if len(s.names() & set(part_names)) >= 3]
    frozen = tuple(i for i in three if factory.stacks[i].frozen)
    live = [i for i in three if not factory.stacks[i].frozen]
    ok = len(live) >= 2
    if ok:
        why = f"Stacks {live[0] + 1} and {live[1] + 1} each hold three different parts and neither is frozen."
    elif frozen and len(three) >= 2:
        why = (f"Two stacks hold three different parts, but stack {frozen[0] + 1} is frozen, so the ability "
               "may not be triggered.")
    else:
        why = f"{len(live)} unfrozen stack{'s' if len(live) != 1 else ''} with three different parts; two are needed."
    return ApocalypseCheck(qualifying=tuple(three), frozen=frozen, may_trigger=ok, why=why)
