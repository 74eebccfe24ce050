"""The final score page (/raising-robots/score): every seat's score line by line, Game End icons, the
tie-breakers and the solo target. The seat's inventory, robots (each in its slot of the play area) and
class cards are fields of the table state; a row of robots can also be typed at once ("3 4 5")."""
from __future__ import annotations

import re

from flask import Blueprint, render_template, request
from werkzeug.datastructures import MultiDict

from solvers.errors import InputError
from solvers.raising_robots import scoring
from solvers.raising_robots.model import ITEM_LABELS, ITEMS, ROW_NAMES
from solvers.raising_robots.seat import SeatRecord

from ..web.problems import Problem
from . import present
from . import state as rr
from .answers import RULE_NEW_OBJECTIVES, score_notes, score_rules
from .page_state import PageState
from .schemas import COLUMNS, MAX_ROBOTS, MAX_SEATS, TEMPLATES, Seat

bp = Blueprint("rr_score", __name__)
GRADES = (("", "no card"), ("none", "no grade"), ("D", "D"), ("C", "C"), ("B", "B"), ("A", "A"),
          ("auto", "from its count"))
GAME_END_CHOICES = (  # the hourglass icons as printed, short enough for a 320 px screen
    ("", "no Game End icon"), ("a_grade", "A grade: 3 VP"), ("microchip_robots", "2 chip robots: 3 VP"),
    ("resource_pairs:sensor", "2 sensors: 1 VP"), ("resource_pairs:gear", "2 gears: 1 VP"),
    ("resource_pairs:microchip", "2 chips: 1 VP"), ("resource_pairs:program", "2 programs: 1 VP"),
    ("vp56_robots", "2 robots of 5-6 VP: 3 VP"), ("full_columns", "full column: 4 VP"))
GAME_END_ACTIONS = (("upgraded", "on the upgraded action"), ("basic", "on the basic action"))
PAGE_RULE_IDS = sorted({*scoring.ALL_RULES, RULE_NEW_OBJECTIVES})
ROBOT_VP = re.compile(r"^seats\.(\d)\.robots\.@([A-Za-z0-9_-]{1,24})\.vp$")


def row_text(seat: Seat, row: str) -> str:
    """A row's robots as the quick field shows them: each slot's VP left to right, "-" for an empty slot
    before a filled one."""
    slots = seat.slots()
    cells = [str(slots[f"{row}-{c}"].vp) if f"{row}-{c}" in slots else "-" for c in range(1, COLUMNS + 1)]
    while cells and cells[-1] == "-":
        cells.pop()
    return " ".join(cells)


def parse_row(text: str) -> list[int | None] | None:
    """A row typed as "3 4 - 5": each slot's VP from the left, "-" for an empty slot (0 is a robot of 0 VP)."""
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    if len(tokens) > COLUMNS:
        return None
    out: list[int | None] = []
    for t in tokens:
        if t in ("-", "·", "."):
            out.append(None)
        elif t.isascii() and t.isdecimal() and int(t) <= 20:
            out.append(int(t))
        else:
            return None
    return out + [None] * (COLUMNS - len(out))


def robots_change(i: int, removed: list[str], added: dict[str, int], rows: dict[str, list[int | None]],
                  seats: int) -> rr.Mutate:
    """Robots taken out (their VP cleared), placed in empty slots (a VP typed there), and rows typed at
    once, on the newest seat: a slot another phone filled meanwhile keeps its robot."""
    def fn(seat: dict) -> None:
        seat["robots"] = [r for r in seat["robots"] if r["id"] not in removed]
        for row, vps in rows.items():
            slots = Seat.model_validate(seat).slots()
            for col, vp in enumerate(vps, start=1):
                robot = slots.get(f"{row}-{col}")
                if robot is not None and vp is None:
                    seat["robots"] = [r for r in seat["robots"] if r["id"] != robot.id]
                elif robot is not None:
                    for r in seat["robots"]:
                        if r["id"] == robot.id:
                            r.update(vp=vp, column=col)
                elif vp is not None:
                    added[f"{row}-{col}"] = vp
        taken = set(Seat.model_validate(seat).slots())
        for key, vp in added.items():
            if key not in taken and len(seat["robots"]) < MAX_ROBOTS:
                row, col = key.rsplit("-", 1)
                seat["robots"].append({"id": rr.new_id(), "row": row, "column": int(col), "vp": vp})
                taken.add(key)
    return rr.on_seat(i, fn, seats)


