"""Two Robots: the factory checker, the turn planner and the draw odds (JSON API and pages)."""
from __future__ import annotations

import hashlib
import json
import re
from fractions import Fraction
from typing import Literal

from flask import Blueprint, flash, render_template, request
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from solvers.errors import InputError
from solvers.exact import exact
from solvers.two_robots.as_json import apocalypse_json, factory_json, hand_json, odds_json, plan_json
from solvers.two_robots.factory import (
    ENERGIES,
    Factory,
    FactoryView,
    HandCard,
    Part,
    Stack,
    analyse,
    apocalypse_check,
    check_part_names,
    hand_problems,
    hand_view,
)
from solvers.two_robots.game_data import DATA
from solvers.two_robots.odds import UnseenCard, check_unseen_names, completing, draw_odds, unseen_from_deck
from solvers.two_robots.planner import Turn, plan_turn

from .. import rules as rulebook
from ..api import ApiError, bad_field, parse, validation_error
from ..db import engine
from ..tables import store
from ..web.context import as_dict, as_list, seat_names, state_part, table_context, update_table

bp = Blueprint("two_robots", __name__)

# the solver's and the game data's names, as the request models' allowed values
Energy = Literal[ENERGIES]
SalvagerId = Literal[tuple(sv.id for sv in DATA.salvagers)]


def _name(value: object) -> object:
    return value.strip().lower().replace(" ", "_") if isinstance(value, str) else value


# ---- request models --------------------------------------------------------------------------------

def _different(v: list[str] | None) -> list[str] | None:
    if v is not None and len(set(v)) != len(v):
        raise ValueError("a hybrid has two different energies")
    return v


class PartIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    part: str = Field(min_length=1, max_length=30)
    energies: list[Energy] = Field(min_length=1, max_length=2)

    _norm = field_validator("part", mode="before")(_name)
    _hybrid = field_validator("energies")(_different)

    def to_solver(self) -> Part:
        return Part.of(self.part, self.energies)


class StackIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    cards: list[PartIn] = Field(min_length=1, max_length=60)
    frozen: bool = False


class CardIn(BaseModel):
    """A card of the Action deck: a part (`part` and `energies`) or an Attack or Defense card."""
    model_config = ConfigDict(extra="ignore")
    kind: Literal["part", "attack", "defense"] = "part"
    part: str | None = Field(default=None, min_length=1, max_length=30)
    energies: list[Energy] | None = Field(default=None, min_length=1, max_length=2)
    name: str = Field(default="", max_length=60)

    _norm = field_validator("part", mode="before")(_name)
    _hybrid = field_validator("energies")(_different)

    @model_validator(mode="after")
    def _complete(self) -> CardIn:
        if self.kind == "part" and (self.part is None or self.energies is None):
            raise ValueError("a part card needs `part` and `energies`")
        return self


class HandCardIn(CardIn):
    stacks_required: int | None = Field(default=None, ge=0, le=5)
    play: bool = False

    @model_validator(mode="after")
    def _gold(self) -> HandCardIn:
        if self.kind != "part" and self.stacks_required is None:
            raise ValueError("an Attack or Defense card needs `stacks_required` (its gold number)")
        return self

    def to_solver(self) -> HandCard:
        if self.kind == "part":
            return HandCard("part", Part.of(self.part or "", self.energies or []))
        return HandCard(self.kind, None, self.name, self.stacks_required or 0, self.play)


class FactoryIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    part_names: list[str] | None = Field(default=None, min_length=4, max_length=4)
    stacks: list[StackIn] = Field(default_factory=list, max_length=10)
    hand: list[HandCardIn] = Field(default_factory=list, max_length=40)
    salvager: SalvagerId | None = None

    @field_validator("part_names", mode="before")
    @classmethod
    def _names(cls, v: object) -> object:
        if isinstance(v, list):
            v = [_name(x) for x in v]
            if all(isinstance(x, str) for x in v):
                if len(set(v)) != len(v):
                    raise ValueError("the four part names must be different")
                if any(not x or len(x) > 30 for x in v):
                    raise ValueError("each part name has 1 to 30 characters")
        return v

    def names(self) -> tuple[str, ...]:
        return tuple(self.part_names) if self.part_names else DATA.part_ids


