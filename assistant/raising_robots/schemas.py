"""Raising Robots models (pydantic v2): the ONE table-state model, whose parts are also the JSON API's
request bodies.

The table state lives under `state["raising_robots"]` (`RaisingRobotsState`): one seat per player (its
inventory, tokens, robots, class cards, inventor and Friendship cards, round-end choices, Scroll Board),
the competitions in play, the Search deck and the solo target. Every page and endpoint reads it with
`web.save.read_state` (lenient: what does not validate is dropped and the defaults stand in); tables
saved in older shapes are brought to this one when read (`assistant/tables/formats.py`).

Every part a page edits is always there (two cost columns, three class-card places, every Search cell),
so each input is named by a plain path (`seats.0.inventory.gear`, `seats.0.robots.@<id>.vp`).

One shape from form to solver: a seat (`Seat`) is what a form edits, what is stored and what an API body
sends (`POST /score` is a `Player`, the planner's `player` a `PlanPlayer` of the seat's parts, the round
end and energy bodies carry `SeatWho`); `Seat.to_solver()` gives the solvers' records. An API body is
read by `parse_body`: strict, unknown keys refused, each problem named by the model's own path.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from solvers.errors import InputError
from solvers.exact import parse_fraction
from solvers.raising_robots import round_end as rend
from solvers.raising_robots import scoring, search_odds
from solvers.raising_robots.abilities import NAME_MAX, Who
from solvers.raising_robots.competitions import COMP_TYPES, CRITERIA, FRIENDSHIP_CAP, Competition, PlayerState
from solvers.raising_robots.competitions_data import GAME_DATA
from solvers.raising_robots.energy import MAX_CARD_CUBES, MAX_CARD_ENERGY, PHASES, EnergyCard
from solvers.raising_robots.model import ROWS, TOKEN_TYPES, Inventory, Robot
from solvers.raising_robots.scoring_data import SCORING_DATA
from solvers.raising_robots.search_odds import CARD_ROWS, ENERGIES, MAX_POOL_CARDS
from solvers.raising_robots.seat import SeatRecord

from ..web.stored import lenient
from .friendship_schemas import FriendshipDeck

STATE_KEY = "raising_robots"
M = TypeVar("M", bound=BaseModel)
MAX_SEATS = 6
MAX_ROBOTS = 15  # a play area holds 3 rows of 5
COLUMNS = 5
ROUNDS = 8  # a game lasts 8 rounds (facts/raising_robots.md); the table page allows up to 99
MAX_TABLE_ROUND = 99
ROBOT_ID = r"^[A-Za-z0-9_-]{1,24}$"
TEMPLATES = SCORING_DATA.class_cards  # Friends class cards whose count Tablebot knows
CONFUCIUS_CHOICES = ("batteries", "sensor", "gear", "microchip", "program", "robot_cards")
GAME_END_ICONS = ("a_grade", "microchip_robots", "resource_pairs:sensor", "resource_pairs:gear",
                  "resource_pairs:microchip", "resource_pairs:program", "vp56_robots", "full_columns")
ROUND_END_PARTS = (("johannes", "base"), ("johannes", "upgrade"), ("charlotte", "base"), ("charlotte", "upgrade"),
                   ("sacagawea", "base"), ("sacagawea", "upgrade"), ("temple_friendship", "base"),
                   ("confucius_friendship", "base"), ("johannes_friendship", "base"))
PART_KEYS = tuple(f"{a}-{p}" for a, p in ROUND_END_PARTS)
MAX_VALUE = 100
MAX_DENOMINATOR = 1000

TokenType = Literal[TOKEN_TYPES]  # type: ignore[valid-type]
CompType = Literal[COMP_TYPES]  # type: ignore[valid-type]
Row = Literal[ROWS]  # type: ignore[valid-type]
CardRow = Literal[CARD_ROWS]  # type: ignore[valid-type]
Side = Literal["A", "B"]
WildItem = Literal["sensor", "gear", "microchip", "program", "robot_cards"]
ConfuciusChoice = Literal[CONFUCIUS_CHOICES]  # type: ignore[valid-type]


def _no_bool(v: object) -> object:
    if isinstance(v, bool):
        raise ValueError("a whole number is needed, not yes or no")
    return v


# a whole number: from a form "3" reads as 3, but true or 2.5 is not one
Whole = Annotated[int, BeforeValidator(_no_bool)]


def _count(hi: int, default: int | None = 0, lo: int = 0) -> Any:
    return Field(default=default, ge=lo, le=hi)


def _too_long(v: object, n: int, info: ValidationInfo | None) -> bool:
    return api_body(info) and isinstance(v, list) and len(v) > n


def _first(n: int):
    """A before-validator keeping the first `n` items of a stored list (a longer one is cut, not dropped;
    in an API body it is refused)."""
    def cut(v: object, info: ValidationInfo) -> object:
        if _too_long(v, n, info):
            raise ValueError(f"at most {n} items")
        return v[:n] if isinstance(v, list) else v
    return cut


def _padded(n: int, filler: Any):
    """A before-validator that makes a stored list exactly `n` long (what a page's fields name)."""
    def pad(v: object, info: ValidationInfo) -> object:
        if _too_long(v, n, info):
            raise ValueError(f"at most {n} items")
        if v is None:
            v = []
        return (list(v) + [filler() if callable(filler) else filler for _ in range(n)])[:n] if isinstance(v, list) else v
    return pad



def api_body(info: ValidationInfo | None) -> bool:
    """Validating a JSON API body (`parse_body`): strict, and an unknown key is a 400 naming it. A stored
    state or a form is read leniently by the same models."""
    return bool(info is not None and info.context and info.context.get("api"))


class Part(BaseModel):
    """A part of the table state. Stored and posted: unknown keys are ignored (an older shape). As an API
    body: unknown keys are refused, each named (`forbid_extra = False` for the parts the API always
    took loosely)."""
    model_config = ConfigDict(extra="ignore")
    forbid_extra: ClassVar[bool] = True

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any, info: ValidationInfo) -> Any:
        if api_body(info) and cls.forbid_extra and isinstance(data, dict):
            known = set(cls.model_fields)
            unknown = [{"type": "extra_forbidden", "loc": (k,), "input": v} for k, v in data.items() if k not in known]
            if unknown:
                raise ValidationError.from_exception_data(cls.__name__, unknown)
        return data


