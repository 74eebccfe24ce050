"""Two Robots pages: the factory checker with the turn plan, and the draw odds.

Both keep one seat's factory, hand and turn settings in the table state (`two_robots.players[seat]`,
see `schemas.TwoRobotsState`), and answer with the whole table: every seat's factory and the discard
pile. Without JavaScript each page is a form that posts the cards as short text ("head:cs, arms:c";
"attack:3:Nuclear Explosion!") and re-renders.
"""
from __future__ import annotations

import hashlib
import json
from typing import Annotated

from flask import Blueprint, flash, render_template, request
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from solvers.errors import InputError
from solvers.two_robots.game_data import COMBINATIONS, DATA

from .. import rules as rulebook
from ..api import ApiError, validation_error
from ..db import engine
from ..tables import store
from ..web.context import table_context, update_table
from . import answers, present
from .schemas import (
    ENERGY_LETTER,
    LETTER_ENERGY,
    MAX_PLAN_HAND,
    EventChoice,
    FactoryIn,
    OddsIn,
    PlanIn,
    SalvagerId,
    SeatState,
    TwoRobotsState,
    energies_code,
    grid_key,
)
from .state import read, seat_body, seat_change, table_labels

bp = Blueprint("two_robots", __name__)

MAX_STACK_FIELDS = 5
SHORT = {"chemical": "Chem", "electrical": "Elec", "mechanical": "Mech", "nuclear": "Nucl", "solar": "Solar"}
EVENTS = {"none": "No Event", "power": "A: Power, pay 2 parts", "active_robot": "B: Robot card, pay 1 part"}
FACTORY_RULES = ["tr-energy-stacks", "tr-stacking-part-cards", "tr-liz-example", "tr-how-to-build-a-robot",
                 "tr-duplicate-parts", "tr-frozen-stacks", "tr-attack-defense-cards", "tr-note-lone-hybrid-counts",
                 "tr-clarification-space-pod"]
PLAN_RULES = ["tr-turn-overview", "tr-the-event-phase", "tr-note-sacrifice-anywhere", "tr-cleanup-phase"]
ODDS_RULES = ["tr-turn-overview", "tr-draw-phase", "tr-fact-component-counts", "tr-unverified-card-contents"]


def rule_titles() -> dict[str, str]:
    """Titles of the Two Robots rule entries, so links read as words."""
    return {e.id: e.title for e in rulebook.books()["two-robots"].entries}


# ---- forms -------------------------------------------------------------------------------------------

def _blank_is_missing(v: object) -> object:
    return None if isinstance(v, str) and not v.strip() else v


class SeatForm(BaseModel):
    """The turn settings a page's form posts (text, as forms send it); a field left out keeps its value."""
    model_config = ConfigDict(extra="ignore")
    event: EventChoice | None = None
    actions: Annotated[int, Field(ge=0, le=3)] | None = None
    powers_left: Annotated[int, Field(ge=0, le=5)] | None = None
    health: Annotated[int, Field(ge=0, le=9)] | None = None
    salvager: SalvagerId | None = None
    seat: Annotated[int, Field(ge=0, lt=5)] | None = None

    _blank = field_validator("*", mode="before")(_blank_is_missing)


class GridForm(BaseModel):
    """The odds page's unseen-card counts (`u-head:cs`, `u-attack`, `u-defense`); a blank box is 0."""
    model_config = ConfigDict(extra="ignore")
    parts: dict[str, Annotated[int, Field(ge=0, le=100)]]
    attack: Annotated[int, Field(ge=0, le=100)] = 0
    defense: Annotated[int, Field(ge=0, le=100)] = 0


def _form_problems(err: ValidationError) -> list[dict]:
    return validation_error(err).fields


def read_seat_form(form) -> tuple[SeatForm, list[dict]]:
    try:
        return SeatForm.model_validate({k: form.get(k) for k in SeatForm.model_fields if k in form}), []
    except ValidationError as err:
        return SeatForm(), _form_problems(err)


def seat_index(source, count: int) -> int:
    """The seat a page shows (`?seat=` or the form's): the first one when it names none of the table's."""
    try:
        seat = SeatForm.model_validate({"seat": source.get("seat")}).seat
    except ValidationError:
        return 0
    return seat if seat is not None and seat < count else 0


