"""Two Robots cards the rulebook names but does not print: Power cards, Salvager abilities, Active Robot
cards. Their texts are in no source Tablebot has ("../shared/facts/two_robots.md"), so a table enters
each by name with the words on the card; Tablebot keeps it, reminds the table of it in its phase, and
names it under every answer it could change (it is not modelled).

What the rulebook does say about some of them is kept here ("Clarifications", "Special Abilities"), with
a guess of whose card it is and when it is used, both unverified: Cold Fusion and Balance reach every
player, their owners Apocalypse and Peacemaker included (so they are read as theirs); Meltdown is
Apocalypse's; Katana and Shogun are Samurai's; the Orb is Peacemaker's.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

KINDS = {"power": "Power card", "ability": "Special ability", "robot_card": "Active Robot card"}
PHASES = ("draw", "play", "event", "cleanup", "any")


@dataclass(frozen=True)
class KnownCard:
    name: str
    kind: str
    salvager: str | None      # whose card it is (a guess from the rulebook's wording: unverified)
    phase: str                # when it is used (a guess: unverified)
    rule: str | None          # the rule entry of what the rulebook says about it
    says: str = ""            # what the rulebook says about it, in Tablebot's words


KNOWN: tuple[KnownCard, ...] = (
    KnownCard("Cold Fusion", "power", "apocalypse", "event", "tr-clarification-cold-fusion-balance",
              "It reaches every player, Apocalypse too; every player in a tie suffers one damage."),
    KnownCard("Balance", "power", "peacemaker", "event", "tr-clarification-cold-fusion-balance",
              "It reaches every player, Peacemaker too; every player in a tie suffers one damage."),
    KnownCard("Meltdown", "power", "apocalypse", "event", "tr-clarification-meltdown",
              "A player with no cards in hand may discard nothing and so suffer no damage."),
    KnownCard("Shogun", "power", "samurai", "event", "tr-clarification-samurai-no-reshuffle",
              "The Active Robot pile is not reshuffled between the cards it reveals."),
    KnownCard("Katana", "ability", "samurai", "event", "tr-clarification-samurai-no-reshuffle",
              "The Active Robot pile is not reshuffled between the cards it reveals."),
    KnownCard("Orb", "ability", "peacemaker", "event", "tr-clarification-peacemaker-orb",
              "With two Active Robots built, Peacemaker may draw two Active Robot cards."),
    KnownCard("Shots Fired", "robot_card", None, "event", "tr-unverified-event-effects"),
    KnownCard("Weapons Jammed", "robot_card", None, "event", "tr-unverified-event-effects"),
    KnownCard("Scattershot", "robot_card", None, "event", "tr-clarification-canceled-multiplayer",
              "Cancelled, it affects none of the players; it cannot be aimed at one opponent only."),
    KnownCard("Precision Strike", "robot_card", None, "event", "tr-unverified-event-effects"),
)


def known(name: str) -> KnownCard | None:
    key = " ".join(name.split()).casefold()
    return next((k for k in KNOWN if k.name.casefold() == key), None)


@dataclass(frozen=True)
class Entered:
    """A card as a table entered it: its name, kind, whose it is (a Salvager id, or None for anyone's),
    the phase it is used in and the words on the card."""
    name: str
    kind: str
    salvager: str | None
    phase: str
    text: str


def reminders(cards: Iterable[Entered], salvager: str | None, phase: str) -> list[Entered]:
    """The cards the turn's Salvager may use in this phase: its own Power cards and ability, and in the
    Event phase the Active Robot cards (anyone may reveal them)."""
    out = []
    for c in cards:
        mine = c.salvager is not None and c.salvager == salvager
        if c.kind == "robot_card":
            if phase == "event":
                out.append(c)
        elif mine and c.phase in (phase, "any"):
            out.append(c)
    return out


def not_modelled(cards: Iterable[Entered], salvagers: Sequence[str | None]) -> list[Entered]:
    """The entered cards of the Salvagers at the table, and the Active Robot cards: every one could change
    an answer, and Tablebot does not model what it does."""
    seated = {s for s in salvagers if s}
    return [c for c in cards if c.kind == "robot_card" or (c.salvager in seated)]
