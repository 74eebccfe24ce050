"""Raising Robots: the round-end abilities (Johannes, Charlotte, Sacagawea, Friendship gains) in the order
the player sets (API and page).

JSON: POST /api/raising-robots/round-end. Page: /raising-robots/round-end, which keeps each seat's order
and choices in `rr_round_end.seats`, and (on "apply") what the round left in the seat's inventory and robots.
"""
from __future__ import annotations

import copy
from typing import Annotated, Literal

from flask import Blueprint, jsonify, render_template, request
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from solvers.raising_robots import abilities
from solvers.raising_robots import round_end as rend
from solvers.raising_robots.model import ITEM_LABELS, ITEM_WORDS, ITEMS, ROW_NAMES, Robot
from solvers.raising_robots.scoring_data import SCORING_DATA

from ..api import parse
from ..web.context import as_dict, table_context
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

bp = Blueprint("rr_round_end", __name__)
STATE_KEY = "rr_round_end"

# ---- request models -----------------------------------------------------------------------------

WildItem = Literal["sensor", "gear", "microchip", "program", "robot_cards"]
# item dicts are keyed by plain strings: the solver names a wrong key as its own field
# (abilities[0].pay_wilds.duct_tape: "only sensor, gear, ... can pay here")
Items = dict[str, int]


def _ability_id(value: object) -> object:
    """An ability by its id or its name ("Temple", "Johannes"): the name read as the round-end ability."""
    if isinstance(value, str):
        key = abilities.ability_id(value)
        return rend.ALIASES.get(key, key)
    return value


class AbilityIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: Annotated[Literal[tuple(rend.ABILITIES)], BeforeValidator(_ability_id)]  # type: ignore[valid-type]
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
    # Confucius as inventor, on a Charlotte assembly or unlock: the Scroll Board objective met, its gain,
    # and the line reward when it completes a row or column
    scroll_objective: str | None = Field(default=None, min_length=1, max_length=80)
    scroll_gain: Literal["batteries", "sensor", "gear", "microchip", "program", "robot_cards"] | None = None
    scroll_line: Literal["battery_and_duct_tape", "vp"] | None = None

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
            search=self.search, reward=self.reward, per_robot=tuple(self.per_robot),
            scroll_objective=self.scroll_objective, scroll_gain=self.scroll_gain, scroll_line=self.scroll_line)


class ScrollBoardIn(BaseModel):
    """Confucius's Scroll Board as the player reads it (its objectives are not printed in the rulebook):
    the objectives and those already covered by a token."""
    model_config = ConfigDict(extra="forbid")
    objectives: list[Annotated[str, Field(min_length=1, max_length=80)]] | None = Field(default=None, max_length=16)
    done: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(default_factory=list, max_length=16)


class RoundEndIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    inventory: InventoryIn = Field(default_factory=InventoryIn)
    robots: list[RobotIn] = Field(default_factory=list, max_length=15)
    abilities: list[AbilityIn] = Field(default_factory=list, max_length=12)
    sacagawea_ongoing: bool | None = None
    inventor: InventorIn | None = None
    friendships: Friendships = 0
    scroll_board: ScrollBoardIn = Field(default_factory=ScrollBoardIn)

    def seat(self) -> rend.Seat:
        who = who_of(self.inventor, self.friendships)
        return rend.Seat(sacagawea=who.robot_cards_as_duct_tape, yo_yo="yo_yo" in who.friendships,
                         confucius=who.inventor == "confucius",
                         scroll_objectives=tuple(self.scroll_board.objectives) if self.scroll_board.objectives
                         is not None else None, scroll_done=tuple(self.scroll_board.done))


# ---- the solver call shared by the API and the page ----------------------------------------------

