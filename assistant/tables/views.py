"""Tables: the JSON API of api.md and the table pages (start, join by code or QR, edit, undo, history)."""
from __future__ import annotations

import io
from typing import Any, Literal

import segno
from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from pydantic import BaseModel, ConfigDict, Field

from ..api import ApiError, bad_field, json_body, parse
from ..catalog import GAMES
from ..db import engine
from ..web import save
from ..web.params import form_int, query_int
from . import limits, seats, store
from .schemas import table_info_for

bp = Blueprint("tables", __name__)

GameId = Literal["raising-robots", "robotariat", "two-robots"]
MAX_NAMES = 6
HISTORY_SHOWN = 12
HISTORY_PAGE = 20  # versions in one answer of /history unless `limit` asks for more
HISTORY_MAX = 100  # and never more than this: each state may be up to 64 KiB


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: GameId
    players: int = Field(ge=1, le=6)


class PutTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=1)
    state: dict[str, Any]


class UndoTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int | None = Field(default=None, ge=1)


def _check_players(game: str, players: int) -> str | None:
    g = GAMES[game]
    if not g.min_players <= players <= g.max_players:
        return f"{g.name} takes {g.min_players} to {g.max_players} players"
    return None


def _lookup(key: str) -> store.TableRecord | None:
    """Find a table by its id, or by its short code. Codes are short enough to guess, so every code
    look-up is counted (per browser, and per address under a higher ceiling) before the database is
    asked, and given back when the code was right: only wrong codes use up the limit, and while it is
    used up even the right code is refused, or the refusals would tell a guesser which codes exist."""
    if len(key) > 12:
        return store.get(engine(), key)
    counted = limits.charge_code_lookup(engine())
    table = store.get_by_code(engine(), key)
    if table is not None:
        limits.forgive(engine(), counted)
    return table


def _table_or_404(table_id: str) -> store.TableRecord:
    table = store.get(engine(), table_id)
    if table is None:
        raise ApiError(404, "not_found", "No table has this id.")
    return table


# ---- JSON API ---------------------------------------------------------------------------------

@bp.post("/api/tables")
def api_create():
    body = parse(NewTable)
    problem = _check_players(body.game, body.players)
    if problem:
        raise bad_field("players", problem)
    limits.charge_create(engine())
    table = store.create(engine(), body.game, body.players)
    return table.as_json(), 201


@bp.get("/api/tables/<key>")
def api_get(key: str):
    table = _lookup(key)
    if table is None:
        raise ApiError(404, "not_found", "No table has this id or code.")
    return {**table.as_json(), "seats": [s.as_json() for s in seats.seat_list(engine(), table)]}


@bp.put("/api/tables/<table_id>")
def api_put(table_id: str):
    _table_or_404(table_id)
    body = parse(PutTable)
    try:
        table = store.put(engine(), table_id, body.version, body.state)
    except store.Conflict as c:
        raise _conflict(c.current) from None
    return table.as_json()


def _conflict(current: store.TableRecord, undo: bool = False) -> ApiError:
    if undo:
        return ApiError(409, "conflict",
                        f"Someone else saved this table after the version you undo (it is now at version "
                        f"{current.version}), so nothing was undone; here is their state.",
                        extra={"table": current.as_json()})
    return ApiError(409, "conflict",
                    f"Someone else saved this table first (it is now at version {current.version}); "
                    "here is their state.", extra={"table": current.as_json()})


@bp.post("/api/tables/<table_id>/undo")
def api_undo(table_id: str):
    _table_or_404(table_id)
    # an empty body is an undo of whatever is newest (security.py decided it may come without a type)
    body = json_body() if request.get_data() else None
    version = None if body is None else parse(UndoTable, body).version
    try:
        table = store.undo(engine(), table_id, version)
    except store.Conflict as c:
        raise _conflict(c.current, undo=True) from None
    except store.NothingToUndo:
        current = store.get(engine(), table_id)
        raise ApiError(409, "nothing_to_undo", "There is nothing to undo: this is the table as it started.",
                       extra={"table": current.as_json()}) from None
    return table.as_json()


@bp.get("/api/tables/<table_id>/history")
def api_history(table_id: str):
    table = _table_or_404(table_id)
    limit = query_int("limit", lo=1, hi=HISTORY_MAX, default=HISTORY_PAGE)
    before = query_int("before", lo=1, hi=table.version + 1, default=table.version + 1)
    got = store.history(engine(), table_id, limit + 1, before=before)  # one more: is there an older page?
    older = got[0]["version"] if len(got) > limit else None
    got = got[-limit:]
    # `older`: pass it as `before` for the page of older versions (null: this page is the oldest kept)
    return {"versions": got, "older": got[0]["version"] if older is not None and got else None}


# ---- pages ------------------------------------------------------------------------------------