class UnseenIn(CardIn):
    count: int = Field(default=1, ge=0, le=100)
    wanted: bool = False


MAX_PLAN_HAND = 15  # the hand limit is 7 and a draw adds 3; more would only slow the exhaustive search


class PlanIn(FactoryIn):
    unseen: list[UnseenIn] | None = Field(default=None, max_length=120)
    actions: int = Field(default=DATA.actions, ge=0, le=3)
    event: Literal["none", "power", "active_robot"] = "none"
    powers_left: int = Field(default=3, ge=0, le=5)
    hand_limit: int = Field(default=DATA.hand_limit, ge=0, le=30)


class OddsIn(FactoryIn):
    unseen: list[UnseenIn] | None = Field(default=None, max_length=120)
    draws: int = Field(default=DATA.draw, ge=1, le=10)


# ---- turning requests into solver input -----------------------------------------------------------

def factory_from(body: FactoryIn) -> Factory:
    return Factory(tuple(Stack(tuple(c.to_solver() for c in s.cards), s.frozen) for s in body.stacks))


def unseen_from(body: PlanIn | OddsIn, factory: Factory, hand: list[HandCard]) -> tuple[tuple[UnseenCard, ...], list[str], str]:
    """The unseen cards entered, or the default deck (unverified composition) minus what is in sight."""
    names = body.names()
    if body.unseen is not None:
        out = tuple(UnseenCard("part", Part.of(u.part, u.energies or []), u.name, u.count, u.wanted)
                    if u.kind == "part" and u.part is not None
                    else UnseenCard(u.kind, None, u.name or u.kind.title(), u.count, u.wanted) for u in body.unseen)
        check_unseen_names(out, names)
        if sum(u.count for u in out) == 0:
            raise bad_field("unseen", "no unseen cards: enter how many of each card are left")
        return out, [], "entered"
    visible = [c for s in factory.stacks for c in s.cards] + [c.part for c in hand if c.part is not None]
    unseen, notes = unseen_from_deck(DATA.default_deck(names), DATA.deck_attack, DATA.deck_defense, visible,
                                     sum(c.kind == "attack" for c in hand), sum(c.kind == "defense" for c in hand))
    notes.insert(0, "Unseen cards: the default deck (one part of each name per energy combination, unverified) "
                    "minus your factory and hand; enter the unseen cards for exact odds.")
    return unseen, notes, "default"


def impossible(view_problems) -> ApiError:
    fields = [{"path": f"stacks[{i}]", "message": p.message} for p in view_problems for i in p.stacks]
    first = view_problems[0]
    where = ", ".join(f"stacks[{i}]" for i in first.stacks)
    return ApiError(400, "impossible_factory", f"{where}: {first.message}", fields,
                    extra={"problems": [{"stacks": list(p.stacks), "message": p.message} for p in view_problems]})


def possible_factory(body: FactoryIn) -> tuple[tuple[str, ...], Factory, list[HandCard], FactoryView]:
    """(part names, factory, hand, the factory's view) of a request; a 400 naming the card with a part
    name not at the table (a solver InputError) or the stacks that cannot be."""
    names = body.names()
    factory = factory_from(body)
    hand = [c.to_solver() for c in body.hand]
    check_part_names(factory, hand, names)
    view = analyse(factory, names)
    if view.problems:
        raise impossible(view.problems)
    return names, factory, hand, view


def factory_result(body: FactoryIn) -> dict:
    """The factory endpoint's answer (also rendered by the factory page)."""
    names, factory, hand, view = possible_factory(body)
    out = factory_json(factory, view)
    views = [hand_view(factory, c, names) for c in hand]
    out["hand"] = hand_json(views)
    # the factory is possible; what cannot work in it is said here, one sentence per card
    out["problems"] = [{"stacks": list(p.stacks), "hand": p.hand, "message": p.message}
                       for p in hand_problems(factory, views, DATA.actions)]
    out["part_names"] = list(names)
    if body.salvager == "apocalypse":
        out["apocalypse"] = apocalypse_json(apocalypse_check(factory, names))
    return out


