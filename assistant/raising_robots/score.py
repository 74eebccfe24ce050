"""Raising Robots: the end-of-game score (API and page).

JSON: POST /api/raising-robots/score and /score/compare. Page: /raising-robots/score, which keeps each
seat's inventory, robots (by slot) and class cards in `rr_players`, and the solo target in `rr_score`.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import replace
from typing import Literal

from flask import Blueprint, jsonify, render_template, request
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from solvers.raising_robots import abilities, scoring
from solvers.raising_robots.model import ITEM_LABELS, ITEMS, ROW_NAMES, Robot
from solvers.raising_robots.scoring_data import SCORING_DATA

from ..api import bad_field, parse
from ..web.context import as_dict, as_list, table_context
from .forms import FormReader, answer_or_problems, whole
from .saves import apply_changes, changes, drawn_json, read_drawn, save, under
from .schemas import (
    Friendships,
    InventorIn,
    InventoryIn,
    RobotIn,
    problem_text,
    rule_titles,
    taken_json,
    who_of,
)
from .seats import (
    MAX_SEATS,
    SEATS_KEY,
    change_seat,
    names_of,
    new_robot_id,
    robot_fields,
    seat_count,
    seat_from_model,
    seats_from,
    slots_of,
    who_body,
)

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
    action: Literal["upgraded", "basic"] = "upgraded"  # the action whose box shows the icon

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
    inventor: InventorIn | None = None
    friendships: Friendships = 0


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
        "scores": [with_abilities(dict(score_json(*sc), name=n), p)
                   for n, sc, p in zip(names, scored, body.players, strict=True)],
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

def with_abilities(out: dict, player: PlayerIn) -> dict:
    """The score answer with how it treats the seat's inventor and Friendship cards (an inventor's Game End
    ability Tablebot does not know is listed as not taken into account)."""
    taken = abilities.treatments(who_of(player.inventor, player.friendships), {}, abilities.SCORE_NO_EFFECT)
    out["abilities"] = taken_json(taken)
    note = abilities.not_taken_note(taken, "score")
    out["notes"] = [note] if note else []
    return out


@bp.post("/api/raising-robots/score")
def api_score():
    player = parse(PlayerIn)
    return jsonify(with_abilities(score_json(*score_player(player)), player))


@bp.post("/api/raising-robots/score/compare")
def api_compare():
    return jsonify(compare(parse(CompareIn)))


# ---- the page -------------------------------------------------------------------------------------

GRADE_CHOICES = ("none", "D", "C", "B", "A")
GAME_END_CHOICES = (  # the hourglass icons as printed, short enough for a 320 px screen
    ("", "no Game End icon"), ("a_grade", "A grade: 3 VP"), ("microchip_robots", "2 chip robots: 3 VP"),
    ("resource_pairs:sensor", "2 sensors: 1 VP"), ("resource_pairs:gear", "2 gears: 1 VP"),
    ("resource_pairs:microchip", "2 chips: 1 VP"), ("resource_pairs:program", "2 programs: 1 VP"),
    ("vp56_robots", "2 robots of 5-6 VP: 3 VP"), ("full_columns", "full column: 4 VP"))
GAME_END_ACTIONS = (("upgraded", "on the upgraded action"), ("basic", "on the basic action"))
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


def _ge_from_value(value: str, action: str = "upgraded") -> dict | None:
    if not value:
        return None
    kind, _, resource = value.partition(":")
    out = {"kind": kind, "resource": resource} if resource else {"kind": kind}
    return {**out, "action": "basic"} if action == "basic" else out


def ge_action(robot: dict) -> str:
    ge = robot.get("game_end")
    return "basic" if isinstance(ge, dict) and ge.get("action") == "basic" else "upgraded"


SLOT_FIELDS = ("row", "column", "vp", "needs_microchip", "upgraded", "game_end")  # what this page edits


def score_model(seat: dict, solo: dict) -> dict:
    """What the form shows of a seat, as changes are worked out: robots by id with the fields this page
    edits (as stored: a robot the planner placed without a column has none until this page saves one)."""
    in_slots = {r["id"] for r in slots_of(seat).values()}
    shown = seat.get("competitions_completed")
    return {"seat": {"inventory": dict(seat["inventory"]),
                     "robots": robot_fields(seat, [r for r in seat["robots"] if r["id"] in in_slots], SLOT_FIELDS),
                     "class_cards": [dict(c) for c in seat["class_cards"]],
                     "competitions_completed": shown if whole(shown, 0, 4, -1) >= 0 else len(seat["completed"])},
            "solo": dict(solo)}


def model_from_form(form, old: dict) -> tuple[dict, list[dict]]:
    """The form model the posted form describes, on top of `old` (the model the page was drawn from): a
    field the form did not send keeps its old value."""
    f = FormReader(form)
    seat = old["seat"]
    new = {"inventory": {k: f.int(f"inv-{k}", 0, 999, v, label=ITEM_LABELS[k]) for k, v in seat["inventory"].items()}}
    old_slots = slots_of(seat_from_model(old["seat"]))
    robots = dict(seat["robots"])
    valid_ge = {v for v, _ in GAME_END_CHOICES}
    for row, row_name in ROW_NAMES.items():
        for col in range(1, 6):
            key = f"{row}-{col}"
            if f"s-{key}-vp" not in form:
                continue
            rid = old_slots[key]["id"] if key in old_slots else None
            vp = f.int(f"s-{key}-vp", 0, 20, None, label=f"{row_name} column {col} VP")
            if vp is None:
                robots.pop(rid, None)  # a slot left blank is empty: its robot leaves the play area
                continue
            ge = _ge_from_value(form.get(f"s-{key}-ge", "") if form.get(f"s-{key}-ge", "") in valid_ge else "",
                                form.get(f"s-{key}-ga", "upgraded"))
            robot = {"row": row, "column": col, "vp": vp, "needs_microchip": bool(form.get(f"s-{key}-chip")),
                     "upgraded": bool(form.get(f"s-{key}-up")), **({"game_end": ge} if ge else {})}
            robots[rid or new_robot_id()] = robot
    new["robots"] = robots
    cards = []
    for j in range(3):
        if f"c{j}-grade" not in form:
            cards += seat["class_cards"][j:j + 1]
            continue
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
    new["class_cards"] = cards
    new["competitions_completed"] = f.int("competitions_completed", 0, 4, seat["competitions_completed"],
                                          label="Competitions completed")
    solo = old["solo"]
    if "solo-mode" in form:  # only a one-seat page shows the solo target
        solo = {"threshold": f.int("solo-threshold", 0, 999, None, label="Solo threshold"),
                "mode": f.choice("solo-mode", ("single", "campaign"), "single"),
                "competitions": bool(form.get("solo-cf"))}
    return {"seat": new, "solo": solo}, f.problems


def score_change(seat_index: int, old: dict, new: dict):
    """The save: only what the form changed, on the newest seat and solo target."""
    items = changes(old, new)

    def mutate(state: dict) -> dict:
        change_seat(state, seat_index, under(items, "seat"))
        state[STATE_KEY] = apply_changes(dict(as_dict(state.get(STATE_KEY))),
                                         [(("solo", *path), v) for path, v in under(items, "solo")])
        return state
    return mutate


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
            "class_cards": cards, **who_body(seat)}
    comp = seat.get("competitions_completed")
    if comp is None and isinstance(seat.get("completed"), list):
        comp = len(seat["completed"])
    if isinstance(comp, int) and 0 <= comp <= 4:
        body["competitions_completed"] = comp
    return body


def _score_seat(seat: dict, name: str) -> tuple[dict | None, list[dict]]:
    def answer() -> dict:
        player = PlayerIn.model_validate(player_body(seat, name))
        return with_abilities(score_json(*score_player(player)), player)
    return answer_or_problems(answer)


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
    by_card: dict[int, list[dict]] = {}  # shown next to their class card
    elsewhere = []
    for p in problems:
        m = re.match(r"^(?:players\[\d+\]\.)?class_cards\[(\d)\]", str(p.get("path", "")))
        (by_card.setdefault(int(m.group(1)), []) if m else elsewhere).append(p)
    return {"result": current, "result_problems": elsewhere, "card_problems": by_card,
            "chart": _chart(current) if current else [],
            "standings": standings, "broken": broken, "solo_result": solo_result, "score_rules": rules}


def _page_seat(seat: dict) -> dict:
    """A seat as the page carries it (for its script, and without a table in the form): what the score reads."""
    keep = ("inventory", "class_cards", "completed", "competitions_completed")
    return {**{k: seat[k] for k in keep if k in seat},
            "robots": [{k: r[k] for k in ("id", "any_row", *SLOT_FIELDS) if k in r} for r in seat["robots"]]}


@bp.route("/raising-robots/score", methods=["GET", "POST"])
def score_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]  # a GET never writes: robots without an id get one from their content when read
    src = request.form if request.method == "POST" else request.args
    n = seat_count(table, src)
    names = names_of(table, n)
    # without a table the page carries every seat in a hidden field instead
    state = table.state if table is not None else {SEATS_KEY: _seats_json(request.form)}
    seat = FormReader(src).int("seat", 0, n - 1, 0) or 0
    problems: list[dict] = []
    if request.method == "POST":
        now = score_model(seats_from(state.get(SEATS_KEY), n)[seat], _solo_state(as_dict(state.get(STATE_KEY)).get("solo")))
        drawn = read_drawn(request.form) if table is not None else None
        old = score_model(seat_from_model(drawn.get("seat")), _solo_state(as_dict(drawn.get("solo")))) if drawn else now
        new, problems = model_from_form(request.form, old)
        mutate = score_change(seat, old, new)
        if table is not None and not problems:
            table = ctx["table"] = save(table, mutate)
            state = table.state
        else:
            state = mutate(copy.deepcopy(state))  # what was typed stays on the page
        action = request.form.get("action", "")
        if action.startswith("seat-") and action[5:].isdigit() and int(action[5:]) < n:
            seat = int(action[5:])
        elif action == "add-player" and table is None and n < MAX_SEATS and not problems:
            n += 1
            names = names_of(None, n)
            seat = n - 1
    seats = seats_from(state.get(SEATS_KEY), n)
    solo = _solo_state(as_dict(state.get(STATE_KEY)).get("solo"))
    vm = score_view_model(seats, names, seat, solo)
    return render_template(
        "raising_robots/score.html", seats=seats, names=names, seat=seat, n=n, cur=seats[seat],
        slots=slots_of(seats[seat]), solo=solo,
        placed_for_you=[r for r in seats[seat]["robots"] if not isinstance(r.get("column"), int)],
        problems=problems, items=ITEMS, item_names=ITEM_LABELS,
        row_names=ROW_NAMES, grades=GRADE_CHOICES, ge_choices=GAME_END_CHOICES, ge_value=ge_value,
        ge_actions=GAME_END_ACTIONS, ge_action=ge_action, problem_text=problem_text,
        templates=TEMPLATES, players_json=json.dumps([_page_seat(x) for x in seats], separators=(",", ":")),
        drawn=drawn_json(score_model(seats[seat], solo)), rule_titles=rule_titles(PAGE_RULE_IDS),
        version=table.version if table is not None else "",
        **vm, **ctx), (400 if problems else 200)
