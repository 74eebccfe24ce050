"""Why the planner's plan is what it is, in players' words: each competition's criterion now, and for
each step why this competition, this payment, this reward, this place in the order. Every claim here
is checked with the validator before it is made."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ..wording import article
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
from .competitions_planner import Claims, Plan, PlanResult

# Rule entries of the rules assistant (assistant/data/rules/raising_robots.toml) each answer relies on:
# every competition card has its own entry, "rr-card-<criterion>"; readings are Tablebot's.
R_HOW = "rr-how-to-complete-competitions"
R_CRITERIA = "rr-completion-criteria"
R_REWARDS = "rr-completion-rewards"
R_TILE = "rr-competition-card-and-tile-overview"
R_COMP_EXAMPLE = "rr-competition-example"
R_FRIEND_EXAMPLE = "rr-friendship-example"
R_FRIENDSHIPS = "rr-friendships"
R_COMPLETING = "rr-reading-completing"
R_PLANNER_VALUES = "rr-reading-planner-values"
R_COST_LAYOUT = "rr-completion-cost-and-rewards-layout"
R_REWARD_SIDES = "rr-reading-reward-sides"
R_SEVERAL = ("rr-important-several-at-once", "rr-reading-several-competitions")
R_ONCE = "rr-important-complete-once"
R_TOKEN_A_SIDE = "rr-important-tile-a-side-token-type"
R_B_SIDE = "rr-tile-b-side"
R_RESOURCES_COST = "rr-reading-resources-cost"
R_CAP = ("rr-important-max-two-friendships", "rr-reading-friendship-cap")
R_THINK_TOKENS = "rr-reading-think-tank-tokens"
R_TOKEN_CANNOT_PAY = "rr-important-token-for-criterion-cannot-pay"
R_ANY_ROW = "rr-important-any-row-symbol"
_CLAIM = "rr-important-criteria-met-when-claiming"
_TOKENS_PLACED = ("rr-important-tokens-must-be-placed", R_THINK_TOKENS, R_TOKEN_CANNOT_PAY)
_RACE = ("rr-reading-robo-race-matching",)
_CARD_VALUES = "rr-reading-robo-race-card-values"
CRITERION_RULES: dict[str, tuple[str, ...]] = {  # beyond the card's own entry: what its check applies
    "expo-9-of-one": ("rr-reading-criteria-counts", _CLAIM),
    "expo-5-of-two": ("rr-reading-criteria-counts", _CLAIM),
    "expo-3-sets": ("rr-reading-criteria-counts", _CLAIM),
    "mech-13-batteries": (_CLAIM,),
    "mech-10-robot-cards": (_CLAIM, R_COMP_EXAMPLE),
    "mech-7-duct-tape": (_CLAIM,),
    "think-2-d-grades": (_CLAIM,),
    "think-1-c-grade": (_CLAIM,),
    "think-3-same-type": (*_TOKENS_PLACED, R_FRIEND_EXAMPLE),
    "think-3-different-types": _TOKENS_PLACED,
    "race-energy-costs": (*_RACE, _CARD_VALUES),
    "race-resource-costs": (*_RACE, _CARD_VALUES),
    "race-energy-ranges": (*_RACE, "rr-important-upgraded-energy-needs-upgrade"),
    "race-phase-rows": _RACE,
    "race-vp-values": _RACE,
    "race-same-row": (),
}


def card_rule(criterion: str) -> str:
    """The rules assistant's entry for one competition card."""
    return f"rr-card-{criterion}"


def criterion_rules(comp: Competition, state: PlayerState) -> tuple[str, ...]:
    """The card's entry and the readings its check applies (the any-row note when such a robot counts)."""
    ids = [card_rule(comp.criterion), *CRITERION_RULES[comp.criterion]]
    if comp.type == "robo_race" and any(r.any_row for r in state.robots):
        ids.append(R_ANY_ROW)
    return tuple(ids)


