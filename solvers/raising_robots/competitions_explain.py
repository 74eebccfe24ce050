"""Why the planner's plan is what it is, in players' words: each competition's criterion now, and for
each step why this competition, this payment, this reward, this place in the order. Every claim here
is checked with the validator before it is made."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from .competitions import (
    COMP_NAMES,
    FRIENDSHIP_CAP,
    RESOURCES,
    Competition,
    Payment,
    PlayerState,
    Rules,
    Step,
    Values,
    check_criterion,
    count_words,
    payment_cost,
    validate_plan,
    with_keeps,
)
from .competitions_planner import Plan, PlanResult

R_HOW = "rr-how-to-complete-competitions"
R_CRITERIA = "rr-completion-criteria"
R_REWARDS = "rr-completion-rewards"
R_TILE = "rr-competition-card-and-tile-overview"
R_COMP_EXAMPLE = "rr-competition-example"
R_FRIEND_EXAMPLE = "rr-friendship-example"
R_FRIENDSHIPS = "rr-friendships"


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def vp_text(x: Fraction) -> str:
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)


@dataclass(frozen=True)
class Eligibility:
    type: str
    criterion: str
    met: bool
    why: str
    completed: bool
    in_plan: bool
    matching: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class StepExplained:
    step: Step
    criterion_why: str
    reasons: tuple[str, ...]
    value: Fraction  # this step's own contribution to the objective
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Explanation:
    eligible: tuple[Eligibility, ...]
    steps: tuple[StepExplained, ...]
    notes: tuple[str, ...]
    rules: tuple[str, ...]


def _needs(comp: Competition) -> set[str]:
    """The inventory things (or 'tokens') a criterion counts, so paying them could break it."""
    c = comp.criterion
    if c.startswith("expo"):
        return set(RESOURCES)
    return {"mech-13-batteries": {"battery"}, "mech-10-robot-cards": {"robot_cards"},
            "mech-7-duct-tape": {"duct_tape"}, "think-3-same-type": {"tokens"},
            "think-3-different-types": {"tokens"}}.get(c, set())


def _alternatives(comp: Competition, state: PlayerState, later: Sequence[Competition], rules: Rules,
                  values: Values) -> list[tuple[str, str, list[Payment], str | None]]:
    """Each kind of payment the side offers: kind, label, candidate payments, why it is impossible."""
    out: list[tuple[str, str, list[Payment], str | None]] = []
    tokens = [t for t in comp.token_types() if state.unplaced_of(t) > 0]
    label = f"{article(comp.token_type)} {comp.token_type} token" if comp.side == "A" else "an upgrade token"
    out.append(("token", label, [Payment.token(t) for t in tokens],
                None if tokens else (f"you have no unplaced {comp.token_type} token" if comp.side == "A"
                                     else "you have no unplaced upgrade token")))
    needed_later = set().union(*(_needs(c) for c in later)) if later else set()
    payable = [i for i in rules.payable_items() if state.inventory.get(i) > 0]
    order = sorted(payable, key=lambda i: (values.of(i), i in needed_later, -state.inventory.get(i)))
    left, items = comp.cost_resources, {}
    for i in order:
        take = min(left, state.inventory.get(i))
        if take:
            items[i] = take
            left -= take
    have = sum(state.inventory.get(i) for i in payable)
    out.append(("resources", f"{comp.cost_resources} resources", [Payment.resources(items)] if not left else [],
                None if not left else f"you have {have} resources that can pay; {comp.cost_resources} needed"))
    out.append(("batteries", count_words(comp.cost_batteries, "battery"), [Payment.batteries(comp.cost_batteries)]
                if state.inventory.battery >= comp.cost_batteries else [],
                None if state.inventory.battery >= comp.cost_batteries else
                f"you have {count_words(state.inventory.battery, 'battery')}"))
    return out


def cannot_pay(comp: Competition, state: PlayerState, rules: Rules) -> str | None:
    """Why none of the tile side's three payments is possible now, or None when one is."""
    tokens = [t for t in comp.token_types() if state.unplaced_of(t) > 0]
    have = sum(state.inventory.get(i) for i in rules.payable_items())
    if tokens or have >= comp.cost_resources or state.inventory.battery >= comp.cost_batteries:
        return None
    token = f"no unplaced {comp.token_type} token" if comp.side == "A" else "no unplaced upgrade token"
    return (f"{token}, {have} of {comp.cost_resources} resources, "
            f"{state.inventory.battery} of {comp.cost_batteries} batteries")


