"""The competition planner: which competitions to complete, in what order, paying what, taking which
reward, to maximise the value of semantics.md "Planner objective" (CP-SAT, exact values scaled to
integers). Every plan it returns is checked by the validator of `competitions` (the spec).

Besides the best plan, the planner settles the questions the explanation answers about *other* plans of
the same value (so that "only this order works", "no other payment", "left out" and the ties are true of
every plan of equal value, not just of the one found): with the optimum fixed, each question is a
guarded constraint, and one feasibility solve asks "does some optimal plan answer any open question
yes?". An infeasible answer settles every open question at once (the usual case: one extra solve);
a plan found answers the questions it witnesses, and the rest are asked again.
"""
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
PAY_KINDS = ("token", "resources", "batteries")


class PlannerError(Exception):
    """The model or the solver disagrees with the validator: a bug, never a player's input."""


class _Model(cp_model.CpModel):
    """CpModel without the pre-PEP 8 method aliases, which ortools builds per instance by walking
    dir(): about 1 ms of every plan, for names this module never uses."""

    def _add_pre_pep8_methods(self) -> None:
        pass


def value_scale(values: Values) -> int:
    """The common denominator that turns every value into an integer."""
    return math.lcm(*(values.of(k).denominator for k in VALUE_KEYS))


@dataclass
class _Vars:
    """The model's decision variables, per competition index c (position in the listing)."""
    comps: list[Competition]
    done: dict[int, cp_model.IntVar] = field(default_factory=dict)
    pos: dict[int, cp_model.IntVar] = field(default_factory=dict)
    tok: dict[int, dict[str, cp_model.IntVar]] = field(default_factory=dict)  # which token type pays
    is_token: dict[int, cp_model.IntVar] = field(default_factory=dict)  # paid with some token
    res: dict[int, cp_model.IntVar] = field(default_factory=dict)  # paid with N resources
    bat: dict[int, cp_model.IntVar] = field(default_factory=dict)  # paid with M batteries
    paid: dict[int, dict[str, cp_model.IntVar]] = field(default_factory=dict)  # resources paid, by item
    fr: dict[int, cp_model.IntVar] = field(default_factory=dict)  # took the Friendship reward
    lt: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # a comes before c
    primary: cp_model.LinearExpr | int = 0  # the objective, scaled to integers

    def signature_literals(self) -> list[cp_model.IntVar]:
        lits: list[cp_model.IntVar] = []
        for c in range(len(self.comps)):
            lits += list(self.tok[c].values())
            lits += [v for v in (self.res.get(c), self.bat.get(c), self.fr.get(c)) if v is not None]
        return lits

    def kind_literal(self, c: int, kind: str) -> cp_model.IntVar | None:
        return {"token": self.is_token.get(c), "resources": self.res.get(c), "batteries": self.bat.get(c)}[kind]


def _could_ever_hold(comp: Competition, state: PlayerState) -> bool:
    return comp.criterion in _TOKEN_CRITERIA or check_criterion(comp, state).met


# ---- the model, section by section (variables, constraints, objective) -------------------------------

def _add_choices(m: cp_model.CpModel, v: _Vars, state: PlayerState, rules: Rules, items: list[str]) -> None:
    """Per competition: done or not, its place in the order, one payment kind (and the items paid), reward."""
    inv, n = state.inventory, len(v.comps)
    for c, comp in enumerate(v.comps):
        done = v.done[c] = m.new_bool_var(f"done{c}")
        v.pos[c] = m.new_int_var(0, max(0, n - 1), f"pos{c}")
        v.tok[c] = {t: m.new_bool_var(f"tok{c}{t}") for t in comp.token_types() if state.unplaced_of(t) > 0}
        v.is_token[c] = m.new_bool_var(f"token{c}")
        m.add(sum(v.tok[c].values()) == v.is_token[c])
        kinds = [v.is_token[c]]
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


