"""The Raising Robots answers: a request (schemas.py, requests.py) goes to its solver
(solvers/raising_robots/), and the result comes back as the API's JSON with why and the rule entries it
relies on. A page calls the same `*_answer` function with the solver records of its table state
(`Seat.to_solver()`), never a body built for it; the score page and the standings read the solver's
`Score` itself."""
from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solvers.errors import InputError
from solvers.exact import exact, parse_fraction
from solvers.raising_robots import abilities, scoring, table
from solvers.raising_robots import activations as act
from solvers.raising_robots import competitions_setup as setup
from solvers.raising_robots import friendship as fr
from solvers.raising_robots import round_end as rend
from solvers.raising_robots.competitions import (
    COMP_NAMES,
    COMP_TYPES,
    CRITERIA,
    FRIENDSHIP_CAP,
    VALUE_KEYS,
    Competition,
    Payment,
    PlayerState,
    RewardOption,
    Rules,
    Step,
    Values,
)
from solvers.raising_robots.competitions_data import GAME_DATA
from solvers.raising_robots.competitions_explain import Eligibility, Explanation, StepExplained, explain
from solvers.raising_robots.competitions_planner import MAX_SCALE, Plan, PlanResult, plan, value_scale
from solvers.raising_robots.model import ROW_NAMES as MODEL_ROW_NAMES
from solvers.raising_robots.model import TOKEN_TYPES, Inventory, Robot
from solvers.raising_robots.search_odds import (
    ANY_ROW,
    DECK,
    KNOWN_BOTTOM,
    Card,
    CardGroup,
    Criteria,
    Deck,
    Estimate,
    RankedCriteria,
    SearchOdds,
    best_criteria,
    estimate_best,
    record_draw,
    record_search,
)
from solvers.raising_robots.seat import SeatRecord

from ..api import bad_field
from .requests import (
    ChainIn,
    CompetitionIn,
    KeptPlanIn,
    PlanIn,
    RecordIn,
    RoundEndIn,
    RoundIn,
    SetupIn,
)
from .schemas import MAX_DENOMINATOR, MAX_VALUE, Compare, Items, Seat

R_TILE_COSTS = "rr-reading-tile-costs"
R_TOKEN_TYPES = "rr-reading-upgrade-token-types"


def taken_json(taken) -> list[dict]:
    return [{"ability": t.ability, "role": t.role, "treatment": t.treatment, "why": t.why} for t in taken]


# ---- from the request to the solver ----------------------------------------------------------------


def parse_values(raw: dict[str, Any]) -> Values:
    parsed: dict[str, Fraction] = {}
    for key, text in raw.items():
        path = f"values.{key}"
        if key not in VALUE_KEYS:
            raise bad_field(path, f"unknown value: use {', '.join(VALUE_KEYS)}")
        if not isinstance(text, (str, int, float)) or isinstance(text, bool):
            raise bad_field(path, "give a number or a fraction like \"1/3\"")
        try:
            x = parse_fraction(text)
        except (ValueError, TypeError, OverflowError):
            raise bad_field(path, "give a number or a fraction like \"1/3\"") from None
        if not 0 <= x <= MAX_VALUE:
            raise bad_field(path, f"must be between 0 and {MAX_VALUE}")
        if x.denominator > MAX_DENOMINATOR:
            raise bad_field(path, f"use a simpler fraction (denominator at most {MAX_DENOMINATOR})")
        parsed[key] = x
    values = Values().with_overrides(parsed)
    if value_scale(values) > MAX_SCALE:
        raise bad_field("values", "these fractions have too many different denominators; use simpler ones")
    return values


def _competitions(items: list[CompetitionIn]) -> tuple[list[Competition], list[set[str]]]:
    """The competitions listed, and for each the printed numbers the player typed."""
    comps, entered = [], []
    seen: set[str] = set()
    for k, c in enumerate(items):
        kind = CRITERIA[c.criterion]
        if c.type is not None and c.type != kind:
            raise bad_field(f"competitions[{k}].criterion", f"{c.criterion} is a {COMP_NAMES[kind]} card, "
                                                              f"not {COMP_NAMES[c.type]}")
        if kind in seen:
            raise bad_field(f"competitions[{k}].type", f"a {COMP_NAMES[kind]} competition is already listed "
                                                       "(one of each type is in play)")
        seen.add(kind)
        card = GAME_DATA.cards[c.criterion]
        if c.values is not None and card.values is None:
            raise bad_field(f"competitions[{k}].values", f"the {c.criterion} card has no printed values")
        comps.append(GAME_DATA.competition(c.criterion, c.side, c.token_type, c.cost.resources, c.cost.batteries,
                                           tuple(c.values) if c.values is not None else None))
        entered.append({k for k, v in (("token_type", c.token_type), ("resources", c.cost.resources),
                                       ("batteries", c.cost.batteries), ("values", c.values)) if v is not None})
    return comps, entered


