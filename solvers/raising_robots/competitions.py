"""Raising Robots: Friends, Competitions (rulebook "Competitions & Friendships").

This module is the spec: the 16 completion criteria, what a tile side accepts as payment and gives as
reward, and `validate_plan`, which checks a plan step by step and values it exactly. The CP-SAT
planner (competitions_planner) and the tests' brute-force oracle (tests/oracles) are both checked
against it. The reading of the rules is ../../shared/design/semantics.md "Raising Robots: Competitions".
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .model import ITEM_WORDS, RESOURCES, ROWS, TOKEN_TYPES, Inventory, Robot

COMP_TYPES = ("engineering_expo", "mech_masters", "think_tank", "robo_race")
COMP_NAMES = {"engineering_expo": "Engineering Expo", "mech_masters": "Mech Masters",
              "think_tank": "Think Tank", "robo_race": "Robo Race"}

CRITERIA: dict[str, str] = {  # criterion id -> competition type (semantics.md table)
    "expo-9-of-one": "engineering_expo", "expo-5-of-two": "engineering_expo", "expo-3-sets": "engineering_expo",
    "mech-13-batteries": "mech_masters", "mech-10-robot-cards": "mech_masters", "mech-7-duct-tape": "mech_masters",
    "think-2-d-grades": "think_tank", "think-1-c-grade": "think_tank", "think-3-same-type": "think_tank",
    "think-3-different-types": "think_tank",
    "race-energy-costs": "robo_race", "race-resource-costs": "robo_race", "race-energy-ranges": "robo_race",
    "race-phase-rows": "robo_race", "race-vp-values": "robo_race", "race-same-row": "robo_race",
}
CARD_VALUE_CRITERIA = ("race-energy-costs", "race-resource-costs")  # the values are printed on the card

# The N-resource cost shows the wild icon: the four resources or Robot Cards in hand, never duct tape
# (unless the table's `duct_tape_pays_resources` setting says otherwise).
WILD_ITEMS = RESOURCES + ("robot_cards",)
ENERGY_RANGES = ((1, 2), (3, 5), (6, 7))
RACE_VP = (3, 4, 5, 6)
FRIENDSHIP_CAP = 2
VALUE_KEYS = ("sensor", "gear", "microchip", "program", "duct_tape", "battery", "robot_cards",
              "upgrade_token", "friendship")


def count_words(n: int, item: str) -> str:
    one, many = ITEM_WORDS[item]
    return f"{n} {one if n == 1 else many}"


# ---- inputs -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RewardOption:
    """One of a tile side's two rewards: `vp` points and, for the Friendship option, cards to draw."""
    id: str  # "friendship" or "vp"
    vp: int
    friendship_draw: int = 0


@dataclass(frozen=True)
class Competition:
    """A competition in play: its card's criterion and its tile's side showing."""
    type: str
    criterion: str
    side: str  # "A" or "B"
    token_type: str  # the tile's upgrade type (only binding on the A side)
    cost_resources: int  # N: exactly N resources
    cost_batteries: int  # M: exactly M batteries
    rewards: tuple[RewardOption, ...]
    values: tuple[int, ...] = ()  # Robo Race cost values printed on the card

    @property
    def name(self) -> str:
        return COMP_NAMES[self.type]

    def reward(self, option: str) -> RewardOption | None:
        return next((r for r in self.rewards if r.id == option), None)

    def token_types(self) -> tuple[str, ...]:
        """Upgrade types this side accepts as payment: A the tile's own type, B any type."""
        return (self.token_type,) if self.side == "A" else TOKEN_TYPES


def _tokens(counts: Mapping[str, int] | Sequence[int] | None) -> tuple[int, ...]:
    if counts is None:
        return (0,) * len(TOKEN_TYPES)
    if isinstance(counts, Mapping):
        unknown = set(counts) - set(TOKEN_TYPES)
        if unknown:
            raise ValueError(f"unknown token types: {sorted(unknown)}")
        return tuple(int(counts.get(t, 0)) for t in TOKEN_TYPES)
    return tuple(int(x) for x in counts)