def parse_body(model: type[M], data: Any, context: dict | None = None) -> M:
    """An API body as one of these models: strict (true or "3" is no count), unknown keys refused."""
    return model.model_validate(data, strict=True, context={"api": True, **(context or {})})


# ---- a seat ------------------------------------------------------------------------------------------

class Items(Part):
    """An inventory: resources, duct tape, batteries, VP and Robot Cards in hand."""
    sensor: Whole = _count(999)
    gear: Whole = _count(999)
    microchip: Whole = _count(999)
    program: Whole = _count(999)
    duct_tape: Whole = _count(999)
    battery: Whole = _count(999)
    vp: Whole = _count(999)
    robot_cards: Whole = _count(999)

    def to_solver(self) -> Inventory:
        return Inventory(**self.model_dump())


class TokenCounts(Part):
    pink: Whole = _count(20)
    orange: Whole = _count(20)
    blue: Whole = _count(20)
    green: Whole = _count(20)

    def counts(self) -> tuple[int, ...]:
        return tuple(getattr(self, t) for t in TOKEN_TYPES)


class Tokens(Part):
    unplaced: TokenCounts = Field(default_factory=TokenCounts)
    placed: TokenCounts = Field(default_factory=TokenCounts)


class ClassStatus(Part):
    """Class cards meeting D or better / C or better now, Extra Credit not counted."""
    meeting_d: Whole = _count(9)
    meeting_c: Whole = _count(9)

    @field_validator("meeting_c")
    @classmethod
    def _c_within_d(cls, v: int, info: ValidationInfo) -> int:
        d = info.data.get("meeting_d")
        if isinstance(d, int) and v > d:
            raise ValueError("cannot be more than the cards at D or better: a card at C also meets D, so count "
                             "it there too")
        return v


class GameEnd(Part):
    """A robot's Game End icon as the API names it: its kind, the resource of a resource-pairs icon, and
    the action whose box shows it. The state keeps it as one code ("resource_pairs:gear")."""
    kind: Literal["a_grade", "microchip_robots", "resource_pairs", "vp56_robots", "full_columns"]
    resource: Literal["sensor", "gear", "microchip", "program"] | None = None
    action: Literal["upgraded", "basic"] = "upgraded"

    @model_validator(mode="after")
    def _resource(self) -> GameEnd:
        if self.kind == "resource_pairs" and self.resource is None:
            raise ValueError("resource_pairs needs the resource its icon shows (sensor, gear, microchip or program)")
        return self

    def code(self) -> str:
        return f"resource_pairs:{self.resource}" if self.kind == "resource_pairs" else self.kind


def _game_end_code(v: object, info: ValidationInfo) -> object:
    if isinstance(v, dict):  # as the API sends it
        return GameEnd.model_validate(v, strict=api_body(info), context=info.context).code()
    return "" if v is None else v


def _cost_column(v: object) -> object:
    return None if v == "" else v


CostValue = Annotated[Whole, Field(ge=0, le=20)] | None


class RobotCard(Part):
    """An assembled robot as the seat keeps it: what the planner, round end and score read of it."""
    id: str = Field(pattern=ROBOT_ID)
    row: Row
    column: Annotated[Whole, Field(ge=1, le=COLUMNS)] | None = None
    any_row: bool = False
    cost_energy: list[CostValue] = Field(default_factory=lambda: [None, None], min_length=2, max_length=2)
    cost_resources: list[CostValue] = Field(default_factory=lambda: [None, None], min_length=2, max_length=2)
    basic_energy: Whole = _count(7, 1, lo=1)
    upgraded_energy: Annotated[Whole, Field(ge=1, le=7)] | None = None
    upgraded: bool = False
    vp: Whole = _count(20)
    needs_microchip: bool = False
    game_end: Literal[("", *GAME_END_ICONS)] = ""  # type: ignore[valid-type]
    game_end_action: Literal["upgraded", "basic"] = "upgraded"  # the action whose box shows the icon

    forbid_extra: ClassVar[bool] = False  # the API always let a robot carry more (a label, its id)

    _pad = field_validator("cost_energy", "cost_resources", mode="before")(_padded(2, None))
    _ge = field_validator("game_end", mode="before")(_game_end_code)

    @model_validator(mode="before")
    @classmethod
    def _game_end_action(cls, data: Any) -> Any:
        """The API's `game_end.action` is the state's `game_end_action`."""
        icon = data.get("game_end") if isinstance(data, dict) else None
        if isinstance(icon, dict) and icon.get("action") in ("upgraded", "basic"):
            return {**data, "game_end_action": icon["action"]}
        return data

    @field_validator("cost_resources")
    @classmethod
    def _columns_whole(cls, v: list, info: ValidationInfo) -> list:
        energy = info.data.get("cost_energy") or [None, None]
        if api_body(info):  # a request may give the resources alone (Charlotte's robot at round end)
            given = [sum(x is not None for x in energy), sum(x is not None for x in v)]
            if all(given) and given[0] != given[1]:
                raise ValueError("cost_energy and cost_resources must list the same number of cost columns")
            return v
        for k in range(2):
            if (energy[k] is None) != (v[k] is None):
                raise ValueError(f"cost {k + 1} needs both its energy and its resources")
        return v

    def costs(self) -> tuple[list[int], list[int]]:
        cols = [k for k in range(2) if self.cost_energy[k] is not None and self.cost_resources[k] is not None]
        return [self.cost_energy[k] for k in cols], [self.cost_resources[k] for k in cols]  # type: ignore[misc]

    def to_solver(self, column: int | None = None) -> Robot:
        energy = [e for e in self.cost_energy if e is not None]
        resources = [r for r in self.cost_resources if r is not None]
        return Robot(row=self.row, any_row=self.any_row, cost_energy=tuple(energy), cost_resources=tuple(resources),
                     basic_energy=self.basic_energy, upgraded_energy=self.upgraded_energy, upgraded=self.upgraded,
                     vp=self.vp, needs_microchip=self.needs_microchip, column=column, game_end=self.game_end_body())

    def game_end_body(self) -> dict | None:
        if not self.game_end:
            return None
        kind, _, resource = self.game_end.partition(":")
        return {"kind": kind, **({"resource": resource} if resource else {}), "action": self.game_end_action}


