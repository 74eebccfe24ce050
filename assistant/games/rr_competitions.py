"""Raising Robots: the competition planner and the competitions setup helper (API and pages).

JSON: POST /api/raising-robots/competitions/plan, POST /api/raising-robots/competitions/setup,
POST /api/raising-robots/competitions/round. Pages: /raising-robots/competitions (planner) and
/raising-robots/competitions/setup.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Literal

from flask import Blueprint, flash, jsonify, render_template, request
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

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
from solvers.raising_robots.competitions_explain import ALL_RULES, Explanation, explain, vp_text
from solvers.raising_robots.competitions_planner import MAX_SCALE, Plan, PlanResult, plan, value_scale
from solvers.raising_robots.model import TOKEN_TYPES

from .. import table_store as store
from ..api import ApiError, bad_field, parse, validation_error
from ..page_helpers import as_dict, as_list, seat_names, state_part, table_context, update_table
from .rr_models import InventoryIn, RobotIn, rule_titles

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
    return _response(result, explain(state, comps, result, rules, values), comps, shown, values)


@bp.post("/api/raising-robots/competitions/plan")
def plan_api():
    return jsonify(run_plan(parse(PlanIn)))


# ---- setup helper ------------------------------------------------------------------------------------

SETUP_RULES = ["rr-competitions-friendships-changes-to-setup", "rr-setup-solo-2p-tokens", "rr-solo-2p-gameplay-changes"]
ROUND_RULES = ["rr-flip-tile-round-end", "rr-important-same-round-same-side", "rr-solo-2p-gameplay-changes"]


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
        "rules": SETUP_RULES if req.players <= 2 else SETUP_RULES[:1],
    }


def run_round(req: RoundIn) -> dict:
    spots = [setup.Spot(s.round, s.token_type, setup.tile_of(s.token_type)) for s in req.tracker]
    if len({s.token_type for s in spots}) != len(spots):
        raise bad_field("tracker", "each upgrade type appears on the round tracker at most once")
    out = setup.end_of_round(req.marker_to, req.sides, spots, req.completed_this_round)
    return {"marker_to": req.marker_to, "sides": out.sides, "tracker": _spots_json(out.tracker),
            "events": [{"type": t, "name": COMP_NAMES[t], "flipped": f, "why": why} for t, f, why in out.events],
            "rules": ROUND_RULES if req.tracker else ROUND_RULES[:2]}


@bp.post("/api/raising-robots/competitions/setup")
def setup_api():
    return jsonify(run_setup(parse(SetupIn)))


@bp.post("/api/raising-robots/competitions/round")
def round_api():
    return jsonify(run_round(parse(RoundIn)))


# ---- pages: the table state they keep ---------------------------------------------------------------
# rr_competitions: {"cards": {type: criterion|None}, "sides": {type: "A"|"B"}, "tiles": {type: {"token_type",
#   "A": {"resources", "batteries"}, "B": {...}}} (only values that differ from the data file), "card_values":
#   {criterion: [ints]}, "values": {key: "n/d"}, "duct_tape_pays_resources": bool, "players": n,
#   "tracker": [{"round", "token_type"}], "completed_this_round": [types], "completed_round": round}
# The round is the table's own (state.table.round, which the table page edits); an older table may still
# hold rr_competitions.marker, which the first save moves there.
# rr_players[seat]: "inventory", "tokens", "class_status", "robots", "friendships", "completed" (shared).

STATE_KEY = "rr_competitions"
INV_ITEMS = ("sensor", "gear", "microchip", "program", "robot_cards", "duct_tape", "battery", "vp")
ITEM_LABELS = {"sensor": "Sensors", "gear": "Gears", "microchip": "Microchips", "program": "Programs",
               "robot_cards": "Robot Cards in hand", "duct_tape": "Duct tape", "battery": "Batteries", "vp": "VP"}
VALUE_LABELS = {"sensor": "a sensor", "gear": "a gear", "microchip": "a microchip", "program": "a program",
                "duct_tape": "a duct tape", "battery": "a battery", "robot_cards": "a Robot Card",
                "upgrade_token": "an unplaced upgrade token", "friendship": "a Friendship card kept"}
SHORT_NAMES = {"engineering_expo": "Expo", "mech_masters": "Mech", "think_tank": "Think", "robo_race": "Race"}
TOKEN_LABELS = {"pink": "Pink (Efficiency)", "orange": "Orange", "blue": "Blue", "green": "Green"}
MAX_ROBOTS = 15
SEAT_KEYS = ("inventory", "tokens", "class_status", "robots", "friendships", "completed")  # what this page writes
COMMON_RULES = ["rr-how-to-complete-competitions", "rr-completion-criteria", "rr-completion-rewards"]  # shown once


def _int(raw: Any, lo: int, hi: int, default: int) -> int:
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and lo <= raw <= hi else default


def default_tile(t: str) -> dict:
    tile = GAME_DATA.tiles[t]
    return {"token_type": tile.token_type.value,
            **{s: {"resources": tile.sides[s].resources.value, "batteries": tile.sides[s].batteries.value}
               for s in ("A", "B")}}


def clean_comp_state(raw: Any) -> dict:
    """The stored rr_competitions made safe to read (a table may hold anything)."""
    raw = raw if isinstance(raw, dict) else {}
    cards = raw.get("cards") if isinstance(raw.get("cards"), dict) else {}
    sides = raw.get("sides") if isinstance(raw.get("sides"), dict) else {}
    tiles_in = raw.get("tiles") if isinstance(raw.get("tiles"), dict) else {}
    tiles = {}
    for t in COMP_TYPES:
        d, given = default_tile(t), tiles_in.get(t) if isinstance(tiles_in.get(t), dict) else {}
        tile = {"token_type": given.get("token_type") if given.get("token_type") in TOKEN_TYPES else d["token_type"]}
        for s in ("A", "B"):
            gs = given.get(s) if isinstance(given.get(s), dict) else {}
            tile[s] = {k: _int(gs.get(k), 1, 30, d[s][k]) for k in ("resources", "batteries")}
        tiles[t] = tile
    card_values = {}
    cv = raw.get("card_values") if isinstance(raw.get("card_values"), dict) else {}
    for cid, card in GAME_DATA.cards.items():
        if card.values is not None:
            given = cv.get(cid)
            ok = isinstance(given, list) and 1 <= len(given) <= 7 and all(_int(v, 0, 20, -1) >= 0 for v in given)
            card_values[cid] = list(given) if ok else list(card.values.value)
    values = raw.get("values") if isinstance(raw.get("values"), dict) else {}
    tracker = [s for s in raw.get("tracker", []) if isinstance(s, dict) and _int(s.get("round"), 1, 8, 0)
               and s.get("token_type") in TOKEN_TYPES][:4] if isinstance(raw.get("tracker"), list) else []
    done = raw.get("completed_this_round") if isinstance(raw.get("completed_this_round"), list) else []
    return {
        **{k: v for k, v in raw.items() if k != "marker"},  # the round lives on the table (with_round)
        "cards": {t: cards.get(t) if CRITERIA.get(cards.get(t)) == t else None for t in COMP_TYPES},
        "sides": {t: sides.get(t) if sides.get(t) in ("A", "B") else "A" for t in COMP_TYPES},
        "tiles": tiles, "card_values": card_values,
        "values": {k: str(v) for k, v in values.items() if k in VALUE_KEYS and isinstance(v, (str, int))},
        "duct_tape_pays_resources": raw.get("duct_tape_pays_resources") is True,
        "players": _int(raw.get("players"), 1, 6, 0), "tracker": tracker,
        "completed_this_round": [t for t in COMP_TYPES if t in done],
        "completed_round": _int(raw.get("completed_round"), 1, MAX_TABLE_ROUND, 0) or None,
    }


# ---- the round: one number per table ------------------------------------------------------------------

ROUNDS = 8  # a game lasts 8 rounds (facts/raising_robots.md); the table page allows up to 99
MAX_TABLE_ROUND = 99


def _legacy_marker(state: dict) -> int | None:
    cs = state.get(STATE_KEY)
    if not isinstance(cs, dict):
        return None
    return _int(cs.get("marker"), 1, ROUNDS, 0) or None


def current_round(state: dict) -> int:
    """The table's round (state.table.round). A round marker this page kept before tables had a round
    counts when it is further on, until `with_round` moves it to the table."""
    shared = as_dict(state.get("table"))
    rnd = _int(shared.get("round"), 1, MAX_TABLE_ROUND, 0)
    marker = _legacy_marker(state)
    return max(rnd, marker or 0) or 1


def with_round(state: dict, round_to: int | None = None) -> dict:
    """The state with the round on the table (the legacy marker migrated and dropped), set to `round_to`
    when given. Only `table.round` of the lead's `table` key is touched."""
    cs = state.get(STATE_KEY)
    if round_to is None and not (isinstance(cs, dict) and "marker" in cs):
        return state
    rnd = round_to if round_to is not None else current_round(state)
    out = dict(state)
    out["table"] = {**as_dict(state.get("table")), "round": rnd}
    if isinstance(cs, dict) and "marker" in cs:
        out[STATE_KEY] = {k: v for k, v in cs.items() if k != "marker"}
    return out


