"""Raising Robots: the competition planner (API and page): which competitions to complete now, in what
order, paying what, taking which reward (CP-SAT, checked by the validator of solvers/raising_robots/competitions).

JSON: POST /api/raising-robots/competitions/plan. Page: /raising-robots/competitions, which keeps the
competitions in play in `rr_competitions` and the seat's inventory, tokens, class status, robots, Friendship
cards and completed competitions in `rr_players`.
"""
from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any, Literal

from flask import Blueprint, jsonify, render_template, request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from solvers.exact import exact, parse_fraction
from solvers.raising_robots import abilities
from solvers.raising_robots.competitions import (
    COMP_NAMES,
    COMP_TYPES,
    CRITERIA,
    FRIENDSHIP_CAP,
    VALUE_KEYS,
    Competition,
    Payment,
    PlayerState,
    Rules,
    Step,
    Values,
)
from solvers.raising_robots.competitions_data import GAME_DATA
from solvers.raising_robots.competitions_explain import ALL_RULES, Explanation, explain, vp_text
from solvers.raising_robots.competitions_planner import MAX_SCALE, Plan, PlanResult, plan, value_scale
from solvers.raising_robots.model import ITEM_LABELS, ROWS, TOKEN_TYPES, Inventory

from ..api import bad_field, parse
from ..web.context import as_dict, as_list, table_context
from .competitions_state import (
    STATE_KEY,
    TOKEN_LABELS,
    catch_up_change,
    clean_comp_state,
    current_round,
    default_tile,
    round_events,
    stored,
)
from .forms import FormReader, answer_or_problems
from .saves import DELETED, apply_changes, changes, drawn_json, read_drawn, save, under
from .schemas import (
    CompType,
    Friendships,
    InventorIn,
    InventoryIn,
    RobotIn,
    TokenType,
    friendship_count,
    problem_text,
    rule_titles,
    taken_json,
    who_of,
)
from .seats import (
    MAX_ROBOTS,
    SEATS_KEY,
    as_set,
    change_seat,
    clean_seat,
    names_of,
    new_robot_id,
    robot_fields,
    seat_from_model,
    who_body,
)

bp = Blueprint("rr_competitions", __name__)

Criterion = Literal[tuple(CRITERIA)]  # type: ignore[valid-type]
TokenCount = Field(default=0, ge=0, le=20)
MAX_VALUE = 100
MAX_DENOMINATOR = 1000
R_TILE_COSTS = "rr-reading-tile-costs"
R_TOKEN_TYPES = "rr-reading-upgrade-token-types"

# ---- request models -----------------------------------------------------------------------------


class TokenCountsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pink: int = TokenCount
    orange: int = TokenCount
    blue: int = TokenCount
    green: int = TokenCount

    def counts(self) -> tuple[int, ...]:
        return tuple(getattr(self, t) for t in TOKEN_TYPES)


class TokensIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    unplaced: TokenCountsIn = Field(default_factory=TokenCountsIn)
    placed: TokenCountsIn = Field(default_factory=TokenCountsIn)


class ClassStatusIn(BaseModel):
    """Class cards currently meeting D or better / C or better, Extra Credit not counted."""
    model_config = ConfigDict(extra="forbid")
    meeting_d: int = Field(default=0, ge=0, le=9)
    meeting_c: int = Field(default=0, ge=0, le=9)


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    inventory: InventoryIn = Field(default_factory=InventoryIn)
    tokens: TokensIn = Field(default_factory=TokensIn)
    class_cards: ClassStatusIn = Field(default_factory=ClassStatusIn)
    robots: list[RobotIn] = Field(default_factory=list, max_length=15)
    inventor: InventorIn | None = None
    friendships: Friendships = 0
    completed: list[str] = Field(default_factory=list, max_length=4)

    @field_validator("completed")
    @classmethod
    def _completed(cls, value: list[str]) -> list[str]:
        out = []
        for item in value:
            kind = item if item in COMP_TYPES else CRITERIA.get(item)
            if kind is None:
                raise ValueError(f"{item!r} is not a competition: use {', '.join(COMP_TYPES)}")
            if kind not in out:
                out.append(kind)
        return out


class CostIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    resources: int | None = Field(default=None, ge=1, le=30)
    batteries: int | None = Field(default=None, ge=1, le=30)


class CompetitionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: CompType | None = None
    criterion: Criterion
    side: Literal["A", "B"] = "A"
    token_type: TokenType | None = None
    cost: CostIn = Field(default_factory=CostIn)
    values: list[int] | None = Field(default=None, min_length=1, max_length=7)

    @field_validator("values")
    @classmethod
    def _values(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and not all(0 <= v <= 20 for v in value):
            raise ValueError("card values must be between 0 and 20")
        return value


class RulesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    duct_tape_pays_resources: bool = False


class PlanIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: PlayerIn = Field(default_factory=PlayerIn)
    competitions: list[CompetitionIn] = Field(default_factory=list, max_length=4)
    values: dict[str, Any] = Field(default_factory=dict, max_length=len(VALUE_KEYS))
    rules: RulesIn = Field(default_factory=RulesIn)


# ---- from the request to the solver ----------------------------------------------------------------


def _values(raw: dict[str, Any]) -> Values:
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


def _competitions(items: list[CompetitionIn]) -> tuple[list[Competition], list[dict]]:
    comps, shown = [], []
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
        comp = GAME_DATA.competition(c.criterion, c.side, c.token_type, c.cost.resources, c.cost.batteries,
                                     tuple(c.values) if c.values is not None else None)
        comps.append(comp)
        shown.append(_competition_json(comp, c))
    return comps, shown


def _competition_json(comp: Competition, given: CompetitionIn | None = None) -> dict:
    """The competition as planned, with where each printed number comes from."""
    tile = GAME_DATA.tiles[comp.type]
    side = tile.sides[comp.side]
    card = GAME_DATA.cards[comp.criterion]

    def src(default_source: str, overridden: bool) -> str:
        return "entered" if overridden else default_source

    out = {
        "type": comp.type, "name": comp.name, "criterion": comp.criterion, "card": card.name, "side": comp.side,
        "token_type": comp.token_type, "cost": {"resources": comp.cost_resources, "batteries": comp.cost_batteries},
        "rewards": [{"option": r.id, "vp": r.vp, "friendship_draw": r.friendship_draw} for r in comp.rewards],
        "sources": {
            "token_type": src(tile.token_type.source, bool(given and given.token_type)),
            "resources": src(side.resources.source, bool(given and given.cost.resources is not None)),
            "batteries": src(side.batteries.source, bool(given and given.cost.batteries is not None)),
            "rewards": side.rewards_source.source,
        },
    }
    if card.values is not None:
        out["values"] = list(comp.values)
        out["sources"]["values"] = src(card.values.source, bool(given and given.values is not None))
    return out


def _state(p: PlayerIn) -> PlayerState:
    if p.class_cards.meeting_c > p.class_cards.meeting_d:
        raise bad_field("player.class_cards.meeting_c", "cannot be more than the cards at D or better: a card "
                                                        "meeting C also meets D, so it counts there too")
    return PlayerState(inventory=p.inventory.to_solver(), unplaced=p.tokens.unplaced.counts(),
                       placed=p.tokens.placed.counts(), meeting_d=p.class_cards.meeting_d,
                       meeting_c=p.class_cards.meeting_c, robots=tuple(r.to_solver() for r in p.robots),
                       friendships=friendship_count(p.friendships), completed=frozenset(p.completed),
                       robot_cards_as_duct_tape=who_of(p.inventor, p.friendships).robot_cards_as_duct_tape)


# ---- from the solver to JSON -----------------------------------------------------------------------


def payment_json(p: Payment) -> dict:
    if p.kind == "token":
        return {"kind": "token", "token_type": p.token_type, "text": p.describe()}
    if p.kind == "batteries":
        return {"kind": "batteries", "count": p.count, "text": p.describe()}
    return {"kind": "resources", "items": p.items_dict(), "text": p.describe()}


def _reward_json(step: Step, comp: Competition) -> dict:
    r = comp.reward(step.reward)
    return {"option": r.id, "vp": r.vp, "friendship_draw": r.friendship_draw, "friendship_keep": step.friendship_keep}


def _tokens_json(state: PlayerState) -> dict:
    return {"unplaced": dict(zip(TOKEN_TYPES, state.unplaced, strict=True)),
            "placed": dict(zip(TOKEN_TYPES, state.placed, strict=True))}


def _after_json(state: PlayerState) -> dict:
    """What a step leaves: the seat's fields a plan changes (send them back with the kept card's name)."""
    return {"inventory": state.inventory.as_dict(), "tokens": _tokens_json(state), "friendships": state.friendships,
            "completed": sorted(state.completed, key=COMP_TYPES.index)}


def _plan_json(p: Plan, comps: list[Competition]) -> dict:
    by_type = {c.type: c for c in comps}
    final = p.check.states[-1]
    return {
        "steps": [{"type": s.type, "name": COMP_NAMES[s.type], "criterion": by_type[s.type].criterion,
                   "payment": payment_json(s.payment), "reward": _reward_json(s, by_type[s.type]),
                   "after": _after_json(p.check.states[k + 1]),
                   # the card kept here may change what comes next (Johannes, Confucius, Ada, John...)
                   "depends_on_kept": bool(s.friendship_keep)} for k, s in enumerate(p.steps)],
        "value": exact(p.check.value),
        "inventory_after": final.inventory.as_dict(),
        "tokens_after": _tokens_json(final),
        "friendships_after": final.friendships,
        "completed_after": sorted(final.completed, key=COMP_TYPES.index),
        "orders": p.orders,
    }


def _claims_json(result: PlanResult, comps: list[Competition]) -> dict:
    c = result.claims
    return {"only_order": c.only_order,
            "other_order": _plan_json(c.other_order, comps) if c.other_order is not None else None,
            "pays": [{"type": t, "kind": k} for t, k in c.pays],
            "pays_never": [{"type": t, "kind": k} for t, k in sorted(c.pays_never)],
            "completes": sorted(c.completes, key=COMP_TYPES.index),
            "completes_never": sorted(c.completes_never, key=COMP_TYPES.index)}


def _response(result: PlanResult, text: Explanation, comps: list[Competition], shown: list[dict],
              values: Values) -> dict:
    body_plan = _plan_json(result.best, comps)
    for step, ex in zip(body_plan["steps"], text.steps, strict=True):
        step.update({"why": ex.criterion_why, "reasons": list(ex.reasons), "value": exact(ex.value),
                     "rules": list(ex.rules)})
    notes = list(text.notes)
    rules = list(text.rules)
    unverified = {}  # competition name -> the numbers of it planned with unchecked defaults
    for c in shown:
        for what, source in c["sources"].items():
            if source == "unverified" and (what != "token_type" or any(
                    s.type == c["type"] and s.payment.kind == "token" for s in result.best.steps)):
                unverified.setdefault(c["name"], []).append(what)
    if unverified:
        names = list(unverified)
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        notes.append(f"Planned with unchecked numbers for {listed}: compare them with your tiles and cards "
                     "(Competitions in play, Tile and card numbers).")
        rules += [i for i in (R_TILE_COSTS,) if i not in rules]
        if any("token_type" in whats for whats in unverified.values()):
            rules.append(R_TOKEN_TYPES)
    return {
        "status": result.status,
        "eligible": [{"type": e.type, "name": COMP_NAMES[e.type], "criterion": e.criterion, "met": e.met, "why": e.why,
                      "completed": e.completed, "in_plan": e.in_plan,
                      "matching": [{"value": label, "robot": r} for label, r in e.matching],
                      "rules": list(e.rules)} for e in text.eligible],
        "plan": body_plan,
        "ties": [_plan_json(t, comps) for t in result.ties],
        "ties_complete": result.ties_complete,
        "claims": _claims_json(result, comps),
        "notes": notes,
        "rules": rules,
        "competitions": shown,
        "values": {k: exact(values.of(k)) for k in VALUE_KEYS},
    }


def run_plan(req: PlanIn) -> dict:
    """Validate what pydantic cannot, plan, explain: the one path the API and the page share."""
    state = _state(req.player)
    comps, shown = _competitions(req.competitions)
    values = _values(req.values)
    rules = Rules(req.rules.duct_tape_pays_resources)
    result = plan(state, comps, rules, values)
    out = _response(result, explain(state, comps, result, rules, values), comps, shown, values)
    taken = abilities.treatments(who_of(req.player.inventor, req.player.friendships), abilities.PLANNER_MODELLED,
                                 abilities.PLANNER_NO_EFFECT)
    out["abilities"] = taken_json(taken)
    note = abilities.not_taken_note(taken, "planner")
    if note:
        out["notes"].append(note)
    if state.robot_cards_as_duct_tape:
        out["rules"].append(abilities.SETUP_RULES.get("sacagawea", "rr-sacagawea-complexity-medium"))
    return out


@bp.post("/api/raising-robots/competitions/plan")
def plan_api():
    return jsonify(run_plan(parse(PlanIn)))


# ---- "I kept <card>": its immediate effect on the seat, then the plan from there -----------------------

class KeptIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40)
    per_robot: list[Literal["batteries", "sensor", "gear", "microchip", "program", "robot_cards"]] = Field(
        default_factory=list, max_length=15)