def _add_order(m: cp_model.CpModel, v: _Vars) -> None:
    """Distinct places; the competitions left out sit after the completed ones, in listing order (one
    model solution per plan); lt[a, c] says a comes before c."""
    n = len(v.comps)
    if n > 1:
        m.add_all_different(list(v.pos.values()))
    n_done = sum(v.done.values())
    for c in range(n):
        m.add(v.pos[c] >= n_done).only_enforce_if(~v.done[c])
        for a in range(c):
            m.add(v.pos[a] < v.pos[c]).only_enforce_if(~v.done[a], ~v.done[c])
    for a, c in itertools.combinations(range(n), 2):
        b = m.new_bool_var(f"lt{a}_{c}")
        m.add(v.pos[a] < v.pos[c]).only_enforce_if(b)
        m.add(v.pos[a] > v.pos[c]).only_enforce_if(~b)
        v.lt[a, c], v.lt[c, a] = b, ~b


class _Before:
    """Linear expressions for what the competitions completed before c have used up."""

    def __init__(self, m: cp_model.CpModel, v: _Vars, state: PlayerState):
        self.m, self.v, self.state = m, v, state

    def paid(self, c: int, item: str) -> cp_model.LinearExpr | int:
        m, v, terms = self.m, self.v, []
        for a in range(len(v.comps)):
            if a == c or item not in v.paid[a]:
                continue
            q = m.new_int_var(0, min(self.state.inventory.get(item), v.comps[a].cost_resources), f"q{a}{c}{item}")
            m.add(q == v.paid[a][item]).only_enforce_if(v.lt[a, c])
            m.add(q == 0).only_enforce_if(~v.lt[a, c])
            terms.append(q)
        return sum(terms)

    def _and_before(self, a: int, c: int, lit: cp_model.IntVar, name: str) -> cp_model.IntVar:
        both = self.m.new_bool_var(name)
        self.m.add_bool_and([lit, self.v.lt[a, c]]).only_enforce_if(both)
        self.m.add_bool_or([~lit, ~self.v.lt[a, c], both])
        return both

    def batteries(self, c: int) -> cp_model.LinearExpr | int:
        v = self.v
        return sum(v.comps[a].cost_batteries * self._and_before(a, c, v.bat[a], f"b{a}{c}")
                   for a in range(len(v.comps)) if a != c and a in v.bat)

    def placed(self, c: int, t: str) -> cp_model.LinearExpr | int:
        v = self.v
        return self.state.placed_of(t) + sum(self._and_before(a, c, v.tok[a][t], f"t{a}{c}{t}")
                                             for a in range(len(v.comps)) if a != c and t in v.tok[a])


def _add_criteria(m: cp_model.CpModel, v: _Vars, state: PlayerState) -> None:
    """Each criterion holds on the state before its own payment (after the earlier competitions' costs)."""
    inv, before = state.inventory, _Before(m, v, state)

    def at_least(expr, threshold: int, name: str) -> cp_model.IntVar:
        z = m.new_bool_var(name)
        m.add(expr >= threshold).only_enforce_if(z)
        return z

    for c, comp in enumerate(v.comps):
        done, crit = v.done[c], comp.criterion
        left = {i: inv.get(i) - before.paid(c, i) for i in RESOURCES} if crit.startswith("expo") else {}
        if crit == "expo-9-of-one":
            m.add(sum(at_least(left[i], 9, f"z{c}{i}") for i in RESOURCES) >= 1).only_enforce_if(done)
        elif crit == "expo-5-of-two":
            m.add(sum(at_least(left[i], 5, f"z{c}{i}") for i in RESOURCES) >= 2).only_enforce_if(done)
        elif crit == "expo-3-sets":
            for i in RESOURCES:
                m.add(left[i] >= 3).only_enforce_if(done)
        elif crit == "mech-13-batteries":
            m.add(inv.battery - before.batteries(c) >= 13).only_enforce_if(done)
        elif crit == "mech-10-robot-cards":
            m.add(inv.robot_cards - before.paid(c, "robot_cards") >= 10).only_enforce_if(done)
        elif crit == "mech-7-duct-tape":
            tape = inv.duct_tape - before.paid(c, "duct_tape")
            if state.robot_cards_as_duct_tape:  # Sacagawea: Robot Cards in hand count as duct tape
                tape += inv.robot_cards - before.paid(c, "robot_cards")
            m.add(tape >= 7).only_enforce_if(done)
        elif crit == "think-3-same-type":
            m.add(sum(at_least(before.placed(c, t), 3, f"z{c}{t}") for t in TOKEN_TYPES) >= 1).only_enforce_if(done)
        elif crit == "think-3-different-types":
            m.add(sum(at_least(before.placed(c, t), 1, f"z{c}{t}") for t in TOKEN_TYPES) >= 3).only_enforce_if(done)
        # the others (class grades, Robo Race) do not change during a plan: settled by _could_ever_hold