def split_form(ps: PageState, form) -> tuple[MultiDict, rr.Mutate | None]:
    """The posted form as fields to save and a change of the play area: a robot's VP cleared takes it out
    (it is not a field set to nothing), a VP typed in an empty slot places one, a row typed at once."""
    fields = MultiDict(form)
    removed, added, rows = [], {}, {}
    for name in list(fields.keys()):
        m = ROBOT_VP.match(name)
        if m and int(m.group(1)) == ps.form_seat and not (fields.get(name) or "").strip():
            removed.append(m.group(2))
            fields.poplist(name)
    for key in (f"{row}-{c}" for row in ROW_NAMES for c in range(1, COLUMNS + 1)):
        raw = (form.get(f"_slot.{key}") or "").strip()
        if raw:
            if raw.isascii() and raw.isdecimal() and int(raw) <= 20:
                added[key] = int(raw)
            else:
                ps.problem(f"_slot.{key}", "a whole number from 0 to 20")
    seat = ps.state.seat(ps.form_seat)
    for i in range(ps.count):  # the count the planner's completions give, shown, not typed: it stays derived
        count, held = f"seats.{i}.competitions_completed", ps.state.seat(i)
        if held.competitions_completed is None and (fields.get(count) or "").strip() == str(len(held.completed.types())):
            fields.poplist(count)
    for row in ROW_NAMES:
        typed = form.get(f"_row.{row}")
        if typed is None or typed.strip() == form.get(f"_row_shown.{row}", row_text(seat, row)).strip():
            continue
        vps = parse_row(typed)
        if vps is None:
            ps.problem(f"_row.{row}", "each robot's VP (0 to 20) from left to right, a dash for an empty slot, like 3 4 5")
        else:
            rows[row] = vps
    if ps.problems or not (removed or added or rows):
        return fields, None
    return fields, robots_change(ps.form_seat, removed, added, rows, ps.count)


def score_seat(ps: PageState, i: int) -> tuple[tuple[scoring.Score, SeatRecord] | None, list[Problem]]:
    """Seat `i`'s score from the table state (each robot in the slot the page shows), or the problems
    that keep it from scoring, next to their fields."""
    seat = ps.state.seat(i)
    try:
        record = seat.to_solver(placed=True)
        return (record.score(), record), []
    except InputError as err:
        return None, [present.seat_problem(i, seat, err)]


def view_model(ps: PageState) -> dict:
    scored = [score_seat(ps, i) for i in range(ps.count)]
    current, problems = scored[ps.seat]
    result = current[0] if current else None
    valid = [(ps.names[i], r[0]) for i, (r, _) in enumerate(scored) if r is not None]
    standings = scoring.standings(valid) if valid else []
    broken = [ps.names[i] for i, (r, _) in enumerate(scored) if r is None and i != ps.seat]
    solo_result = None
    rules = score_rules(result, ps.state.seat(ps.seat)) if result else [scoring.RULE_FINAL_SCORE]
    if ps.count > 1 and scoring.RULE_END_SCORING not in rules:
        rules.append(scoring.RULE_END_SCORING)  # ties
    solo = ps.state.solo
    if ps.count == 1 and result is not None and solo.threshold is not None:
        solo_result = scoring.solo_target(result.total, solo.threshold, solo.mode, solo.competitions)
        rules += scoring.solo_rules(solo_result)
    return {"result": result, "score_notes": score_notes(current[1])[1] if current else [],
            "result_problems": problems, "chart": present.chart(result) if result else [],
            "standings": standings, "broken": broken, "solo_result": solo_result, "score_rules": rules}


@bp.route("/raising-robots/score", methods=["GET", "POST"])
def score_page():
    ps = PageState()
    if request.method == "POST":
        fields, area = split_form(ps, request.form)
        ps.fields(fields)
        if area is not None and not ps.problems:
            ps.change(area)
        if request.form.get("do") == "add-player" and ps.table is None and ps.count < MAX_SEATS and not ps.problems:
            n = ps.count
            ps.change(rr.changing(lambda part, rnd: None, n + 1))
            ps.seat = ps.count - 1
    vm = view_model(ps)
    ps.problems += [p for p in vm["result_problems"] if p not in ps.problems]
    if vm["result_problems"] and request.method == "POST":
        ps.status = 400
    seat = ps.state.seat(ps.seat)
    s = f"seats.{ps.seat}"
    shown = {f"{s}.inventory.{k}" for k in ITEMS} | {f"{s}.competitions_completed", "solo.threshold"}
    shown |= {f"_row.{row}" for row in ROW_NAMES}
    for r in seat.slots().values():
        shown |= {f"{s}.robots.@{r.id}.{k}" for k in ("vp", "game_end", "game_end_action", "column")}
    for key in (f"{row}-{c}" for row in ROW_NAMES for c in range(1, COLUMNS + 1)):
        shown.add(f"_slot.{key}")
    for j in range(3):
        shown |= {f"{s}.class_cards.{j}.{k}" for k in ("grade", "name", "count", "template", "vp_by_grade",
                                                        "thresholds")}
        shown |= {f"{s}.class_cards.{j}.{w}.{g}" for w in ("vp_by_grade", "thresholds") for g in "DCBA"}
    return render_template(
        "raising_robots/score.html", cur=seat, slots=seat.slots(), solo=ps.state.solo,
        placed_for_you=[r for r in seat.robots if r.column is None], items=ITEMS, item_names=ITEM_LABELS,
        row_names=ROW_NAMES, grades=GRADES, ge_choices=GAME_END_CHOICES, ge_actions=GAME_END_ACTIONS,
        templates=TEMPLATES, row_text=lambda row: row_text(seat, row), rule_titles=present.rule_titles(PAGE_RULE_IDS),
        top=present.with_label([p for p in ps.problems if p.path not in shown], ps.state), **vm,
        **ps.context()), ps.status
