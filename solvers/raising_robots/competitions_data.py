"""The competition cards and tiles as game data (solvers/raising_robots/data/competitions.toml),
read with tomllib and validated once at import; every printed value keeps where it comes from."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solvers import gamedata

from .competitions import CARD_VALUE_CRITERIA, COMP_TYPES, CRITERIA, Competition, RewardOption
from .model import TOKEN_TYPES

DATA_NAME = "competitions.toml"
SOURCES = gamedata.SOURCES
SIDES = ("A", "B")


@dataclass(frozen=True)
class Sourced:
    """A printed value and where it comes from."""
    value: Any
    source: str
    section: str | None = None
    url: str | None = None

    def as_json(self) -> dict:
        out = {"value": list(self.value) if isinstance(self.value, tuple) else self.value, "source": self.source}
        if self.section:
            out["section"] = self.section
        if self.url:
            out["url"] = self.url
        return out


@dataclass(frozen=True)
class Card:
    id: str
    type: str
    name: str
    text: str
    section: str
    values: Sourced | None  # Robo Race cost values printed on the card


@dataclass(frozen=True)
class TileSide:
    resources: Sourced
    batteries: Sourced
    rewards: tuple[RewardOption, ...]
    rewards_source: Sourced


@dataclass(frozen=True)
class Tile:
    type: str
    name: str
    token_type: Sourced
    sides: dict[str, TileSide]


@dataclass(frozen=True)
class GameData:
    cards: dict[str, Card]
    tiles: dict[str, Tile]
    setup: dict[str, Sourced]

    def cards_of(self, comp_type: str) -> list[Card]:
        return [c for c in self.cards.values() if c.type == comp_type]

    def competition(self, criterion: str, side: str = "A", token_type: str | None = None,
                    cost_resources: int | None = None, cost_batteries: int | None = None,
                    values: tuple[int, ...] | None = None) -> Competition:
        """A competition in play, with the data file's defaults for whatever is not given."""
        card = self.cards[criterion]
        tile = self.tiles[card.type]
        s = tile.sides[side]
        if values is None:
            values = card.values.value if card.values else ()
        return Competition(type=card.type, criterion=criterion, side=side,
                           token_type=token_type or tile.token_type.value,
                           cost_resources=s.resources.value if cost_resources is None else cost_resources,
                           cost_batteries=s.batteries.value if cost_batteries is None else cost_batteries,
                           rewards=s.rewards, values=tuple(values))


def _sourced(raw: Any, where: str, kind: type | tuple[type, ...]) -> Sourced:
    if not isinstance(raw, dict) or "value" not in raw or "source" not in raw:
        raise ValueError(f"{where}: expected {{ value = ..., source = ... }}")
    if raw["source"] not in SOURCES:
        raise ValueError(f"{where}: source must be one of {SOURCES}")
    if raw["source"] == "public" and not raw.get("url"):
        raise ValueError(f"{where}: a public value needs its url")
    if raw["source"] == "rulebook" and not raw.get("section"):
        raise ValueError(f"{where}: a rulebook value names its section")
    value = raw["value"]
    if isinstance(value, list):
        if not all(isinstance(v, kind) and not isinstance(v, bool) for v in value):
            raise ValueError(f"{where}: list items must be {kind}")
        value = tuple(value)
    elif not isinstance(value, kind) or isinstance(value, bool):
        raise TypeError(f"{where}: expected {kind}")
    return Sourced(value, raw["source"], raw.get("section"), raw.get("url"))


def _rewards(raw: Any, where: str) -> tuple[tuple[RewardOption, ...], Sourced]:
    if not isinstance(raw, dict) or set(raw) - {"friendship", "vp", "source", "section"}:
        raise ValueError(f"{where}: expected friendship, vp, source, section")
    fr, vp = raw.get("friendship"), raw.get("vp")
    if not isinstance(fr, dict) or not isinstance(vp, dict):
        raise TypeError(f"{where}: both reward options are needed")
    options = (RewardOption("friendship", int(fr["vp"]), int(fr["draw"])), RewardOption("vp", int(vp["vp"])))
    if options[0].friendship_draw < 1:
        raise ValueError(f"{where}: the friendship option draws at least one card")
    src = _sourced({"value": "rewards", **{k: v for k, v in raw.items() if k in ("source", "section")}}, where, str)
    return options, src


def parse(doc: dict) -> GameData:
    types = doc.get("types", {})
    if set(types) != set(COMP_TYPES):
        raise ValueError(f"types must be exactly {COMP_TYPES}")
    cards: dict[str, Card] = {}
    for i, raw in enumerate(doc.get("cards", [])):
        where = f"cards[{i}]"
        cid = raw.get("id")
        if cid not in CRITERIA or cid in cards:
            raise ValueError(f"{where}: unknown or repeated criterion id {cid!r}")
        if raw.get("type") != CRITERIA[cid]:
            raise ValueError(f"{where}: {cid} belongs to {CRITERIA[cid]}")
        for key in ("name", "text", "section"):
            if not isinstance(raw.get(key), str) or not raw[key]:
                raise ValueError(f"{where}.{key}: text needed")
        values = _sourced(raw["values"], f"{where}.values", int) if "values" in raw else None
        if (values is not None) != (cid in CARD_VALUE_CRITERIA):
            raise ValueError(f"{where}: cost values belong exactly to {CARD_VALUE_CRITERIA}")
        if values is not None and not (1 <= len(values.value) <= 7 and all(0 <= v <= 20 for v in values.value)):
            raise ValueError(f"{where}.values: 1 to 7 values between 0 and 20")
        cards[cid] = Card(cid, raw["type"], raw["name"], raw["text"], raw["section"], values)
    if set(cards) != set(CRITERIA):
        raise ValueError(f"cards: missing {sorted(set(CRITERIA) - set(cards))}")
    tiles: dict[str, Tile] = {}
    for t in COMP_TYPES:
        raw = doc.get("tiles", {}).get(t)
        if not isinstance(raw, dict):
            raise TypeError(f"tiles.{t}: missing")
        token = _sourced(raw.get("token_type"), f"tiles.{t}.token_type", str)
        if token.value not in TOKEN_TYPES:
            raise ValueError(f"tiles.{t}.token_type: one of {TOKEN_TYPES}")
        sides = {}
        for side in SIDES:
            rs = raw.get(side, {})
            res = _sourced(rs.get("resources"), f"tiles.{t}.{side}.resources", int)
            bat = _sourced(rs.get("batteries"), f"tiles.{t}.{side}.batteries", int)
            if not (1 <= res.value <= 30 and 1 <= bat.value <= 30):
                raise ValueError(f"tiles.{t}.{side}: costs between 1 and 30")
            options, src = _rewards(rs.get("rewards"), f"tiles.{t}.{side}.rewards")
            sides[side] = TileSide(res, bat, options, src)
        tiles[t] = Tile(t, types[t]["name"], token, sides)
    if len({tile.token_type.value for tile in tiles.values()}) != len(tiles):
        raise ValueError("tiles: each tile has its own upgrade type")
    setup = {k: _sourced(v, f"setup.{k}", int) for k, v in doc.get("setup", {}).items()}
    for key in ("solo_round_spots", "two_player_round_spots", "rounds"):
        if key not in setup:
            raise ValueError(f"setup.{key}: missing")
    return GameData(cards, tiles, setup)


def load(raw: dict | None = None) -> GameData:
    return parse(gamedata.read("raising_robots", DATA_NAME) if raw is None else raw)


GAME_DATA = load()
