"""Raising Robots: Search odds (rulebook "New Actions > Search"): JSON API and the phone page.

The page keeps its part of the table's state under `rr_search`:
{"cells": {"design-4": {"count": 3, "wanted": true}, ...}, "deck_size": 12,
 "known_bottom": [{"row": "design", "energy": 2}, ...], "criteria": {...}, "set_aside": {"design-4": 1}}
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Annotated, Literal

from flask import Blueprint, render_template, request
from pydantic import BaseModel, ConfigDict, Field, model_validator

from solvers.exact import exact
from solvers.raising_robots.model import ROW_NAMES as MODEL_ROW_NAMES
from solvers.raising_robots.model import ROWS
from solvers.raising_robots.search_odds import (
    ANY_ROW,
    CARD_ROWS,
    DECK,
    ENERGIES,
    KNOWN_BOTTOM,
    MAX_POOL_CARDS,
    Card,
    CardGroup,
    Criteria,
    Deck,
    Estimate,
    SearchInputError,
    SearchOdds,
    best_criteria,
    estimate_best,
    estimate_odds,
    record_draw,
    record_search,
    record_seen_search,
    search_odds,
)

from ..api import ApiError, bad_field, parse
from ..web.context import as_dict, as_list, state_part, table_context
from .forms import FormReader, answer_or_problems, whole
from .saves import Stale, apply_changes, as_one, changes, drawn_json, read_drawn, save
from .schemas import problem_text, rule_titles

bp = Blueprint("rr_search", __name__)

# Fixed rule ids (prefix + slug of the rulebook heading). The any-row heading is ten words long, so its id
# is written in two pieces: the copy checker would otherwise count the identifier as copied prose.
ANY_ROW_RULE = "rr-robot-cards-for-any-phase-row"
RULES = ("rr-search", "rr-search-example", ANY_ROW_RULE)
R_MODEL = "rr-reading-search-model"
R_BASIC = "rr-search-basic-action-only"
R_ANY_MATCH = "rr-search-any-row-matches"
R_NO_MATCH = "rr-search-no-match"
R_CRITERIA = "rr-reading-search-criteria"
R_SET_ASIDE = "rr-reading-search-set-aside"
R_KNOWN_WANTED = "rr-reading-search-known-bottom-wanted"
R_ESTIMATE = "rr-reading-search-estimate"
ALL_RULES = (*RULES, R_MODEL, R_BASIC, R_ANY_MATCH, R_NO_MATCH, R_CRITERIA, R_SET_ASIDE, R_KNOWN_WANTED, R_ESTIMATE)


def search_rules(deck: Deck, p_match=None, ranked: bool = False, set_aside: bool = False) -> list[str]:
    """The Search rules an answer on this deck applies: the rule and its example always; any-row cards,
    the no-match case, the ranking and the two readings about remembered cards when they come into it."""
    ids = ["rr-search", R_BASIC, "rr-search-example", R_MODEL]
    if any(g.row == ANY_ROW and g.count for g in deck.pool) or any(c.row == ANY_ROW for c in deck.known_bottom):
        ids += [R_ANY_MATCH, ANY_ROW_RULE]
    if p_match is not None and p_match < 1:
        ids.append(R_NO_MATCH)
    if ranked:
        ids.append(R_CRITERIA)
    if any(c.wanted for c in deck.known_bottom):
        ids.append(R_KNOWN_WANTED)
    if set_aside:
        ids += [R_NO_MATCH, R_SET_ASIDE]
    return list(dict.fromkeys(ids))
ROW_NAMES = {**MODEL_ROW_NAMES, ANY_ROW: "Any row"}
STATE_KEY = "rr_search"
WITHIN_DEFAULT = 10

Energy = Annotated[int, Field(strict=True, ge=1, le=7)]
Count = Annotated[int, Field(strict=True, ge=0, le=MAX_POOL_CARDS)]


# ---- request models ----------------------------------------------------------------------------

class CardIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    row: Literal["design", "fabricate", "recycle", "any"]
    energy: Energy
    label: str = Field(default="", max_length=60)
    wanted: bool = False

    def to_solver(self) -> Card:
        return Card(self.row, self.energy, self.label, self.wanted)


class GroupIn(CardIn):
    count: Count

    def to_solver(self) -> CardGroup:  # type: ignore[override]
        return CardGroup(self.row, self.energy, self.count, self.label, self.wanted)


class CriteriaIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    row: Literal["design", "fabricate", "recycle"]
    energy_min: Energy
    energy_max: Energy

    @model_validator(mode="after")
    def _order(self) -> CriteriaIn:
        if self.energy_min > self.energy_max:
            raise ValueError("energy_min must not be above energy_max")
        return self

    def to_solver(self) -> Criteria:
        return Criteria(self.row, self.energy_min, self.energy_max)


class KindIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    row: Literal["design", "fabricate", "recycle", "any"]
    energy: Energy


class DeckIn(BaseModel):
    """The deck as the player knows it: the unseen `pool` when it is known (exact odds); without it, the
    cards the table has `seen` (Search reveals, draws) build an estimate of the deck."""
    model_config = ConfigDict(extra="ignore")
    pool: list[GroupIn] | None = Field(default=None, max_length=200)
    deck_size: Count
    known_bottom: list[CardIn] = Field(default_factory=list, max_length=MAX_POOL_CARDS)
    seen: list[KindIn] = Field(default_factory=list, max_length=2 * MAX_POOL_CARDS)
    wanted: list[KindIn] = Field(default_factory=list, max_length=28)  # estimate: the kinds you want

    def estimate(self) -> Estimate | None:
        """The estimate to answer from, when no pool is given."""
        if self.pool is not None:
            return None
        return Estimate(seen=tuple(Card(c.row, c.energy) for c in self.seen), deck_size=self.deck_size,
                        known_bottom=tuple(c.to_solver() for c in self.known_bottom),
                        wanted=frozenset((w.row, w.energy) for w in self.wanted))

    def to_solver(self) -> Deck:
        if self.pool is None:
            raise bad_field("pool", "list the unseen cards (or leave the pool out for an estimate)")
        total = sum(g.count for g in self.pool)
        if total > MAX_POOL_CARDS:
            raise bad_field("pool", f"holds {total} cards; at most {MAX_POOL_CARDS} are accepted")
        if self.deck_size > total:
            raise bad_field("deck_size", f"is {self.deck_size} but the unseen pool holds only {total} cards")
        if self.deck_size == 0 and not self.known_bottom:
            raise bad_field("deck_size", "the deck is empty: give deck_size above 0 or a known bottom")
        return Deck(tuple(g.to_solver() for g in self.pool), self.deck_size,
                    tuple(c.to_solver() for c in self.known_bottom))


class OddsIn(DeckIn):
    criteria: CriteriaIn
    within: list[Annotated[int, Field(strict=True, ge=1, le=2 * MAX_POOL_CARDS)]] | None = Field(
        default=None, max_length=50)


class RecordIn(DeckIn):
    event: Literal["search", "draw"]
    criteria: CriteriaIn | None = None
    revealed: list[CardIn] = Field(default_factory=list, max_length=2 * MAX_POOL_CARDS)
    seen: CardIn | None = None


# ---- answers as JSON -----------------------------------------------------------------------------

def card_name(row: str, energy: int, label: str = "") -> str:
    name = f"{ROW_NAMES[row]} {energy}"
    return f"{name} “{label}”" if label else name


def criteria_name(c: Criteria) -> str:
    energy = str(c.energy_min) if c.energy_min == c.energy_max else f"{c.energy_min}–{c.energy_max}"
    return f"{ROW_NAMES[c.row]}, energy {energy}"


def outcome_text(o) -> str:
    if o.source == DECK:
        return f"{card_name(o.row, o.energy, o.label)} from the unknown cards"
    if o.source == KNOWN_BOTTOM:
        return f"{card_name(o.row, o.energy, o.label)}, known card #{o.position + 1}"
    return f"no match: the last card, {card_name(o.row, o.energy, o.label)}"


def odds_why(deck: Deck, odds: SearchOdds) -> str:
    c = odds.criteria
    parts = [(f"{odds.matching_in_pool} of the {odds.pool_cards} unseen cards fit {criteria_name(c)} "
             f"(any-row cards fit every row; only the basic action's energy counts).")]
    deck_part = f"The deck holds {deck.deck_size} of the unseen cards in random order"
    if deck.known_bottom:
        k = len(deck.known_bottom)
        deck_part += f", above {k} known card{'s' if k > 1 else ''}"
    parts.append(deck_part + ".")
    known = [o for o in odds.outcomes if o.source == KNOWN_BOTTOM]
    if known:
        parts.append(f"If no unknown card fits, the search reaches known card #{known[0].position + 1}, which fits.")
    elif odds.p_match < 1:
        parts.append("If nothing fits, the last card revealed is taken and the others are shuffled into a new deck.")
    return " ".join(parts)


def odds_json(deck: Deck, odds: SearchOdds, within: list[int] | None) -> dict:
    total = deck.cards_in_deck
    ns = within if within is not None else list(range(1, min(WITHIN_DEFAULT, total) + 1))
    return {
        "criteria": odds.criteria.as_dict(),
        "p_match": exact(odds.p_match),
        "expected_revealed": exact(odds.expected_revealed),
        "p_wanted": exact(odds.p_wanted),
        "outcomes": [{"row": o.row, "energy": o.energy, "label": o.label, "wanted": o.wanted, "from": o.source,
                      "p": exact(o.p), "group": o.group, "position": o.position, "text": outcome_text(o)}
                     for o in odds.outcomes],
        "p_match_within": [{"n": n, "p": exact(odds.p_match_within(n))} for n in ns],
        "matching_in_pool": odds.matching_in_pool,
        "pool_cards": odds.pool_cards,
        "deck_cards": total,
        "why": odds_why(deck, odds),
        "estimate": None,  # exact: the pool is known
        "rules": search_rules(deck, odds.p_match),
    }


def best_json(deck: Deck) -> dict:
    ranking = best_criteria(deck)
    wanted = sum(g.count for g in deck.pool if g.wanted) + sum(c.wanted for c in deck.known_bottom)
    notes = [("Ranked by the chance to take a card marked wanted, then by fewer cards revealed; "
             "criteria with the same two numbers share a rank.")]
    if not wanted:
        notes.append("No card that can come up is marked wanted, so only the number of cards revealed orders "
                     "the list.")
    return {"ranking": [{"criteria": r.criteria.as_dict(), "name": criteria_name(r.criteria), "rank": r.rank,
                         "p_wanted": exact(r.p_wanted), "p_match": exact(r.p_match),
                         "expected_revealed": exact(r.expected_revealed)} for r in ranking],
            "wanted_cards": wanted, "notes": notes, "estimate": None, "rules": search_rules(deck, ranked=True)}


def group_json(g: CardGroup) -> dict:
    return {"row": g.row, "energy": g.energy, "count": g.count, "label": g.label, "wanted": g.wanted}


def card_json(c: Card) -> dict:
    return {"row": c.row, "energy": c.energy, "label": c.label, "wanted": c.wanted}


def record(body: RecordIn) -> dict:
    deck = body.to_solver()
    if body.event == "draw":
        after = record_draw(deck, body.seen.to_solver() if body.seen else None)
        why = ("A draw: the deck lost its top card" +
               ("; you saw it, so it left the unseen pool." if body.seen else "; nobody told you what it was, "
                "so the unseen pool keeps it."))
        return {"pool": [group_json(g) for g in after.pool], "deck_size": after.deck_size,
                "known_bottom": [card_json(c) for c in after.known_bottom], "taken": None, "matched": None,
                "set_aside": [], "why": why, "rules": search_rules(deck)}
    if body.criteria is None:
        raise bad_field("criteria", "a search needs the criteria it was made with")
    done = record_search(deck, body.criteria.to_solver(), [c.to_solver() for c in body.revealed])
    taken = card_name(done.taken.row, done.taken.energy, done.taken.label)
    if done.matched:
        why = (f"Taken: {taken}. The {len(body.revealed) - 1} other revealed cards went under the known bottom "
               "in the order they came up.")
    else:
        why = (f"Nothing matched, so the last card ({taken}) was taken and the other {done.deck.deck_size} "
               "were shuffled into a new deck: they are now the whole unseen pool of the deck.")
    return {"pool": [group_json(g) for g in done.deck.pool], "deck_size": done.deck.deck_size,
            "known_bottom": [card_json(c) for c in done.deck.known_bottom], "taken": card_json(done.taken),
            "matched": done.matched, "set_aside": [group_json(g) for g in done.set_aside], "why": why,
            "rules": search_rules(deck, set_aside=not done.matched)}


# ---- JSON API ------------------------------------------------------------------------------------

def estimate_json(est: Estimate, odds: SearchOdds | None = None, within: list[int] | None = None) -> dict:
    """The estimate's answer in the shape of the exact one, labelled with what it assumes."""
    label = {"seen": len(est.seen), "assumes": est.assumes()}
    rules = ["rr-search", R_BASIC, "rr-search-example", R_MODEL, R_ESTIMATE]
    if odds is None:
        ranking = estimate_best(est)
        return {"ranking": [{"criteria": r.criteria.as_dict(), "name": criteria_name(r.criteria), "rank": r.rank,
                             "p_wanted": exact(r.p_wanted), "p_match": exact(r.p_match),
                             "expected_revealed": exact(r.expected_revealed)} for r in ranking],
                "wanted_cards": len(est.wanted), "notes": [est.assumes()], "estimate": label,
                "rules": rules + [R_CRITERIA]}
    total = est.deck_size + len(est.known_bottom)
    ns = within if within is not None else list(range(1, min(WITHIN_DEFAULT, total) + 1))
    return {
        "criteria": odds.criteria.as_dict(), "p_match": exact(odds.p_match),
        "expected_revealed": exact(odds.expected_revealed), "p_wanted": exact(odds.p_wanted),
        "outcomes": [{"row": o.row, "energy": o.energy, "label": o.label, "wanted": o.wanted, "from": o.source,
                      "p": exact(o.p), "group": None, "position": o.position, "text": outcome_text(o)}
                     for o in odds.outcomes],
        "p_match_within": [{"n": n, "p": exact(odds.p_match_within(n))} for n in ns],
        "deck_cards": total, "estimate": label, "why": est.assumes(),
        "rules": rules + ([R_NO_MATCH] if odds.p_match < 1 else []),
    }