def catch_up(cs: dict, rnd: int) -> tuple[dict, list[dict]]:
    """Tile flips the round has passed without this helper: tracker tokens on rounds the table's round
    has reached (solo / 2P), and competitions completed in an earlier round (their tiles turn over at
    that round's end). Returns the competitions state after them and what turned over."""
    done_round = cs.get("completed_round") or rnd
    completed = cs["completed_this_round"] if done_round < rnd else []
    due = [s["round"] for s in cs["tracker"] if s["round"] <= rnd] + ([done_round + 1] if completed else [])
    if not due:
        return cs, []
    sides = dict(cs["sides"])
    spots = [setup.Spot(s["round"], s["token_type"], setup.tile_of(s["token_type"])) for s in cs["tracker"]]
    events: list[dict] = []
    for r in range(min(due), rnd + 1):
        out = setup.end_of_round(r, sides, spots, completed if r == done_round + 1 else ())
        sides, spots = out.sides, out.tracker
        events += [{"type": t, "name": COMP_NAMES[t], "flipped": f, "why": why} for t, f, why in out.events]
    cs = {**cs, "sides": sides, "tracker": [{"round": sp.round, "token_type": sp.token_type} for sp in spots]}
    if completed:
        cs.update(completed_this_round=[], completed_round=None)
    return cs, events


