"""Two Robots Action cards in a hand, and what an Attack or Defense card does.

What a card does comes from the rulebook where it names the card ("Attack Cards", "Frozen Stacks",
"Defense Cards"; the game data lists them), or from what the player entered (an Attack card that
destroys Part cards of an energy). Every other effect is "unknown": the player resolves it.
"""
from __future__ import annotations

from dataclasses import dataclass

from .factory import ENERGIES, Part
from .game_data import DATA, GameData

DESTROY, FREEZE, COUNTER_ATTACK, CANCEL_EVENT, UNKNOWN = "destroy", "freeze", "counter_attack", "cancel_event", "unknown"
RULES = {DESTROY: ("tr-attack-cards", "tr-note-frozen-vulnerable", "tr-reading-attack-targets"),
         FREEZE: ("tr-frozen-stacks", "tr-card-ice-blast", "tr-reading-attack-targets"),
         COUNTER_ATTACK: ("tr-card-homing-missiles",), CANCEL_EVENT: ("tr-card-sentry-gunship",), UNKNOWN: ()}


@dataclass(frozen=True)
class HandCard:
    kind: str                       # "part", "attack" or "defense"
    part: Part | None = None
    name: str = ""
    stacks_required: int = 0        # the gold number of an Attack or Defense card
    play: bool = False              # the player wants this card played this turn
    energy: str | None = None       # entered: an Attack card that destroys Part cards of this energy
    destroy: int = 0                # how many Part cards it destroys (the rulebook: exactly two)

    def label(self) -> str:
        if self.part is not None:
            return self.part.label()
        return f"{self.name or self.kind.title()} ({self.kind}, needs {self.stacks_required})"

    @property
    def title(self) -> str:
        return self.part.label() if self.part is not None else (self.name or self.kind.title())


@dataclass(frozen=True)
class Effect:
    kind: str                  # DESTROY, FREEZE, COUNTER_ATTACK, CANCEL_EVENT or UNKNOWN
    energy: str | None = None  # DESTROY: the energy it takes
    count: int = 0             # DESTROY: how many Part cards
    source: str = ""           # "rulebook" (the card is named there) or "entered"

    @property
    def reactive(self) -> bool:
        """Played out of turn, in answer to an opponent ("Defense Cards"), never as a play of your own."""
        return self.kind in (COUNTER_ATTACK, CANCEL_EVENT)

    @property
    def modelled(self) -> bool:
        """Tablebot works out what the card does to the table (targets, the best choice)."""
        return self.kind in (DESTROY, FREEZE)

    @property
    def rules(self) -> tuple[str, ...]:
        return RULES[self.kind]


def effect_of(card: HandCard, data: GameData = DATA) -> Effect:
    """What an Attack or Defense card does: an entered energy makes it a destroy card; otherwise the
    card the rulebook names, if its name is one of those; else unknown."""
    if card.kind == "part":
        return Effect(UNKNOWN)
    if card.kind == "attack" and card.energy in ENERGIES:
        return Effect(DESTROY, energy=card.energy, count=card.destroy or 2, source="entered")
    known = data.action_card(card.name) if card.name else None
    if known is None or known.kind != card.kind:
        return Effect(UNKNOWN)
    return Effect(known.effect, energy=known.energy, count=known.destroy, source="rulebook")