class KeptPlanIn(PlanIn):
    """The plan body with the seat as the step that drew the cards left it, and the card kept there."""
    kept: KeptIn


def run_kept(req: KeptPlanIn) -> dict:
    """The kept card's immediate effect applied to the seat (and the card added to its Friendship cards,
    under the cap of 2), then the plan from the new seat."""
    player = req.player
    held = player.friendships if isinstance(player.friendships, list) else [""] * player.friendships
    if len(held) >= FRIENDSHIP_CAP:
        raise bad_field("player.friendships", f"already {FRIENDSHIP_CAP} Friendship cards: a third cannot be kept")
    card = abilities.keep_friendship(req.kept.name, player.inventory.to_solver(), len(player.robots),
                                     req.kept.per_robot)
    named = [n for n in held if n] if all(held) else held
    after = player.model_copy(update={
        "inventory": InventoryIn(**card.inventory_after.as_dict()),
        "friendships": [*named, req.kept.name] if all(held) else len(held) + 1})
    out = run_plan(req.model_copy(update={"player": after}))
    out["kept"] = {"name": abilities.display_name(card.ability), "ability": card.ability, "gained": card.gained,
                   "why": card.why, "modelled": card.modelled, "rules": list(card.rules)}
    out["player"] = after.model_dump(exclude_none=True)
    if not card.modelled:
        out["notes"].insert(0, f"{abilities.display_name(card.ability)}: {card.why}.")
    return out