def _payment_reasons(k: int, plan: Plan, comps: Sequence[Competition], start: PlayerState, rules: Rules,
                     values: Values) -> list[str]:
    steps = plan.steps
    step = steps[k]
    by_type = {c.type: c for c in comps}
    comp = by_type[step.type]
    state = plan.check.states[k]
    chosen = payment_cost(step.payment, values)
    later = [by_type[s.type] for s in steps[k + 1:]]
    reasons = [f"Pay {step.payment.describe()}: worth {vp_text(chosen)} VP to you."]
    for kind, label, candidates, impossible in _alternatives(comp, state, later, rules, values):
        if kind == step.payment.kind:
            continue
        if impossible:
            reasons.append(f"Not {label}: {impossible}.")
            continue
        cost = min(payment_cost(p, values) for p in candidates)
        if cost > chosen:
            reasons.append(f"Not {label}: worth {vp_text(cost)} VP, more.")
            continue
        problem = None
        for p in candidates:
            trial = with_keeps(start, comps, [*steps[:k], replace(step, payment=p), *steps[k + 1:]])
            check = validate_plan(start, comps, trial, rules, values)
            if check.ok:
                problem = None
                break
            problem = problem or check.problem
        if problem:
            what = "costs the same" if cost == chosen else f"worth only {vp_text(cost)} VP"
            reasons.append(f"Not {label} ({what}): it would break the plan, {problem}.")
        elif cost == chosen:
            reasons.append(f"{label[0].upper()}{label[1:]} would do as well (same value).")
    for c in later:
        needs = _needs(c)
        if step.payment.kind == "token" and "tokens" in needs:
            reasons.append(f"The token goes onto the {comp.name} tile, where it counts as placed for "
                           f"{c.name}.")
        elif step.payment.kind != "batteries" and "battery" in needs:
            reasons.append(f"Keeps your batteries for {c.name}: {check_criterion(c, state).why}.")
        elif step.payment.kind != "resources" and needs & set(RESOURCES):
            reasons.append(f"Keeps your resources for {c.name}.")
    return reasons


def _reward_reason(step: Step, comp: Competition, state: PlayerState, values: Values) -> tuple[str, Fraction]:
    chosen = comp.reward(step.reward)
    other = next(r for r in comp.rewards if r.id != step.reward)
    room = max(0, FRIENDSHIP_CAP - state.friendships)

    def worth(r) -> Fraction:
        return r.vp + (min(1, room) * values.friendship if r.friendship_draw else 0)

    def words(r) -> str:
        if r.friendship_draw:
            vp = f" and +{r.vp} VP" if r.vp else ""
            return f"draw {r.friendship_draw} Friendship cards, keep 1{vp}"
        return f"+{r.vp} VP"

    text = f"Take {words(chosen)} (worth {vp_text(worth(chosen))}) over {words(other)} ({vp_text(worth(other))})."
    if (chosen.friendship_draw or other.friendship_draw) and not room:
        text += f" You already hold {FRIENDSHIP_CAP} Friendship cards, so a draw would keep none."
    return text, worth(chosen)


def _order_reason(k: int, plan: Plan, comps: Sequence[Competition], start: PlayerState, rules: Rules,
                  values: Values) -> str | None:
    steps = list(plan.steps)
    if k + 1 >= len(steps):
        return None
    swapped = steps[:k] + [steps[k + 1], steps[k]] + steps[k + 2:]
    check = validate_plan(start, comps, with_keeps(start, comps, swapped), rules, values)
    if check.ok:
        return None
    nxt = COMP_NAMES[steps[k + 1].type]
    return f"Before {nxt}: the other way round, {check.problem}."


