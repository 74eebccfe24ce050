"""Raising Robots: end-game score, round-end abilities and activation chains (API and pages).

JSON: POST /api/raising-robots/score, /score/compare, /round-end, /activations/check,
GET /api/raising-robots/activations/example. Pages: /raising-robots/score, /round-end, /activations.
"""
from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Literal

from flask import Blueprint, jsonify
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from solvers.raising_robots import activations as act
from solvers.raising_robots import round_end as rend
from solvers.raising_robots import scoring
from solvers.raising_robots.model import Robot

from ..api import bad_field, parse
from .rr_models import InventoryIn, RobotIn

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


def score_player(player: PlayerIn, prefix: str = "") -> tuple[scoring.Score, list[scoring.ClassCard]]:
    cards = [_class_card(c, j, player, prefix) for j, c in enumerate(player.class_cards)]
    try:
        result = scoring.score(player.inventory.to_solver(), [r.to_solver() for r in player.robots], cards)
    except scoring.ScoreInputError as e:
        raise bad_field(prefix + e.path, e.message) from None
    return result, cards


def score_json(result: scoring.Score, cards: list[scoring.ClassCard]) -> dict:
    rules = [scoring.RULE_ICONS, scoring.RULE_ABILITY] if result.game_end or any(
        ln.kind == "game_end" for ln in result.lines) else []
    return {
        "robots": result.robots, "class_cards": result.class_cards, "inventory_vp": result.inventory_vp,
        "leftovers": result.leftovers, "game_end": result.game_end, "total": result.total,
        "lines": [{"what": ln.what, "vp": ln.vp, "why": ln.why, "kind": ln.kind, "rule": ln.rule}
                  for ln in result.lines],
        "grades": [{"name": c.name, "met": c.grade, "final": c.final_grade(), "vp": c.vp()} for c in cards],
        "full_columns": list(result.columns),
        "rules": rules,
    }


def compare(body: CompareIn) -> dict:
    if body.solo is not None and len(body.players) != 1:
        raise bad_field("solo", "a solo target needs exactly one player")
    scored = [score_player(p, f"players[{i}].") for i, p in enumerate(body.players)]
    names = [p.name or f"Player {i + 1}" for i, p in enumerate(body.players)]
    standings = scoring.standings([(n, s) for n, (s, _) in zip(names, scored, strict=True)])
    out: dict = {
        "standings": [{"name": s.name, "place": s.place, "total": s.total, "robots": s.robots,
                       "class_cards": s.class_cards, "decided_by": s.decided_by} for s in standings],
        "scores": [dict(score_json(s, c), name=n) for n, (s, c) in zip(names, scored, strict=True)],
        "solo": None,
        "rules": ["rr-solo-2p-gameplay-changes"] if body.solo else [],
    }
    if body.solo:
        r = scoring.solo_target(scored[0][0].total, body.solo.threshold, body.solo.mode, body.solo.competitions)
        out["solo"] = {"threshold": r.threshold, "adjustment": r.adjustment, "target": r.target,
                       "total": r.total, "margin": r.margin, "reached": r.reached, "why": r.why}
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
                   "rule": s.rule, "link": s.link, "index": s.index,
                   "robot_added": _robot_json(s.robot_added) if s.robot_added else None} for s in r.steps],
        "notes": list(r.notes),
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
