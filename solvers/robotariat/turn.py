"""A player's turn as data, whether it is legal, and the table it leaves (rulebook "Player Turn",
"Movement", "Types of Space Activations", "Character Abilities"; facts file: space activations).

A turn: stay or move along one black line; activate nothing, the space left (before moving) or the
space reached (after moving), never one with an Oppressor on it; and, for Mr. Postman or WallyST,
their extra poster move at the end of the turn. The suggestions generate turns (suggest.py); the
table's reducer (table.py) checks a turn a player entered with `check_turn` and applies it with
`play_turn`, so both change the table the same way.
"""
from __future__ import annotations

from dataclasses import dataclass

from solvers.errors import InputError

from .board import Board
from .model import Rules, TableState, changed
from .npc_turn import CIVILIAN, OPPRESSOR, Encounter, move_npc

WHEN = ("here", "before_move", "after_move")


@dataclass(frozen=True, kw_only=True)
class Activation:
    kind: str
    space: int
    when: str  # "here" (staying), "before_move" or "after_move"
    place_on: int | None = None  # poster
    placement: tuple[tuple[int, int], ...] = ()  # scrap yard: (space, posters)
    contribute: int = 0  # recruitment office
    npc: str | None = None  # move the masses
    npc_index: int | None = None
    npc_to: int | None = None


@dataclass(frozen=True, kw_only=True)
class Extra:
    ability: str  # "mr_postman" or "wally_st"
    to: int
    source: int | None = None  # Mr. Postman: where the poster comes from


def moved(s: TableState, to: int) -> TableState:
    players = list(s.players)
    players[s.active] = to
    return changed(s, players=tuple(players))


def apply_activation(board: Board, rules: Rules, s: TableState, a: Activation) -> tuple[TableState, Encounter | None]:
    """The table after the activation (Move the Masses' encounter resolved at once)."""
    if a.kind == "poster":
        return s.with_poster(a.place_on), None
    if a.kind == "scrap_yard":
        posters = list(s.posters)
        for space, n in a.placement:
            posters[space] += n
        return changed(s, posters=tuple(posters), junk=0), None
    if a.kind == "recruitment_office":
        return changed(s, funds=s.funds - a.contribute, office=s.office + a.contribute), None
    if a.kind == "move_the_masses":
        e, after = move_npc(board, rules, s, a.npc, a.npc_index, a.npc_to)
        return after, e
    return s, None  # sabotage / upgrade: the drawn cards are not modelled


def with_extra(rules: Rules, s: TableState, e: Extra) -> TableState | None:
    """The table after the extra poster move, or None when it is not possible there."""
    if e.ability == "mr_postman":
        if e.source is None or not s.posters[e.source] or e.source == e.to:
            return None
        return s.with_poster(e.source, -1).with_poster(e.to)
    if s.office < 1 or s.poster_supply_left(rules) < 1:
        return None
    return changed(s.with_poster(e.to), office=s.office - 1)


def check_activation(board: Board, rules: Rules, s: TableState, a: Activation) -> None:
    """InputError naming the field when the activation is not allowed in state `s` (before it)."""
    if a.space in s.oppressors:
        raise InputError("activate.space", "a space with a Human Oppressor on it cannot be activated")
    if board.kinds[a.space] != a.kind:
        raise InputError("activate.kind", f"this space is a {board.names[a.space]}, not a {a.kind.replace('_', ' ')}")
    if a.kind == "poster":
        if a.place_on is None:
            raise InputError("activate.place_on", "say where the poster goes")
        if s.poster_supply_left(rules) < 1:
            raise InputError("activate.place_on", f"all {rules.poster_supply} posters are out")
    elif a.kind == "recruitment_office":
        top = min(rules.contribute_max, s.funds, rules.office_max - s.office)
        if not 1 <= a.contribute <= top:
            raise InputError("activate.contribute", f"contribute 1 to {top} SPARK (funds, at most "
                             f"{rules.contribute_max}, the office track up to {rules.office_max})"
                             if top >= 1 else "nothing can be contributed now")
    elif a.kind == "scrap_yard":
        if s.junk < 1:
            raise InputError("activate.placement", "the junk pile is empty")
        if sum(n for _, n in a.placement) != s.junk or any(n < 0 for _, n in a.placement):
            raise InputError("activate.placement", f"put all {s.junk} junk-pile posters on the board")
    elif a.kind == "move_the_masses":
        group = s.oppressors if a.npc == OPPRESSOR else s.civilians if a.npc == CIVILIAN else ()
        if a.npc_index is None or not 0 <= a.npc_index < len(group):
            raise InputError("activate.index", "that NPC is not on the board")
        if a.npc_to not in board.neighbours[group[a.npc_index]]:
            raise InputError("activate.to", "Move the Masses moves an NPC along one black line")


def check_turn(board: Board, rules: Rules, s: TableState, move_to: int, a: Activation | None,
               e: Extra | None) -> None:
    """InputError naming the field when the turn is not one the rules allow the active player."""
    here = s.players[s.active]
    if move_to != here and move_to not in board.neighbours[here]:
        raise InputError("move_to", "a player moves at most one black line")
    if a is not None:
        if a.when not in WHEN or (a.when == "here") != (move_to == here):
            raise InputError("activate.when", "activate the space you stay on, or the one you leave or reach")
        want = here if a.when in ("here", "before_move") else move_to
        if a.space != want:
            raise InputError("activate.space", "activate the space you leave (before moving) or reach (after)")
        base = s if a.when != "after_move" else moved(s, move_to)
        check_activation(board, rules, base, a)
    if e is not None and e.ability != s.active_character:
        raise InputError("extra.ability", "only Mr. Postman and WallyST have an extra poster move, on their turn")


def play_turn(board: Board, rules: Rules, s: TableState, move_to: int, a: Activation | None,
              e: Extra | None) -> tuple[TableState, Encounter | None]:
    """The table once the turn is played (before the NPC turn): the move, the activation (Move the
    Masses' encounter resolved; the game may end there, and a player who activated before moving then
    stays put), and the extra poster move at the end."""
    check_turn(board, rules, s, move_to, a, e)
    enc = None
    if a is None:
        after = moved(s, move_to)
    elif a.when == "after_move":
        after, enc = apply_activation(board, rules, moved(s, move_to), a)
    else:
        after, enc = apply_activation(board, rules, s, a)
        if a.when == "before_move" and after.ended is None:
            after = moved(after, move_to)
    if e is not None and after.ended is None:
        with_e = with_extra(rules, after, e)
        if with_e is None:
            raise InputError("extra", "that extra poster move is not possible now")
        after = with_e
    return after, enc