def seat_dict(seat: SeatState) -> dict:
    """A seat as the pages keep and show it (cards in the stored form, health filled in)."""
    out = {"stacks": [{"cards": [{"kind": "part", "part": c.part, "energies": list(c.energies)} for c in s.cards],
                       "frozen": s.frozen} for s in seat.stacks],
           "hand": [c.stored() for c in seat.hand], "event": seat.event, "actions": seat.actions,
           "powers_left": seat.powers_left, "salvager": seat.salvager, "health": seat.health_now}
    if seat.unseen is not None:
        out["unseen"] = seat.unseen.model_dump()
    return out


def clean_seat(raw: object, names: tuple[str, ...]) -> dict:
    """A seat as stored, read the one way every page reads it (for comparing what a post changed)."""
    return seat_dict(TwoRobotsState.from_stored({"players": [raw], "part_names": list(names)}).seat(0))


def _part_names(state: TwoRobotsState, form=None) -> tuple[tuple[str, ...], list[dict]]:
    """The table's part names (or the defaults); a form may rename the two unverified ones."""
    names = state.names()
    if form is not None and "name2" in form:
        wanted = [*DATA.part_ids[:2], form.get("name2", ""), form.get("name3", "")]
        try:
            names = TwoRobotsState.model_validate({"part_names": wanted}).names()
        except ValidationError:
            return names, [{"path": "part_names", "message": "the two other part names must be different words "
                                                           "(letters and digits), not HEAD or ARMS"}]
    return names, []


def card_code(card: dict) -> str:
    kind = card.get("kind", "part")
    if kind == "part":
        return f"{card['part']}:{energies_code(card['energies'])}"
    text = f"{kind}:{card.get('stacks_required', 0)}"
    if card.get("name"):
        text += f":{card['name']}"
    return text + ("!" if card.get("play") else "")


def parse_cards(text: str, names: tuple[str, ...], path: str, hand: bool) -> tuple[list[dict], list[dict]]:
    """Cards from the form's short text; (cards, problems naming the field)."""
    cards, problems = [], []
    tokens = [t.strip() for t in text.replace("\n", ",").split(",") if t.strip()][:60]
    for k, token in enumerate(tokens):
        where = f"{path}[{k}]"
        head, _, rest = token.partition(":")
        head = head.strip().lower()
        if hand and head in ("attack", "defense"):
            play = rest.endswith("!")
            rest = rest.rstrip("!")
            gold, _, name = rest.partition(":")
            if not gold.strip().isdigit() or not 0 <= int(gold) <= 5:
                problems.append({"path": where, "message": f"“{token}”: write the gold number 0-5, like {head}:3"})
                continue
            cards.append({"kind": head, "name": name.strip()[:60], "stacks_required": int(gold), "play": play})
            continue
        part = next((n for n in names if n == head), None) or next(
            (n for n in names if head and n.startswith(head) and sum(m.startswith(head) for m in names) == 1), None)
        letters = rest.strip().lower()
        energies = [LETTER_ENERGY.get(ch) for ch in letters]
        if part is None:
            problems.append({"path": where, "message": f"“{token}”: the part must be one of {', '.join(names)}"})
        elif not 1 <= len(energies) <= 2 or None in energies or len(set(energies)) != len(energies):
            problems.append({"path": where, "message": f"“{token}”: give one or two energy letters (c, e, m, n, s), "
                                                       "like head:cs"})
        else:
            cards.append({"kind": "part", "part": part, "energies": [e for e in ENERGY_LETTER if e in energies]})
    return cards, problems


def seat_from_form(form, names: tuple[str, ...], old: dict) -> tuple[dict, list[dict], set[str]]:
    """The seat with what the form posted read over `old`: (seat, problems naming the field, the
    fields the form holds)."""
    seat = dict(old)
    touched: set[str] = set()
    settings, problems = read_seat_form(form)
    if any(f"stack{i}" in form for i in range(MAX_STACK_FIELDS)):
        stacks = []
        for i in range(MAX_STACK_FIELDS):
            cards, bad = parse_cards(form.get(f"stack{i}", "")[:2000], names, f"stacks[{i}]", hand=False)
            problems += bad
            if cards:
                stacks.append({"cards": cards, "frozen": form.get(f"frozen{i}") == "on"})
        seat["stacks"] = stacks
        touched.add("stacks")
    if "hand" in form:
        hand, bad = parse_cards(form.get("hand", "")[:2000], names, "hand", hand=True)
        problems += bad
        if len(hand) > MAX_PLAN_HAND:
            problems.append({"path": "hand", "message": f"at most {MAX_PLAN_HAND} cards"})
            hand = hand[:MAX_PLAN_HAND]
        seat["hand"] = hand
        touched.add("hand")
    for name in ("event", "actions", "powers_left", "health"):
        value = getattr(settings, name)
        if value is not None:
            seat[name] = value
            touched.add(name)
    if "salvager" in form:
        seat["salvager"] = settings.salvager
        touched.add("salvager")
    return seat, problems, touched


