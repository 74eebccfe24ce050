"""From the table state to what the pages show: the API body each page's answer is worked out from (the
same body a script would send), the solver's complaints as problems next to the page's fields (named by
the page's paths, in players' words), and the few view models a template needs beyond the answer."""
from __future__ import annotations

import re

from solvers.errors import InputError
from solvers.raising_robots import scoring
from solvers.raising_robots.competitions import COMP_NAMES, COMP_TYPES
from solvers.raising_robots.competitions_data import GAME_DATA
from solvers.raising_robots.model import ITEM_LABELS, ITEM_WORDS, ROW_NAMES

from ..rules import entry
from ..web.problems import Problem, plain
from .schemas import (
    CARD_VALUE_IDS,
    PART_KEYS,
    ROUND_END_PARTS,
    RaisingRobotsState,
    Seat,
    codes_text,
    default_tile,
)

# ---- rule links ------------------------------------------------------------------------------------

_READING = "How Tablebot reads this: "


def rule_title(rule_id: str) -> str:
    """A short link text for a rules-assistant entry: its title, readings marked as Tablebot's."""
    e = entry(rule_id)
    if e is None:
        return rule_id
    title = e.title
    if title.startswith(_READING):
        return "Tablebot's reading: " + title[len(_READING):]
    if title.startswith("IMPORTANT: "):
        return "Important: " + title[len("IMPORTANT: "):]
    return title


def rule_titles(ids) -> dict[str, str]:
    return {i: rule_title(i) for i in dict.fromkeys(ids)}


# ---- words for fields --------------------------------------------------------------------------------

TOKEN_LABELS = {"pink": "Pink (Efficiency)", "orange": "Orange", "blue": "Blue", "green": "Green"}
PART_NAMES = {
    "johannes-base": "Johannes: +1 of each type you have 5+ of",
    "johannes-upgrade": "Johannes upgraded: +1 VP per type at 8+",
    "charlotte-base": "Charlotte: 2 wilds for an assembly or an unlock",
    "charlotte-upgrade": "Charlotte upgraded: +1 wild, +1 VP",
    "sacagawea-base": "Sacagawea: a Search",
    "sacagawea-upgrade": "Sacagawea upgraded: battery + robot card, or 2 VP",
    "temple_friendship-base": "Temple (Friendship): 2 VP per full column",
    "confucius_friendship-base": "Confucius (Friendship gained): per robot 1 wild or 2 batteries",
    "johannes_friendship-base": "Johannes (Friendship gained): +1 of seven things",
}
VALUE_LABELS = {"sensor": "a sensor", "gear": "a gear", "microchip": "a microchip", "program": "a program",
                "duct_tape": "a duct tape", "battery": "a battery", "robot_cards": "a Robot Card",
                "upgrade_token": "an unplaced upgrade token", "friendship": "a Friendship card kept"}
ROBOT_WORDS = {"vp": "VP", "row": "row", "cost_energy": "energy cost", "cost_resources": "resource cost",
               "basic_energy": "basic action energy", "upgraded_energy": "upgraded action energy",
               "game_end": "Game End icon", "game_end_action": "the action with the icon", "column": "column"}
CHOICE_WORDS = {"ch_action": "Charlotte's choice", "ch_wilds": "Charlotte's wilds", "ch_pay": "payment for the robot",
                "ch_row": "the robot's row", "ch_cost": "the robot's cheaper cost", "ch_vp": "the robot's VP",
                "ch_extra": "the slot's extra cost", "ch_chip": "a microchip in the robot's cost",
                "sa_search": "Sacagawea's Search", "sa_ongoing": "Sacagawea's ongoing ability", "ch_gain": "the wild you take", "sa_reward": "Sacagawea's reward",
                "co": "Confucius's choices", "scroll_objective": "the Scroll Board objective",
                "scroll_gain": "the Scroll Board gain", "scroll_line": "the line reward"}
SEARCH_WORDS = {"deck_size": "Unknown cards in the deck", "known_bottom": "Known cards at the bottom",
                "seen": "Cards seen", "criteria": "Criteria", "energy_min": "Lowest energy",
                "energy_max": "Highest energy", "_revealed": "The cards the search turned over",
                "_drawn": "The card you drew"}


