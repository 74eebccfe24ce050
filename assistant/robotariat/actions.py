"""What a tap, a form or POST /api/robotariat/tables/<id>/action may ask of the table: one pydantic model per
action, told apart by `do`. `parse_action` validates a request's action (form fields arrive as text and
are converted) and names the bad field; state.apply carries it out.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator, model_validator

from solvers.errors import InputError
from solvers.robotariat.table import DECKS

from .schemas import DATA, CardEffect, Character, Face, Id, Kind, Objective

SUGGEST_LIMIT = 40
PIECE = r"^(entry|[ocp][0-9]{1,2})$"


def _blank_none(v: Any) -> Any:
    return None if v == "" else v


class _Action(BaseModel):
    model_config = ConfigDict(extra="ignore")


# ---- the board page ---------------------------------------------------------------------------------

class Move(_Action):
    do: Literal["move"]
    piece: str = Field(pattern=PIECE)
    to: Id


class PlaceNpc(_Action):
    do: Literal["place_npc"]
    to: Id


class RemoveNpc(_Action):
    do: Literal["remove_npc"]
    piece: str = Field(pattern=r"^[oc][0-9]{1,2}$")


class Poster(_Action):
    do: Literal["poster"]
    at: Id
    delta: int = Field(ge=-1, le=1)


class Tracks(_Action):
    do: Literal["tracks"]
    funds: int | None = Field(default=None, ge=0, le=DATA.funds_max)
    reputation: int | None = Field(default=None, ge=0, le=DATA.reputation_max)
    office: int | None = Field(default=None, ge=0, le=DATA.office_max)
    junk: int | None = Field(default=None, ge=0, le=DATA.poster_supply)
    round: int | None = Field(default=None, ge=1, le=DATA.max_rounds)

    _blank = field_validator("funds", "reputation", "office", "junk", "round", mode="before")(_blank_none)


class SetCharacter(_Action):
    do: Literal["player"]
    seat: int = Field(ge=0, le=4)
    character: Character | None = None

    _blank = field_validator("character", mode="before")(_blank_none)


class SetActive(_Action):
    do: Literal["active"]
    seat: int = Field(ge=0, le=4)


class Setup(_Action):
    do: Literal["setup"]


# ---- answers the solvers worked out for one version of the table --------------------------------------

class Roll(_Action):
    do: Literal["roll"]
    black: Face
    red: Face

    @model_validator(mode="before")
    @classmethod
    def _faces(cls, v: Any) -> Any:
        # the page's one form posts both faces in one button value: "black red"
        if isinstance(v, dict) and isinstance(v.get("faces"), str):
            black, _, red = v["faces"].partition(" ")
            return {**v, "black": black, "red": red}
        return v


class Enter(_Action):
    do: Literal["enter"]


class DoOption(_Action):
    do: Literal["do_option"]
    option: int = Field(ge=0, lt=SUGGEST_LIMIT)


class ActivateIn(_Action):
    """A suggestion's `activate` object (suggest answer), as a player's own turn."""
    kind: Kind
    space: Id
    when: Literal["here", "before_move", "after_move"]
    place_on: Id | None = None
    placement: dict[Id, Annotated[int, Field(ge=1, le=8)]] = Field(default_factory=dict, max_length=8)
    contribute: int = Field(default=0, ge=0, le=DATA.per_activation)
    npc: Literal["oppressor", "civilian"] | None = None
    index: int | None = Field(default=None, ge=0, le=5)
    to: Id | None = None


class ExtraIn(_Action):
    ability: Literal["mr_postman", "wally_st"]
    to: Id
    source: Id | None = Field(default=None, alias="from")


class PlayTurn(_Action):
    """The active player's turn as they played it (a move, an activation, an extra poster move)."""
    do: Literal["play_turn"]
    move_to: Id
    activate: ActivateIn | None = None
    extra: ExtraIn | None = None


# ---- cards --------------------------------------------------------------------------------------------

def _effect_form(v: Any) -> Any:
    """A card effect as a form posts it (every field text; a blank kind: no effect entered)."""
    if not isinstance(v, dict):
        return v
    if not v.get("kind"):
        return None
    out = {}
    for k, x in v.items():
        if x in ("", None):
            continue
        if k in ("index", "steps", "amount") and isinstance(x, str):
            try:
                x = int(x.strip())
            except ValueError:
                pass
        if k == "index" and isinstance(x, int):
            x -= 1  # the form counts NPCs and players from 1
        out[k] = x
    if out.get("index") == -1:  # "every one"
        out.pop("index")
    return out