def sources(comp: Competition, entered: set[str]) -> dict[str, str]:
    """Where each printed number of the competition comes from ("entered": the player typed it)."""
    tile = GAME_DATA.tiles[comp.type]
    side = tile.sides[comp.side]
    card = GAME_DATA.cards[comp.criterion]
    out = {"token_type": tile.token_type.source, "resources": side.resources.source,
           "batteries": side.batteries.source, "rewards": side.rewards_source.source}
    if card.values is not None:
        out["values"] = card.values.source
    return {k: "entered" if k in entered else v for k, v in out.items()}


def competition_json(comp: Competition, entered: set[str]) -> dict:
    """The competition as planned, with where each printed number comes from (`entered`: the numbers
    the player typed)."""
    card = GAME_DATA.cards[comp.criterion]
    out = {
        "type": comp.type, "name": comp.name, "criterion": comp.criterion, "card": card.name, "side": comp.side,
        "token_type": comp.token_type, "cost": {"resources": comp.cost_resources, "batteries": comp.cost_batteries},
        "rewards": [{"option": r.id, "vp": r.vp, "friendship_draw": r.friendship_draw} for r in comp.rewards],
        "sources": sources(comp, entered),
    }
    if card.values is not None:
        out["values"] = list(comp.values)
    return out


# ---- the plan as the solver gives it (the page renders it; plan_json is the API's) --------------


@dataclass(frozen=True)
class PlannedStep:
    """One step of a plan: the solver's step, the competition it completes, the seat it leaves, and for
    the best plan the explanation."""
    step: Step
    comp: Competition
    after: PlayerState
    explained: StepExplained | None = None

    @property
    def type(self) -> str:
        return self.step.type

    @property
    def name(self) -> str:
        return COMP_NAMES[self.step.type]

    @property
    def payment(self) -> Payment:
        return self.step.payment

    @property
    def reward(self) -> RewardOption:
        return self.comp.reward(self.step.reward)

    @property
    def friendship_keep(self) -> int:
        return self.step.friendship_keep

    @property
    def depends_on_kept(self) -> bool:
        # the card kept here may change what comes next (Johannes, Confucius, Ada, John...)
        return bool(self.step.friendship_keep)


@dataclass(frozen=True)
class PlannedOrder:
    """A plan's steps in order, and what the last one leaves."""
    plan: Plan
    steps: tuple[PlannedStep, ...]

    @property
    def value(self) -> Fraction:
        return self.plan.check.value

    @property
    def final(self) -> PlayerState:
        return self.plan.check.states[-1]


def planned(p: Plan, comps: list[Competition], explained: tuple[StepExplained, ...] = ()) -> PlannedOrder:
    by_type = {c.type: c for c in comps}
    return PlannedOrder(p, tuple(PlannedStep(s, by_type[s.type], p.check.states[k + 1],
                                             explained[k] if explained else None) for k, s in enumerate(p.steps)))


@dataclass(frozen=True)
class PlanAnswer:
    """The planner's answer: the solver's result and explanation, the competitions planned on (and the
    numbers the player typed of each), and the notes and rules it relies on."""
    result: PlanResult
    text: Explanation
    comps: list[Competition]
    entered: list[set[str]]
    values: Values
    taken: list
    notes: list[str]
    rules: list[str]

    @property
    def plan(self) -> PlannedOrder:
        return planned(self.result.best, self.comps, self.text.steps)

    @property
    def ties(self) -> list[PlannedOrder]:
        return [planned(t, self.comps) for t in self.result.ties]

    @property
    def eligible(self) -> tuple[Eligibility, ...]:
        return self.text.eligible


def after_json(state: PlayerState) -> dict:
    """What a step leaves: the seat's fields a plan changes (send them back with the kept card's name; the
    reducer's `apply_plan` takes them)."""
    return {"inventory": state.inventory.as_dict(), "tokens": _tokens_json(state), "friendships": state.friendships,
            "completed": sorted(state.completed, key=COMP_TYPES.index)}


def payment_json(p: Payment) -> dict:
    if p.kind == "token":
        return {"kind": "token", "token_type": p.token_type, "text": p.describe()}
    if p.kind == "batteries":
        return {"kind": "batteries", "count": p.count, "text": p.describe()}
    return {"kind": "resources", "items": p.items_dict(), "text": p.describe()}


def _tokens_json(state: PlayerState) -> dict:
    return {"unplaced": dict(zip(TOKEN_TYPES, state.unplaced, strict=True)),
            "placed": dict(zip(TOKEN_TYPES, state.placed, strict=True))}


def _step_json(st: PlannedStep) -> dict:
    r = st.reward
    out = {"type": st.type, "name": st.name, "criterion": st.comp.criterion, "payment": payment_json(st.payment),
           "reward": {"option": r.id, "vp": r.vp, "friendship_draw": r.friendship_draw,
                      "friendship_keep": st.friendship_keep},
           "after": after_json(st.after), "depends_on_kept": st.depends_on_kept}
    if st.explained is not None:
        ex = st.explained
        out.update({"why": ex.criterion_why, "reasons": list(ex.reasons), "value": exact(ex.value),
                    "rules": list(ex.rules)})
    return out


def _plan_json(p: PlannedOrder) -> dict:
    final = p.final
    return {"steps": [_step_json(st) for st in p.steps], "value": exact(p.value),
            "inventory_after": final.inventory.as_dict(), "tokens_after": _tokens_json(final),
            "friendships_after": final.friendships, "completed_after": sorted(final.completed, key=COMP_TYPES.index),
            "orders": p.plan.orders}