@dataclass(frozen=True)
class PlayerState:
    """What the criteria and payments look at. Tokens are counts per TOKEN_TYPES (same order)."""
    inventory: Inventory = field(default_factory=Inventory)
    unplaced: tuple[int, ...] = (0, 0, 0, 0)
    placed: tuple[int, ...] = (0, 0, 0, 0)
    meeting_d: int = 0  # class cards meeting D or better, Extra Credit not counted
    meeting_c: int = 0  # class cards meeting C or better, Extra Credit not counted
    robots: tuple[Robot, ...] = ()
    friendships: int = 0  # Friendship cards held (the cap of 2 counts them)
    completed: frozenset[str] = frozenset()  # competition types this player has completed
    # Sacagawea (inventor or Friendship): Robot Cards in hand act as duct tape (never for class cards)
    robot_cards_as_duct_tape: bool = False

    @staticmethod
    def make(inventory: Inventory | None = None, unplaced=None, placed=None, meeting_d: int = 0,
             meeting_c: int = 0, robots: Iterable[Robot] = (), friendships: int = 0,
             completed: Iterable[str] = (), robot_cards_as_duct_tape: bool = False) -> PlayerState:
        return PlayerState(inventory=inventory or Inventory(), unplaced=_tokens(unplaced), placed=_tokens(placed),
                           meeting_d=meeting_d, meeting_c=meeting_c, robots=tuple(robots), friendships=friendships,
                           completed=frozenset(completed), robot_cards_as_duct_tape=robot_cards_as_duct_tape)

    def unplaced_of(self, token_type: str) -> int:
        return self.unplaced[TOKEN_TYPES.index(token_type)]

    def placed_of(self, token_type: str) -> int:
        return self.placed[TOKEN_TYPES.index(token_type)]


@dataclass(frozen=True)
class Rules:
    duct_tape_pays_resources: bool = False  # setting; the default reading is that it cannot

    def payable_items(self) -> tuple[str, ...]:
        return WILD_ITEMS + (("duct_tape",) if self.duct_tape_pays_resources else ())


def _third() -> Fraction:
    return Fraction(1, 3)


@dataclass(frozen=True)
class Values:
    """What the planner weighs, in VP (exact). Defaults of semantics.md; players may change them."""
    sensor: Fraction = field(default_factory=_third)
    gear: Fraction = field(default_factory=_third)
    microchip: Fraction = field(default_factory=_third)
    program: Fraction = field(default_factory=_third)
    duct_tape: Fraction = field(default_factory=_third)
    battery: Fraction = field(default_factory=_third)
    robot_cards: Fraction = field(default_factory=_third)
    upgrade_token: Fraction = Fraction(2)
    friendship: Fraction = Fraction(4)

    def of(self, key: str) -> Fraction:
        return getattr(self, key)

    def with_overrides(self, overrides: Mapping[str, Fraction]) -> Values:
        return replace(self, **{k: Fraction(v) for k, v in overrides.items()})

    def as_dict(self) -> dict[str, Fraction]:
        return {k: self.of(k) for k in VALUE_KEYS}


# ---- plans ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Payment:
    kind: str  # "token", "resources" or "batteries"
    token_type: str | None = None
    items: tuple[tuple[str, int], ...] = ()  # resources: (item, count) with count > 0, in item order
    count: int = 0  # batteries

    @staticmethod
    def token(token_type: str) -> Payment:
        return Payment("token", token_type=token_type)

    @staticmethod
    def resources(items: Mapping[str, int]) -> Payment:
        order = WILD_ITEMS + ("duct_tape",)
        ordered = sorted(((k, int(v)) for k, v in items.items() if v), key=lambda kv: (
            order.index(kv[0]) if kv[0] in order else len(order), kv[0]))
        return Payment("resources", items=tuple(ordered))

    @staticmethod
    def batteries(count: int) -> Payment:
        return Payment("batteries", count=count)

    def items_dict(self) -> dict[str, int]:
        return dict(self.items)

    def describe(self) -> str:
        if self.kind == "token":
            return f"an unplaced {self.token_type} upgrade token"
        if self.kind == "batteries":
            return count_words(self.count, "battery")
        return " + ".join(count_words(n, item) for item, n in self.items) or "nothing"

    def key(self) -> tuple:
        """What tells two payments apart when plans are compared as ties (the resource mix does not)."""
        return (self.kind, self.token_type if self.kind == "token" else None)


