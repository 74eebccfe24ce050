"""The competitions planner page (/raising-robots/competitions): which competitions a seat completes now,
in what order, paying what, taking which reward. The form's fields are paths of the table state (the
seat's inventory, tokens, robots, Friendship cards; the competitions in play), saved as they are typed;
"Done" and "I kept <card>" apply the plan worked out from the version shown."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, render_template, request

from solvers.errors import InputError
from solvers.exact import exact
from solvers.raising_robots import abilities
from solvers.raising_robots.competitions import COMP_NAMES, COMP_TYPES, CRITERIA, VALUE_KEYS, Rules, Values
from solvers.raising_robots.competitions_data import GAME_DATA
from solvers.raising_robots.competitions_explain import ALL_RULES, vp_text
from solvers.raising_robots.model import ITEM_LABELS, ROWS, TOKEN_TYPES

from ..api import ApiError
from ..web.problems import Problem, plain
from . import present
from . import state as rr
from .answers import R_TILE_COSTS, R_TOKEN_TYPES, PlanAnswer, after_json, parse_values, plan_answer
from .friendship import PrivateMutate, card_named, keep_allowed, planner_keep_change
from .page_state import PageState
from .present import TOKEN_LABELS, VALUE_LABELS
from .schemas import CONFUCIUS_CHOICES, MAX_ROBOTS, ClassStatus, RaisingRobotsState, default_tile

bp = Blueprint("rr_competitions", __name__)

INV_ITEMS = ("sensor", "gear", "microchip", "program", "robot_cards", "duct_tape", "battery", "vp")  # wilds first
SHORT_NAMES = {"engineering_expo": "Expo", "mech_masters": "Mech", "think_tank": "Think", "robo_race": "Race"}
COMMON_RULES = ["rr-how-to-complete-competitions", "rr-completion-criteria", "rr-completion-rewards"]  # shown once
NEW_ROBOT = ("row", "vp", "e1", "c1", "e2", "c2", "basic", "up", "upgraded", "any", "chip")
KEPT_CHOICES = {"batteries": "2 batteries", **{w: f"1 {ITEM_LABELS[w].lower().rstrip('s')} (a wild)"
                                                  for w in CONFUCIUS_CHOICES if w != "batteries"}}


def plan_for(ps: PageState) -> tuple[PlanAnswer | None, list]:
    """The plan for the seat shown, from the table state (the competitions with the flips the round
    passed); the values' complaint (too many denominators) next to the values."""
    try:
        values = parse_values(ps.comps.values.given())
    except ApiError as err:
        return None, [Problem("competitions.values", plain(err.fields[0]["message"]))]
    comps = ps.comps.to_solver()
    return plan_answer(ps.state.seat(ps.seat).to_solver(score=False), [c for c, _ in comps],
                       [entered for _, entered in comps], values, Rules(ps.comps.duct_tape_pays_resources)), []


def _new_robot(form) -> tuple[dict | None, list[tuple[str, str]]]:
    """The robot typed in the add form (`_new.*` fields), as the state keeps it, and what is missing."""
    typed = {k: (form.get(f"_new.{k}") or "").strip() for k in NEW_ROBOT}
    problems = []
    if typed["row"] not in ROWS:
        problems.append(("_new.row", "choose the robot's row"))

    def num(key: str, lo: int, hi: int, default: int | None) -> int | None:
        raw = typed[key]
        if not raw:
            return default
        if not (raw.isascii() and raw.isdecimal()) or not lo <= int(raw) <= hi:
            problems.append((f"_new.{key}", f"a whole number from {lo} to {hi}"))
            return default
        return int(raw)
    energy = [num("e1", 0, 20, None), num("e2", 0, 20, None)]
    resources = [num("c1", 0, 20, None), num("c2", 0, 20, None)]
    for k in range(2):
        if (energy[k] is None) != (resources[k] is None):
            problems.append((f"_new.{'c' if resources[k] is None else 'e'}{k + 1}",
                             f"cost {k + 1} needs both its energy and its resources"))
    robot = {"row": typed["row"], "vp": num("vp", 0, 20, 0), "cost_energy": energy, "cost_resources": resources,
             "basic_energy": num("basic", 1, 7, 1), "upgraded_energy": num("up", 1, 7, None),
             "upgraded": typed["upgraded"] == "true", "any_row": typed["any"] == "true",
             "needs_microchip": typed["chip"] == "true"}
    return (None if problems else robot), problems