def _clean_robot(r: Any) -> dict | None:
    if not isinstance(r, dict) or r.get("row") not in ("design", "fabricate", "recycle"):
        return None
    out = dict(r)
    for key in ("cost_energy", "cost_resources"):
        v = r.get(key)
        out[key] = [x for x in v if _int(x, 0, 20, -1) >= 0][:2] if isinstance(v, list) else []
    out["basic_energy"] = _int(r.get("basic_energy"), 1, 7, 1)
    out["upgraded_energy"] = _int(r.get("upgraded_energy"), 1, 7, 0) or None
    out["vp"] = _int(r.get("vp"), 0, 20, 0)
    out["any_row"] = r.get("any_row") is True
    out["upgraded"] = r.get("upgraded") is True
    out["needs_microchip"] = r.get("needs_microchip") is True
    return out


def clean_seat(raw: Any) -> dict:
    """A seat of rr_players with the keys this page reads made safe (other pages' keys are kept)."""
    seat = dict(raw) if isinstance(raw, dict) else {}
    inv = seat.get("inventory") if isinstance(seat.get("inventory"), dict) else {}
    seat["inventory"] = {k: _int(inv.get(k), 0, 999, 0) for k in INV_ITEMS}
    tok = seat.get("tokens") if isinstance(seat.get("tokens"), dict) else {}
    seat["tokens"] = {w: {t: _int((tok.get(w) or {}).get(t) if isinstance(tok.get(w), dict) else 0, 0, 20, 0)
                          for t in TOKEN_TYPES} for w in ("unplaced", "placed")}
    cs = seat.get("class_status") if isinstance(seat.get("class_status"), dict) else {}
    seat["class_status"] = {k: _int(cs.get(k), 0, 9, 0) for k in ("meeting_d", "meeting_c")}
    robots = seat.get("robots") if isinstance(seat.get("robots"), list) else []
    seat["robots"] = [r for r in (_clean_robot(x) for x in robots) if r is not None][:MAX_ROBOTS]
    seat["friendships"] = _int(seat.get("friendships"), 0, FRIENDSHIP_CAP, 0)
    done = seat.get("completed") if isinstance(seat.get("completed"), list) else []
    seat["completed"] = [t for t in COMP_TYPES if t in done]
    return seat


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
              "friendships": seat["friendships"], "completed": seat["completed"]}
    return {"player": player, "competitions": comps, "values": cs["values"],
            "rules": {"duct_tape_pays_resources": cs["duct_tape_pays_resources"]}}