# Every id this module can name, for pages that draw links from API answers.
ALL_RULES: tuple[str, ...] = tuple(dict.fromkeys([
    R_HOW, R_CRITERIA, R_REWARDS, R_TILE, R_COMPLETING, R_PLANNER_VALUES, R_COST_LAYOUT, R_REWARD_SIDES, *R_SEVERAL,
    R_ONCE, R_TOKEN_A_SIDE, R_B_SIDE, R_RESOURCES_COST, R_FRIENDSHIPS, *R_CAP, R_ANY_ROW,
    *(card_rule(c) for c in CRITERION_RULES), *(i for ids in CRITERION_RULES.values() for i in ids)]))


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
    rules: tuple[str, ...] = ()


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


def describe_plan(p: Plan) -> str:
    """A plan in a few words: "Think Tank (4 Robot Cards), then Engineering Expo (4 gears)"."""
    return ", then ".join(f"{COMP_NAMES[s.type]} ({s.payment.describe()})" for s in p.steps) or "completing nothing"


def _payment_reasons(k: int, plan: Plan, comps: Sequence[Competition], start: PlayerState, rules: Rules,
                     values: Values, claims: Claims) -> list[str]:
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
        other = claims.pays.get((comp.type, kind))
        if other is not None:  # a plan of equal value pays this competition that way
            reasons.append(f"{label[0].upper()}{label[1:]} would do as well: {describe_plan(other)} has the same "
                           "value.")
            continue
        proven = (comp.type, kind) in claims.pays_never
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
            if not check.ok:
                problem = problem or check.problem
        what = "costs the same" if cost == chosen else f"worth only {vp_text(cost)} VP"
        if proven:
            reasons.append(f"Not {label} ({what}): no plan of equal value pays {comp.name} this way"
                           + (f"; in this plan, {problem}." if problem else "."))
        elif problem:  # not every other plan was checked in time: say only what holds of this one
            reasons.append(f"Not {label} here ({what}): in this plan, {problem}.")
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
                  values: Values, claims: Claims) -> str | None:
    steps = list(plan.steps)
    if k + 1 >= len(steps) or claims.only_order is not True:
        return None
    swapped = steps[:k] + [steps[k + 1], steps[k]] + steps[k + 2:]
    check = validate_plan(start, comps, with_keeps(start, comps, swapped), rules, values)
    if check.ok:
        return None
    nxt = COMP_NAMES[steps[k + 1].type]
    return f"Before {nxt}: the other way round, {check.problem}."


def _order_note(plan: Plan, claims: Claims) -> str:
    if plan.orders > 1:
        return f"{plan.orders} orders of these steps work; this is one of them."
    if claims.only_order:
        return "Only this order works: no plan of equal value completes these competitions in another order."
    if claims.other_order is not None:
        return (f"These payments work only in this order, but another order is as good: "
                f"{describe_plan(claims.other_order)}.")
    return "These payments work only in this order (other payments were not all checked in time)."


