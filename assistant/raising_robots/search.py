"""The Search odds page (/raising-robots/search; rulebook "New Actions > Search"): what a Search will turn
up and which criteria to name. The deck the table knows (`search` of the table state) is edited by
fields named by paths; a recorded search or draw is an answer worked out from the deck shown, applied
only on that version."""
from __future__ import annotations

import re
from dataclasses import replace

from flask import Blueprint, render_template, request

from solvers.errors import InputError
from solvers.exact import exact
from solvers.raising_robots.search_odds import (
    Card,
    Estimate,
    SearchInputError,
    estimate_odds,
    record_seen_search,
    search_odds,
)

from ..web.problems import Problem, plain
from . import present
from . import state as rr
from .answers import (
    ALL_RULES,
    R_NO_MATCH,
    R_SET_ASIDE,
    ROW_NAMES,
    RULES,
    BestAnswer,
    OddsAnswer,
    Recorded,
    best_answer,
    card_name,
    criteria_name,
    estimate_best_answer,
    outcome_text,
    recorded_deck,
    top_three,
    trim_within,
)
from .page_state import PageState
from .schemas import CARD_ROWS, RaisingRobotsState, card_codes, codes_text

bp = Blueprint("rr_search", __name__)
ASSUMED_DECK = 20  # an estimate's deck size until the table enters its own (said on the page)
SHORT = {"design": "D", "fabricate": "F", "recycle": "R", "any": "A"}
FIELDS = {"_revealed": "revealed", "_drawn": "seen"}


def _cards(text: str, field: str) -> list[dict]:
    try:
        return card_codes(text)  # type: ignore[return-value]
    except ValueError as err:
        raise SearchInputError(field, str(err)) from None


def estimate_of(state: RaisingRobotsState, deck_size: int | None = None) -> Estimate:
    """The estimate of the deck when no unseen card is entered: the cards seen, the deck size entered (or
    an assumed one), the known bottom, the wanted marks of the grid."""
    deck = state.search
    wanted = frozenset((k.rsplit("-", 1)[0], int(k.rsplit("-", 1)[1])) for k, c in deck.cells.items() if c.wanted)
    size = deck.deck_size or (0 if deck.known_bottom else ASSUMED_DECK) if deck_size is None else deck_size
    return Estimate(seen=tuple(Card(c.row, c.energy) for c in deck.seen), deck_size=size,
                    known_bottom=tuple(Card(c.row, c.energy, wanted=(c.row, c.energy) in wanted)
                                       for c in deck.known_bottom), wanted=wanted)


def results(state: RaisingRobotsState) -> tuple[OddsAnswer | None, BestAnswer | None, list]:
    """The odds of a search with the criteria named, and the best criteria: exact on a known pool, else
    estimated from the cards seen."""
    deck = state.search
    try:
        if not deck.pool_cards():
            est = estimate_of(state)
            return (OddsAnswer(estimate_odds(est, deck.criteria.to_solver()), est=est), estimate_best_answer(est),
                    [])
        if deck.deck_size == 0 and not deck.known_bottom:
            return None, None, []
        known = deck.to_solver()
        return OddsAnswer(search_odds(known, deck.criteria.to_solver()), deck=known), best_answer(known), []
    except SearchInputError as err:
        head = err.path.split(".")[0].split("[")[0]
        return None, None, [Problem(f"search.{head}" if head in ("deck_size", "known_bottom", "criteria") else "",
                                    plain(err.message))]


def _with_deck(part: dict, after: Recorded) -> None:
    """The deck after a recorded search or draw: the unseen counts, deck size and known bottom (the
    wanted marks stay), and what was set aside."""
    deck = part["search"]
    for cell in deck["cells"].values():
        cell["count"] = 0
    for g in after.deck.pool:
        deck["cells"][f"{g.row}-{g.energy}"]["count"] += g.count
    deck["deck_size"] = after.deck.deck_size
    deck["known_bottom"] = [{"row": c.row, "energy": c.energy} for c in after.deck.known_bottom]
    for g in after.set_aside:
        key = f"{g.row}-{g.energy}"
        deck["set_aside"][key] = deck["set_aside"].get(key, 0) + g.count


def recorded(state: RaisingRobotsState, do: str, form) -> tuple[rr.Mutate, str]:
    """A search or a draw recorded on the deck shown: the change it makes, and what happened in words.
    Raises SearchInputError (a field's problem) or ValidationError."""
    deck = state.search
    revealed = _cards(form.get("_revealed", "")[:2000], "_revealed")
    drawn = _cards(form.get("_drawn", "")[:40], "_drawn") if do == "draw-mine" else []
    if do == "draw-mine" and len(drawn) != 1:
        raise SearchInputError("_drawn", "name the one card you drew, like D4")
    if not deck.pool_cards():  # nobody knows the deck: the cards that turned up join the cards seen
        est = estimate_of(state, deck.deck_size or ASSUMED_DECK)
        if do == "record-search":
            cards = [Card(c["row"], c["energy"]) for c in revealed]
            crit = deck.criteria.to_solver()
            after, taken, matched = record_seen_search(est, crit, cards)
        else:
            if est.deck_size == 0:
                raise SearchInputError("search.deck_size", "the deck has no unknown card to draw")
            after = replace(est, deck_size=est.deck_size - 1,
                            seen=est.seen + tuple(Card(c["row"], c["energy"]) for c in drawn))
            taken = matched = None

        def fn(part: dict, rnd: int) -> None:
            s = part["search"]
            s["deck_size"] = after.deck_size
            s["seen"] = [{"row": c.row, "energy": c.energy} for c in after.seen]
            s["known_bottom"] = [{"row": c.row, "energy": c.energy} for c in after.known_bottom]
            if do == "record-search" and not matched:
                for c in revealed[:-1]:
                    s["cells"][f"{c['row']}-{c['energy']}"]["count"] += 1
        if do != "record-search":
            return rr.changing(fn), ("A draw: the deck has one unknown card fewer"
                                     + (" and the card you saw counts as seen." if do == "draw-mine" else "."))
        if matched:
            return rr.changing(fn), (f"Taken: {card_name(taken.row, taken.energy)}. The other revealed cards went "
                                     "under the known bottom, and every card revealed now counts as seen for the estimate.")
        return rr.changing(fn), (f"Nothing matched: {card_name(taken.row, taken.energy)} was taken and the other "
                                 f"{after.deck_size} were shuffled into a new deck, so the deck is now known exactly.")
    seen = Card(drawn[0]["row"], drawn[0]["energy"]) if drawn else None
    after = recorded_deck(deck.to_solver(), deck.criteria.to_solver(),
                          [Card(c["row"], c["energy"]) for c in revealed] if do == "record-search" else None, seen)
    return rr.changing(lambda part, rnd: _with_deck(part, after)), after.why


