"""Raising Robots: end-game score, round-end abilities and activation chains (API and pages).

JSON: POST /api/raising-robots/score, /score/compare, /round-end, /activations/check,
GET /api/raising-robots/activations/example. Pages: /raising-robots/score, /round-end, /activations.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Literal

from flask import Blueprint, flash, jsonify, render_template, request
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from solvers.raising_robots import activations as act
from solvers.raising_robots import round_end as rend
from solvers.raising_robots import scoring
from solvers.raising_robots.model import Robot

from .. import table_store as store
from ..api import ApiError, bad_field, parse, validation_error
from ..page_helpers import as_dict, as_list, seat_names, state_part, table_context, update_table
from .rr_models import InventoryIn, RobotIn, rule_titles

bp = Blueprint("rr_score", __name__)

TOOLS = [
    ("raising-robots", "Final score", "rr_score.score_page",
     "Every player's score line by line, Game End icons, tie-breakers and the solo target."),
    ("raising-robots", "Round end", "rr_score.round_end_page",
     "Johannes, Charlotte, Sacagawea and Friendship gains in the order you choose."),
    ("raising-robots", "Activation chains", "rr_score.activations_page",
     "Check that no robot runs twice in one activation (Finite Loops Example)."),
]

# ---- game data ----------------------------------------------------------------------------------

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "raising_robots" / "scoring.toml"
SOURCES = ("rulebook", "public", "unverified")
RULE_NEW_OBJECTIVES = "rr-new-class-objectives"
COUNTS = ("competitions_completed", "inventory_vp")


def _load_data(path: Path = DATA_FILE) -> dict:
    """Read and check scoring.toml; a broken file stops the app at start, not in a request."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    templates = {}
    for i, card in enumerate(data.get("class_cards", [])):
        missing = {"id", "name", "counts", "text", "source", "section", "thresholds_source"} - set(card)
        if missing:
            raise ValueError(f"{path.name}: class_cards[{i}] lacks {sorted(missing)}")
        if card["counts"] not in COUNTS or card["source"] not in SOURCES or card["thresholds_source"] not in SOURCES:
            raise ValueError(f"{path.name}: class_cards[{i}] has an unknown counts or source")
        templates[card["id"]] = card
    slot = data["slot_extra_cost"]
    if (len(slot["by_column"]) != scoring.COLUMNS or slot["source"] not in SOURCES
            or not all(isinstance(v, int) and v >= 0 for v in slot["by_column"])):
        raise ValueError(f"{path.name}: slot_extra_cost needs {scoring.COLUMNS} whole numbers and a source")
    return {"class_cards": templates, "slot_extra_cost": slot}


DATA = _load_data()

# ---- request models -----------------------------------------------------------------------------

Grade = Literal["none", "D", "C", "B", "A"]
SCORED_GRADES = ("D", "C", "B", "A")


class GameEndIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["a_grade", "microchip_robots", "resource_pairs", "vp56_robots", "full_columns"]
    resource: Literal["sensor", "gear", "microchip", "program"] | None = None

    @model_validator(mode="after")
    def _resource(self) -> GameEndIn:
        if self.kind == "resource_pairs" and self.resource is None:
            raise ValueError("resource_pairs needs the resource its icon shows (sensor, gear, microchip or program)")
        return self


class ScoreRobotIn(RobotIn):
    game_end: GameEndIn | None = None

    def to_solver(self) -> Robot:
        robot = super().to_solver()
        return replace(robot, game_end=self.game_end.model_dump() if self.game_end else None)


