"""The Friendship deck's models (pydantic v2): its part of the table state (`state.raising_robots.friendship`,
public: the deck as built, the table's card list and the log of draws and keeps), a seat's secret (its own
draws, in its private state under `friendship`), and the API bodies. The rules are in
solvers/raising_robots/friendship.py; `to_solver()` hands the deck to it."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from solvers.raising_robots import friendship as fr

from ..web.stored import lenient

PRIVATE_KEY = "friendship"
MAX_LOG = 4 * fr.MAX_SEATS * 2  # each seat completes each of the 4 competitions once: a draw and a keep each
CardId = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[a-z0-9_]+$")]
Seat = Annotated[int, Field(ge=0, lt=fr.MAX_SEATS)]


class CardEdit(BaseModel):
    """The table's own name for a card (the shipped list is unverified past the ten the rulebook names) and
    whether it shows a paw."""
    model_config = ConfigDict(extra="ignore")
    name: str = Field(default="", max_length=fr.NAME_MAX)
    paw: bool = False


def _default_edits() -> list[CardEdit]:
    return [CardEdit(name=c.name, paw=c.paw) for c in fr.DEFAULT_CARDS]


class DrawRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")
    type: Literal["draw"] = "draw"
    seat: Seat
    from_deck: int = Field(ge=0, le=max(fr.DRAWS))
    reshuffled: bool = False
    after_reshuffle: int = Field(default=0, ge=0, le=max(fr.DRAWS))


class KeepRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")
    type: Literal["keep"] = "keep"
    seat: Seat
    card: CardId


Record = Annotated[DrawRecord | KeepRecord, Field(discriminator="type")]


class RemovedRecord(BaseModel):
    card: CardId
    why: str = Field(max_length=200)
    rule: str = Field(max_length=80)


class FriendshipDeck(BaseModel):
    """`state.raising_robots.friendship`: everything here is public."""
    model_config = ConfigDict(extra="ignore")
    built: bool = False
    pets: bool = False
    cards: list[CardEdit] = Field(default_factory=_default_edits)  # one per shipped card, in its order
    deck_cards: list[CardId] = Field(default_factory=list, max_length=fr.DECK_SIZE)  # the deck at setup
    removed: list[RemovedRecord] = Field(default_factory=list, max_length=fr.DECK_SIZE)
    log: list[Record] = Field(default_factory=list, max_length=MAX_LOG)

    @field_validator("cards", mode="before")
    @classmethod
    def _all_cards(cls, v: Any) -> Any:
        if not isinstance(v, list):
            return v
        defaults = [e.model_dump() for e in _default_edits()]
        return [v[k] if k < len(v) and isinstance(v[k], dict) else defaults[k] for k in range(len(defaults))]

    @field_validator("deck_cards")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        ids = {c.id for c in fr.DEFAULT_CARDS}
        return list(dict.fromkeys(c for c in v if c in ids))

    def card_list(self) -> list[fr.Card]:
        """The shipped cards with the table's names and paws (a blank name keeps the shipped one)."""
        return [fr.Card(id=c.id, name=e.name.strip() or c.name, source=c.source, section=c.section, paw=e.paw)
                for c, e in zip(fr.DEFAULT_CARDS, self.cards, strict=True)]

    def names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.card_list()}

    def edited(self) -> dict[str, bool]:
        """Card id -> whether the table changed its name or paw from the shipped default."""
        return {c.id: (e.name.strip() not in ("", c.name)) or e.paw != c.paw
                for c, e in zip(fr.DEFAULT_CARDS, self.cards, strict=True)}

    def to_solver(self) -> fr.Deck:
        """The deck as the log leaves it (read up to its first event that cannot have happened)."""
        events = [fr.Drew(r.seat, r.from_deck, r.reshuffled, r.after_reshuffle) if isinstance(r, DrawRecord)
                  else fr.Kept(r.seat, r.card) for r in self.log]
        return fr.replayed(self.deck_cards, events)[0]

    @staticmethod
    def log_of(deck: fr.Deck) -> list[dict]:
        return [{"type": "draw", "seat": e.seat, "from_deck": e.from_deck, "reshuffled": e.reshuffled,
                 "after_reshuffle": e.after_reshuffle} if isinstance(e, fr.Drew)
                else {"type": "keep", "seat": e.seat, "card": e.card} for e in deck.log]


class SeatSeen(BaseModel):
    """A seat's secret: the cards of each of its draws, in the order drawn ([] for a draw it did not name)."""
    model_config = ConfigDict(extra="ignore")
    draws: list[list[CardId]] = Field(default_factory=list, max_length=MAX_LOG)

    def to_solver(self) -> fr.Seen:
        return fr.Seen(draws=tuple(tuple(d[:max(fr.DRAWS)]) for d in self.draws))

    @staticmethod
    def read(private: Any) -> SeatSeen:
        raw = private.get(PRIVATE_KEY) if isinstance(private, dict) else None
        return lenient(SeatSeen, raw)


# ---- API bodies (strict: a 400 names the field) --------------------------------------------------------

class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DeckIn(Strict):
    """A deck sent whole (no table): the cards built at setup and the log."""
    cards: list[CardId] = Field(max_length=fr.DECK_SIZE)
    log: list[Record] = Field(default_factory=list, max_length=MAX_LOG)


class OddsIn(Strict):
    """`POST /api/raising-robots/friendship/odds`: a table (this phone's seat sees with its own draws), or a
    deck sent whole with, optionally, the viewer's seat and its draws."""
    table: str | None = Field(default=None, max_length=64)
    deck: DeckIn | None = None
    viewer: Seat | None = None
    seen: list[list[CardId]] = Field(default_factory=list, max_length=MAX_LOG)
    count: Literal[3, 2] = 3
    cards: list[CardId] = Field(default_factory=list, max_length=fr.DECK_SIZE)


class SetupAction(Strict):
    type: Literal["setup"]
    pets: bool = False
    inventors: list[Annotated[str, Field(max_length=fr.NAME_MAX)]] | None = Field(default=None, max_length=6)


class DrawAction(Strict):
    type: Literal["draw"]
    seat: Seat
    count: Literal[3, 2] = 3
    cards: list[CardId] | None = Field(default=None, max_length=max(fr.DRAWS))


class KeepAction(Strict):
    type: Literal["keep"]
    seat: Seat
    card: CardId


class ActionIn(Strict):
    """`POST /api/raising-robots/tables/<id>/friendship`."""
    version: int = Field(ge=1)
    action: Annotated[SetupAction | DrawAction | KeepAction, Field(discriminator="type")]