def content_id(robot: dict) -> str:
    """An id made from a robot's content: the same on every read of the same stored robot."""
    body = json.dumps({k: v for k, v in robot.items() if k != "id"}, sort_keys=True, default=str)
    return "c" + hashlib.sha1(body.encode()).hexdigest()[:8]


def _with_ids(v: object) -> object:
    """Stored robots without an id (an older page, the API) or with a repeated one get one from their
    content: the page drawn from the state and the save after it agree on which robot is which, and no
    GET has to write it."""
    if not isinstance(v, list):
        return v
    out, seen = [], set()
    for r in v[:MAX_ROBOTS]:
        if isinstance(r, dict):
            rid = r.get("id")
            if not (isinstance(rid, str) and re.match(ROBOT_ID, rid)) or rid in seen:
                rid = base = content_id(r)
                k = 1
                while rid in seen:
                    rid, k = f"{base}-{k}", k + 1
            seen.add(rid)
            r = {**r, "id": rid}
        out.append(r)
    return out


class Inventor(Part):
    name: str = Field(default="", max_length=NAME_MAX)
    upgraded: bool = False

    _strip = field_validator("name", mode="before")(lambda v: v.strip() if isinstance(v, str) else v)


class Completed(Part):
    """The competitions this seat completed (an achievement token on each)."""
    engineering_expo: bool = False
    mech_masters: bool = False
    think_tank: bool = False
    robo_race: bool = False

    def types(self) -> list[str]:
        return [t for t in COMP_TYPES if getattr(self, t)]


class GradeValues(Part):
    """A class card's numbers per grade (its VP, or the count each grade needs); blank where not typed."""
    D: Annotated[Whole, Field(ge=0, le=999)] | None = None
    C: Annotated[Whole, Field(ge=0, le=999)] | None = None
    B: Annotated[Whole, Field(ge=0, le=999)] | None = None
    A: Annotated[Whole, Field(ge=0, le=999)] | None = None

    def given(self) -> dict[str, int]:
        return {g: v for g, v in self.model_dump().items() if v is not None}


class ClassCard(Part):
    """One of the three class-card places: `grade` "" when no card is there, "auto" when the grade follows
    from the card's thresholds and the count."""
    grade: Literal["", "none", "D", "C", "B", "A", "auto"] = ""
    name: str = Field(default="", max_length=60)
    extra_credit: bool = False
    vp_by_grade: GradeValues = Field(default_factory=GradeValues)
    template: Literal[("", *TEMPLATES)] = ""  # type: ignore[valid-type]
    count: Annotated[Whole, Field(ge=0, le=999)] | None = None
    thresholds: GradeValues = Field(default_factory=GradeValues)

    _nulls = field_validator("vp_by_grade", "thresholds", mode="before")(lambda v: {} if v is None else v)
    _template = field_validator("template", mode="before")(lambda v: "" if v is None else v)

    def to_solver(self, place: int, seat: Seat) -> scoring.ClassCard:
        """The card as scored: its grade typed, or worked out from its thresholds and the count (typed, or
        the seat's own for a New Class Objective Tablebot knows)."""
        thresholds, grade = self.thresholds.given(), self.grade
        if thresholds:
            count = self.count
            counts = TEMPLATES[self.template]["counts"] if self.template else None
            if count is None and counts == "inventory_vp":
                count = seat.inventory.vp
            if count is None and counts == "competitions_completed":
                count = seat.completed_count()
            if count is None:
                raise InputError(f"class_cards[{place}].count", "give the count the card's objective reached")
            derived = scoring.grade_for(count, thresholds)
            if grade != "auto" and grade != derived:
                raise InputError(f"class_cards[{place}].grade",
                                 f"grade {grade} does not match count {count} on these thresholds (grade {derived})")
            grade = derived
        elif grade == "auto":
            raise InputError(f"class_cards[{place}].grade",
                             "give the grade met (none, D, C, B or A), or the card's thresholds and the count")
        return scoring.ClassCard(grade, self.vp_by_grade.given(), self.extra_credit, self.name)

    @model_validator(mode="before")
    @classmethod
    def _api_grade(cls, data: Any, info: ValidationInfo) -> Any:
        """A card the API lists is a card: no grade means it follows from the thresholds and the count."""
        if api_body(info) and isinstance(data, dict) and data.get("grade") is None:
            if not data.get("thresholds"):
                raise ValueError("give the grade met (none, D, C, B or A), or the card's thresholds and the count")
            return {**data, "grade": "auto"}
        return data


class Counts(Part):
    """Counts by name, where only those above zero matter to the solvers."""

    def given(self) -> dict[str, int]:
        return {k: v for k, v in self.model_dump().items() if v}


class WildCounts(Counts):
    sensor: Whole = _count(99)
    gear: Whole = _count(99)
    microchip: Whole = _count(99)
    program: Whole = _count(99)
    robot_cards: Whole = _count(99)


class PayCounts(WildCounts):
    duct_tape: Whole = _count(99)


class ConfuciusCounts(Part):
    """Confucius (Friendship, when gained): how many robots take each choice."""
    batteries: Whole = _count(15)
    sensor: Whole = _count(15)
    gear: Whole = _count(15)
    microchip: Whole = _count(15)
    program: Whole = _count(15)
    robot_cards: Whole = _count(15)

    def per_robot(self) -> list[str]:
        return [c for c in CONFUCIUS_CHOICES for _ in range(getattr(self, c))]


def _order(v: object) -> object:
    if isinstance(v, dict):
        return {k: v.get(k) for k in PART_KEYS}
    return {k: None for k in PART_KEYS} if v is None else v


