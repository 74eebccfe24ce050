"""The competition planner: which competitions to complete, in what order, paying what, taking which
reward, to maximise the value of semantics.md "Planner objective" (CP-SAT, exact values scaled to
integers). Every plan it returns is checked by the validator of `competitions` (the spec)."""
from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ortools.sat.python import cp_model

from .competitions import (
    FRIENDSHIP_CAP,
    VALUE_KEYS,
    Check,
    Competition,
    Payment,
    PlayerState,
    Rules,
    Step,
    Values,
    check_criterion,
    legal_orders,
    signature,
    validate_plan,
    with_keeps,
)
from .model import RESOURCES, TOKEN_TYPES

MAX_SCALE = 10**6  # common denominator of the values; larger ones are refused by the callers
_STATUS = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible"}
# Criteria that only look at things that payments never increase: unmet now means unmet all plan long
_TOKEN_CRITERIA = ("think-3-same-type", "think-3-different-types")


class PlannerError(Exception):
    pass


def value_scale(values: Values) -> int:
    """The common denominator that turns every value into an integer."""
    return math.lcm(*(values.of(k).denominator for k in VALUE_KEYS))


@dataclass
class _Vars:
    comps: list[Competition]
    done: dict[int, cp_model.IntVar] = field(default_factory=dict)
    pos: dict[int, cp_model.IntVar] = field(default_factory=dict)
    tok: dict[int, dict[str, cp_model.IntVar]] = field(default_factory=dict)
    res: dict[int, cp_model.IntVar] = field(default_factory=dict)
    bat: dict[int, cp_model.IntVar] = field(default_factory=dict)
    paid: dict[int, dict[str, cp_model.IntVar]] = field(default_factory=dict)
    fr: dict[int, cp_model.IntVar] = field(default_factory=dict)
    primary: cp_model.LinearExpr | int = 0

    def signature_literals(self) -> list[cp_model.IntVar]:
        lits: list[cp_model.IntVar] = []
        for c in range(len(self.comps)):
            lits += list(self.tok[c].values())
            lits += [v for v in (self.res.get(c), self.bat.get(c), self.fr.get(c)) if v is not None]
        return lits


def _could_ever_hold(comp: Competition, state: PlayerState) -> bool:
    return comp.criterion in _TOKEN_CRITERIA or check_criterion(comp, state).met


