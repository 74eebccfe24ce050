"""Request models shared by the Raising Robots endpoints (pydantic v2): inventory and robots."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, model_validator

from solvers.raising_robots.competitions import COMP_TYPES
from solvers.raising_robots.model import TOKEN_TYPES, Inventory, Robot

from ..rules import entry

# whole numbers only: true or "3" in a count is a client bug worth a 400, not a silent 1 or 3
WholeNumber = Annotated[int, Strict()]
Count = Field(default=0, ge=0, le=999)
TokenType = Literal[TOKEN_TYPES]  # type: ignore[valid-type]
CompType = Literal[COMP_TYPES]  # type: ignore[valid-type]


class InventoryIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sensor: WholeNumber = Count
    gear: WholeNumber = Count
    microchip: WholeNumber = Count
    program: WholeNumber = Count
    duct_tape: WholeNumber = Count
    battery: WholeNumber = Count
    vp: WholeNumber = Count
    robot_cards: WholeNumber = Count

    def to_solver(self) -> Inventory:
        return Inventory(**self.model_dump())


class RobotIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    row: Literal["design", "fabricate", "recycle"]
    any_row: bool = False
    cost_energy: list[WholeNumber] = Field(default_factory=list, max_length=2)
    cost_resources: list[WholeNumber] = Field(default_factory=list, max_length=2)
    basic_energy: WholeNumber = Field(default=1, ge=1, le=7)
    upgraded_energy: WholeNumber | None = Field(default=None, ge=1, le=7)
    upgraded: bool = False
    vp: WholeNumber = Field(default=0, ge=0, le=20)
    needs_microchip: bool = False
    column: WholeNumber | None = Field(default=None, ge=1, le=5)
    game_end: dict | None = None

    @model_validator(mode="after")
    def _costs(self) -> RobotIn:
        for name in ("cost_energy", "cost_resources"):
            for v in getattr(self, name):
                if not 0 <= v <= 20:
                    raise ValueError(f"{name} values must be between 0 and 20")
        if self.cost_energy and self.cost_resources and len(self.cost_energy) != len(self.cost_resources):
            raise ValueError("cost_energy and cost_resources must list the same number of cost columns")
        return self

    def to_solver(self) -> Robot:
        return Robot(row=self.row, any_row=self.any_row, cost_energy=tuple(self.cost_energy),
                     cost_resources=tuple(self.cost_resources), basic_energy=self.basic_energy,
                     upgraded_energy=self.upgraded_energy, upgraded=self.upgraded, vp=self.vp,
                     needs_microchip=self.needs_microchip, column=self.column, game_end=self.game_end)


# ---- rule links ------------------------------------------------------------------------------------

_READING = "How Tablebot reads this: "


def rule_title(rule_id: str) -> str:
    """A short link text for a rules-assistant entry: its title, readings marked as Tablebot's."""
    e = entry(rule_id)
    if e is None:
        return rule_id
    title = e.title
    if title.startswith(_READING):
        return "Tablebot's reading: " + title[len(_READING):]
    if title.startswith("IMPORTANT: "):
        return "Important: " + title[len("IMPORTANT: "):]
    return title


def rule_titles(ids) -> dict[str, str]:
    return {i: rule_title(i) for i in dict.fromkeys(ids)}
