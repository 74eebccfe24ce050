"""The Robotariat table state: one pydantic model, stored under the table state's `robotariat` key, read by
every page and endpoint, and the shape of the API bodies' `board`, `dice` and `state`.

    RobotariatTable
      board         Board: spaces, black lines, yellow and blue next spaces (the API's board)
      example       still the shipped example board
      layout        where each space is drawn: {space id: [x, y]} (SVG units)
      data          the game data the table uses: dice, Office Rewards, starting Reputation
      state         Pieces: the API's `state` (NPCs, players, posters, tracks, Entry token, round)
      log           turns applied at this table (round, player, turn, what, posters junked, office after)
      office_track  every value the Office Contributions track took (the Bursar)
      facts         what the objectives need that the board cannot show
      cards         Upgrade and Sabotage cards held or played, by name
      guide         where the guided entry of the printed board stands (None: not entering one)

A stored value is read with `assistant.web.stored.lenient` (state.from_stored): a broken part is dropped
and its default stands in. API bodies are validated strictly with the same models. A secret objective
is never part of this model: it travels with one /suggest request only.
"""
from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

from solvers.robotariat import card_effects, gamedata
from solvers.robotariat.board import KINDS, MAX_LINKS, MAX_SPACES
from solvers.robotariat.model import CHARACTERS, FACES
from solvers.robotariat.objectives import OBJECTIVES
from solvers.robotariat.table import DECKS, LOG_TURNS, MAX_CARDS, MAX_LOG

DATA = gamedata.DEFAULTS

Id = Annotated[str, Field(min_length=1, max_length=40)]
Kind = Literal[KINDS]  # type: ignore[valid-type]
Face = Literal[FACES]  # type: ignore[valid-type]
Character = Literal[CHARACTERS]  # type: ignore[valid-type]
Objective = Literal[OBJECTIVES]  # type: ignore[valid-type]


def _int(lo: int, hi: int, default: int | None = None):
    return Field(default=default, ge=lo, le=hi, strict=True)


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Space(_Model):
    id: Id
    name: str = Field(default="", max_length=60)
    kind: Kind
    x: float | None = Field(default=None, ge=-1000, le=1000)
    y: float | None = Field(default=None, ge=-1000, le=1000)
    start: bool = False


class Board(_Model):
    spaces: list[Space] = Field(default_factory=list, max_length=MAX_SPACES)
    links: list[tuple[Id, Id]] = Field(default_factory=list, max_length=MAX_LINKS)
    yellow_next: dict[Id, Id] = Field(default_factory=dict, max_length=MAX_SPACES + 20)
    blue_next: dict[Id, Id] = Field(default_factory=dict, max_length=MAX_SPACES + 20)


class Dice(_Model):
    black: list[Face] = Field(default_factory=lambda: list(DATA.dice.black), min_length=6, max_length=6)
    red: list[Face] = Field(default_factory=lambda: list(DATA.dice.red), min_length=6, max_length=6)


class GameData(_Model):
    """The table's own copy of the game data no source gives (unverified defaults)."""
    dice: Dice = Field(default_factory=Dice)
    office_rewards: list[Annotated[int, Field(ge=0, le=99, strict=True)]] = Field(
        default_factory=lambda: list(DATA.office_rewards), min_length=11, max_length=11)
    starting_reputation: dict[Literal["3", "4", "5"], Annotated[int, Field(ge=1, le=DATA.reputation_max, strict=True)]] = \
        Field(default_factory=lambda: {str(n): v for n, v in DATA.starting_reputation.items()})

    @field_validator("office_rewards")
    @classmethod
    def _level_zero(cls, v: list[int]) -> list[int]:
        if v[0] != 0:
            raise ValueError("contributions 0 give no SPARK")
        return v


class Player(_Model):
    name: str = Field(default="", max_length=40)
    at: Id | None = None
    character: Character | None = None


class Pieces(_Model):
    """The API's `state`: where everything stands and the tracks (api.md npc-turn body)."""
    oppressors: list[Id] = Field(default_factory=list, max_length=len(DATA.entry_track))
    civilians: list[Id] = Field(default_factory=list, max_length=len(DATA.entry_track))
    players: list[Player] = Field(default_factory=list, max_length=5)
    active: int = _int(0, 4, 0)
    posters: dict[Id, Annotated[int, Field(ge=0, le=99, strict=True)]] = Field(default_factory=dict,
                                                                              max_length=MAX_SPACES)
    junk: int = _int(0, 99, 0)
    funds: int = _int(0, DATA.funds_max, 0)
    reputation: int = _int(0, DATA.reputation_max, DATA.starting_reputation[3])
    office: int = _int(0, DATA.office_max, 0)
    entry: Id | None = None
    round: int | None = _int(1, DATA.max_rounds)


class LogEntry(_Model):
    round: int = _int(1, DATA.max_rounds, 1)
    player: int = _int(0, 4, 0)
    turn: Literal[LOG_TURNS] = "npc"  # type: ignore[valid-type]
    what: str = Field(default="", max_length=200)
    junked: int = _int(0, 99, 0)
    office: int = _int(0, DATA.office_max, 0)