def _add_budget(m: cp_model.CpModel, v: _Vars, state: PlayerState, items: list[str]) -> None:
    """What is paid in total fits what the player has."""
    inv, n = state.inventory, len(v.comps)
    for i in items:
        m.add(sum(v.paid[c][i] for c in range(n) if i in v.paid[c]) <= inv.get(i))
    m.add(sum(v.comps[c].cost_batteries * v.bat[c] for c in v.bat) <= inv.battery)
    for t in TOKEN_TYPES:
        m.add(sum(v.tok[c][t] for c in range(n) if t in v.tok[c]) <= state.unplaced_of(t))


def _add_friendships(m: cp_model.CpModel, v: _Vars, state: PlayerState) -> cp_model.IntVar:
    """Friendship cards kept: one per Friendship reward while under the cap of 2."""
    room = max(0, FRIENDSHIP_CAP - state.friendships)
    kept = m.new_int_var(0, room, "kept")
    drawn = m.new_int_var(0, len(v.comps), "drawn")
    m.add(drawn == sum(v.fr.values()))
    m.add_min_equality(kept, [drawn, room])
    return kept


def _objective(v: _Vars, kept: cp_model.IntVar, values: Values, scale: int) -> cp_model.LinearExpr:
    """Reward VP + kept Friendship cards - what is paid, each scaled to an integer."""
    def scaled(x: Fraction) -> int:
        return int(x * scale)

    terms = [scaled(values.friendship) * kept]
    for c, comp in enumerate(v.comps):
        f_opt, vp_opt = comp.reward("friendship"), comp.reward("vp")
        terms.append(f_opt.vp * scale * v.fr[c] + vp_opt.vp * scale * (v.done[c] - v.fr[c]))
        terms += [-scaled(values.upgrade_token) * lit for lit in v.tok[c].values()]
        terms += [-scaled(values.of(i)) * x for i, x in v.paid[c].items()]
        if c in v.bat:
            terms.append(-scaled(values.battery) * comp.cost_batteries * v.bat[c])
    return sum(terms)


def _tie_break(v: _Vars, state: PlayerState, items: list[str]) -> cp_model.LinearExpr:
    """Among plans of the same value, pay from the largest piles (and duct tape last)."""
    inv = state.inventory
    by_size = sorted(items, key=lambda i: (i == "duct_tape", -inv.get(i), items.index(i)))
    rank = {i: r for r, i in enumerate(by_size)}
    return sum(rank[i] * x for c in range(len(v.comps)) for i, x in v.paid[c].items())


def _build(state: PlayerState, comps: list[Competition], rules: Rules, values: Values
           ) -> tuple[cp_model.CpModel, _Vars, int]:
    """The CP-SAT model of one planning question: variables, constraints, objective."""
    model = _Model()
    v = _Vars(comps)
    items = [i for i in rules.payable_items() if state.inventory.get(i) > 0]
    scale = value_scale(values)
    # Creates the variables (and the constraints that tie each competition's choices together).
    _add_choices(model, v, state, rules, items)
    _add_order(model, v)
    # Creates the constraints.
    _add_criteria(model, v, state)
    _add_budget(model, v, state, items)
    kept = _add_friendships(model, v, state)
    # Objective: the value first; the tie-break only orders plans of equal value.
    v.primary = _objective(v, kept, values, scale)
    weight = 1 + sum(comp.cost_resources for comp in comps) * max(len(items) - 1, 0)
    model.maximize(weight * v.primary - _tie_break(v, state, items))
    return model, v, scale


def _solver(seconds: float) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(seconds, 0.001)
    # the model is tiny (about 100 variables): presolve, probing, inprocessing and symmetry detection
    # cost more than they save
    solver.parameters.cp_model_presolve = False
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.use_sat_inprocessing = False
    solver.parameters.symmetry_level = 0
    return solver


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
        steps.append(Step(type=comp.type, payment=payment,
                          reward="friendship" if solver.boolean_value(v.fr[c]) else "vp"))
    return steps


# ---- results ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    steps: tuple[Step, ...]
    check: Check  # the validator's verdict (always ok) and the state before each step
    orders: int  # how many orders of these exact steps are legal (1: only this one; 0: not counted)