class AddCard(_Action):
    do: Literal["add_card"]
    seat: int = Field(ge=0, le=4)
    deck: Literal[DECKS]  # type: ignore[valid-type]
    name: str = Field(default="", max_length=60)
    played: bool = False
    setup: bool = False
    effect: CardEffect | None = None

    _effect = field_validator("effect", mode="before")(_effect_form)

    @field_validator("setup")
    @classmethod
    def _not_setup(cls, v: bool) -> bool:
        # A1-5's card from setup is a secret until its holder shows it (ShowSetupCard, from that phone only)
        if v:
            raise ValueError("A1-5's card from setup reaches the table only from A1-5's own phone (Show it to the table)")
        return v


class ShowSetupCard(_Action):
    """A1-5 shows its card from setup to the table: built by the page from the seat's private state, never
    parsed from a request (not one of DOS)."""
    do: Literal["show_setup_card"]
    seat: int = Field(ge=0, le=4)
    name: str = Field(min_length=1, max_length=60)
    played: bool = False
    effect: CardEffect | None = None


class SetCardEffect(_Action):
    """What a card does, as the players read it (None: take the effect off)."""
    do: Literal["card_effect"]
    card: int = Field(ge=0, le=99)
    effect: CardEffect | None = None

    _effect = field_validator("effect", mode="before")(_effect_form)


class CardDone(_Action):
    """A Sabotage card turned face down (its effect is over), or face up again."""
    do: Literal["card_done"]
    card: int = Field(ge=0, le=99)
    done: bool = True


class PlayCard(_Action):
    do: Literal["play_card"]
    card: int = Field(ge=0, le=99)


class RenameCard(_Action):
    do: Literal["rename_card"]
    card: int = Field(ge=0, le=99)
    name: str = Field(min_length=1, max_length=60)


class RemoveCard(_Action):
    do: Literal["remove_card"]
    card: int = Field(ge=0, le=99)


# ---- the board editor ---------------------------------------------------------------------------------

class AddSpace(_Action):
    do: Literal["add_space"]
    kind: Kind
    name: str = Field(default="", max_length=60)
    x: float | None = Field(default=None, allow_inf_nan=False)
    y: float | None = Field(default=None, allow_inf_nan=False)

    _blank = field_validator("x", "y", mode="before")(_blank_none)


class EditSpace(_Action):
    do: Literal["edit_space"]
    id: Id
    kind: Kind | None = None
    name: str | None = Field(default=None, max_length=60)


class SaveSpace(_Action):
    """The editor's list: one space's name, kind and next spaces on both paths at once."""
    do: Literal["save_space"]
    id: Id
    name: str = Field(default="", max_length=60)
    kind: Kind
    yellow: Id | None = None
    blue: Id | None = None

    _blank = field_validator("yellow", "blue", mode="before")(_blank_none)


class DeleteSpace(_Action):
    do: Literal["delete_space"]
    id: Id


class ToggleLink(_Action):
    do: Literal["toggle_link"]
    a: Id
    b: Id


class Path(_Action):
    do: Literal["path"]
    colour: Literal["yellow", "blue"]
    source: Id = Field(alias="from")
    to: Id | None = None

    _blank = field_validator("to", mode="before")(_blank_none)


class MoveSpace(_Action):
    do: Literal["move_space"]
    id: Id
    x: float = Field(allow_inf_nan=False)
    y: float = Field(allow_inf_nan=False)


class Import(_Action):
    do: Literal["import"]
    board: dict
    layout: dict | None = None


class Example(_Action):
    do: Literal["example"]


class Clear(_Action):
    do: Literal["clear"]


class CopyBoard(_Action):
    """Copy the board of another Robotariat table, named by its join code (the view looks it up)."""
    do: Literal["copy_board"]
    code: str = Field(min_length=1, max_length=20)


# ---- the guided entry of the printed board -------------------------------------------------------------

class GuideStart(_Action):
    do: Literal["guide_start"]


class GuideAdd(_Action):
    """The next space of the printed board, by its kind (named after it: Poster 1, Poster 2, ...)."""
    do: Literal["guide_add"]
    kind: Kind
    name: str = Field(default="", max_length=60)