@bp.post("/api/raising-robots/search/odds")
def api_odds():
    body = parse(OddsIn)
    est = body.estimate()
    if est is not None:
        total = est.deck_size + len(est.known_bottom)
        for i, n in enumerate(body.within or []):
            if n > total:
                raise bad_field(f"within[{i}]", f"is {n} but the deck holds only {total} cards")
        return estimate_json(est, estimate_odds(est, body.criteria.to_solver()), body.within)
    deck = body.to_solver()
    total = deck.cards_in_deck
    for i, n in enumerate(body.within or []):
        if n > total:
            raise bad_field(f"within[{i}]", f"is {n} but the deck holds only {total} cards")
    return odds_json(deck, search_odds(deck, body.criteria.to_solver()), body.within)


@bp.post("/api/raising-robots/search/best")
def api_best():
    body = parse(DeckIn)
    est = body.estimate()
    return estimate_json(est) if est is not None else best_json(body.to_solver())


@bp.post("/api/raising-robots/search/record")
def api_record():
    return record(parse(RecordIn))


# ---- the page --------------------------------------------------------------------------------------

CELL_ROWS = CARD_ROWS  # grid columns: design, fabricate, recycle, any
TOKEN = re.compile(r"^(d|f|r|a)[a-z]*-?([1-7])$")
LETTER = {"d": "design", "f": "fabricate", "r": "recycle", "a": ANY_ROW}
SHORT = {"design": "D", "fabricate": "F", "recycle": "R", "any": "A"}


