"""Rise of the Robotariat pages: the board with the table's pieces, the board editor, game data,
forecast and suggestions, and the end-of-game objectives. Views parse, call and render: the table's
state model is schemas.RobotariatTable (read by state.from_stored), actions are actions.parse_action's
models applied by state.apply (the table actions by the solvers' reducer), drawing is present.py.

Without JS every page is a form posting to itself, which applies the action and renders the same
solver functions the API calls. With JS the page's script posts the action to
`POST /api/robotariat/tables/<id>/action` (or `POST /api/robotariat/action` with the value it holds,
not at a table) and draws the `answer`: the value and what the page shows of it.
`GET /api/robotariat/tables/<id>?page=&since=` tells the script about other phones' changes.
"""
from __future__ import annotations

import json
import re
from typing import Any, Literal

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from pydantic import BaseModel, ConfigDict, Field

from solvers.errors import InputError
from solvers.robotariat import gamedata
from solvers.robotariat.game import entry_pending
from solvers.robotariat.objectives import NAMES as OBJECTIVE_NAMES
from solvers.robotariat.objectives import OBJECTIVES, junked_per_turn

from .. import rules
from ..api import ApiError, bad_field
from ..api import parse as api_parse
from ..db import engine
from ..tables import store
from ..web import context as page_helpers
from ..web.context import as_dict, as_list
from . import actions as A
from . import api as rb_api
from . import state as rb_state
from .present import BOX_H, CHARACTERS, FACES, KINDS, MARGIN, board_view, free_slots, option_line

bp = Blueprint("robotariat", __name__)

GAME = "robotariat"
DATA = gamedata.DEFAULTS
SUGGEST_LIMIT = A.SUGGEST_LIMIT


# ---- helpers that never raise on bad stored data ----------------------------------------------

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


def option_turn(t: Any, n: int) -> tuple[A.PlayTurn, str]:
    """The n-th suggested turn for the table (the board page's list) as the player's turn and its headline."""
    out, err = _solve(rb_api.suggest_json, api_body(rb_state.value(t), limit=SUGGEST_LIMIT))
    if out is None:
        raise InputError("option", err or "no suggestions for this table")
    if not 0 <= n < len(out["options"]):
        raise InputError("option", "pick one of the suggested turns")
    o = out["options"][n]
    turn = A.PlayTurn.model_validate({"do": "play_turn", "move_to": o["move_to"], "activate": o["activate"],
                                      "extra": o["extra"]})
    return turn, o["headline"]


def apply_action(rb: dict[str, Any], act: dict[str, Any], players: int, names: list[str]) -> dict[str, Any]:
    """A copy of the `robotariat` value with one action applied (InputError when it can't be). The one
    implementation of what a tap, a form or the JSON action endpoint changes."""
    t = rb_state.from_stored(rb, players, names)
    return rb_state.value(rb_state.apply(t, A.parse_action(act), players, names, option_turn))


# ---- the solvers, through the API's functions (the same answers the JSON API gives) ------------

HEATS = {
    "oppressor_reach": "an Oppressor moves onto it in the next k NPC turns",
    "oppressor_present": "an Oppressor stands on it after k NPC turns",
    "civilian_reach": "a Civilian Robot moves onto it in the next k NPC turns",
    "entry": "the NPC Entry token is on it after k NPC turns",
}