def _kept(ps: PageState, result: PlanAnswer, k: int, form) -> tuple[rr.Mutate | None, PrivateMutate | None, str]:
    """"I kept <card>" on step k: the steps up to it carried out, the kept card's immediate effect on the
    seat (Confucius: one choice per robot), so the page plans again from there. At a table whose Friendship
    deck is built, the keep is the deck's too (a private change: the seat's draws are its secret)."""
    steps = result.plan.steps
    if not 0 <= k < len(steps) or not steps[k].depends_on_kept:
        ps.problem("", "This step keeps no Friendship card.")
        return None, None, ""
    name = (form.get(f"_kept.{k}.name") or "").strip()[:40]
    if not name:
        ps.problem(f"_kept.{k}.name", "type the name of the card you kept")
        return None, None, ""
    fd = ps.state.friendship
    card = card_named(fd, name) if ps.table is not None and fd.built else None
    if ps.table is not None and fd.built:
        if card is None:
            ps.problem(f"_kept.{k}.name", "not a card of this table’s Friendship deck: type its name as the "
                                          "Friendship page lists it")
            return None, None, ""
        if not keep_allowed(ps.table, ps.seat):
            ps.problem(f"_kept.{k}.name", "another phone holds this seat: its own phone records the card it kept")
            return None, None, ""
        name = fd.names()[card]
    seat = ps.state.seat(ps.seat)
    choices = [form.get(f"_kept.{k}.robot.{j}") or "batteries" for j in range(len(seat.robots))]
    after = steps[k].after
    try:
        kept = abilities.keep_friendship(name, after.inventory, len(seat.robots), choices,
                                         path=f"_kept.{k}")
    except abilities.KeptInputError as err:
        ps.problem(err.path.replace("[", ".").replace("]", "").replace("per_robot", "robot"), err.message)
        return None, None, ""
    done = ", ".join(s.name for s in steps[:k + 1])
    note = (f"Done up to {steps[k].name} ({done}); kept {abilities.display_name(kept.ability)}: {kept.why}. "
            + ("The Friendship deck has it too. " if card else "") + "The plan below starts from here.")
    mutate = rr.apply_plan(ps.seat, {**after_json(after), "inventory": kept.inventory_after.as_dict()},
                           [s.type for s in steps[:k + 1]], kept=name, seats=ps.count)
    private = planner_keep_change(ps.seat, card, steps[k].reward.friendship_draw, mutate, ps.count,
                                  own=ps.seat == ps.phone_seat) if card else None
    return mutate, private, note


def _applied_note(result: PlanAnswer, who: str) -> str:
    steps = result.plan.steps
    done = ", ".join(s.name for s in steps)
    return (f"Applied: {who} completed {done}. Inventory, tokens and Friendship cards are updated; "
            f"{'that tile turns' if len(steps) == 1 else 'those tiles turn'} to the B side at the end of the round.")


def _prepare(ps: PageState):
    """The seat's class status is its own once this page saves (until then the score page's grades give it)."""
    base = ps.prepare()

    def prepare(part: dict) -> dict:
        part = base(part)
        seat = part["seats"][ps.seat]
        if seat.get("class_status") is None:
            from_cards = ps.state.seat(ps.seat).class_from_cards()
            seat["class_status"] = (from_cards or ClassStatus()).model_dump()
        return part
    return prepare


def _rule_lists(result: PlanAnswer | None) -> dict:
    """Which rule ids the page shows where: each step its own (minus the ones every step shares), each
    competition its card, and the rest once under the plan."""
    if not result:
        return {"general": []}
    shown = {i for s in result.plan.steps if s.explained for i in s.explained.rules if i not in COMMON_RULES}
    shown |= {e.rules[0] for e in result.eligible}
    return {"general": [i for i in result.rules if i not in shown]}


def plan_depends(i: int) -> Callable[[RaisingRobotsState], Any]:
    """What a plan is worked out from: the seat and the competitions in play (not what other seats
    completed this round: everyone in a round plays on the same tile sides)."""
    def part(state: RaisingRobotsState) -> Any:
        comps = state.competitions.model_dump(exclude={"completed_this_round", "completed_round", "marker"})
        return state.seat(i).model_dump(), comps
    return part