# ---- JSON API ----------------------------------------------------------------------------------------

@bp.post("/api/two-robots/factory")
def api_factory():
    return factory_result(parse(FactoryIn))


def plan_result(body: PlanIn) -> dict:
    if len(body.hand) > MAX_PLAN_HAND:
        raise bad_field("hand", f"the planner takes at most {MAX_PLAN_HAND} cards (your hand limit is 7)")
    names, factory, hand, _ = possible_factory(body)
    unseen, notes, source = unseen_from(body, factory, hand)
    plan = plan_turn(Turn(factory, tuple(hand), names, unseen, body.actions, body.event, body.powers_left,
                          body.hand_limit))
    out = plan_json(plan, names)
    out["notes"] = notes + out["notes"]
    out["unseen_source"] = source
    return out


def odds_result(body: OddsIn) -> dict:
    names, factory, hand, _ = possible_factory(body)
    unseen, notes, source = unseen_from(body, factory, hand)
    marked = [j for j, u in enumerate(unseen) if u.wanted]
    completions = completing(factory, unseen, names, body.draws)
    if marked:
        mode, wanted = "marked", marked
    else:
        mode, wanted = "completes_robot", sorted({j for c in completions for j in c.cards})
    out = odds_json(draw_odds(unseen, wanted, body.draws), unseen, wanted, completions, mode)
    out["notes"] = notes
    out["unseen_source"] = source
    return out


@bp.get("/api/two-robots/data")
def api_data():
    return game_data_json()


@bp.post("/api/two-robots/plan")
def api_plan():
    return plan_result(parse(PlanIn))


@bp.post("/api/two-robots/odds")
def api_odds():
    return odds_result(parse(OddsIn))


# ---- pages -------------------------------------------------------------------------------------------
# The factory page and the odds page keep one seat's factory, hand, turn settings and unseen cards in
# the table state under `two_robots.players[seat]`. Without JavaScript each page is a form that posts
# the cards as short text ("head:cs, arms:c"; "attack:3:Nuclear Explosion!") and re-renders.


STATE_KEY = "two_robots"
ENERGY_LETTER = {e.id: e.id[0] for e in DATA.energies}
LETTER_ENERGY = {v: k for k, v in ENERGY_LETTER.items()}
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


def _clean_names(raw) -> tuple[str, ...] | None:
    """Four part names: HEAD and ARMS from the rules, then the table's two (lowercase ids)."""
    if not isinstance(raw, list) or len(raw) != 4 or not all(isinstance(x, str) for x in raw):
        return None
    names = tuple(_name(x)[:30] for x in raw)
    fixed = DATA.part_ids[:2]
    if names[:2] != fixed or len(set(names)) != 4 or not all(n and n.replace("_", "").isalnum() for n in names):
        return None
    return names


def _part_names(table, form=None) -> tuple[tuple[str, ...], list[dict]]:
    """The table's part names (or the defaults); a form may rename the two unverified ones."""
    names = _clean_names(state_part(table, STATE_KEY).get("part_names")) or DATA.part_ids
    if form is not None and "name2" in form:
        wanted = [*DATA.part_ids[:2], form.get("name2", ""), form.get("name3", "")]
        clean = _clean_names(wanted)
        if clean is None:
            return names, [{"path": "part_names", "message": "the two other part names must be different words "
                                                           "(letters and digits), not HEAD or ARMS"}]
        names = clean
    return names, []


def _seat_of(source, count: int) -> int:
    seat = _int(source, "seat", -1, count, 0)
    return seat if 0 <= seat < count else 0


def energies_code(energies: list[str]) -> str:
    return "".join(ENERGY_LETTER[e] for e in energies)


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


def _choice(value: object, allowed, default):
    """`value` when it is one of the `allowed` names (a list or object stored by another phone is not)."""
    return value if isinstance(value, str) and value in allowed else default


