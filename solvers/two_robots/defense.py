"""Two Robots Defense chains: does an Attack card or an Event go through the Defense cards held?

The rulebook ("Defense Cards", "The Event Phase", "Clarifications"):
- Homing Missiles answers an enemy's Attack card on the Robot Parts in your Factory, out of turn too. The
  other side may cancel it with a Homing Missiles of its own, that one may be cancelled in turn, and so
  on; each cancels the card before it. It counts as an action only for the player whose turn it is.
- Homing Missiles never stops Part cards being played, nor a Sentry Gunship.
- Sentry Gunship cancels an Event card (a Power card or an Active Robot card) in an opponent's Event
  Phase, out of turn; no Defense card interrupts it. A Power card it cancels is used up and flipped all
  the same.
- A cancelled card that affects several players affects none of them (Scattershot: not one opponent).
- Every Defense card needs its gold number of Stacks ("Attack / Defense Cards"): the counts given here
  are the cards each player can play now.

Tablebot's readings: the chain is played between two sides, the attacker and the players whose Factory
the Attack card reaches (an Ice Blast on your stack is an Attack card on your Parts); every player who can
stop the card does, so the answer is the worst case for the one who plays it. Sacrificed parts are paid
when the Event is triggered, so a cancelled Event keeps them spent.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .factory import or_list

HOMING, GUNSHIP = "Homing Missiles", "Sentry Gunship"
ATTACK_RULES = ("tr-card-homing-missiles", "tr-defense-cards", "tr-attack-defense-cards",
                "tr-clarification-canceled-multiplayer", "tr-reading-defense-chain")
EVENT_RULES = ("tr-card-sentry-gunship", "tr-event-a-power-card", "tr-clarification-canceled-multiplayer",
               "tr-reading-defense-chain")


@dataclass(frozen=True)
class Holder:
    """A player and the Defense cards they can play now (their gold numbers met)."""
    label: str
    homing_missiles: int = 0
    sentry_gunships: int = 0


@dataclass(frozen=True)
class Link:
    """One card of the chain: who plays it, what it cancels, and whether it costs them an action."""
    by: str
    card: str
    cancels: str
    action: bool


@dataclass(frozen=True)
class Chain:
    goes_through: bool
    links: tuple[Link, ...]
    actions_used: int           # the turn player's actions the chain spends
    why: str
    notes: tuple[str, ...]
    rules: tuple[str, ...]


def _poss(label: str) -> str:
    return "your" if label.casefold() == "you" else f"{label}'s"


def _verb(label: str, verb: str) -> str:
    """"you answer", "Ben answers"."""
    return f"{label} {verb}" if label.casefold() == "you" else f"{label} {verb}s"


def counters_in_reach(held: int, actions_left: int) -> int:
    """The Homing Missiles the turn player can answer with: each costs one of the actions left."""
    return max(0, min(held, actions_left))


def attack_chain(attacker: Holder, hit: Sequence[Holder], actions_left: int, card: str = "Attack card") -> Chain:
    """An Attack card the turn player (`attacker`) plays on the Parts of the players `hit`, with
    `actions_left` after the Attack card itself. The defenders answer first, the sides take turns, and
    each side plays while it still can: the last Homing Missiles played decides."""
    own = counters_in_reach(attacker.homing_missiles, actions_left)
    pool = [[h.label, h.homing_missiles] for h in hit if h.homing_missiles > 0]
    links: list[Link] = []
    standing = True
    last = f"{_poss(attacker.label)} {card}"
    while True:
        if standing:
            giver = next((p for p in pool if p[1] > 0), None)
            if giver is None:
                break
            giver[1] -= 1
            links.append(Link(by=giver[0], card=HOMING, cancels=last, action=False))
            last = f"{_poss(giver[0])} {HOMING}"
        else:
            if own == 0:
                break
            own -= 1
            links.append(Link(by=attacker.label, card=HOMING, cancels=last, action=True))
            last = f"{_poss(attacker.label)} {HOMING}"
        standing = not standing
    actions = sum(link.action for link in links)
    d = sum(h.homing_missiles for h in hit)
    reach = counters_in_reach(attacker.homing_missiles, actions_left)
    names = or_list([h.label for h in hit], "and") or "nobody"
    if not links:
        why = f"It goes through: {names} hold{'s' if len(hit) == 1 else ''} no {HOMING} to stop it."
    elif standing:
        why = (f"It goes through: {names} can stop it {d} time{'s' if d != 1 else ''} and "
               f"{_verb(attacker.label, 'answer')} each with {HOMING} ({actions} action{'s' if actions != 1 else ''}).")
    else:
        why = (f"It is cancelled: {names} hold{'s' if len(hit) == 1 else ''} {d} {HOMING} and {attacker.label} can "
               f"answer only {reach} of them")
        if attacker.homing_missiles > reach:
            why += f" (each costs an action; {actions_left} left)"
        why += "."
        if len(hit) > 1:
            why += " A cancelled card that affects several players affects none of them (Clarifications)."
    notes = (f"{HOMING} costs an action only for the player whose turn it is; out of turn it is free.",
             "Counted: the Defense cards each player can play now (their gold number of stacks met).")
    return Chain(goes_through=standing, links=tuple(links), actions_used=actions, why=why, notes=notes,
                 rules=ATTACK_RULES)


def event_chain(player: str, event: str, opponents: Sequence[Holder]) -> Chain:
    """An Event triggered in `player`'s Event Phase (`event`: "power" or "active_robot"): any opponent's
    Sentry Gunship cancels it and nothing cancels the Sentry Gunship."""
    what = "Power card" if event == "power" else "Active Robot card"
    holders = [h for h in opponents if h.sentry_gunships > 0]
    notes = [f"{HOMING} cannot counter a {GUNSHIP}; no Defense card can.",
             "A cancelled card that affects several players affects none of them."]
    if event == "power":
        notes.insert(0, f"A Power card cancelled by a {GUNSHIP} is used up and flipped all the same.")
    if not holders:
        return Chain(goes_through=True, links=(), actions_used=0, notes=tuple(notes), rules=EVENT_RULES,
                     why=f"It goes through: no opponent holds a {GUNSHIP}.")
    first = holders[0]
    link = Link(by=first.label, card=GUNSHIP, cancels=f"{_poss(player)} {what}", action=False)
    who = or_list([h.label for h in holders], "or")
    spent = " The Power card is used up anyway." if event == "power" else " The part sacrificed stays spent."
    return Chain(goes_through=False, links=(link,), actions_used=0, notes=tuple(notes), rules=EVENT_RULES,
                 why=f"It is cancelled if {who} plays {GUNSHIP}: nothing can interrupt it.{spent}")


def attack_threshold(held: int, actions_left: int) -> str:
    """What the turn player's Attack card needs, without knowing the others' hands: the most Homing
    Missiles the players it hits may hold between them for it to go through."""
    reach = counters_in_reach(held, actions_left)
    if reach == 0:
        extra = (f" (your {held} {HOMING} would need actions you do not have)" if held else "")
        return f"It goes through unless a player it hits plays {HOMING}{extra}."
    return (f"It goes through unless the players it hits hold more than {reach} {HOMING} between them: "
            f"you can answer {reach} with your own ({reach} action{'s' if reach != 1 else ''}).")
