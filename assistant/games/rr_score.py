"""Raising Robots: the end-of-game score (API and page).

JSON: POST /api/raising-robots/score and /score/compare. Page: /raising-robots/score, which keeps each
seat's inventory, robots (by slot) and class cards in `rr_players`, and the solo target in `rr_score`.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Literal

from flask import Blueprint, jsonify, render_template, request
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from solvers.raising_robots import scoring
from solvers.raising_robots.model import ITEM_LABELS, ITEMS, ROW_NAMES, Robot
from solvers.raising_robots.scoring_data import SCORING_DATA

from ..api import bad_field, parse
from ..page_helpers import as_dict, as_list, state_part, table_context
from .rr_forms import FormReader, answer_or_problems, whole
from .rr_models import InventoryIn, RobotIn, rule_titles
from .rr_seats import SEATS_KEY, clean_seat, names_of, seat_count, seats_from, slots_of
from .rr_table import save

bp = Blueprint("rr_score", __name__)

TEMPLATES = SCORING_DATA.class_cards  # Friends class cards whose count Tablebot knows
RULE_NEW_OBJECTIVES = "rr-new-class-objectives"
STATE_KEY = "rr_score"

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
        if self.template is not None and self.template not in TEMPLATES:
            raise ValueError(f"template must be one of {', '.join(TEMPLATES)}")
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



# ---- solver calls shared by the API and the page -------------------------------------------------

def _class_card(card: ClassCardIn, j: int, player: PlayerIn, prefix: str) -> scoring.ClassCard:
    grade = card.grade
    if card.thresholds:
        count = card.count
        counts = TEMPLATES[card.template]["counts"] if card.template else None
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
    except scoring.ScoreInputError as e:  # named within this player of a comparison
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


# ---- JSON API -----------------------------------------------------------------------------------

@bp.post("/api/raising-robots/score")
def api_score():
    player = parse(PlayerIn)
    return jsonify(score_json(*score_player(player)))


@bp.post("/api/raising-robots/score/compare")
def api_compare():
    return jsonify(compare(parse(CompareIn)))


# ---- the page -------------------------------------------------------------------------------------

GRADE_CHOICES = ("none", "D", "C", "B", "A")
GAME_END_CHOICES = (
    ("", "no icon"), ("a_grade", "A grade = 3 VP"), ("microchip_robots", "2 microchip robots = 3 VP"),
    ("resource_pairs:sensor", "2 sensors = 1 VP"), ("resource_pairs:gear", "2 gears = 1 VP"),
    ("resource_pairs:microchip", "2 microchips = 1 VP"), ("resource_pairs:program", "2 programs = 1 VP"),
    ("vp56_robots", "2 robots of 5-6 VP = 3 VP"), ("full_columns", "full column = 4 VP"))
# every rule id this page may link (it draws their titles from the rules assistant)
PAGE_RULE_IDS = sorted({*scoring.ALL_RULES, RULE_NEW_OBJECTIVES})


def _seats_json(form) -> list:
    """Without a table the page carries every seat in a hidden field."""
    try:
        data = json.loads(form.get("players_json") or "[]")
    except ValueError:
        return []
    return as_list(data)


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
    f = FormReader(form)
    seat = dict(old)
    seat["inventory"] = {k: f.int(f"inv-{k}", 0, 999, old["inventory"].get(k, 0), label=ITEM_LABELS[k])
                         for k in ITEMS}
    old_slots = slots_of(old)
    robots = []
    valid_ge = {v for v, _ in GAME_END_CHOICES}
    for row, row_name in ROW_NAMES.items():
        for col in range(1, 6):
            key = f"{row}-{col}"
            vp = f.int(f"s-{key}-vp", 0, 20, None, label=f"{row_name} column {col} VP")
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
            v = f.int(f"c{j}-vp-{g}", 0, 99, None, label=f"Class card {j + 1} VP for {g}")
            if v is not None:
                card["vp_by_grade"][g] = v
            t = f.int(f"c{j}-th-{g}", 0, 999, None, label=f"Class card {j + 1} threshold {g}")
            if t is not None:
                card["thresholds"][g] = t
        template = form.get(f"c{j}-template", "")
        if template in TEMPLATES:
            card["template"] = template
        count = f.int(f"c{j}-count", 0, 999, None, label=f"Class card {j + 1} count")
        if count is not None:
            card["count"] = count
        cards.append(card)
    seat["class_cards"] = cards
    comp = f.int("competitions_completed", 0, 4, None, label="Competitions completed")
    listed = len(old["completed"]) if isinstance(old.get("completed"), list) else None
    seat.pop("competitions_completed", None)
    if comp is not None and comp != listed:  # else the planner's list of completed competitions says it
        seat["competitions_completed"] = comp
    return seat, f.problems


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


def _score_seat(seat: dict, name: str) -> tuple[dict | None, list[dict]]:
    return answer_or_problems(lambda: score_json(*score_player(PlayerIn.model_validate(player_body(seat, name)))))


def _solo_state(raw) -> dict:
    raw = as_dict(raw)
    threshold = whole(raw.get("threshold"), 0, 999, -1)
    return {"threshold": threshold if threshold >= 0 else None,
            "mode": raw.get("mode") if raw.get("mode") in ("single", "campaign") else "single",
            "competitions": raw.get("competitions", True) is not False}


def _chart(result: dict) -> list[dict]:
    parts = [("Robots", result["robots"]), ("Class cards", result["class_cards"]),
             ("Inventory VP", result["inventory_vp"]), ("Leftovers", result["leftovers"]),
             ("Game End", result["game_end"])]
    top = max([v for _, v in parts] + [1])
    return [{"label": lab, "vp": v, "width": round(100 * v / top, 1)} for lab, v in parts]


def _as_score(r: dict) -> scoring.Score:
    return scoring.Score(r["robots"], r["class_cards"], r["inventory_vp"], r["leftovers"], r["game_end"],
                         r["total"], (), tuple(r["full_columns"]))


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


@bp.route("/raising-robots/score", methods=["GET", "POST"])
def score_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]
    src = request.form if request.method == "POST" else request.args
    n = seat_count(table, src)
    names = names_of(table, n)
    raw_seats = as_list(table.state.get(SEATS_KEY)) if table is not None else _seats_json(request.form)
    seats = seats_from(raw_seats, n)
    solo = _solo_state(state_part(table, STATE_KEY).get("solo"))
    seat = FormReader(src).int("seat", 0, n - 1, 0) or 0
    problems: list[dict] = []
    if request.method == "POST":
        new_seat, problems = seat_from_form(request.form, seats[seat])
        f = FormReader(request.form)
        solo = {"threshold": f.int("solo-threshold", 0, 999, None, label="Solo threshold"),
                "mode": f.choice("solo-mode", ("single", "campaign"), "single"),
                "competitions": bool(request.form.get("solo-cf"))}
        problems += f.problems
        seats[seat] = new_seat
        if table is not None and not problems:
            def mutate(state: dict, i: int = seat, value: dict = new_seat, solo_now: dict = solo) -> dict:
                players = list(as_list(state.get(SEATS_KEY)))
                players += [{} for _ in range(i + 1 - len(players))]
                base = as_dict(players[i])
                players[i] = {**{k: v for k, v in base.items() if k != "competitions_completed"},
                              **{k: value[k] for k in ("inventory", "robots", "class_cards")},
                              **({"competitions_completed": value["competitions_completed"]}
                                 if "competitions_completed" in value else {})}
                state[SEATS_KEY] = players
                state[STATE_KEY] = {**as_dict(state.get(STATE_KEY)), "solo": solo_now}
                return state
            table = save(table, mutate)
            ctx["table"] = table
        action = request.form.get("action", "")
        if action.startswith("seat-") and action[5:].isdigit() and int(action[5:]) < n:
            seat = int(action[5:])
        elif action == "add-player" and table is None and n < 6 and not problems:
            n += 1
            seats.append(clean_seat({}))
            names = names_of(None, n)
            seat = n - 1
    vm = score_view_model(seats, names, seat, solo)
    return render_template(
        "raising_robots/score.html", seats=seats, names=names, seat=seat, n=n, cur=seats[seat],
        slots=slots_of(seats[seat]), solo=solo,
        placed_for_you=[r for r in seats[seat]["robots"] if not isinstance(r.get("column"), int)],
        problems=problems, items=ITEMS, item_names=ITEM_LABELS,
        row_names=ROW_NAMES, grades=GRADE_CHOICES, ge_choices=GAME_END_CHOICES, ge_value=ge_value,
        templates=TEMPLATES, players_json=json.dumps(seats, separators=(",", ":")),
        rule_titles=rule_titles(PAGE_RULE_IDS),
        version=table.version if table is not None else "",
        **vm, **ctx), (400 if problems else 200)