def cell_key(row: str, energy: int) -> str:
    return f"{row}-{energy}"


def parse_cards(text: str, field: str) -> list[dict]:
    """Cards typed as short codes, top first: "D4 F2 A5" (Design 4, Fabricate 2, any-row 5)."""
    cards = []
    for i, token in enumerate(t for t in re.split(r"[\s,;]+", text.strip().lower()) if t):
        m = TOKEN.match(token)
        if not m:
            raise bad_field(field, f"“{token}” (card {i + 1}) is not a card: write a row letter D, F, R or A "
                                   "and the basic energy 1–7, like D4")
        cards.append({"row": LETTER[m.group(1)], "energy": int(m.group(2))})
        if len(cards) > 2 * MAX_POOL_CARDS:
            raise bad_field(field, "lists too many cards")
    return cards


def cards_text(cards: list[dict]) -> str:
    return " ".join(f"{SHORT[c['row']]}{c['energy']}" for c in cards)


ASSUMED_DECK = 20  # an estimate's deck size until the table enters its own (said on the page)


def empty_state() -> dict:
    return {"cells": {}, "deck_size": 0, "known_bottom": [],
            "criteria": {"row": "design", "energy_min": 1, "energy_max": 7}, "set_aside": {}, "seen": []}


def clean_state(raw) -> dict:
    """The page's state from the table, with anything malformed dropped (another client may write it)."""
    state, raw = empty_state(), as_dict(raw)
    cells = as_dict(raw.get("cells"))
    for row in CELL_ROWS:
        for e in ENERGIES:
            cell = cells.get(cell_key(row, e))
            if isinstance(cell, dict):
                state["cells"][cell_key(row, e)] = {"count": whole(cell.get("count"), 0, 99, 0),
                                                    "wanted": cell.get("wanted") is True}
    state["deck_size"] = whole(raw.get("deck_size"), 0, 999, 0)
    for c in as_list(raw.get("known_bottom"))[:999]:
        if isinstance(c, dict) and c.get("row") in CARD_ROWS and whole(c.get("energy"), 1, 7, 0):
            state["known_bottom"].append({"row": c["row"], "energy": c["energy"]})
    crit = as_dict(raw.get("criteria"))
    lo, hi = whole(crit.get("energy_min"), 1, 7, 0), whole(crit.get("energy_max"), 1, 7, 0)
    if crit.get("row") in ROWS and lo and hi and lo <= hi:
        state["criteria"] = {"row": crit["row"], "energy_min": lo, "energy_max": hi}
    for key, n in as_dict(raw.get("set_aside")).items():
        if whole(n, 1, 999, 0):
            state["set_aside"][key] = n
    for c in as_list(raw.get("seen"))[:2 * MAX_POOL_CARDS]:
        if isinstance(c, dict) and c.get("row") in CARD_ROWS and whole(c.get("energy"), 1, 7, 0):
            state["seen"].append({"row": c["row"], "energy": c["energy"]})
    return state