def _claims_json(result: PlanResult, comps: list[Competition]) -> dict:
    c = result.claims
    return {"only_order": c.only_order,
            "other_order": _plan_json(planned(c.other_order, comps)) if c.other_order is not None else None,
            "pays": [{"type": t, "kind": k} for t, k in c.pays],
            "pays_never": [{"type": t, "kind": k} for t, k in sorted(c.pays_never)],
            "completes": sorted(c.completes, key=COMP_TYPES.index),
            "completes_never": sorted(c.completes_never, key=COMP_TYPES.index)}


def plan_json(a: PlanAnswer) -> dict:
    """The planner's answer as the API's JSON (api.md: POST /competitions/plan)."""
    return {
        "status": a.result.status,
        "eligible": [{"type": e.type, "name": COMP_NAMES[e.type], "criterion": e.criterion, "met": e.met, "why": e.why,
                      "completed": e.completed, "in_plan": e.in_plan,
                      "matching": [{"value": label, "robot": r} for label, r in e.matching],
                      "rules": list(e.rules)} for e in a.eligible],
        "plan": _plan_json(a.plan),
        "ties": [_plan_json(t) for t in a.ties],
        "ties_complete": a.result.ties_complete,
        "claims": _claims_json(a.result, a.comps),
        "notes": list(a.notes),
        "rules": list(a.rules),
        "competitions": [competition_json(c, e) for c, e in zip(a.comps, a.entered, strict=True)],
        "values": {k: exact(a.values.of(k)) for k in VALUE_KEYS},
        "abilities": taken_json(a.taken),
    }


def _unverified_note(result: PlanResult, comps: list[Competition], entered: list[set[str]]) -> tuple[list, list]:
    """The note (and rules) for a plan made with printed numbers nobody checked."""
    unverified: dict[str, list[str]] = {}  # competition name -> the numbers of it planned with unchecked defaults
    for comp, typed in zip(comps, entered, strict=True):
        for what, source in sources(comp, typed).items():
            if source == "unverified" and (what != "token_type" or any(
                    s.type == comp.type and s.payment.kind == "token" for s in result.best.steps)):
                unverified.setdefault(comp.name, []).append(what)
    if not unverified:
        return [], []
    names = list(unverified)
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    rules = [R_TILE_COSTS] + ([R_TOKEN_TYPES] if any("token_type" in w for w in unverified.values()) else [])
    return [f"Planned with unchecked numbers for {listed}: compare them with your tiles and cards "
            "(Competitions in play, Tile and card numbers)."], rules


def run_plan(req: PlanIn) -> PlanAnswer:
    """Validate what the models cannot (the competitions listed, the values), then plan."""
    comps, entered = _competitions(req.competitions)
    return plan_answer(req.player.as_seat().to_solver(score=False), comps, entered, parse_values(req.values),
                       Rules(req.rules.duct_tape_pays_resources))


def plan_answer(seat: SeatRecord, comps: list[Competition], entered: list[set[str]], values: Values,
                rules: Rules) -> PlanAnswer:
    """Plan and explain: the one path the API and the page share."""
    state = seat.player
    result = plan(state, comps, rules, values)
    text = explain(state, comps, result, rules, values)
    notes, extra = _unverified_note(result, comps, entered)
    rule_ids = list(text.rules) + [i for i in extra[:1] if i not in text.rules] + extra[1:]
    taken = abilities.treatments(seat.who, abilities.PLANNER_MODELLED, abilities.PLANNER_NO_EFFECT)
    note = abilities.not_taken_note(taken, "planner")
    if state.robot_cards_as_duct_tape:
        rule_ids.append(abilities.SETUP_RULES.get("sacagawea", "rr-sacagawea-complexity-medium"))
    return PlanAnswer(result, text, comps, entered, values, list(taken),
                      [*text.notes, *notes, *([note] if note else [])], rule_ids)


def run_kept(req: KeptPlanIn) -> dict:
    """The kept card's immediate effect applied to the seat (and the card added to its Friendship cards,
    under the cap of 2), then the plan from the new seat, as the API's JSON."""
    player = req.player
    if player.friendships_held() >= FRIENDSHIP_CAP:
        raise bad_field("player.friendships", f"already {FRIENDSHIP_CAP} Friendship cards: a third cannot be kept")
    card = abilities.keep_friendship(req.kept.name, player.inventory.to_solver(), len(player.robots),
                                     req.kept.per_robot)
    held = table.keep_friendship({"seats": [player.model_dump()]}, 0, req.kept.name)["seats"][0]
    after = player.model_copy(update={"inventory": Items(**card.inventory_after.as_dict()),
                                      "friendships": held["friendships"], "friendship_count": held["friendship_count"]})
    out = plan_json(run_plan(req.model_copy(update={"player": after})))
    out["kept"] = {"name": abilities.display_name(card.ability), "ability": card.ability, "gained": card.gained,
                   "why": card.why, "modelled": card.modelled, "rules": list(card.rules)}
    out["player"] = after.body()
    if not card.modelled:
        out["notes"].insert(0, f"{abilities.display_name(card.ability)}: {card.why}.")
    return out