@bp.route("/raising-robots/competitions", methods=["GET", "POST"])
def planner_page():
    ps = PageState()
    note = None
    if request.method == "POST":
        form = request.form
        do = form.get("do", "")
        ps.fields(form, _prepare(ps))
        if not ps.problems and do == "add-robot":
            robot, missing = _new_robot(form)
            for path, message in missing:
                ps.problem(path, message)
            if robot is not None and len(ps.state.seat(ps.seat).robots) < MAX_ROBOTS:
                ps.change(rr.add_robot(ps.seat, robot, ps.count))
        elif not ps.problems and do.startswith("remove-robot:"):
            ps.change(rr.remove_robots(ps.seat, [do.split(":", 1)[1]], ps.count))
        elif not ps.problems and (do == "apply" or do.startswith("kept-")):
            result, plan_problems = plan_for(ps)
            ps.problems += plan_problems
            if result and result.plan.steps:
                raw, private = do[5:], None
                k = int(raw) if raw.isdecimal() and len(raw) < 3 else -1
                if do == "apply":
                    steps = result.plan.steps
                    mutate = rr.apply_plan(ps.seat, after_json(steps[-1].after), [s.type for s in steps],
                                           seats=ps.count)
                    text = _applied_note(result, ps.who)
                else:
                    mutate, private, text = _kept(ps, result, k, form)
                try:
                    if mutate is not None and ps.answer(mutate, depends=plan_depends(ps.seat), private=private):
                        note = text
                except InputError as err:  # the deck refused the keep (a card this seat did not draw...)
                    ps.problem(f"_kept.{k}.name", err.message[:1].upper() + err.message[1:] + ".")
    elif ps.table is None:  # cards and sides handed over by the setup helper
        cards = {CRITERIA[c]: c for c in request.args.getlist("card") if c in CRITERIA}
        sides = {t: request.args[f"side-{t}"] for t in COMP_TYPES if request.args.get(f"side-{t}") in ("A", "B")}
        comps = ps.state.competitions.model_copy(update={
            "cards": ps.state.competitions.cards.model_copy(update=cards),
            "sides": ps.state.competitions.sides.model_copy(update=sides)})
        ps.state = ps.state.model_copy(update={"competitions": comps})
        ps.comps = comps
    result, plan_problems = plan_for(ps)
    ps.problems += [p for p in plan_problems if p not in ps.problems]
    if plan_problems and request.method == "POST":
        ps.status = 400
    seat = ps.state.seat(ps.seat)
    return render_template(
        "raising_robots/competitions.html", cur=seat, comps=ps.comps, events=ps.events, result=result, note=note,
        shown=shown_paths(ps), data=GAME_DATA, comp_types=COMP_TYPES, comp_names=COMP_NAMES, short_names=SHORT_NAMES,
        token_types=TOKEN_TYPES, token_labels=TOKEN_LABELS, inv_items=INV_ITEMS, item_labels=ITEM_LABELS,
        value_keys=VALUE_KEYS, value_labels=VALUE_LABELS, exact=exact, defaults=Values(), vp_text=vp_text, default_tile=default_tile,
        tile_entered=lambda t, s, k: present.tile_is_entered(ps.state, t, s, k),
        values_entered=lambda cid: present.card_values_entered(ps.state, cid),
        rule_titles=present.rule_titles([*ALL_RULES, R_TILE_COSTS, R_TOKEN_TYPES]), common_rules=COMMON_RULES,
        rule_lists=_rule_lists(result), from_cards=seat.class_from_cards(), class_now=seat.class_now(),
        kept_choices=KEPT_CHOICES, new_robot=_new_values(request.form, do_add=request.form.get("do") == "add-robot"
                                                          and not ps.problems),
        keep_adding=request.form.get("_new.shown") == "1", top=present.with_label(
            [p for p in ps.problems if p.path not in shown_paths(ps)], ps.state),
        **ps.context()), ps.status


def _new_values(form, do_add: bool) -> dict[str, Any]:
    """What the add-robot form shows: what was typed (a save of other fields keeps it), empty once added."""
    return {k: "" if do_add else (form.get(f"_new.{k}") or "") for k in NEW_ROBOT}


def shown_paths(ps: PageState) -> set[str]:
    """Every field the planner page shows a problem under."""
    s = f"seats.{ps.seat}"
    out = {f"{s}.inventory.{k}" for k in INV_ITEMS}
    out |= {f"{s}.tokens.{w}.{t}" for w in ("unplaced", "placed") for t in TOKEN_TYPES}
    out |= {f"{s}.class_status.meeting_d", f"{s}.class_status.meeting_c", f"{s}.friendship_count",
            f"{s}.friendships.0", f"{s}.friendships.1", f"{s}.inventor.name"}
    for r in ps.state.seat(ps.seat).robots:
        out |= {f"{s}.robots.@{r.id}.{f}" for f in ("row", "vp", "basic_energy", "upgraded_energy", "cost_energy",
                                                      "cost_resources")}
    for t in COMP_TYPES:
        out |= {f"competitions.cards.{t}", f"competitions.tiles.{t}.token_type"}
        out |= {f"competitions.tiles.{t}.{side}.{k}" for side in "AB" for k in ("resources", "batteries")}
    out |= {f"competitions.card_values.{c.id}" for t in COMP_TYPES for c in GAME_DATA.cards_of(t) if c.values}
    out |= {f"competitions.values.{k}" for k in VALUE_KEYS}
    out |= {f"_new.{k}" for k in NEW_ROBOT}
    for k in range(4):
        out |= {f"_kept.{k}.name"} | {f"_kept.{k}.robot.{j}" for j in range(MAX_ROBOTS)}
    return out