def state_from_form(form) -> tuple[dict, list[dict]]:
    """The page state a posted form describes, and the problems found (field, message)."""
    state, f = empty_state(), FormReader(form)
    problems = f.problems

    def number(name: str, low: int, high: int, default: int = 0) -> int:
        return f.int(name, low, high, default) or 0

    for row in CELL_ROWS:
        for e in ENERGIES:
            key = cell_key(row, e)
            count = number(f"c-{key}", 0, 99)
            wanted = form.get(f"w-{key}") == "1"
            if count or wanted:
                state["cells"][key] = {"count": count, "wanted": wanted}
    state["deck_size"] = number("deck_size", 0, 999)
    try:
        state["known_bottom"] = parse_cards(form.get("known_bottom", ""), "known_bottom")
    except ApiError as e:
        problems += e.fields
    try:
        state["seen"] = parse_cards(form.get("seen_cards", ""), "seen_cards")
    except ApiError as e:
        problems += e.fields
    row = form.get("row", "design")
    lo, hi = number("energy_min", 1, 7, 1), number("energy_max", 1, 7, 7)
    state["criteria"] = {"row": row if row in ROWS else "design", "energy_min": min(lo, hi), "energy_max": max(lo, hi)}
    for key, value in form.items():
        if key.startswith("aside-") and value.isdigit() and 0 < int(value) <= 999:
            state["set_aside"][key[len("aside-"):]] = int(value)
    return state, problems


