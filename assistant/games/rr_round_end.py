"""Raising Robots: the round-end abilities (Johannes, Charlotte, Sacagawea, Friendship gains) in the order
the player sets (API and page).

JSON: POST /api/raising-robots/round-end. Page: /raising-robots/round-end, which keeps each seat's order
and choices in `rr_round_end.seats`, and (on "apply") what the round left in the seat's inventory and robots.
"""
from __future__ import annotations

from typing import Literal

from flask import Blueprint, jsonify, render_template, request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from solvers.raising_robots import round_end as rend
from solvers.raising_robots.model import ITEM_LABELS, ITEM_WORDS, ITEMS, ROW_NAMES, Robot
from solvers.raising_robots.scoring_data import SCORING_DATA

from ..api import parse
from ..page_helpers import as_dict, as_list, state_part, table_context
from .rr_forms import FormReader, answer_or_problems, whole
from .rr_models import InventoryIn, RobotIn, rule_titles
from .rr_seats import SEATS_KEY, clean_seat, names_of, seat_count, seats_from, slots_of
from .rr_table import save

bp = Blueprint("rr_round_end", __name__)
STATE_KEY = "rr_round_end"

# ---- request models -----------------------------------------------------------------------------

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


# ---- the solver call shared by the API and the page ----------------------------------------------

def round_end(body: RoundEndIn) -> dict:
    # an InputError from the solver (a choice that does not fit) is the API's 400 naming the field
    r = rend.run(body.inventory.to_solver(), [x.to_solver() for x in body.robots],
                 [a.to_solver() for a in body.abilities], body.sacagawea_ongoing)
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
    return answer_or_problems(lambda: round_end(RoundEndIn.model_validate(body)))


@bp.route("/raising-robots/round-end", methods=["GET", "POST"])
def round_end_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]
    src = request.form if request.method == "POST" else request.args
    n = seat_count(table, src)
    names = names_of(table, n)
    seat = FormReader(src).int("seat", 0, n - 1, 0) or 0
    seats = seats_from(as_list(table.state.get(SEATS_KEY)) if table is not None else [], n)
    choices = round_choices_from(as_dict(state_part(table, STATE_KEY).get("seats")).get(str(seat)))
    inventory = seats[seat]["inventory"]
    occupied = sorted(slots_of(seats[seat]))
    problems: list[dict] = []
    note = None
    assembled: dict[str, dict] = {}  # robots Charlotte assembled, by slot: kept with all their numbers
    if request.method == "POST" and request.form.get("action") != "switch":
        f = FormReader(request.form)
        choices = round_choices_from_form(f)
        inventory = {k: f.int(f"inv-{k}", 0, 999, 0, label=ITEM_LABELS[k]) for k in ITEMS}
        occupied = [f"{r}-{c}" for r in ROW_NAMES for c in range(1, 6) if request.form.get(f"occ-{r}-{c}")]
        problems = f.problems
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
            rre = dict(as_dict(state.get(STATE_KEY)))
            rre["seats"] = {**as_dict(rre.get("seats")), str(i): ch}
            state[STATE_KEY] = rre
            players = list(as_list(state.get(SEATS_KEY)))
            players += [{} for _ in range(i + 1 - len(players))]
            have = slots_of(clean_seat(players[i]))
            robots = [r for k, r in have.items() if k in occ]
            robots += [new.get(k) or {"row": k.rpartition("-")[0], "column": int(k.rpartition("-")[2])}
                       for k in occ if k not in have]
            players[i] = {**as_dict(players[i]), "inventory": inv, "robots": robots}
            state[SEATS_KEY] = players
            return state
        table = save(table, mutate)
        ctx["table"] = table
    return render_template(
        "raising_robots/round_end.html", names=names, seat=seat, n=n, inventory=inventory,
        occupied=set(occupied), ch=choices, result=result, problems=problems + result_problems, note=note,
        parts=PARTS, part_names=PART_NAMES, items=ITEMS, item_names=ITEM_LABELS, row_names=ROW_NAMES,
        item_pairs=[(k, ITEM_LABELS[k]) for k in ITEMS],
        wild_names=WILD_NAMES, pay_names=PAY_NAMES, confucius=CONFUCIUS_CHOICES,
        slot_extra=SCORING_DATA.slot_extra_cost,
        round_rules=list(rend.RULE_ORDER) if result is None else result["rules"],
        rule_titles=rule_titles(rend.ALL_RULES),
        version=table.version if table is not None else "", **ctx), (400 if problems else 200)