def label(path: str, state: RaisingRobotsState | None = None) -> str:
    """A field of the state as the page labels it ("seats.0.inventory.gear" -> "Gears")."""
    p = path.split(".")
    if p[0] == "seats" and len(p) > 2:
        rest, seat = p[2:], state.seat(int(p[1])) if state is not None and p[1].isdecimal() else None
        if rest[0] == "inventory" and len(rest) > 1:
            return ITEM_LABELS.get(rest[1], rest[1])
        if rest[0] == "tokens" and len(rest) > 2:
            return f"{rest[1].capitalize()} {TOKEN_LABELS.get(rest[2], rest[2]).lower()} tokens"
        if rest[0] == "class_status" and len(rest) > 1:
            return f"Class cards at {'D' if rest[1] == 'meeting_d' else 'C'} or better"
        if rest[0] == "robots" and len(rest) > 1:
            number = ""
            if seat is not None:
                ids = [r.id for r in seat.robots]
                number = f" {ids.index(rest[1][1:]) + 1}" if rest[1][1:] in ids else ""
            what = ROBOT_WORDS.get(rest[2], rest[2].replace("_", " ")) if len(rest) > 2 else ""
            return f"Robot{number}" + (f": {what}" if what else "")
        if rest[0] == "class_cards" and len(rest) > 2:
            what = {"vp_by_grade": "VP for", "thresholds": "count needed for"}.get(rest[2])
            field = f"{what} {rest[3]}" if what and len(rest) > 3 else rest[2].replace("_", " ")
            return f"Class card {int(rest[1]) + 1}: {field}"
        if rest[0] == "friendships" and len(rest) > 1:
            return f"Friendship card {int(rest[1]) + 1}" if rest[1].isdecimal() else "Friendship cards"
        if rest[0] == "friendship_count":
            return "Friendship cards held"
        if rest[0] == "inventor":
            return "Inventor upgraded" if rest[-1] == "upgraded" else "Inventor"
        if rest[0] == "completed" and len(rest) > 1:
            return f"{COMP_NAMES.get(rest[1], rest[1])} done"
        if rest[0] == "competitions_completed":
            return "Competitions completed"
        if rest[0] == "round_end" and len(rest) > 1:
            if rest[1] == "order" and len(rest) > 2:
                return f"Order of {PART_NAMES.get(rest[2], rest[2])}"
            return CHOICE_WORDS.get(rest[1], rest[1].replace("_", " ")).capitalize()
        if rest[0] == "scroll_board":
            return "Scroll Board objective"
    if p[0] == "competitions" and len(p) > 2:
        if p[1] == "cards":
            return f"{COMP_NAMES.get(p[2], p[2])} card"
        if p[1] == "sides":
            return f"{COMP_NAMES.get(p[2], p[2])} tile side"
        if p[1] == "tiles" and len(p) > 3:
            what = "upgrade type" if p[3] == "token_type" else f"side {p[3]}" + (f" {p[4]}" if len(p) > 4 else "")
            return f"{COMP_NAMES.get(p[2], p[2])} tile, {what}"
        if p[1] == "card_values":
            card = GAME_DATA.cards.get(p[2])
            return f"“{card.name if card else p[2]}” card values"
        if p[1] == "values":
            return f"What {VALUE_LABELS.get(p[2], p[2])} is worth"
        if p[1] == "players":
            return "Players"
    if p[0] == "competitions" and len(p) == 2 and p[1] == "players":
        return "Players"
    if p[0] == "search" and len(p) > 2 and p[1] in ("cells", "set_aside") and "-" in p[2]:
        row, energy = p[2].rsplit("-", 1)
        card = f"{ROW_NAMES.get(row, 'Any row')} {energy}"
        return f"{card}: set aside" if p[1] == "set_aside" else f"{card}: {'wanted' if p[-1] == 'wanted' else 'unseen cards'}"
    if p[0] == "search" and len(p) > 1:
        return SEARCH_WORDS.get(p[-1], p[-1].replace("_", " ").capitalize())
    if p[0] == "solo" and len(p) > 1:
        return {"threshold": "Solo threshold", "mode": "Solo mode"}.get(p[1], "Solo target")
    return SEARCH_WORDS.get(p[-1], p[-1].replace("_", " ").capitalize()) if path else ""


def with_label(problems: list[Problem], state: RaisingRobotsState | None = None) -> list[Problem]:
    """The problems as the list at the top of a form shows them: each names its field in words."""
    return [Problem(p.path, f"{label(p.path, state)}: {p.message}" if p.path else p.message) for p in problems]