@bp.post("/api/raising-robots/competitions/kept")
def kept_api():
    return jsonify(run_kept(parse(KeptPlanIn)))


# ---- the page --------------------------------------------------------------------------------------

INV_ITEMS = ("sensor", "gear", "microchip", "program", "robot_cards", "duct_tape", "battery", "vp")  # wilds first
VALUE_LABELS = {"sensor": "a sensor", "gear": "a gear", "microchip": "a microchip", "program": "a program",
                "duct_tape": "a duct tape", "battery": "a battery", "robot_cards": "a Robot Card",
                "upgrade_token": "an unplaced upgrade token", "friendship": "a Friendship card kept"}
SHORT_NAMES = {"engineering_expo": "Expo", "mech_masters": "Mech", "think_tank": "Think", "robo_race": "Race"}
SEAT_KEYS = ("inventory", "tokens", "class_status", "robots", "friendships", "completed")  # what this page writes
COMMON_RULES = ["rr-how-to-complete-competitions", "rr-completion-criteria", "rr-completion-rewards"]  # shown once


def plan_body(cs: dict, seat: dict) -> dict:
    """The API request for this page state: the same body a script would send."""
    comps = []
    for t in COMP_TYPES:
        crit = cs["cards"][t]
        if not crit:
            continue
        side, tile, d = cs["sides"][t], cs["tiles"][t], default_tile(t)
        c: dict[str, Any] = {"type": t, "criterion": crit, "side": side}
        if tile["token_type"] != d["token_type"]:
            c["token_type"] = tile["token_type"]
        c["cost"] = {k: tile[side][k] for k in ("resources", "batteries") if tile[side][k] != d[side][k]}
        card = GAME_DATA.cards[crit]
        if card.values is not None and cs["card_values"].get(crit) != list(card.values.value):
            c["values"] = cs["card_values"][crit]
        comps.append(c)
    robot_keys = ("row", "any_row", "cost_energy", "cost_resources", "basic_energy", "upgraded_energy", "upgraded",
                  "vp", "needs_microchip")
    player = {"inventory": seat["inventory"], "tokens": seat["tokens"], "class_cards": seat["class_status"],
              "robots": [{k: r[k] for k in robot_keys if k in r} for r in seat["robots"]],
              "completed": seat["completed"], **who_body(seat)}
    return {"player": player, "competitions": comps, "values": cs["values"],
            "rules": {"duct_tape_pays_resources": cs["duct_tape_pays_resources"]}}


def plan_for_page(cs: dict, seat: dict) -> tuple[dict | None, list[dict]]:
    return answer_or_problems(lambda: run_plan(PlanIn.model_validate(plan_body(cs, seat))))