@dataclass(frozen=True)
class Step:
    type: str
    payment: Payment
    reward: str  # "friendship" or "vp"
    friendship_keep: int = 0  # cards kept: 1 under the cap of 2, else 0

    def key(self) -> tuple:
        return (self.type,) + self.payment.key() + (self.reward,)


def signature(steps: Iterable[Step]) -> frozenset:
    """The choices that make plans different for a player: which competitions, paid how, which reward."""
    return frozenset(s.key() for s in steps)


# ---- criteria ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    met: bool
    why: str
    matching: tuple[tuple[str, int], ...] = ()  # Robo Race: (value label, robot index) pairs


def _match(slots: Sequence[str], serves: Sequence[Sequence[int]], n_robots: int) -> dict[int, int] | None:
    """A distinct robot for every slot (Kuhn's augmenting paths); serves[s] = robots fit for slot s."""
    owner: dict[int, int] = {}  # robot -> slot

    def augment(s: int, seen: set[int]) -> bool:
        for r in serves[s]:
            if r in seen:
                continue
            seen.add(r)
            if r not in owner or augment(owner[r], seen):
                owner[r] = s
                return True
        return False

    for s in range(len(slots)):
        if not augment(s, set()):
            return None
    return {s: r for r, s in owner.items()}


def _race_slots(comp: Competition, robots: Sequence[Robot]) -> tuple[list[str], list[list[int]]]:
    """The values a Robo Race card asks a distinct robot for, and which robots can serve each."""
    c = comp.criterion
    if c == "race-energy-costs":
        return ([f"energy cost {v}" for v in comp.values],
                [[i for i, r in enumerate(robots) if v in r.cost_energy] for v in comp.values])
    if c == "race-resource-costs":
        return ([f"resource cost {v}" for v in comp.values],
                [[i for i, r in enumerate(robots) if v in r.cost_resources] for v in comp.values])
    if c == "race-energy-ranges":
        return ([f"action energy {lo}-{hi}" for lo, hi in ENERGY_RANGES],
                [[i for i, r in enumerate(robots) if any(lo <= e <= hi for e in r.action_energies())]
                 for lo, hi in ENERGY_RANGES])
    if c == "race-phase-rows":
        return ([f"{row} row" for row in ROWS], [[i for i, r in enumerate(robots) if r.row == row] for row in ROWS])
    if c == "race-vp-values":
        return ([f"{v} VP" for v in RACE_VP], [[i for i, r in enumerate(robots) if r.vp == v] for v in RACE_VP])
    raise ValueError(c)


def _robo_race(comp: Competition, robots: Sequence[Robot]) -> Verdict:
    n = len(robots)
    if n == 0:
        return Verdict(False, "no robots assembled yet")
    if comp.criterion == "race-same-row":
        per_row = {row: sum(r.row == row for r in robots) for row in ROWS}
        best = max(ROWS, key=lambda row: per_row[row])
        if per_row[best] >= 4:
            return Verdict(True, f"{per_row[best]} robots in the {best} row (4 needed in one row)")
        return Verdict(False, f"at most {per_row[best]} robots in one row ({best}); 4 needed in one row")
    need = 4 if comp.criterion == "race-vp-values" else 5
    slots, serves = _race_slots(comp, robots)
    if n < need:
        return Verdict(False, f"{n} robots assembled; {need} needed")
    matching = _match(slots, serves, n)
    if matching is None:
        missing = [slots[s] for s in range(len(slots)) if not serves[s]]
        if missing:
            return Verdict(False, "no robot with " + ", ".join(missing))
        return Verdict(False, "each value needs its own robot, and some robots would have to serve two values")
    pairs = tuple((slots[s], matching[s]) for s in range(len(slots)))
    listing = "; ".join(f"{label}: robot {r + 1}" for label, r in pairs)
    return Verdict(True, f"{n} robots ({need} needed), a different one for each value: {listing}", pairs)