class ClassCardIn(BaseModel):
    """A class card: the grade met before Extra Credit, or (for a card whose count Tablebot knows or
    is given) its thresholds and the count, from which the grade follows."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="", max_length=60)
    grade: Grade | None = None
    extra_credit: bool = False
    vp_by_grade: dict[str, int] = Field(default_factory=dict, max_length=4)
    template: str | None = Field(default=None, max_length=40)
    count: int | None = Field(default=None, ge=0, le=999)
    thresholds: dict[str, int] = Field(default_factory=dict, max_length=4)

    @field_validator("vp_by_grade", "thresholds")
    @classmethod
    def _grades(cls, value: dict[str, int]) -> dict[str, int]:
        for g, v in value.items():
            if g not in SCORED_GRADES:
                raise ValueError(f"{g!r} is not a grade: use D, C, B or A")
            if not 0 <= v <= 999:
                raise ValueError(f"the value for {g} must be between 0 and 999")
        return value

    @model_validator(mode="after")
    def _check(self) -> ClassCardIn:
        if self.template is not None and self.template not in DATA["class_cards"]:
            raise ValueError(f"template must be one of {', '.join(DATA['class_cards'])}")
        if self.grade is None and not self.thresholds:
            raise ValueError("give the grade met (none, D, C, B or A), or the card's thresholds and the count")
        return self


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="", max_length=40)
    inventory: InventoryIn = Field(default_factory=InventoryIn)
    robots: list[ScoreRobotIn] = Field(default_factory=list, max_length=15)
    class_cards: list[ClassCardIn] = Field(default_factory=list, max_length=3)
    competitions_completed: int | None = Field(default=None, ge=0, le=4)


class SoloIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    threshold: int = Field(ge=0, le=999)
    mode: Literal["single", "campaign"] = "single"
    competitions: bool = True


class CompareIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: list[PlayerIn] = Field(min_length=1, max_length=6)
    solo: SoloIn | None = None


WildItem = Literal["sensor", "gear", "microchip", "program", "robot_cards"]
# item dicts are keyed by plain strings: the solver names a wrong key as its own field
# (abilities[0].pay_wilds.duct_tape: "only sensor, gear, ... can pay here")
Items = dict[str, int]


class AbilityIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: Literal[tuple(rend.ABILITIES)]  # type: ignore[valid-type]
    upgraded: bool = False
    part: Literal["all", "base", "upgrade"] = "all"
    action: Literal["skip", "assemble", "unlock"] = "skip"
    pay_wilds: Items = Field(default_factory=dict, max_length=6)
    robot: RobotIn | None = None
    payment: Items = Field(default_factory=dict, max_length=6)
    extra_cost: int = Field(default=0, ge=0, le=20)
    gain_wild: WildItem | None = None
    search: bool = True
    reward: Literal["battery_and_card", "vp"] | None = None
    per_robot: list[Literal["batteries", "sensor", "gear", "microchip", "program", "robot_cards"]] = Field(
        default_factory=list, max_length=15)

    @field_validator("pay_wilds", "payment")
    @classmethod
    def _counts(cls, value: dict[str, int]) -> dict[str, int]:
        for item, v in value.items():
            if not 0 <= v <= 99:
                raise ValueError(f"{item} must be between 0 and 99")
        return value

    def to_solver(self) -> rend.Ability:
        return rend.Ability(
            id=self.id, upgraded=self.upgraded, part=self.part, action=self.action,
            pay_wilds={k: v for k, v in self.pay_wilds.items() if v},
            robot=self.robot.to_solver() if self.robot else None,
            payment={k: v for k, v in self.payment.items() if v}, extra_cost=self.extra_cost,
            gain_wild=self.gain_wild,
            search=self.search, reward=self.reward, per_robot=tuple(self.per_robot))


class RoundEndIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    inventory: InventoryIn = Field(default_factory=InventoryIn)
    robots: list[RobotIn] = Field(default_factory=list, max_length=15)
    abilities: list[AbilityIn] = Field(default_factory=list, max_length=12)
    sacagawea_ongoing: bool | None = None


class ChainIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phase: Literal["design", "fabricate", "recycle"] | None = None
    energy: int | None = Field(default=None, ge=0, le=30)
    steps: list = Field(max_length=act.MAX_NODES)


# ---- solver calls shared by the API and the pages ------------------------------------------------

def _class_card(card: ClassCardIn, j: int, player: PlayerIn, prefix: str) -> scoring.ClassCard:
    grade = card.grade
    if card.thresholds:
        count = card.count
        counts = DATA["class_cards"][card.template]["counts"] if card.template else None
        if count is None and counts == "inventory_vp":
            count = player.inventory.vp
        if count is None and counts == "competitions_completed":
            count = player.competitions_completed
        if count is None:
            raise bad_field(f"{prefix}class_cards[{j}].count", "give the count the card's objective reached")
        derived = scoring.grade_for(count, card.thresholds)
        if grade is not None and grade != derived:
            raise bad_field(f"{prefix}class_cards[{j}].grade",
                            f"grade {grade} does not match count {count} on these thresholds (grade {derived})")
        grade = derived
    return scoring.ClassCard(grade, dict(card.vp_by_grade), card.extra_credit, card.name)


def score_player(player: PlayerIn, prefix: str = "") -> tuple[scoring.Score, list[scoring.ClassCard], bool]:
    """The score, the class cards as scored, and whether one of them is a new Friends class objective."""
    cards = [_class_card(c, j, player, prefix) for j, c in enumerate(player.class_cards)]
    try:
        result = scoring.score(player.inventory.to_solver(), [r.to_solver() for r in player.robots], cards)
    except scoring.ScoreInputError as e:
        raise bad_field(prefix + e.path, e.message) from None
    return result, cards, any(c.template for c in player.class_cards)


def score_json(result: scoring.Score, cards: list[scoring.ClassCard], new_objectives: bool = False) -> dict:
    rules = list(scoring.score_rules(result)) + ([RULE_NEW_OBJECTIVES] if new_objectives else [])
    return {
        "robots": result.robots, "class_cards": result.class_cards, "inventory_vp": result.inventory_vp,
        "leftovers": result.leftovers, "game_end": result.game_end, "total": result.total,
        "lines": [{"what": ln.what, "vp": ln.vp, "why": ln.why, "kind": ln.kind, "rule": ln.rule,
                   "rules": list(ln.rules)} for ln in result.lines],
        "grades": [{"name": c.name, "met": c.grade, "final": c.final_grade(), "vp": c.vp()} for c in cards],
        "full_columns": list(result.columns),
        "rules": rules,
    }


def compare(body: CompareIn) -> dict:
    if body.solo is not None and len(body.players) != 1:
        raise bad_field("solo", "a solo target needs exactly one player")
    scored = [score_player(p, f"players[{i}].") for i, p in enumerate(body.players)]
    names = [p.name or f"Player {i + 1}" for i, p in enumerate(body.players)]
    standings = scoring.standings([(n, s) for n, (s, _, _) in zip(names, scored, strict=True)])
    out: dict = {
        "standings": [{"name": s.name, "place": s.place, "total": s.total, "robots": s.robots,
                       "class_cards": s.class_cards, "decided_by": s.decided_by} for s in standings],
        "scores": [dict(score_json(*sc), name=n) for n, sc in zip(names, scored, strict=True)],
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


def round_end(body: RoundEndIn) -> dict:
    try:
        r = rend.run(body.inventory.to_solver(), [x.to_solver() for x in body.robots],
                     [a.to_solver() for a in body.abilities], body.sacagawea_ongoing)
    except (rend.RoundEndInputError, scoring.ScoreInputError) as e:
        raise bad_field(e.path, e.message) from None
    return {
        "inventory_after": r.inventory_after.as_dict(),
        "robots_after": [_robot_json(x) for x in r.robots_after],
        "tokens_unlocked": r.tokens_unlocked,
        "steps": [{"ability": s.ability, "part": s.part, "name": s.name, "gained": s.gained, "why": s.why,
                   "rule": s.rule, "rules": list(s.rules), "link": s.link, "index": s.index,
                   "robot_added": _robot_json(s.robot_added) if s.robot_added else None} for s in r.steps],
        "notes": list(r.notes),
        "rules": list(dict.fromkeys([*rend.RULE_ORDER, *(i for s in r.steps for i in s.rules)])),
    }


def _robot_json(r: Robot) -> dict:
    return {"row": r.row, "column": r.column, "any_row": r.any_row, "cost_energy": list(r.cost_energy),
            "cost_resources": list(r.cost_resources), "basic_energy": r.basic_energy,
            "upgraded_energy": r.upgraded_energy, "upgraded": r.upgraded, "vp": r.vp,
            "needs_microchip": r.needs_microchip}


def check_chain(body: ChainIn) -> dict:
    try:
        steps = act.parse_steps(body.steps, "steps")
    except act.ChainInputError as e:
        raise bad_field(e.path, e.message) from None
    r = act.check(steps, body.phase, body.energy)
    return {
        "ok": r.ok,
        "nodes": [{"path": n.path, "depth": n.depth, "kind": n.kind, "label": n.label, "text": n.text,
                   "energy": n.energy, "status": n.status, "why": n.why, "activation": n.activation}
                  for n in r.nodes],
        "activations": list(r.activations),
        "problems": list(r.problems),
        "rules": [act.RULE_RUN, act.RULE_EXAMPLE],
    }


# ---- JSON API -----------------------------------------------------------------------------------

@bp.post("/api/raising-robots/score")
def api_score():
    player = parse(PlayerIn)
    return jsonify(score_json(*score_player(player)))


@bp.post("/api/raising-robots/score/compare")
def api_compare():
    return jsonify(compare(parse(CompareIn)))


@bp.post("/api/raising-robots/round-end")
def api_round_end():
    return jsonify(round_end(parse(RoundEndIn)))


@bp.post("/api/raising-robots/activations/check")
def api_activations():
    return jsonify(check_chain(parse(ChainIn)))


@bp.get("/api/raising-robots/activations/example")
def api_activations_example():
    """The rulebook's Finite Loops Example (and the variant it forbids) as request bodies, checked."""
    good, bad = act.FINITE_LOOPS_EXAMPLE, act.finite_loops_variant()
    return jsonify({"example": good, "check": check_chain(ChainIn.model_validate(good)),
                    "variant": bad, "variant_check": check_chain(ChainIn.model_validate(bad))})