# ---- saving only what this post changed -------------------------------------------------------------------

SEAT_FIELDS = ("stacks", "hand", "event", "actions", "powers_left", "salvager", "health", "unseen")


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:12]


def shown_digests(seat: dict, names: tuple[str, ...]) -> str:
    """What the page shows of a seat (and the part names), as short digests for a hidden field: a post
    then saves only the fields the player changed, never an older copy of the others."""
    clean = clean_seat(seat, names)
    return json.dumps({"names": _digest(list(names)), **{k: _digest(clean.get(k)) for k in SEAT_FIELDS}})


def changed_fields(form, seat: dict, stored: dict, names: tuple[str, ...], touched: set[str]) -> dict:
    """Of the seat fields the form holds (`touched`), those the post changed: that differ from what the
    page showed (its `shown` digests), or from the stored seat when the form carries no digests."""
    shown = _shown(form)
    clean, before = clean_seat(seat, names), clean_seat(stored, names)
    fields = [k for k in SEAT_FIELDS if k in touched]
    if shown is None:
        return {k: seat.get(k) for k in fields if clean.get(k) != before.get(k)}
    return {k: seat.get(k) for k in fields if shown.get(k) != _digest(clean.get(k))}


def _shown(form) -> dict | None:
    try:
        shown = json.loads(form.get("shown", ""))
    except ValueError:
        return None
    return shown if isinstance(shown, dict) else None


def names_changed(form, names: tuple[str, ...], stored: tuple[str, ...]) -> bool:
    """Did this post rename the table's part names (against what the page showed)?"""
    shown = _shown(form)
    return names != stored if shown is None else shown.get("names") != _digest(list(names))


def _save_seat(table, seat_index: int, fields: dict, names: tuple[str, ...] | None, form):
    """Save this post's change with the table; returns the table as it is now."""
    if not fields and names is None:
        return table
    try:
        saved = update_table(table, seat_change(seat_index, fields, names))
    except store.Conflict:
        flash("Not saved with the table: it kept changing. Try again.", "error")
        return store.get(engine(), table.id) or table
    if form.get("version", "") not in ("", str(table.version)):
        flash("Another phone saved since this page was drawn; your change was added to theirs.", "conflict")
    return saved


def _try(fn, body_model, data: dict) -> tuple[dict | None, list[dict]]:
    try:
        return fn(body_model.model_validate(data)), []
    except ValidationError as err:
        return None, validation_error(err).fields
    except ApiError as err:
        return None, err.fields or [{"path": "body", "message": err.message}]
    except InputError as err:  # the API's error handler answers it there; a page shows it with the form
        return None, [{"path": err.path or "body", "message": err.message}]


def _page_common(source) -> tuple:
    ctx = table_context("two-robots")
    table = ctx["table"]
    state = read(table)
    labels = table_labels(table, state)
    return ctx, table, state, labels, seat_index(source, len(labels))


def _body(state: TwoRobotsState, seat_index: int, seat: dict, names: tuple[str, ...], labels: list[str]) -> dict:
    """The request body for this seat: as the form has it, with the rest of the table as stored."""
    body = seat_body(state, seat_index, labels)
    body |= {"part_names": list(names), "stacks": seat["stacks"], "hand": seat["hand"], "health": seat["health"]}
    body.pop("salvager", None)
    if seat.get("salvager"):
        body["salvager"] = seat["salvager"]
    return body