def step_rules(k: int, plan: Plan, comp: Competition, by_type: dict[str, Competition], before: PlayerState
               ) -> list[str]:
    """The entries one step of the plan relies on: its card, how it pays on this side, its reward, and
    the several-at-once rule when it shares the moment with other steps."""
    step = plan.steps[k]
    ids = [card_rule(comp.criterion), *CRITERION_RULES[comp.criterion], R_HOW, R_CRITERIA, R_REWARDS]
    if step.payment.kind == "token":
        ids += [R_TILE, R_TOKEN_A_SIDE]
        if any(by_type[s.type].criterion.startswith("think-3") for s in plan.steps[k + 1:]):
            ids.append(R_THINK_TOKENS)  # the token now lies on this tile: placed, for a later Think Tank
    elif step.payment.kind == "resources":
        ids.append(R_RESOURCES_COST)
    if comp.side == "B":
        ids.append(R_B_SIDE)
    if step.reward == "friendship":
        ids.append(R_FRIENDSHIPS)
    if before.friendships >= FRIENDSHIP_CAP:
        ids += R_CAP
    if len(plan.steps) > 1:
        ids += R_SEVERAL
    return list(dict.fromkeys(ids))


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
            elif comp.type in result.claims.completes:
                why += ("; left out of this plan, but an equally good plan completes it: "
                        + describe_plan(result.claims.completes[comp.type]))
            elif comp.type in result.claims.completes_never:
                why += ("; left out: no plan of equal value completes it (paying for it would cost more than "
                        "it gives, or leave a better competition unpaid)")
            else:
                why += "; left out of this plan (not every other plan could be checked in time)"
        ids = criterion_rules(comp, state) + ((R_ONCE,) if done else ())
        eligible.append(Eligibility(comp.type, comp.criterion, verdict.met, why, done, comp.type in in_plan,
                                    verdict.matching, ids))
    by_type = {c.type: c for c in competitions}
    explained = []
    all_rules = [R_HOW, R_COMPLETING, R_PLANNER_VALUES]
    if plan.steps:
        all_rules += [R_COST_LAYOUT, R_REWARD_SIDES]
    if len(plan.steps) > 1:
        all_rules += R_SEVERAL
    if state.friendships >= FRIENDSHIP_CAP:
        all_rules += R_CAP
    for k, step in enumerate(plan.steps):
        comp = by_type[step.type]
        before = plan.check.states[k]
        reasons = _payment_reasons(k, plan, competitions, state, rules, values, result.claims)
        reward_text, reward_worth = _reward_reason(step, comp, before, values)
        reasons.append(reward_text)
        order = _order_reason(k, plan, competitions, state, rules, values, result.claims)
        if order:
            reasons.insert(0, order)
        ids = step_rules(k, plan, comp, by_type, before)
        value = reward_worth - payment_cost(step.payment, values)
        explained.append(StepExplained(step, plan.check.verdicts[k].why, tuple(reasons), value, tuple(ids)))
        all_rules += [i for i in ids if i not in all_rules]
    for e in eligible:
        all_rules += [i for i in e.rules if i not in all_rules]

    notes = []
    if result.status == "feasible":
        notes.append("The planner ran out of time: this is the best plan it found, not proven best.")
    elif result.status == "unknown":
        notes.append("The planner ran out of time before finding a plan; nothing is suggested.")
    if not plan.steps and result.status != "unknown":
        met_now = [e for e in eligible if e.met and not e.completed]
        if not met_now:
            notes.append("No criterion in play is met now, so nothing can be completed "
                         "(each competition below says what it lacks).")
        elif all(e.type in unpayable for e in met_now):
            notes.append("Criteria are met, but nothing you have can pay the cost now.")
        else:
            notes.append("Completing nothing now is best with these values.")
    if len(plan.steps) > 1:
        notes.append(_order_note(plan, result.claims))
    for k, step in enumerate(plan.steps):
        comp = by_type[step.type]
        if comp.criterion in ("think-2-d-grades", "think-1-c-grade") and k > 0:
            notes.append(f"{comp.name} counts class grades as you entered them: check that the payments before "
                         "it do not drop a class card below the grade it needs.")
    kept_at = next((k for k, s in enumerate(plan.steps) if s.friendship_keep), None)
    if kept_at is not None:
        name = COMP_NAMES[plan.steps[kept_at].type]
        rest = "the rest of this plan" if kept_at + 1 < len(plan.steps) else "what you can complete next"
        notes.append(f"After {name} you keep a Friendship card, and {rest} depends on which one (Johannes, "
                     "Confucius, Ada and John change your inventory at once). Once you have kept it, name it and "
                     "Tablebot plans again from there; until then a kept card counts as the value you set.")
    return Explanation(tuple(eligible), tuple(explained), tuple(notes), tuple(all_rules))