def plan_for_page(cs: dict, seat: dict) -> tuple[dict | None, list[dict]]:
    try:
        return run_plan(PlanIn.model_validate(plan_body(cs, seat))), []
    except ValidationError as err:
        return None, validation_error(err).fields
    except ApiError as err:
        return None, err.fields


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


class _Form:
    """Reads the page's form: whole numbers within bounds, each problem named by its field."""

    def __init__(self, form):
        self.form, self.problems = form, []

    def int(self, name: str, path: str, lo: int, hi: int, old: int | None, blank: int | None = None) -> int | None:
        raw = (self.form.get(name) or "").strip()
        if raw == "":
            return blank if blank is not None or old is None else old
        try:
            v = int(raw)
        except ValueError:
            self.problems.append({"path": path, "message": f"“{raw[:20]}” is not a whole number"})
            return old
        if not lo <= v <= hi:
            self.problems.append({"path": path, "message": f"must be between {lo} and {hi}"})
            return old
        return v


def _numbers(text: str) -> list[int] | None:
    parts = text.replace(",", " ").split()
    return [int(p) for p in parts] if parts and all(p.isdigit() for p in parts) else None


def form_to_state(form, cs: dict, seat: dict) -> tuple[dict, dict, list[dict]]:
    """The page state the form describes, on top of the stored one (keys other pages own are kept)."""
    f = _Form(form)
    cs = {**cs, "cards": dict(cs["cards"]), "sides": dict(cs["sides"]), "tiles": {t: {**v, "A": dict(v["A"]),
          "B": dict(v["B"])} for t, v in cs["tiles"].items()}, "card_values": dict(cs["card_values"])}
    for t in COMP_TYPES:
        crit = form.get(f"card-{t}", "")
        cs["cards"][t] = crit if CRITERIA.get(crit) == t else None
        if form.get(f"side-{t}") in ("A", "B"):
            cs["sides"][t] = form[f"side-{t}"]
        if form.get(f"tok-{t}") in TOKEN_TYPES:
            cs["tiles"][t]["token_type"] = form[f"tok-{t}"]
        for s in ("A", "B"):
            for k, short in (("resources", "res"), ("batteries", "bat")):
                cs["tiles"][t][s][k] = f.int(f"{short}-{t}-{s}", f"tiles.{t}.{s}.{k}", 1, 30, cs["tiles"][t][s][k])
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
    values = {}
    for k in VALUE_KEYS:
        raw = (form.get(f"value-{k}") or "").strip()
        if raw and Fraction(getattr(Values(), k)) != _fraction_or_none(raw):
            values[k] = raw[:20]
    cs["values"] = values
    cs["duct_tape_pays_resources"] = form.get("duct_tape_pays_resources") == "1"

    seat = {**seat}
    seat["inventory"] = {k: f.int(f"inv-{k}", f"inventory.{k}", 0, 999, seat["inventory"][k]) for k in INV_ITEMS}
    seat["tokens"] = {w: {t: f.int(f"{w}-{t}", f"tokens.{w}.{t}", 0, 20, seat["tokens"][w][t]) for t in TOKEN_TYPES}
                      for w in ("unplaced", "placed")}
    seat["class_status"] = {k: f.int(k, f"class_cards.{k}", 0, 9, seat["class_status"][k])
                            for k in ("meeting_d", "meeting_c")}
    seat["friendships"] = f.int("friendships", "friendships", 0, FRIENDSHIP_CAP, seat["friendships"])
    seat["completed"] = [t for t in COMP_TYPES if form.get(f"done-{t}") == "1"]
    seat["robots"] = _robots_from_form(form, f, seat["robots"])
    return cs, seat, f.problems


