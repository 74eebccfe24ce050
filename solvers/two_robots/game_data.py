"""Two Robots game data (solvers/two_robots/data/game.toml), read once and checked on import.

Each value keeps its source: "rulebook", "public" (with a URL) or "unverified" (an editable default).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from solvers import gamedata

from .factory import ENERGIES, Part

DATA_NAME = "game.toml"
SOURCES = gamedata.SOURCES
EFFECTS = ("destroy", "freeze", "counter_attack", "cancel_event")

# the 15 energy combinations a part card may carry: the five cores, then the ten hybrid pairs
COMBINATIONS: tuple[tuple[str, ...], ...] = tuple((e,) for e in ENERGIES) + tuple(combinations(ENERGIES, 2))


@dataclass(frozen=True)
class Named:
    id: str
    name: str
    source: str
    section: str = ""
    url: str = ""


@dataclass(frozen=True)
class Salvager:
    id: str
    name: str
    turn_order: int
    health: int
    source: str
    url: str
    turn_order_source: str
    health_source: str


@dataclass(frozen=True)
class ActionCardData:
    """An Attack or Defense card the rulebook describes by name, with what it does."""
    name: str
    kind: str                  # "attack" or "defense"
    effect: str                # one of EFFECTS
    energy: str | None = None  # the energy a "destroy" card takes
    destroy: int = 0           # how many Part cards a "destroy" card takes
    source: str = "rulebook"
    section: str = ""


@dataclass(frozen=True)
class GameData:
    energies: tuple[Named, ...]
    part_names: tuple[Named, ...]
    draw: int
    actions: int
    hand_limit: int
    power_cost: int
    robot_card_cost: int
    deck_parts: int
    deck_attack: int
    deck_defense: int
    deck_url: str
    default_masks: tuple[int, ...]          # energy combinations in the default deck
    default_copies: int                     # copies of each (part name, combination)
    default_parts_source: str
    action_cards: tuple[ActionCardData, ...]
    salvagers: tuple[Salvager, ...]
    robot_pile: dict[int, dict[str, int] | None]   # None: not known for that player count
    robot_pile_names: dict[str, str]
    robot_pile_url: str

    @property
    def part_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.part_names)

    @property
    def default_health(self) -> int:
        """Health before a Salvager is chosen: every Salvager starts with the same three Power cards."""
        return self.salvagers[0].health

    def salvager(self, salvager_id: str | None) -> Salvager | None:
        return next((s for s in self.salvagers if s.id == salvager_id), None)

    def default_deck(self, part_names: tuple[str, ...] | None = None) -> list[tuple[Part, int]]:
        """The default Action deck's part cards for the given part names (unverified composition)."""
        names = part_names or self.part_ids
        return [(Part(n, m), self.default_copies) for n in names for m in self.default_masks]

    def action_card(self, name: str) -> ActionCardData | None:
        """The card the rulebook describes under this name (any case and spacing), if any."""
        key = " ".join(name.split()).casefold()
        return next((c for c in self.action_cards if c.name.casefold() == key), None)


def _source(d: dict, where: str) -> str:
    src = d.get("source")
    if src not in SOURCES:
        raise ValueError(f"{where}: source must be one of {SOURCES}, not {src!r}")
    if src == "public" and not d.get("url"):
        raise ValueError(f"{where}: a public value needs its url")
    return src


def _action_cards(raw: list[dict]) -> tuple[ActionCardData, ...]:
    cards = []
    for c in raw:
        if c["kind"] not in ("attack", "defense") or c["effect"] not in EFFECTS:
            raise ValueError(f"action card {c['name']!r}: unknown kind or effect")
        if c["effect"] == "destroy" and (c.get("energy") not in ENERGIES or int(c.get("destroy", 0)) < 1):
            raise ValueError(f"action card {c['name']!r}: a destroy card names an energy and a count")
        cards.append(ActionCardData(name=c["name"], kind=c["kind"], effect=c["effect"], energy=c.get("energy"),
                                    destroy=int(c.get("destroy", 0)), source=_source(c, "action_cards"),
                                    section=c.get("section", "")))
    return tuple(cards)


def load(raw: dict | None = None) -> GameData:
    raw = gamedata.read("two_robots", DATA_NAME) if raw is None else raw
    energies = tuple(Named(id=e["id"], name=e["name"], source=_source(e, "energies"), section=e.get("section", ""))
                     for e in raw["energies"])
    if tuple(e.id for e in energies) != ENERGIES:
        raise ValueError(f"energies must be {ENERGIES}")
    parts = tuple(Named(id=p["id"], name=p["name"], source=_source(p, "part_names"), section=p.get("section", ""))
                  for p in raw["part_names"])
    if len(parts) != 4 or len({p.id for p in parts}) != 4:
        raise ValueError("a robot has four different part names")
    if [p.id for p in parts if p.source == "rulebook"] != ["head", "arms"]:
        raise ValueError("only HEAD and ARMS are printed in the rules; the other two names are unverified")
    turn, deck, dp = raw["turn"], raw["action_deck"], raw["default_parts"]
    _source(turn, "turn")
    _source(deck, "action_deck")
    if (deck["robot_parts"], deck["attack"], deck["defense"]) != (60, 19, 21):
        raise ValueError("the public Action deck totals are 60 parts, 19 Attack, 21 Defense")
    copies = int(dp["copies_per_combination"])
    default = tuple(Part.of(parts[0].id, c).mask for c in COMBINATIONS)
    if len(default) * copies * len(parts) != deck["robot_parts"]:
        raise ValueError("the default part composition must add up to the deck's robot parts")
    salvagers = tuple(Salvager(id=s["id"], name=s["name"], turn_order=int(s["turn_order"]), health=int(s["health"]),
                               source=_source(s, "salvagers"), url=s.get("url", ""),
                               turn_order_source=s["turn_order_source"], health_source=s["health_source"])
                      for s in raw["salvagers"])
    if [s.turn_order for s in salvagers] != sorted(s.turn_order for s in salvagers):
        raise ValueError("salvagers are listed in turn order")
    if len({s.health for s in salvagers}) != 1:
        raise ValueError("every Salvager starts with the same number of Power cards (Setup)")
    pile_raw = raw["active_robot_pile"]
    _source(pile_raw, "active_robot_pile")
    names = dict(zip(pile_raw["cards"], pile_raw["names"], strict=True))
    pile: dict[int, dict[str, int] | None] = {}
    for count, mix in pile_raw["players"].items():
        if mix.get("unknown"):
            pile[int(count)] = None
            continue
        if set(mix) - set(names):
            raise ValueError(f"unknown Active Robot card in the {count}-player pile")
        pile[int(count)] = {k: int(v) for k, v in mix.items()}
    if sorted(pile) != [2, 3, 4, 5]:
        raise ValueError("the Active Robot pile is listed for 2 to 5 players")
    return GameData(
        energies=energies, part_names=parts, draw=int(turn["draw"]), actions=int(turn["actions"]),
        hand_limit=int(turn["hand_limit"]), power_cost=int(turn["power_cost"]),
        robot_card_cost=int(turn["robot_card_cost"]), deck_parts=int(deck["robot_parts"]),
        deck_attack=int(deck["attack"]), deck_defense=int(deck["defense"]), deck_url=deck["url"],
        default_masks=default, default_copies=copies, default_parts_source=dp["source"],
        action_cards=_action_cards(raw.get("action_cards", [])), salvagers=salvagers, robot_pile=pile,
        robot_pile_names=names, robot_pile_url=pile_raw["url"])


DATA = load()
