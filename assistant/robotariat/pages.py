"""Rise of the Robotariat pages: the board page in game order (this module), the board editor and the
guided entry of the printed board (editor.py), the game data and the objectives (facts.py). Views
parse, call and render: the table's state model is schemas.RobotariatTable (read by state.from_stored),
actions are actions.parse_action's models applied by state.apply (the table actions by the solvers'
reducer), drawing is present.py.

Every page is a form posting to itself: the view applies the action (web.save: a change on the newest
state, or a solver's answer on the version it was worked out for) and renders the whole page; with
JavaScript, tablebot.js sends the same request in the background and swaps in the page's live parts.
Not at a table, the page holds the state in one hidden field (`_state`, data-carry) that goes with
every request. A secret objective (`_seat`, `_objective`) comes with this phone's requests only and
is never saved. `POST /api/robotariat/tables/<id>/action` and `POST /api/robotariat/action` apply
the same actions as JSON.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from flask import Blueprint, render_template, request, url_for
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from solvers.errors import InputError
from solvers.robotariat import gamedata
from solvers.robotariat.objectives import NAMES as OBJECTIVE_NAMES
from solvers.robotariat.objectives import OBJECTIVES

from .. import rules
from ..api import ApiError, bad_field
from ..api import parse as api_parse
from ..db import engine
from ..tables import private_models, store
from ..web import context as page_helpers
from ..web import save
from ..web.context import as_dict, as_list
from ..web.forms import shown_version
from ..web.page import CARRIED, Page, posted_json
from . import actions as A
from . import api as rb_api
from . import present
from . import state as rb_state
from .present import CHARACTERS, FACES, KINDS, board_view, free_slots, option_line

bp = Blueprint("robotariat", __name__)

GAME = "robotariat"
DATA = gamedata.DEFAULTS
SUGGEST_LIMIT = A.SUGGEST_LIMIT


def _int(value: Any, lo: int, hi: int, default: int) -> int:
    if isinstance(value, bool):
        return default
    try:
        v = int(value)
    except (TypeError, ValueError, OverflowError):
        return default
    return max(lo, min(hi, v))


def _choice(value: Any, options: Any) -> str | None:
    """`value` when it is one of `options` (stored values may be lists or objects: never hash them)."""
    return value if isinstance(value, str) and value in options else None


# ---- game data (the solver package's defaults file, with sources) ----------------------------

def defaults() -> dict[str, Any]:
    """Dice, Office Rewards, starting Reputation, SPARK targets and the example board, as the solver
    package ships them (`json` keeps the whole answer of GET /api/robotariat/defaults, sources included)."""
    d = gamedata.defaults_json()
    return {"dice": {"black": list(d["dice"]["black"]), "red": list(d["dice"]["red"])},
            "office_rewards": list(d["office_rewards"]["values"]),
            "starting_reputation": dict(d["starting_reputation"]["by_players"]),
            "spark_target": dict(d["spark_target"]["by_players"]),
            "board": {k: d["board"][k] for k in ("spaces", "links", "yellow_next", "blue_next")},
            "json": d}


def normalize(raw: Any, players: int, names: list[str] | None = None) -> dict[str, Any]:
    """The `robotariat` key of a table as the pages use it (the model's JSON form); never raises."""
    return rb_state.value(rb_state.from_stored(raw, players, names))


def entered(state: dict[str, Any]) -> int:
    """How many NPCs of the entry track are on the board."""
    return len(state["oppressors"]) + len(state["civilians"])


def next_npc(state: dict[str, Any]) -> str | None:
    """The NPC the entry track gives next, or None when all six have entered."""
    return DATA.next_npc(entered(state))


OUTCOMES = A.OUTCOMES
PLAY_ACTIONS = {m.model_fields["do"].annotation.__args__[0] for m in A.PLAY + A.CARDS}
EDIT_ACTIONS = {m.model_fields["do"].annotation.__args__[0] for m in A.EDITOR}
DATA_ACTIONS = {m.model_fields["do"].annotation.__args__[0] for m in A.DATA_ACTIONS}
ACTIONS = set(A.DOS)
FORECAST_MORE = "forecast_more"  # the board page's "play out more games": samples, saves nothing


def api_body(rb: dict[str, Any], private_cards: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """The request body of the Robotariat API (api.md) for this table; `private_cards`: this phone's own
    secret cards (A1-5's setup card), for its own answers only."""
    st = rb["state"]
    body = {"players": len(st["players"]), "board": rb["board"], "dice": rb["data"]["dice"],
            "office_rewards": rb["data"]["office_rewards"],
            "state": {"oppressors": st["oppressors"], "civilians": st["civilians"],
                      "players": [{k: v for k, v in p.items() if v is not None} for p in st["players"]],
                      "active": st["active"], "posters": st["posters"], "junk": st["junk"], "funds": st["funds"],
                      "reputation": st["reputation"], "office": st["office"], "entry": st["entry"],
                      "round": st["round"]}}
    if rb["cards"] or private_cards:
        body["cards"] = rb["cards"] + (private_cards or [])
    return json.loads(json.dumps({**body, **extra}))


def _solve(fn: Any, body: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    try:
        return fn(body), None
    except ApiError as e:
        return None, e.message


def option_turn(t: Any, n: int, objective: dict[str, Any] | None = None,
                private_cards: list[dict[str, Any]] | None = None) -> tuple[A.PlayTurn, str]:
    """The n-th suggested turn for the table (the board page's list, weighing the objective and the
    phone's own secret cards the page weighed) as the player's turn and its headline."""
    extra = {"objective": objective} if objective else {}
    out, err = _solve(rb_api.suggest_json, api_body(rb_state.value(t), private_cards, limit=SUGGEST_LIMIT, **extra))
    if out is None:
        raise InputError("option", err or "no suggestions for this table")
    if not 0 <= n < len(out["options"]):
        raise InputError("option", "pick one of the suggested turns")
    o = out["options"][n]
    turn = A.PlayTurn.model_validate({"do": "play_turn", "move_to": o["move_to"], "activate": o["activate"],
                                      "extra": o["extra"]})
    return turn, o["headline"]


def apply_action(rb: dict[str, Any], act: dict[str, Any], players: int, names: list[str],
                 objective: dict[str, Any] | None = None,
                 private_cards: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A copy of the `robotariat` value with one action applied (InputError when it can't be). The one
    implementation of what a tap, a form or the JSON action endpoint changes."""
    t = rb_state.from_stored(rb, players, names)
    return rb_state.value(rb_state.apply(t, A.parse_action(act), players, names,
                                         lambda table, n: option_turn(table, n, objective, private_cards)))


def with_round(state: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The table's state with `robotariat` replaced by `after`; when that changed the Robotariat round, the
    table page's shared round (`table.round`) follows, so both pages show the same round."""
    out = {**state, GAME: after}
    if after["state"]["round"] != before["state"]["round"]:
        out["table"] = {**as_dict(state.get("table")), "round": after["state"]["round"]}
    return out


# ---- one request: the table (or the carried state), the action posted, what to render ----------

CHANGED = {"npc": "The table changed since this forecast was made, so nothing was applied: here is the forecast "
                  "for the table as it is now, tap your roll again.",
           "sg": "The table changed since these suggestions were made, so nothing was applied: here they are for "
                 "the table as it is now, tap your choice again.",
           "entry": "The table changed since this round start was worked out, so nothing was applied: here it is "
                    "for the table as it is now, tap “Start round” again."}


class Seen(Page[rb_state.RobotariatTable]):
    """What a page shows, through the shared page machinery (web.page.Page): the table (None: not at one),
    its Robotariat value as the pages use it (`rb`, from `normalize`), the seats (`players`, `names`,
    `phone_seat`), and how the posted action went (`error`: the form's problem, shown at the top;
    `status`: the answer's). Not at a table, the value travels in the one carried field (`_state`)."""

    def __init__(self) -> None:
        self.error: InputError | None = None
        self.done: str | None = None  # the action applied
        self.headers: dict[str, str] = {}
        super().__init__(GAME, rb_state.RobotariatTable, GAME, min_seats=3, max_seats=5)
        self.players = self.count
        self.names = self.names if self.table is not None else []
        raw = page_helpers.state_part(self.table, GAME) if self.table is not None else posted_json(CARRIED)
        self.rb = normalize(raw, self.players, self.names)

    def read_state(self) -> rb_state.RobotariatTable:
        return rb_state.RobotariatTable()  # the pages read `rb` (normalize), which knows the seats

    def carried_count(self) -> int:
        n = request.values.get("players")
        if n is None:
            n = len(as_list(as_dict(as_dict(posted_json(CARRIED)).get("state")).get("players"))) or None
        return _int(n, 3, 5, 3)

    def read_private(self) -> dict[str, Any]:
        """This phone's own seat's secret cards (Electric Eye's peek, A1-5's setup card), at a table only;
        the secret objective stays in the phone's browser (web/private.py), never on the server."""
        if self.table is None or self.phone_seat is None:
            return {}
        return private_models.read(GAME, store.read_private(engine(), self.table, self.phone_seat))

    def private_cards(self) -> list[dict[str, Any]]:
        """This phone's secret cards that answers count (A1-5's setup card), as the API's `cards`."""
        card = self.private.get("setup_card")
        if not card or self.phone_seat is None or self.phone_seat >= self.players:
            return []
        if on_table(self.rb, self.phone_seat) is not None:  # one card from setup counts: the one the table shows
            return []
        return [{**card, "seat": self.phone_seat, "setup": True, "deck": "upgrade"}]


def on_table(rb: dict[str, Any], seat: int) -> int | None:
    """Where A1-5's card from setup is in the table's card list (shown to the table), or None."""
    return next((i for i, c in enumerate(rb["cards"]) if c["setup"] and c["seat"] == seat), None)


def table_seats(table: store.TableRecord) -> tuple[int, list[str]]:
    """How many players a table has (3 to 5) and their names: what the JSON endpoints of a table read."""
    players = max(3, min(5, table.players))
    return players, page_helpers.seat_names(table, players)


def read() -> Seen:
    """The page's table (`?table=`) and its Robotariat value, or the value the page carried."""
    return Seen()


def form_action(form: Any) -> dict[str, Any]:
    """A form post as an action dict: plain fields, `x[]`-style lists, `a.b` and `a.b.2` nested."""
    act: dict[str, Any] = {}
    for key in form:
        if key in ("table", "version", "players") or key.startswith("_"):
            continue
        values = form.getlist(key)
        if key.endswith("[]"):
            act[key[:-2]] = values
        elif "." in key:  # dice.black.0 -> nested
            head, _, rest = key.partition(".")
            act.setdefault(head, {})
            if isinstance(act[head], dict):
                sub, _, idx = rest.partition(".")
                if idx:
                    act[head].setdefault(sub, [None] * 6)
                    if idx.isdigit() and int(idx) < 6:
                        act[head][sub][int(idx)] = values[-1]
                else:
                    act[head][sub] = values[-1]
        else:
            act[key] = values[-1]
    if act.get("do") == "import" and "board" not in act:
        act["board"] = _uploaded_board(str(act.pop("board_text", "") or ""))
    if act.get("do") == "import" and "layout" not in act and isinstance(act.get("board"), dict) \
            and "board" in act["board"]:
        act["layout"] = act["board"].get("layout")
    return act


def _uploaded_board(text: str) -> Any:
    upload = request.files.get("board_file")
    if upload is not None and upload.filename:
        text = upload.read(64 * 1024).decode("utf-8", "replace")
    if not text.strip():
        raise InputError("board_text", "paste the board's JSON or pick a file")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise InputError("board_text", "this is not valid JSON") from None


def act(seen: Seen, allowed: set[str], objective: dict[str, Any] | None = None,
        resolve: Any = None, private_cards: list[dict[str, Any]] | None = None) -> Seen:
    """Apply the posted action (a POST without `do` only renders: a page refetching what it shows).
    `resolve(seen, act)`: turns an action the view looks things up for (a board by join code) into one
    the state applies."""
    if request.method != "POST" or not request.form.get("do"):
        return seen
    try:
        action = form_action(request.form)
        do = _choice(action.get("do"), allowed)
        if do is None:
            raise InputError("do", "this page cannot do that")
        if resolve is not None:
            action = resolve(seen, action)
        seen.done = do
        if seen.table is None:
            seen.rb = apply_action(seen.rb, action, seen.players, seen.names, objective, private_cards)
            return seen
        players, names = seen.players, seen.names

        def mutate(state: dict[str, Any]) -> dict[str, Any]:
            before = normalize(state.get(GAME), players, names)
            return with_round(state, before, apply_action(before, action, players, names, objective, private_cards))

        if do in OUTCOMES:  # a solver's answer: only on the version it was worked out for
            version = shown_version(request.form) or seen.table.version
            seen.table = save.save_answer(seen.table, version, mutate)
        else:
            seen.table = save.save_change(seen.table, mutate)
        seen.rb = normalize(page_helpers.state_part(seen.table, GAME), players, names)
    except InputError as e:
        seen.status, seen.error, seen.done = 400, e, None
    except save.Stale as stale:
        seen.table, seen.status, seen.done = stale.current, 409, None
        seen.rb = normalize(page_helpers.state_part(stale.current, GAME), seen.players, seen.names)
        save.notice("conflict", CHANGED[OUTCOMES[action["do"]]])
    except store.Conflict:
        seen.status, seen.error = 409, InputError("do", "the table kept changing on other phones; try again")
    return seen


def rule_titles() -> dict[str, str]:
    """Titles of the Robotariat rule entries, for links that read as words rather than ids."""
    return {e.id: e.title for e in rules.books()[GAME].entries}


def page_meta() -> dict[str, Any]:
    """The readings' words and the rule titles the templates name answers with."""
    return {"rule_titles": rule_titles(),
            "readings": {r["id"]: {"title": r["title"], "text": r["text"], "entry": r["entry"]}
                         for r in rb_api.readings_json()["readings"]}}


def carry_json(rb: dict[str, Any]) -> str:
    """Not at a table, the page's one copy of the value: compact, without the parts at their defaults."""
    return rb_state.RobotariatTable.model_validate(rb).model_dump_json(exclude_defaults=True)


def common(seen: Seen) -> dict[str, Any]:
    """What every Robotariat template uses."""
    rb = seen.rb
    return {"table": seen.table, "table_id": seen.table.id if seen.table else None, "tid": seen.table.id if seen.table else None,
            "rb": rb, "error": seen.error, "kinds": KINDS, "characters": CHARACTERS, "faces": FACES,
            "meta": page_meta(), "rule_titles": rule_titles(), "gamedata": DATA,
            "players_count": seen.players, "carry_json": carry_json(rb) if seen.table is None else "",
            "poster_supply": DATA.poster_supply, "objective_names": OBJECTIVE_NAMES}


def render(template: str, seen: Seen, **extra: Any):
    return render_template(template, **common(seen), **extra), seen.status, seen.headers


# ---- the board page -----------------------------------------------------------------------------

HEATS = {
    "oppressor_reach": "an Oppressor moves onto it in the next k NPC turns",
    "oppressor_present": "an Oppressor stands on it after k NPC turns",
    "civilian_reach": "a Civilian Robot moves onto it in the next k NPC turns",
    "entry": "the NPC Entry token is on it after k NPC turns",
}


def forecasts(rb: dict[str, Any], turns: int, heat: str, objective: dict[str, Any] | None = None,
              private_cards: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Everything the board page shows from the solvers, each with the API's message when it can't.
    `objective`: this phone's player's secret objective, weighed in the suggestions (never stored);
    `private_cards`: this phone's own secret cards, counted in its answers only."""
    out: dict[str, Any] = {"turns": turns, "heat_kind": heat, "heat": None}
    if not rb["board"]["spaces"]:
        msg = "Enter the board first."
        return {**out, "npc_error": msg, "suggest_error": msg, "look_error": msg, "entry_error": msg,
                "npc": None, "suggest": None, "look": None, "entry": None}
    body = api_body(rb, private_cards)
    out["npc"], out["npc_error"] = _solve(rb_api.npc_turn_json, body)
    mine = {"objective": objective} if objective else {}
    out["suggest"], out["suggest_error"] = _solve(rb_api.suggest_json, {**body, "limit": SUGGEST_LIMIT, **mine})
    out["look"], out["look_error"] = _solve(rb_api.lookahead_json, {**body, "turns": turns})
    row = DATA.entry_row(entered(rb["state"]))
    if row is not None:
        out["entry"], out["entry_error"] = _solve(rb_api.round_start_json, {**body, "row": row})
    else:
        out["entry"], out["entry_error"] = None, None
    if out["look"]:
        out["heat"] = {sid: float(v[heat]["approx"]) for sid, v in out["look"]["spaces"].items()}
    return out


@dataclass
class Mine:
    """This phone's own player and secret objective (the private form), for this answer only."""
    seat: int | None
    objective: str | None
    body: dict[str, Any] | None  # the /suggest `objective` when it applies to the active player now
    note: str = ""
    taken: bool = False  # the seat is the one this phone holds at the table (not chosen on the form)


def mine(rb: dict[str, Any], players: int, phone_seat: int | None = None) -> Mine:
    """Read `_seat` and `_objective` from this request (query or form): the private form sends them with
    every request this phone makes. They are never saved with the table."""
    seat_raw = request.values.get("_seat", "")
    seat = int(seat_raw) if seat_raw.isascii() and seat_raw.isdecimal() and int(seat_raw) < players else None
    if phone_seat is not None and phone_seat < players:  # at a table, the phone is its seat
        seat = phone_seat
    objective = _choice(request.values.get("_objective"), OBJECTIVES)
    out = Mine(seat, objective, None, taken=phone_seat is not None and seat == phone_seat)
    if objective is None:
        return out
    if objective == "gambler" and players < DATA.gambler_min_players:
        out.note = "The Gambler is not used with 3 players, so the advice does not weigh it."
        return out
    if seat is None:
        out.note = "Say which player this phone is, and the advice on your turn weighs your objective."
        return out
    if seat != rb["state"]["active"]:
        out.note = (f"Kept on this phone only. The advice weighs it on your turn "
                    f"({seat + 1}. {rb['state']['players'][seat]['name']}).")
        return out
    body: dict[str, Any] = {"id": objective}
    if objective == "bursar":  # whether the track has reached the Bursar's amount is the table's history
        body["reached"] = max(rb["office_track"] or [0]) >= DATA.bursar_threshold[players]
    out.body = body
    return out


def game_order(rb: dict[str, Any], fc: dict[str, Any]) -> dict[str, Any]:
    """Where the game stands in its order (rulebook "Round Order"): the round start due or not, who has
    played this round, whether the active player has played, the next player; the best turn's line."""
    st = rb["state"]
    n = len(st["players"])
    out: dict[str, Any] = {"round": st["round"], "rounds": DATA.max_rounds, "ended": None, "pending": False,
                           "can_start": False, "turn_played": turn_played(rb), "waiting": [],
                           "next_npc": next_npc(st), "next_row": entered(st) + 1,
                           "last_round": st["round"] >= DATA.max_rounds or entered(st) >= len(DATA.entry_track),
                           "entry_name": next((s["name"] for s in rb["board"]["spaces"] if s["id"] == st["entry"]), "?"),
                           "next_name": st["players"][(st["active"] + 1) % n]["name"] if n else "",
                           "nothing_differs": False, "best_line": ""}
    try:
        solved = rb_state.solved(rb_state.from_stored(rb, n, [p["name"] for p in st["players"]]))
    except InputError:
        return out
    g, gr = solved.game, solved.setting.game
    played = g.played_this_round()
    out.update(ended=g.state.ended, pending=g.round_start_due(gr), can_start=g.round_can_start(gr),
               waiting=[p["name"] for i, p in enumerate(st["players"]) if i not in played])
    sg = fc.get("suggest")
    if sg and sg["options"]:
        best = sg["options"][0]
        out["nothing_differs"] = best["tied_with"] + 1 == sg["count"] and not float(
            best["expected"]["future_donations"]["approx"]) and "objective" not in sg
        out["best_line"] = "After the NPC turn: " + option_line(best["expected"]) + "."
        for o in sg["options"]:
            o["line"] = option_line(o["expected"])
    return out


def turn_played(rb: dict[str, Any]) -> bool:
    """The active player has done a suggested turn already (the NPC turn they conduct comes next)."""
    st, log = rb["state"], rb["log"]
    return bool(log) and log[-1]["turn"] == "player" and log[-1]["round"] == st["round"] \
        and log[-1]["player"] == st["active"]


def play_status(rb: dict[str, Any]) -> dict[str, Any]:
    """The tracks and counts the board page shows above and below the board."""
    st = rb["state"]
    on_board = sum(st["posters"].values())
    return {"round": st["round"], "rounds": DATA.max_rounds, "funds": st["funds"],
            "target": DATA.spark_target[len(st["players"])], "reputation": st["reputation"],
            "office": st["office"], "junk": st["junk"], "entered": entered(st), "track": len(DATA.entry_track),
            "next_npc": next_npc(st), "posters_on_board": on_board,
            "posters_left": DATA.poster_supply - on_board - st["junk"], "played": turn_played(rb)}


GAME_FORECAST_BUDGET_MS = 150  # what one view of the forecast spends on the whole-game forecast
GAME_FORECAST_REFINE_MS, GAME_FORECAST_REFINE_AFTER_MS = 400, 1500  # while the page stays open, every 1.5 s
GAME_FORECAST_REFINED = 0.05  # the open page stops refining at +-5 points (95 %)
GAME_FORECAST_MORE_MS, GAME_FORECAST_MORE_RUNS = 1000, 400  # "play out more games" (no request holds longer)
GAME_FORECAST_SHOWN_RUNS = 30  # games each table a roll leads to gets while the dice are rolled
GAME_FORECAST_PEEK_MS = 10  # the kept games only (the least budget the API takes)


def game_forecast(rb: dict[str, Any], order: dict[str, Any], budget_ms: int,
                  until_runs: int | None = None, private_cards: list[dict[str, Any]] | None = None
                  ) -> dict[str, Any] | None:
    """The whole-game forecast of the table (its games kept for every later view), or None."""
    if order["ended"] or not rb["board"]["spaces"]:
        return None
    body = {**api_body(rb, private_cards), "next": "npc_turn" if order["turn_played"] else "player_turn"}
    gf, _ = _solve(lambda b: rb_api.game_forecast_json(b, budget_ms=budget_ms, until_runs=until_runs), body)
    return gf


def forecast_fetch(gf: dict[str, Any] | None, table: Any) -> dict[str, Any] | None:
    """Where the page fetches the forecast from, and when: at once when the page has none yet, then again
    while the estimate is wider than +-5 points (the games are kept, so each fetch narrows it)."""
    url = url_for("robotariat.play_forecast", table=table.id if table else None)
    if gf is None:
        return {"url": url, "after": 0}
    if gf["method"] == "exact" or gf["stopped"] != "time":
        return None
    lo, hi = gf["p_success"]["interval"]
    return {"url": url, "after": GAME_FORECAST_REFINE_AFTER_MS} if (hi - lo) / 2 > GAME_FORECAST_REFINED else None


@bp.route("/robotariat/", methods=["GET", "POST"])
def play():
    seen = read()
    more = request.method == "POST" and request.form.get("do") == FORECAST_MORE
    me = mine(seen.rb, seen.players, seen.phone_seat)
    if request.method == "POST" and request.form.get("do") in SECRET_ACTIONS:
        save_secret(seen, request.form)
    elif not more:
        seen = act(seen, PLAY_ACTIONS | set(OUTCOMES), me.body, private_cards=seen.private_cards())
        me = mine(seen.rb, seen.players, seen.phone_seat)  # the turn may have passed to another player
    rb = seen.rb
    turns = _int(request.values.get("k"), 1, 12, 3)
    heat = request.values.get("heat") if request.values.get("heat") in HEATS else "oppressor_reach"
    fc = forecasts(rb, turns, heat, me.body, seen.private_cards())
    view = board_view(rb, heat=fc["heat"] if request.values.get("show_heat") == "1" else None)
    order = game_order(rb, fc)
    # the forecast is worked out in its own request (the page fetches it at once), so the page comes fast;
    # "play out more games" (the form without scripts) works it out here
    gf = game_forecast(rb, order, GAME_FORECAST_MORE_MS, GAME_FORECAST_MORE_RUNS,
                       seen.private_cards()) if more else None
    return render("robotariat/play.html", seen, view=view, fc=fc, heats=HEATS, order=order, gf=gf, me=me,
                  cards=present.cards_view(rb), secret=secret_view(seen), effect_form=present.effect_form(rb),
                  status=play_status(rb), entry_track=DATA.entry_track, next_npc=next_npc(rb["state"]),
                  target=DATA.spark_target[seen.players], show_heat=request.values.get("show_heat") == "1",
                  gf_fetch=None if order["ended"] else forecast_fetch(gf, seen.table),
                  objectives=OBJECTIVES, here=url_for("robotariat.play", table=seen.table.id if seen.table else None))


@bp.route("/robotariat/forecast", methods=["GET", "POST"])
def play_forecast():
    """The board page's "Will we make it?" part alone: the page fetches it after it has shown, and again
    while the estimate narrows. Saves nothing."""
    seen = read()
    rb = seen.rb
    order = {"ended": None, "turn_played": turn_played(rb)}
    mine_cards = seen.private_cards()
    if request.values.get("refine") != "1":
        gf = game_forecast(rb, order, GAME_FORECAST_BUDGET_MS, private_cards=mine_cards)
        fetch = forecast_fetch(gf, seen.table) if gf is not None else None
    else:
        # while the dice are being rolled (the active player has played), the tables each roll leads to
        # get their games first, once this table's estimate shows; then this table's estimate narrows
        rolls_ready = True
        gf = game_forecast(rb, order, GAME_FORECAST_PEEK_MS if order["turn_played"] else GAME_FORECAST_REFINE_MS,
                           private_cards=mine_cards)
        if gf is not None and order["turn_played"] and gf["method"] != "exact":
            if gf["runs"] < GAME_FORECAST_SHOWN_RUNS:  # this table's own games first; the rolls' next time
                gf = game_forecast(rb, order, GAME_FORECAST_REFINE_MS, private_cards=mine_cards)
                rolls_ready = gf is None or gf["method"] == "exact"
            else:
                body = {**api_body(rb, mine_cards), "next": "npc_turn"}
                try:
                    ready, total = rb_api.forecast_next_rolls(body, GAME_FORECAST_REFINE_MS, GAME_FORECAST_SHOWN_RUNS)
                except ApiError:
                    ready = total = 0
                rolls_ready = ready >= total
                if rolls_ready:
                    gf = game_forecast(rb, order, GAME_FORECAST_REFINE_MS, private_cards=mine_cards)
        fetch = forecast_fetch(gf, seen.table) if gf is not None else None
        if fetch is None and not rolls_ready:
            fetch = {"after": GAME_FORECAST_REFINE_AFTER_MS}
    if fetch is not None:
        fetch["url"] = url_for("robotariat.play_forecast", table=seen.table.id if seen.table else None, refine=1)
    return render("robotariat/forecast_part.html", seen, gf=gf, gf_fetch=fetch,
                  here=url_for("robotariat.play", table=seen.table.id if seen.table else None))


# ---- this phone's secret cards: its seat's private state (Electric Eye's peek, A1-5's setup card) --------

SECRET_ACTIONS = {"peek", "setup_card", "show_setup_card"}
SECRET_OF = {"peek": "electric_eye", "setup_card": "a1_5", "show_setup_card": "a1_5"}


def secret_view(seen: Seen) -> dict[str, Any] | None:
    """What the secret-cards part shows this phone: its own seat's secret, or None (no seat, or a character
    without one). Never another seat's."""
    if seen.table is None or seen.phone_seat is None or seen.phone_seat >= seen.players:
        return None
    character = seen.rb["state"]["players"][seen.phone_seat]["character"]
    if character not in SECRET_OF.values():
        return None
    card = seen.private.get("setup_card")
    shown = on_table(seen.rb, seen.phone_seat)
    return {"seat": seen.phone_seat, "character": character, "peek": (list(seen.private.get("peek") or []) + ["", ""])[:2],
            "card": card, "words": present.effect_words(seen.rb, (card or {}).get("effect")), "shown": shown,
            "shown_name": seen.rb["cards"][shown]["name"] if shown is not None else None}


def save_secret(seen: Seen, form: Any) -> None:
    """Keep this phone's secret cards in its seat's private state (only its own phone reads it back)."""
    do = form.get("do")
    try:
        if seen.table is None or seen.phone_seat is None:
            raise InputError("do", "take your seat at a table first: the cards are kept on its phone only")
        seat = seen.phone_seat
        if seen.rb["state"]["players"][seat]["character"] != SECRET_OF[do]:
            raise InputError("do", "only " + ("Electric Eye peeks at the Sabotage deck" if do == "peek"
                                              else "A1-5 draws an Upgrade card at setup"))
        if do != "peek" and on_table(seen.rb, seat) is not None:
            raise InputError("do", "a card from setup is on the table already: remove it from the table's cards "
                                   "first if it is not yours")
        if do == "show_setup_card":
            seen.table = save.save_private_change(seen.table, [seat], _shown(seen, seat))
            seen.refresh()
            seen.rb = normalize(page_helpers.state_part(seen.table, GAME), seen.players, seen.names)
            seen.done = do
            return
        if do == "peek":
            change: dict[str, Any] = {"peek": [form.get(f"peek.{i}", "").strip()[:60] for i in range(2)]}
            change["peek"] = [n for n in change["peek"] if n]
        else:
            raw = form_action(form)
            card = {"seat": seat, "deck": "upgrade", "name": (raw.get("name") or "").strip()[:60] or "Upgrade card",
                    "setup": True, "played": False,
                    "effect": A._effect_form(raw.get("effect")) if isinstance(raw.get("effect"), dict) else None}
            try:
                checked = rb_state.Card.model_validate(card)
            except ValidationError as err:
                e = err.errors()[0]
                raise InputError(".".join(str(x) for x in e["loc"]) or "effect",
                                 e["msg"].removeprefix("Value error, ")) from None
            change = {"setup_card": checked.model_dump(mode="json")}

        def mutate(state: dict[str, Any], privates: dict[int, dict[str, Any]]):
            return state, {seat: {**privates.get(seat, {}), **change}}

        seen.table = save.save_private_change(seen.table, [seat], mutate)
        seen.refresh()
        seen.rb = normalize(page_helpers.state_part(seen.table, GAME), seen.players, seen.names)
        seen.done = do
    except InputError as e:
        seen.status, seen.error = 400, e
    except store.Conflict:
        seen.status, seen.error = 409, InputError("do", "the table kept changing on other phones; try again")


def _shown(seen: Seen, seat: int) -> Any:
    """A1-5 shows its setup card to the table: the card leaves the seat's private state and joins the table's
    card list (as "from setup": it still counts for no objective, Character Abilities), so every phone's
    answers count it and the table applies its effect; one saved version does both."""
    players, names = seen.players, seen.names

    def mutate(state: dict[str, Any], privates: dict[int, dict[str, Any]]):
        mine = {**privates.get(seat, {})}
        raw = mine.pop("setup_card", None)
        if not isinstance(raw, dict):
            raise InputError("do", "keep A1-5's card first: there is no card to show")
        card = rb_state.Card.model_validate(raw)
        before = normalize(state.get(GAME), players, names)
        add = A.ShowSetupCard(do="show_setup_card", seat=seat, name=card.name, played=card.played, effect=card.effect)
        t = rb_state.apply(rb_state.from_stored(before, players, names), add, players, names)
        return with_round(state, before, rb_state.value(t)), {seat: mine}
    return mutate


# ---- the JSON form of the same actions -------------------------------------------------------------

ANSWER_PAGES = ("play", "editor", "data", "objectives")


def board_check(rb: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The API's board check (validate_board_json), or the message of its 400."""
    if not rb["board"]["spaces"]:
        return {"ok": False, "errors": [{"path": "board.spaces", "message": "the board needs at least one space"}],
                "warnings": [], "summary": None, "rules": []}, None
    try:
        return rb_api.validate_board_json({"board": rb["board"]}), None
    except ApiError as e:
        return None, e.message


def objectives_body(rb: dict[str, Any]) -> dict[str, Any]:
    """The objectives request: the table, its log of applied turns, the office track and the facts."""
    log = [{k: e[k] for k in ("round", "player", "turn", "junked", "office")} for e in rb["log"]]
    # the cards entered by name count (api_body sends them), else the typed numbers
    return api_body(rb, log=log, office_track=rb["office_track"], facts=rb["facts"])


def objectives_result(rb: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    if not rb["board"]["spaces"]:
        return None, "Enter the board first."
    return _solve(rb_api.objectives_json, objectives_body(rb))


def answer(rb: dict[str, Any], page: str, table: store.TableRecord | None = None) -> dict[str, Any]:
    """The normalized `robotariat` value and what `page` shows of it (the board drawing, the tracks, the API
    body, the board check, the objectives), for the JSON action endpoints."""
    out: dict[str, Any] = {"version": table.version if table else None, "code": table.code if table else None,
                           "robotariat": rb}
    if page == "play":
        out.update(view=board_view(rb), status=play_status(rb), body=api_body(rb))
    elif page == "editor":
        check, check_error = board_check(rb)
        out.update(view=board_view(rb, slots=True), check=check, check_error=check_error,
                   slots=free_slots(rb["layout"]))
    elif page == "objectives":
        out["objectives"], out["objectives_error"] = objectives_result(rb)
    return out


class ActionIn(BaseModel):
    """POST /api/robotariat/tables/<id>/action: one action (as the page's forms post it) on the table;
    `version`: the table's version the page showed (needed for a solver's answer: roll, enter, do_option);
    `page`: which page's values to answer with."""
    model_config = ConfigDict(extra="ignore")
    action: dict[str, Any]
    version: int | None = Field(default=None, ge=1, strict=True)
    page: Literal[ANSWER_PAGES] = "play"  # type: ignore[valid-type]


class CarriedActionIn(ActionIn):
    """POST /api/robotariat/action: the same, not at a table: the value it is applied to comes along."""
    robotariat: dict[str, Any] = Field(default_factory=dict)
    players: int = Field(default=3, ge=3, le=5, strict=True)


def _table_or_404(table_id: str) -> store.TableRecord:
    table = store.get(engine(), table_id) if len(table_id) <= 64 else None
    if table is None or table.game != GAME:
        raise ApiError(404, "not_found", "No Robotariat table has this id.")
    return table


def _action_error(e: InputError) -> ApiError:
    return bad_field(f"action.{e.path}", e.message)


@bp.post("/api/robotariat/tables/<table_id>/action")
def api_table_action(table_id: str):
    req = api_parse(ActionIn)
    table = _table_or_404(table_id)
    players, names = table_seats(table)
    outcome = _choice(req.action.get("do"), OUTCOMES)
    if outcome and req.version is None:
        raise bad_field("version", "give the table's version the answer was worked out for")
    if _choice(req.action.get("do"), ("copy_board",)):
        raise bad_field("action.do", "copy a board on the board editor page (it looks the join code up)")

    def mutate(state: dict[str, Any]) -> dict[str, Any]:
        before = normalize(state.get(GAME), players, names)
        return with_round(state, before, apply_action(before, req.action, players, names))

    try:
        saved = save.save_answer(table, req.version, mutate) if outcome else save.save_change(table, mutate)
    except InputError as e:
        raise _action_error(e) from None
    except save.Stale as stale:
        newer = normalize(page_helpers.state_part(stale.current, GAME), players, names)
        raise ApiError(409, "conflict", CHANGED[OUTCOMES[outcome]],
                       extra={"answer": answer(newer, req.page, stale.current)}) from None
    return answer(normalize(page_helpers.state_part(saved, GAME), players, names), req.page, saved)


@bp.get("/api/robotariat/tables/<table_id>")
def api_table(table_id: str):
    """The table's `robotariat` value and a page's values; `?since=<version>`: only whether it changed."""
    table = _table_or_404(table_id)
    if request.args.get("since") == str(table.version):
        return {"version": table.version, "changed": False}
    players, names = table_seats(table)
    page = _choice(request.args.get("page"), ANSWER_PAGES) or "play"
    return {**answer(normalize(page_helpers.state_part(table, GAME), players, names), page, table), "changed": True}


@bp.post("/api/robotariat/action")
def api_action():
    req = api_parse(CarriedActionIn)
    if _choice(req.action.get("do"), ("copy_board",)):
        raise bad_field("action.do", "copy a board on the board editor page (it looks the join code up)")
    try:
        rb = apply_action(normalize(req.robotariat, req.players), req.action, req.players, [])
    except InputError as e:
        raise _action_error(e) from None
    return answer(rb, req.page)