def round_end(body: RoundEndIn) -> dict:
    # an InputError from the solver (a choice that does not fit) is the API's 400 naming the field
    r = rend.run(body.inventory.to_solver(), [x.to_solver() for x in body.robots],
                 [a.to_solver() for a in body.abilities], body.sacagawea_ongoing, body.seat())
    who = who_of(body.inventor, body.friendships)
    taken = abilities.treatments(who, abilities.ROUND_END_MODELLED, {  # whole text known: nothing at round end
        "susan": "no round-end ability", "william": "no round-end ability",
        "friendship:johannes": "its gain comes when it is kept (list it in the round you keep it)"})
    note = abilities.not_taken_note(taken, "round end")
    listed = {a.id for a in body.abilities}
    missing = [abilities.display_name(t.ability) for t in taken if t.treatment == "modelled"
               and t.ability in ("johannes", "charlotte", "sacagawea") and t.ability not in listed and t.role == "inventor"]
    return {
        "inventory_after": r.inventory_after.as_dict(),
        "robots_after": [_robot_json(x) for x in r.robots_after],
        "tokens_unlocked": r.tokens_unlocked,
        "steps": [{"ability": s.ability, "part": s.part, "name": s.name, "gained": s.gained, "why": s.why,
                   "rule": s.rule, "rules": list(s.rules), "link": s.link, "index": s.index,
                   "robot_added": _robot_json(s.robot_added) if s.robot_added else None} for s in r.steps],
        "notes": list(r.notes) + ([note] if note else []) + [
            f"{name} is your inventor but not in the order: add it to apply its round-end ability." for name in missing],
        "abilities": taken_json(taken),
        "rules": list(dict.fromkeys([*rend.RULE_ORDER, *(i for s in r.steps for i in s.rules)])),
    }


def _robot_json(r: Robot) -> dict:
    return {"row": r.row, "column": r.column, "any_row": r.any_row, "cost_energy": list(r.cost_energy),
            "cost_resources": list(r.cost_resources), "basic_energy": r.basic_energy,
            "upgraded_energy": r.upgraded_energy, "upgraded": r.upgraded, "vp": r.vp,
            "needs_microchip": r.needs_microchip}


@bp.post("/api/raising-robots/round-end")
def api_round_end():
    return jsonify(round_end(parse(RoundEndIn)))


# ---- the page -------------------------------------------------------------------------------------

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
WILD_NAMES = {k: ITEM_WORDS[k][0][0].upper() + ITEM_WORDS[k][0][1:] for k in rend.WILD_ITEMS}
PAY_NAMES = {k: ITEM_WORDS[k][0][0].upper() + ITEM_WORDS[k][0][1:] for k in rend.PAY_ITEMS}
CONFUCIUS_CHOICES = ("batteries", "sensor", "gear", "microchip", "program", "robot_cards")


def round_choices_from(raw) -> dict:
    """The round-end page's own entries (order and choices), safe to read."""
    raw = as_dict(raw)
    order = as_dict(raw.get("order"))
    clean_order = {f"{a}-{p}": n for a, p in PARTS if (n := whole(order.get(f"{a}-{p}"), 1, 9, 0))}

    def counts(key: str, allowed) -> dict:
        return {k: v for k, v in as_dict(raw.get(key)).items() if k in allowed and whole(v, 0, 99, 0)}

    return {
        "order": clean_order,
        "ch_action": raw.get("ch_action") if raw.get("ch_action") in rend.CHARLOTTE_ACTIONS else "skip",
        "ch_wilds": counts("ch_wilds", WILD_NAMES), "ch_pay": counts("ch_pay", PAY_NAMES),
        "ch_row": raw.get("ch_row") if raw.get("ch_row") in ROW_NAMES else "design",
        "ch_cost": whole(raw.get("ch_cost"), 0, 20, 2), "ch_vp": whole(raw.get("ch_vp"), 0, 20, 3),
        "ch_extra": whole(raw.get("ch_extra"), 0, 20, 0),
        "ch_chip": raw.get("ch_chip") is True,
        "ch_gain": raw.get("ch_gain") if raw.get("ch_gain") in WILD_NAMES else "",
        "sa_search": raw.get("sa_search", True) is not False,
        "sa_reward": raw.get("sa_reward") if raw.get("sa_reward") in rend.SACAGAWEA_REWARDS else "",
        "sa_ongoing": raw.get("sa_ongoing") is True,
        "co": counts("co", CONFUCIUS_CHOICES),
    }