def _fraction_or_none(text: str) -> Fraction | None:
    try:
        return parse_fraction(text)
    except (ValueError, TypeError, OverflowError):
        return None


def _robots_from_form(form, f: _Form, old: list[dict]) -> list[dict]:
    robots = []
    count = f.int("robots", "robots", 0, MAX_ROBOTS, len(old)) or 0
    for i in [*range(count), "new"]:
        p = f"r{i}-"
        row = form.get(p + "row", "")
        if row not in ("design", "fabricate", "recycle") or form.get(p + "del") == "1":
            continue
        if i == "new" and (form.get("action") != "add-robot" or len(robots) >= MAX_ROBOTS):
            continue
        src = f.int(p + "src", f"robots[{i}]", 0, MAX_ROBOTS - 1, None)
        base = dict(old[src]) if isinstance(src, int) and src < len(old) else {}
        path = f"robots[{len(robots)}]"
        e1 = f.int(p + "e1", path + ".cost_energy", 0, 20, None, blank=-1)
        c1 = f.int(p + "c1", path + ".cost_resources", 0, 20, None, blank=-1)
        e2 = f.int(p + "e2", path + ".cost_energy", 0, 20, None, blank=-1)
        c2 = f.int(p + "c2", path + ".cost_resources", 0, 20, None, blank=-1)
        up = f.int(p + "up", path + ".upgraded_energy", 1, 7, None, blank=0)
        base.update({
            "row": row, "any_row": form.get(p + "any") == "1", "upgraded": form.get(p + "upgraded") == "1",
            "needs_microchip": form.get(p + "chip") == "1",
            "cost_energy": [v for v in (e1, e2) if isinstance(v, int) and v >= 0],
            "cost_resources": [v for v in (c1, c2) if isinstance(v, int) and v >= 0],
            "basic_energy": f.int(p + "basic", path + ".basic_energy", 1, 7, 1) or 1,
            "upgraded_energy": up or None, "vp": f.int(p + "vp", path + ".vp", 0, 20, 0) or 0,
        })
        if len(base["cost_energy"]) != len(base["cost_resources"]):
            f.problems.append({"path": path, "message": "give each cost column both its energy and its resources"})
        robots.append(base)
    return robots


def _stored(cs: dict) -> dict:
    """What the table keeps: tile numbers and card values only where they differ from the data file."""
    out = {**cs, "tiles": {}, "card_values": {}}
    for t in COMP_TYPES:
        d, tile = default_tile(t), cs["tiles"][t]
        diff = {"token_type": tile["token_type"]} if tile["token_type"] != d["token_type"] else {}
        for s in ("A", "B"):
            sd = {k: v for k, v in tile[s].items() if v != d[s][k]}
            if sd:
                diff[s] = sd
        if diff:
            out["tiles"][t] = diff
    for cid, vals in cs["card_values"].items():
        if vals != list(GAME_DATA.cards[cid].values.value):
            out["card_values"][cid] = vals
    return out


