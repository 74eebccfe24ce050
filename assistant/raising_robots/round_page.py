"""The round page (/raising-robots/round): the table's round (the marker, the break at round 5, the
2-player dummy's card), each seat's Round Preparation (its two energy cards and the phase under each, the
batteries it spends), the cubes every seat's cards put on the board, and for the seat shown (this phone's)
the phases it performs with their Total Energy and why; the standings if the game ended now. Everything
is in the table state (RaisingRobotsState), saved through the page machinery; every phone follows it."""
from __future__ import annotations

from flask import Blueprint, render_template, request
from werkzeug.datastructures import MultiDict

from solvers.errors import InputError
from solvers.raising_robots import energy, rounds, scoring
from solvers.raising_robots.abilities import not_taken_note

from ..web.problems import Problem, from_input_error
from . import present, round_secret
from . import state as rr
from .page_state import PageState
from .round_secret import draft, held_seats, hidden_from_me, public_prep, secret_mode
from .schemas import ROUNDS, BoardCubes, DummyCard, RoundPrep
from .standings import for_table, standings_of

bp = Blueprint("rr_round", __name__)
bp.app_template_global("rr_table_standings")(for_table)  # the table page's Raising Robots part
ROUND_RULES = (rounds.RULE_ROUNDS, energy.RULE_TOTAL, energy.RULE_USE, rounds.RULE_BREAK, rounds.RULE_DUMMY,
               rounds.RULE_ROUND_END, energy.RULE_ENERGY_CARDS, energy.RULE_WILLIAM, scoring.RULE_FINAL_SCORE,
               scoring.RULE_END_SCORING)
ROUND_FIELDS = (".prep.", "dummy.", "board.")


def prepare_round(ps: PageState):
    """`save_form`'s prepare: the seats and tile flips (as every page), and each seat's preparation and the
    dummy's card stamped with the table's round (what was kept for an earlier round starts blank)."""
    base, rnd = ps.prepare(), ps.round

    def prepare(part: dict) -> dict:
        part = base(part)
        for seat in part["seats"]:
            if not isinstance(seat.get("prep"), dict) or seat["prep"].get("round") != rnd:
                seat["prep"] = RoundPrep(round=rnd).model_dump(mode="json")
        if not isinstance(part.get("dummy"), dict) or part["dummy"].get("round") != rnd:
            part["dummy"] = DummyCard(round=rnd).model_dump(mode="json")
        if not isinstance(part.get("board"), dict) or part["board"].get("round") != rnd:
            part["board"] = BoardCubes(round=rnd).model_dump(mode="json")
        return part
    return prepare


def _page_path(i: int, path: str) -> str:
    """The solver's field ("cards[1].phase", "bonuses.design") as the page names it."""
    if path.startswith("bonuses"):
        return f"seats.{i}.energy_bonuses" + path[len("bonuses"):]
    return f"seats.{i}.prep.{path}"


def seat_energy(ps: PageState, i: int, board: dict[str, int], prep: RoundPrep) -> tuple[energy.RoundEnergy | None,
                                                                                          list[Problem]]:
    seat = ps.state.seat(i)
    try:
        result = energy.round_phases([c.to_solver() for c in prep.entered()], board,
                                     prep.batteries.given(), seat.energy_bonuses.given(), seat.who())
    except InputError as err:
        return None, [Problem(_page_path(i, p.path) if p.path else "", p.message) for p in from_input_error(err)]
    return result, []