def apply_plan(cs: dict, seat: dict, result: dict, rnd: int = 1) -> tuple[dict, dict]:
    """The table after the plan is carried out: the seat's inventory, tokens, Friendship cards and completed
    competitions, and the competitions completed this round `rnd` (their tiles flip at its end)."""
    p = result["plan"]
    seat = {**seat, "inventory": dict(p["inventory_after"]), "tokens": p["tokens_after"],
            "friendships": p["friendships_after"], "completed": list(p["completed_after"])}
    done = set(cs["completed_this_round"]) | {s["type"] for s in p["steps"]}
    cs = {**cs, "completed_this_round": [t for t in COMP_TYPES if t in done], "completed_round": rnd}
    return cs, seat


# ---- pages: the form --------------------------------------------------------------------------------


def _numbers(text: str) -> list[int] | None:
    parts = text.replace(",", " ").split()
    return [int(p) for p in parts] if parts and all(p.isdigit() for p in parts) else None


def form_to_state(form, cs: dict, seat: dict) -> tuple[dict, dict, list[dict]]:
    """The page state the form describes, on top of the stored one (keys other pages own are kept)."""
    f = FormReader(form)
    cs = {**cs, "cards": dict(cs["cards"]), "sides": dict(cs["sides"]), "tiles": {t: {**v, "A": dict(v["A"]),
          "B": dict(v["B"])} for t, v in cs["tiles"].items()}, "card_values": dict(cs["card_values"])}
    main = any(k.startswith("inv-") for k in form)  # the page's own form: an unticked box sends nothing
    for t in COMP_TYPES:
        crit = form.get(f"card-{t}")
        if crit is not None:
            cs["cards"][t] = crit if CRITERIA.get(crit) == t else None
        if form.get(f"side-{t}") in ("A", "B"):
            cs["sides"][t] = form[f"side-{t}"]
        if form.get(f"tok-{t}") in TOKEN_TYPES:
            cs["tiles"][t]["token_type"] = form[f"tok-{t}"]
        for s in ("A", "B"):
            for k, short in (("resources", "res"), ("batteries", "bat")):
                cs["tiles"][t][s][k] = f.int(f"{short}-{t}-{s}", 1, 30, cs["tiles"][t][s][k],
                                             path=f"tiles.{t}.{s}.{k}")
    for cid in cs["card_values"]:
        raw = form.get(f"vals-{cid}")
        if raw is None:
            continue
        nums = _numbers(raw)
        if nums is None or not 1 <= len(nums) <= 7 or not all(0 <= n <= 20 for n in nums):
            f.problems.append({"path": f"card_values.{cid}", "message": "1 to 7 whole numbers from 0 to 20, "
                                                                        "like “1 2 3 4”"})
        else:
            cs["card_values"][cid] = nums
    values = dict(cs["values"])
    for k in VALUE_KEYS:
        if f"value-{k}" not in form:
            continue
        raw = (form.get(f"value-{k}") or "").strip()
        values.pop(k, None)
        if raw and Fraction(getattr(Values(), k)) != _fraction_or_none(raw):
            values[k] = raw[:20]
    cs["values"] = values
    if main:
        cs["duct_tape_pays_resources"] = form.get("duct_tape_pays_resources") == "1"

    seat = {**seat}
    seat["inventory"] = {k: f.int(f"inv-{k}", 0, 999, seat["inventory"][k], path=f"inventory.{k}") for k in INV_ITEMS}
    seat["tokens"] = {w: {t: f.int(f"{w}-{t}", 0, 20, seat["tokens"][w][t], path=f"tokens.{w}.{t}")
                          for t in TOKEN_TYPES} for w in ("unplaced", "placed")}
    seat["class_status"] = {k: f.int(k, 0, 9, seat["class_status"][k], path=f"class_cards.{k}")
                            for k in ("meeting_d", "meeting_c")}
    seat["friendships"] = f.int("friendships", 0, FRIENDSHIP_CAP, seat["friendships"])
    if "inventor" in form:
        seat["inventor"] = {"name": (form.get("inventor") or "").strip()[:40], "upgraded": form.get("inventor_up") == "1"}
    if "fname-0" in form:
        seat["friendship_names"] = [n for n in ((form.get(f"fname-{k}") or "").strip()[:40] for k in range(2)) if n]
        seat["friendships"] = max(seat["friendships"], len(seat["friendship_names"]))
    if main:
        seat["completed"] = [t for t in COMP_TYPES if form.get(f"done-{t}") == "1"]
    if "robots" in form:
        seat["robots"] = _robots_from_form(form, f, seat["robots"])
    return cs, seat, f.problems


def _fraction_or_none(text: str) -> Fraction | None:
    try:
        return parse_fraction(text)
    except (ValueError, TypeError, OverflowError):
        return None


