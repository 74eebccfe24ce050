"""Competitions setup and tile flips (rulebook: "Competitions & Friendships > Changes to Setup",
"How to Complete Competitions" step 5, "Solo / 2P Gameplay Changes")."""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .competitions import COMP_NAMES, COMP_TYPES
from .competitions_data import GAME_DATA, GameData
from .model import TOKEN_TYPES


@dataclass(frozen=True)
class Spot:
    round: int
    token_type: str
    tile: str  # the competition whose tile shows this upgrade type


def deal(rng: random.Random, data: GameData = GAME_DATA) -> dict[str, str]:
    """One card of each competition type, at random (the rest go back to the box)."""
    return {t: rng.choice(sorted(c.id for c in data.cards_of(t))) for t in COMP_TYPES}


def tile_of(token_type: str, data: GameData = GAME_DATA) -> str:
    return next(t for t, tile in data.tiles.items() if tile.token_type.value == token_type)


def round_spots(players: int, data: GameData = GAME_DATA) -> tuple[int, ...]:
    """Round Tracker spots that get a spare token: solo 4, 5, 6, 7; two players 5, 7; else none."""
    if players == 1:
        return data.setup["solo_round_spots"].value
    if players == 2:
        return data.setup["two_player_round_spots"].value
    return ()


def place_tracker_tokens(players: int, rng: random.Random, data: GameData = GAME_DATA) -> list[Spot]:
    """The spare tokens (one of each type, shuffled) on the spots for this player count."""
    spots = round_spots(players, data)
    types = list(TOKEN_TYPES)
    rng.shuffle(types)
    return [Spot(r, t, tile_of(t, data)) for r, t in zip(spots, types, strict=False)]


@dataclass(frozen=True)
class RoundEnd:
    sides: dict[str, str]
    tracker: list[Spot]  # tokens still on the tracker
    events: list[tuple[str, bool, str]]  # (competition type, tile flipped now, why)


def end_of_round(marker_to: int, sides: Mapping[str, str], tracker: Iterable[Spot],
                 completed_this_round: Iterable[str] = ()) -> RoundEnd:
    """What flips at the end of a round: every tile whose card got an achievement token this round, and
    (solo / 2P) the tile matching a tracker token on the space the round marker moves onto."""
    new_sides = {t: sides.get(t, "A") for t in COMP_TYPES}
    events: list[tuple[str, bool, str]] = []
    for t in completed_this_round:
        if new_sides[t] == "A":
            new_sides[t] = "B"
            events.append((t, True, f"{COMP_NAMES[t]} was completed this round: its tile turns to the B side"))
    remaining = []
    for spot in tracker:
        if spot.round != marker_to:
            remaining.append(spot)
            continue
        if new_sides[spot.tile] == "A":
            new_sides[spot.tile] = "B"
            events.append((spot.tile, True, (f"the round marker reached the {spot.token_type} token on round "
                                       f"{marker_to}: the {COMP_NAMES[spot.tile]} tile turns to the B side")))
        else:
            events.append((spot.tile, False, (f"the {spot.token_type} token on round {marker_to} is removed; the "
                                       f"{COMP_NAMES[spot.tile]} tile already shows its B side")))
    return RoundEnd(new_sides, remaining, events)