# ---- pages: shared pieces ---------------------------------------------------------------------------

ITEMS = ("sensor", "gear", "microchip", "program", "duct_tape", "battery", "vp", "robot_cards")
ITEM_NAMES = {"sensor": "Sensors", "gear": "Gears", "microchip": "Microchips", "program": "Programs",
              "duct_tape": "Duct tape", "battery": "Batteries", "vp": "VP in inventory",
              "robot_cards": "Robot cards in hand"}
ROW_NAMES = {"design": "Design", "fabricate": "Fabricate", "recycle": "Recycle"}
GRADE_CHOICES = ("none", "D", "C", "B", "A")
GAME_END_CHOICES = (
    ("", "no icon"), ("a_grade", "A grade = 3 VP"), ("microchip_robots", "2 microchip robots = 3 VP"),
    ("resource_pairs:sensor", "2 sensors = 1 VP"), ("resource_pairs:gear", "2 gears = 1 VP"),
    ("resource_pairs:microchip", "2 microchips = 1 VP"), ("resource_pairs:program", "2 programs = 1 VP"),
    ("vp56_robots", "2 robots of 5-6 VP = 3 VP"), ("full_columns", "full column = 4 VP"))
ACTIVATION_RULES = ["rr-run-a-phase-row-energy-action", "rr-important-one-activation-per-robot",
                    "rr-finite-loops-example", "rr-finite-loops-tip"]
# every rule id these pages may link (the pages draw titles for them from the rules assistant)
PAGE_RULE_IDS = sorted(set(scoring.ALL_RULES) | set(rend.ALL_RULES) | set(ACTIVATION_RULES) | {RULE_NEW_OBJECTIVES})


def _form_int(form, name: str, lo: int, hi: int, default: int | None, problems: list[dict],
              label: str) -> int | None:
    """A whole number from the form; blank gives the default; anything else is a problem named by field."""
    raw = (form.get(name) or "").strip()
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        problems.append({"path": name, "message": f"{label}: type a whole number"})
        return default
    if not lo <= value <= hi:
        problems.append({"path": name, "message": f"{label}: must be {lo} to {hi}"})
        return default
    return value


def _seat_count(table, form_or_args) -> int:
    if table is not None:
        return max(1, min(6, table.players))
    try:
        return max(1, min(6, int(form_or_args.get("players", "1"))))
    except ValueError:
        return 1


def _names(table, n: int) -> list[str]:
    if table is not None:
        return seat_names(table, n)
    return [f"Player {i + 1}" for i in range(n)]


def _clean_seat(raw) -> dict:
    """A seat of `rr_players` as the pages use it: unknown keys kept, known ones made safe to read."""
    seat = dict(raw) if isinstance(raw, dict) else {}
    inv = seat.get("inventory") if isinstance(seat.get("inventory"), dict) else {}
    seat["inventory"] = {k: v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 999 else 0
                         for k, v in ((k, inv.get(k, 0)) for k in ITEMS)}
    seat["robots"] = [dict(r) for r in seat.get("robots", []) if isinstance(r, dict)][:15] \
        if isinstance(seat.get("robots"), list) else []
    seat["class_cards"] = [dict(c) for c in seat.get("class_cards", []) if isinstance(c, dict)][:3] \
        if isinstance(seat.get("class_cards"), list) else []
    return seat


