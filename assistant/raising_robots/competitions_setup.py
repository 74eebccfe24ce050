"""The competitions setup page (/raising-robots/competitions/setup): deal one card of each competition; in
solo and 2-player games place the upgrade tokens on the round tracker; each seat's inventor with its setup
changes and the Friendship cards to take out of the deck; at each round's end, which tiles turn over and the
table's round moves on (state.table.round)."""
from __future__ import annotations

from flask import Blueprint, render_template, request
from werkzeug.datastructures import MultiDict

from solvers.raising_robots import competitions_setup as setup
from solvers.raising_robots.competitions import COMP_NAMES, COMP_TYPES
from solvers.raising_robots.competitions_data import GAME_DATA

from . import present
from . import state as rr
from .answers import inventors_answer, run_setup
from .page_state import PageState
from .present import TOKEN_LABELS
from .requests import SetupIn
from .schemas import ROUNDS

bp = Blueprint("rr_competitions_setup", __name__)

SETUP_PAGE_RULES = ["rr-competitions-friendships-changes-to-setup", "rr-setup-solo-2p-tokens",
                    "rr-solo-2p-gameplay-changes", "rr-flip-tile-round-end", "rr-important-same-round-same-side",
                    "rr-competition-card-and-tile-overview"]


def deal(players: int, outcome: dict) -> rr.Mutate:
    """A new game's deal (random: worked out once, then kept): the table goes back to round 1."""
    dealt = run_setup(SetupIn(players=players))

    def fn(part: dict, rnd: int) -> int:
        part["competitions"].update(
            cards=dict(dealt.cards), sides=dealt.sides,
            tracker=[{"round": s.round, "token_type": s.token_type} for s in dealt.spots],
            completed_this_round=[], completed_round=None, players=players)
        outcome["note"] = "Dealt one card of each competition; every tile shows its A side; the table is on round 1."
        return 1
    return rr.changing(fn)


@bp.route("/raising-robots/competitions/setup", methods=["GET", "POST"])
def setup_page():
    ps = PageState()
    note = None
    events, caught_up = ps.events, bool(ps.events)
    if request.method == "POST":
        do = request.form.get("do", "")
        shown_round = ps.shown_round()
        form = request.form
        if ps.comps.players == 0 and form.get("competitions.players", "").strip() == str(ps.count):
            # the table's own count, shown: it stays the table's (0) until another count is typed
            form = MultiDict([(k, v) for k, v in form.items(multi=True) if k != "competitions.players"])
        ps.fields(form)
        outcome: dict = {}
        players = ps.comps.players or ps.count
        if not ps.problems and do == "deal":
            ps.change(deal(players, outcome))
        elif not ps.problems and do == "round-end":
            if shown_round >= ROUNDS:
                ps.problem("", f"Round {shown_round} is the last: the game ends after it.")
            elif not ps.answer(rr.end_round(outcome)) and ps.round != shown_round:
                ps.problem("", f"Round {shown_round} is already over (another phone ended it): the table is on round "
                               f"{ps.round}. Check the tiles below before ending this one.")
        elif not ps.problems and do == "sides":
            outcome["note"] = "Tile sides saved."
        if outcome:
            note = outcome.get("note")
            if do in ("deal", "round-end"):
                events, caught_up = outcome.get("events", []), False
    players = ps.comps.players or ps.count
    planner_args = {"card": list(ps.comps.in_play().values()),
                    **{f"side-{t}": "B" for t in COMP_TYPES if getattr(ps.comps.sides, t) == "B"}}
    rules = SETUP_PAGE_RULES if players <= 2 else [i for i in SETUP_PAGE_RULES if "solo" not in i]
    inventors = inventors_answer([ps.state.seat(i).inventor.name for i in range(ps.count)])
    rules = [*rules, *(r for r in inventors.rules if r not in rules)]
    return render_template(
        "raising_robots/competitions_setup.html", comps=ps.comps, players=players, events=events,
        caught_up=caught_up, rounds=ROUNDS, note=note, data=GAME_DATA, comp_types=COMP_TYPES, comp_names=COMP_NAMES,
        token_labels=TOKEN_LABELS, tile_of=setup.tile_of, rule_titles=present.rule_titles(rules),
        planner_args=planner_args, setup_rules=rules, inventors=inventors,
        top=present.with_label([p for p in ps.problems if not p.path.startswith(("competitions.players", "seats."))],
                               ps.state), **ps.context()), ps.status
