"""Two Robots: the factory checker, the turn planner and the draw odds (JSON API and pages)."""
from __future__ import annotations

from typing import Literal

from flask import Blueprint
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from solvers.two_robots.as_json import apocalypse_json, factory_json, hand_json, odds_json, plan_json
from solvers.two_robots.factory import Factory, HandCard, Part, Stack, analyse, apocalypse_check, hand_view
from solvers.two_robots.game_data import DATA
from solvers.two_robots.odds import UnseenCard, completing, draw_odds, unseen_from_deck
from solvers.two_robots.planner import Turn, plan_turn

from ..api import ApiError, bad_field, parse

bp = Blueprint("two_robots", __name__)

Energy = Literal["chemical", "electrical", "mechanical", "nuclear", "solar"]
SalvagerId = Literal["samurai", "scavenger", "peacemaker", "guardian", "apocalypse"]


def _name(value: object) -> object:
    return value.strip().lower().replace(" ", "_") if isinstance(value, str) else value


# ---- request models --------------------------------------------------------------------------------

class PartIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    part: str = Field(min_length=1, max_length=30)
    energies: list[Energy] = Field(min_length=1, max_length=2)

    _norm = field_validator("part", mode="before")(_name)

    @field_validator("energies")
    @classmethod
    def _different(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError("a hybrid has two different energies")
        return v

    def to_solver(self) -> Part:
        return Part.of(self.part, self.energies)


class StackIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    cards: list[PartIn] = Field(min_length=1, max_length=60)
    frozen: bool = False


class HandCardIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: Literal["part", "attack", "defense"] = "part"
    part: str | None = Field(default=None, min_length=1, max_length=30)
    energies: list[Energy] | None = Field(default=None, min_length=1, max_length=2)
    name: str = Field(default="", max_length=60)
    stacks_required: int | None = Field(default=None, ge=0, le=5)
    play: bool = False

    _norm = field_validator("part", mode="before")(_name)

    @model_validator(mode="after")
    def _complete(self) -> HandCardIn:
        if self.kind == "part":
            if self.part is None or self.energies is None:
                raise ValueError("a part card needs `part` and `energies`")
            if len(set(self.energies)) != len(self.energies):
                raise ValueError("a hybrid has two different energies")
        elif self.stacks_required is None:
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


class UnseenIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: Literal["part", "attack", "defense"] = "part"
    part: str | None = Field(default=None, min_length=1, max_length=30)
    energies: list[Energy] | None = Field(default=None, min_length=1, max_length=2)
    name: str = Field(default="", max_length=60)
    count: int = Field(default=1, ge=0, le=100)
    wanted: bool = False

    _norm = field_validator("part", mode="before")(_name)

    @model_validator(mode="after")
    def _complete(self) -> UnseenIn:
        if self.kind == "part":
            if self.part is None or self.energies is None:
                raise ValueError("an unseen part card needs `part` and `energies`")
            if len(set(self.energies)) != len(self.energies):
                raise ValueError("a hybrid has two different energies")
        return self


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

def _check_part(name: str, names: tuple[str, ...], path: str) -> None:
    if name not in names:
        raise bad_field(path, f"{name!r} is not one of the four part names ({', '.join(names)})")


def factory_from(body: FactoryIn) -> Factory:
    names = body.names()
    stacks = []
    for i, s in enumerate(body.stacks):
        for j, c in enumerate(s.cards):
            _check_part(c.part, names, f"stacks[{i}].cards[{j}].part")
        stacks.append(Stack(tuple(c.to_solver() for c in s.cards), s.frozen))
    return Factory(tuple(stacks))


def hand_from(body: FactoryIn) -> list[HandCard]:
    names = body.names()
    for i, c in enumerate(body.hand):
        if c.kind == "part" and c.part is not None:
            _check_part(c.part, names, f"hand[{i}].part")
    return [c.to_solver() for c in body.hand]


def unseen_from(body: PlanIn | OddsIn, factory: Factory, hand: list[HandCard]) -> tuple[tuple[UnseenCard, ...], list[str], str]:
    """The unseen cards entered, or the default deck (unverified composition) minus what is in sight."""
    names = body.names()
    if body.unseen is not None:
        out = []
        for i, u in enumerate(body.unseen):
            if u.kind == "part" and u.part is not None:
                _check_part(u.part, names, f"unseen[{i}].part")
                out.append(UnseenCard("part", Part.of(u.part, u.energies or []), u.name, u.count, u.wanted))
            else:
                out.append(UnseenCard(u.kind, None, u.name or u.kind.title(), u.count, u.wanted))
        if sum(u.count for u in out) == 0:
            raise bad_field("unseen", "no unseen cards: enter how many of each card are left")
        return tuple(out), [], "entered"
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


def factory_result(body: FactoryIn) -> dict:
    """The factory endpoint's answer (also rendered by the factory page)."""
    names = body.names()
    factory = factory_from(body)
    hand = hand_from(body)
    view = analyse(factory, names)
    if view.problems:
        raise impossible(view.problems)
    out = factory_json(factory, view)
    out["hand"] = hand_json([hand_view(factory, c, names) for c in hand])
    out["part_names"] = list(names)
    if body.salvager == "apocalypse":
        out["apocalypse"] = apocalypse_json(apocalypse_check(factory, names))
    return out


# ---- JSON API ----------------------------------------------------------------------------------------

@bp.post("/api/two-robots/factory")
def api_factory():
    return factory_result(parse(FactoryIn))


def plan_result(body: PlanIn) -> dict:
    names = body.names()
    factory = factory_from(body)
    hand = hand_from(body)
    if len(hand) > MAX_PLAN_HAND:
        raise bad_field("hand", f"the planner takes at most {MAX_PLAN_HAND} cards (your hand limit is 7)")
    view = analyse(factory, names)
    if view.problems:
        raise impossible(view.problems)
    unseen, notes, source = unseen_from(body, factory, hand)
    plan = plan_turn(Turn(factory, tuple(hand), names, unseen, body.actions, body.event, body.powers_left,
                          body.hand_limit))
    out = plan_json(plan, names)
    out["notes"] = notes + out["notes"]
    out["unseen_source"] = source
    return out


def odds_result(body: OddsIn) -> dict:
    names = body.names()
    factory = factory_from(body)
    hand = hand_from(body)
    view = analyse(factory, names)
    if view.problems:
        raise impossible(view.problems)
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


@bp.post("/api/two-robots/plan")
def api_plan():
    return plan_result(parse(PlanIn))


@bp.post("/api/two-robots/odds")
def api_odds():
    return odds_result(parse(OddsIn))
