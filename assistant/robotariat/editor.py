"""The Robotariat board pages: the editor (tap to draw, or one form per space), the guided entry of the
printed board (space by space: its kind, then its yellow and blue next spaces and black lines, then the
check), copying the board of another table by its join code, and the board as a file."""
from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, Response

from solvers.errors import InputError

from ..db import engine
from ..tables import limits, store
from ..web import context as page_helpers
from . import pages
from .pages import GAME, Seen, normalize, read, render
from .present import board_view

bp = Blueprint("robotariat_board", __name__)

# the editor's tap modes: what a tap on the drawing does (robotariat_taps.js reads the hints)
MODES = [("add", "+ Space", "Tap an empty place (+) to add a space of the kind chosen below.", ""),
         ("link", "Line", "Tap a space, then a neighbour: adds the black line between them, or removes it.",
          "From {name}: tap the space a black line joins it to (tap {name} again to stop)."),
         ("yellow", "Yellow", "Tap a space, then the space its yellow arrow leads to.",
          "From {name}: tap where its yellow arrow leads (tap {name} again to stop)."),
         ("blue", "Blue", "Tap a space, then the space its blue arrow leads to.",
          "From {name}: tap where its blue arrow leads (tap {name} again to stop)."),
         ("move", "Move", "Tap a space, then an empty place (+) or another space to swap them.",
          "Moving {name}: tap an empty place (+) or a space to swap with."),
         ("edit", "Edit", "Tap a space to rename it, change its kind or delete it (in the list below).", "")]


def problem_spaces(check: dict[str, Any] | None) -> set[str]:
    """Spaces a check complains about (a missing or wrong next space), to ring them on the drawing."""
    out = set()
    for p in (check or {}).get("errors", []):
        m = re.match(r"^board\.(?:yellow|blue)_next\.(.+)$", p.get("path", ""))
        if m:
            out.add(m.group(1))
    return out


def copy_board_action(seen: Seen, action: dict[str, Any]) -> dict[str, Any]:
    """`copy_board`: the board of the Robotariat table whose join code was typed, as an import. Codes are
    short enough to guess, so each look-up counts against the join-code limit (tables.limits) unless the
    code was right, as on the join page."""
    if action.get("do") != "copy_board":
        return action
    code = store.normalize_code(str(action.get("code") or ""))
    if not code:
        raise InputError("code", "type the join code of the table whose board you want")
    counted = limits.charge_code_lookup(engine())
    other = store.get_by_code(engine(), code)
    if other is None:
        raise InputError("code", f"no table has the code {code[:12]}")
    limits.forgive(engine(), counted)
    if other.game != GAME:
        raise InputError("code", f"table {other.code} is not a Rise of the Robotariat table")
    if seen.table is not None and other.id == seen.table.id:
        raise InputError("code", "that is this table's own code")
    theirs = normalize(page_helpers.state_part(other, GAME), max(3, min(5, other.players)))
    if not theirs["board"]["spaces"]:
        raise InputError("code", f"table {other.code} has no board yet")
    return {"do": "import", "board": theirs["board"], "layout": theirs["layout"]}


def act_on_board(seen: Seen) -> Seen:
    try:
        return pages.act(seen, pages.EDIT_ACTIONS, resolve=copy_board_action)
    except limits.Limited as e:
        seen.status, seen.error = 429, InputError("code", e.description)
        seen.headers["Retry-After"] = str(e.retry_after)
        return seen


@bp.route("/robotariat/board", methods=["GET", "POST"])
def editor():
    seen = act_on_board(read())
    rb = seen.rb
    check, check_error = pages.board_check(rb)
    view = board_view(rb, problems=problem_spaces(check), slots=True)
    return render("robotariat/editor.html", seen, view=view, validation=check, validation_error=check_error,
                  modes=MODES)


# ---- the guided entry ------------------------------------------------------------------------------

def guide_view(rb: dict[str, Any]) -> dict[str, Any]:
    """Where the guide stands and what its step shows: the space being entered, its place in the board's
    order, the spaces before and after it, and what it has so far."""
    g = rb["guide"]
    spaces = rb["board"]["spaces"]
    out: dict[str, Any] = {"step": g["step"] if g else None, "at": None, "count": len(spaces)}
    if g and g["step"] == "paths" and g["at"]:
        ids = [s["id"] for s in spaces]
        i = ids.index(g["at"])
        linked = {b if a == g["at"] else a for a, b in rb["board"]["links"] if g["at"] in (a, b)}
        out.update(at=spaces[i], index=i, prev=ids[i - 1] if i else None, next=ids[i + 1] if i + 1 < len(ids) else None,
                   yellow=rb["board"]["yellow_next"].get(g["at"]), blue=rb["board"]["blue_next"].get(g["at"]),
                   linked=linked, others=[s for s in spaces if s["id"] != g["at"]])
    return out


@bp.route("/robotariat/board/enter", methods=["GET", "POST"])
def guide():
    seen = act_on_board(read())
    rb = seen.rb
    gv = guide_view(rb)
    check, check_error = pages.board_check(rb) if gv["step"] == "check" else (None, None)
    view = board_view(rb, problems=problem_spaces(check), picked=gv["at"]["id"] if gv["at"] else None)
    return render("robotariat/guide.html", seen, view=view, g=gv, validation=check, validation_error=check_error,
                  missing=sorted(problem_spaces(check), key=[s["id"] for s in rb["board"]["spaces"]].index))


@bp.route("/robotariat/board.json", methods=["GET", "POST"])
def export_board():
    """The board as a file to keep or share: {"board": ..., "layout": ...} (import takes it back)."""
    rb = read().rb
    body = json.dumps({"game": GAME, "board": rb["board"], "layout": rb["layout"]}, indent=1, ensure_ascii=False)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="robotariat-board.json"'})