@bp.route("/two-robots/factory", methods=["GET", "POST"])
def factory_page():
    source = request.form if request.method == "POST" else request.args
    ctx, table, state, labels, index = _page_common(source)
    stored_names = state.names()
    names, problems = _part_names(state, request.form if request.method == "POST" else None)
    stored = seat = seat_dict(state.seat(index))
    if request.method == "POST" and request.form.get("action") != "seat" and not problems:
        seat, problems, touched = seat_from_form(request.form, names, seat)
        if table is not None and not problems:
            rename = names if names_changed(request.form, names, stored_names) else None
            table = ctx["table"] = _save_seat(table, index, changed_fields(request.form, seat, stored, names, touched),
                                              rename, request.form)
            state = read(table)
            stored_names = names = state.names()
            stored = seat = seat_dict(state.seat(index))
    body = _body(state, index, seat, names, labels)
    result = plan = None
    if not problems:
        result, problems = _try(answers.factory_result, FactoryIn, body)
    if result is not None:
        plan_in = dict(body, event=seat["event"], actions=seat["actions"], powers_left=seat["powers_left"])
        if "unseen" in seat:
            plan_in["unseen"] = unseen_body(seat["unseen"])
        plan, plan_problems = _try(answers.plan_result, PlanIn, plan_in)
        problems += plan_problems
    status = 400 if request.method == "POST" and problems else 200
    return render_template(
        "two_robots/factory.html", seat=seat, seat_index=index, seat_names=labels, result=result,
        plan=plan, problems=problems, names=names, part_sources=[p.source for p in DATA.part_names],
        energies=DATA.energies, events=EVENTS,
        codes={"stacks": [", ".join(card_code(c) for c in s["cards"]) for s in seat["stacks"]],
               "hand": ", ".join(card_code(c) for c in seat["hand"])},
        max_stacks=MAX_STACK_FIELDS, letters=ENERGY_LETTER, version=table.version if table is not None else "",
        shown=shown_digests(stored, stored_names), default_names=DATA.part_ids, factory_rules=FACTORY_RULES,
        plan_rules=PLAN_RULES, rule_titles=rule_titles(), short=SHORT, salvagers=DATA.salvagers,
        pile=present.robot_pile(table.players if table is not None else None), **ctx), status


# ---- the odds page -------------------------------------------------------------------------------------

def unseen_body(grid: dict) -> list[dict]:
    """The odds page's count grid as the API's `unseen` list."""
    out = []
    for key, n in grid["parts"].items():
        part, _, code = key.partition(":")
        out.append({"kind": "part", "part": part, "energies": [LETTER_ENERGY[ch] for ch in code], "count": n})
    out.append({"kind": "attack", "name": "Attack cards", "count": grid["attack"]})
    out.append({"kind": "defense", "name": "Defense cards", "count": grid["defense"]})
    return out


def pool_grid(body: dict, names: tuple[str, ...]) -> dict:
    """The unseen cards the solver finds for this seat (deck minus every card in sight), as the grid."""
    t = answers.table_input(FactoryIn.model_validate(body))
    parts = {grid_key(n, c): 0 for n in names for c in COMBINATIONS}
    attack = defense = 0
    for u in t.pool.cards:
        if u.part is not None:
            parts[grid_key(u.part.part, u.part.energies)] = u.count
        elif u.kind == "attack":
            attack = u.count
        else:
            defense = u.count
    return {"parts": parts, "attack": attack, "defense": defense}


def _pool_or_empty(body: dict, names: tuple[str, ...]) -> dict:
    try:
        return pool_grid(body, names)
    except (ApiError, InputError, ValidationError):  # an impossible factory: the page says so below
        return {"parts": {}, "attack": 0, "defense": 0}


def _wanted_flags(unseen: list[dict], want: dict, names: tuple[str, ...]) -> tuple[list[dict], str]:
    """Mark the unseen cards the chosen wish covers; returns (cards, what the wish is in words)."""
    kind = want.get("kind", "robot")
    if kind == "robot":
        return unseen, "a part that finishes a robot"
    if kind in ("attack", "defense"):
        return [dict(u, wanted=u["kind"] == kind) for u in unseen], f"an {kind.title()} card" if kind == "attack" \
            else "a Defense card"
    part = want.get("part") if want.get("part") in names else None
    energy = want.get("energy") if want.get("energy") in ENERGY_LETTER else None
    out = [dict(u, wanted=u["kind"] == "part" and (part is None or u["part"] == part)
                and (energy is None or energy in u["energies"])) for u in unseen]
    words = f"{'a ' + part.upper() if part else 'a part'}{' that carries ' + energy.title() if energy else ''}"
    return out, words