def _robots_from_form(form, f: FormReader, old: list[dict]) -> list[dict]:
    """The robots the form lists, each matched to the robot it shows by its id (a robot another phone added
    meanwhile is not in the form, and the save keeps it)."""
    robots = []
    by_id = {r["id"]: r for r in old}
    count = f.int("robots", 0, 99, len(old)) or 0
    for i in [*range(count), "new"]:
        p = f"r{i}-"
        row = form.get(p + "row", "")
        if row not in ROWS or form.get(p + "del") == "1":
            continue
        if i == "new" and (form.get("action") != "add-robot" or len(robots) >= MAX_ROBOTS):
            continue
        rid = form.get(p + "id", "")
        base = dict(by_id[rid]) if i != "new" and rid in by_id else {"id": new_robot_id()}
        path = f"robots[{len(robots)}]"
        e1 = f.int(p + "e1", 0, 20, None, blank=-1, path=path + ".cost_energy")
        c1 = f.int(p + "c1", 0, 20, None, blank=-1, path=path + ".cost_resources")
        e2 = f.int(p + "e2", 0, 20, None, blank=-1, path=path + ".cost_energy")
        c2 = f.int(p + "c2", 0, 20, None, blank=-1, path=path + ".cost_resources")
        up = f.int(p + "up", 1, 7, None, blank=0, path=path + ".upgraded_energy")
        base.update({
            "row": row, "any_row": form.get(p + "any") == "1", "upgraded": form.get(p + "upgraded") == "1",
            "needs_microchip": form.get(p + "chip") == "1",
            "cost_energy": [v for v in (e1, e2) if isinstance(v, int) and v >= 0],
            "cost_resources": [v for v in (c1, c2) if isinstance(v, int) and v >= 0],
            "basic_energy": f.int(p + "basic", 1, 7, 1, path=path + ".basic_energy") or 1,
            "upgraded_energy": up or None, "vp": f.int(p + "vp", 0, 20, 0, path=path + ".vp") or 0,
        })
        if len(base["cost_energy"]) != len(base["cost_resources"]):
            f.problems.append({"path": path, "message": "give each cost column both its energy and its resources"})
        robots.append(base)
    return robots


KEPT_WILDS = ("batteries", "sensor", "gear", "microchip", "program", "robot_cards")


def kept_on_page(form, result: dict, seat: dict, rnd: int):
    """"I kept <card>" on the page: the plan's steps up to the one that drew the cards are carried out,
    the kept card's immediate effect is applied, and the seat is saved so that the page plans again from
    there. Returns (note, seat, competitions completed) or (None, problems)."""
    action = form.get("action", "")
    k = int(action[5:]) if action[5:].isdigit() else -1
    steps = result["plan"]["steps"]
    if not 0 <= k < len(steps) or not steps[k]["depends_on_kept"]:
        return None, [{"path": "kept", "message": "this step keeps no Friendship card"}]
    name = (form.get(f"kept-name-{k}") or "").strip()[:40]
    if not name:
        return None, [{"path": f"kept-name-{k}", "message": "type the name of the card you kept"}]
    after = steps[k]["after"]
    choice = form.get(f"kept-each-{k}") if form.get(f"kept-each-{k}") in KEPT_WILDS else "batteries"
    try:
        card = abilities.keep_friendship(name, Inventory(**after["inventory"]), len(seat["robots"]),
                                         [choice] * len(seat["robots"]), path=f"kept-name-{k}")
    except abilities.KeptInputError as err:
        return None, [{"path": err.path, "message": err.message}]
    seat = {**seat, "inventory": card.inventory_after.as_dict(), "tokens": after["tokens"],
            "friendships": after["friendships"], "completed": list(after["completed"]),
            "friendship_names": [*seat["friendship_names"], name][:FRIENDSHIP_CAP]}
    done = ", ".join(s["name"] for s in steps[:k + 1])
    return (f"Done up to {steps[k]['name']} ({done}); kept {abilities.display_name(card.ability)}: {card.why}. "
            "The plan below starts from here.", seat, [s["type"] for s in steps[:k + 1]])