def _table_or_abort(table_id: str) -> store.TableRecord:
    table = store.get(engine(), table_id)
    if table is None:
        abort(404)
    return table


@bp.post("/tables")
def create_page():
    game = request.form.get("game", "")
    if game not in GAMES:
        flash("Pick one of the three games.", "error")
        return redirect(url_for("pages.home"))
    players = form_int("players", lo=0, hi=99)
    problem = _check_players(game, players)
    if problem:
        flash(problem + ".", "error")
        return redirect(url_for("pages.game", game=game))
    limits.charge_create(engine())
    table = store.create(engine(), game, players)
    return redirect(url_for("tables.table_page", table_id=table.id))


@bp.get("/join")
def join_page():
    code = request.args.get("code", "").strip()[:40]
    if not code:
        return render_template("tables/join.html", code="", error=None)
    try:
        table = _lookup(code) if len(code) <= 12 else None
    except limits.Limited as e:
        error = f"{e.description} You can try again in {e.retry_after} seconds."
        return (render_template("tables/join.html", code=code, error=error), 429,
                {"Retry-After": str(e.retry_after)})
    if table is not None:
        return redirect(url_for("tables.table_page", table_id=table.id))
    error = f"No table has the code {store.normalize_code(code) or code}. Check it on the other phone."
    return render_template("tables/join.html", code=code, error=error), 404


def _table_state_summary(before: dict | None, after: dict) -> str:
    if before is None:
        return "started"
    if not isinstance(before, dict) or not isinstance(after, dict):
        return "changed"
    keys = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    return "changed " + ", ".join(k.replace("_", " ") for k in keys) if keys else "no change"


def _info_model(table: store.TableRecord):
    return table_info_for(GAMES[table.game].rounds)


def _one_name_per_seat(table: store.TableRecord):
    def prepare(part: dict) -> dict:
        names = [n if isinstance(n, str) else "" for n in part.get("names", [])][:table.players]
        part["names"] = names + [""] * (table.players - len(names))
        return part
    return prepare


def _page_context(table: store.TableRecord, result: save.FormResult | None = None) -> dict:
    recent = store.history(engine(), table.id, limit=HISTORY_SHOWN + 1)
    changes, previous = [], None
    for i, v in enumerate(recent):
        if i > 0 or v["version"] == 1:  # the oldest one fetched only serves as the "before" of the next
            what = _table_state_summary(previous if i > 0 else None, v["state"])
            changes.append({"version": v["version"], "at": v["at"], "what": what})
        previous = v["state"]
    if result is None:
        info = save.read_state(table, _info_model(table), "table")
        result = save.FormResult(info, table)
    names = _one_name_per_seat(table)(result.state.model_dump(mode="json"))["names"]
    return {"table": table, "table_id": table.id, "game": GAMES[table.game], "changes": list(reversed(changes)),
            "result": result, "names": names,
            "tools": current_app.extensions.get("tablebot_tools", {}).get(table.game, [])}


@bp.get("/t/<table_id>")
def table_page(table_id: str):
    table = _table_or_abort(table_id)
    return render_template("tables/table.html", **_page_context(table))


def _label(path: str) -> str:
    if path.startswith("names."):
        return f"Player {int(path.split('.')[1]) + 1}'s name"
    return {"round": "the round", "notes": "the notes"}.get(path, path)


@bp.post("/t/<table_id>/edit")
def edit_page(table_id: str):
    table = _table_or_abort(table_id)
    form_int("version", lo=1, hi=table.version)  # the version the page showed: what its change is found against
    result = save.save_form(table, _info_model(table), "table", request.form,
                            prepare=_one_name_per_seat(table), label=_label)
    table = result.table or table
    return render_template("tables/table.html", **_page_context(table, result)), 400 if result.problems else 200


@bp.post("/t/<table_id>/undo")
def undo_page(table_id: str):
    table = _table_or_abort(table_id)
    shown = form_int("version", lo=1, hi=table.version)  # the version this page showed: the one to undo
    try:
        store.undo(engine(), table.id, shown)
        flash("Undone: the table is back to its previous state.", "ok")
    except store.Conflict as c:
        # another phone saved after the version this page showed: undoing now would throw their change away
        return render_template("tables/table.html", undo_conflict=shown, **_page_context(c.current)), 409
    except store.NothingToUndo:
        flash("Nothing to undo: this is the table as it started (or older versions are no longer kept).",
              "error")
    return redirect(url_for("tables.table_page", table_id=table.id))


@bp.get("/t/<table_id>/qr.svg")
def table_qr(table_id: str):
    table = _table_or_abort(table_id)
    url = url_for("tables.table_page", table_id=table.id, _external=True)
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", xmldecl=False, scale=6, dark="#000", light="#fff",
                                    border=2, title="Join this Tablebot table")
    return Response(buf.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=86400"})
