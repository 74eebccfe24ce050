"""Two Robots models (pydantic v2): the JSON API's request bodies, and the ONE table-state model.

The table state lives under `state["two_robots"]`: the table's part names, its Action deck (when the
players entered it), the discard pile and one seat per player. Every page and endpoint reads it
through `TwoRobotsState.from_stored` (lenient: what does not validate is dropped, the defaults fill
in) and the scripts get it as `model_dump()`. Request bodies validate strictly (a 400 names the field).
"""
from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from solvers.two_robots.cards import HandCard
from solvers.two_robots.factory import ENERGIES, MAX_STACKS, Factory, Part, Stack
from solvers.two_robots.game_data import COMBINATIONS, DATA
from solvers.two_robots.named_cards import Entered
from solvers.two_robots.odds import Deck, UnseenCard

from ..web.stored import lenient

# the solver's and the game data's names, as the models' allowed values
Energy = Literal[ENERGIES]  # type: ignore[valid-type]
SalvagerId = Literal[tuple(sv.id for sv in DATA.salvagers)]  # type: ignore[valid-type]
EventChoice = Literal["none", "power", "active_robot"]
RobotCardId = Literal[tuple(DATA.robot_pile_names)]  # type: ignore[valid-type]
def _no_bool(v: object) -> object:
    if isinstance(v, bool):
        raise ValueError("a whole number is needed, not yes or no")
    return v


# a whole number: from a form "3" reads as 3, but true or 2.5 is not one
Whole = Annotated[int, BeforeValidator(_no_bool)]

MAX_PLAN_HAND = 15   # the hand limit is 7 and a draw adds 3; more would only slow the exhaustive search
MAX_SEATS = 5        # Two Robots plays 2 to 5 ("Variations")
MAX_PILE = 100       # the Action deck holds 100 cards
MAX_NAMED = 40       # Power cards (12), abilities (5), Active Robot card names, and room for add-ons


def part_id(value: object) -> object:
    """A part name as the app keeps it: lower case, spaces as underscores ("TORSO" -> "torso")."""
    return value.strip().lower().replace(" ", "_") if isinstance(value, str) else value


def _different(v: list[str] | None) -> list[str] | None:
    if v is not None and len(set(v)) != len(v):
        raise ValueError("a hybrid has two different energies")
    return v


def _in_order(energies: list[str]) -> list[str]:
    return [e for e in ENERGIES if e in energies]


def check_part_names(v: object) -> object:
    """Four different part names of 1 to 30 letters, digits or underscores."""
    if isinstance(v, list):
        v = [part_id(x) for x in v]
        if all(isinstance(x, str) for x in v):
            if len(set(v)) != len(v):
                raise ValueError("the four part names must be different")
            if any(not x or len(x) > 30 or not x.replace("_", "").isalnum() for x in v):
                raise ValueError("each part name has 1 to 30 letters or digits")
    return v


# ---- cards -------------------------------------------------------------------------------------------

class PartIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    part: str = Field(min_length=1, max_length=30)
    energies: list[Energy] = Field(min_length=1, max_length=2)

    _norm = field_validator("part", mode="before")(part_id)
    _hybrid = field_validator("energies")(_different)
    _order = field_validator("energies")(_in_order)

    def to_solver(self) -> Part:
        return Part.of(self.part, self.energies)


class StackIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    cards: list[PartIn] = Field(min_length=1, max_length=60)
    frozen: bool = False

    def to_solver(self) -> Stack:
        return Stack(tuple(c.to_solver() for c in self.cards), self.frozen)


class CardIn(BaseModel):
    """A card of the Action deck: a part (`part` and `energies`) or an Attack or Defense card."""
    model_config = ConfigDict(extra="ignore")
    kind: Literal["part", "attack", "defense"] = "part"
    part: str | None = Field(default=None, min_length=1, max_length=30)
    energies: list[Energy] | None = Field(default=None, min_length=1, max_length=2)
    name: str = Field(default="", max_length=60)

    _norm = field_validator("part", mode="before")(part_id)
    _hybrid = field_validator("energies")(_different)

    @model_validator(mode="after")
    def _complete(self) -> CardIn:
        if self.kind == "part" and (self.part is None or self.energies is None):
            raise ValueError("a part card needs `part` and `energies`")
        if self.energies is not None:
            self.energies = _in_order(self.energies)
        return self

    def solver_part(self) -> Part | None:
        return Part.of(self.part, self.energies) if self.kind == "part" and self.part and self.energies else None