def _typed_new_robot(form) -> dict | None:
    """What was typed into the new-robot fields of a form that did not add it (a save of other fields):
    shown again as typed, so that nothing entered is lost. After "Add this robot" the fields start empty
    (the form stays open for the next one)."""
    if form.get("action") == "add-robot":
        return {"row": "", "cost_energy": [], "cost_resources": []}
    typed = {k: str(form.get(f"rnew-{k}", "")).strip()[:4] for k in ("vp", "e1", "c1", "e2", "c2", "basic", "up")}
    row = form.get("rnew-row", "")
    if row not in ROWS and not any(typed.values()):
        return None
    return {"row": row if row in ROWS else "", "vp": typed["vp"], "cost_energy": [typed["e1"], typed["e2"]],
            "cost_resources": [typed["c1"], typed["c2"]], "basic_energy": typed["basic"], "upgraded_energy": typed["up"],
            "upgraded": form.get("rnew-upgraded") == "1", "any_row": form.get("rnew-any") == "1",
            "needs_microchip": form.get("rnew-chip") == "1"}


def _applied_note(result: dict, name: str) -> str:
    steps = result["plan"]["steps"]
    done = ", ".join(s["name"] for s in steps)
    return (f"Applied: {name} completed {done}. Inventory, tokens and Friendship cards are updated; "
            f"{'that tile turns' if len(steps) == 1 else 'those tiles turn'} to the B side at the end of the round.")


def class_from_cards(seat: dict) -> dict | None:
    """Class cards meeting D / C or better, from the grades entered on the score page (None when a card's
    grade is not typed in, or there are none)."""
    grades = [c.get("grade") for c in as_list(seat.get("class_cards")) if isinstance(c, dict)]
    if not grades or not all(g in ("none", "D", "C", "B", "A") for g in grades):
        return None
    return {"meeting_d": sum(g in ("D", "C", "B", "A") for g in grades),
            "meeting_c": sum(g in ("C", "B", "A") for g in grades)}


def _rule_lists(result: dict | None) -> dict:
    """Which rule ids the page shows where: each step its own (minus the ones every step shares), each
    competition its card, and the rest once under the plan."""
    if not result:
        return {"general": []}
    shown = {i for s in result["plan"]["steps"] for i in s["rules"] if i not in COMMON_RULES}
    shown |= {e["rules"][0] for e in result["eligible"]}
    return {"general": [i for i in result["rules"] if i not in shown]}


PLANNER_ROBOT_FIELDS = ("row", "any_row", "cost_energy", "cost_resources", "basic_energy", "upgraded_energy",
                        "upgraded", "vp", "needs_microchip")
COMP_KEYS = ("cards", "sides", "tiles", "card_values", "values", "duct_tape_pays_resources")  # the form edits


def planner_model(cs: dict, seat: dict) -> dict:
    """What the form shows, as changes are worked out: the competitions in play (as stored) and the seat's
    fields this page edits (completed competitions as a set, robots by id)."""
    kept = stored(cs)
    return {"comps": {k: kept[k] for k in COMP_KEYS},
            "seat": {"inventory": dict(seat["inventory"]), "tokens": seat["tokens"],
                     "class_status": dict(seat["class_status"]), "friendships": seat["friendships"],
                     "inventor": dict(seat["inventor"]), "friendship_names": list(seat["friendship_names"]),
                     "completed": as_set(seat["completed"]),
                     "robots": robot_fields(seat, seat["robots"], PLANNER_ROBOT_FIELDS)}}


def model_parts(model: dict) -> tuple[dict, dict]:
    """The competitions state and seat a form model describes (a posted one is cleaned like stored state)."""
    part = as_dict(model.get("seat"))
    done = [t for t, on in as_dict(part.get("completed")).items() if on is True]
    return clean_comp_state(model.get("comps")), seat_from_model({**part, "completed": done})


def planner_change(seat_index: int, old: dict, new: dict, completed_now: list[str]):
    """The save: what the form changed, on the newest state (tile flips the round passed come first), and
    the competitions just completed added to this round's (their tiles turn over at its end)."""
    items = changes(old, new)
    seat_items = under(items, "seat")
    if any(path[0] == "completed" for path, _ in seat_items):
        seat_items.append((("competitions_completed",), DELETED))  # a count typed on the score page is out of date

    def mutate(state: dict) -> dict:
        state = catch_up_change(state)
        cs = apply_changes(dict(as_dict(state.get(STATE_KEY))), under(items, "comps"))
        if completed_now:
            done = set(clean_comp_state(cs)["completed_this_round"]) | set(completed_now)
            cs.update(completed_this_round=[t for t in COMP_TYPES if t in done], completed_round=current_round(state))
        state[STATE_KEY] = cs
        return change_seat(state, seat_index, seat_items, sets=("completed",))
    return mutate


