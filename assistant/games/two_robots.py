"""Two Robots: the factory checker, the turn planner and the draw odds (JSON API and pages)."""
from __future__ import annotations

from typing import Literal

from flask import Blueprint
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from solvers.two_robots.as_json import apocalypse_json, factory_json, hand_json
from solvers.two_robots.factory import Factory, HandCard, Part, Stack, analyse, apocalypse_check, hand_view
from solvers.two_robots.game_data import DATA

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