def deck_body(state: dict) -> dict:
    """The API body (pool, deck_size, known_bottom) for a page state; wanted marks come from the grid."""
    cells = state["cells"]
    pool = [{"row": row, "energy": e, "count": cells[cell_key(row, e)]["count"],
             "wanted": cells[cell_key(row, e)]["wanted"]}
            for row in CELL_ROWS for e in ENERGIES if cell_key(row, e) in cells]
    kb = [{**c, "wanted": cells.get(cell_key(c["row"], c["energy"]), {}).get("wanted", False)}
          for c in state["known_bottom"]]
    return {"pool": pool, "deck_size": state["deck_size"], "known_bottom": kb}


def apply_record(state: dict, result: dict) -> dict:
    """The page state after a recorded search or draw (cells keep their wanted marks)."""
    new = {**state, "cells": {}, "deck_size": result["deck_size"],
           "known_bottom": [{"row": c["row"], "energy": c["energy"]} for c in result["known_bottom"]]}
    for key, cell in state["cells"].items():
        if cell["wanted"]:
            new["cells"][key] = {"count": 0, "wanted": True}
    for g in result["pool"]:
        key = cell_key(g["row"], g["energy"])
        cell = new["cells"].setdefault(key, {"count": 0, "wanted": state["cells"].get(key, {}).get("wanted", False)})
        cell["count"] += g["count"]
    if result["set_aside"]:
        aside = dict(state["set_aside"])
        for g in result["set_aside"]:
            key = cell_key(g["row"], g["energy"])
            aside[key] = aside.get(key, 0) + g["count"]
        new["set_aside"] = aside
    return new