def _page_state(state: dict, seat_index: int) -> tuple[dict, dict, dict | None]:
    """The competitions state and the seat as the page shows them, and the class status the score page's
    grades give (shown until this page saves its own)."""
    players = as_list(state.get(SEATS_KEY))
    raw_seat = as_dict(players[seat_index]) if seat_index < len(players) else {}
    seat = clean_seat(raw_seat)
    from_cards = class_from_cards(seat)
    if from_cards and "class_status" not in raw_seat:
        seat["class_status"] = from_cards
    return clean_comp_state(state.get(STATE_KEY)), seat, from_cards


@bp.route("/raising-robots/competitions", methods=["GET", "POST"])
def planner_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]  # a GET never writes: robots without an id get one from their content when read
    names = names_of(table, table.players if table is not None else 1)
    seat_index = FormReader(request.values).int("seat", 0, len(names) - 1, 0) or 0
    state = table.state if table is not None else {}
    cs, seat, from_cards = _page_state(state, seat_index)
    cs, events, rnd = round_events(table, cs)
    problems: list[dict] = []
    plan_problems: list[dict] = []
    note = None
    if request.method == "POST":
        drawn = read_drawn(request.form) if table is not None else None
        old = planner_model(*model_parts(drawn)) if drawn else planner_model(cs, seat)
        cs_new, seat_new, problems = form_to_state(request.form, *model_parts(old))
        completed_now: list[str] = []
        if request.form.get("action", "").startswith("kept-") and not problems:
            result, plan_problems = plan_for_page(cs_new, seat_new)
            kept = kept_on_page(request.form, result, seat_new, rnd) if result else None
            if kept is not None and isinstance(kept[0], str):
                note, seat_new, completed_now = kept
            elif kept is not None:
                plan_problems = kept[1]
        if request.form.get("action") == "apply" and not problems:
            result, plan_problems = plan_for_page(cs_new, seat_new)
            if result and result["plan"]["steps"]:
                note = _applied_note(result, names[seat_index] if len(names) > 1 else "you")
                _, seat_new = apply_plan(cs_new, seat_new, result, rnd)
                completed_now = [s["type"] for s in result["plan"]["steps"]]
        mutate = planner_change(seat_index, old, planner_model(cs_new, seat_new), completed_now)
        if table is not None and not problems:
            table = ctx["table"] = save(table, mutate)
            state = table.state
        else:
            state = mutate(copy.deepcopy(state))  # what was typed stays on the page
        cs, seat, from_cards = _page_state(state, seat_index)
        cs, _, rnd = round_events(table, cs)  # the flips the save brought are the ones listed above
    else:
        if table is None:  # cards and sides handed over by the setup helper
            for crit in request.args.getlist("card"):
                if crit in CRITERIA:
                    cs["cards"][CRITERIA[crit]] = crit
            for t in COMP_TYPES:
                if request.args.get(f"side-{t}") in ("A", "B"):
                    cs["sides"][t] = request.args[f"side-{t}"]
        # a GET never writes: the flips the round passed are shown from the state read, and the next save
        # applies them (planner_change starts with catch_up_change)
    result, more_problems = plan_for_page(cs, seat)
    plan_problems = plan_problems or more_problems
    status = 400 if request.method == "POST" and (problems or plan_problems) else 200
    titles = rule_titles([*ALL_RULES, R_TILE_COSTS, R_TOKEN_TYPES])
    return render_template(
        "raising_robots/competitions.html", cs=cs, seat=seat, seat_index=seat_index, names=names, result=result,
        problems=problems + plan_problems, note=note, events=events, round=rnd, data=GAME_DATA,
        comp_types=COMP_TYPES, comp_names=COMP_NAMES, short_names=SHORT_NAMES, token_types=TOKEN_TYPES,
        token_labels=TOKEN_LABELS, inv_items=INV_ITEMS, item_labels=ITEM_LABELS, value_keys=VALUE_KEYS, value_labels=VALUE_LABELS,
        defaults=Values(), vp_text=vp_text, default_tile=default_tile, rule_titles=titles,
        common_rules=COMMON_RULES, rule_lists=_rule_lists(result), from_cards=from_cards,
        drawn=drawn_json(planner_model(cs, seat)), version=table.version if table is not None else "",
        problem_text=problem_text, new_robot=_typed_new_robot(request.form) if request.method == "POST" else None,
        keep_adding=request.form.get("rnew-shown") == "1",  # the add form stays open until the player closes it
        **ctx), status