def view_model(ps: PageState) -> dict:
    facts = rounds.round_facts(ps.round, ps.count)
    dummy = ps.state.dummy_in(ps.round)
    secret, hidden = secret_mode(ps), hidden_from_me(ps)
    card_prep = draft(ps) if secret else public_prep(ps, ps.seat)
    entered = [public_prep(ps, i).entered() for i in range(ps.count)]
    if secret:
        entered[ps.seat] = card_prep.entered()  # this phone's own cubes, known to it alone until the reveal
    extra = ps.state.board_in(ps.round).extra
    board = rounds.board_cubes([[c.to_solver() for c in cards] for cards in entered],
                               dummy.phase or None, facts.dummy_cubes or 0, extra.given())
    held = held_seats(ps)
    status = []
    for i in range(ps.count):
        prep = public_prep(ps, i)
        if i in held and not prep.revealed:
            status.append("assigned" if prep.ready else "choosing")
        else:
            status.append("in" if len(entered[i]) >= energy.CARDS_A_ROUND else "to enter")
    waiting = [ps.names[i] for i in range(ps.count) if status[i] != "in"]
    if facts.dummy_cubes is not None and not dummy.phase:
        waiting.append("the dummy’s card")
    result, problems = (None, []) if hidden else seat_energy(ps, ps.seat, board, card_prep)
    seat = ps.state.seat(ps.seat)
    # before the reveal the seat's planned batteries are in its draft, on its own phone only
    prep = seat.prep_in(ps.round)
    if secret:
        prep = prep.model_copy(update={"batteries": card_prep.batteries})
    notes = list(result.notes) if result else []
    if result is not None:
        taken = [t for t in result.abilities if t.ability not in ("ada", "john")]
        more = [t.ability.capitalize() for t in result.abilities if t.ability in ("ada", "john")]
        note = not_taken_note(taken, "energy answer")
        if note:
            notes.append(note)
        if more:
            notes.append(f"{' and '.join(more)}: this page takes two cards; a further Phase Card is not taken into "
                         "account here (the energy API takes up to five).")
        spent = prep.spent
        owed = sum(max(0, p.batteries - getattr(spent, p.phase)) for p in result.phases)
        in_hand = seat.inventory.battery
        if owed > in_hand:
            notes.append(f"{owed} {'battery' if owed == 1 else 'batteries'} to spend, {in_hand} in the inventory now: "
                         "a battery gained during a phase "
                         "counts only from the next phase on, so check the later phases.")
        elif owed:
            notes.append(f"{owed} of the {in_hand} batteries held still to spend: tap Spend as each phase starts, "
                         "and they leave the inventory (Undo on the table page gives them back).")
    rows, unscored = standings_of(ps.state, ps.names)
    energy_rules = list(dict.fromkeys(r for p in result.phases for r in p.rules)) if result else [energy.RULE_TOTAL]
    return {"facts": facts, "dummy": dummy, "board": board, "extra": extra, "waiting": waiting, "energy": result,
            "energy_problems": problems, "energy_rules": energy_rules, "energy_notes": notes,
            "prep": prep, "card_prep": card_prep, "cur": seat,
            "secret": secret, "hidden": hidden, "status": status,
            "standings": rows, "unscored": unscored, "william": seat.who().inventor == "william",
            "entered_count": sum(len(e) >= energy.CARDS_A_ROUND for e in entered)}


def spend(ps: PageState, phase: str) -> str | None:
    """"<Phase> starts: spend N batteries": the batteries entered for the phase (as the answer counts them)
    leave the seat's inventory, through the table's reducer; a note, or a problem naming the field."""
    if secret_mode(ps):
        # spending shows every phone which phases the seat performs: its cards are not revealed yet
        ps.problem("", "Batteries are spent once the cards are revealed: tap “Assigned: reveal with the others” "
                       "first.")
        return None
    result = view_model(ps)["energy"]
    done = next((p for p in result.phases if p.phase == phase), None) if result else None
    if done is None or not done.batteries:
        ps.problem("", "No batteries to spend on this phase: it is not performed, or it runs twice.")
        return None
    try:
        ps.change(rr.spend_batteries(ps.seat, phase, done.batteries, ps.count))
    except InputError as err:
        ps.problem(_page_path(ps.seat, err.path), err.message[:1].upper() + err.message[1:] + ".")
        return None
    left = ps.state.seat(ps.seat).inventory.battery
    return (f"{energy.PHASE_NAMES[phase]}: {done.batteries} {'battery' if done.batteries == 1 else 'batteries'} "
            f"spent, {left} left in the inventory.")