class HandCardIn(CardIn):
    stacks_required: int | None = Field(default=None, ge=0, le=5)
    play: bool = False
    energy: Energy | None = None          # an Attack card that destroys Part cards of this energy
    destroy: int = Field(default=2, ge=1, le=4)

    @model_validator(mode="after")
    def _gold(self) -> HandCardIn:
        if self.kind != "part" and self.stacks_required is None:
            raise ValueError("an Attack or Defense card needs `stacks_required` (its gold number)")
        return self

    def to_solver(self) -> HandCard:
        if self.kind == "part":
            return HandCard(kind="part", part=self.solver_part())
        return HandCard(kind=self.kind, name=self.name, stacks_required=self.stacks_required or 0, play=self.play,
                        energy=self.energy if self.kind == "attack" else None,
                        destroy=self.destroy if self.energy and self.kind == "attack" else 0)

    def stored(self) -> dict:
        """The card as a seat keeps it (only the fields it uses)."""
        if self.kind == "part":
            return {"kind": "part", "part": self.part, "energies": list(self.energies or [])}
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "stacks_required": self.stacks_required,
                               "play": self.play}
        if self.energy is not None:
            out |= {"energy": self.energy, "destroy": self.destroy}
        return out


class UnseenIn(CardIn):
    count: int = Field(default=1, ge=0, le=100)
    wanted: bool = False

    def to_solver(self) -> UnseenCard:
        part = self.solver_part()
        return UnseenCard(kind=self.kind, part=part, name="" if part else (self.name or self.kind.title()),
                          count=self.count, wanted=self.wanted)


class DeckPartIn(PartIn):
    count: int = Field(ge=0, le=60)


class DeckIn(BaseModel):
    """The whole Action deck as the table plays it: part cards with their copies, Attack and Defense counts."""
    model_config = ConfigDict(extra="ignore")
    parts: list[DeckPartIn] = Field(max_length=60)
    attack: int = Field(default=DATA.deck_attack, ge=0, le=100)
    defense: int = Field(default=DATA.deck_defense, ge=0, le=100)

    def to_solver(self) -> Deck:
        counts: dict[Part, int] = {}
        for p in self.parts:
            counts[p.to_solver()] = counts.get(p.to_solver(), 0) + p.count
        return Deck(parts=tuple(counts.items()), attack=self.attack, defense=self.defense, source="entered")


def default_deck(part_names: tuple[str, ...]) -> Deck:
    return Deck(parts=tuple(DATA.default_deck(part_names)), attack=DATA.deck_attack, defense=DATA.deck_defense,
                source="default")


# ---- request bodies ----------------------------------------------------------------------------------

class NamedCardIn(BaseModel):
    """A Power card, Salvager ability or Active Robot card entered by name with the words on the card (no
    source gives them: unverified); `salvager`: whose it is (None: anyone's, an Active Robot card)."""
    model_config = ConfigDict(extra="ignore")
    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:8], pattern=r"^[0-9a-f]{8}$")
    name: str = Field(min_length=1, max_length=40)
    kind: Literal["power", "ability", "robot_card"] = "power"
    salvager: SalvagerId | None = None
    phase: Literal["draw", "play", "event", "cleanup", "any"] = "any"
    text: str = Field(default="", max_length=400)

    _blank = field_validator("salvager", mode="before")(lambda v: None if v == "" else v)

    def to_solver(self) -> Entered:
        return Entered(name=self.name, kind=self.kind, salvager=self.salvager, phase=self.phase, text=self.text)


class HouseRules(BaseModel):
    """The rulebook's two house rules ("Variations"), each on or off; the reward Tablebot applies is the win."""
    model_config = ConfigDict(extra="ignore")
    uniform_robot: bool = False
    five_stacks: bool = False