def _seats_from(raw, n: int) -> list[dict]:
    raw = raw if isinstance(raw, list) else []
    return [_clean_seat(raw[i] if i < len(raw) else {}) for i in range(n)]


def _seats_json(form) -> list:
    try:
        data = json.loads(form.get("players_json") or "[]")
    except ValueError:
        return []
    return data if isinstance(data, list) else []


def slots_of(seat: dict) -> dict[str, dict]:
    """Robots by slot key "design-1": a robot's own column when free, else the leftmost free one."""
    taken: dict[str, dict] = {}
    later = []
    for r in seat["robots"]:
        row, col = r.get("row"), r.get("column")
        if row not in ROW_NAMES:
            continue
        if isinstance(col, int) and 1 <= col <= 5 and f"{row}-{col}" not in taken:
            taken[f"{row}-{col}"] = r
        else:
            later.append(r)
    for r in later:
        free = [c for c in range(1, 6) if f"{r['row']}-{c}" not in taken]
        if free:
            taken[f"{r['row']}-{free[0]}"] = {**r, "column": free[0]}
    return taken


def ge_value(robot: dict) -> str:
    ge = robot.get("game_end")
    if not isinstance(ge, dict):
        return ""
    if ge.get("kind") == "resource_pairs":
        return f"resource_pairs:{ge.get('resource')}"
    return str(ge.get("kind") or "")


def _ge_from_value(value: str) -> dict | None:
    if not value:
        return None
    kind, _, resource = value.partition(":")
    return {"kind": kind, "resource": resource} if resource else {"kind": kind}


def seat_from_form(form, old: dict) -> tuple[dict, list[dict]]:
    """The seat the score form describes, on top of the stored seat (keys other pages own are kept)."""
    problems: list[dict] = []
    seat = dict(old)
    seat["inventory"] = {k: _form_int(form, f"inv-{k}", 0, 999, old["inventory"].get(k, 0), problems,
                                      ITEM_NAMES[k]) for k in ITEMS}
    old_slots = slots_of(old)
    robots = []
    valid_ge = {v for v, _ in GAME_END_CHOICES}
    for row, row_name in ROW_NAMES.items():
        for col in range(1, 6):
            key = f"{row}-{col}"
            vp = _form_int(form, f"s-{key}-vp", 0, 20, None, problems, f"{row_name} column {col} VP")
            if vp is None:
                continue
            robot = dict(old_slots.get(key, {}))
            ge = form.get(f"s-{key}-ge", "")
            robot.update(row=row, column=col, vp=vp, needs_microchip=bool(form.get(f"s-{key}-chip")),
                         upgraded=bool(form.get(f"s-{key}-up")),
                         game_end=_ge_from_value(ge if ge in valid_ge else ""))
            robots.append(robot)
    seat["robots"] = robots
    cards = []
    for j in range(3):
        grade = form.get(f"c{j}-grade", "")
        if grade not in (*GRADE_CHOICES, "auto"):
            continue  # "" = no card in this place
        card: dict = {"name": (form.get(f"c{j}-name") or "").strip()[:60], "grade": grade,
                      "extra_credit": bool(form.get(f"c{j}-ec")), "vp_by_grade": {}, "thresholds": {}}
        for g in ("D", "C", "B", "A"):
            v = _form_int(form, f"c{j}-vp-{g}", 0, 99, None, problems, f"Class card {j + 1} VP for {g}")
            if v is not None:
                card["vp_by_grade"][g] = v
            t = _form_int(form, f"c{j}-th-{g}", 0, 999, None, problems, f"Class card {j + 1} threshold {g}")
            if t is not None:
                card["thresholds"][g] = t
        template = form.get(f"c{j}-template", "")
        if template in DATA["class_cards"]:
            card["template"] = template
        count = _form_int(form, f"c{j}-count", 0, 999, None, problems, f"Class card {j + 1} count")
        if count is not None:
            card["count"] = count
        cards.append(card)
    seat["class_cards"] = cards
    comp = _form_int(form, "competitions_completed", 0, 4, None, problems, "Competitions completed")
    listed = len(old["completed"]) if isinstance(old.get("completed"), list) else None
    seat.pop("competitions_completed", None)
    if comp is not None and comp != listed:  # else the planner's list of completed competitions says it
        seat["competitions_completed"] = comp
    return seat, problems


def player_body(seat: dict, name: str) -> dict:
    """The PlayerIn body for a stored seat (only the fields the score reads)."""
    cards = []
    for c in seat["class_cards"]:
        card = {k: c[k] for k in ("name", "extra_credit", "vp_by_grade", "template", "count", "thresholds")
                if k in c and c[k] not in (None, {}, "")}
        if c.get("grade") in GRADE_CHOICES:
            card["grade"] = c["grade"]
        cards.append(card)
    robot_keys = ("row", "column", "vp", "needs_microchip", "upgraded", "game_end", "any_row")
    body = {"name": name, "inventory": seat["inventory"],
            "robots": [{k: r[k] for k in robot_keys if k in r} for r in slots_of(seat).values()],
            "class_cards": cards}
    comp = seat.get("competitions_completed")
    if comp is None and isinstance(seat.get("completed"), list):
        comp = len(seat["completed"])
    if isinstance(comp, int) and 0 <= comp <= 4:
        body["competitions_completed"] = comp
    return body


def _try(fn, *args) -> tuple[dict | None, list[dict]]:
    try:
        return fn(*args), []
    except ApiError as err:
        return None, err.fields or [{"path": "body", "message": err.message}]


