"""Who a seat is: its inventor and its Friendship cards, by name, and what each one does where Tablebot
models it (rulebook "Friendships", "Friendship Ability Clarifications", "Friendship Example", "Friends
Inventor Explanations").

Names are free text (a base-game or Pets inventor is as welcome as a Friends one); `ability_id` turns a
name into an id. An ability Tablebot does not model is never ignored silently: each tool says, per name,
whether it is taken into account, has nothing to do with that tool's answer, or is not taken into account.
Pure: no Flask.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solvers.errors import InputError

from .model import RESOURCES, Inventory

# The Friends inventors (Friends Inventor Explanations) and the Friendship cards the rulebook names
# (Friendship Ability Clarifications, Friendship Example). Friendship cards are based on inventors, so a
# Friends inventor's name may also be a Friendship card's.
FRIENDS_INVENTORS = ("charlotte", "confucius", "johannes", "sacagawea", "susan", "william")
NAMED_FRIENDSHIPS = ("ada", "albert", "charles", "confucius", "johannes", "john", "nikola", "stephen", "temple",
                     "yo_yo")
DISPLAY = {"yo_yo": "Yo-Yo"}
NAME_MAX = 40
WILD_ITEMS = (*RESOURCES, "robot_cards")  # a wild is one resource or a Robot Card, never duct tape

# inventor setup (Friends Inventor Explanations, each "Immediate"); Confucius's Scroll Board comes too
SETUP_CHANGES: dict[str, dict[str, int]] = {
    "charlotte": {"duct_tape": -1},
    "confucius": {"battery": -1, "duct_tape": -2},
    "johannes": {"duct_tape": -1, "wild": 3},
}
SETUP_RULES = {"charlotte": "rr-charlotte-complexity-medium", "confucius": "rr-confucius-complexity-hard",
               "johannes": "rr-johannes-complexity-medium"}
JOHANNES_GAIN = {"sensor": 1, "gear": 1, "microchip": 1, "program": 1, "battery": 1, "duct_tape": 1, "vp": 1}
YO_YO_UNLOCK_GAIN = {"battery": 1, "vp": 2}  # Friendship Example, step C
KEPT_RULES = {"johannes": "rr-friendship-johannes", "confucius": "rr-friendship-confucius",
              "ada": "rr-friendship-ada", "john": "rr-friendship-john"}


def ability_id(name: str) -> str:
    """"Yo-Yo", "yo yo", "YOYO" -> "yo_yo"; "Sacagawea" -> "sacagawea"; "" -> ""."""
    key = re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")
    return "yo_yo" if key in ("yoyo", "yo_yo") else key


def display_name(ability: str) -> str:
    return DISPLAY.get(ability, " ".join(w.capitalize() for w in ability.split("_"))) if ability else "a card"


@dataclass(frozen=True)
class Who:
    """A seat's inventor (id, "" when not entered) and Friendship cards (ids; "" for a card held but not
    named, as a count gives)."""
    inventor: str = ""
    inventor_upgraded: bool = False
    friendships: tuple[str, ...] = ()

    @staticmethod
    def of(inventor: str = "", upgraded: bool = False, friendships: Iterable[str] | int = ()) -> Who:
        cards = ("",) * friendships if isinstance(friendships, int) else tuple(
            "" if ability_id(f) == "unnamed" else ability_id(f) for f in friendships)
        return Who(inventor=ability_id(inventor), inventor_upgraded=upgraded, friendships=cards)

    def has(self, ability: str) -> bool:
        return ability == self.inventor or ability in self.friendships

    @property
    def robot_cards_as_duct_tape(self) -> bool:
        """Sacagawea's ongoing ability (as inventor or as a Friendship card)."""
        return self.has("sacagawea")


@dataclass(frozen=True)
class Taken:
    """How one tool treats one of the seat's abilities."""
    ability: str  # id ("" for an unnamed Friendship card)
    role: str  # "inventor" or "friendship"
    treatment: str  # "modelled", "no_effect" or "not_modelled"
    why: str