class OtherSeatIn(BaseModel):
    """Another seat at the table: its factory (public), and what else is public about it."""
    model_config = ConfigDict(extra="ignore")
    stacks: list[StackIn] = Field(default_factory=list, max_length=10)
    name: str | None = Field(default=None, max_length=40)
    hand_count: int | None = Field(default=None, ge=0, le=30)
    health: int | None = Field(default=None, ge=0, le=9)
    powers_left: int | None = Field(default=None, ge=0, le=5)
    salvager: SalvagerId | None = None

    def factory(self) -> Factory:
        return Factory(tuple(s.to_solver() for s in self.stacks))


class FactoryIn(BaseModel):
    """One seat's factory and hand, with the rest of the table: the other seats' factories, the discard
    pile, other cards seen, and the deck (or `table` + `seat`: read all of it from a table)."""
    model_config = ConfigDict(extra="ignore")
    part_names: list[str] | None = Field(default=None, min_length=4, max_length=4)
    stacks: list[StackIn] = Field(default_factory=list, max_length=10)
    hand: list[HandCardIn] = Field(default_factory=list, max_length=40)
    salvager: SalvagerId | None = None
    others: list[OtherSeatIn] = Field(default_factory=list, max_length=MAX_SEATS - 1)
    discard: list[CardIn] = Field(default_factory=list, max_length=MAX_PILE)
    seen: list[CardIn] = Field(default_factory=list, max_length=MAX_PILE)
    deck: DeckIn | None = None
    health: int | None = Field(default=None, ge=0, le=9)
    actions: int = Field(default=DATA.actions, ge=0, le=3)   # actions left in the Play phase
    named_cards: list[NamedCardIn] = Field(default_factory=list, max_length=MAX_NAMED)
    simple: bool = False   # the simpler game ("Variations"): no Power cards (no health), abilities or Event
    partner: int | None = Field(default=None, ge=0, lt=MAX_SEATS - 1)   # 2v2: the index in `others` of your partner
    house_rules: HouseRules = Field(default_factory=lambda: HouseRules())
    table: str | None = Field(default=None, min_length=1, max_length=64)
    seat: int = Field(default=0, ge=0, lt=MAX_SEATS)

    _names = field_validator("part_names", mode="before")(check_part_names)

    @model_validator(mode="after")
    def _partner(self) -> FactoryIn:
        if self.partner is not None and self.table is None and len(self.others) != 3:
            raise ValueError("`partner`: 2v2 is four players, so `others` holds three seats")
        if self.partner is not None and self.table is None and self.partner >= len(self.others):
            # raised with its field's path, so the 400 names `partner` (a model check's error names the body)
            raise ValidationError.from_exception_data(type(self).__name__, [InitErrorDetails(
                type=PydanticCustomError("partner", "must be the index of one of the {n} `others`",
                                         {"n": len(self.others)}),
                loc=("partner",), input=self.partner)])
        return self

    def names(self) -> tuple[str, ...]:
        return tuple(self.part_names) if self.part_names else DATA.part_ids

    def teams(self) -> list[int] | None:
        """2v2 in the answers' seat order (you first, then `others`): your team is 0."""
        if self.partner is None:
            return None
        return [0] + [0 if k == self.partner else 1 for k in range(len(self.others))]

    def house(self) -> tuple[str, ...]:
        return tuple(k for k, on in self.house_rules.model_dump().items() if on)


class PlanIn(FactoryIn):
    unseen: list[UnseenIn] | None = Field(default=None, max_length=120)
    event: EventChoice = "none"
    powers_left: int = Field(default=DATA.default_health, ge=0, le=5)
    hand_limit: int = Field(default=DATA.hand_limit, ge=0, le=30)


class OddsIn(FactoryIn):
    unseen: list[UnseenIn] | None = Field(default=None, max_length=120)
    draws: int = Field(default=DATA.draw, ge=1, le=10)