class GuideGo(_Action):
    do: Literal["guide_go"]
    step: Literal["spaces", "paths", "check", "done"]
    at: Id | None = None

    _blank = field_validator("at", mode="before")(_blank_none)


# ---- game data and the objectives' facts ---------------------------------------------------------------

class DiceChange(_Action):
    black: list[Face] | None = Field(default=None, min_length=6, max_length=6)
    red: list[Face] | None = Field(default=None, min_length=6, max_length=6)


class Data(_Action):
    do: Literal["data"]
    dice: DiceChange = Field(default_factory=DiceChange)
    office_rewards: list[Annotated[int, Field(ge=0, le=99)]] | None = Field(default=None, min_length=11, max_length=11)
    starting_reputation: dict[Literal["3", "4", "5"], Annotated[int, Field(ge=1, le=DATA.reputation_max)]] = \
        Field(default_factory=dict)


class DataReset(_Action):
    do: Literal["data_reset"]


def _flag(v: Any) -> Any:
    """Form check boxes post "on"/"1"; an unchecked one posts nothing or "0"/"off"."""
    if isinstance(v, str):
        return v.strip().lower() not in ("", "0", "false", "off", "no")
    return v


class FactsChange(_Action):
    do: Literal["facts"]
    cooperative: bool | None = None
    gambler_cards: bool | None = None
    revolution_over: bool | None = None
    objectives: list[Objective | None] | None = Field(default=None, max_length=5)
    cards_played: list[Annotated[int, Field(ge=0, le=DATA.cards_max)]] | None = Field(default=None, max_length=5)
    spy_correct: list[bool] | None = Field(default=None, max_length=5)
    max_junked: int | None = Field(default=None, ge=0, le=DATA.poster_supply)

    _flags = field_validator("cooperative", "gambler_cards", "revolution_over", mode="before")(_flag)
    _blank = field_validator("max_junked", mode="before")(_blank_none)

    @field_validator("objectives", mode="before")
    @classmethod
    def _none(cls, v: Any) -> Any:
        return [None if x in ("", None) else x for x in v] if isinstance(v, list) else v

    @field_validator("spy_correct", mode="before")
    @classmethod
    def _flags_list(cls, v: Any) -> Any:
        return [_flag(x) for x in v] if isinstance(v, list) else v


HAND = (Move, PlaceNpc, RemoveNpc, Poster, Tracks, SetCharacter, SetActive, Setup)  # no solver needed
PLAY = (*HAND, PlayTurn)
OUTCOMES = {"roll": "npc", "enter": "entry", "do_option": "sg"}  # answers applied on their own version only
CARDS = (AddCard, PlayCard, RenameCard, RemoveCard, SetCardEffect, CardDone)
EDITOR = (AddSpace, EditSpace, SaveSpace, DeleteSpace, ToggleLink, Path, MoveSpace, Import, Example, Clear, CopyBoard,
          GuideStart, GuideAdd, GuideGo)
DATA_ACTIONS = (Data, DataReset)

AnyAction = Annotated[Move | PlaceNpc | RemoveNpc | Poster | Tracks | SetCharacter | SetActive | Setup | PlayTurn
                      | Roll | Enter | DoOption | AddCard | PlayCard | RenameCard | RemoveCard | SetCardEffect | CardDone | AddSpace | EditSpace | SaveSpace
                      | DeleteSpace | ToggleLink | Path | MoveSpace | Import | Example | Clear | CopyBoard | GuideStart
                      | GuideAdd | GuideGo | Data | DataReset | FactsChange, Field(discriminator="do")]
_ADAPTER = TypeAdapter(AnyAction)
DOS = {m.model_fields["do"].annotation.__args__[0]
       for m in (*PLAY, Roll, Enter, DoOption, *CARDS, *EDITOR, *DATA_ACTIONS, FactsChange)}


def parse_action(raw: Any) -> BaseModel:
    """The action a request asks for; InputError naming its field (`do` for an unknown action)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("do"), str) or raw["do"] not in DOS:
        raise InputError("do", "unknown action")
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as err:
        e = err.errors()[0]
        path = ""
        for part in e["loc"][1:]:  # the first part is the `do` tag
            path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
        path = path or "do"
        if path.startswith("source"):
            path = "from" + path[len("source"):]
        message = e["msg"][0].lower() + e["msg"][1:] if e["msg"] else "not valid"
        raise InputError(path, message.removeprefix("value error, ")) from None