class RoundEndChoices(Part):
    """The round-end page's entries for a seat: the order of its abilities' parts and their choices."""
    order: dict[str, Annotated[Whole, Field(ge=1, le=9)] | None] = Field(
        default_factory=lambda: dict.fromkeys(PART_KEYS))
    ch_action: Literal[rend.CHARLOTTE_ACTIONS] = "skip"  # type: ignore[valid-type]
    ch_wilds: WildCounts = Field(default_factory=WildCounts)
    ch_pay: PayCounts = Field(default_factory=PayCounts)
    ch_row: Row = "design"
    ch_cost: Whole = _count(20, 2)
    ch_vp: Whole = _count(20, 3)
    ch_extra: Whole = _count(20)
    ch_chip: bool = False
    ch_gain: Literal["", "sensor", "gear", "microchip", "program", "robot_cards"] = ""
    sa_search: bool = True
    sa_reward: Literal[("", *rend.SACAGAWEA_REWARDS)] = ""  # type: ignore[valid-type]
    sa_ongoing: bool = False
    co: ConfuciusCounts = Field(default_factory=ConfuciusCounts)
    # Confucius as inventor, on Charlotte's assembly or unlock: the Scroll Board objective it meets
    scroll_objective: str = Field(default="", max_length=80)
    scroll_gain: Literal[("", *CONFUCIUS_CHOICES)] = ""  # type: ignore[valid-type]
    scroll_line: Literal[("", *rend.SCROLL_LINE_REWARDS)] = ""  # type: ignore[valid-type]

    _order = field_validator("order", mode="before")(_order)

    def to_solver(self) -> list[rend.Ability]:
        """The parts given an order number, in that order, with the choices each reads."""
        out = []
        for a, p in self.ordered():
            ab: dict[str, Any] = {"id": a, "part": p, "upgraded": p == "upgrade"}
            if (a, p) == ("charlotte", "base"):
                ab["action"] = self.ch_action
                if self.ch_action != "skip":
                    ab["pay_wilds"] = self.ch_wilds.given()
                    if self.scroll_objective.strip():
                        ab.update(scroll_objective=self.scroll_objective.strip(), scroll_gain=self.scroll_gain or None,
                                  scroll_line=self.scroll_line or None)
                if self.ch_action == "assemble":
                    ab.update(robot=Robot(row=self.ch_row, cost_resources=(self.ch_cost,), vp=self.ch_vp,
                                          needs_microchip=self.ch_chip),
                              payment=self.ch_pay.given(), extra_cost=self.ch_extra)
            if (a, p) == ("charlotte", "upgrade"):
                ab["gain_wild"] = self.ch_gain or None
            if (a, p) == ("sacagawea", "base"):
                ab["search"] = self.sa_search
            if (a, p) == ("sacagawea", "upgrade"):
                ab["reward"] = self.sa_reward or None
            if a == "confucius_friendship":
                ab["per_robot"] = tuple(self.co.per_robot())
            out.append(rend.Ability(**ab))
        return out

    def ordered(self) -> list[tuple[str, str]]:
        """The parts given an order number, in that order."""
        chosen = [(n, a, p) for a, p in ROUND_END_PARTS if (n := self.order.get(f"{a}-{p}"))]
        return [(a, p) for _, a, p in sorted(chosen, key=lambda x: (x[0], ROUND_END_PARTS.index((x[1], x[2]))))]


PhaseName = Literal[PHASES]  # type: ignore[valid-type]


class PhaseCounts(Counts):
    """A count for each phase (batteries to spend, unlocked board bonuses)."""
    upgrade: Whole = _count(99)
    assemble: Whole = _count(99)
    design: Whole = _count(99)
    fabricate: Whole = _count(99)
    recycle: Whole = _count(99)


class EnergyCardEntry(Part):
    """An energy card as the player reads it off the card (the values are in no public source: what is
    entered is the table's own, unverified data) and the phase card put under it. `twice`: one of
    William's special Energy Cards. Blank (no phase or no value) until entered."""
    phase: Literal[("", *PHASES)] = ""  # type: ignore[valid-type]
    energy: Annotated[Whole, Field(ge=0, le=MAX_CARD_ENERGY)] | None = None
    cubes: Whole = _count(MAX_CARD_CUBES)
    multiplier: bool = False
    twice: bool = False

    _phase = field_validator("phase", mode="before")(lambda v: "" if v is None else v)

    def entered(self) -> bool:
        return bool(self.phase) and self.energy is not None

    def to_solver(self) -> EnergyCard:
        return EnergyCard(self.phase, self.energy or 0, self.cubes, self.multiplier, self.twice)


class RoundPrep(Part):
    """A seat's Round Preparation: its two energy cards with the phase under each, and the batteries it
    means to spend per phase (and has spent), for round `round` (cards kept for an earlier round read as not entered)."""
    round: Annotated[Whole, Field(ge=1, le=MAX_TABLE_ROUND)] | None = None
    cards: list[EnergyCardEntry] = Field(default_factory=lambda: [EnergyCardEntry(), EnergyCardEntry()],
                                         min_length=2, max_length=2)
    batteries: PhaseCounts = Field(default_factory=PhaseCounts)
    spent: PhaseCounts = Field(default_factory=PhaseCounts)  # taken off the inventory (table.spend_batteries)
    # the seat's phone keeps its cards in its private state until every seat has assigned (Round
    # Preparation: Phase Cards are assigned face down and revealed together)
    ready: bool = False     # assigned in secret, waiting for the others
    revealed: bool = False  # the cards are in `cards`, public

    _pad = field_validator("cards", mode="before")(_padded(2, dict))

    def entered(self) -> list[EnergyCardEntry]:
        return [c for c in self.cards if c.entered()]


class DummyCard(Part):
    """Two players: the phase of the dummy's card revealed in round `round` ("" until entered)."""
    round: Annotated[Whole, Field(ge=1, le=MAX_TABLE_ROUND)] | None = None
    phase: Literal[("", *PHASES)] = ""  # type: ignore[valid-type]

    _phase = field_validator("phase", mode="before")(lambda v: "" if v is None else v)