def return_set_aside(state: dict) -> dict:
    new = {**state, "cells": {k: dict(v) for k, v in state["cells"].items()}, "set_aside": {}}
    for key, n in state["set_aside"].items():
        row, _, e = key.rpartition("-")
        if row in CELL_ROWS and e.isdigit() and int(e) in ENERGIES:
            new["cells"].setdefault(key, {"count": 0, "wanted": False})["count"] += n
    return new


DECK_PARTS = ("cells", "deck_size", "known_bottom", "set_aside")


def _deck(state: dict) -> dict:
    """The part of the page state a recorded search or draw is worked out from (the wanted marks aside)."""
    return {**{k: state[k] for k in DECK_PARTS}, "cells": {k: c["count"] for k, c in state["cells"].items() if c["count"]}}


def search_change(old: dict, new: dict, on_the_deck: bool):
    """The save: what the form changed, on the newest rr_search. A recorded search or draw (or cards put
    back) is worked out from the deck the page showed: when another phone changed that deck meanwhile,
    nothing is written and the page says so (Stale)."""
    items = as_one(changes(old, new), new, "criteria")

    def mutate(state: dict) -> dict:
        if on_the_deck and _deck(clean_state(state.get(STATE_KEY))) != _deck(old):
            raise Stale("Another phone changed the Search deck since this page was drawn: here it is now. "
                        "Record the search or draw again on it.")
        state[STATE_KEY] = apply_changes(dict(as_dict(state.get(STATE_KEY))), items)
        return state
    return mutate


def _grid(state: dict) -> list[dict]:
    crit = state["criteria"]
    rows = []
    for e in ENERGIES:
        cells = []
        for row in CELL_ROWS:
            cell = state["cells"].get(cell_key(row, e), {"count": 0, "wanted": False})
            fits = (row in (crit["row"], ANY_ROW)) and crit["energy_min"] <= e <= crit["energy_max"]
            cells.append({"key": cell_key(row, e), "row": row, "energy": e, "fits": fits, **cell})
        rows.append({"energy": e, "cells": cells})
    return rows


def _answers(body: dict, criteria: dict) -> tuple[dict, dict]:
    odds_in = OddsIn.model_validate({**body, "criteria": criteria})
    deck = odds_in.to_solver()
    return odds_json(deck, search_odds(deck, odds_in.criteria.to_solver()), None), best_json(deck)


def estimate_of(state: dict) -> Estimate:
    """The page's estimate of the deck when no unseen card is entered: the cards seen, the deck size
    entered (or an assumed one), the known bottom, the wanted marks of the grid."""
    wanted = frozenset((c["row"], c["energy"]) for c in (
        {"row": k.rpartition("-")[0], "energy": int(k.rpartition("-")[2])} for k, v in state["cells"].items()
        if v["wanted"]))
    return Estimate(seen=tuple(Card(c["row"], c["energy"]) for c in state["seen"]),
                    deck_size=state["deck_size"] or (0 if state["known_bottom"] else ASSUMED_DECK),
                    known_bottom=tuple(Card(c["row"], c["energy"], wanted=(c["row"], c["energy"]) in wanted)
                                       for c in state["known_bottom"]), wanted=wanted)