# Per tool: the abilities it models, and those that cannot change its answer (with why), by id or by
# "role:id" where the inventor and the Friendship card differ. Every other name is "not taken into account".
PLANNER_MODELLED = {
    "sacagawea": "Robot Cards in hand count as duct tape for Mech Masters (7+ Duct Tape), never for class cards",
}
PLANNER_NO_EFFECT = {
    "charlotte": "a Round End ability (the Round end page)",
    "johannes": "a Round End ability as inventor; as a Friendship card, its gain comes when you keep it",
    "confucius": "its gains come when a robot is assembled or a token unlocked, or when the card is kept",
    "temple": "a Round End ability", "ada": "it changes how many Phase Cards you assign",
    "john": "it changes how many Phase Cards you assign", "charles": "it works on your Phase Cards",
    "nikola": "it works on Energy Cubes", "stephen": "it works on Energy Cards",
    "yo_yo": "it pays out when you unlock an upgrade token, which no competition step does",
    "william": "it works on your Energy Cards and phases",
}
ROUND_END_MODELLED = {
    "johannes": "listed as a round-end ability", "charlotte": "listed as a round-end ability",
    "sacagawea": "listed as a round-end ability; her Robot Cards pay like duct tape",
    "temple": "listed as a round-end ability",
    "yo_yo": "a Charlotte unlock gives 1 battery and 2 VP (Friendship Example)",
    "confucius": "the Scroll Board gain on a Charlotte assembly or unlock",
}
# the score: the Friends inventors' sheet gives each whole ability, and none has a Game End part; of the
# Friendship cards only those the clarifications describe whole are known to score nothing at the end
SCORE_NO_EFFECT = {**{name: "its ability has no Game End part (Friends Inventor Explanations)"
                      for name in FRIENDS_INVENTORS},
                   "temple": "a Round End ability", "friendship:johannes": "its gain comes when it is kept",
                   "friendship:confucius": "its gain comes when it is kept"}


def treatments(who: Who, modelled: dict[str, str], no_effect: dict[str, str]) -> list[Taken]:
    """For each of the seat's abilities, how a tool with these tables treats it."""
    out = []
    held = [("inventor", who.inventor)] if who.inventor else []
    held += [("friendship", f) for f in who.friendships]
    for role, ability in held:
        key = f"{role}:{ability}"  # a role-specific entry first (a Friendship card is not its inventor)
        if key in modelled or ability in modelled:
            out.append(Taken(ability, role, "modelled", modelled.get(key) or modelled[ability]))
        elif key in no_effect or ability in no_effect:
            out.append(Taken(ability, role, "no_effect", no_effect.get(key) or no_effect[ability]))
        elif not ability:
            out.append(Taken(ability, role, "not_modelled", "the card is not named, so its ability is unknown"))
        else:
            out.append(Taken(ability, role, "not_modelled", "Tablebot does not model this ability"))
    return out


def not_taken_note(taken: Sequence[Taken], tool: str) -> str | None:
    """One sentence listing what a tool's answer does not take into account, or None."""
    missing = [t for t in taken if t.treatment == "not_modelled"]
    if not missing:
        return None
    names = [(f"{display_name(t.ability)} ({t.role})" if t.ability else "an unnamed Friendship card")
             for t in missing]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"Not taken into account by the {tool}: {listed}. Check by hand whether it changes this answer."


# ---- keeping a Friendship card -------------------------------------------------------------------------

class KeptInputError(InputError):
    """A choice the kept card needs is missing or does not fit; `path` names the field."""


@dataclass(frozen=True)
class KeptCard:
    ability: str
    inventory_after: Inventory
    gained: dict[str, int]  # signed change of each item
    why: str
    modelled: bool  # False: the card's immediate effect is not modelled (the player enters it)
    rules: tuple[str, ...] = ()