class Facts(_Model):
    """What the objectives need that the board cannot show (one value per seat in the lists)."""
    cooperative: StrictBool = False
    objectives: list[Objective | None] = Field(default_factory=list, max_length=5)
    cards_played: list[Annotated[int, Field(ge=0, le=DATA.cards_max, strict=True)]] = Field(default_factory=list,
                                                                                              max_length=5)
    spy_correct: list[StrictBool] = Field(default_factory=list, max_length=5)
    gambler_cards: StrictBool = False
    revolution_over: StrictBool = False
    max_junked: int | None = _int(0, 99)

    @field_validator("objectives")
    @classmethod
    def _one_each(cls, v: list[str | None]) -> list[str | None]:
        picked = [o for o in v if o]
        if len(picked) != len(set(picked)):
            raise ValueError("each secret objective card is drawn by one player only")
        return v


class CardEffect(_Model):
    """What a card does as the players read it (solvers/robotariat/card_effects.py): unverified, since the
    card texts are not public. `to` is a space id; the rest as card_effects.Effect."""
    kind: Literal[card_effects.KINDS]  # type: ignore[valid-type]
    when: Literal[card_effects.WHEN] = "this_turn"  # type: ignore[valid-type]
    who: Literal[card_effects.WHO] = "holder"  # type: ignore[valid-type]
    piece: Literal[card_effects.PIECES] | None = None  # type: ignore[valid-type]
    index: int | None = _int(0, 4)
    to: Id | None = None
    path: Literal["yellow", "blue"] | None = None
    steps: int = _int(1, 12, 1)
    die: Literal[card_effects.DIES] | None = None  # type: ignore[valid-type]
    face: Face | None = None
    amount: int = _int(-99, 99, 0)
    track: Literal[card_effects.TRACKS] = "funds"  # type: ignore[valid-type]
    text: str = Field(default="", max_length=120)

    @model_validator(mode="after")
    def _complete(self) -> CardEffect:
        problem = card_effects.effect_problem(self.to_solver(0 if self.to is not None else None))
        if problem is not None:
            raise ValueError(f"{problem[0]}: {problem[1]}")
        return self

    def to_solver(self, to: int | None) -> card_effects.Effect:
        """The solvers' record, `to` as the board index of this effect's space."""
        return card_effects.Effect(kind=self.kind, when=self.when, who=self.who, piece=self.piece, index=self.index,
                                   to=to, path=self.path, steps=self.steps, die=self.die, face=self.face,
                                   amount=self.amount, track=self.track, text=self.text)


class Card(_Model):
    seat: int = _int(0, 4, 0)
    deck: Literal[DECKS]  # type: ignore[valid-type]
    name: str = Field(min_length=1, max_length=60)
    played: StrictBool = False
    setup: StrictBool = False
    effect: CardEffect | None = None  # what it does, as read by the players (None: not entered)
    done: StrictBool = False  # turned face down: its effect is over (or was put on the board by hand)
    # A1-5's setup card its holder has shown to the table: public from then on (a setup card not shown is
    # a secret, split off into A1-5's private state: tables/formats.py), still counting for no objective
    shown: StrictBool = False


class SeatPrivate(_Model):
    """A Robotariat seat's private state (the holder's phone only): Electric Eye's look at the top two
    Sabotage cards (rulebook "Character Abilities"), and A1-5's Upgrade card from setup."""
    peek: list[Annotated[str, Field(max_length=60)]] = Field(default_factory=list, max_length=2)
    setup_card: Card | None = None


class Guide(_Model):
    """The guided entry of the printed board, shared by the phones at the table: first the spaces, then
    each space's arrows and black lines (`at`: the space being entered), then the check."""
    step: Literal["spaces", "paths", "check"] = "spaces"
    at: Id | None = None


def _finite(xy: tuple[float, float]) -> tuple[float, float]:
    if not all(math.isfinite(v) for v in xy):
        raise ValueError("a position is two finite numbers")
    return xy


class RobotariatTable(_Model):
    """The whole `robotariat` key of a table's state."""
    board: Board | None = None  # None: never entered (the example board stands in)
    example: StrictBool = True
    layout: dict[Id, tuple[float, float]] = Field(default_factory=dict, max_length=MAX_SPACES)
    data: GameData = Field(default_factory=GameData)
    state: Pieces = Field(default_factory=Pieces)
    log: list[LogEntry] = Field(default_factory=list, max_length=MAX_LOG)
    office_track: list[Annotated[int, Field(ge=0, le=DATA.office_max, strict=True)]] = Field(default_factory=list,
                                                                                               max_length=1000)
    facts: Facts = Field(default_factory=Facts)
    cards: list[Card] = Field(default_factory=list, max_length=MAX_CARDS)
    guide: Guide | None = None

    @field_validator("layout")
    @classmethod
    def _layout(cls, v: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        return {k: _finite(xy) for k, xy in v.items()}