def kept_spent(ps: PageState, form: MultiDict) -> MultiDict:
    """The form without a phase's batteries lowered below what the seat already spent on it (a problem
    naming the field instead). Spent batteries were paid when the phase started (Total Energy, player aid:
    the total is fixed then) and are back in the supply, so typing a smaller number cannot return them;
    a tap made by mistake is undone on the table page, which gives them back."""
    s = f"seats.{ps.seat}.prep.batteries."
    spent = ps.state.seat(ps.seat).prep_in(ps.round).spent
    drop = set()
    for key in form.keys():
        if key.startswith(s) and key[len(s):] in energy.PHASES:
            had, value = getattr(spent, key[len(s):]), form.getlist(key)[-1].strip()
            if had and value.isdecimal() and int(value) < had:
                ps.problem(key, f"{had} already spent; undo to get them back.")
                drop.add(key)
    if not drop:
        return form
    return MultiDict([(k, v) for k, v in form.items(multi=True) if k not in drop])


@bp.route("/raising-robots/round", methods=["GET", "POST"])
def round_page():
    ps = PageState()
    note = None
    if request.method == "POST":
        do = request.form.get("do", "")
        shown_round = ps.shown_round()
        form = request.form
        if ps.table is not None and shown_round != ps.round:
            # another phone moved the round on: this form's cards were for the round before
            kept = MultiDict([(k, v) for k, v in form.items(multi=True) if not any(s in k for s in ROUND_FIELDS)])
            if len(kept) != len(form):
                note = (f"The table is on round {ps.round} now (another phone ended round {shown_round}): the cards "
                        f"entered for round {shown_round} were not saved. Enter this round’s cards below.")
            form = kept
        form = kept_spent(ps, form)
        cards = {}
        if secret_mode(ps):
            form, cards = round_secret.split_form(ps, form)
        ps.fields(form, prepare_round(ps))
        if cards and not ps.problems and secret_mode(ps):
            round_secret.save_draft(ps, cards)
        if not ps.problems and do.startswith("spend-"):
            note = spend(ps, do.removeprefix("spend-"))
        if not ps.problems and do == "reveal":
            note = round_secret.reveal(ps)
        if not ps.problems and do == "round-end":
            outcome: dict = {}
            if shown_round >= ROUNDS:
                ps.problem("", f"Round {shown_round} is the last: the game ends after it.")
            elif not ps.answer(rr.end_round(outcome)) and ps.round != shown_round:
                ps.problem("", f"Round {shown_round} is already over (another phone ended it): the table is on round "
                               f"{ps.round}.")
            else:
                note = outcome.get("note")
                if rounds.round_facts(ps.round, ps.count).break_now:
                    note = (note or "") + " The break: draw 3 Class Cards and keep 1, and shuffle all 8 energy cards."
    vm = view_model(ps)
    if vm["energy_problems"]:
        ps.problems += [p for p in vm["energy_problems"] if p not in ps.problems]
        if request.method == "POST":
            ps.status = 400
    s = f"seats.{ps.seat}"
    shown = {f"{s}.prep.cards.{k}.{f}" for k in range(2) for f in ("phase", "energy", "cubes", "multiplier", "twice")}
    shown |= {f"{s}.prep.batteries.{p}" for p in energy.PHASES} | {f"{s}.energy_bonuses.{p}" for p in energy.PHASES}
    shown |= {"dummy.phase", f"{s}.inventory.vp"} | {f"board.extra.{p}" for p in energy.PHASES}
    return render_template(
        "raising_robots/round.html", phases=energy.PHASES, phase_names=energy.PHASE_NAMES, rounds_total=ROUNDS,
        note=note, rule_titles=present.rule_titles(ROUND_RULES), round_rules=ROUND_RULES,
        top=present.with_label([p for p in ps.problems if p.path not in shown], ps.state), **vm,
        **ps.context()), ps.status
