"""The parts of the Raising Robots JSON API's requests that are no part of a table's state: the
competitions listed with their printed numbers, the kept card, a setup or round end of the competitions,
round-end abilities in order, a Search deck as a list of unseen cards, an activation chain. Whatever a
seat holds (inventory, tokens, robots, class cards, inventor, Friendship cards) is the state's own model
(schemas.py), so a request and a stored seat are read by the same code; `schemas.parse_body` validates
them strictly (a 400 names the field)."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
)

from solvers.raising_robots import abilities
from solvers.raising_robots import activations as act
from solvers.raising_robots import round_end as rend
from solvers.raising_robots.competitions import CRITERIA, VALUE_KEYS
from solvers.raising_robots.search_odds import MAX_POOL_CARDS, Card, CardGroup, Deck, Estimate

from ..api import bad_field
from .schemas import (
    MAX_ROBOTS,
    CompType,
    ConfuciusChoice,
    Criteria,
    Items,
    PlanPlayer,
    RobotCard,
    SeatWho,
    SeenCard,
    Spot,
    TokenType,
    WildItem,
    _with_ids,
)

# -- competitions planner

Criterion = Literal[tuple(CRITERIA)]  # type: ignore[valid-type]


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
    player: PlanPlayer = Field(default_factory=PlanPlayer)
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


class RoundIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    marker_to: int = Field(ge=2, le=8)
    sides: dict[CompType, Literal["A", "B"]] = Field(default_factory=dict)
    tracker: list[Spot] = Field(default_factory=list, max_length=4)
    completed_this_round: list[CompType] = Field(default_factory=list, max_length=4)


# -- final score

# -- round end

def _one_robot(value: object) -> object:
    """A robot given alone gets its id as a listed one does (from its content)."""
    return _with_ids([value])[0] if isinstance(value, dict) else value


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
    robot: Annotated[RobotCard | None, BeforeValidator(_one_robot)] = None
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
            robot=self.robot.to_solver(self.robot.column) if self.robot else None,
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


class RoundEndIn(SeatWho):
    """The seat's inventory, play area, inventor and Friendship cards (its own models), and the round-end
    abilities in the order they are applied."""
    inventory: Items = Field(default_factory=Items)
    robots: list[RobotCard] = Field(default_factory=list, max_length=MAX_ROBOTS)
    abilities: list[AbilityIn] = Field(default_factory=list, max_length=12)
    sacagawea_ongoing: bool | None = None
    scroll_board: ScrollBoardIn = Field(default_factory=ScrollBoardIn)

    _ids = field_validator("robots", mode="before")(_with_ids)

    def seat(self) -> rend.Seat:
        who = self.who()
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


class DeckIn(BaseModel):
    """The deck as the player knows it: the unseen `pool` when it is known (exact odds); without it, the
    cards the table has `seen` (Search reveals, draws) build an estimate of the deck."""
    model_config = ConfigDict(extra="ignore")
    pool: list[GroupIn] | None = Field(default=None, max_length=200)
    deck_size: SearchCount
    known_bottom: list[CardIn] = Field(default_factory=list, max_length=MAX_POOL_CARDS)
    seen: list[SeenCard] = Field(default_factory=list, max_length=2 * MAX_POOL_CARDS)
    wanted: list[SeenCard] = Field(default_factory=list, max_length=28)  # estimate: the kinds you want

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
    criteria: Criteria
    within: list[Annotated[int, Field(strict=True, ge=1, le=2 * MAX_POOL_CARDS)]] | None = Field(
        default=None, max_length=50)


class RecordIn(DeckIn):
    event: Literal["search", "draw"]
    criteria: Criteria | None = None
    revealed: list[CardIn] = Field(default_factory=list, max_length=2 * MAX_POOL_CARDS)
    seen: CardIn | None = None



# -- activation chains

class ChainIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phase: Literal["design", "fabricate", "recycle"] | None = None
    energy: int | None = Field(default=None, ge=0, le=30)
    steps: list = Field(max_length=act.MAX_NODES)