class AttackCardIn(BaseModel):
    """The Attack card for `/attack`: by name (the rulebook's cards) or by the energy it destroys."""
    model_config = ConfigDict(extra="ignore")
    name: str = Field(default="", max_length=60)
    kind: Literal["attack", "defense"] = "attack"
    energy: Energy | None = None
    destroy: int = Field(default=2, ge=1, le=4)
    stacks_required: int | None = Field(default=None, ge=0, le=5)

    def to_solver(self) -> HandCard:
        return HandCard(kind=self.kind, name=self.name, stacks_required=self.stacks_required or 0,
                        energy=self.energy if self.kind == "attack" else None,
                        destroy=self.destroy if self.energy else 0)


class AttackIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    card: AttackCardIn
    player: int = Field(default=0, ge=0, lt=MAX_SEATS)
    partner: int | None = Field(default=None, ge=0, lt=MAX_SEATS)   # 2v2: the index in `factories` spared
    factories: list[OtherSeatIn] = Field(min_length=1, max_length=MAX_SEATS)
    part_names: list[str] | None = Field(default=None, min_length=4, max_length=4)

    _names = field_validator("part_names", mode="before")(check_part_names)

    @model_validator(mode="after")
    def _player(self) -> AttackIn:
        if self.player >= len(self.factories):
            raise ValueError("`player` must be the index of one of the `factories`")
        if self.partner is not None and (self.partner == self.player or self.partner >= len(self.factories)):
            raise ValueError("`partner` must be the index of another of the `factories`")
        return self

    def names(self) -> tuple[str, ...]:
        return tuple(self.part_names) if self.part_names else DATA.part_ids


# ---- the table state -----------------------------------------------------------------------------------

def _first(n: int):
    """A stored list is cut to its first n items rather than dropped whole (nothing entered is lost
    to one extra item)."""
    def cut(v: object) -> object:
        return v[:n] if isinstance(v, list) else v
    return cut


Combo = Annotated[str, Field(pattern=r"^[cemns]{1,2}$")]


class SeatState(BaseModel):
    """One seat as every phone sees it: its factory, how many cards it holds, and its turn settings. Its
    hand is in the seat's private state (`SeatPrivate`), which only its own phone reads."""
    model_config = ConfigDict(extra="ignore")
    stacks: list[StackIn] = Field(default_factory=list, max_length=MAX_STACKS)
    hand_count: Annotated[Whole, Field(ge=0, le=30)] | None = None   # public ("Clarifications")
    event: EventChoice = "none"
    actions: Annotated[Whole, Field(ge=0, le=3)] = DATA.actions
    powers_left: Annotated[Whole, Field(ge=0, le=5)] = DATA.default_health
    salvager: SalvagerId | None = None
    health: Annotated[Whole, Field(ge=0, le=9)] | None = None
    used_powers: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list, max_length=5)  # by name

    _cut_stacks = field_validator("stacks", mode="before")(_first(MAX_STACKS))

    @property
    def health_now(self) -> int:
        """Health entered, else the Salvager's starting health (three Power cards: Setup)."""
        if self.health is not None:
            return self.health
        sv = DATA.salvager(self.salvager)
        return sv.health if sv is not None else DATA.default_health

    def factory(self) -> Factory:
        return Factory(tuple(s.to_solver() for s in self.stacks))


class SeatPrivate(BaseModel):
    """What one seat keeps on its own phone: its hand, a draw being entered, the energies entered last."""
    model_config = ConfigDict(extra="ignore")
    hand: list[HandCardIn] = Field(default_factory=list, max_length=MAX_PLAN_HAND)
    drawn: list[HandCardIn] = Field(default_factory=list, max_length=DATA.draw)
    recent: list[Combo] = Field(default_factory=list, max_length=6)   # newest first

    _cut_hand = field_validator("hand", mode="before")(_first(MAX_PLAN_HAND))

    def held(self) -> list[HandCardIn]:
        """The cards in hand, with a draw being entered (they are in the hand at the table)."""
        return self.hand + self.drawn

    def known(self, names: tuple[str, ...]) -> SeatPrivate:
        """Without cards whose part name is not one of the table's (another phone renamed a part)."""
        return SeatPrivate(hand=[c for c in self.hand if c.kind != "part" or c.part in names],
                           drawn=[c for c in self.drawn if c.kind != "part" or c.part in names], recent=self.recent)