# ---- competitions setup -----------------------------------------------------------------------

SETUP_RULES = ["rr-competitions-friendships-changes-to-setup", "rr-setup-solo-2p-tokens", "rr-solo-2p-gameplay-changes"]
ROUND_RULES = ["rr-flip-tile-round-end", "rr-important-same-round-same-side", "rr-solo-2p-gameplay-changes"]

@dataclass(frozen=True)
class InventorSeat:
    """A seat's inventor as typed, and what it changes at setup (the solver's `SetupChange`)."""
    seat: int
    name: str
    setup: abilities.SetupChange

    @property
    def modelled(self) -> bool:
        return self.setup.rule is not None


@dataclass(frozen=True)
class InventorsAnswer:
    """Each seat's inventor setup (Friends Inventor Explanations, "Immediate") and the Friendship cards that
    match an inventor in play (removed before the deck is shuffled: Changes to Setup, step 4)."""
    seats: tuple[InventorSeat, ...]

    @property
    def remove_friendships(self) -> list[str]:
        in_play = [abilities.ability_id(s.name) for s in self.seats if s.name.strip()]
        return [abilities.display_name(a) for a in dict.fromkeys(in_play)]

    @property
    def rules(self) -> list[str]:
        return ["rr-competitions-friendships-changes-to-setup",
                *dict.fromkeys(s.setup.rule for s in self.seats if s.setup.rule)]


def inventors_answer(names: list[str]) -> InventorsAnswer:
    return InventorsAnswer(tuple(InventorSeat(i, name, abilities.inventor_setup(name)) for i, name in enumerate(names)))


def inventors_json(a: InventorsAnswer) -> dict:
    return {"seats": [{"seat": s.seat, "inventor": s.name, "id": s.setup.inventor, "changes": s.setup.changes,
                       "why": s.setup.why, "scroll_board": s.setup.scroll_board, "rule": s.setup.rule,
                       "modelled": s.modelled} for s in a.seats],
            "remove_friendships": a.remove_friendships, "rules": a.rules}


def _spots_json(spots: list[setup.Spot]) -> list[dict]:
    return [{"round": s.round, "token_type": s.token_type, "tile": s.tile, "name": COMP_NAMES[s.tile]}
            for s in spots]


@dataclass(frozen=True)
class SetupAnswer:
    """A new game's deal as the solvers give it: the card of each competition (`setup.deal`), the upgrade
    tokens on the round tracker (`setup.place_tracker_tokens`), each seat's inventor setup when inventors are
    given, and the Friendship deck built (`friendship.build`)."""
    players: int
    cards: dict[str, str]  # competition type -> criterion dealt
    spots: list[setup.Spot]
    inventors: InventorsAnswer | None
    friendship: fr.Built
    pets: bool

    @property
    def sides(self) -> dict[str, str]:
        return {t: "A" for t in COMP_TYPES}  # every tile starts on its A side

    @property
    def rules(self) -> list[str]:
        return SETUP_RULES if self.players <= 2 else SETUP_RULES[:1]


def run_setup(req: SetupIn) -> SetupAnswer:
    rng = random.Random(req.seed) if req.seed is not None else random.SystemRandom()
    cards = setup.deal(rng)
    spots = setup.place_tracker_tokens(req.players, rng)
    return SetupAnswer(req.players, cards, spots, inventors_answer(req.inventors) if req.inventors else None,
                       fr.build(fr.DEFAULT_CARDS, req.inventors, req.pets), req.pets)


def setup_json(a: SetupAnswer) -> dict:
    """The deal as the API's JSON (api.md: POST /competitions/setup)."""
    from .friendship import setup_json as deck_json  # lazily: that module's blueprint reads the page machinery

    tiles = {t: GAME_DATA.tiles[t].token_type for t in COMP_TYPES}
    return {
        "players": a.players,
        "cards": [{"type": t, "name": COMP_NAMES[t], "criterion": c, "card": GAME_DATA.cards[c].name,
                   "text": GAME_DATA.cards[c].text} for t, c in a.cards.items()],
        "sides": a.sides,
        "tracker": _spots_json(a.spots),
        "tile_types": {t: {"token_type": s.value, "source": s.source} for t, s in tiles.items()},
        "rules": a.rules,
        **({"inventors": inventors_json(a.inventors)} if a.inventors is not None else {}),
        "friendship": deck_json(a.friendship, a.pets),
    }


def run_round(req: RoundIn) -> dict:
    """A round's end on the competitions given: the table reducer's `end_round`, as a table applies it."""
    part = {"competitions": {"sides": req.sides, "tracker": [s.model_dump() for s in req.tracker],
                             "completed_this_round": req.completed_this_round}}
    try:
        done = table.end_round(part, req.marker_to - 1)
    except InputError as err:
        raise bad_field(err.path, err.message) from None
    comps = done.part["competitions"]
    spots = [setup.Spot(s["round"], s["token_type"], setup.tile_of(s["token_type"])) for s in comps["tracker"]]
    return {"marker_to": done.round, "sides": comps["sides"], "tracker": _spots_json(spots), "events": done.events,
            "rules": ROUND_RULES if req.tracker else ROUND_RULES[:2]}