def _int(source, name: str, lo: int, hi: int, default: int) -> int:
    """A whole number read from a posted form or a stored seat, kept within lo..hi; `default` when the
    value is no whole number (text, a fraction, true/false, a list another phone saved)."""
    v = source.get(name, default)
    if isinstance(v, str) and re.fullmatch(r"\s*-?\d{1,6}\s*", v):
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool):
        return default
    return min(hi, max(lo, v))


SALVAGERS = {sv.id: sv for sv in DATA.salvagers}


def empty_seat() -> dict:
    return {"stacks": [], "hand": [], "event": "none", "actions": DATA.actions, "powers_left": 3, "salvager": None,
            "health": DATA.salvagers[0].health}


def clean_seat(raw, names: tuple[str, ...]) -> dict:
    """A seat of the table state, made safe: anything another client wrote that does not validate is
    dropped (a card that is not a card), the rest kept."""
    seat = empty_seat()
    if not isinstance(raw, dict):
        return seat
    for stack in as_list(raw.get("stacks"))[:MAX_STACK_FIELDS]:
        stack = as_dict(stack)
        cards = []
        for c in as_list(stack.get("cards"))[:60]:
            try:
                p = PartIn.model_validate(c)
            except ValidationError:
                continue
            if p.part in names:
                cards.append({"part": p.part, "energies": [e for e in ENERGY_LETTER if e in p.energies]})
        if cards:
            seat["stacks"].append({"cards": cards, "frozen": stack.get("frozen") is True})
    for c in as_list(raw.get("hand"))[:MAX_PLAN_HAND]:
        try:
            h = HandCardIn.model_validate(c)
        except ValidationError:
            continue
        if h.kind == "part" and h.part in names:
            seat["hand"].append({"kind": "part", "part": h.part,
                                 "energies": [e for e in ENERGY_LETTER if e in (h.energies or [])]})
        elif h.kind != "part":
            seat["hand"].append({"kind": h.kind, "name": h.name, "stacks_required": h.stacks_required,
                                 "play": h.play})
    seat["event"] = _choice(raw.get("event"), EVENTS, "none")
    seat["actions"] = _int(raw, "actions", 0, 3, DATA.actions)
    seat["powers_left"] = _int(raw, "powers_left", 0, 5, 3)
    seat["salvager"] = _choice(raw.get("salvager"), SALVAGERS, None)
    seat["health"] = _int(raw, "health", 0, 9, SALVAGERS[seat["salvager"]].health if seat["salvager"]
                          else DATA.salvagers[0].health)
    unseen = raw.get("unseen")
    if isinstance(unseen, dict):
        seat["unseen"] = clean_unseen(unseen, names)
    return seat


def _combo_key(part: str, energies: list[str]) -> str:
    return f"{part}:{energies_code(energies)}"


def combos() -> list[list[str]]:
    """The 15 energy combinations, cores first, in the order the deck grid shows them."""
    ids = [e.id for e in DATA.energies]
    return [[e] for e in ids] + [[a, b] for i, a in enumerate(ids) for b in ids[i + 1:]]


def clean_unseen(raw: dict, names: tuple[str, ...]) -> dict:
    parts = as_dict(raw.get("parts"))
    keys = {_combo_key(n, c) for n in names for c in combos()}
    out = {"parts": {k: v for k, v in parts.items() if k in keys and isinstance(v, int)
                     and not isinstance(v, bool) and 0 <= v <= 100}}
    for kind, total in (("attack", DATA.deck_attack), ("defense", DATA.deck_defense)):
        v = raw.get(kind)
        out[kind] = v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100 else total
    return out


def default_unseen(seat: dict, names: tuple[str, ...]) -> dict:
    """The default deck (unverified composition) minus the seat's factory and hand."""
    counts = {_combo_key(p.part, list(p.energies)): n for p, n in DATA.default_deck(names)}
    for card in [c for s in seat["stacks"] for c in s["cards"]] + [c for c in seat["hand"] if c["kind"] == "part"]:
        key = _combo_key(card["part"], card["energies"])
        counts[key] = max(0, counts.get(key, 0) - 1)
    return {"parts": counts,
            "attack": max(0, DATA.deck_attack - sum(c["kind"] == "attack" for c in seat["hand"])),
            "defense": max(0, DATA.deck_defense - sum(c["kind"] == "defense" for c in seat["hand"]))}