def _build(state: PlayerState, comps: list[Competition], rules: Rules, values: Values
           ) -> tuple[cp_model.CpModel, _Vars, int]:
    m = cp_model.CpModel()
    v = _Vars(comps)
    inv = state.inventory
    n = len(comps)
    items = [i for i in rules.payable_items() if inv.get(i) > 0]
    scale = value_scale(values)

    # -- choices per competition: done, payment kind, items paid, reward
    for c, comp in enumerate(comps):
        done = v.done[c] = m.new_bool_var(f"done{c}")
        v.pos[c] = m.new_int_var(0, max(0, n - 1), f"pos{c}")
        v.tok[c] = {t: m.new_bool_var(f"tok{c}{t}") for t in comp.token_types() if state.unplaced_of(t) > 0}
        kinds = list(v.tok[c].values())
        if comp.cost_resources <= sum(inv.get(i) for i in items):
            v.res[c] = m.new_bool_var(f"res{c}")
            kinds.append(v.res[c])
            v.paid[c] = {i: m.new_int_var(0, min(inv.get(i), comp.cost_resources), f"p{c}{i}") for i in items}
            m.add(sum(v.paid[c].values()) == comp.cost_resources * v.res[c])
        else:
            v.paid[c] = {}
        if inv.battery >= comp.cost_batteries:
            v.bat[c] = m.new_bool_var(f"bat{c}")
            kinds.append(v.bat[c])
        m.add(sum(kinds) == done)
        v.fr[c] = m.new_bool_var(f"fr{c}")
        m.add_implication(v.fr[c], done)
        if comp.type in state.completed or not _could_ever_hold(comp, state):
            m.add(done == 0)
    if n > 1:
        m.add_all_different(list(v.pos.values()))
    # symmetry: competitions left out sit after the completed ones, in listing order
    n_done = sum(v.done.values())
    for c in range(n):
        m.add(v.pos[c] >= n_done).only_enforce_if(~v.done[c])
        for a in range(c):
            m.add(v.pos[a] < v.pos[c]).only_enforce_if(~v.done[a], ~v.done[c])

    # -- order: lt[a, c] is true when a comes before c (only used for done pairs)
    lt: dict[tuple[int, int], cp_model.IntVar] = {}
    for a, c in itertools.combinations(range(n), 2):
        b = m.new_bool_var(f"lt{a}_{c}")
        m.add(v.pos[a] < v.pos[c]).only_enforce_if(b)
        m.add(v.pos[a] > v.pos[c]).only_enforce_if(~b)
        lt[a, c], lt[c, a] = b, ~b

    def paid_before(c: int, item: str) -> cp_model.LinearExpr | int:
        """How much of `item` the competitions completed before c have paid."""
        terms = []
        for a in range(n):
            if a == c or item not in v.paid[a]:
                continue
            q = m.new_int_var(0, min(inv.get(item), comps[a].cost_resources), f"q{a}{c}{item}")
            m.add(q == v.paid[a][item]).only_enforce_if(lt[a, c])
            m.add(q == 0).only_enforce_if(~lt[a, c])
            terms.append(q)
        return sum(terms)

    def and_before(a: int, c: int, lit: cp_model.IntVar, name: str) -> cp_model.IntVar:
        both = m.new_bool_var(name)
        m.add_bool_and([lit, lt[a, c]]).only_enforce_if(both)
        m.add_bool_or([~lit, ~lt[a, c], both])
        return both

    def batteries_before(c: int) -> cp_model.LinearExpr | int:
        return sum(comps[a].cost_batteries * and_before(a, c, v.bat[a], f"b{a}{c}")
                   for a in range(n) if a != c and a in v.bat)

    def placed_before(c: int, t: str) -> cp_model.LinearExpr | int:
        return state.placed_of(t) + sum(and_before(a, c, v.tok[a][t], f"t{a}{c}{t}")
                                        for a in range(n) if a != c and t in v.tok[a])

    def at_least(expr, threshold: int, name: str) -> cp_model.IntVar:
        z = m.new_bool_var(name)
        m.add(expr >= threshold).only_enforce_if(z)
        return z

    # -- each criterion holds on the state before its own payment
    for c, comp in enumerate(comps):
        done, crit = v.done[c], comp.criterion
        left = {i: inv.get(i) - paid_before(c, i) for i in RESOURCES} if crit.startswith("expo") else {}
        if crit == "expo-9-of-one":
            m.add(sum(at_least(left[i], 9, f"z{c}{i}") for i in RESOURCES) >= 1).only_enforce_if(done)
        elif crit == "expo-5-of-two":
            m.add(sum(at_least(left[i], 5, f"z{c}{i}") for i in RESOURCES) >= 2).only_enforce_if(done)
        elif crit == "expo-3-sets":
            for i in RESOURCES:
                m.add(left[i] >= 3).only_enforce_if(done)
        elif crit == "mech-13-batteries":
            m.add(inv.battery - batteries_before(c) >= 13).only_enforce_if(done)
        elif crit == "mech-10-robot-cards":
            m.add(inv.robot_cards - paid_before(c, "robot_cards") >= 10).only_enforce_if(done)
        elif crit == "mech-7-duct-tape":
            m.add(inv.duct_tape - paid_before(c, "duct_tape") >= 7).only_enforce_if(done)
        elif crit == "think-3-same-type":
            m.add(sum(at_least(placed_before(c, t), 3, f"z{c}{t}") for t in TOKEN_TYPES) >= 1).only_enforce_if(done)
        elif crit == "think-3-different-types":
            m.add(sum(at_least(placed_before(c, t), 1, f"z{c}{t}") for t in TOKEN_TYPES) >= 3).only_enforce_if(done)
        # the others (class grades, Robo Race) do not change during a plan: settled by _could_ever_hold

    # -- what is paid in total fits what the player has
    for i in items:
        m.add(sum(v.paid[c][i] for c in range(n) if i in v.paid[c]) <= inv.get(i))
    m.add(sum(comps[c].cost_batteries * v.bat[c] for c in v.bat) <= inv.battery)
    for t in TOKEN_TYPES:
        m.add(sum(v.tok[c][t] for c in range(n) if t in v.tok[c]) <= state.unplaced_of(t))

    # -- Friendship cards kept: one per Friendship reward while under the cap
    room = max(0, FRIENDSHIP_CAP - state.friendships)
    kept = m.new_int_var(0, room, "kept")
    drawn = m.new_int_var(0, n, "drawn")
    m.add(drawn == sum(v.fr.values()))
    m.add_min_equality(kept, [drawn, room])

    # -- objective: value (scaled to integers), then a tie-break that pays from the largest piles
    def scaled(x: Fraction) -> int:
        return int(x * scale)

    terms = [scaled(values.friendship) * kept]
    for c, comp in enumerate(comps):
        f_opt, vp_opt = comp.reward("friendship"), comp.reward("vp")
        terms.append(f_opt.vp * scale * v.fr[c] + vp_opt.vp * scale * (v.done[c] - v.fr[c]))
        terms += [-scaled(values.upgrade_token) * lit for lit in v.tok[c].values()]
        terms += [-scaled(values.of(i)) * x for i, x in v.paid[c].items()]
        if c in v.bat:
            terms.append(-scaled(values.battery) * comp.cost_batteries * v.bat[c])
    v.primary = sum(terms)
    by_size = sorted(items, key=lambda i: (i == "duct_tape", -inv.get(i), items.index(i)))
    rank = {i: r for r, i in enumerate(by_size)}
    tie_break = sum(rank[i] * x for c in range(n) for i, x in v.paid[c].items())
    weight = 1 + sum(comp.cost_resources for comp in comps) * max(len(items) - 1, 0)
    m.maximize(weight * v.primary - tie_break)
    return m, v, scale