Phase = Literal["draw", "play", "event", "cleanup"]


class TurnState(BaseModel):
    """Whose turn it is and which phase ("Turn Overview"), with the Play phase's actions left and the
    Event this turn triggered ("power", "active_robot" or none yet)."""
    model_config = ConfigDict(extra="ignore")
    seat: Annotated[Whole, Field(ge=0, lt=MAX_SEATS)]
    phase: Phase = "draw"
    number: Annotated[Whole, Field(ge=1, le=10_000)] = 1
    actions_left: Annotated[Whole, Field(ge=0, le=3)] = DATA.actions
    event: Literal["power", "active_robot"] | None = None
    power: str = Field(default="", max_length=40)          # the Power card used, when named
    cancelled_by: Annotated[Whole, Field(ge=0, lt=MAX_SEATS)] | None = None   # whose Sentry Gunship
    revealed: list[tuple[RobotCardId, Literal["option_b", "katana", "shogun", "orb"]]] = Field(
        default_factory=list, max_length=2)                # Active Robot cards this Event phase, with how
    resolved: list[str] = Field(default_factory=list, max_length=4)       # the Event cards whose damage is dealt
    replied: list[Annotated[Whole, Field(ge=0, lt=MAX_SEATS)]] = Field(default_factory=list, max_length=MAX_SEATS)


class WinnerState(BaseModel):
    """The seats that won and how ("Objective": two robots, or the last Salvager standing)."""
    model_config = ConfigDict(extra="ignore")
    seats: list[Annotated[Whole, Field(ge=0, lt=MAX_SEATS)]] = Field(min_length=1, max_length=MAX_SEATS)
    how: Literal["two_robots", "last_standing", "uniform_robot", "five_stacks"]
    team: Annotated[Whole, Field(ge=0, le=1)] | None = None   # 2v2: the team that won

    @model_serializer(mode="wrap")
    def _without_team(self, handler):  # `team` only in 2v2: the winner keeps its shape otherwise
        out = handler(self)
        if out.get("team") is None:
            out.pop("team", None)
        return out




class TwoRobotsState(BaseModel):
    """`state["two_robots"]` of a table."""
    model_config = ConfigDict(extra="ignore")
    part_names: list[str] | None = Field(default=None, min_length=4, max_length=4)
    players: list[SeatState] = Field(default_factory=list, max_length=MAX_SEATS)
    discard: list[CardIn] = Field(default_factory=list, max_length=MAX_PILE)
    deck: DeckIn | None = None
    turn: TurnState | None = None
    winner: WinnerState | None = None
    named_cards: list[NamedCardIn] = Field(default_factory=list, max_length=MAX_NAMED)
    simple: bool = False   # "Variations": the simpler game, without Powers, abilities or Active Robot cards
    # the Salvagers' turn-order numbers as this table reads them off its cards (default: game data, unverified)
    turn_order: dict[SalvagerId, Annotated[Whole, Field(ge=0, le=99)]] | None = None
    teams: list[Annotated[Whole, Field(ge=0, le=1)]] | None = Field(default=None, min_length=4, max_length=4)  # 2v2
    house_rules: HouseRules = Field(default_factory=HouseRules)

    def turn_numbers(self) -> dict[str, int]:
        return {sv.id: sv.turn_order for sv in DATA.salvagers} | (self.turn_order or {})

    _cut_players = field_validator("players", mode="before")(_first(MAX_SEATS))
    _cut_named = field_validator("named_cards", mode="before")(_first(MAX_NAMED))
    _cut_discard = field_validator("discard", mode="before")(_first(MAX_PILE))

    @field_validator("part_names", mode="before")
    @classmethod
    def _names(cls, v: object) -> object:
        v = check_part_names(v)
        if isinstance(v, list) and v[:2] != list(DATA.part_ids[:2]):
            raise ValueError("HEAD and ARMS are the rulebook's; only the other two part names are the table's")
        return v

    @model_validator(mode="after")
    def _known_parts(self) -> TwoRobotsState:
        """A stored card whose part name is not one of the table's is dropped (another phone kept a
        name the table no longer uses); a stack left empty goes."""
        names = set(self.names())
        for seat in self.players:
            seat.stacks = [s for s in (StackIn.model_construct(cards=[c for c in st.cards if c.part in names],
                                                               frozen=st.frozen) for st in seat.stacks) if s.cards]
        self.discard = [c for c in self.discard if c.kind != "part" or c.part in names]
        if self.deck is not None:
            self.deck.parts = [p for p in self.deck.parts if p.part in names]
        return self

    @classmethod
    def from_stored(cls, raw: object) -> TwoRobotsState:
        """The table's part (in the current format), whatever was saved: a broken part reads as its default."""
        return lenient(cls, raw)

    def names(self) -> tuple[str, ...]:
        return tuple(self.part_names) if self.part_names else DATA.part_ids

    def seat(self, index: int) -> SeatState:
        return self.players[index] if 0 <= index < len(self.players) else SeatState()