def unseen_body(unseen: dict) -> list[dict]:
    out = []
    for key, n in unseen["parts"].items():
        part, _, code = key.partition(":")
        out.append({"kind": "part", "part": part, "energies": [LETTER_ENERGY[ch] for ch in code], "count": n})
    out.append({"kind": "attack", "name": "Attack cards", "count": unseen["attack"]})
    out.append({"kind": "defense", "name": "Defense cards", "count": unseen["defense"]})
    return out


def seat_body(seat: dict, names: tuple[str, ...]) -> dict:
    body = {"part_names": list(names), "stacks": seat["stacks"], "hand": seat["hand"]}
    if seat.get("salvager"):
        body["salvager"] = seat["salvager"]
    return body


def robot_pile(players: int | None) -> list[dict]:
    """The Active Robot pile for the table's player count (or every known count), with the chance of
    revealing each card from a full pile; the 5-player pile is not known and says so."""
    counts = [players] if players in DATA.robot_pile else sorted(DATA.robot_pile)
    out = []
    for n in counts:
        mix = DATA.robot_pile[n]
        if mix is None:
            out.append({"players": n, "known": False, "cards": [], "total": 0})
            continue
        total = sum(mix.values())
        out.append({"players": n, "known": True, "total": total,
                    "cards": [{"id": k, "name": DATA.robot_pile_names[k], "count": v, "p": exact(Fraction(v, total))}
                              for k, v in mix.items()]})
    return out


def game_data_json() -> dict:
    return {
        "energies": [{"id": e.id, "name": e.name, "source": e.source} for e in DATA.energies],
        "part_names": [{"id": p.id, "name": p.name, "source": p.source} for p in DATA.part_names],
        "action_deck": {"robot_parts": DATA.deck_parts, "attack": DATA.deck_attack, "defense": DATA.deck_defense,
                        "source": "public", "url": DATA.deck_url},
        "default_parts": {"source": DATA.default_parts_source, "copies_per_combination": DATA.default_copies},
        "turn": {"draw": DATA.draw, "actions": DATA.actions, "hand_limit": DATA.hand_limit,
                 "power_cost": DATA.power_cost, "robot_card_cost": DATA.robot_card_cost, "source": "rulebook"},
        "salvagers": [{"id": sv.id, "name": sv.name, "turn_order": sv.turn_order, "health": sv.health,
                       "source": sv.source, "url": sv.url, "turn_order_source": sv.turn_order_source,
                       "health_source": sv.health_source} for sv in DATA.salvagers],
        "active_robot_pile": {"source": "public", "url": DATA.robot_pile_url, "by_players": robot_pile(None)},
    }


def seat_from_form(form, names: tuple[str, ...], old: dict) -> tuple[dict, list[dict], set[str]]:
    """The seat with what the form posted read over `old`: (seat, problems naming the field, the
    fields the form holds)."""
    seat = dict(old)
    problems: list[dict] = []
    touched: set[str] = set()
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
    if "event" in form:
        seat["event"] = _choice(form.get("event"), EVENTS, "none")
    if "salvager" in form:
        seat["salvager"] = _choice(form.get("salvager"), SALVAGERS, None)
    for name, hi, default in (("actions", 3, DATA.actions), ("powers_left", 5, 3), ("health", 9, 3)):
        if name in form:
            seat[name] = _int(form, name, 0, hi, default)
    touched |= {k for k in ("event", "salvager", "actions", "powers_left", "health") if k in form}
    return seat, problems, touched


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