def api_body(rb: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The request body of the Robotariat API (api.md) for this table."""
    st = rb["state"]
    body = {"players": len(st["players"]), "board": rb["board"], "dice": rb["data"]["dice"],
            "office_rewards": rb["data"]["office_rewards"],
            "state": {"oppressors": st["oppressors"], "civilians": st["civilians"],
                      "players": [{k: v for k, v in p.items() if v is not None} for p in st["players"]],
                      "active": st["active"], "posters": st["posters"], "junk": st["junk"], "funds": st["funds"],
                      "reputation": st["reputation"], "office": st["office"], "entry": st["entry"],
                      "round": st["round"]}}
    return json.loads(json.dumps({**body, **extra}))


def _solve(fn: Any, body: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    try:
        return fn(body), None
    except ApiError as e:
        return None, e.message


def forecasts(rb: dict[str, Any], turns: int, heat: str) -> dict[str, Any]:
    """Everything the board page shows from the solvers, each with the API's message when it can't."""
    out: dict[str, Any] = {"turns": turns, "heat_kind": heat, "heat": None}
    if not rb["board"]["spaces"]:
        msg = "Enter the board first."
        return {**out, "npc_error": msg, "suggest_error": msg, "look_error": msg, "entry_error": msg,
                "npc": None, "suggest": None, "look": None, "entry": None}
    body = api_body(rb)
    out["npc"], out["npc_error"] = _solve(rb_api.npc_turn_json, body)
    out["suggest"], out["suggest_error"] = _solve(rb_api.suggest_json, {**body, "limit": SUGGEST_LIMIT})
    for i, o in enumerate((out["suggest"] or {}).get("options", [])):
        o["n"] = i  # its place in the list: what the no-JS "Do this" form posts
    out["look"], out["look_error"] = _solve(rb_api.lookahead_json, {**body, "turns": turns})
    st = rb["state"]
    row = DATA.entry_row(entered(st))
    if row is not None:
        out["entry"], out["entry_error"] = _solve(rb_api.round_start_json, {**body, "row": row})
    else:
        out["entry"], out["entry_error"] = None, None
    if out["look"]:
        out["heat"] = {sid: float(v[heat]["approx"]) for sid, v in out["look"]["spaces"].items()}
    return out


# ---- page plumbing ------------------------------------------------------------------------------

def _seats(table: store.TableRecord | None, raw: Any) -> tuple[int, list[str]]:
    """How many players and their names: the table's, or (not at a table) what the form carried."""
    if table is not None:
        players = max(3, min(5, table.players))
        return players, page_helpers.seat_names(table, players)
    n = request.values.get("players")
    if n is None:
        n = len(as_list(as_dict(as_dict(raw).get("state")).get("players"))) or None
    return _int(n, 3, 5, 3), []


def _carried_state() -> Any:
    """Not at a table, the forms carry the whole `robotariat` value in a hidden field."""
    text = request.form.get("state_json")
    if not text:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _form_action(form: Any) -> dict[str, Any]:
    """A form post as an action dict: plain fields, `x[]`-style lists, and a JSON `action` field."""
    if form.get("action_json"):
        try:
            act = json.loads(form["action_json"])
        except (ValueError, RecursionError):
            raise InputError("action_json", "not valid JSON") from None
        if not isinstance(act, dict):
            raise InputError("action_json", "an object is expected")
        return act
    act: dict[str, Any] = {}
    for key in form:
        if key in ("state_json", "table", "version", "players"):
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


def with_round(state: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The table's state with `robotariat` replaced by `after`; when that changed the Robotariat round, the
    table page's shared round (`table.round`) follows, so both pages show the same round."""
    out = {**state, "robotariat": after}
    if after["state"]["round"] != before["state"]["round"]:
        out["table"] = {**as_dict(state.get("table")), "round": after["state"]["round"]}
    return out


class TableChanged(Exception):
    """The table moved on after the page showed the answer being applied: nothing was saved."""

    def __init__(self, table: store.TableRecord):
        super().__init__("the table changed")
        self.table = table


CHANGED = {"npc": "The table changed since this forecast was made, so nothing was applied: here is the forecast "
                  "for the table as it is now, tap your roll again.",
           "sg": "The table changed since these suggestions were made, so nothing was applied: here they are for "
                 "the table as it is now, tap your choice again.",
           "entry": "The table changed since this round start was worked out, so nothing was applied: here it is "
                    "for the table as it is now, tap “place it” again."}


def _posted_version(table: store.TableRecord) -> int:
    raw = request.form.get("version")
    if raw in (None, ""):
        return table.version
    try:
        return int(raw)
    except ValueError:
        raise InputError("version", "reload the page: the form lost the table's version") from None


def apply_to_table(table: store.TableRecord, act: dict[str, Any], players: int, names: list[str],
                   version: int | None) -> tuple[store.TableRecord, dict[str, Any]]:
    """Apply one action to the table and save it; the saved table and its `robotariat` value.

    An answer of the solvers (roll, round start, suggested turn) was worked out on the table at
    `version`: it is one compare-and-set on that version, and TableChanged (nothing saved) when another
    phone saved since. Any other action is re-applied on the newest state when another phone saved
    first, so both changes stay."""
    if _choice(act.get("do"), OUTCOMES):
        if version is not None and version != table.version:
            raise TableChanged(table)
        rb = normalize(page_helpers.state_part(table, GAME), players, names)
        new = apply_action(rb, act, players, names)
        try:
            return store.put(engine(), table.id, table.version, with_round(table.state, rb, new)), new
        except store.Conflict as c:
            raise TableChanged(c.current) from None

    def mutate(state: dict[str, Any]) -> dict[str, Any]:
        rb = normalize(state.get(GAME), players, names)
        return with_round(state, rb, apply_action(rb, act, players, names))

    try:
        saved = page_helpers.update_table(table, mutate)
    except store.Conflict:
        raise InputError("do", "the table kept changing on other phones; try again") from None
    return saved, normalize(saved.state.get(GAME), players, names)


def _handle(page: str, allowed: set[str]) -> tuple[dict[str, Any], dict[str, Any], int, InputError | None]:
    """Read the table (or the carried state), apply a posted action, and say what to render."""
    ctx = page_helpers.table_context(GAME)
    table = ctx["table"]
    carried = None if table is not None else _carried_state()
    players, names = _seats(table, carried)
    raw = page_helpers.state_part(table, GAME) if table is not None else carried
    rb = normalize(raw, players, names)
    status, error = 200, None
    ctx["changed"] = None
    if request.method == "POST":
        try:
            act = _form_action(request.form)
            if not _choice(act.get("do"), allowed):
                raise InputError("do", "this page cannot do that")
            if table is None:
                rb = apply_action(rb, act, players, names)
            else:
                ctx["table"], rb = apply_to_table(table, act, players, names, _posted_version(table))
                flash("Saved with the table.", "ok")
        except InputError as e:
            status, error = 400, e
        except TableChanged as c:
            # show the newer table and what the solvers say about it; the player applies again
            ctx["table"] = c.table
            rb = normalize(page_helpers.state_part(c.table, GAME), players, names)
            status, ctx["changed"] = 409, OUTCOMES[act["do"]]
    return ctx, rb, status, error


def _redirect_after_save(endpoint: str, ctx: dict[str, Any], anchor: str = "") -> Response | None:
    if request.method == "POST" and ctx["table"] is not None:
        return redirect(url_for(endpoint, table=ctx["table"].id) + anchor, code=303)
    return None


def rule_titles() -> dict[str, str]:
    """Titles of the Robotariat rule entries, for links that read as words rather than ids."""
    return {e.id: e.title for e in rules.books()[GAME].entries}


def page_meta() -> dict[str, Any]:
    """Words the scripts show (piece labels, die faces, readings, rule titles); no rules."""
    return {"characters": {k: {"name": v[0], "short": v[2]} for k, v in CHARACTERS.items()},
            "faces": FACES, "objective_names": OBJECTIVE_NAMES, "suggest_limit": SUGGEST_LIMIT,
            "rule_titles": rule_titles(),
            "readings": {r["id"]: {"title": r["title"], "text": r["text"], "entry": r["entry"]}
                         for r in rb_api.readings_json()["readings"]}}


def _common(ctx: dict[str, Any], rb: dict[str, Any], error: InputError | None, page: str) -> dict[str, Any]:
    return {**ctx, "rb": rb, "error": error, "kinds": KINDS, "characters": CHARACTERS, "faces": FACES,
            "meta": page_meta(), "rule_titles": rule_titles(), "answer": answer(rb, page, ctx["table"]),
            "status": play_status(rb), "entry_track": DATA.entry_track, "next_npc": next_npc(rb["state"]),
            "rounds": DATA.max_rounds, "poster_supply": DATA.poster_supply, "gamedata": DATA,
            "players_count": len(rb["state"]["players"]), "target": DATA.spark_target[len(rb["state"]["players"])],
            "carry_json": carry_json(rb)}


# ---- what the scripts draw: the page's values after each change ----------------------------------

ANSWER_PAGES = ("play", "editor", "data", "objectives")


def play_status(rb: dict[str, Any]) -> dict[str, Any]:
    """The tracks and counts the board page shows above and below the board."""
    st = rb["state"]
    on_board = sum(st["posters"].values())
    return {"round": st["round"], "rounds": DATA.max_rounds, "funds": st["funds"],
            "target": DATA.spark_target[len(st["players"])], "reputation": st["reputation"],
            "office": st["office"], "junk": st["junk"], "entered": entered(st), "track": len(DATA.entry_track),
            "next_npc": next_npc(st), "posters_on_board": on_board,
            "posters_left": DATA.poster_supply - on_board - st["junk"], "played": turn_played(rb)}


def objectives_result(rb: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    if not rb["board"]["spaces"]:
        return None, "Enter the board first."
    return _solve(rb_api.objectives_json, objectives_body(rb))


def answer(rb: dict[str, Any], page: str, table: store.TableRecord | None = None) -> dict[str, Any]:
    """The normalized `robotariat` value and what `page` draws from it (the board picture, the tracks,
    the API body for the forecast, the board check, the objectives): the pages' scripts only render it."""
    out: dict[str, Any] = {"version": table.version if table else None, "code": table.code if table else None,
                           "robotariat": rb}
    if page == "play":
        out.update(view=board_view(rb), status=play_status(rb), body=api_body(rb))
    elif page == "editor":
        check, check_error = board_check(rb)
        view = board_view(rb, problems=problem_spaces(check))
        slots = free_slots(rb["layout"])
        out.update(view=view, check=check, check_error=check_error, slots=slots,
                   slots_height=round(max([view["height"]] + [c["y"] + BOX_H / 2 + MARGIN for c in slots])))
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
    """POST /api/robotariat/action: the same, not at a table: the page sends the value it holds."""
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
    players, names = _seats(table, None)
    outcome = _choice(req.action.get("do"), OUTCOMES)
    if outcome and req.version is None:
        raise bad_field("version", "give the table's version the answer was worked out for")
    try:
        saved, rb = apply_to_table(table, req.action, players, names, req.version)
    except InputError as e:
        raise _action_error(e) from None
    except TableChanged as c:
        newer = normalize(page_helpers.state_part(c.table, GAME), players, names)
        raise ApiError(409, "conflict", CHANGED[OUTCOMES[outcome]],
                       extra={"answer": answer(newer, req.page, c.table)}) from None
    return answer(rb, req.page, saved)


@bp.get("/api/robotariat/tables/<table_id>")
def api_table(table_id: str):
    """The table's `robotariat` value and a page's values; `?since=<version>`: only whether it changed."""
    table = _table_or_404(table_id)
    if request.args.get("since") == str(table.version):
        return {"version": table.version, "changed": False}
    players, names = _seats(table, None)
    page = _choice(request.args.get("page"), ANSWER_PAGES) or "play"
    return {**answer(normalize(page_helpers.state_part(table, GAME), players, names), page, table), "changed": True}


@bp.post("/api/robotariat/action")
def api_action():
    req = api_parse(CarriedActionIn)
    try:
        rb = apply_action(normalize(req.robotariat, req.players), req.action, req.players, [])
    except InputError as e:
        raise _action_error(e) from None
    return answer(rb, req.page)


# ---- routes -------------------------------------------------------------------------------------

@bp.route("/robotariat/", methods=["GET", "POST"])
def play():
    ctx, rb, status, error = _handle("play", PLAY_ACTIONS | set(OUTCOMES))
    turns = _int(request.values.get("k"), 1, 12, 3)
    heat = request.values.get("heat") if request.values.get("heat") in HEATS else "oppressor_reach"
    anchor = {"roll": "#npc", "enter": "#entry", "do_option": "#npc"}.get(request.form.get("do", ""), "#board")
    done = status == 200 and _redirect_after_save("robotariat.play", ctx, anchor)
    if done:
        return done
    fc = forecasts(rb, turns, heat)
    view = board_view(rb, heat=fc["heat"] if request.values.get("show_heat") == "1" else None)
    order = game_order(rb, fc)
    gf = None
    if fc["npc"] is not None and not order["ended"]:
        body = {**api_body(rb), "next": "npc_turn" if order["turn_played"] else "player_turn"}
        more = request.args.get("forecast") == "more"  # "play out more games": a few seconds, once per state
        gf, _ = _solve(lambda b: rb_api.game_forecast_json(
            b, budget_ms=GAME_FORECAST_MORE_MS if more else GAME_FORECAST_BUDGET_MS,
            until_runs=GAME_FORECAST_MORE_RUNS if more else None), body)
    common = _common(ctx, rb, error, "play")
    common.pop("answer")  # the page's scripts no longer draw it: Jinja renders every part
    return render_template("robotariat/play.html", view=view, fc=fc, heats=HEATS, changed_text=CHANGED,
                           played=order["turn_played"], order=order, gf=gf,
                           gf_enough=bool(gf) and (gf["method"] == "exact" or gf["runs"] >= GAME_FORECAST_SHOWN_RUNS),
                           more_url=url_for("robotariat.play", table=ctx["table"].id if ctx["table"] else None,
                                            forecast="more"),
                           **common), status


GAME_FORECAST_BUDGET_MS = 150  # what one view of the board page spends on the whole-game forecast
GAME_FORECAST_MORE_MS, GAME_FORECAST_MORE_RUNS = 4000, 200  # "play out more games" (kept per table state)
GAME_FORECAST_SHOWN_RUNS = 30  # fewer sampled games than this say too little to show a percentage


def carry_json(rb: dict[str, Any]) -> str:
    """Not at a table, the forms carry the value: compact, without the parts still at their defaults."""
    return rb_state.RobotariatTable.model_validate(rb).model_dump_json(exclude_defaults=True)


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
    out.update(ended=g.state.ended, pending=entry_pending(gr, g.state), can_start=g.round_can_start(gr),
               waiting=[p["name"] for i, p in enumerate(st["players"]) if i not in played])
    sg = fc.get("suggest")
    if sg and sg["options"]:
        best = sg["options"][0]
        out["nothing_differs"] = best["tied_with"] + 1 == sg["count"] and not float(
            best["expected"]["future_donations"]["approx"])
        out["best_line"] = "After the NPC turn: " + option_line(best["expected"]) + "."
        for o in sg["options"]:
            o["line"] = option_line(o["expected"])
    return out


def turn_played(rb: dict[str, Any]) -> bool:
    """The active player has done a suggested turn already (the NPC turn they conduct comes next)."""
    st, log = rb["state"], rb["log"]
    return bool(log) and log[-1]["turn"] == "player" and log[-1]["round"] == st["round"] \
        and log[-1]["player"] == st["active"]


def board_check(rb: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The API's board check (validate_board_json), or the message of its 400."""
    if not rb["board"]["spaces"]:
        return {"ok": False, "errors": [{"path": "board.spaces", "message": "the board needs at least one space"}],
                "warnings": [], "summary": None, "rules": []}, None
    try:
        return rb_api.validate_board_json({"board": rb["board"]}), None
    except ApiError as e:
        return None, e.message


def problem_spaces(check: dict[str, Any] | None) -> set[str]:
    """Spaces a check complains about (a missing or wrong next space), to ring them on the drawing."""
    out = set()
    for p in (check or {}).get("errors", []):
        m = re.match(r"^board\.(?:yellow|blue)_next\.(.+)$", p.get("path", ""))
        if m:
            out.add(m.group(1))
    return out


@bp.route("/robotariat/board", methods=["GET", "POST"])
def editor():
    ctx, rb, status, error = _handle("editor", EDIT_ACTIONS)
    done = status == 200 and _redirect_after_save("robotariat.editor", ctx, "#editor")
    if done:
        return done
    common = _common(ctx, rb, error, "editor")
    ans = common["answer"]
    return render_template("robotariat/editor.html", view=ans["view"], validation=ans["check"],
                           validation_error=ans["check_error"], **common), status


@bp.route("/robotariat/data", methods=["GET", "POST"])
def game_data():
    ctx, rb, status, error = _handle("data", DATA_ACTIONS)
    done = status == 200 and _redirect_after_save("robotariat.game_data", ctx)
    if done:
        return done
    base = defaults()
    return render_template("robotariat/data.html", base=base, **_common(ctx, rb, error, "data")), status



def objectives_body(rb: dict[str, Any]) -> dict[str, Any]:
    """The objectives request: the table, its log of applied turns, the office track and the facts."""
    log = [{k: e[k] for k in ("round", "player", "turn", "junked", "office")} for e in rb["log"]]
    extra = {"cards": rb["cards"]} if rb["cards"] else {}  # cards entered by name count, else the typed numbers
    return api_body(rb, log=log, office_track=rb["office_track"], facts=rb["facts"], **extra)


@bp.route("/robotariat/objectives", methods=["GET", "POST"])
def objectives():
    ctx, rb, status, error = _handle("objectives", {"facts"})
    done = status == 200 and _redirect_after_save("robotariat.objectives", ctx)
    if done:
        return done
    common = _common(ctx, rb, error, "objectives")
    junked = max(junked_per_turn([(e["round"], e["player"], e["turn"], e["junked"], e["office"]) for e in rb["log"]])
                 or [0])
    return render_template("robotariat/objectives.html", objectives=OBJECTIVES, objective_names=OBJECTIVE_NAMES,
                           result=common["answer"]["objectives"], result_error=common["answer"]["objectives_error"],
                           most_junked=junked, **common), status


@bp.route("/robotariat/board.json", methods=["GET", "POST"])
def export_board():
    """The board as a file to keep or share: {"board": ..., "layout": ...} (import takes it back)."""
    ctx = page_helpers.table_context(GAME)
    table = ctx["table"]
    carried = None if table is not None else _carried_state()
    players, names = _seats(table, carried)
    rb = normalize(page_helpers.state_part(table, GAME) if table is not None else carried, players, names)
    body = json.dumps({"game": GAME, "board": rb["board"], "layout": rb["layout"]}, indent=1, ensure_ascii=False)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="robotariat-board.json"'})