def _estimate_answers(state: dict) -> tuple[dict, dict]:
    est = estimate_of(state)
    odds = estimate_json(est, estimate_odds(est, CriteriaIn.model_validate(state["criteria"]).to_solver()))
    if not state["deck_size"] and not state["known_bottom"]:
        odds["estimate"]["assumed_deck"] = ASSUMED_DECK
        odds["why"] = (f"The deck size is not entered: {ASSUMED_DECK} cards are assumed. " + odds["why"])
    return odds, estimate_json(est)


def _results(state: dict) -> tuple[dict | None, dict | None, list[dict]]:
    body = deck_body(state)
    if not any(g["count"] for g in body["pool"]):  # nobody knows the deck: the odds from what was seen
        answers, problems = answer_or_problems(_estimate_answers, state)
        if answers is None:
            return None, None, problems
        odds, best = answers
        odds["outcomes"].sort(key=lambda o: -o["p"]["approx"])
        odds["p_match_within"] = trim_within(odds["p_match_within"], odds["p_match"])
        return odds, best, []
    if body["deck_size"] == 0 and not body["known_bottom"]:
        return None, None, []
    answers, problems = answer_or_problems(_answers, body, state["criteria"])
    if answers is None:
        return None, None, problems
    odds, best = answers
    odds["outcomes"].sort(key=lambda o: -o["p"]["approx"])
    odds["p_match_within"] = trim_within(odds["p_match_within"], odds["p_match"])
    return odds, best, []


def record_seen(state: dict, action: str, fields: dict) -> tuple[dict, str | None, list[dict]]:
    """A search or a draw recorded while nobody knows the deck: the cards that turned up join the cards
    seen (the estimate learns from them); a search that found nothing makes the rest a known deck."""
    try:
        est = estimate_of({**state, "deck_size": state["deck_size"] or ASSUMED_DECK})
        if action == "record-search":
            revealed = [Card(c["row"], c["energy"]) for c in parse_cards(fields["revealed"], "revealed")]
            crit = CriteriaIn.model_validate(state["criteria"]).to_solver()
            after, taken, matched = record_seen_search(est, crit, revealed)
        else:
            seen = parse_cards(fields["seen"], "seen") if action == "draw-mine" else []
            if action == "draw-mine" and len(seen) != 1:
                raise bad_field("seen", "name the one card you drew, like D4")
            if est.deck_size == 0:
                raise bad_field("deck_size", "the deck has no unknown card to draw")
            after = replace(est, deck_size=est.deck_size - 1, seen=est.seen + tuple(Card(c["row"], c["energy"]) for c in seen))
            taken, matched = None, None
    except (ApiError, SearchInputError) as err:
        fields_ = err.fields if isinstance(err, ApiError) else [{"path": err.path, "message": err.message}]
        return state, None, fields_
    new = {**state, "deck_size": after.deck_size, "seen": [{"row": c.row, "energy": c.energy} for c in after.seen],
           "known_bottom": [{"row": c.row, "energy": c.energy} for c in after.known_bottom]}
    if action != "record-search":
        return new, "A draw: the deck has one unknown card fewer" + (" and the card you saw counts as seen." if
                                                                       action == "draw-mine" else "."), []
    if matched:
        return new, (f"Taken: {card_name(taken.row, taken.energy)}. The other revealed cards went under the known "
                     "bottom, and every card revealed now counts as seen for the estimate."), []
    cells = {k: dict(v) for k, v in state["cells"].items()}
    for c in revealed[:-1]:
        cells.setdefault(cell_key(c.row, c.energy), {"count": 0, "wanted": False})["count"] += 1
    new["cells"] = cells
    return new, (f"Nothing matched: {card_name(taken.row, taken.energy)} was taken and the other {after.deck_size} "
                 "were shuffled into a new deck, so the deck is now known exactly."), []


def top_three(ranking: list[dict], criteria: dict) -> list[dict]:
    """The three criteria the page suggests: among those tied for best, the ones the player named first,
    then the narrowest ranges (they are easier to say at the table); then the rest in rank order."""
    def key(r: dict) -> tuple:
        c = r["criteria"]
        return (r["rank"], c != criteria, c["energy_max"] - c["energy_min"], c["energy_min"])
    return [{**r, "yours": r["criteria"] == criteria} for r in sorted(ranking, key=key)[:3]]