# ---- final score -------------------------------------------------------------------------------

RULE_NEW_OBJECTIVES = "rr-new-class-objectives"


def score_player(player: Seat, prefix: str = "") -> tuple[scoring.Score, SeatRecord]:
    """The seat's score and the seat as scored; a complaint is the API's 400 naming the field (within
    this player of a comparison)."""
    try:
        record = player.to_solver()
        return record.score(), record
    except InputError as e:
        raise bad_field(prefix + e.path, e.message) from None


def score_rules(result: scoring.Score, seat: Seat) -> list[str]:
    new_objectives = any(c.template for c in seat.class_cards if c.grade)
    return list(scoring.score_rules(result)) + ([RULE_NEW_OBJECTIVES] if new_objectives else [])


def score_notes(record: SeatRecord) -> tuple[list, list[str]]:
    """How the score treats the seat's inventor and Friendship cards (an inventor's Game End ability
    Tablebot does not know is listed as not taken into account), and the note that says so."""
    taken = abilities.treatments(record.who, {}, abilities.SCORE_NO_EFFECT)
    note = abilities.not_taken_note(taken, "score")
    return taken, [note] if note else []


def score_json(result: scoring.Score, record: SeatRecord, seat: Seat) -> dict:
    taken, notes = score_notes(record)
    return {
        "robots": result.robots, "class_cards": result.class_cards, "inventory_vp": result.inventory_vp,
        "leftovers": result.leftovers, "game_end": result.game_end, "total": result.total,
        "lines": [{"what": ln.what, "vp": ln.vp, "why": ln.why, "kind": ln.kind, "rule": ln.rule,
                   "rules": list(ln.rules)} for ln in result.lines],
        "grades": [{"name": c.name, "met": c.grade, "final": c.final_grade(), "vp": c.vp()} for c in record.class_cards],
        "full_columns": list(result.columns),
        "rules": score_rules(result, seat),
        "abilities": taken_json(taken),
        "notes": notes,
    }


def compare(body: Compare) -> dict:
    if body.solo is not None and len(body.players) != 1:
        raise bad_field("solo", "a solo target needs exactly one player")
    if body.solo is not None and body.solo.threshold is None:
        raise bad_field("solo.threshold", "give the scenario's threshold")
    scored = [score_player(p, f"players[{i}].") for i, p in enumerate(body.players)]
    names = [p.name or f"Player {i + 1}" for i, p in enumerate(body.players)]
    standings = scoring.standings([(n, s) for n, (s, _) in zip(names, scored, strict=True)])
    out: dict = {
        "standings": [{"name": s.name, "place": s.place, "total": s.total, "robots": s.robots,
                       "class_cards": s.class_cards, "decided_by": s.decided_by} for s in standings],
        "scores": [dict(score_json(s, rec, p), name=n)
                   for n, (s, rec), p in zip(names, scored, body.players, strict=True)],
        "solo": None,
        "rules": [scoring.RULE_END_SCORING] if len(body.players) > 1 else [],  # ties
    }
    if body.solo:
        r = scoring.solo_target(scored[0][0].total, body.solo.threshold, body.solo.mode, body.solo.competitions)
        out["solo"] = {"threshold": r.threshold, "adjustment": r.adjustment, "target": r.target,
                       "total": r.total, "margin": r.margin, "reached": r.reached, "why": r.why,
                       "rules": list(scoring.solo_rules(r))}
        out["rules"] += out["solo"]["rules"]
    return out


# ---- round end ---------------------------------------------------------------------------------

def round_end(body: RoundEndIn) -> dict:
    # an InputError from the solver (a choice that does not fit) is the API's 400 naming the field
    a = round_end_answer(body.inventory.to_solver(), [x.to_solver(x.column) for x in body.robots],
                         [ab.to_solver() for ab in body.abilities], body.sacagawea_ongoing, body.seat(), body.who())
    return {
        "inventory_after": a.inventory_after.as_dict(),
        "robots_after": [_robot_json(x) for x in a.robots_after],
        "tokens_unlocked": a.tokens_unlocked,
        "steps": [{"ability": s.ability, "part": s.part, "name": s.name, "gained": s.gained, "why": s.why,
                   "rule": s.rule, "rules": list(s.rules), "link": s.link, "index": s.index,
                   "robot_added": _robot_json(s.robot_added) if s.robot_added else None} for s in a.steps],
        "notes": a.notes, "abilities": taken_json(a.taken), "rules": a.rules,
    }


@dataclass(frozen=True)
class RoundEndAnswer:
    """The solver's round end, with the notes on the seat's abilities and the rules it applied."""
    run: rend.RoundEnd
    notes: list[str]
    taken: list
    rules: list[str]

    def __getattr__(self, name: str):  # the solver's fields (steps, inventory_after, ...) as its own
        return getattr(self.run, name)