class BoardCubes(Part):
    """Cubes on the board in round `round` that no entered card accounts for (a player not using Tablebot,
    an ability that moved cubes): added to the ones every seat's cards and the dummy's put there."""
    round: Annotated[Whole, Field(ge=1, le=MAX_TABLE_ROUND)] | None = None
    extra: PhaseCounts = Field(default_factory=PhaseCounts)


class Objective(Part):
    """One objective of Confucius's Scroll Board as the player reads it off the board."""
    id: str = Field(pattern=ROBOT_ID)
    text: str = Field(default="", max_length=80)
    done: bool = False  # a Confucius Token covers it


class ScrollBoard(Part):
    objectives: list[Objective] = Field(default_factory=list, max_length=16)

    _cut = field_validator("objectives", mode="before")(_first(16))

    def named(self) -> list[str]:
        return [o.text.strip() for o in self.objectives if o.text.strip()]

    def done(self) -> list[str]:
        return [o.text.strip() for o in self.objectives if o.done and o.text.strip()]


ROUND_END_INVENTORS = ("johannes", "charlotte", "sacagawea")  # Friends inventors with a Round End part


def own_round_end_parts(who: Who) -> list[str]:
    """The round-end parts a seat's inventor and Friendship cards give it, in a sensible default order."""
    parts = []
    if who.inventor in ROUND_END_INVENTORS:
        parts.append(f"{who.inventor}-base")
        if who.inventor_upgraded:
            parts.append(f"{who.inventor}-upgrade")
    if "temple" in who.friendships:
        parts.append("temple_friendship-base")
    return parts


class SeatWho(Part):
    """A seat's inventor and Friendship cards: part of the seat, and of every API body whose answer they
    change (planner, score, round end, energy)."""
    inventor: Inventor = Field(default_factory=Inventor)
    friendship_count: Whole = _count(FRIENDSHIP_CAP)  # cards held, named or not
    friendships: list[Annotated[str, Field(max_length=NAME_MAX)]] = Field(
        default_factory=lambda: ["", ""], min_length=FRIENDSHIP_CAP, max_length=FRIENDSHIP_CAP)

    _no_inventor = field_validator("inventor", mode="before")(lambda v: {} if v is None else v)

    @model_validator(mode="before")
    @classmethod
    def _api_friendships(cls, data: Any, info: ValidationInfo) -> Any:
        """The API's `friendships`: the cards by name, or how many (the state: names and the count held)."""
        if not (api_body(info) and isinstance(data, dict) and "friendships" in data):
            return data
        given = data["friendships"]

        def refuse(message: str) -> ValidationError:
            return ValidationError.from_exception_data(cls.__name__, [{"type": "value_error", "loc": ("friendships",),
                                                                 "input": given, "ctx": {"error": ValueError(message)}}])
        if (isinstance(given, int) and not isinstance(given, bool) and not 0 <= given <= FRIENDSHIP_CAP) or (
                isinstance(given, list) and len(given) > FRIENDSHIP_CAP):
            raise refuse(f"a player holds 0 to {FRIENDSHIP_CAP} Friendship cards")
        if isinstance(given, int) and not isinstance(given, bool):
            return {**data, "friendship_count": given, "friendships": []}
        if isinstance(given, list) and all(isinstance(n, str) and n.strip() and len(n) <= NAME_MAX for n in given):
            names = [n.strip() for n in given]
            return {**data, "friendship_count": len(names),
                    "friendships": ["" if n.lower() == "unnamed" else n for n in names]}
        raise refuse(f"list the Friendship cards by name, 1 to {NAME_MAX} characters each, like [\"Johannes\"] "
                     "(or give how many)")

    @field_validator("friendships")
    @classmethod
    def _names(cls, v: list[str]) -> list[str]:
        return [n.strip() for n in v]

    _pad_names = field_validator("friendships", mode="before")(_padded(FRIENDSHIP_CAP, ""))

    def named_friendships(self) -> list[str]:
        return [n for n in self.friendships if n]

    def friendships_held(self) -> int:
        return max(self.friendship_count, len(self.named_friendships()))

    def friendships_body(self) -> int | list[str]:
        """The Friendship cards as an API body takes them: names (an unnamed card as such), or a count."""
        names = self.named_friendships()
        return names + ["unnamed"] * (self.friendships_held() - len(names)) if names else self.friendship_count

    def who(self) -> Who:
        return Who.of(self.inventor.name, self.inventor.upgraded, self.friendships_body())