# ---- the deck grid's keys ("head:cs") -------------------------------------------------------------------

ENERGY_LETTER = {e: e[0] for e in ENERGIES}
LETTER_ENERGY = {v: k for k, v in ENERGY_LETTER.items()}


def energies_code(energies: list[str] | tuple[str, ...]) -> str:
    return "".join(ENERGY_LETTER[e] for e in energies)


def grid_key(part: str, energies: list[str] | tuple[str, ...]) -> str:
    return f"{part}:{energies_code(energies)}"


def grid_keys(part_names: tuple[str, ...]) -> set[str]:
    return {grid_key(n, c) for n in part_names for c in COMBINATIONS}


def deck_json(deck: DeckIn | None, part_names: tuple[str, ...]) -> dict:
    """The deck as the odds page edits it: one count per part name and combination, in grid order
    (the default composition when the table has not entered one)."""
    counts = {grid_key(n, c): DATA.default_copies for n in part_names for c in COMBINATIONS}
    attack, defense = DATA.deck_attack, DATA.deck_defense
    if deck is not None:
        counts = {k: 0 for k in counts}
        for p in deck.parts:
            key = grid_key(p.part, p.energies)
            if key in counts:
                counts[key] += p.count
        attack, defense = deck.attack, deck.defense
    parts = []
    for key, n in counts.items():
        part, _, code = key.partition(":")
        parts.append({"part": part, "energies": [LETTER_ENERGY[ch] for ch in code], "count": n})
    return {"parts": parts, "attack": attack, "defense": defense}


# ---- the table action endpoint (api.md "Additions of round 3": Two Robots game) -----------------------

class _ActionIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    def seat_of(self) -> int | None:
        return getattr(self, "seat", None)