def round_end_answer(inventory: Inventory, robots: list[Robot], order: list[rend.Ability],
                     sacagawea_ongoing: bool | None, seat: rend.Seat, who: abilities.Who) -> RoundEndAnswer:
    """The round end worked out and explained: the one path the API and the page share."""
    r = rend.run(inventory, robots, order, sacagawea_ongoing, seat)
    taken = abilities.treatments(who, abilities.ROUND_END_MODELLED, {  # whole text known: nothing at round end
        "susan": "no round-end ability", "william": "no round-end ability",
        "friendship:johannes": "its gain comes when it is kept (list it in the round you keep it)"})
    note = abilities.not_taken_note(taken, "round end")
    listed = {a.id for a in order}
    missing = [abilities.display_name(t.ability) for t in taken if t.treatment == "modelled"
               and t.ability in ("johannes", "charlotte", "sacagawea") and t.ability not in listed and t.role == "inventor"]
    notes = list(r.notes) + ([note] if note else []) + [
        f"{name} is your inventor but not in the order: add it to apply its round-end ability." for name in missing]
    return RoundEndAnswer(r, notes, list(taken), list(dict.fromkeys([*rend.RULE_ORDER, *(i for s in r.steps for i in s.rules)])))


def _robot_json(r: Robot) -> dict:
    return {"row": r.row, "column": r.column, "any_row": r.any_row, "cost_energy": list(r.cost_energy),
            "cost_resources": list(r.cost_resources), "basic_energy": r.basic_energy,
            "upgraded_energy": r.upgraded_energy, "upgraded": r.upgraded, "vp": r.vp,
            "needs_microchip": r.needs_microchip}



# ---- search odds -------------------------------------------------------------------------------

ANY_ROW_RULE = "rr-robot-cards-for-any-phase-row"
RULES = ("rr-search", "rr-search-example", ANY_ROW_RULE)
R_MODEL = "rr-reading-search-model"
R_BASIC = "rr-search-basic-action-only"
R_ANY_MATCH = "rr-search-any-row-matches"
R_NO_MATCH = "rr-search-no-match"
R_CRITERIA = "rr-reading-search-criteria"
R_SET_ASIDE = "rr-reading-search-set-aside"
R_KNOWN_WANTED = "rr-reading-search-known-bottom-wanted"
R_ESTIMATE = "rr-reading-search-estimate"
ESTIMATE_RULES = ("rr-search", R_BASIC, "rr-search-example", R_MODEL, R_ESTIMATE)
ALL_RULES = (*RULES, R_MODEL, R_BASIC, R_ANY_MATCH, R_NO_MATCH, R_CRITERIA, R_SET_ASIDE, R_KNOWN_WANTED, R_ESTIMATE)


def search_rules(deck: Deck, p_match=None, ranked: bool = False, set_aside: bool = False) -> list[str]:
    """The Search rules an answer on this deck applies: the rule and its example always; any-row cards,
    the no-match case, the ranking and the two readings about remembered cards when they come into it."""
    ids = ["rr-search", R_BASIC, "rr-search-example", R_MODEL]
    if any(g.row == ANY_ROW and g.count for g in deck.pool) or any(c.row == ANY_ROW for c in deck.known_bottom):
        ids += [R_ANY_MATCH, ANY_ROW_RULE]
    if p_match is not None and p_match < 1:
        ids.append(R_NO_MATCH)
    if ranked:
        ids.append(R_CRITERIA)
    if any(c.wanted for c in deck.known_bottom):
        ids.append(R_KNOWN_WANTED)
    if set_aside:
        ids += [R_NO_MATCH, R_SET_ASIDE]
    return list(dict.fromkeys(ids))
ROW_NAMES = {**MODEL_ROW_NAMES, ANY_ROW: "Any row"}
STATE_KEY = "rr_search"
WITHIN_DEFAULT = 10


def card_name(row: str, energy: int, label: str = "") -> str:
    name = f"{ROW_NAMES[row]} {energy}"
    return f"{name} “{label}”" if label else name


def criteria_name(c: Criteria) -> str:
    energy = str(c.energy_min) if c.energy_min == c.energy_max else f"{c.energy_min}–{c.energy_max}"
    return f"{ROW_NAMES[c.row]}, energy {energy}"


def outcome_text(o) -> str:
    if o.source == DECK:
        return f"{card_name(o.row, o.energy, o.label)} from the unknown cards"
    if o.source == KNOWN_BOTTOM:
        return f"{card_name(o.row, o.energy, o.label)}, known card #{o.position + 1}"
    return f"no match: the last card, {card_name(o.row, o.energy, o.label)}"


def odds_why(deck: Deck, odds: SearchOdds) -> str:
    c = odds.criteria
    parts = [(f"{odds.matching_in_pool} of the {odds.pool_cards} unseen cards fit {criteria_name(c)} "
             f"(any-row cards fit every row; only the basic action's energy counts).")]
    deck_part = f"The deck holds {deck.deck_size} of the unseen cards in random order"
    if deck.known_bottom:
        k = len(deck.known_bottom)
        deck_part += f", above {k} known card{'s' if k > 1 else ''}"
    parts.append(deck_part + ".")
    known = [o for o in odds.outcomes if o.source == KNOWN_BOTTOM]
    if known:
        parts.append(f"If no unknown card fits, the search reaches known card #{known[0].position + 1}, which fits.")
    elif odds.p_match < 1:
        parts.append("If nothing fits, the last card revealed is taken and the others are shuffled into a new deck.")
    return " ".join(parts)