@dataclass(frozen=True)
class Claims:
    """What holds of every plan of the best plan's value. A question left unsettled (out of time) is in
    none of the settled sets, so nothing is claimed about it."""
    # another order of the best plan's competitions at the same value (any payments, any rewards)
    other_order: Plan | None = None
    only_order: bool | None = None  # True: proven that no other order reaches the value
    # (competition type, payment kind) -> a plan of equal value paying that competition that way
    pays: dict[tuple[str, str], Plan] = field(default_factory=dict)
    pays_never: frozenset[tuple[str, str]] = frozenset()  # proven: no plan of equal value pays so
    # competition type -> a plan of equal value that completes it (for competitions the best plan leaves out)
    completes: dict[str, Plan] = field(default_factory=dict)
    completes_never: frozenset[str] = frozenset()  # proven: no plan of equal value completes it


@dataclass(frozen=True)
class PlanResult:
    status: str  # "optimal", or "feasible" (time limit hit; best found, not proven best)
    best: Plan
    value: Fraction
    ties: tuple[Plan, ...]  # other optimal plans that differ in competitions, payment kinds or rewards
    ties_complete: bool  # False when more tied plans exist than were listed (or the search was cut)
    claims: Claims = field(default_factory=Claims)


def _canonical(state: PlayerState, comps: Sequence[Competition], steps: Sequence[Step], rules: Rules,
               values: Values, count_orders: bool = True) -> Plan:
    """The plan in the first legal order following the competitions' listing, and how many orders work
    (0 when not counted; then the solver's own order is kept)."""
    own = validate_plan(state, comps, with_keeps(state, comps, steps), rules, values)
    if not own.ok:  # the model's own order must already be legal; reordering must not hide a model bug
        raise PlannerError(f"the planner produced a plan the validator rejects: {own.problem}")
    if not count_orders:
        return Plan(steps=tuple(with_keeps(state, comps, steps)), check=own, orders=0)
    orders = legal_orders(state, comps, steps, rules)
    first = orders[0]
    return Plan(steps=tuple(first), check=validate_plan(state, comps, first, rules, values), orders=len(orders))


# ---- questions about the other plans of equal value ------------------------------------------------------

@dataclass(frozen=True)
class _Question:
    kind: str  # "order", "pays", "completes" or "tie"
    comp: int | None = None
    pay_kind: str | None = None


def _types(p: Plan) -> tuple[str, ...]:
    return tuple(s.type for s in p.steps)


def _answers(q: _Question, p: Plan, best: Plan, comps: Sequence[Competition], found: set[frozenset]) -> bool:
    """Does plan p (an optimal plan) answer question q yes."""
    if q.kind == "order":
        return set(_types(p)) == set(_types(best)) and _types(p) != _types(best)
    if q.kind == "completes":
        return comps[q.comp].type in _types(p)
    if q.kind == "pays":
        return any(s.type == comps[q.comp].type and s.payment.kind == q.pay_kind for s in p.steps)
    return signature(p.steps) not in found


def _questions(best: Plan, state: PlayerState, comps: Sequence[Competition]) -> list[_Question]:
    index = {c.type: k for k, c in enumerate(comps)}
    qs = [_Question("tie")]
    if len(best.steps) > 1 and best.orders == 1:
        qs.append(_Question("order"))
    for s in best.steps:
        qs += [_Question("pays", index[s.type], k) for k in PAY_KINDS if k != s.payment.kind]
    in_plan = set(_types(best))
    for c, comp in enumerate(comps):
        if comp.type not in in_plan and comp.type not in state.completed and check_criterion(comp, state).met:
            qs.append(_Question("completes", c))
    return qs


def _guard(m: cp_model.CpModel, v: _Vars, q: _Question, best: Plan) -> cp_model.IntVar | None:
    """A literal that, when true, forces the plan to answer q yes (None: no plan can)."""
    g = m.new_bool_var(f"ask_{q.kind}{q.comp}{q.pay_kind}")
    if q.kind == "order":
        index = {c.type: k for k, c in enumerate(v.comps)}
        chosen = [index[t] for t in _types(best)]
        m.add_bool_and([v.done[c] if c in chosen else ~v.done[c] for c in range(len(v.comps))]).only_enforce_if(g)
        m.add_bool_or([v.lt[b, a] for a, b in itertools.combinations(chosen, 2)]).only_enforce_if(g)
    elif q.kind == "completes":
        m.add_implication(g, v.done[q.comp])
    elif q.kind == "pays":
        lit = v.kind_literal(q.comp, q.pay_kind)
        if lit is None:
            return None
        m.add_implication(g, lit)
    return g