def _score_seat(seat: dict, name: str) -> dict:
    def run():
        try:
            player = PlayerIn.model_validate(player_body(seat, name))
        except ValidationError as err:
            raise validation_error(err) from None
        return score_json(*score_player(player))
    return _try(run)


def _save(table, mutate) -> object:
    """Write our keys on the newest state (update_table re-applies `mutate` when another phone saved first)."""
    try:
        return update_table(table, lambda state: mutate(dict(state)))
    except store.Conflict:
        flash("Not saved with the table: it kept changing. Try again.", "error")
        return table


# ---- page: final score ---------------------------------------------------------------------------

def _solo_state(raw) -> dict:
    raw = raw if isinstance(raw, dict) else {}
    t = raw.get("threshold")
    return {"threshold": t if isinstance(t, int) and not isinstance(t, bool) and 0 <= t <= 999 else None,
            "mode": raw.get("mode") if raw.get("mode") in ("single", "campaign") else "single",
            "competitions": raw.get("competitions", True) is not False}


def _chart(result: dict) -> list[dict]:
    parts = [("Robots", result["robots"]), ("Class cards", result["class_cards"]),
             ("Inventory VP", result["inventory_vp"]), ("Leftovers", result["leftovers"]),
             ("Game End", result["game_end"])]
    top = max([v for _, v in parts] + [1])
    return [{"label": lab, "vp": v, "width": round(100 * v / top, 1)} for lab, v in parts]


def score_view_model(seats: list[dict], names: list[str], seat: int, solo: dict) -> dict:
    scored = [_score_seat(s, names[i]) for i, s in enumerate(seats)]
    current, problems = scored[seat]
    valid = [(names[i], r) for i, (r, _) in enumerate(scored) if r is not None]
    standings = scoring.standings([(n, _as_score(r)) for n, r in valid]) if valid else []
    broken = [names[i] for i, (r, _) in enumerate(scored) if r is None and i != seat]
    solo_result = None
    rules = list(current["rules"]) if current else [scoring.RULE_FINAL_SCORE]
    if len(seats) > 1 and scoring.RULE_END_SCORING not in rules:
        rules.append(scoring.RULE_END_SCORING)  # ties
    if len(seats) == 1 and current is not None and solo["threshold"] is not None:
        solo_result = scoring.solo_target(current["total"], solo["threshold"], solo["mode"], solo["competitions"])
        rules += scoring.solo_rules(solo_result)
    return {"result": current, "result_problems": problems, "chart": _chart(current) if current else [],
            "standings": standings, "broken": broken, "solo_result": solo_result, "score_rules": rules}


def _as_score(r: dict) -> scoring.Score:
    return scoring.Score(r["robots"], r["class_cards"], r["inventory_vp"], r["leftovers"], r["game_end"],
                         r["total"], (), tuple(r["full_columns"]))


@bp.route("/raising-robots/score", methods=["GET", "POST"])
def score_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]
    src = request.form if request.method == "POST" else request.args
    n = _seat_count(table, src)
    names = _names(table, n)
    raw_seats = (as_list(table.state.get("rr_players")) if table is not None else _seats_json(request.form))
    seats = _seats_from(raw_seats, n)
    solo = _solo_state(state_part(table, "rr_score").get("solo"))
    seat = _form_int(src, "seat", 0, n - 1, 0, [], "seat") or 0
    problems: list[dict] = []
    if request.method == "POST":
        new_seat, problems = seat_from_form(request.form, seats[seat])
        solo = {"threshold": _form_int(request.form, "solo-threshold", 0, 999, None, problems, "Solo threshold"),
                "mode": request.form.get("solo-mode") if request.form.get("solo-mode") in ("single", "campaign")
                else "single",
                "competitions": bool(request.form.get("solo-cf"))}
        seats[seat] = new_seat
        if table is not None and not problems:
            def mutate(state: dict, i: int = seat, value: dict = new_seat, solo_now: dict = solo) -> dict:
                players = list(state.get("rr_players") or []) if isinstance(state.get("rr_players"), list) else []
                players += [{} for _ in range(i + 1 - len(players))]
                base = players[i] if isinstance(players[i], dict) else {}
                players[i] = {**{k: v for k, v in base.items() if k != "competitions_completed"},
                              **{k: value[k] for k in ("inventory", "robots", "class_cards")},
                              **({"competitions_completed": value["competitions_completed"]}
                                 if "competitions_completed" in value else {})}
                state["rr_players"] = players
                state["rr_score"] = {**as_dict(state.get("rr_score")), "solo": solo_now}
                return state
            table = _save(table, mutate)
            ctx["table"] = table
        action = request.form.get("action", "")
        if action.startswith("seat-") and action[5:].isdigit() and int(action[5:]) < n:
            seat = int(action[5:])
        elif action == "add-player" and table is None and n < 6 and not problems:
            n += 1
            seats.append(_clean_seat({}))
            names = _names(None, n)
            seat = n - 1
    vm = score_view_model(seats, names, seat, solo)
    return render_template(
        "raising_robots/score.html", seats=seats, names=names, seat=seat, n=n, cur=seats[seat],
        slots=slots_of(seats[seat]), solo=solo,
        placed_for_you=[r for r in seats[seat]["robots"] if r.get("row") in ROW_NAMES
                        and not isinstance(r.get("column"), int)], problems=problems, items=ITEMS, item_names=ITEM_NAMES,
        row_names=ROW_NAMES, grades=GRADE_CHOICES, ge_choices=GAME_END_CHOICES, ge_value=ge_value,
        templates=DATA["class_cards"], players_json=json.dumps(seats, separators=(",", ":")),
        rule_titles=rule_titles([*scoring.ALL_RULES, RULE_NEW_OBJECTIVES]),
        version=table.version if table is not None else "",
        **vm, **ctx), (400 if problems else 200)