def trim_within(within: list[dict], p_match: dict) -> list[dict]:
    """The bars up to the first that reaches the overall chance of a match: the rest repeat it."""
    out = []
    for w in within:
        out.append(w)
        if w["p"]["exact"] == p_match["exact"]:
            break
    return out


@bp.route("/raising-robots/search", methods=["GET", "POST"])
def page():
    ctx = table_context("raising-robots")
    table = ctx["table"]
    problems: list[dict] = []
    note = None
    fields = {"revealed": "", "seen": ""}
    state = clean_state(state_part(table, STATE_KEY)) if table is not None else empty_state()
    if request.method == "POST":
        drawn = read_drawn(request.form) if table is not None else None
        old = clean_state(drawn) if drawn else state
        state, problems = state_from_form(request.form) if "deck_size" in request.form else (old, [])
        action = request.form.get("action", "odds")
        fields = {"revealed": request.form.get("revealed", "")[:2000], "seen": request.form.get("seen", "")[:40]}
        if action.startswith("use-") and not problems:
            parts = action.split("-")
            if len(parts) == 4 and parts[1] in ROWS and parts[2].isdigit() and parts[3].isdigit():
                lo, hi = int(parts[2]), int(parts[3])
                if 1 <= lo <= hi <= 7:
                    state["criteria"] = {"row": parts[1], "energy_min": lo, "energy_max": hi}
        elif action == "deck-all" and not problems:
            state["deck_size"] = sum(c["count"] for c in state["cells"].values())
        elif action == "return-aside" and not problems:
            state = return_set_aside(state)
            note = "The set-aside cards are back in the unseen pool."
        elif action in ("record-search", "draw-other", "draw-mine") and not problems and not any(
                c["count"] for c in state["cells"].values()):
            state, note, more = record_seen(state, action, fields)
            problems += more
            if not more:
                fields = {"revealed": "", "seen": ""}
        elif action in ("record-search", "draw-other", "draw-mine") and not problems:
            try:
                body = deck_body(state)
                if action == "record-search":
                    body |= {"event": "search", "criteria": state["criteria"],
                             "revealed": parse_cards(fields["revealed"], "revealed")}
                else:
                    seen = parse_cards(fields["seen"], "seen") if action == "draw-mine" else []
                    if action == "draw-mine" and len(seen) != 1:
                        raise bad_field("seen", "name the one card you drew, like D4")
                    body |= {"event": "draw", "seen": seen[0] if seen else None}
            except ApiError as err:
                problems += err.fields
            else:
                result, record_problems = answer_or_problems(lambda: record(RecordIn.model_validate(body)))
                problems += record_problems
                if result is not None:
                    state = apply_record(state, result)
                    note = result["why"]
                    fields = {"revealed": "", "seen": ""}
        if table is not None and not problems:
            on_the_deck = action in ("record-search", "draw-other", "draw-mine", "return-aside")
            table = ctx["table"] = save(table, search_change(old, state, on_the_deck))
            state = clean_state(state_part(table, STATE_KEY))
    odds, best, result_problems = _results(state)
    rules = list(RULES)
    for answer in (odds, best):
        rules += [i for i in (answer or {}).get("rules", []) if i not in rules]
    if state["set_aside"]:
        rules += [i for i in (R_NO_MATCH, R_SET_ASIDE) if i not in rules]
    pool_cards = sum(c["count"] for c in state["cells"].values())
    return render_template(
        "raising_robots/search.html", state=state, grid=_grid(state), rows=CELL_ROWS, row_names=ROW_NAMES,
        short=SHORT, known_text=cards_text(state["known_bottom"]), odds=odds, best=best,
        top_best=top_three(best["ranking"], state["criteria"]) if best else [], problems=problems + result_problems, note=note,
        fields=fields, pool_cards=pool_cards, aside_total=sum(state["set_aside"].values()),
        seen_text=cards_text(state["seen"]), problem_text=problem_text, assumed_deck=ASSUMED_DECK,
        rules=rules, rule_titles=rule_titles(ALL_RULES), version=table.version if table is not None else "",
        drawn=drawn_json(state),
        **ctx), (400 if request.method == "POST" and (problems or result_problems) else 200)