class DamageIn(_ActionIn):
    type: Literal["damage"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    amount: int = Field(default=1, ge=1, le=9, strict=True)


class NextPhaseIn(_ActionIn):
    type: Literal["next_phase"]


class FreezeIn(_ActionIn):
    type: Literal["freeze"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    stack: int = Field(ge=0, lt=MAX_STACKS, strict=True)
    frozen: bool = True


class PartAtIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    stack: int = Field(ge=0, lt=MAX_STACKS, strict=True)
    card: int = Field(ge=0, le=60, strict=True)


class EventPowerIn(_ActionIn):
    type: Literal["event_power"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    sacrifices: list[PartAtIn] = Field(min_length=1, max_length=4)
    power: str = Field(default="", max_length=40)   # the Power card's name (each is used once per game)


class EventRobotIn(_ActionIn):
    type: Literal["event_robot"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    sacrifice: PartAtIn


Code = Annotated[str, Field(min_length=1, max_length=100)]
Where = Annotated[str, Field(pattern=r"^(hand|drawn|new|discard|stack:[0-4])$")]


class PlayIn(_ActionIn):
    type: Literal["play"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    code: Code
    stack: int | None = Field(default=None, ge=0, lt=MAX_STACKS, strict=True)


class TargetIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    stack: int = Field(ge=0, lt=MAX_STACKS, strict=True)
    card: int | None = Field(default=None, ge=0, le=60, strict=True)


class AttackPlayIn(_ActionIn):
    type: Literal["attack"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    code: Code
    targets: list[TargetIn] | None = Field(default=None, min_length=1, max_length=4)   # None: Tablebot's best


class DiscardIn(_ActionIn):
    type: Literal["discard"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    code: Code


class EnterIn(_ActionIn):
    type: Literal["enter"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    where: Where
    card: HandCardIn


class RemoveIn(_ActionIn):
    type: Literal["remove"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    where: Where
    code: Code


class FinishDrawIn(_ActionIn):
    type: Literal["finish_draw"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)


class CancelEventIn(_ActionIn):
    type: Literal["cancel_event"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    code: Code


class RevealIn(_ActionIn):
    type: Literal["reveal"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    card: RobotCardId
    via: Literal["option_b", "katana", "shogun", "orb"] = "option_b"
    orb_confirmed: bool = False   # "orb": one of the two Active Robots carries the Orb (the table cannot show it)


class EventDamageIn(_ActionIn):
    type: Literal["event_damage"]
    seats: list[Annotated[int, Field(ge=0, lt=MAX_SEATS, strict=True)]] = Field(min_length=1, max_length=MAX_SEATS)
    card: RobotCardId | Literal[""] = ""


class MeltdownReplyIn(_ActionIn):
    type: Literal["meltdown_reply"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    reply: Literal["discard", "damage", "nothing"]
    code: str = Field(default="", max_length=100)


class SpacePodIn(_ActionIn):
    type: Literal["space_pod"]
    seat: int = Field(ge=0, lt=MAX_SEATS, strict=True)
    code: Code
    target: TargetIn
    stack: int | None = Field(default=None, ge=0, lt=MAX_STACKS, strict=True)


class SettingsIn(_ActionIn):
    type: Literal["settings"]
    teams: list[Annotated[int, Field(ge=0, le=1, strict=True)]] | None = Field(default=None, min_length=4, max_length=4)
    uniform_robot: bool = False
    five_stacks: bool = False


class NewGameIn(_ActionIn):
    type: Literal["new_game"]


TableActionBody = Annotated[DamageIn | NextPhaseIn | FreezeIn | EventPowerIn | EventRobotIn | PlayIn | AttackPlayIn
                            | DiscardIn | EnterIn | RemoveIn | FinishDrawIn | CancelEventIn | RevealIn
                            | EventDamageIn | MeltdownReplyIn | SpacePodIn | SettingsIn | NewGameIn,
                            Field(discriminator="type")]


class TableActionIn(BaseModel):
    """`POST /api/two-robots/tables/<id>/action`: the version the action was worked out from, and the action."""
    model_config = ConfigDict(extra="ignore")
    version: int = Field(ge=1, strict=True)
    action: TableActionBody


# ---- Defense chains (issue 21: "does it go through") ----------------------------------------------------

class HolderIn(BaseModel):
    """A player and the Defense cards they can play now (gold numbers met), as the table says."""
    model_config = ConfigDict(extra="ignore")
    name: str | None = Field(default=None, max_length=40)
    homing_missiles: int = Field(default=0, ge=0, le=DATA.deck_defense, strict=True)
    sentry_gunships: int = Field(default=0, ge=0, le=DATA.deck_defense, strict=True)


class DefenseIn(BaseModel):
    """`POST /api/two-robots/defense`: an Attack card the turn player plays on the Parts of `others`, or an
    Event it triggers with `others` as its opponents."""
    model_config = ConfigDict(extra="ignore")
    play: Literal["attack", "event"]
    card: str = Field(default="", max_length=60)
    event: Literal["power", "active_robot"] = "power"
    player: HolderIn = Field(default_factory=HolderIn)
    actions_left: int = Field(default=DATA.actions - 1, ge=0, le=DATA.actions, strict=True)
    others: list[HolderIn] = Field(default_factory=list, max_length=MAX_SEATS - 1)