def explain(state: PlayerState, competitions: Sequence[Competition], result: PlanResult,
            rules: Rules | None = None, values: Values | None = None) -> Explanation:
    rules, values = rules or Rules(), values or Values()
    plan = result.best
    in_plan = {s.type for s in plan.steps}
    eligible = []
    unpayable = []
    for comp in competitions:
        verdict = check_criterion(comp, state)
        done = comp.type in state.completed
        why = verdict.why
        if done:
            why = "already completed (each competition once per player)"
        elif verdict.met and comp.type not in in_plan:
            cannot = cannot_pay(comp, state, rules)
            if cannot:
                unpayable.append(comp.type)
                why += f"; but you cannot pay it now: {cannot}"
            elif any(comp.type in {st.type for st in tie.steps} for tie in result.ties):
                why += "; left out of this plan, but an equally good plan completes it (see the ties)"
            else:
                why += ("; left out: paying for it would cost more than it gives, or leave a better "
                        "competition unpaid")
        eligible.append(Eligibility(comp.type, comp.criterion, verdict.met, why, done, comp.type in in_plan,
                                    verdict.matching))
    by_type = {c.type: c for c in competitions}
    explained = []
    all_rules = [R_HOW, R_CRITERIA]
    for k, step in enumerate(plan.steps):
        comp = by_type[step.type]
        before = plan.check.states[k]
        reasons = _payment_reasons(k, plan, competitions, state, rules, values)
        reward_text, reward_worth = _reward_reason(step, comp, before, values)
        reasons.append(reward_text)
        order = _order_reason(k, plan, competitions, state, rules, values)
        if order:
            reasons.insert(0, order)
        ids = [R_HOW, R_CRITERIA, R_REWARDS]
        if step.payment.kind == "token":
            ids.append(R_TILE)
        if comp.criterion.startswith("think-3"):
            ids.append(R_FRIEND_EXAMPLE)
        if comp.criterion == "mech-10-robot-cards":
            ids.append(R_COMP_EXAMPLE)
        if step.reward == "friendship":
            ids.append(R_FRIENDSHIPS)
        value = reward_worth - payment_cost(step.payment, values)
        explained.append(StepExplained(step, plan.check.verdicts[k].why, tuple(reasons), value, tuple(ids)))
        all_rules += [i for i in ids if i not in all_rules]

    notes = []
    if result.status == "feasible":
        notes.append("The planner ran out of time: this is the best plan it found, not proven best.")
    elif result.status == "unknown":
        notes.append("The planner ran out of time before finding a plan; nothing is suggested.")
    if not plan.steps and result.status != "unknown":
        met_now = [e for e in eligible if e.met and not e.completed]
        if not met_now:
            notes.append("No competition in play can be completed now.")
        elif all(e.type in unpayable for e in met_now):
            notes.append("Criteria are met, but nothing you have can pay the cost now.")
        else:
            notes.append("Completing nothing now is best with these values.")
    if len(plan.steps) > 1:
        notes.append("Only this order works." if plan.orders == 1 else
                     f"{plan.orders} orders of these steps work; this is one of them.")
    for k, step in enumerate(plan.steps):
        comp = by_type[step.type]
        if comp.criterion in ("think-2-d-grades", "think-1-c-grade") and k > 0:
            notes.append(f"{comp.name} counts class grades as you entered them: check that the payments before "
                         "it do not drop a class card below the grade it needs.")
    if any(s.reward == "friendship" for s in plan.steps):
        notes.append("Friendship cards are valued as a number you set; the planner does not know which card "
                     "you will keep or what it gives.")
    return Explanation(tuple(eligible), tuple(explained), tuple(notes), tuple(all_rules))