# ---- the solver's complaints, next to the page's fields ------------------------------------------------

def _choice_path(seat: Seat, i: int, k: int, rest: list[str]) -> str:
    """A round-end step's field (abilities[k].pay_wilds: the k-th part in the seat's order) as the
    page's choice field."""
    ordered = seat.round_end.ordered()
    if k >= len(ordered):
        return ""
    a, part = ordered[k]
    field = rest[0] if rest else ""
    base = f"seats.{i}.round_end"
    names = {("charlotte", "base"): {"pay_wilds": "ch_wilds", "payment": "ch_pay", "robot": "ch_cost",
                                     "extra_cost": "ch_extra", "action": "ch_action"},
             ("charlotte", "upgrade"): {"gain_wild": "ch_gain"},
             ("sacagawea", "upgrade"): {"reward": "sa_reward"},
             ("confucius_friendship", "base"): {"per_robot": "co"}}.get((a, part), {})
    if field.startswith("scroll_"):
        return f"{base}.{field}"
    return f"{base}.{names[field]}" if field in names else f"{base}.order.{a}-{part}"


def tile_is_entered(state: RaisingRobotsState, t: str, side: str, key: str) -> bool:
    d = default_tile(t)
    tile = state.competitions.tiles[t]
    return tile.token_type != d["token_type"] if key == "token_type" else getattr(getattr(tile, side), key) != d[side][key]


def card_values_entered(state: RaisingRobotsState, cid: str) -> bool:
    return state.competitions.card_values.get(cid) != list(GAME_DATA.cards[cid].values.value)


# ---- the score ---------------------------------------------------------------------------------------

def slot_robots(seat: Seat) -> list:
    """The robots in the play area, in slot order (the order the round end's body lists them)."""
    slots = seat.slots()
    return [slots[k] for k in sorted(slots, key=lambda k: (list(ROW_NAMES).index(k.rsplit("-", 1)[0]),
                                                           int(k.rsplit("-", 1)[1])))]


def seat_problem(i: int, seat: Seat, err: InputError, robots: list | None = None) -> Problem:
    """A complaint about seat `i` as the model names the field (`robots[2].vp`, `class_cards[1].count`),
    next to the page's field (`seats.0.robots.@<id>.vp`, `seats.0.class_cards.1.count`); `robots`: the
    robots in the order the solver was given them (the seat's own by default)."""
    robots = seat.robots if robots is None else robots
    p = re.sub(r"\[(\d+)\]", r".\1", err.path or "").strip(".").split(".")
    if p[0] == "robots" and len(p) > 1 and p[1].isdecimal() and int(p[1]) < len(robots):
        p = ["robots", f"@{robots[int(p[1])].id}", *p[2:3]]
    if p[0] == "abilities" and len(p) > 1 and p[1].isdecimal():
        return Problem(_choice_path(seat, i, int(p[1]), p[2:]), plain(err.message))
    return Problem(".".join([f"seats.{i}", *p]) if err.path else "", plain(err.message))


def chart(result: scoring.Score) -> list[dict]:
    parts = [("Robots", result.robots), ("Class cards", result.class_cards),
             ("Inventory VP", result.inventory_vp), ("Leftovers", result.leftovers),
             ("Game End", result.game_end)]
    top = max([v for _, v in parts] + [1])
    return [{"label": lab, "vp": v, "width": round(100 * v / top, 1)} for lab, v in parts]


# ---- the Search grid -----------------------------------------------------------------------------

def search_grid(state: RaisingRobotsState) -> list[dict]:
    crit, cells = state.search.criteria, state.search.cells
    rows = []
    for e in range(1, 8):
        line = []
        for row in ("design", "fabricate", "recycle", "any"):
            cell = cells[f"{row}-{e}"]
            fits = row in (crit.row, "any") and crit.energy_min <= e <= crit.energy_max
            line.append({"key": f"{row}-{e}", "row": row, "energy": e, "fits": fits, "count": cell.count,
                         "wanted": cell.wanted})
        rows.append({"energy": e, "cells": line})
    return rows


__all__ = ["CARD_VALUE_IDS", "COMP_TYPES", "ITEM_WORDS", "PART_KEYS", "ROUND_END_PARTS", "codes_text"]
