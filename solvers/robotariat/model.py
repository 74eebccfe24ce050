"""What is on the Robotariat table, as the solvers see it: the state, the dice and the game numbers.

Spaces are board indices (see board.Board); the API turns ids into indices and back.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

FACES = ("yellow_arrow", "blue_arrow", "yellow_x", "blue_x")
CHARACTERS = ("a1_5", "arcitech", "uberbot", "mr_postman", "mt_rho", "electric_eye", "wally_st", "alice_smith")
CHARACTER_NAMES = {"a1_5": "A1-5", "arcitech": "ArciTech", "uberbot": "Überbot", "mr_postman": "Mr. Postman",
                   "mt_rho": "MT-ρ", "electric_eye": "Electric Eye", "wally_st": "WallyST",
                   "alice_smith": "Alice Smith"}
SUCCESS, FAILURE = "success", "failure"


def face_colour(face: str) -> str:
    return face.split("_", 1)[0]


def is_arrow(face: str) -> bool:
    return face.endswith("_arrow")


@dataclass(frozen=True)
class Dice:
    """The six faces of each NPC die (black: Human Oppressors, red: Civilian Robots)."""
    black: tuple[str, ...]
    red: tuple[str, ...]

    def counts(self, die: str) -> dict[str, int]:
        """Face kind -> how many of the six faces show it, in FACES order, kinds on the die only (one dict
        per die kept for every caller: read it, never change it)."""
        faces = self.black if die == "black" else self.red
        hit = _COUNTS.get(faces)
        if hit is None:
            c = Counter(faces)
            hit = _COUNTS[faces] = {f: c[f] for f in FACES if c[f]}
        return hit


_COUNTS: dict[tuple[str, ...], dict[str, int]] = {}  # the few dice in use, by their faces


@dataclass(frozen=True)
class Rules:
    """The numbers an NPC turn needs: the SPARK target for this player count, the Office Rewards
    track (SPARK donated at contributions 0..10), and component limits."""
    target: int
    office_rewards: tuple[int, ...]
    poster_supply: int = 8
    office_max: int = 10
    contribute_max: int = 5  # SPARK moved to the office per Recruitment Office activation


@dataclass(frozen=True, kw_only=True)
class TableState:
    """Positions (space indices) and tracks. Oppressors and civilians are in the order the table lists
    them, which is the order their encounters resolve. `players[i]` is where player i stands and
    `characters[i]` who they play (or None). `active` is the player whose turn it is (and who conducts
    the next NPC turn)."""
    oppressors: tuple[int, ...]
    civilians: tuple[int, ...]
    players: tuple[int, ...]
    characters: tuple[str | None, ...]
    posters: tuple[int, ...]  # posters on each space
    junk: int
    funds: int
    reputation: int
    office: int
    entry: int
    active: int = 0
    round: int | None = None
    ended: str | None = None  # None while the game goes on, else SUCCESS or FAILURE

    @property
    def entered(self) -> int:
        """NPCs of the entry track on the board (one enters per round)."""
        return len(self.oppressors) + len(self.civilians)

    def seat_of(self, character: str) -> int | None:
        for i, c in enumerate(self.characters):
            if c == character:
                return i
        return None

    def where(self, character: str) -> int | None:
        seat = self.seat_of(character)
        return None if seat is None else self.players[seat]

    @property
    def active_character(self) -> str | None:
        return self.characters[self.active] if 0 <= self.active < len(self.characters) else None

    def poster_supply_left(self, rules: Rules) -> int:
        return rules.poster_supply - sum(self.posters) - self.junk

    def with_poster(self, space: int, delta: int = 1) -> TableState:
        posters = list(self.posters)
        posters[space] += delta
        return changed(self, posters=tuple(posters))


_new, _set = object.__new__, object.__setattr__


def changed(s: TableState, **values) -> TableState:
    """`dataclasses.replace` for a TableState, without re-running its __init__ (the players' turns and the
    forecast's games copy states tens of thousands of times): the values given must be of the fields'
    types, as replace's callers here give them."""
    out = _new(TableState)
    d = s.__dict__.copy()
    d.update(values)
    _set(out, "__dict__", d)  # one dict copy, handed over whole (the dataclass is frozen)
    return out


def status_after(funds: int, reputation: int, target: int) -> str | None:
    """The Revolution Table check: the game ends when funds reach the target or reputation is 0."""
    if reputation <= 0:
        return FAILURE
    if funds >= target:
        return SUCCESS
    return None
