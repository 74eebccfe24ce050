"""The round-end page (/raising-robots/round-end): a seat's Round End abilities (Johannes, Charlotte,
Sacagawea, Friendship gains; Yo-Yo and Confucius's Scroll Board on what Charlotte sets off) in the order
the player sets, and what each gives. The order and choices are the seat's `round_end` in the table
state; "Done" makes the result the seat's inventory and play area (worked out from the version shown)."""
from __future__ import annotations

from flask import Blueprint, render_template, request

from solvers.errors import InputError
from solvers.raising_robots import abilities
from solvers.raising_robots import round_end as rend
from solvers.raising_robots.model import ITEM_LABELS, ITEM_WORDS, ITEMS, ROW_NAMES
from solvers.raising_robots.scoring_data import SCORING_DATA

from . import present
from . import state as rr
from .answers import RoundEndAnswer, round_end_answer
from .page_state import PageState
from .present import PART_NAMES
from .schemas import COLUMNS, CONFUCIUS_CHOICES, ROUND_END_PARTS, Seat

bp = Blueprint("rr_round_end", __name__)
WILD_NAMES = {k: ITEM_WORDS[k][0][0].upper() + ITEM_WORDS[k][0][1:] for k in rend.WILD_ITEMS}
PAY_NAMES = {k: ITEM_WORDS[k][0][0].upper() + ITEM_WORDS[k][0][1:] for k in rend.PAY_ITEMS}
CHOICE_NAMES = {"batteries": "2 batteries", **{k: f"1 {v.lower()}" for k, v in WILD_NAMES.items()}}
SLOTS = tuple(f"{row}-{c}" for row in ROW_NAMES for c in range(1, COLUMNS + 1))


def result_for(ps: PageState) -> tuple[RoundEndAnswer | None, list]:
    """The round end of the seat shown, from its entries; a choice that does not fit is a problem next to
    that choice's field."""
    seat = ps.state.seat(ps.seat)
    placed = present.slot_robots(seat)
    robots = [r.to_solver(r.column) for r in placed]
    try:
        return round_end_answer(seat.inventory.to_solver(), robots, seat.round_end.to_solver(),
                                True if seat.round_end.sa_ongoing else None, seat.round_end_seat(), seat.who()), []
    except InputError as err:
        return None, [present.seat_problem(ps.seat, seat, err, placed)]


def play_area_change(i: int, form, seats: int) -> rr.Mutate | None:
    """The slots ticked or unticked here (against the slots the page showed): a robot placed in each slot
    ticked that is free on the newest table, the robot shown in each slot unticked taken out (one another
    phone placed meanwhile stays)."""
    ticked = {k for k in form.getlist("_occ[]") if k in SLOTS}
    shown = dict(v.split(":", 1) for v in form.getlist("_shown[]") if ":" in v and v.split(":", 1)[0] in SLOTS)
    gone = [rid for key, rid in shown.items() if key not in ticked]
    added = [key for key in SLOTS if key in ticked and key not in shown]
    if not gone and not added:
        return None

    def fn(seat: dict) -> None:
        seat["robots"] = [r for r in seat["robots"] if r["id"] not in gone]
        free = set(SLOTS) - set(Seat.model_validate(seat).slots())
        for key in added:
            if key in free and len(seat["robots"]) < 15:
                row, col = key.rsplit("-", 1)
                seat["robots"].append({"id": rr.new_id(), "row": row, "column": int(col)})
    return rr.on_seat(i, fn, seats)