def _seat_update(state: dict, seat_index: int, seat: dict) -> None:
    """Write the seat's fields this page owns into rr_players (other pages' fields stay)."""
    players = list(as_list(state.get("rr_players")))
    while len(players) <= seat_index:
        players.append({})
    own = dict(as_dict(players[seat_index]))
    if own.get("completed") != seat["completed"]:
        own.pop("competitions_completed", None)  # a count typed on the score page is now out of date
    own.update({k: seat[k] for k in SEAT_KEYS})
    players[seat_index] = own
    state["rr_players"] = players


def _save(table, cs: dict, seat_index: int | None = None, seat: dict | None = None,
          round_to: int | None = None) -> object:
    """Write this page's keys on the newest state (update_table re-applies them when another phone saved
    first): rr_competitions, the seat's fields this page owns, and the table's round (`round_to`, or the
    legacy marker moved there). Returns the table as saved."""
    def mutate(state: dict) -> dict:
        state = with_round(state, round_to)
        state[STATE_KEY] = _stored(cs)
        if seat is not None:
            _seat_update(state, seat_index, seat)
        return state
    try:
        return update_table(table, mutate)
    except store.Conflict:
        flash("Not saved with the table: it kept changing. Try again.", "error")
        return table


def _catch_up_change(state: dict) -> dict:
    """The change a page load makes when the table's round moved on without this helper (or the round still
    sits in the legacy marker): worked out on the newest state, so it is right whoever saved in between."""
    cs, _ = catch_up(clean_comp_state(state.get(STATE_KEY)), current_round(state))
    state = with_round(state)
    state[STATE_KEY] = _stored(cs)
    return state


def _keep_catch_up(table) -> object:
    try:
        return update_table(table, _catch_up_change)
    except store.Conflict:
        return table  # the next page load tries again


def _seat_names(table) -> list[str]:
    return seat_names(table)


def _seat_of(table, names: list[str]) -> tuple[int, dict]:
    try:
        i = int(request.values.get("seat", "0"))
    except ValueError:
        i = 0
    i = min(max(i, 0), len(names) - 1)
    players = as_list(table.state.get("rr_players")) if table is not None else []
    raw = players[i] if i < len(players) else {}
    return i, clean_seat(raw)


def _applied_note(result: dict, name: str) -> str:
    steps = result["plan"]["steps"]
    done = ", ".join(s["name"] for s in steps)
    return (f"Applied: {name} completed {done}. Inventory, tokens and Friendship cards are updated; "
            f"{'that tile turns' if len(steps) == 1 else 'those tiles turn'} to the B side at the end of the round.")


def class_from_cards(seat: dict) -> dict | None:
    """Class cards meeting D / C or better, from the grades entered on the score page (None when a card's
    grade is not typed in, or there are none)."""
    cards = seat.get("class_cards") if isinstance(seat.get("class_cards"), list) else []
    grades = [c.get("grade") for c in cards if isinstance(c, dict)]
    if not grades or not all(g in ("none", "D", "C", "B", "A") for g in grades):
        return None
    return {"meeting_d": sum(g in ("D", "C", "B", "A") for g in grades),
            "meeting_c": sum(g in ("C", "B", "A") for g in grades)}


def _round_events(table, cs: dict) -> tuple[dict, list[dict], int]:
    """The competitions state caught up with the table's round (tile flips it passed), the flips, the round."""
    rnd = current_round(table.state) if table is not None else 1
    if table is None:
        return cs, [], rnd
    cs, events = catch_up(cs, rnd)
    return cs, events, rnd


def _rule_lists(result: dict | None) -> dict:
    """Which rule ids the page shows where: each step its own (minus the ones every step shares), each
    competition its card, and the rest once under the plan."""
    if not result:
        return {"general": []}
    shown = {i for s in result["plan"]["steps"] for i in s["rules"] if i not in COMMON_RULES}
    shown |= {e["rules"][0] for e in result["eligible"]}
    return {"general": [i for i in result["rules"] if i not in shown]}