def _resource_list(items: Iterable[tuple[str, int]]) -> str:
    return ", ".join(count_words(n, i) for i, n in items)


def check_criterion(comp: Competition, state: PlayerState) -> Verdict:
    """Does the player meet the card's criterion on this state (before paying), and why (own words)."""
    inv = state.inventory
    c = comp.criterion
    res = sorted(((r, inv.get(r)) for r in RESOURCES), key=lambda kv: -kv[1])  # duct tape never counts
    if c == "expo-9-of-one":
        top, n = res[0]
        if n >= 9:
            return Verdict(True, f"you have {count_words(n, top)} (9 of one resource needed)")
        return Verdict(False, f"your largest pile is {count_words(n, top)}; 9 of one resource needed")
    if c == "expo-5-of-two":
        big = [(r, n) for r, n in res if n >= 5]
        if len(big) >= 2:
            return Verdict(True, f"{_resource_list(big[:2])}: two resources at 5 or more")
        have = f"only {_resource_list(big)} reaches" if big else "no resource reaches"
        return Verdict(False, f"{have} 5; two different resources at 5 or more needed (duct tape does not count)")
    if c == "expo-3-sets":
        low = [(r, n) for r, n in res if n < 3]
        if not low:
            return Verdict(True, f"every resource is at 3 or more (lowest: {_resource_list(res[-1:])})")
        return Verdict(False, f"{_resource_list(reversed(low))} under 3; 3 of each of the four resources needed")
    if c == "mech-13-batteries":
        n = inv.battery
        return Verdict(n >= 13, f"{count_words(n, 'battery')} (13 needed)")
    if c == "mech-10-robot-cards":
        n = inv.robot_cards
        return Verdict(n >= 10, f"{count_words(n, 'robot_cards')} in hand (10 needed)")
    if c == "mech-7-duct-tape":
        n = inv.duct_tape
        if state.robot_cards_as_duct_tape and inv.robot_cards:
            total = n + inv.robot_cards
            return Verdict(total >= 7, f"{n} duct tape + {count_words(inv.robot_cards, 'robot_cards')} acting as "
                                       f"duct tape (Sacagawea) = {total} (7 needed)")
        return Verdict(n >= 7, f"{n} duct tape (7 needed)")
    if c == "think-2-d-grades":
        n = state.meeting_d
        return Verdict(n >= 2, f"{n} class card{'s' if n != 1 else ''} meeting D or better without Extra Credit "
                               "(2 needed)")
    if c == "think-1-c-grade":
        n = state.meeting_c
        return Verdict(n >= 1, f"{n} class card{'s' if n != 1 else ''} meeting C or better without Extra Credit "
                               "(1 needed)")
    if c == "think-3-same-type":
        t = max(TOKEN_TYPES, key=state.placed_of)
        n = state.placed_of(t)
        if n >= 3:
            return Verdict(True, f"{n} placed {t} tokens (3 of one type needed)")
        return Verdict(False, f"at most {n} placed tokens of one type ({t}); 3 needed, and unplaced ones "
                              "do not count")
    if c == "think-3-different-types":
        kinds = [t for t in TOKEN_TYPES if state.placed_of(t) > 0]
        if len(kinds) >= 3:
            return Verdict(True, f"placed tokens of {len(kinds)} types ({', '.join(kinds)}); 3 needed")
        shown = f" ({', '.join(kinds)})" if kinds else ""
        return Verdict(False, f"placed tokens of {len(kinds)} type{'s' if len(kinds) != 1 else ''}{shown}; "
                              "3 needed, and unplaced ones do not count")
    if CRITERIA.get(c) == "robo_race":
        return _robo_race(comp, state.robots)
    raise ValueError(f"unknown criterion {c!r}")