def applied(i: int, result: RoundEndAnswer, seats: int) -> rr.Mutate:
    """The round is over: what it left is the seat's inventory and play area to start from (robots
    Charlotte assembled keep all their numbers), and the order is cleared."""
    def fn(seat: dict) -> None:
        seat["inventory"] = result.inventory_after.as_dict()
        for step in result.steps:
            robot = step.robot_added
            if robot:
                # a seat keeps a cost only with both its energy and its resources: Charlotte's robot is
                # typed by its resource cost alone, so its costs stay blank for the planner to fill in
                both = list(zip(robot.cost_energy, robot.cost_resources))
                seat["robots"].append({"row": robot.row, "column": robot.column, "any_row": robot.any_row,
                                       "basic_energy": robot.basic_energy, "upgraded": robot.upgraded,
                                       "vp": robot.vp, "needs_microchip": robot.needs_microchip,
                                       **({"upgraded_energy": robot.upgraded_energy} if robot.upgraded_energy else {}),
                                       "cost_energy": [e for e, _ in both], "cost_resources": [r for _, r in both],
                                       "id": rr.new_id()})
        seat["round_end"]["order"] = {}
    return rr.on_seat(i, fn, seats)


@bp.route("/raising-robots/round-end", methods=["GET", "POST"])
def round_end_page():
    ps = PageState()
    note = None
    if request.method == "POST":
        form = request.form
        do = form.get("do", "")
        ps.fields(form)
        area = play_area_change(ps.form_seat, form, ps.count) if not ps.problems else None
        if area is not None:
            ps.change(area)
        if not ps.problems and do == "add-objective":
            text = (form.get("_objective") or "").strip()
            if text:
                ps.change(rr.add_objective(ps.seat, text, ps.count))
            else:
                ps.problem("_objective", "type the objective as it is on the board")
        elif not ps.problems and do.startswith("remove-objective:"):
            ps.change(rr.remove_objective(ps.seat, do.split(":", 1)[1], ps.count))
        elif not ps.problems and do == "apply":
            result, problems = result_for(ps)
            ps.problems += problems
            if result is not None and ps.answer(applied(ps.seat, result, ps.count)):
                whose = "your" if ps.count == 1 else f"{ps.names[ps.seat]}’s"
                note = f"The result is now {whose} inventory (the Final score and planner pages show it); the order was cleared."
                if result.tokens_unlocked:
                    note += " Charlotte unlocked an upgrade token: add it, by its type, on the Competitions planner."
    seat = ps.state.seat(ps.seat)
    result, problems = result_for(ps)
    ps.problems += [p for p in problems if p not in ps.problems]
    if problems and request.method == "POST":
        ps.status = 400
    slots = seat.slots()
    who = seat.who()
    who_notes = rend.inventor_notes(seat.round_end.ordered(), who, ps.names[ps.seat])
    shown = {f"seats.{ps.seat}.round_end.{k}" for k in ("ch_cost", "ch_vp", "ch_extra", "ch_gain", "sa_reward",
                                                         "scroll_objective", "scroll_gain", "scroll_line", "ch_action",
                                                         "ch_wilds", "ch_pay", "co")}
    shown |= {f"seats.{ps.seat}.round_end.order.{a}-{p}" for a, p in ROUND_END_PARTS}
    shown |= {f"seats.{ps.seat}.inventory.{k}" for k in ITEMS} | {"_objective"}
    return render_template(
        "raising_robots/round_end.html", cur=seat, result=result, note=note, slots=slots, slot_keys=SLOTS,
        parts=ROUND_END_PARTS, part_names=PART_NAMES, items=ITEMS, item_names=ITEM_LABELS, row_names=ROW_NAMES,
        wild_names=WILD_NAMES, pay_names=PAY_NAMES, confucius=CONFUCIUS_CHOICES, choice_names=CHOICE_NAMES,
        slot_extra=SCORING_DATA.slot_extra_cost, confucius_inventor=who.inventor == "confucius",
        yo_yo="yo_yo" in who.friendships, display_name=abilities.display_name, who_notes=who_notes,
        round_rules=list(rend.RULE_ORDER) if result is None else result.rules,
        rule_titles=present.rule_titles(rend.ALL_RULES),
        top=present.with_label([p for p in ps.problems if p.path not in shown and ".ch_wilds." not in p.path
                                and ".ch_pay." not in p.path and ".co." not in p.path], ps.state),
        **ps.context()), ps.status