@bp.route("/raising-robots/competitions", methods=["GET", "POST"])
def planner_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]
    names = _seat_names(table)
    seat_index, seat = _seat_of(table, names)
    players = as_list(table.state.get("rr_players")) if table is not None else []
    raw_seat = as_dict(players[seat_index]) if seat_index < len(players) else {}
    from_cards = class_from_cards(seat)
    if from_cards and "class_status" not in raw_seat:
        seat["class_status"] = from_cards  # grades typed on the score page, until this page saves its own
    cs = clean_comp_state(state_part(table, STATE_KEY))
    cs, events, rnd = _round_events(table, cs)
    problems: list[dict] = []
    note = None
    if request.method == "POST":
        cs, seat, problems = form_to_state(request.form, cs, seat)
        for e in events:  # the page was drawn before the round moved on: its side buttons are out of date
            if e["flipped"]:
                cs["sides"][e["type"]] = "B"
        result, plan_problems = plan_for_page(cs, seat)
        if request.form.get("action") == "apply" and result and not problems and result["plan"]["steps"]:
            note = _applied_note(result, names[seat_index] if len(names) > 1 else "you")
            cs, seat = apply_plan(cs, seat, result, rnd)
            result, plan_problems = plan_for_page(cs, seat)
        if table is not None and not problems:
            table = _save(table, cs, seat_index, seat)
            ctx["table"] = table
    else:
        if table is None:  # cards and sides handed over by the setup helper
            for crit in request.args.getlist("card"):
                if crit in CRITERIA:
                    cs["cards"][CRITERIA[crit]] = crit
            for t in COMP_TYPES:
                if request.args.get(f"side-{t}") in ("A", "B"):
                    cs["sides"][t] = request.args[f"side-{t}"]
        elif events or _legacy_marker(table.state) is not None:
            table = _keep_catch_up(table)  # the round moved on: keep the flips it brought
            ctx["table"] = table
        result, plan_problems = plan_for_page(cs, seat)
    status = 400 if request.method == "POST" and (problems or plan_problems) else 200
    titles = rule_titles([*ALL_RULES, R_TILE_COSTS, R_TOKEN_TYPES])
    return render_template(
        "raising_robots/competitions.html", cs=cs, seat=seat, seat_index=seat_index, names=names, result=result,
        problems=problems + plan_problems, note=note, events=events, round=rnd, data=GAME_DATA,
        comp_types=COMP_TYPES, comp_names=COMP_NAMES, short_names=SHORT_NAMES, token_types=TOKEN_TYPES, token_labels=TOKEN_LABELS,
        inv_items=INV_ITEMS, item_labels=ITEM_LABELS, value_keys=VALUE_KEYS, value_labels=VALUE_LABELS,
        defaults=Values(), vp_text=vp_text, default_tile=default_tile, rule_titles=titles,
        common_rules=COMMON_RULES, rule_lists=_rule_lists(result), from_cards=from_cards,
        version=table.version if table is not None else "", **ctx), status


def _setup_from_form(cs: dict, rnd: int) -> tuple[dict, int]:
    """Without a table the setup travels in the form: cards, sides, tracker and round."""
    form = request.form
    cs = {**cs, "cards": dict(cs["cards"]), "sides": dict(cs["sides"])}
    for t in COMP_TYPES:
        if CRITERIA.get(form.get(f"card-{t}", "")) == t:
            cs["cards"][t] = form[f"card-{t}"]
        if form.get(f"side-{t}") in ("A", "B"):
            cs["sides"][t] = form[f"side-{t}"]
    tracker = []
    for i in range(4):
        r, tok = form.get(f"trk-{i}-round", ""), form.get(f"trk-{i}-type", "")
        if r.isdigit() and 1 <= int(r) <= ROUNDS and tok in TOKEN_TYPES:
            tracker.append({"round": int(r), "token_type": tok})
    key = "round" if "round" in form else "marker"  # "marker": a page drawn before the round moved to the table
    if key in form:
        cs["tracker"] = tracker
        m = form.get(key, "")
        rnd = int(m) if m.isdigit() and 1 <= int(m) <= MAX_TABLE_ROUND else rnd
    return cs, rnd