def _renamed_seat(raw: object, mapping: dict[str, str]) -> object:
    """A stored seat with its cards' part names renamed (the table renamed a part for everyone)."""
    if not isinstance(raw, dict):
        return raw

    def card(c: object) -> object:
        return dict(c, part=mapping[c["part"]]) if isinstance(c, dict) and c.get("part") in mapping else c
    seat = dict(raw)
    if isinstance(seat.get("stacks"), list):
        seat["stacks"] = [dict(st, cards=[card(c) for c in st["cards"]]) if isinstance(st, dict)
                          and isinstance(st.get("cards"), list) else st for st in seat["stacks"]]
    if isinstance(seat.get("hand"), list):
        seat["hand"] = [card(c) for c in seat["hand"]]
    unseen = seat.get("unseen")
    if isinstance(unseen, dict) and isinstance(unseen.get("parts"), dict):
        def key(k: str) -> str:
            part, sep, code = k.partition(":")
            return f"{mapping.get(part, part)}{sep}{code}"
        seat["unseen"] = dict(unseen, parts={key(k): v for k, v in unseen["parts"].items()})
    return seat


def seat_change(seat_index: int, fields: dict, names: tuple[str, ...] | None = None):
    """The change one post makes, as a function of the table state (`update_table` applies it again on
    a newer state when another phone saved first): this seat's changed fields, and with `names`, the
    table's part names renamed (in every seat's cards, since a name is the table's). `unseen: None` is
    "back to the default deck"."""
    def mutate(state: dict) -> dict:
        mine = dict(as_dict(state.get(STATE_KEY)))
        players = list(as_list(mine.get("players")))
        if names is not None:
            stored = _clean_names(mine.get("part_names")) or DATA.part_ids
            mapping = {old: new for old, new in zip(stored, names) if old != new}
            if mapping:
                players = [_renamed_seat(p, mapping) for p in players]
            mine["part_names"] = list(names)
        while len(players) <= seat_index:
            players.append({})
        seat = dict(as_dict(players[seat_index]))
        for k, v in fields.items():
            if v is None and k == "unseen":
                seat.pop(k, None)
            else:
                seat[k] = v
        players[seat_index] = seat
        mine["players"] = players
        state[STATE_KEY] = mine
        return state
    return mutate


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


def _stored_seat(table, seat_index: int, names: tuple[str, ...]) -> dict:
    players = as_list(state_part(table, STATE_KEY).get("players"))
    return clean_seat(players[seat_index] if seat_index < len(players) else None, names)


def _try(fn, body_model, data: dict) -> tuple[dict | None, list[dict]]:
    try:
        return fn(body_model.model_validate(data)), []
    except ValidationError as err:
        return None, validation_error(err).fields
    except ApiError as err:
        return None, err.fields or [{"path": "body", "message": err.message}]
    except InputError as err:  # the API's error handler answers it there; a page shows it with the form
        return None, [{"path": err.path or "body", "message": err.message}]


def _page_common(game_seat_source) -> tuple:
    ctx = table_context("two-robots")
    table = ctx["table"]
    names_list = seat_names(table)
    seat_index = _seat_of(game_seat_source, len(names_list))
    return ctx, table, names_list, seat_index