# ---- payments, rewards and the validator -------------------------------------------------------------

def payment_problem(comp: Competition, pay: Payment, state: PlayerState, rules: Rules) -> str | None:
    """Why this payment is not a legal way to pay this tile side now, or None when it is."""
    if pay.kind == "token":
        if pay.token_type not in TOKEN_TYPES:
            return f"{pay.token_type!r} is not an upgrade type"
        if pay.token_type not in comp.token_types():
            return (f"the A side of the {comp.name} tile takes only a {comp.token_type} token "
                    f"(any type on the B side)")
        if state.unplaced_of(pay.token_type) < 1:
            return f"no unplaced {pay.token_type} token left (a placed token cannot pay)"
        return None
    if pay.kind == "batteries":
        if pay.count != comp.cost_batteries:
            return f"the battery cost is exactly {comp.cost_batteries}, not {pay.count}"
        if state.inventory.battery < pay.count:
            return f"{count_words(state.inventory.battery, 'battery')} left; {pay.count} needed"
        return None
    if pay.kind == "resources":
        payable = rules.payable_items()
        total = 0
        for item, n in pay.items:
            if item not in payable:
                if item == "duct_tape":
                    return "duct tape cannot pay a wild (any resource) cost"
                return f"{item} cannot pay a resource cost"
            if n < 0:
                return "a payment cannot be negative"
            if state.inventory.get(item) < n:
                return f"{count_words(state.inventory.get(item), item)} left; {n} needed"
            total += n
        if total != comp.cost_resources:
            return f"the resource cost is exactly {comp.cost_resources}, not {total}"
        return None
    return f"unknown payment kind {pay.kind!r}"


def pay(state: PlayerState, pay_: Payment) -> PlayerState:
    """The state after a (legal) payment; a token paid goes onto the tile, so it counts as placed."""
    if pay_.kind == "token":
        i = TOKEN_TYPES.index(pay_.token_type)
        unplaced = tuple(n - (j == i) for j, n in enumerate(state.unplaced))
        placed = tuple(n + (j == i) for j, n in enumerate(state.placed))
        return replace(state, unplaced=unplaced, placed=placed)
    if pay_.kind == "batteries":
        return replace(state, inventory=state.inventory.add(battery=-pay_.count))
    return replace(state, inventory=state.inventory.add(**{k: -v for k, v in pay_.items}))


def payment_cost(pay_: Payment, values: Values) -> Fraction:
    if pay_.kind == "token":
        return values.upgrade_token
    if pay_.kind == "batteries":
        return pay_.count * values.battery
    return sum((n * values.of(item) for item, n in pay_.items), Fraction(0))


@dataclass(frozen=True)
class Check:
    """The validator's answer: ok, or the first step that breaks a rule and why."""
    ok: bool
    value: Fraction = Fraction(0)
    problem: str = ""
    step: int | None = None  # index of the offending step
    states: tuple[PlayerState, ...] = ()  # state before each step, then the final state
    verdicts: tuple[Verdict, ...] = ()  # each step's criterion on the state before it


def keep_now(state: PlayerState, reward: RewardOption) -> int:
    """Friendship cards this reward keeps now: one while under the cap of 2, else none."""
    return min(1, max(0, FRIENDSHIP_CAP - state.friendships)) if reward.friendship_draw else 0