def _extract(solver: cp_model.CpSolver, v: _Vars) -> list[Step]:
    chosen = sorted((solver.value(v.pos[c]), c) for c in range(len(v.comps)) if solver.boolean_value(v.done[c]))
    steps = []
    for _, c in chosen:
        comp = v.comps[c]
        token = next((t for t, lit in v.tok[c].items() if solver.boolean_value(lit)), None)
        if token:
            payment = Payment.token(token)
        elif c in v.res and solver.boolean_value(v.res[c]):
            payment = Payment.resources({i: solver.value(x) for i, x in v.paid[c].items()})
        else:
            payment = Payment.batteries(comp.cost_batteries)
        steps.append(Step(comp.type, payment, "friendship" if solver.boolean_value(v.fr[c]) else "vp"))
    return steps


@dataclass(frozen=True)
class Plan:
    steps: tuple[Step, ...]
    check: Check  # the validator's verdict (always ok) and the state before each step
    orders: int  # how many orders of these steps are legal (1: only this one; 0: not counted)


@dataclass(frozen=True)
class PlanResult:
    status: str  # "optimal", "feasible" (time limit hit; best found) or "unknown" (nothing found)
    best: Plan
    value: Fraction
    ties: tuple[Plan, ...]  # other optimal plans that differ in competitions, payment kinds or rewards
    ties_complete: bool  # False when more tied plans exist than were listed (or the search was cut)


def _canonical(state: PlayerState, comps: Sequence[Competition], steps: Sequence[Step], rules: Rules,
               values: Values, count_orders: bool = True) -> Plan:
    """The plan in the first legal order following the competitions' listing, and how many orders work
    (0 when not counted)."""
    own = validate_plan(state, comps, with_keeps(state, comps, steps), rules, values)
    if not own.ok:  # the model's own order must already be legal; reordering must not hide a model bug
        raise PlannerError(f"the planner produced a plan the validator rejects: {own.problem}")
    if not count_orders:
        return Plan(tuple(with_keeps(state, comps, steps)), own, 0)
    orders = legal_orders(state, comps, steps, rules)
    first = orders[0]
    return Plan(tuple(first), validate_plan(state, comps, first, rules, values), len(orders))


def plan(state: PlayerState, competitions: Sequence[Competition], rules: Rules | None = None,
         values: Values | None = None, time_limit: float = 2.0, max_ties: int = 2) -> PlanResult:
    """The best sequence of competitions to complete now (possibly none), with its exact value.
    `time_limit` (seconds) bounds the whole call: the first solve and every search for a tie share it."""
    deadline = time.monotonic() + time_limit
    rules, values = rules or Rules(), values or Values()
    comps = list(competitions)
    if len({c.type for c in comps}) != len(comps):
        raise ValueError("one competition per type")
    if value_scale(values) > MAX_SCALE:
        raise ValueError("the values' common denominator is too large")
    model, v, scale = _build(state, comps, rules, values)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(deadline - time.monotonic(), 0.001)
    # the model is tiny (about 70 variables): presolve, probing and inprocessing cost more than they save
    solver.parameters.cp_model_presolve = False
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.use_sat_inprocessing = False
    status = solver.solve(model)
    if status not in _STATUS:
        empty = Plan((), validate_plan(state, comps, (), rules, values), 1)
        return PlanResult("unknown", empty, Fraction(0), (), False)
    steps = _extract(solver, v)
    best = _canonical(state, comps, steps, rules, values)
    primary = solver.value(v.primary)
    if Fraction(primary, scale) != best.check.value:
        raise PlannerError(f"solver value {Fraction(primary, scale)} != validator value {best.check.value}")

    # other optimal plans: same value, a different signature (competitions, payment kinds, rewards)
    ties: list[Plan] = []
    complete = status == cp_model.OPTIMAL
    if complete:
        model.add(v.primary == primary)
        model.clear_objective()  # any plan of the same value will do: feasibility is quicker to settle
        lits = v.signature_literals()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                complete = False  # out of time: there may be more tied plans than the ones listed
                break
            found = {lit.index for lit in lits if solver.boolean_value(lit)}
            model.add_bool_or([~lit if lit.index in found else lit for lit in lits])
            solver.parameters.max_time_in_seconds = left
            again = solver.solve(model)
            if again not in (cp_model.OPTIMAL, cp_model.FEASIBLE) or len(ties) == max_ties:
                # a tie beyond the listed ones, or a search cut short, leaves the list incomplete
                complete = again == cp_model.INFEASIBLE
                break
            ties.append(_canonical(state, comps, _extract(solver, v), rules, values, count_orders=False))
    assert len({signature(p.steps) for p in [best, *ties]}) == len(ties) + 1
    return PlanResult(_STATUS[status], best, best.check.value, tuple(ties), complete)