@dataclass(frozen=True)
class OddsAnswer:
    """The odds of one Search as the solver gives them: exact on `deck`, or estimated on `est` (the cards
    seen); `within`: the numbers of cards a fit is asked within (None: 1 up to 10)."""
    odds: SearchOdds
    deck: Deck | None = None
    est: Estimate | None = None
    within: list[int] | None = None

    @property
    def cards(self) -> int:
        return self.deck.cards_in_deck if self.deck is not None else self.est.deck_size + len(self.est.known_bottom)

    @property
    def within_bars(self) -> list[tuple[int, Fraction]]:
        ns = self.within if self.within is not None else list(range(1, min(WITHIN_DEFAULT, self.cards) + 1))
        return [(n, self.odds.p_match_within(n)) for n in ns]

    @property
    def why(self) -> str:
        return odds_why(self.deck, self.odds) if self.deck is not None else self.est.assumes()

    @property
    def rules(self) -> list[str]:
        if self.deck is not None:
            return search_rules(self.deck, self.odds.p_match)
        return [*ESTIMATE_RULES, *([R_NO_MATCH] if self.odds.p_match < 1 else [])]


@dataclass(frozen=True)
class BestAnswer:
    """The criteria ranked for a deck (exact) or an estimate, with the notes and rules of the ranking."""
    ranking: tuple[RankedCriteria, ...]
    wanted_cards: int
    notes: list[str]
    rules: list[str]
    est: Estimate | None = None


def best_answer(deck: Deck) -> BestAnswer:
    wanted = sum(g.count for g in deck.pool if g.wanted) + sum(c.wanted for c in deck.known_bottom)
    notes = [("Ranked by the chance to take a card marked wanted, then by fewer cards revealed; "
             "criteria with the same two numbers share a rank.")]
    if not wanted:
        notes.append("No card that can come up is marked wanted, so only the number of cards revealed orders "
                     "the list.")
    return BestAnswer(tuple(best_criteria(deck)), wanted, notes, search_rules(deck, ranked=True))


def estimate_best_answer(est: Estimate) -> BestAnswer:
    return BestAnswer(tuple(estimate_best(est)), len(est.wanted), [est.assumes()], [*ESTIMATE_RULES, R_CRITERIA],
                      est)


def _estimate_label(est: Estimate | None) -> dict | None:
    return {"seen": len(est.seen), "assumes": est.assumes()} if est is not None else None


def odds_json(a: OddsAnswer) -> dict:
    """The odds as the API's JSON (api.md: POST /search/odds); an estimate labelled with what it assumes."""
    odds = a.odds
    out = {
        "criteria": odds.criteria.as_dict(),
        "p_match": exact(odds.p_match),
        "expected_revealed": exact(odds.expected_revealed),
        "p_wanted": exact(odds.p_wanted),
        "outcomes": [{"row": o.row, "energy": o.energy, "label": o.label, "wanted": o.wanted, "from": o.source,
                      "p": exact(o.p), "group": o.group if a.est is None else None, "position": o.position,
                      "text": outcome_text(o)} for o in odds.outcomes],
        "p_match_within": [{"n": n, "p": exact(p)} for n, p in a.within_bars],
        "deck_cards": a.cards,
        "why": a.why,
        "estimate": _estimate_label(a.est),  # None: exact, the pool is known
        "rules": a.rules,
    }
    if a.est is None:
        out.update(matching_in_pool=odds.matching_in_pool, pool_cards=odds.pool_cards)
    return out


def best_json(a: BestAnswer) -> dict:
    """The ranking as the API's JSON (api.md: POST /search/best)."""
    return {"ranking": [{"criteria": r.criteria.as_dict(), "name": criteria_name(r.criteria), "rank": r.rank,
                         "p_wanted": exact(r.p_wanted), "p_match": exact(r.p_match),
                         "expected_revealed": exact(r.expected_revealed)} for r in a.ranking],
            "wanted_cards": a.wanted_cards, "notes": list(a.notes), "estimate": _estimate_label(a.est),
            "rules": list(a.rules)}


def group_json(g: CardGroup) -> dict:
    return {"row": g.row, "energy": g.energy, "count": g.count, "label": g.label, "wanted": g.wanted}


def card_json(c: Card) -> dict:
    return {"row": c.row, "energy": c.energy, "label": c.label, "wanted": c.wanted}


@dataclass(frozen=True)
class Recorded:
    """A search or a draw applied to the deck: the deck after it, what happened, and why."""
    deck: Deck
    taken: Card | None
    matched: bool | None
    set_aside: tuple[CardGroup, ...]
    why: str
    rules: list[str]