class Seat(SeatWho):
    """One player's seat: entered once, read by the planner, round end and score pages."""
    inventory: Items = Field(default_factory=Items)
    tokens: Tokens = Field(default_factory=Tokens)
    class_status: ClassStatus | None = None  # None: not entered (the class cards' grades may tell)
    robots: list[RobotCard] = Field(default_factory=list, max_length=MAX_ROBOTS)
    completed: Completed = Field(default_factory=Completed)
    class_cards: list[ClassCard] = Field(default_factory=lambda: [ClassCard() for _ in range(3)],
                                         min_length=3, max_length=3)
    competitions_completed: Annotated[Whole, Field(ge=0, le=4)] | None = None  # None: the completed ones
    round_end: RoundEndChoices = Field(default_factory=RoundEndChoices)
    scroll_board: ScrollBoard = Field(default_factory=ScrollBoard)
    prep: RoundPrep = Field(default_factory=RoundPrep)
    energy_bonuses: PhaseCounts = Field(default_factory=PhaseCounts)  # unlocked on the player board

    _ids = field_validator("robots", mode="before")(_with_ids)
    _pad_cards = field_validator("class_cards", mode="before")(_padded(3, lambda: {"grade": ""}))

    @model_validator(mode="after")
    def _own_round_end(self) -> Seat:
        """With no order set (a new seat, or after a round end was applied), the seat's own Round End
        abilities come already in order: the inventor's base part, its upgraded part, then Temple."""
        if not any(self.round_end.order.values()):
            own = own_round_end_parts(self.who())
            if own:
                self.round_end.order = {k: (own.index(k) + 1 if k in own else None) for k in PART_KEYS}
        return self

    def round_end_seat(self) -> rend.Seat:
        """What the round end reads of the seat beyond its inventory and robots."""
        who = self.who()
        named = self.scroll_board.named()
        return rend.Seat(sacagawea=who.robot_cards_as_duct_tape, yo_yo="yo_yo" in who.friendships,
                         confucius=who.inventor == "confucius", scroll_objectives=tuple(named) if named else None,
                         scroll_done=tuple(self.scroll_board.done()))

    def prep_in(self, rnd: int) -> RoundPrep:
        """The seat's preparation for round `rnd` (blank when what is kept is for another round)."""
        return self.prep if self.prep.round == rnd else RoundPrep(round=rnd)

    def to_solver(self, placed: bool = False, score: bool = True) -> SeatRecord:
        """The seat as the solvers read it. `placed`: each robot in the slot the play area shows it in
        (the pages); else with the column given (the API, where two robots in one slot is an error).
        `score`: with the class cards as scored (the planner reads only their status); a card whose
        grade cannot be worked out is an InputError naming its field."""
        slots = {r.id: r.column for r in self.slots().values()} if placed else {}
        robots = tuple(r.to_solver(slots.get(r.id, r.column)) for r in self.robots)
        places = [j for j, c in enumerate(self.class_cards) if c.grade] if score else []
        cards = tuple(self.class_cards[j].to_solver(j, self) for j in places)
        who = self.who()
        class_now = self.class_now()
        comps = self.completed.types()
        player = PlayerState(inventory=self.inventory.to_solver(), unplaced=self.tokens.unplaced.counts(),
                             placed=self.tokens.placed.counts(), meeting_d=class_now.meeting_d,
                             meeting_c=class_now.meeting_c, robots=robots, friendships=self.friendships_held(),
                             completed=frozenset(comps), robot_cards_as_duct_tape=who.robot_cards_as_duct_tape)
        return SeatRecord(player, cards, who, tuple(places))

    def completed_count(self) -> int | None:
        return len(self.completed.types()) if self.competitions_completed is None else self.competitions_completed

    def robot(self, rid: str) -> RobotCard | None:
        return next((r for r in self.robots if r.id == rid), None)

    def class_from_cards(self) -> ClassStatus | None:
        """Class cards meeting D / C or better, from the grades entered on the score page (None when a
        card's grade is not typed in, or there are none)."""
        grades = [c.grade for c in self.class_cards if c.grade]
        if not grades or not all(g in ("none", "D", "C", "B", "A") for g in grades):
            return None
        return ClassStatus(meeting_d=sum(g in "DCBA" and g != "none" for g in grades),
                           meeting_c=sum(g in ("C", "B", "A") for g in grades))

    def class_now(self) -> ClassStatus:
        return self.class_status or self.class_from_cards() or ClassStatus()

    def slots(self) -> dict[str, RobotCard]:
        """Robots by slot key "design-1": a robot's own column when free, else the leftmost free one."""
        taken: dict[str, RobotCard] = {}
        later = []
        for r in self.robots:
            key = f"{r.row}-{r.column}"
            if r.column is not None and key not in taken:
                taken[key] = r
            else:
                later.append(r)
        for r in later:
            free = [c for c in range(1, COLUMNS + 1) if f"{r.row}-{c}" not in taken]
            if free:
                taken[f"{r.row}-{free[0]}"] = r.model_copy(update={"column": free[0]})
        return taken


class PlanPlayer(SeatWho):
    """The planner's `player` (POST /competitions/plan): the seat's own parts, with its class cards as
    the status the criteria read and the competitions it completed as a list."""
    inventory: Items = Field(default_factory=Items)
    tokens: Tokens = Field(default_factory=Tokens)
    class_cards: ClassStatus = Field(default_factory=ClassStatus)
    robots: list[RobotCard] = Field(default_factory=list, max_length=MAX_ROBOTS)
    completed: list[str] = Field(default_factory=list, max_length=4)

    _ids = field_validator("robots", mode="before")(_with_ids)

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

    def as_seat(self) -> Seat:
        return Seat(inventory=self.inventory, tokens=self.tokens, class_status=self.class_cards, robots=self.robots,
                    inventor=self.inventor, friendship_count=self.friendship_count, friendships=self.friendships,
                    completed=Completed(**dict.fromkeys(self.completed, True)))

    def body(self) -> dict:
        """The player as this body takes it (what an answer sends back to plan from)."""
        return {**self.model_dump(exclude={"friendship_count", "friendships"}), "friendships": self.friendships_body()}


class Player(Seat):
    """A seat with its player's name: the body of `POST /score` and each of `/score/compare`'s players."""
    name: str = Field(default="", max_length=40)

    def completed_count(self) -> int | None:
        """The count the request gives (a body without one has not said)."""
        return self.competitions_completed if self.competitions_completed is not None or not self.completed.types() \
            else len(self.completed.types())


class Compare(Part):
    players: list[Player] = Field(min_length=1, max_length=MAX_SEATS)
    solo: Solo | None = None


# ---- the competitions in play ----------------------------------------------------------------------

def default_tile(t: str) -> dict:
    tile = GAME_DATA.tiles[t]
    return {"token_type": tile.token_type.value,
            **{s: {"resources": tile.sides[s].resources.value, "batteries": tile.sides[s].batteries.value}
               for s in ("A", "B")}}


class TileCost(Part):
    resources: Annotated[Whole, Field(ge=1, le=30)]
    batteries: Annotated[Whole, Field(ge=1, le=30)]


class Tile(Part):
    """A competition tile's numbers as the table plays them (the data file's, unless entered)."""
    token_type: TokenType
    A: TileCost
    B: TileCost


def _tiles(v: object) -> object:
    """Every tile, with the data file's numbers wherever the stored ones give none (older tables kept
    only the numbers that differ)."""
    given = v if isinstance(v, dict) else {}
    out = {}
    for t in COMP_TYPES:
        d, g = default_tile(t), given.get(t) if isinstance(given.get(t), dict) else {}
        out[t] = {"token_type": g.get("token_type", d["token_type"]),
                  **{s: {**d[s], **(g[s] if isinstance(g.get(s), dict) else {})} for s in ("A", "B")}}
    return out