# ---- page: round end -----------------------------------------------------------------------------

PARTS = (("johannes", "base"), ("johannes", "upgrade"), ("charlotte", "base"), ("charlotte", "upgrade"),
         ("sacagawea", "base"), ("sacagawea", "upgrade"), ("temple_friendship", "base"),
         ("confucius_friendship", "base"), ("johannes_friendship", "base"))
PART_NAMES = {
    ("johannes", "base"): "Johannes: +1 of each type you have 5+ of",
    ("johannes", "upgrade"): "Johannes upgraded: +1 VP per type at 8+",
    ("charlotte", "base"): "Charlotte: 2 wilds for an assembly or an unlock",
    ("charlotte", "upgrade"): "Charlotte upgraded: +1 wild, +1 VP",
    ("sacagawea", "base"): "Sacagawea: a Search",
    ("sacagawea", "upgrade"): "Sacagawea upgraded: battery + robot card, or 2 VP",
    ("temple_friendship", "base"): "Temple (Friendship): 2 VP per full column",
    ("confucius_friendship", "base"): "Confucius (Friendship gained): per robot 1 wild or 2 batteries",
    ("johannes_friendship", "base"): "Johannes (Friendship gained): +1 of seven things",
}
WILD_NAMES = {"sensor": "Sensor", "gear": "Gear", "microchip": "Microchip", "program": "Program",
              "robot_cards": "Robot card"}
PAY_NAMES = {**{k: v for k, v in WILD_NAMES.items() if k != "robot_cards"}, "duct_tape": "Duct tape",
             "robot_cards": "Robot card"}
CONFUCIUS_CHOICES = ("batteries", "sensor", "gear", "microchip", "program", "robot_cards")


def _round_choices_from(raw) -> dict:
    """The round-end page's own entries (order and choices), safe to read."""
    raw = raw if isinstance(raw, dict) else {}
    order = raw.get("order") if isinstance(raw.get("order"), dict) else {}
    clean_order = {f"{a}-{p}": order.get(f"{a}-{p}") for a, p in PARTS
                   if isinstance(order.get(f"{a}-{p}"), int) and 1 <= order.get(f"{a}-{p}") <= 9}

    def counts(key: str, allowed) -> dict:
        d = raw.get(key) if isinstance(raw.get(key), dict) else {}
        return {k: v for k, v in d.items() if k in allowed and isinstance(v, int) and 0 <= v <= 99}

    def num(key: str, default: int, hi: int) -> int:
        v = raw.get(key)
        return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= hi else default

    return {
        "order": clean_order,
        "ch_action": raw.get("ch_action") if raw.get("ch_action") in rend.CHARLOTTE_ACTIONS else "skip",
        "ch_wilds": counts("ch_wilds", WILD_NAMES), "ch_pay": counts("ch_pay", PAY_NAMES),
        "ch_row": raw.get("ch_row") if raw.get("ch_row") in ROW_NAMES else "design",
        "ch_cost": num("ch_cost", 2, 20), "ch_vp": num("ch_vp", 3, 20), "ch_extra": num("ch_extra", 0, 20),
        "ch_chip": raw.get("ch_chip") is True,
        "ch_gain": raw.get("ch_gain") if raw.get("ch_gain") in WILD_NAMES else "",
        "sa_search": raw.get("sa_search", True) is not False,
        "sa_reward": raw.get("sa_reward") if raw.get("sa_reward") in rend.SACAGAWEA_REWARDS else "",
        "sa_ongoing": raw.get("sa_ongoing") is True,
        "co": counts("co", CONFUCIUS_CHOICES),
    }


def round_choices_from_form(form, problems: list[dict]) -> dict:
    order = {}
    for a, p in PARTS:
        v = _form_int(form, f"ord-{a}-{p}", 1, 9, None, problems, f"Order of {PART_NAMES[(a, p)]}")
        if v is not None:
            order[f"{a}-{p}"] = v

    def counts(prefix: str, names: dict | tuple, label: str) -> dict:
        out = {}
        for k in names:
            v = _form_int(form, f"{prefix}-{k}", 0, 99, 0, problems, f"{label} {k.replace('_', ' ')}")
            if v:
                out[k] = v
        return out

    return _round_choices_from({
        "order": order, "ch_action": form.get("ch-action"), "ch_wilds": counts("ch-w", WILD_NAMES, "Charlotte's wilds:"),
        "ch_pay": counts("ch-p", PAY_NAMES, "Payment for the robot:"), "ch_row": form.get("ch-row"),
        "ch_cost": _form_int(form, "ch-cost", 0, 20, 2, problems, "The robot's cheaper cost"),
        "ch_vp": _form_int(form, "ch-vp", 0, 20, 3, problems, "The robot's VP"),
        "ch_extra": _form_int(form, "ch-extra", 0, 20, 0, problems, "The slot's extra cost"),
        "ch_chip": bool(form.get("ch-chip")), "ch_gain": form.get("ch-gain"),
        "sa_search": bool(form.get("sa-search")), "sa_reward": form.get("sa-reward"),
        "sa_ongoing": bool(form.get("sa-ongoing")), "co": counts("co", CONFUCIUS_CHOICES, "Confucius:"),
    })