def keep_friendship(name: str, inventory: Inventory, robots: int, per_robot: Sequence[str] = (),
                    path: str = "kept") -> KeptCard:
    """The immediate effect of keeping a Friendship card (Friendship Ability Clarifications).
    `robots`: assembled robots (Confucius gives one choice per robot, `per_robot`: "batteries" or a wild)."""
    card = ability_id(name)
    gain: dict[str, int] = {}
    modelled = True
    if card == "johannes":
        gain = dict(JOHANNES_GAIN)
        why = "when kept: 1 each of sensor, gear, microchip, program, battery, duct tape and VP"
    elif card == "confucius":
        if len(per_robot) != robots:
            raise KeptInputError(f"{path}.per_robot", f"you have {robots} assembled robot(s): choose 1 wild or 2 "
                                                      "batteries for each")
        for j, choice in enumerate(per_robot):
            if choice == "batteries":
                gain["battery"] = gain.get("battery", 0) + 2
            elif choice in WILD_ITEMS:
                gain[choice] = gain.get(choice, 0) + 1
            else:
                raise KeptInputError(f"{path}.per_robot[{j}]", f"choose batteries or a wild: {', '.join(WILD_ITEMS)}")
        wilds = sum(c != "batteries" for c in per_robot)
        why = f"when kept: for each of {robots} assembled robot(s), {wilds} chose 1 wild and {robots - wilds} chose 2 batteries"
    elif card in ("ada", "john"):
        if inventory.battery:
            gain = {"battery": -1}
            why = "when kept: lose 1 battery (its ability works from next round)"
        else:
            why = "when kept: lose 1 battery, but you have none, so nothing is lost (its ability works from next round)"
    elif card == "albert":
        modelled = False
        why = ("when kept: run a Phase Row at 6 energy; Tablebot does not know your board, so enter what it gave "
               "you before planning on")
    elif card in PLANNER_NO_EFFECT or card == "sacagawea":
        why = "nothing changes in your inventory when it is kept"
    else:
        modelled = False
        why = "Tablebot does not model this card: enter what keeping it changed, if anything"
    after = inventory.add(**gain)
    if min(after.as_dict().values()) < 0:
        raise KeptInputError(path, "the card's effect would leave a negative count")
    rules = ("rr-friendships", KEPT_RULES[card]) if card in KEPT_RULES else ("rr-friendships",)
    return KeptCard(ability=card, inventory_after=after, gained={k: v for k, v in gain.items() if v}, why=why,
                    modelled=modelled, rules=rules)


# ---- inventor setup ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SetupChange:
    inventor: str
    changes: dict[str, int]  # item -> signed change; "wild": wilds to take (any resource or a Robot Card)
    why: str
    rule: str | None
    scroll_board: bool = False  # Confucius: take his Scroll Board and tokens


def inventor_setup(inventor: str) -> SetupChange:
    """What an inventor changes at setup (Friends Inventor Explanations, "Immediate"): none for inventors
    Tablebot does not know (the answer says so)."""
    who = ability_id(inventor)
    if who == "charlotte":
        return SetupChange(who, dict(SETUP_CHANGES[who]), "Charlotte begins with 1 duct tape fewer", SETUP_RULES[who])
    if who == "confucius":
        return SetupChange(who, dict(SETUP_CHANGES[who]), "Confucius begins with 1 battery and 2 duct tape fewer, "
                           "and takes his Scroll Board and 16 Confucius Tokens", SETUP_RULES[who], scroll_board=True)
    if who == "johannes":
        return SetupChange(who, dict(SETUP_CHANGES[who]), "Johannes begins with 3 more wilds and 1 duct tape fewer",
                           SETUP_RULES[who])
    if who in FRIENDS_INVENTORS:
        return SetupChange(who, {}, f"{display_name(who)} changes no starting resources (a setup Search or tokens "
                           "are done at the table)", f"rr-{who}-complexity-" + ("medium" if who == "sacagawea" else "hard"))
    return SetupChange(who, {}, f"Tablebot does not know {display_name(who) if who else 'this inventor'}'s setup: "
                       "apply it at the table", None)