def card_numbers(v: object) -> object:
    """A card's values typed as "1 2 3 4" (or a stored list)."""
    if isinstance(v, str):
        parts = v.replace(",", " ").split()
        if not parts or not all(p.isdecimal() and len(p) < 4 for p in parts):
            raise ValueError("type 1 to 7 whole numbers from 0 to 20, like “1 2 3 4”")
        return [int(p) for p in parts]
    return v


CardValues = Annotated[list[Annotated[Whole, Field(ge=0, le=20)]], BeforeValidator(card_numbers),
                       Field(min_length=1, max_length=7)]
CARD_VALUE_IDS = tuple(cid for cid, c in GAME_DATA.cards.items() if c.values is not None)


def _card_values(v: object) -> object:
    given = v if isinstance(v, dict) else {}
    return {cid: given.get(cid, list(GAME_DATA.cards[cid].values.value)) for cid in CARD_VALUE_IDS}


def value_text(v: object) -> object:
    """A value the plan weighs, typed as a number or a fraction ("1/3"); blank for the default."""
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise ValueError("give a number or a fraction like 1/3")
    try:
        x = parse_fraction(v)
    except (ValueError, TypeError, OverflowError):
        raise ValueError("give a number or a fraction like 1/3") from None
    if not 0 <= x <= MAX_VALUE:
        raise ValueError(f"must be between 0 and {MAX_VALUE}")
    if x.denominator > MAX_DENOMINATOR:
        raise ValueError(f"use a simpler fraction (denominator at most {MAX_DENOMINATOR})")
    return str(v).strip()[:20]


ValueText = Annotated[str | None, BeforeValidator(value_text)]


class ValueTexts(Part):
    """What things are worth to the player, as typed (None: the planner's default)."""
    sensor: ValueText = None
    gear: ValueText = None
    microchip: ValueText = None
    program: ValueText = None
    duct_tape: ValueText = None
    battery: ValueText = None
    robot_cards: ValueText = None
    upgrade_token: ValueText = None
    friendship: ValueText = None

    def given(self) -> dict[str, str]:
        return {k: v for k, v in self.model_dump().items() if v is not None}


def _criterion_of(comp_type: str):
    def check(v: object) -> object:
        if v in (None, ""):
            return None
        if not isinstance(v, str) or CRITERIA.get(v) != comp_type:
            raise ValueError("is not a card of this competition")
        return v
    return check


class CompCards(Part):
    """The card in play of each competition (None: not chosen yet)."""
    engineering_expo: Annotated[str | None, BeforeValidator(_criterion_of("engineering_expo"))] = None
    mech_masters: Annotated[str | None, BeforeValidator(_criterion_of("mech_masters"))] = None
    think_tank: Annotated[str | None, BeforeValidator(_criterion_of("think_tank"))] = None
    robo_race: Annotated[str | None, BeforeValidator(_criterion_of("robo_race"))] = None


class CompSides(Part):
    engineering_expo: Side = "A"
    mech_masters: Side = "A"
    think_tank: Side = "A"
    robo_race: Side = "A"


class Spot(Part):
    """A spare upgrade token on the round tracker (solo and 2 players)."""
    round: Annotated[Whole, Field(ge=1, le=ROUNDS)]
    token_type: TokenType


class Competitions(Part):
    cards: CompCards = Field(default_factory=CompCards)
    sides: CompSides = Field(default_factory=CompSides)
    tiles: dict[CompType, Tile] = Field(default_factory=lambda: {t: Tile(**default_tile(t)) for t in COMP_TYPES})
    card_values: dict[str, CardValues] = Field(default_factory=lambda: _card_values(None))
    values: ValueTexts = Field(default_factory=ValueTexts)
    duct_tape_pays_resources: bool = False
    players: Whole = _count(MAX_SEATS)  # 0: the table's count
    tracker: list[Spot] = Field(default_factory=list, max_length=4)
    completed_this_round: list[CompType] = Field(default_factory=list, max_length=4)
    completed_round: Annotated[Whole, Field(ge=1, le=MAX_TABLE_ROUND)] | None = None
    marker: Annotated[Whole, Field(ge=1, le=ROUNDS)] | None = None  # a round kept here before tables had one

    _tiles = field_validator("tiles", mode="before")(_tiles)
    _values = field_validator("card_values", mode="before")(_card_values)
    _cut = field_validator("tracker", "completed_this_round", mode="before")(_first(4))

    @field_validator("completed_this_round")
    @classmethod
    def _in_order(cls, v: list[str]) -> list[str]:
        return [t for t in COMP_TYPES if t in v]

    def in_play(self) -> dict[str, str]:
        return {t: c for t in COMP_TYPES if (c := getattr(self.cards, t))}

    def entered(self, t: str) -> set[str]:
        """The numbers of competition `t` the table entered (the others are the data file's)."""
        side, tile, d = getattr(self.sides, t), self.tiles[t], default_tile(t)
        out = {k for k in ("resources", "batteries") if getattr(getattr(tile, side), k) != d[side][k]}
        out |= {"token_type"} if tile.token_type != d["token_type"] else set()
        crit = getattr(self.cards, t)
        card = GAME_DATA.cards[crit] if crit else None
        if card is not None and card.values is not None and self.card_values.get(crit) != list(card.values.value):
            out.add("values")
        return out

    def to_solver(self) -> list[tuple[Competition, set[str]]]:
        """The competitions in play as the planner reads them, each with the numbers entered."""
        out = []
        for t, crit in self.in_play().items():
            side, tile = getattr(self.sides, t), self.tiles[t]
            cost = getattr(tile, side)
            values = self.card_values.get(crit) if GAME_DATA.cards[crit].values is not None else None
            out.append((GAME_DATA.competition(crit, side, tile.token_type, cost.resources, cost.batteries,
                                              tuple(values) if values is not None else None), self.entered(t)))
        return out


# ---- the Search deck ------------------------------------------------------------------------------