def _trial_payments(comp: Competition, before: PlayerState, kind: str, rules: Rules, values: Values
                    ) -> list[Payment]:
    """A few legal payments of this kind at this point: each token type, the battery cost, the cheapest
    resource mix (largest piles first among equal values)."""
    if kind == "token":
        return [Payment.token(t) for t in comp.token_types() if before.unplaced_of(t) > 0]
    if kind == "batteries":
        return [Payment.batteries(comp.cost_batteries)] if before.inventory.battery >= comp.cost_batteries else []
    inv, left, items = before.inventory, comp.cost_resources, {}
    for i in sorted(rules.payable_items(), key=lambda i: (values.of(i), -inv.get(i))):
        take = min(left, inv.get(i))
        if take:
            items[i], left = take, left - take
    return [Payment.resources(items)] if not left else []


def _trials(best: Plan, state: PlayerState, comps: list[Competition], rules: Rules, values: Values) -> list[Plan]:
    """Plans of the best value found without the solver: the best plan with one step paid another way.
    They answer most "pays" questions (and find ties) at the cost of a validation each."""
    by_type = {c.type: c for c in comps}
    out = []
    for k, step in enumerate(best.steps):
        for kind in PAY_KINDS:
            if kind == step.payment.kind:
                continue
            for pay_ in _trial_payments(by_type[step.type], best.check.states[k], kind, rules, values):
                steps = with_keeps(state, comps, [*best.steps[:k], Step(type=step.type, payment=pay_,
                                                                         reward=step.reward), *best.steps[k + 1:]])
                check = validate_plan(state, comps, steps, rules, values)
                if check.ok and check.value == best.check.value:
                    out.append(Plan(steps=tuple(steps), check=check, orders=0))
                    break
    return out


def _exclude(m: cp_model.CpModel, lits: list[cp_model.IntVar], on: set[int], guard: cp_model.IntVar) -> None:
    """Under `guard`, the signature literals must differ from this assignment somewhere."""
    m.add_bool_or([~lit if lit.index in on else lit for lit in lits]).only_enforce_if(guard)


def _settle(model: cp_model.CpModel, solver: cp_model.CpSolver, v: _Vars, best: Plan, found: dict,
            state: PlayerState, comps: list[Competition], rules: Rules, values: Values, deadline: float,
            max_ties: int) -> tuple[Claims, list[Plan], bool]:
    """Ask the questions about plans of equal value (the model's objective is already fixed at the optimum).
    Returns the claims, the ties found (up to max_ties) and whether the list of ties is complete."""
    lits = v.signature_literals()
    asked = _questions(best, state, comps)
    open_: dict[_Question, cp_model.IntVar] = {}
    never: list[_Question] = []
    witness: dict[_Question, Plan] = {}
    for q in asked:
        g = _guard(model, v, q, best)
        if g is None:
            never.append(q)
        else:
            open_[q] = g
    tie_q = _Question("tie")
    for on in found.values():
        _exclude(model, lits, on, open_[tie_q])
    ties: list[Plan] = []
    ties_complete = False

    def record(p: Plan, on: set[int]) -> None:
        """Settle the open questions plan p answers yes; a new signature is a tie (up to max_ties)."""
        for q in [q for q in open_ if q.kind != "tie" and _answers(q, p, best, comps, set(found))]:
            witness[q] = p
            del open_[q]
        if tie_q in open_ and signature(p.steps) not in found:
            if len(ties) == max_ties:
                del open_[tie_q]  # more ties than listed: the list is not complete
            else:
                ties.append(p)
                found[signature(p.steps)] = on
                _exclude(model, lits, on, open_[tie_q])

    by_lit = {(c, t): lit for c in range(len(comps)) for t, lit in v.tok[c].items()}
    index = {c.type: k for k, c in enumerate(comps)}
    for p in _trials(best, state, comps, rules, values):
        on = set()  # the signature literals this plan sets
        for s in p.steps:
            c = index[s.type]
            lit = (by_lit[c, s.payment.token_type] if s.payment.kind == "token" else
                   v.res[c] if s.payment.kind == "resources" else v.bat[c])
            on.add(lit.index)
            if s.reward == "friendship":
                on.add(v.fr[c].index)
        record(p, on)
    while open_:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        model.add_bool_or(list(open_.values()))  # stronger each round: the open questions only shrink
        solver.parameters.max_time_in_seconds = left
        status = solver.solve(model)
        if status == cp_model.MODEL_INVALID:
            raise PlannerError("the planner's question model is invalid")
        if status == cp_model.INFEASIBLE:
            never += list(open_)
            ties_complete = ties_complete or tie_q in open_
            open_.clear()
            break
        if status not in _STATUS:
            break  # out of time: the open questions stay unsettled
        p = _canonical(state, comps, _extract(solver, v), rules, values, count_orders=False)
        if not any(_answers(q, p, best, comps, set(found)) for q in open_):
            raise PlannerError("the solver's plan answers none of the questions it was asked")
        record(p, {lit.index for lit in lits if solver.boolean_value(lit)})
    by_comp = {k: c.type for k, c in enumerate(comps)}
    claims = Claims(
        other_order=next((p for q, p in witness.items() if q.kind == "order"), None),
        only_order=(True if any(q.kind == "order" for q in never) else
                    False if any(q.kind == "order" for q in witness) else None),
        pays={(by_comp[q.comp], q.pay_kind): p for q, p in witness.items() if q.kind == "pays"},
        pays_never=frozenset((by_comp[q.comp], q.pay_kind) for q in never if q.kind == "pays"),
        completes={by_comp[q.comp]: p for q, p in witness.items() if q.kind == "completes"},
        completes_never=frozenset(by_comp[q.comp] for q in never if q.kind == "completes"))
    return claims, ties, ties_complete


