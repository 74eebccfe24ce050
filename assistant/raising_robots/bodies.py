"""The Raising Robots JSON API's request bodies (pydantic v2), validated strictly: a 400 names the field.
The table state is another model (schemas.RaisingRobotsState); `present` builds these bodies from it, so
a page asks its solver exactly what the API would be asked."""
from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    field_validator,
    model_validator,
)

from solvers.raising_robots import abilities
from solvers.raising_robots import activations as act
from solvers.raising_robots import round_end as rend
from solvers.raising_robots.abilities import NAME_MAX, Who
from solvers.raising_robots.competitions import COMP_TYPES, CRITERIA, FRIENDSHIP_CAP, VALUE_KEYS
from solvers.raising_robots.model import TOKEN_TYPES, Inventory, Robot
from solvers.raising_robots.search_odds import MAX_POOL_CARDS, Card, CardGroup, Criteria, Deck, Estimate

from ..api import bad_field
from .schemas import TEMPLATES, CompType, ConfuciusChoice, TokenType, WildItem

# whole numbers only: true or "3" in a count is a client bug worth a 400, not a silent 1 or 3
WholeNumber = Annotated[int, Strict()]
Count = Field(default=0, ge=0, le=999)


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


# -- competitions planner

Criterion = Literal[tuple(CRITERIA)]  # type: ignore[valid-type]
TokenCount = Field(default=0, ge=0, le=20)


class TokenCountsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pink: int = TokenCount
    orange: int = TokenCount
    blue: int = TokenCount
    green: int = TokenCount

    def counts(self) -> tuple[int, ...]:
        return tuple(getattr(self, t) for t in TOKEN_TYPES)


class TokensIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    unplaced: TokenCountsIn = Field(default_factory=TokenCountsIn)
    placed: TokenCountsIn = Field(default_factory=TokenCountsIn)


class ClassStatusIn(BaseModel):
    """Class cards currently meeting D or better / C or better, Extra Credit not counted."""
    model_config = ConfigDict(extra="forbid")
    meeting_d: int = Field(default=0, ge=0, le=9)
    meeting_c: int = Field(default=0, ge=0, le=9)


class PlanPlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    inventory: InventoryIn = Field(default_factory=InventoryIn)
    tokens: TokensIn = Field(default_factory=TokensIn)
    class_cards: ClassStatusIn = Field(default_factory=ClassStatusIn)
    robots: list[RobotIn] = Field(default_factory=list, max_length=15)
    inventor: InventorIn | None = None
    friendships: Friendships = 0
    completed: list[str] = Field(default_factory=list, max_length=4)

    @field_validator("completed")
    @classmethod
    def _completed(cls, value: list[str]) -> list[str]:
        out = []
        for item in value:
            kind = item if item in COMP_TYPES else CRITERIA.get(item)
            if kind is None:
                raise ValueError(f"{item!r} is not a competition: use {', '.join(COMP_TYPES)}")
            if kind not in out:
                out.append(kind)
        return out


class CostIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    resources: int | None = Field(default=None, ge=1, le=30)
    batteries: int | None = Field(default=None, ge=1, le=30)


class CompetitionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: CompType | None = None
    criterion: Criterion
    side: Literal["A", "B"] = "A"
    token_type: TokenType | None = None
    cost: CostIn = Field(default_factory=CostIn)
    values: list[int] | None = Field(default=None, min_length=1, max_length=7)

    @field_validator("values")
    @classmethod
    def _values(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and not all(0 <= v <= 20 for v in value):
            raise ValueError("card values must be between 0 and 20")
        return value


class RulesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    duct_tape_pays_resources: bool = False


class PlanIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: PlanPlayerIn = Field(default_factory=PlanPlayerIn)
    competitions: list[CompetitionIn] = Field(default_factory=list, max_length=4)
    values: dict[str, Any] = Field(default_factory=dict, max_length=len(VALUE_KEYS))
    rules: RulesIn = Field(default_factory=RulesIn)


class KeptIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40)
    per_robot: list[ConfuciusChoice] = Field(default_factory=list, max_length=15)


class KeptPlanIn(PlanIn):
    """The plan body with the seat as the step that drew the cards left it, and the card kept there."""
    kept: KeptIn


# -- competitions setup

class SetupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(ge=1, le=6)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    # each seat's inventor, by name: its setup changes, and the Friendship cards to take out of the deck
    inventors: list[Annotated[str, Field(max_length=abilities.NAME_MAX)]] = Field(default_factory=list, max_length=6)
    pets: bool = False  # played with the Pets expansion: the paw Friendship cards stay in the deck


class SpotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1, le=8)
    token_type: TokenType


class RoundIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    marker_to: int = Field(ge=2, le=8)
    sides: dict[CompType, Literal["A", "B"]] = Field(default_factory=dict)
    tracker: list[SpotIn] = Field(default_factory=list, max_length=4)
    completed_this_round: list[CompType] = Field(default_factory=list, max_length=4)


# -- final score

Grade = Literal["none", "D", "C", "B", "A"]
SCORED_GRADES = ("D", "C", "B", "A")


class GameEndIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["a_grade", "microchip_robots", "resource_pairs", "vp56_robots", "full_columns"]
    resource: Literal["sensor", "gear", "microchip", "program"] | None = None
    action: Literal["upgraded", "basic"] = "upgraded"  # the action whose box shows the icon

    @model_validator(mode="after")
    def _resource(self) -> GameEndIn:
        if self.kind == "resource_pairs" and self.resource is None:
            raise ValueError("resource_pairs needs the resource its icon shows (sensor, gear, microchip or program)")
        return self


class ScoreRobotIn(RobotIn):
    game_end: GameEndIn | None = None

    def to_solver(self) -> Robot:
        robot = super().to_solver()
        return replace(robot, game_end=self.game_end.model_dump() if self.game_end else None)


class ClassCardIn(BaseModel):
    """A class card: the grade met before Extra Credit, or (for a card whose count Tablebot knows or
    is given) its thresholds and the count, from which the grade follows."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="", max_length=60)
    grade: Grade | None = None
    extra_credit: bool = False
    vp_by_grade: dict[str, int] = Field(default_factory=dict, max_length=4)
    template: str | None = Field(default=None, max_length=40)
    count: int | None = Field(default=None, ge=0, le=999)
    thresholds: dict[str, int] = Field(default_factory=dict, max_length=4)

    @field_validator("vp_by_grade", "thresholds")
    @classmethod
    def _grades(cls, value: dict[str, int]) -> dict[str, int]:
        for g, v in value.items():
            if g not in SCORED_GRADES:
                raise ValueError(f"{g!r} is not a grade: use D, C, B or A")
            if not 0 <= v <= 999:
                raise ValueError(f"the value for {g} must be between 0 and 999")
        return value

    @model_validator(mode="after")
    def _check(self) -> ClassCardIn:
        if self.template is not None and self.template not in TEMPLATES:
            raise ValueError(f"template must be one of {', '.join(TEMPLATES)}")
        if self.grade is None and not self.thresholds:
            raise ValueError("give the grade met (none, D, C, B or A), or the card's thresholds and the count")
        return self


class ScorePlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="", max_length=40)
    inventory: InventoryIn = Field(default_factory=InventoryIn)
    robots: list[ScoreRobotIn] = Field(default_factory=list, max_length=15)
    class_cards: list[ClassCardIn] = Field(default_factory=list, max_length=3)
    competitions_completed: int | None = Field(default=None, ge=0, le=4)
    inventor: InventorIn | None = None
    friendships: Friendships = 0


class SoloIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    threshold: int = Field(ge=0, le=999)
    mode: Literal["single", "campaign"] = "single"
    competitions: bool = True


class CompareIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: list[ScorePlayerIn] = Field(min_length=1, max_length=6)
    solo: SoloIn | None = None


# -- round end

def _ability_id(value: object) -> object:
    """An ability by its id or its name ("Temple", "Johannes"): the name read as the round-end ability."""
    if isinstance(value, str):
        key = abilities.ability_id(value)
        return rend.ALIASES.get(key, key)
    return value


# item dicts are keyed by plain strings: the solver names a wrong key as its own field
# (abilities[0].pay_wilds.duct_tape: "only sensor, gear, ... can pay here")
ItemCounts = dict[str, int]


class AbilityIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: Annotated[Literal[tuple(rend.ABILITIES)], BeforeValidator(_ability_id)]  # type: ignore[valid-type]
    upgraded: bool = False
    part: Literal["all", "base", "upgrade"] = "all"
    action: Literal["skip", "assemble", "unlock"] = "skip"
    pay_wilds: ItemCounts = Field(default_factory=dict, max_length=6)
    robot: RobotIn | None = None
    payment: ItemCounts = Field(default_factory=dict, max_length=6)
    extra_cost: int = Field(default=0, ge=0, le=20)
    gain_wild: WildItem | None = None
    search: bool = True
    reward: Literal["battery_and_card", "vp"] | None = None
    per_robot: list[ConfuciusChoice] = Field(default_factory=list, max_length=15)
    # Confucius as inventor, on a Charlotte assembly or unlock: the Scroll Board objective met, its gain,
    # and the line reward when it completes a row or column
    scroll_objective: str | None = Field(default=None, min_length=1, max_length=80)
    scroll_gain: ConfuciusChoice | None = None
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


# -- search odds

SearchEnergy = Annotated[int, Field(strict=True, ge=1, le=7)]
SearchCount = Annotated[int, Field(strict=True, ge=0, le=MAX_POOL_CARDS)]


# ---- request models ----------------------------------------------------------------------------

class CardIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    row: Literal["design", "fabricate", "recycle", "any"]
    energy: SearchEnergy
    label: str = Field(default="", max_length=60)
    wanted: bool = False

    def to_solver(self) -> Card:
        return Card(self.row, self.energy, self.label, self.wanted)


class GroupIn(CardIn):
    count: SearchCount

    def to_solver(self) -> CardGroup:  # type: ignore[override]
        return CardGroup(self.row, self.energy, self.count, self.label, self.wanted)


class CriteriaIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    row: Literal["design", "fabricate", "recycle"]
    energy_min: SearchEnergy
    energy_max: SearchEnergy

    @model_validator(mode="after")
    def _order(self) -> CriteriaIn:
        if self.energy_min > self.energy_max:
            raise ValueError("energy_min must not be above energy_max")
        return self

    def to_solver(self) -> Criteria:
        return Criteria(self.row, self.energy_min, self.energy_max)


class KindIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    row: Literal["design", "fabricate", "recycle", "any"]
    energy: SearchEnergy


class DeckIn(BaseModel):
    """The deck as the player knows it: the unseen `pool` when it is known (exact odds); without it, the
    cards the table has `seen` (Search reveals, draws) build an estimate of the deck."""
    model_config = ConfigDict(extra="ignore")
    pool: list[GroupIn] | None = Field(default=None, max_length=200)
    deck_size: SearchCount
    known_bottom: list[CardIn] = Field(default_factory=list, max_length=MAX_POOL_CARDS)
    seen: list[KindIn] = Field(default_factory=list, max_length=2 * MAX_POOL_CARDS)
    wanted: list[KindIn] = Field(default_factory=list, max_length=28)  # estimate: the kinds you want

    def estimate(self) -> Estimate | None:
        """The estimate to answer from, when no pool is given."""
        if self.pool is not None:
            return None
        return Estimate(seen=tuple(Card(c.row, c.energy) for c in self.seen), deck_size=self.deck_size,
                        known_bottom=tuple(c.to_solver() for c in self.known_bottom),
                        wanted=frozenset((w.row, w.energy) for w in self.wanted))

    def to_solver(self) -> Deck:
        if self.pool is None:
            raise bad_field("pool", "list the unseen cards (or leave the pool out for an estimate)")
        total = sum(g.count for g in self.pool)
        if total > MAX_POOL_CARDS:
            raise bad_field("pool", f"holds {total} cards; at most {MAX_POOL_CARDS} are accepted")
        if self.deck_size > total:
            raise bad_field("deck_size", f"is {self.deck_size} but the unseen pool holds only {total} cards")
        if self.deck_size == 0 and not self.known_bottom:
            raise bad_field("deck_size", "the deck is empty: give deck_size above 0 or a known bottom")
        return Deck(tuple(g.to_solver() for g in self.pool), self.deck_size,
                    tuple(c.to_solver() for c in self.known_bottom))


class OddsIn(DeckIn):
    criteria: CriteriaIn
    within: list[Annotated[int, Field(strict=True, ge=1, le=2 * MAX_POOL_CARDS)]] | None = Field(
        default=None, max_length=50)


class RecordIn(DeckIn):
    event: Literal["search", "draw"]
    criteria: CriteriaIn | None = None
    revealed: list[CardIn] = Field(default_factory=list, max_length=2 * MAX_POOL_CARDS)
    seen: CardIn | None = None



# -- activation chains

class ChainIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phase: Literal["design", "fabricate", "recycle"] | None = None
    energy: int | None = Field(default=None, ge=0, le=30)
    steps: list = Field(max_length=act.MAX_NODES)