def round_choices_from_form(f: FormReader) -> dict:
    form = f.form
    order = {}
    for a, p in PARTS:
        v = f.int(f"ord-{a}-{p}", 1, 9, None, label=f"Order of {PART_NAMES[(a, p)]}")
        if v is not None:
            order[f"{a}-{p}"] = v

    def counts(prefix: str, names, label: str) -> dict:
        out = {}
        for k in names:
            v = f.int(f"{prefix}-{k}", 0, 99, 0, label=f"{label} {k.replace('_', ' ')}")
            if v:
                out[k] = v
        return out

    return round_choices_from({
        "order": order, "ch_action": form.get("ch-action"), "ch_wilds": counts("ch-w", WILD_NAMES, "Charlotte's wilds:"),
        "ch_pay": counts("ch-p", PAY_NAMES, "Payment for the robot:"), "ch_row": form.get("ch-row"),
        "ch_cost": f.int("ch-cost", 0, 20, 2, label="The robot's cheaper cost"),
        "ch_vp": f.int("ch-vp", 0, 20, 3, label="The robot's VP"),
        "ch_extra": f.int("ch-extra", 0, 20, 0, label="The slot's extra cost"),
        "ch_chip": bool(form.get("ch-chip")), "ch_gain": form.get("ch-gain"),
        "sa_search": bool(form.get("sa-search")), "sa_reward": form.get("sa-reward"),
        "sa_ongoing": bool(form.get("sa-ongoing")), "co": counts("co", CONFUCIUS_CHOICES, "Confucius:"),
    })


def round_end_body(inventory: dict, occupied: list[str], ch: dict, who: dict | None = None) -> dict:
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
    body = {"inventory": inventory, "robots": robots, "abilities": abilities, **(who or {})}
    if ch["sa_ongoing"]:
        body["sacagawea_ongoing"] = True
    return body


def _run_round_end(body: dict) -> tuple[dict | None, list[dict]]:
    return answer_or_problems(lambda: round_end(RoundEndIn.model_validate(body)))


def round_model(seat: dict, choices: dict) -> dict:
    """What the form shows of a seat, as changes are worked out: the page's own entries, the inventory
    and the robots in the play area (by id: which slot each one fills)."""
    in_slots = {r["id"] for r in slots_of(seat).values()}
    return {"choices": choices, "inventory": dict(seat["inventory"]),
            "robots": robot_fields(seat, [r for r in seat["robots"] if r["id"] in in_slots], ("row", "column"))}


def _occupied(model: dict) -> list[str]:
    return sorted(slots_of(seat_from_model(model)))


def model_from_form(f: FormReader, old: dict) -> dict:
    """The form model the posted form describes, on top of the one the page was drawn from."""
    form = f.form
    new = {"choices": round_choices_from_form(f),
           "inventory": {k: f.int(f"inv-{k}", 0, 999, v, label=ITEM_LABELS[k]) for k, v in old["inventory"].items()}}
    old_slots = slots_of(seat_from_model(old))
    robots = dict(old["robots"])
    # the play area's boxes are read only from the page's own form (an unticked box sends nothing)
    for row in ROW_NAMES if any(k.startswith("inv-") for k in form) else ():
        for col in range(1, 6):
            key = f"{row}-{col}"
            if form.get(f"occ-{key}") and key not in old_slots:
                robots[new_robot_id()] = {"row": row, "column": col}
            elif not form.get(f"occ-{key}") and key in old_slots:
                robots.pop(old_slots[key]["id"], None)
    new["robots"] = robots
    return new


def applied(model: dict, result: dict) -> dict:
    """The model once the round is over: what it left is the inventory and play area to start from (robots
    Charlotte assembled keep all their numbers), and the order is cleared."""
    robots = dict(model["robots"])
    for step in result["steps"]:
        if step["robot_added"]:
            robots[new_robot_id()] = {k: v for k, v in step["robot_added"].items() if v is not None}
    return {"choices": {**model["choices"], "order": {}}, "inventory": dict(result["inventory_after"]),
            "robots": robots}