SETUP_PAGE_RULES = ["rr-competitions-friendships-changes-to-setup", "rr-setup-solo-2p-tokens",
                    "rr-solo-2p-gameplay-changes", "rr-flip-tile-round-end", "rr-important-same-round-same-side",
                    "rr-competition-card-and-tile-overview"]


@bp.route("/raising-robots/competitions/setup", methods=["GET", "POST"])
def setup_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]
    cs = clean_comp_state(state_part(table, STATE_KEY))
    cs, events, rnd = _round_events(table, cs)
    players = cs["players"] or (table.players if table is not None else 1)
    problems: list[dict] = []
    note = None
    caught_up = bool(events)
    round_to = None
    if request.method == "POST":
        if table is None:
            cs, rnd = _setup_from_form(cs, rnd)
        else:  # with a table only the side buttons come from the form; the rest is the table's
            cs = {**cs, "sides": {t: request.form.get(f"side-{t}") if request.form.get(f"side-{t}") in ("A", "B")
                                  else side for t, side in cs["sides"].items()}}
        action = request.form.get("action", "")
        f = _Form(request.form)
        players = f.int("players", "players", 1, 6, players) or players
        problems = f.problems
        if action == "deal" and not problems:
            dealt = run_setup(SetupIn(players=players))
            cs = {**cs, "cards": {c["type"]: c["criterion"] for c in dealt["cards"]}, "sides": dealt["sides"],
                  "tracker": [{"round": s["round"], "token_type": s["token_type"]} for s in dealt["tracker"]],
                  "completed_this_round": [], "completed_round": None, "players": players}
            rnd = round_to = 1
            events, caught_up = [], False
            note = "Dealt one card of each competition; every tile shows its A side; the table is on round 1."
        elif action == "round-end" and not problems:
            done = [t for t in COMP_TYPES if request.form.get(f"done-{t}") == "1"]
            if rnd >= ROUNDS:
                problems.append({"path": "round", "message": f"round {rnd} is the last: the game ends after it"})
            else:
                out = run_round(RoundIn(marker_to=rnd + 1, sides=cs["sides"], completed_this_round=done,
                                        tracker=[SpotIn(**s) for s in cs["tracker"]]))
                cs = {**cs, "sides": out["sides"], "completed_this_round": [], "completed_round": None,
                      "tracker": [{"round": s["round"], "token_type": s["token_type"]} for s in out["tracker"]]}
                rnd = round_to = out["marker_to"]
                events, caught_up = out["events"], False
                note = f"Round {rnd} begins: the round marker moved." + ("" if events else " No tile turns over.")
        elif action == "sides" and not problems:
            for e in events:
                if e["flipped"]:
                    cs["sides"][e["type"]] = "B"
            note = "Tile sides saved."
        cs["players"] = players
        if table is not None and not problems:
            table = _save(table, cs, round_to=round_to)
            ctx["table"] = table
    elif table is not None and (events or _legacy_marker(table.state) is not None):
        table = _keep_catch_up(table)  # keep the flips the table's round brought, and the migrated round
        ctx["table"] = table
    planner_args = {"card": [c for c in cs["cards"].values() if c],
                    **{f"side-{t}": s for t, s in cs["sides"].items() if s == "B"}}
    rules = SETUP_PAGE_RULES if players <= 2 else [i for i in SETUP_PAGE_RULES if "solo" not in i]
    return render_template(
        "raising_robots/competitions_setup.html", cs=cs, players=players, events=events, caught_up=caught_up,
        round=rnd, rounds=ROUNDS, note=note, problems=problems, data=GAME_DATA, comp_types=COMP_TYPES,
        comp_names=COMP_NAMES, token_labels=TOKEN_LABELS, tile_of=setup.tile_of, rule_titles=rule_titles(rules),
        planner_args=planner_args, setup_rules=rules,
        version=table.version if table is not None else "", **ctx), 400 if problems else 200