def round_end_body(inventory: dict, occupied: list[str], ch: dict) -> dict:
    """The round-end API body for the page's entries: the parts in the order set, with their choices."""
    chosen = sorted(((n, a, p) for (a, p) in PARTS if (n := ch["order"].get(f"{a}-{p}"))),
                    key=lambda x: (x[0], PARTS.index((x[1], x[2]))))
    abilities = []
    for _, a, p in chosen:
        ab: dict = {"id": a, "part": p, "upgraded": p == "upgrade"}
        if a == "charlotte" and p == "base":
            ab["action"] = ch["ch_action"]
            if ch["ch_action"] != "skip":
                ab["pay_wilds"] = ch["ch_wilds"]
            if ch["ch_action"] == "assemble":
                ab["robot"] = {"row": ch["ch_row"], "cost_resources": [ch["ch_cost"]], "vp": ch["ch_vp"],
                               "needs_microchip": ch["ch_chip"]}
                ab["payment"] = ch["ch_pay"]
                ab["extra_cost"] = ch["ch_extra"]
        if a == "charlotte" and p == "upgrade" and ch["ch_gain"]:
            ab["gain_wild"] = ch["ch_gain"]
        if a == "sacagawea" and p == "base":
            ab["search"] = ch["sa_search"]
        if a == "sacagawea" and p == "upgrade" and ch["sa_reward"]:
            ab["reward"] = ch["sa_reward"]
        if a == "confucius_friendship":
            ab["per_robot"] = [c for c in CONFUCIUS_CHOICES for _ in range(ch["co"].get(c, 0))]
        abilities.append(ab)
    robots = []
    for key in occupied:
        row, _, col = key.rpartition("-")
        robots.append({"row": row, "column": int(col)})
    body = {"inventory": inventory, "robots": robots, "abilities": abilities}
    if ch["sa_ongoing"]:
        body["sacagawea_ongoing"] = True
    return body


def _run_round_end(body: dict) -> tuple[dict | None, list[dict]]:
    def run():
        try:
            parsed = RoundEndIn.model_validate(body)
        except ValidationError as err:
            raise validation_error(err) from None
        return round_end(parsed)
    return _try(run)


@bp.route("/raising-robots/round-end", methods=["GET", "POST"])
def round_end_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]
    src = request.form if request.method == "POST" else request.args
    n = _seat_count(table, src)
    names = _names(table, n)
    seat = _form_int(src, "seat", 0, n - 1, 0, [], "seat") or 0
    seats = _seats_from(as_list(table.state.get("rr_players")) if table is not None else [], n)
    saved = state_part(table, "rr_round_end")
    choices = _round_choices_from((saved.get("seats") or {}).get(str(seat)) if isinstance(saved.get("seats"), dict)
                                  else None)
    inventory = seats[seat]["inventory"]
    occupied = sorted(slots_of(seats[seat]))
    problems: list[dict] = []
    note = None
    assembled: dict[str, dict] = {}  # robots Charlotte assembled, by slot: kept with all their numbers
    if request.method == "POST" and request.form.get("action") != "switch":
        choices = round_choices_from_form(request.form, problems)
        inventory = {k: _form_int(request.form, f"inv-{k}", 0, 999, 0, problems, ITEM_NAMES[k]) for k in ITEMS}
        occupied = [f"{r}-{c}" for r in ROW_NAMES for c in range(1, 6) if request.form.get(f"occ-{r}-{c}")]
    body = round_end_body(inventory, occupied, choices)
    result, result_problems = _run_round_end(body) if not problems else (None, [])
    if request.method == "POST" and request.form.get("action") == "apply" and result is not None:
        # the round is over: what it left becomes the inventory and play area to start from
        inventory = result["inventory_after"]
        added = [s["robot_added"] for s in result["steps"] if s["robot_added"]]
        occupied = sorted(set(occupied) | {f"{r['row']}-{r['column']}" for r in added})
        choices = {**choices, "order": {}}
        assembled = {f"{r['row']}-{r['column']}": r for r in added}
        who = "your" if n == 1 else f"{names[seat]}’s"
        note = f"The result is now {who} inventory (the Final score and planner pages show it); the order was cleared."
        if result["tokens_unlocked"]:
            note += " Charlotte unlocked an upgrade token: add it, by its type, on the Competitions planner."
        body = round_end_body(inventory, occupied, choices)
        result, result_problems = _run_round_end(body)
    if table is not None and request.method == "POST" and not problems:
        def mutate(state: dict, i: int = seat, ch: dict = choices, inv: dict = inventory,
                   occ: list = occupied, new: dict = assembled) -> dict:
            rre = dict(state.get("rr_round_end") or {}) if isinstance(state.get("rr_round_end"), dict) else {}
            seats_ = dict(rre.get("seats") or {}) if isinstance(rre.get("seats"), dict) else {}
            seats_[str(i)] = ch
            rre["seats"] = seats_
            state["rr_round_end"] = rre
            players = list(state.get("rr_players") or []) if isinstance(state.get("rr_players"), list) else []
            players += [{} for _ in range(i + 1 - len(players))]
            seat_now = _clean_seat(players[i])
            have = slots_of(seat_now)
            robots = [r for k, r in have.items() if k in occ]
            robots += [new.get(k) or {"row": k.rpartition("-")[0], "column": int(k.rpartition("-")[2])}
                       for k in occ if k not in have]
            players[i] = {**(players[i] if isinstance(players[i], dict) else {}), "inventory": inv, "robots": robots}
            state["rr_players"] = players
            return state
        table = _save(table, mutate)
        ctx["table"] = table
    return render_template(
        "raising_robots/round_end.html", names=names, seat=seat, n=n, inventory=inventory,
        occupied=set(occupied), ch=choices, result=result, problems=problems + result_problems, note=note,
        parts=PARTS, part_names=PART_NAMES, items=ITEMS, item_names=ITEM_NAMES, row_names=ROW_NAMES,
        wild_names=WILD_NAMES, pay_names=PAY_NAMES, confucius=CONFUCIUS_CHOICES,
        slot_extra=DATA["slot_extra_cost"], round_rules=list(rend.RULE_ORDER) if result is None else result["rules"],
        rule_titles=rule_titles(rend.ALL_RULES),
        version=table.version if table is not None else "", **ctx), (400 if problems else 200)