@bp.route("/two-robots/factory", methods=["GET", "POST"])
def factory_page():
    source = request.form if request.method == "POST" else request.args
    ctx, table, seat_names, seat_index = _page_common(source)
    stored_names, _ = _part_names(table)
    names, problems = _part_names(table, request.form if request.method == "POST" else None)
    stored = seat = _stored_seat(table, seat_index, stored_names)
    if request.method == "POST" and request.form.get("action") != "seat" and not problems:
        seat, problems, touched = seat_from_form(request.form, names, seat)
        if table is not None and not problems:
            rename = names if names_changed(request.form, names, stored_names) else None
            table = ctx["table"] = _save_seat(
                table, seat_index, changed_fields(request.form, seat, stored, names, touched), rename, request.form)
            stored_names = names = _part_names(table)[0]
            stored = seat = _stored_seat(table, seat_index, names)
    body = seat_body(seat, names)
    result = plan = None
    if not problems:
        result, problems = _try(factory_result, FactoryIn, body)
    if result is not None:
        plan_in = dict(body, event=seat["event"], actions=seat["actions"], powers_left=seat["powers_left"])
        if "unseen" in seat:
            plan_in["unseen"] = unseen_body(seat["unseen"])
        plan, plan_problems = _try(plan_result, PlanIn, plan_in)
        problems += plan_problems
    status = 400 if request.method == "POST" and problems else 200
    return render_template(
        "two_robots/factory.html", seat=seat, seat_index=seat_index, seat_names=seat_names, result=result,
        plan=plan, problems=problems, names=names, part_sources=[p.source for p in DATA.part_names],
        energies=DATA.energies, events=EVENTS,
        codes={"stacks": [", ".join(card_code(c) for c in s["cards"]) for s in seat["stacks"]],
               "hand": ", ".join(card_code(c) for c in seat["hand"])},
        max_stacks=MAX_STACK_FIELDS, letters=ENERGY_LETTER, version=table.version if table is not None else "",
        shown=shown_digests(stored, stored_names), default_names=DATA.part_ids, factory_rules=FACTORY_RULES, plan_rules=PLAN_RULES, rule_titles=rule_titles(), short=SHORT,
        salvagers=DATA.salvagers, pile=robot_pile(table.players if table is not None else None), **ctx), status


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


@bp.route("/two-robots/odds", methods=["GET", "POST"])
def odds_page():
    source = request.form if request.method == "POST" else request.args
    ctx, table, seat_names, seat_index = _page_common(source)
    names, _ = _part_names(table)
    problems: list[dict] = []
    seat = _stored_seat(table, seat_index, names)
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
            grid = {"parts": {}, "attack": _int(request.form, "u-attack", 0, 100, DATA.deck_attack),
                    "defense": _int(request.form, "u-defense", 0, 100, DATA.deck_defense)}
            for n in names:
                for c in combos():
                    key = _combo_key(n, c)
                    grid["parts"][key] = _int(request.form, f"u-{key}", 0, 100, 0)
            shown = before.get("unseen") or default_unseen(before, names)
            shown = dict(shown, parts={k: shown["parts"].get(k, 0) for k in grid["parts"]})
            if grid != shown:  # only counts the player changed replace the default
                seat["unseen"] = grid
        if table is not None and not problems:
            fields = changed_fields(request.form, seat, stored, names, touched)
            if action == "reset":  # an explicit command: the counts go, whatever the page showed
                fields["unseen"] = None
            table = ctx["table"] = _save_seat(table, seat_index, fields, None, request.form)
            stored = seat = _stored_seat(table, seat_index, names)
    unseen = seat.get("unseen") or default_unseen(seat, names)
    cards, wish = _wanted_flags(unseen_body(unseen), want, names)
    odds = None
    if problems:
        pass
    elif sum(c["count"] for c in cards) > 0:
        odds, problems = _try(odds_result, OddsIn, dict(seat_body(seat, names), unseen=cards))
    else:
        problems = [{"path": "unseen", "message": "no unseen cards: enter how many of each card are left"}]
    grid = [{"combo": c, "code": energies_code(c),
             "cells": [{"part": n, "key": _combo_key(n, c), "count": unseen["parts"].get(_combo_key(n, c), 0)}
                       for n in names]} for c in combos()]
    status = 400 if request.method == "POST" and problems else 200
    return render_template(
        "two_robots/odds.html", codes={"stacks": [", ".join(card_code(c) for c in s["cards"]) for s in seat["stacks"]],
                                       "hand": ", ".join(card_code(c) for c in seat["hand"])},
        max_stacks=MAX_STACK_FIELDS, seat=seat, seat_index=seat_index, seat_names=seat_names, odds=odds, wish=wish,
        want=want, problems=problems, grid=grid, unseen=unseen, default=("unseen" not in seat or not seat["unseen"]),
        names=names, energies=DATA.energies, letters=ENERGY_LETTER,
        version=table.version if table is not None else "", shown=shown_digests(stored, names), odds_rules=ODDS_RULES, rule_titles=rule_titles(),
        **ctx), status