def recorded_deck(deck: Deck, criteria: Criteria | None, revealed: list[Card] | None, seen: Card | None) -> Recorded:
    """`revealed` None: a draw (`seen` the card, when the drawer saw it); else a search with `criteria`."""
    if revealed is None:
        after = record_draw(deck, seen)
        why = ("A draw: the deck lost its top card" +
               ("; you saw it, so it left the unseen pool." if seen else "; nobody told you what it was, "
                "so the unseen pool keeps it."))
        return Recorded(after, None, None, (), why, search_rules(deck))
    if criteria is None:
        raise bad_field("criteria", "a search needs the criteria it was made with")
    done = record_search(deck, criteria, revealed)
    taken = card_name(done.taken.row, done.taken.energy, done.taken.label)
    if done.matched:
        why = (f"Taken: {taken}. The {len(revealed) - 1} other revealed cards went under the known bottom "
               "in the order they came up.")
    else:
        why = (f"Nothing matched, so the last card ({taken}) was taken and the other {done.deck.deck_size} "
               "were shuffled into a new deck: they are now the whole unseen pool of the deck.")
    return Recorded(done.deck, done.taken, done.matched, tuple(done.set_aside), why,
                    search_rules(deck, set_aside=not done.matched))


def record(body: RecordIn) -> dict:
    r = recorded_deck(body.to_solver(), body.criteria.to_solver() if body.criteria else None,
                      [c.to_solver() for c in body.revealed] if body.event == "search" else None,
                      body.seen.to_solver() if body.event == "draw" and body.seen else None)
    return {"pool": [group_json(g) for g in r.deck.pool], "deck_size": r.deck.deck_size,
            "known_bottom": [card_json(c) for c in r.deck.known_bottom],
            "taken": card_json(r.taken) if r.taken else None, "matched": r.matched,
            "set_aside": [group_json(g) for g in r.set_aside], "why": r.why, "rules": r.rules}


def top_three(ranking: tuple[RankedCriteria, ...], criteria: Criteria) -> list[tuple[RankedCriteria, bool]]:
    """The three criteria the page suggests (each with whether it is the one named): among those tied for
    best, the ones the player named first, then the narrowest ranges (they are easier to say at the table);
    then the rest in rank order."""
    def key(r: RankedCriteria) -> tuple:
        c = r.criteria
        return (r.rank, c != criteria, c.energy_max - c.energy_min, c.energy_min)
    return [(r, r.criteria == criteria) for r in sorted(ranking, key=key)[:3]]


def trim_within(within: list[tuple[int, Fraction]], p_match: Fraction) -> list[tuple[int, Fraction]]:
    """The bars up to the first that reaches the overall chance of a match: the rest repeat it."""
    out = []
    for n, p in within:
        out.append((n, p))
        if p == p_match:
            break
    return out


# ---- activation chains -------------------------------------------------------------------------

ACTIVATION_RULES = ["rr-run-a-phase-row-energy-action", "rr-important-one-activation-per-robot",
                    "rr-finite-loops-example", "rr-finite-loops-tip"]


@dataclass(frozen=True)
class ChainAnswer:
    """The chain as the solver checked it (`activations.check`): the page renders it, chain_json is the API's."""
    result: act.ChainResult
    rules: tuple[str, ...] = (act.RULE_RUN, act.RULE_EXAMPLE)

    @property
    def ok(self) -> bool:
        return self.result.ok

    @property
    def nodes(self) -> tuple[act.Checked, ...]:
        return self.result.nodes

    @property
    def activations(self) -> tuple[dict, ...]:
        return self.result.activations

    @property
    def problems(self) -> tuple[str, ...]:
        return self.result.problems


def check_chain(body: ChainIn) -> ChainAnswer:
    return chain_answer(body.steps, body.phase, body.energy)


def chain_answer(raw_steps: list, phase: str | None, energy: int | None) -> ChainAnswer:
    """The chain checked: the one path the API and the page share."""
    steps = act.parse_steps(raw_steps, "steps")  # its InputError is the API's 400 naming the step
    return ChainAnswer(act.check(steps, phase, energy))


def chain_json(a: ChainAnswer) -> dict:
    """The check as the API's JSON (api.md: POST /activations/check)."""
    return {
        "ok": a.ok,
        "nodes": [{"path": n.path, "depth": n.depth, "kind": n.kind, "label": n.label, "text": n.text,
                   "energy": n.energy, "status": n.status, "why": n.why, "activation": n.activation}
                  for n in a.nodes],
        "activations": list(a.activations),
        "problems": list(a.problems),
        "rules": list(a.rules),
    }


def search_odds_answer(body) -> OddsAnswer:
    """The odds of one Search: exact on a known pool, else the estimate from the cards seen."""
    from solvers.raising_robots.search_odds import estimate_odds, search_odds

    est = body.estimate()
    deck = body.to_solver() if est is None else None
    total = deck.cards_in_deck if deck is not None else est.deck_size + len(est.known_bottom)
    for i, n in enumerate(body.within or []):
        if n > total:
            raise bad_field(f"within[{i}]", f"is {n} but the deck holds only {total} cards")
    if est is not None:
        return OddsAnswer(estimate_odds(est, body.criteria.to_solver()), est=est, within=body.within)
    return OddsAnswer(search_odds(deck, body.criteria.to_solver()), deck=deck, within=body.within)


def search_best_answer(body) -> BestAnswer:
    est = body.estimate()
    return estimate_best_answer(est) if est is not None else best_answer(body.to_solver())
