"""Request models shared by the Raising Robots endpoints (pydantic v2): inventory and robots."""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, Strict, model_validator

from solvers.raising_robots.abilities import NAME_MAX, Who
from solvers.raising_robots.competitions import COMP_TYPES, FRIENDSHIP_CAP
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


class InventorIn(BaseModel):
    """The seat's inventor: its name as on the card (any inventor; the Friends ones are modelled) and
    whether it is upgraded."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="", max_length=NAME_MAX)
    upgraded: bool = False


def _friendships(value: Any) -> int | list[str]:
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= FRIENDSHIP_CAP:
            raise ValueError(f"a player holds 0 to {FRIENDSHIP_CAP} Friendship cards")
        return value
    if not isinstance(value, list):
        raise ValueError("list the Friendship cards by name, like [\"Johannes\"] (or give how many)")
    if len(value) > FRIENDSHIP_CAP:
        raise ValueError(f"a player holds at most {FRIENDSHIP_CAP} Friendship cards")
    for name in value:
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
            raise ValueError(f"each Friendship card is its name, 1 to {NAME_MAX} characters")
    return [name.strip() for name in value]


# Friendship cards by name; a count (how many cards, names unknown) is still accepted
Friendships = Annotated[int | list[str], PlainValidator(_friendships)]


def who_of(inventor: InventorIn | None, friendships: int | list[str]) -> Who:
    """The seat's abilities as the solvers read them."""
    inv = inventor or InventorIn()
    return Who.of(inv.name, inv.upgraded, friendships)


def friendship_count(friendships: int | list[str]) -> int:
    return friendships if isinstance(friendships, int) else len(friendships)


def taken_json(taken) -> list[dict]:
    return [{"ability": t.ability, "role": t.role, "treatment": t.treatment, "why": t.why} for t in taken]


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


# ---- problems in players' words ------------------------------------------------------------------------

_FIELD_WORDS = {"cost_energy": "energy cost", "cost_resources": "resource cost", "basic_energy": "basic action energy",
                "upgraded_energy": "upgraded action energy", "vp": "VP", "meeting_d": "class cards at D or better",
                "meeting_c": "class cards at C or better", "friendships": "Friendship cards", "resources": "resources",
                "batteries": "batteries", "grade": "grade", "count": "count", "threshold": "solo target",
                "extra_cost": "the slot's extra cost", "column": "column",
                "vp_by_grade": "VP per grade", "thresholds": "thresholds", "deck_size": "Unknown cards in the deck",
                "known_bottom": "Known cards at the bottom", "seen_cards": "Cards seen", "seen": "The card you drew",
                "revealed": "The cards the search turned over", "pool": "Unseen cards", "criteria": "Criteria"}


def field_words(path: str) -> str:
    """A field path ("player.inventory.gear", "robots[1].vp") as the page labels it ("Gears", "Robot 2: VP")."""
    from solvers.raising_robots.competitions import COMP_NAMES
    from solvers.raising_robots.model import ITEM_LABELS

    parts = [p for p in re.split(r"[.\[\]]+", path) if p and p != "player"]
    if not parts:
        return ""
    if parts[0] == "inventory" and len(parts) > 1:
        return ITEM_LABELS.get(parts[1], parts[1])
    if parts[0] == "tokens" and len(parts) > 2:
        return f"{parts[1].capitalize()} {parts[2]} tokens"
    if parts[0] == "tiles" and len(parts) > 3:
        return f"{COMP_NAMES.get(parts[1], parts[1])} tile, side {parts[2]}: {_FIELD_WORDS.get(parts[3], parts[3])}"
    if parts[0] == "abilities" and len(parts) > 1 and parts[1].isdigit():
        rest = f": {_FIELD_WORDS.get(parts[2], parts[2].replace('_', ' '))}" if len(parts) > 2 else ""
        return f"Round-end step {int(parts[1]) + 1}{rest}"
    if parts[0] in ("robots", "class_cards") and len(parts) > 1 and parts[1].isdigit():
        what = "Robot" if parts[0] == "robots" else "Class card"
        rest = f": {_FIELD_WORDS.get(parts[2], parts[2].replace('_', ' '))}" if len(parts) > 2 else ""
        return f"{what} {int(parts[1]) + 1}{rest}"
    if parts[0] == "card_values":
        return "Values printed on the card"
    cell = re.match(r"^c-(design|fabricate|recycle|any)-([1-7])$", parts[0])
    if cell:
        return f"{'Any row' if cell.group(1) == 'any' else cell.group(1).capitalize()} {cell.group(2)}: unseen cards"
    if len(parts) == 2 and parts[1].isdigit():
        return f"{_FIELD_WORDS.get(parts[0], parts[0].replace('_', ' ').capitalize())}, card {int(parts[1]) + 1}"
    return _FIELD_WORDS.get(parts[-1], parts[-1].replace("_", " ").capitalize())


def problem_text(problem: dict) -> str:
    """One problem as a sentence that names the field in players' words, never a raw path."""
    words = field_words(str(problem.get("path", "")))
    message = str(problem.get("message", ""))
    if not words or message.lower().startswith(words.lower()):
        return message
    return f"{words[0].upper()}{words[1:]}: {message}"