def round_end_change(seat_index: int, old: dict, new: dict):
    """The save: only what changed, on the newest seat and this page's entries for it."""
    items = changes(old, new)

    def mutate(state: dict) -> dict:
        rre = dict(as_dict(state.get(STATE_KEY)))
        seats = dict(as_dict(rre.get("seats")))
        seats[str(seat_index)] = apply_changes(dict(as_dict(seats.get(str(seat_index)))), under(items, "choices"))
        state[STATE_KEY] = {**rre, "seats": seats}
        return change_seat(state, seat_index, [c for c in items if c[0][0] in ("inventory", "robots")])
    return mutate


def _seat_state(state: dict, n: int, seat: int) -> tuple[dict, dict]:
    choices = round_choices_from(as_dict(as_dict(state.get(STATE_KEY)).get("seats")).get(str(seat)))
    return seats_from(state.get(SEATS_KEY), n)[seat], choices


@bp.route("/raising-robots/round-end", methods=["GET", "POST"])
def round_end_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]  # a GET never writes: robots without an id get one from their content when read
    src = request.form if request.method == "POST" else request.args
    n = seat_count(table, src)
    names = names_of(table, n)
    seat = FormReader(src).int("seat", 0, n - 1, 0) or 0
    state = table.state if table is not None else {}
    problems: list[dict] = []
    note = None
    if request.method == "POST" and request.form.get("action") != "switch":
        drawn = read_drawn(request.form) if table is not None else None
        at = whole(drawn.get("seat"), 0, n - 1, seat) if drawn else seat  # the seat the entries were made for
        old = round_model(*_seat_state(state, n, at))
        if drawn:
            old = round_model(seat_from_model(drawn), round_choices_from(drawn.get("choices")))
        f = FormReader(request.form)
        new = model_from_form(f, old)
        problems = f.problems
        if request.form.get("action") == "apply" and not problems:
            result, _ = _run_round_end(round_end_body(new["inventory"], _occupied(new), new["choices"]))
            if result is not None:
                new = applied(new, result)
                who = "your" if n == 1 else f"{names[at]}’s"
                note = (f"The result is now {who} inventory (the Final score and planner pages show it); "
                        "the order was cleared.")
                if result["tokens_unlocked"]:
                    note += " Charlotte unlocked an upgrade token: add it, by its type, on the Competitions planner."
        mutate = round_end_change(at, old, new)
        if table is not None and not problems:
            table = ctx["table"] = save(table, mutate)
            state = table.state
        else:
            state = mutate(copy.deepcopy(state))  # what was typed stays on the page
    shown, choices = _seat_state(state, n, seat)
    model = round_model(shown, choices)
    inventory, occupied = model["inventory"], _occupied(model)
    result, result_problems = _run_round_end(round_end_body(inventory, occupied, choices, who_body(shown))) \
        if not problems else (None, [])
    return render_template(
        "raising_robots/round_end.html", names=names, seat=seat, n=n, inventory=inventory,
        occupied=set(occupied), ch=choices, result=result, problems=problems + result_problems, note=note,
        parts=PARTS, part_names=PART_NAMES, items=ITEMS, item_names=ITEM_LABELS, row_names=ROW_NAMES,
        item_pairs=[(k, ITEM_LABELS[k]) for k in ITEMS],
        wild_names=WILD_NAMES, pay_names=PAY_NAMES, confucius=CONFUCIUS_CHOICES,
        slot_extra=SCORING_DATA.slot_extra_cost,
        round_rules=list(rend.RULE_ORDER) if result is None else result["rules"],
        rule_titles=rule_titles(rend.ALL_RULES), drawn=drawn_json({**model, "seat": seat}), problem_text=problem_text,
        version=table.version if table is not None else "", **ctx), (400 if problems else 200)