# ---- page: activation chains ------------------------------------------------------------------------

CHAIN_KINDS = (("robot", "Robot activated"), ("board", "Player-board action"), ("run-design", "Run Design"),
               ("run-fabricate", "Run Fabricate"), ("run-recycle", "Run Recycle"))
MAX_ROWS = 40
MAX_DEPTH_UI = 8


def chain_to_rows(steps: list, depth: int = 0) -> list[dict]:
    """The API's nested steps as the page's flat rows (depth, kind, label, energy)."""
    rows = []
    for s in steps:
        if "robot" in s:
            rows.append({"depth": depth, "kind": "robot", "label": s["robot"], "energy": s.get("energy")})
            rows += chain_to_rows(s.get("then", []), depth + 1)
        elif "run" in s:
            rows.append({"depth": depth, "kind": f"run-{s['run']}", "label": "", "energy": s.get("energy")})
            rows += chain_to_rows(s.get("steps", []), depth + 1)
        else:
            rows.append({"depth": depth, "kind": "board", "label": s["board"], "energy": None})
    return rows


def rows_to_chain(rows: list[dict]) -> tuple[list, list[dict]]:
    """The page's rows as nested API steps; a row deeper than the one before +1, or under a
    player-board action, is a problem named by its row."""
    problems: list[dict] = []
    top: list = []
    stack: list[tuple[int, dict | None, list]] = [(-1, None, top)]  # (depth, node, its children list)
    for i, r in enumerate(rows):
        while stack[-1][0] >= r["depth"]:
            stack.pop()
        parent_depth, parent, children = stack[-1]
        if r["depth"] > parent_depth + 1:
            problems.append({"path": f"row {i + 1}", "message": "is indented more than one step below the row above it"})
            continue
        if parent is not None and "board" in parent:
            problems.append({"path": f"row {i + 1}", "message": "a player-board action sets nothing off: indent it less"})
            continue
        if r["kind"] == "robot":
            node: dict = {"robot": r["label"] or "?", "then": []}
            if r["energy"] is not None:
                node["energy"] = r["energy"]
            sub = node["then"]
        elif r["kind"].startswith("run-"):
            node = {"run": r["kind"][4:], "energy": r["energy"] if r["energy"] is not None else 0, "steps": []}
            sub = node["steps"]
            if r["energy"] is None:
                problems.append({"path": f"row {i + 1}", "message": "give the energy the row runs at"})
        else:
            node = {"board": r["label"] or "?"}
            sub = []
        children.append(node)
        stack.append((r["depth"], node, sub))
    return top, problems


def rows_from_form(form, problems: list[dict]) -> list[dict]:
    rows = []
    for i in range(MAX_ROWS):
        kind = form.get(f"k-{i}", "")
        if kind not in dict(CHAIN_KINDS):
            continue
        label = (form.get(f"l-{i}") or "").strip()[:120]
        if kind in ("robot", "board") and not label:
            continue  # a blank row
        rows.append({"depth": _form_int(form, f"d-{i}", 0, MAX_DEPTH_UI, 0, problems, f"Row {i + 1} depth"),
                     "kind": kind, "label": label,
                     "energy": _form_int(form, f"e-{i}", 0, 30, None, problems, f"Row {i + 1} energy")})
    return rows


def _check_rows(rows: list[dict], phase: str | None, energy: int | None) -> tuple[dict | None, list[dict]]:
    steps, problems = rows_to_chain(rows)
    if problems:
        return None, problems

    def run():
        body = ChainIn.model_validate({"phase": phase, "energy": energy, "steps": steps})
        return check_chain(body)
    return _try(run)


@bp.route("/raising-robots/activations", methods=["GET", "POST"])
def activations_page():
    example = act.FINITE_LOOPS_EXAMPLE
    problems: list[dict] = []
    phase, energy = example["phase"], example["energy"]
    rows: list[dict] = []
    extra = 3
    if request.method == "POST":
        action = request.form.get("action", "check")
        if action in ("example", "variant"):
            data = example if action == "example" else act.finite_loops_variant()
            rows = chain_to_rows(data["steps"])
            phase, energy = data["phase"], data["energy"]
        else:
            rows = rows_from_form(request.form, problems)
            phase = request.form.get("phase") if request.form.get("phase") in ROW_NAMES else None
            energy = _form_int(request.form, "energy", 0, 30, None, problems, "Phase energy")
            if action == "more":
                extra = min(MAX_ROWS - len(rows), _form_int(request.form, "blank", 0, MAX_ROWS, 3, [], "") + 3)
    result, result_problems = _check_rows(rows, phase, energy) if rows and not problems else (None, [])
    example_check = check_chain(ChainIn.model_validate(example))
    blanks = [{"depth": rows[-1]["depth"] if rows else 0, "kind": "robot", "label": "", "energy": None}
              for _ in range(max(0, min(extra, MAX_ROWS - len(rows))))]
    return render_template(
        "raising_robots/activations.html", rows=rows + blanks, n_filled=len(rows), blank=len(blanks),
        kinds=CHAIN_KINDS, max_depth=MAX_DEPTH_UI, phase=phase, energy=energy, row_names=ROW_NAMES,
        result=result, problems=problems + result_problems, example_check=example_check,
        rules=ACTIVATION_RULES, rule_titles=rule_titles(ACTIVATION_RULES)), (400 if problems else 200)
