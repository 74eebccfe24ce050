"""Raising Robots: the competition planner and the competitions setup helper (API and pages).

JSON: POST /api/raising-robots/competitions/plan, POST /api/raising-robots/competitions/setup,
POST /api/raising-robots/competitions/round. Pages: /raising-robots/competitions (planner) and
/raising-robots/competitions/setup.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Literal

from flask import Blueprint, jsonify
from pydantic import BaseModel, ConfigDict, Field, field_validator

from solvers.exact import exact, parse_fraction
from solvers.raising_robots import competitions_setup as setup
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
from solvers.raising_robots.competitions_explain import Explanation, explain
from solvers.raising_robots.competitions_planner import MAX_SCALE, Plan, PlanResult, plan, value_scale
from solvers.raising_robots.model import TOKEN_TYPES

from ..api import bad_field, parse
from .rr_models import InventoryIn, RobotIn

bp = Blueprint("rr_competitions", __name__)

TOOLS = [
    ("raising-robots", "Competitions planner", "rr_competitions.planner_page",
     "Which competitions to complete now, in what order, paying what, and which reward to take."),
    ("raising-robots", "Competitions setup", "rr_competitions.setup_page",
     "Deal one card of each competition; solo and 2P: the tokens on the round tracker and tile flips."),
]

TokenType = Literal["pink", "orange", "blue", "green"]
CompType = Literal["engineering_expo", "mech_masters", "think_tank", "robo_race"]
Criterion = Literal[tuple(CRITERIA)]  # type: ignore[valid-type]
TokenCount = Field(default=0, ge=0, le=20)
MAX_VALUE = 100
MAX_DENOMINATOR = 1000

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
    friendships: int = Field(default=0, ge=0, le=FRIENDSHIP_CAP)
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
        raise bad_field("player.class_cards.meeting_c", "cannot exceed meeting_d: a card meeting C also meets D, "
                                                        "so meeting_d counts it too")
    return PlayerState(p.inventory.to_solver(), p.tokens.unplaced.counts(), p.tokens.placed.counts(),
                       p.class_cards.meeting_d, p.class_cards.meeting_c, tuple(r.to_solver() for r in p.robots),
                       p.friendships, frozenset(p.completed))


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


def _plan_json(p: Plan, comps: list[Competition]) -> dict:
    by_type = {c.type: c for c in comps}
    final = p.check.states[-1]
    return {
        "steps": [{"type": s.type, "name": COMP_NAMES[s.type], "criterion": by_type[s.type].criterion,
                   "payment": payment_json(s.payment), "reward": _reward_json(s, by_type[s.type])} for s in p.steps],
        "value": exact(p.check.value),
        "inventory_after": final.inventory.as_dict(),
        "tokens_after": _tokens_json(final),
        "friendships_after": final.friendships,
        "completed_after": sorted(final.completed, key=COMP_TYPES.index),
        "orders": p.orders,
    }


def _response(result: PlanResult, text: Explanation, comps: list[Competition], shown: list[dict],
              values: Values) -> dict:
    body_plan = _plan_json(result.best, comps)
    for step, ex in zip(body_plan["steps"], text.steps, strict=True):
        step.update({"why": ex.criterion_why, "reasons": list(ex.reasons), "value": exact(ex.value),
                     "rules": list(ex.rules)})
    notes = list(text.notes)
    unverified = [f"{c['name']} {what}" for c in shown for what, source in c["sources"].items()
                  if source == "unverified" and (what != "token_type" or any(
                      s.type == c["type"] and s.payment.kind == "token" for s in result.best.steps))]
    if unverified:
        notes.append("Planned with defaults nobody has checked against the printed components ("
                     + ", ".join(unverified) + "): compare them with your tiles and cards and change them if they differ.")
    return {
        "status": result.status,
        "eligible": [{"type": e.type, "name": COMP_NAMES[e.type], "criterion": e.criterion, "met": e.met, "why": e.why,
                      "completed": e.completed, "in_plan": e.in_plan,
                      "matching": [{"value": label, "robot": r} for label, r in e.matching]} for e in text.eligible],
        "plan": body_plan,
        "ties": [_plan_json(t, comps) for t in result.ties],
        "ties_complete": result.ties_complete,
        "notes": notes,
        "rules": list(text.rules),
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
    return _response(result, explain(state, comps, result, rules, values), comps, shown, values)


@bp.post("/api/raising-robots/competitions/plan")
def plan_api():
    return jsonify(run_plan(parse(PlanIn)))


# ---- setup helper ------------------------------------------------------------------------------------

SETUP_RULES = ["rr-solo-2p-gameplay-changes", "rr-how-to-complete-competitions"]


class SetupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(ge=1, le=6)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)


class SpotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1, le=8)
    token_type: TokenType


class RoundIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    marker_to: int = Field(ge=2, le=8)
    sides: dict[CompType, Literal["A", "B"]] = Field(default_factory=dict)
    tracker: list[SpotIn] = Field(default_factory=list, max_length=4)
    completed_this_round: list[CompType] = Field(default_factory=list, max_length=4)


def _spots_json(spots: list[setup.Spot]) -> list[dict]:
    return [{"round": s.round, "token_type": s.token_type, "tile": s.tile, "name": COMP_NAMES[s.tile]}
            for s in spots]


def run_setup(req: SetupIn) -> dict:
    rng = random.Random(req.seed) if req.seed is not None else random.SystemRandom()
    cards = setup.deal(rng)
    spots = setup.place_tracker_tokens(req.players, rng)
    tiles = {t: GAME_DATA.tiles[t].token_type for t in COMP_TYPES}
    return {
        "players": req.players,
        "cards": [{"type": t, "name": COMP_NAMES[t], "criterion": c, "card": GAME_DATA.cards[c].name,
                   "text": GAME_DATA.cards[c].text} for t, c in cards.items()],
        "sides": {t: "A" for t in COMP_TYPES},
        "tracker": _spots_json(spots),
        "tile_types": {t: {"token_type": s.value, "source": s.source} for t, s in tiles.items()},
        "rules": SETUP_RULES,
    }


def run_round(req: RoundIn) -> dict:
    spots = [setup.Spot(s.round, s.token_type, setup.tile_of(s.token_type)) for s in req.tracker]
    if len({s.token_type for s in spots}) != len(spots):
        raise bad_field("tracker", "each upgrade type appears on the round tracker at most once")
    out = setup.end_of_round(req.marker_to, req.sides, spots, req.completed_this_round)
    return {"marker_to": req.marker_to, "sides": out.sides, "tracker": _spots_json(out.tracker),
            "events": [{"type": t, "name": COMP_NAMES[t], "flipped": f, "why": why} for t, f, why in out.events],
            "rules": SETUP_RULES}


@bp.post("/api/raising-robots/competitions/setup")
def setup_api():
    return jsonify(run_setup(parse(SetupIn)))


@bp.post("/api/raising-robots/competitions/round")
def round_api():
    return jsonify(run_round(parse(RoundIn)))
