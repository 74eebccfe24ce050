"""Seats and their private state: the JSON API (api.md, "Additions of round 3") and the table page's
"Who are you?" form. A seat's private state goes to its holder alone: every other caller gets a 403,
and nothing of it is in the table's JSON, its history, its version's ETag or a log line."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, request, url_for
from pydantic import BaseModel, ConfigDict, Field

from ..api import ApiError, bad_field, parse
from ..db import engine
from ..web import seat as phone
from . import private_models, seats, store

bp = Blueprint("seats", __name__)


class ClaimSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=seats.NAME_MAX)
    take_over: bool = False


class PutPrivate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=1)
    state: dict[str, Any]


def _table(table_id: str) -> store.TableRecord:
    table = store.get(engine(), table_id)
    if table is None:
        raise ApiError(404, "not_found", "No table has this id.")
    return table


def _seat_of(table: store.TableRecord, n: int) -> int:
    if not 0 <= n < table.players:
        raise bad_field("seat", f"this table has seats 0 to {table.players - 1}")
    return n


def _holder_only(table: store.TableRecord, n: int) -> None:
    if phone.phone_seat(table) != n:
        raise ApiError(403, "not_your_seat", "Only the phone that holds this seat can see or change its private state.")


@bp.post("/api/tables/<table_id>/seats/<int:n>")
def api_claim(table_id: str, n: int):
    table = _table(table_id)
    seat = _seat_of(table, n)
    body = parse(ClaimSeat)
    name = seats.clean_name(body.name)
    if not name:
        raise bad_field("name", "give the name the table knows you by")
    try:
        got = seats.claim(engine(), table.id, seat, name, phone.token_for(table.id), take_over=body.take_over)
    except seats.SeatTaken as taken:
        raise ApiError(409, "seat_taken", f"{taken.holder}'s phone holds this seat. To take it over, send "
                       "take_over: true; every phone at the table will see that it moved.",
                       [{"path": "seat", "message": f"held by {taken.holder}"}], extra={"holder": taken.holder}) from None
    phone.remember(table.id, got.token)
    phone.clear_cache()
    out = {"seat": got.seat, "name": got.name, "token": got.token, "version": got.table.version}
    if got.took_from is not None:
        out["took_over_from"] = got.took_from
    return out


@bp.delete("/api/tables/<table_id>/seats/<int:n>")
def api_release(table_id: str, n: int):
    table = _table(table_id)
    seat = _seat_of(table, n)
    try:
        saved = seats.release(engine(), table.id, seat, phone.token_for(table.id))
    except seats.NotHolder:
        raise ApiError(403, "not_your_seat", "Only the phone that holds this seat can give it up.") from None
    phone.forget(table.id)
    return {"seat": seat, "claimed": False, "version": saved.version}


@bp.get("/api/tables/<table_id>/seats/<int:n>/private")
def api_private(table_id: str, n: int):
    table = _table(table_id)
    seat = _seat_of(table, n)
    _holder_only(table, seat)
    state = private_models.read(table.game, store.read_private(engine(), table, seat))
    return {"version": table.version, "state": state}


@bp.put("/api/tables/<table_id>/seats/<int:n>/private")
def api_put_private(table_id: str, n: int):
    table = _table(table_id)
    seat = _seat_of(table, n)
    _holder_only(table, seat)
    body = parse(PutPrivate)
    new = private_models.check(table.game, body.state)

    def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
        return private_models.with_public_counts(table.game, state, seat, new), {seat: new}

    try:
        saved = store.apply_private_change(engine(), table.id, [seat], mutate, read_version=body.version)
    except store.Conflict as c:
        raise ApiError(409, "conflict", f"The table changed since version {body.version} (it is now at version "
                       f"{c.current.version}); read the private state again.",
                       extra={"version": c.current.version}) from None
    return {"version": saved.version}


# ---- the table page's "Who are you?" -------------------------------------------------------------

@bp.post("/t/<table_id>/seat")
def claim_page(table_id: str):
    table = store.get(engine(), table_id)
    if table is None:
        return redirect(url_for("pages.home"))
    raw = request.form.get("seat", "")
    name = seats.clean_name(request.form.get("name", ""))
    back = request.form.get("next", "")
    back = back if back.startswith("/") and not back.startswith("//") else url_for("tables.table_page", table_id=table.id)
    if not (raw.isascii() and raw.isdecimal() and int(raw) < table.players):
        flash("Choose your seat.", "error")
        return redirect(back)
    seat = int(raw)
    if not name:
        name = next((s.name for s in seats.seat_list(engine(), table) if s.seat == seat), f"Player {seat + 1}")
    if request.form.get("do") == "release":
        try:
            seats.release(engine(), table.id, seat, phone.token_for(table.id))
            phone.forget(table.id)
            flash("You gave your seat up; this phone now sees the table without a seat. Anything secret of the seat "
                  "(a hand) stays with it, and every phone is told when another phone takes it.", "ok")
        except seats.NotHolder:
            flash("This phone does not hold that seat.", "error")
        return redirect(back)
    try:
        got = seats.claim(engine(), table.id, seat, name, phone.token_for(table.id),
                          take_over=request.form.get("take_over") == "yes")
    except seats.SeatTaken as taken:
        flash(f"{taken.holder}'s phone holds this seat. If that phone is lost or flat, take the seat over below: "
              "every phone at the table will see that it moved.", "error")
        return redirect(url_for("tables.table_page", table_id=table.id, take=seat, next=back) + "#seats")
    phone.remember(table.id, got.token)
    if got.took_from is not None:
        flash(f"You took over {got.took_from}'s seat as {got.name}; every phone at the table sees that it moved.", "ok")
    else:
        flash(f"This phone is {got.name} at this table, on every page.", "ok")
    return redirect(back)


@bp.app_template_global()
def seat_view(table: store.TableRecord | None) -> dict[str, Any] | None:
    """What the seat bar of a table page shows: this phone's seat, every seat, and who moved phones."""
    if table is None:
        return None
    infos = phone.seat_infos(table)
    mine = phone.phone_seat(table)
    take = request.args.get("take", "")
    return {"mine": mine, "me": infos[mine] if mine is not None else None, "seats": infos,
            "lost": phone.lost_seat(table), "moved": [s for s in infos if s.recently_handed],
            "take": int(take) if take.isdecimal() and int(take) < table.players else None,
            "next": request.full_path.rstrip("?") if request.method == "GET" else request.path}