# ---- the planner ------------------------------------------------------------------------------------

def plan(state: PlayerState, competitions: Sequence[Competition], rules: Rules | None = None,
         values: Values | None = None, time_limit: float = 2.0, max_ties: int = 2) -> PlanResult:
    """The best sequence of competitions to complete now (possibly none), with its exact value, the plans
    that tie with it, and what holds of every plan of that value (`claims`). `time_limit` (seconds)
    bounds the whole call: the first solve and every later question share it."""
    deadline = time.monotonic() + time_limit
    rules, values = rules or Rules(), values or Values()
    comps = list(competitions)
    if len({c.type for c in comps}) != len(comps):
        raise ValueError("one competition per type")
    if value_scale(values) > MAX_SCALE:
        raise ValueError("the values' common denominator is too large")

    model, v, scale = _build(state, comps, rules, values)
    solver = _solver(deadline - time.monotonic())
    status = solver.solve(model)

    # the empty plan always satisfies the model: no solution means a broken model, not a hard table
    if status in (cp_model.INFEASIBLE, cp_model.MODEL_INVALID):
        raise PlannerError(f"the planner's model is {solver.status_name(status)}: {model.validate()}")
    if status not in _STATUS:  # out of time before any plan: completing nothing is the safe answer
        empty = Plan(steps=(), check=validate_plan(state, comps, (), rules, values), orders=1)
        return PlanResult(status="unknown", best=empty, value=Fraction(0), ties=(), ties_complete=False)
    best = _canonical(state, comps, _extract(solver, v), rules, values)
    primary = solver.value(v.primary)
    if Fraction(primary, scale) != best.check.value:
        raise PlannerError(f"solver value {Fraction(primary, scale)} != validator value {best.check.value}")
    if status != cp_model.OPTIMAL:  # not proven best: nothing can be said about "every plan of this value"
        return PlanResult(status=_STATUS[status], best=best, value=best.check.value, ties=(), ties_complete=False)

    model.add(v.primary == primary)
    model.clear_objective()  # any plan of the same value will do: feasibility is quicker to settle
    found = {signature(best.steps): {lit.index for lit in v.signature_literals() if solver.boolean_value(lit)}}
    claims, ties, complete = _settle(model, solver, v, best, found, state, comps, rules, values, deadline,
                                     max_ties)
    assert len({signature(p.steps) for p in [best, *ties]}) == len(ties) + 1
    return PlanResult(status="optimal", best=best, value=best.check.value, ties=tuple(ties),
                      ties_complete=complete, claims=claims)