CARD_CODE = re.compile(r"^(d|f|r|a)[a-z]*-?([1-7])$")
CODE_ROW = {"d": "design", "f": "fabricate", "r": "recycle", "a": "any"}
ROW_CODE = {"design": "D", "fabricate": "F", "recycle": "R", "any": "A"}


class SeenCard(Part):
    row: CardRow
    energy: Annotated[Whole, Field(ge=1, le=7)]


def card_codes(v: object) -> object:
    """Cards typed as short codes, top first: "D4 F2 A5" (Design 4, Fabricate 2, any-row 5)."""
    if v is None:  # a field emptied
        return []
    if not isinstance(v, str):
        return v
    cards = []
    for i, token in enumerate(t for t in re.split(r"[\s,;]+", v.strip().lower()) if t):
        m = CARD_CODE.match(token)
        if not m:
            raise ValueError(f"“{token[:12]}” (card {i + 1}) is not a card: write a row letter D, F, R or A and "
                             "the basic energy 1–7, like D4")
        cards.append({"row": CODE_ROW[m.group(1)], "energy": int(m.group(2))})
    return cards


def codes_text(cards: list[SeenCard] | list[dict]) -> str:
    return " ".join(f"{ROW_CODE[c['row'] if isinstance(c, dict) else c.row]}"
                    f"{c['energy'] if isinstance(c, dict) else c.energy}" for c in cards)


SeenCards = Annotated[list[SeenCard], BeforeValidator(card_codes), Field(max_length=2 * MAX_POOL_CARDS)]
CELL_KEYS = tuple(f"{row}-{e}" for row in CARD_ROWS for e in ENERGIES)


class Cell(Part):
    count: Whole = _count(99)
    wanted: bool = False


def _cells(v: object) -> object:
    given = v if isinstance(v, dict) else {}
    return {k: given.get(k) if isinstance(given.get(k), dict) else {} for k in CELL_KEYS}


class Criteria(Part):
    row: Row = "design"
    energy_min: Annotated[Whole, Field(ge=1, le=7)] = 1
    energy_max: Annotated[Whole, Field(ge=1, le=7)] = 7

    @model_validator(mode="after")
    def _ordered(self, info: ValidationInfo) -> Criteria:
        if self.energy_min > self.energy_max and api_body(info):
            raise ValueError("energy_min must not be above energy_max")
        if self.energy_min > self.energy_max:  # two sliders crossed: the range between them
            self.energy_min, self.energy_max = self.energy_max, self.energy_min
        return self

    def to_solver(self) -> search_odds.Criteria:
        return search_odds.Criteria(self.row, self.energy_min, self.energy_max)


class SearchDeck(Part):
    """The Search deck as the table knows it: unseen cards by row and energy (when someone counted them),
    the deck's size, the known cards at its bottom, the cards seen so far and the cards set aside."""
    cells: dict[str, Cell] = Field(default_factory=lambda: {k: Cell() for k in CELL_KEYS})
    deck_size: Whole = _count(999)
    known_bottom: SeenCards = Field(default_factory=list)
    seen: SeenCards = Field(default_factory=list)
    criteria: Criteria = Field(default_factory=Criteria)
    set_aside: dict[str, Annotated[Whole, Field(ge=1, le=999)]] = Field(default_factory=dict)

    _cells = field_validator("cells", mode="before")(_cells)
    _cut = field_validator("known_bottom", "seen", mode="before")(_first(2 * MAX_POOL_CARDS))

    @field_validator("set_aside")
    @classmethod
    def _aside_keys(cls, v: dict[str, int]) -> dict[str, int]:
        return {k: n for k, n in v.items() if k in CELL_KEYS}

    def pool_cards(self) -> int:
        return sum(c.count for c in self.cells.values())

    def to_solver(self) -> search_odds.Deck:
        """The deck as the Search odds read it (a SearchInputError when it cannot be: more cards in the
        deck than unseen). A known-bottom card is wanted when its cell is."""
        def kind(key: str) -> tuple[str, int]:
            row, energy = key.rsplit("-", 1)
            return row, int(energy)
        pool = tuple(search_odds.CardGroup(*kind(k), c.count, wanted=c.wanted)
                     for k, c in self.cells.items() if c.count or c.wanted)
        bottom = tuple(search_odds.Card(c.row, c.energy, wanted=self.cells[f"{c.row}-{c.energy}"].wanted)
                       for c in self.known_bottom)
        return search_odds.Deck(pool, self.deck_size, bottom)


class Solo(Part):
    """The solo target (Solo / 2P Gameplay Changes): the scenario's threshold, single game or campaign."""
    threshold: Annotated[Whole, Field(ge=0, le=999)] | None = None
    mode: Literal["single", "campaign"] = "single"
    competitions: bool = True


# ---- the whole part of the table ----------------------------------------------------------------

class RaisingRobotsState(BaseModel):
    """`state["raising_robots"]` of a table."""
    seats: list[Seat] = Field(default_factory=list, max_length=MAX_SEATS)
    competitions: Competitions = Field(default_factory=Competitions)
    search: SearchDeck = Field(default_factory=SearchDeck)
    solo: Solo = Field(default_factory=Solo)
    dummy: DummyCard = Field(default_factory=DummyCard)
    board: BoardCubes = Field(default_factory=BoardCubes)
    friendship: FriendshipDeck = Field(default_factory=FriendshipDeck)  # the Friendship deck (friendship.py)

    _cut = field_validator("seats", mode="before")(_first(MAX_SEATS))

    def seat(self, i: int) -> Seat:
        return self.seats[i] if 0 <= i < len(self.seats) else Seat()

    def dummy_in(self, rnd: int) -> DummyCard:
        return self.dummy if self.dummy.round == rnd else DummyCard(round=rnd)

    def board_in(self, rnd: int) -> BoardCubes:
        return self.board if self.board.round == rnd else BoardCubes(round=rnd)

    @classmethod
    def from_stored(cls, raw: Any) -> RaisingRobotsState:
        """A table's whole state (in the current format) read as this model."""
        return lenient(cls, raw.get(STATE_KEY) if isinstance(raw, dict) else None)