def apply_step(state: PlayerState, comp: Competition | None, step: Step, rules: Rules
               ) -> tuple[PlayerState | None, Verdict | None, str]:
    """One step of a plan: (state after it, its criterion's verdict, "") or (None, verdict, the problem)."""
    if comp is None:
        return None, None, f"{step.type} is not in play"
    if comp.type in state.completed:
        return None, None, f"{comp.name} is already completed (each competition once per player)"
    verdict = check_criterion(comp, state)
    if not verdict.met:
        return None, verdict, f"{comp.name} criterion not met before paying: {verdict.why}"
    problem = payment_problem(comp, step.payment, state, rules)
    if problem:
        return None, verdict, f"{comp.name} payment: {problem}"
    reward = comp.reward(step.reward)
    if reward is None:
        return None, verdict, f"{comp.name} side {comp.side} has no {step.reward!r} reward"
    keep = keep_now(state, reward)
    if step.friendship_keep != keep:
        return None, verdict, (f"{comp.name}: keeps {step.friendship_keep} Friendship card(s) but may keep "
                               f"{keep} (at most {FRIENDSHIP_CAP} held)")
    after = pay(state, step.payment)
    after = replace(after, inventory=after.inventory.add(vp=reward.vp), friendships=state.friendships + keep,
                    completed=state.completed | {comp.type})
    return after, verdict, ""


def step_value(comp: Competition, step: Step, values: Values) -> Fraction:
    reward = comp.reward(step.reward)
    return reward.vp + step.friendship_keep * values.friendship - payment_cost(step.payment, values)


def validate_plan(state: PlayerState, competitions: Sequence[Competition], steps: Sequence[Step],
                  rules: Rules | None = None, values: Values | None = None) -> Check:
    """Check a plan step by step (criterion before paying, legal payment, a reward of the side showing,
    once per player, Friendship cap) and value it: reward VP + kept Friendship cards - what is paid."""
    rules, values = rules or Rules(), values or Values()
    by_type = {c.type: c for c in competitions}
    states = [state]
    verdicts = []
    value = Fraction(0)
    for k, step in enumerate(steps):
        after, verdict, problem = apply_step(state, by_type.get(step.type), step, rules)
        if after is None:
            return Check(False, problem=problem, step=k, states=tuple(states), verdicts=tuple(verdicts))
        verdicts.append(verdict)
        value += step_value(by_type[step.type], step, values)
        state = after
        states.append(state)
    return Check(True, value=value, states=tuple(states), verdicts=tuple(verdicts))


def legal_orders(state: PlayerState, competitions: Sequence[Competition], steps: Sequence[Step],
                 rules: Rules | None = None) -> list[list[Step]]:
    """Every order of these steps that is legal (Friendship keeps set as each order dictates), in the
    order of the competitions' listing; prefixes that break a rule are not extended."""
    rules = rules or Rules()
    by_type = {c.type: c for c in competitions}
    index = {c.type: k for k, c in enumerate(competitions)}
    pending = sorted(steps, key=lambda s: index.get(s.type, len(index)))
    out: list[list[Step]] = []

    def extend(s: PlayerState, prefix: list[Step], rest: list[Step]) -> None:
        if not rest:
            out.append(prefix)
            return
        for k, step in enumerate(rest):
            comp = by_type.get(step.type)
            reward = comp.reward(step.reward) if comp else None
            step = replace(step, friendship_keep=keep_now(s, reward) if reward else 0)
            after, _, _ = apply_step(s, comp, step, rules)
            if after is not None:
                extend(after, [*prefix, step], rest[:k] + rest[k + 1:])

    extend(state, [], pending)
    return out


def keep_for(state: PlayerState, steps_before: Sequence[Step], reward: RewardOption) -> int:
    """Friendship cards kept by a reward after `steps_before`: one while under the cap, else none."""
    held = state.friendships + sum(s.friendship_keep for s in steps_before)
    return min(1, max(0, FRIENDSHIP_CAP - held)) if reward.friendship_draw else 0


def with_keeps(state: PlayerState, competitions: Sequence[Competition], steps: Sequence[Step]) -> list[Step]:
    """The same steps with `friendship_keep` set as the cap dictates in this order."""
    by_type = {c.type: c for c in competitions}
    out: list[Step] = []
    for s in steps:
        reward = by_type[s.type].reward(s.reward)
        out.append(replace(s, friendship_keep=keep_for(state, out, reward) if reward else 0))
    return out