def read_grid(form, names: tuple[str, ...]) -> tuple[dict | None, list[dict]]:
    keys = [grid_key(n, c) for n in names for c in COMBINATIONS]
    raw = {"parts": {k: form.get(f"u-{k}", "").strip() or 0 for k in keys},
           "attack": form.get("u-attack", "").strip() or 0, "defense": form.get("u-defense", "").strip() or 0}
    try:
        return GridForm.model_validate(raw).model_dump(), []
    except ValidationError as err:
        return None, [{"path": f["path"].replace("parts.", "u-"), "message": f["message"]}
                      for f in _form_problems(err)]


@bp.route("/two-robots/odds", methods=["GET", "POST"])
def odds_page():
    source = request.form if request.method == "POST" else request.args
    ctx, table, state, labels, index = _page_common(source)
    names = state.names()
    problems: list[dict] = []
    seat = seat_dict(state.seat(index))
    want = {"kind": source.get("want", "robot"), "part": source.get("want_part", ""),
            "energy": source.get("want_energy", "")}
    if want["kind"] not in ("robot", "part", "attack", "defense"):
        want["kind"] = "robot"
    stored = seat
    if request.method == "POST" and request.form.get("action") not in ("seat", None):
        action = request.form.get("action")
        seat, problems, touched = seat_from_form(request.form, names, seat)
        before = stored if table is not None else seat  # the seat the grid on screen was drawn for
        if action == "reset":
            seat.pop("unseen", None)
        elif any(k.startswith("u-") for k in request.form):
            touched.add("unseen")
            grid, bad = read_grid(request.form, names)
            problems += bad
            if grid is not None and not problems:
                shown = before.get("unseen") or _pool_or_empty(_body(state, index, before, names, labels), names)
                shown = dict(shown, parts={k: shown["parts"].get(k, 0) for k in grid["parts"]})
                if grid != shown:  # only counts the player changed replace the default
                    seat["unseen"] = grid
        if table is not None and not problems:
            fields = changed_fields(request.form, seat, stored, names, touched)
            if action == "reset":  # an explicit command: the counts go, whatever the page showed
                fields["unseen"] = None
            table = ctx["table"] = _save_seat(table, index, fields, None, request.form)
            state = read(table)
            stored = seat = seat_dict(state.seat(index))
    body = _body(state, index, seat, names, labels)
    unseen = None
    if not problems:
        try:
            unseen = seat.get("unseen") or pool_grid(body, names)
        except (ApiError, InputError, ValidationError) as err:
            problems = [{"path": getattr(err, "path", "stacks"), "message": getattr(err, "message", str(err))}]
    odds = None
    wish = ""
    if unseen is not None:
        cards, wish = _wanted_flags(unseen_body(unseen), want, names)
        if sum(c["count"] for c in cards) > 0:
            odds, problems = _try(answers.odds_result, OddsIn, dict(body, unseen=cards))
        else:
            problems = [{"path": "unseen", "message": "no unseen cards: enter how many of each card are left"}]
    counts = unseen or {"parts": {}, "attack": 0, "defense": 0}
    grid = [{"combo": list(c), "code": energies_code(c),
             "cells": [{"part": n, "key": grid_key(n, c), "count": counts["parts"].get(grid_key(n, c), 0)}
                       for n in names]} for c in COMBINATIONS]
    status = 400 if request.method == "POST" and problems else 200
    return render_template(
        "two_robots/odds.html", codes={"stacks": [", ".join(card_code(c) for c in s["cards"]) for s in seat["stacks"]],
                                       "hand": ", ".join(card_code(c) for c in seat["hand"])},
        max_stacks=MAX_STACK_FIELDS, seat=seat, seat_index=index, seat_names=labels, odds=odds, wish=wish,
        want=want, problems=problems, grid=grid, unseen=counts, default=("unseen" not in seat or not seat["unseen"]),
        names=names, energies=DATA.energies, letters=ENERGY_LETTER,
        version=table.version if table is not None else "", shown=shown_digests(stored, names), odds_rules=ODDS_RULES,
        rule_titles=rule_titles(), **ctx), status