def record_field(path: str) -> str:
    """An API path of a recorded search or draw ("revealed.0", "seen") as the page's field."""
    if path.startswith(("_", "search.")):
        return path
    head = path.split(".")[0]
    if head in FIELDS.values():
        return next(k for k, v in FIELDS.items() if v == head)
    return f"search.{head}" if head in ("deck_size", "known_bottom", "criteria") else ""


def return_set_aside(part: dict, rnd: int) -> None:
    deck = part["search"]
    for key, n in deck["set_aside"].items():
        if key in deck["cells"]:
            deck["cells"][key]["count"] += n
    deck["set_aside"] = {}


def use_criteria(row: str, lo: int, hi: int) -> rr.Mutate:
    def fn(part: dict, rnd: int) -> None:
        part["search"]["criteria"] = {"row": row, "energy_min": lo, "energy_max": hi}
    return rr.changing(fn)


def all_in_deck(part: dict, rnd: int) -> None:
    deck = part["search"]
    deck["deck_size"] = sum(c["count"] for c in deck["cells"].values())


@bp.route("/raising-robots/search", methods=["GET", "POST"])
def page():
    ps = PageState()
    note = None
    typed = {"_revealed": "", "_drawn": ""}
    if request.method == "POST":
        form = request.form
        do = form.get("do", "")
        typed = {k: form.get(k, "")[:2000] for k in typed}
        ps.fields(form)
        if ps.problems:
            pass
        elif do.startswith("use-"):
            parts = do.split("-")
            if len(parts) == 4 and parts[1] in ROW_NAMES and parts[1] != "any" and parts[2].isdecimal() \
                    and parts[3].isdecimal() and 1 <= int(parts[2]) <= int(parts[3]) <= 7:
                ps.change(use_criteria(parts[1], int(parts[2]), int(parts[3])))
        elif do == "deck-all":
            ps.change(rr.changing(all_in_deck))
        elif do == "return-aside":
            if ps.answer(rr.changing(return_set_aside)):
                note = "The set-aside cards are back in the unseen pool."
        elif do in ("record-search", "draw-other", "draw-mine"):
            # worked out from the deck this phone showed; applied only on that version (409 otherwise)
            try:
                mutate_text = recorded(ps.shown_state(), do, form)
            except InputError as err:
                mutate_text = None
                ps.problem(record_field(re.sub(r"\[(\d+)\]", r".\1", err.path)), plain(err.message))
            if mutate_text is not None and ps.answer(mutate_text[0]):
                note, typed = mutate_text[1], {"_revealed": "", "_drawn": ""}
    odds, best, result_problems = results(ps.state)
    ps.problems += result_problems
    if result_problems and ps.status == 200:
        ps.status = 400  # what was entered cannot be: said under its field, as the API's 400 would
    rules = list(RULES)
    for answer in (odds, best):
        rules += [i for i in (answer.rules if answer else []) if i not in rules]
    deck = ps.state.search
    if deck.set_aside:
        rules += [i for i in (R_NO_MATCH, R_SET_ASIDE) if i not in rules]
    shown = {"search.deck_size", "search.seen", "search.known_bottom", "_revealed", "_drawn"}
    return render_template(
        "raising_robots/search.html", deck=deck, grid=present.search_grid(ps.state), rows=CARD_ROWS,
        row_names=ROW_NAMES, short=SHORT, odds=odds, best=best, note=note, typed=typed, exact=exact,
        outcomes=sorted(odds.odds.outcomes, key=lambda o: -exact(o.p)["approx"]) if odds else [],
        within=trim_within(odds.within_bars, odds.odds.p_match) if odds else [],
        outcome_text=outcome_text, criteria_name=criteria_name,
        top_best=top_three(best.ranking, deck.criteria.to_solver()) if best else [],
        pool_cards=deck.pool_cards(), aside_total=sum(deck.set_aside.values()), codes_text=codes_text,
        assumed_deck=ASSUMED_DECK, rules=rules, rule_titles=present.rule_titles(ALL_RULES),
        cell_problems=present.with_label([p for p in ps.problems if p.path.startswith("search.cells.")], ps.state),
        top=present.with_label([p for p in ps.problems if p.path not in shown
                                and not p.path.startswith("search.cells.")], ps.state),
        **ps.context()), ps.status
