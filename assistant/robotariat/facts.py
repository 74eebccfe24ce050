"""Robotariat pages whose forms edit the table's values field by field (web.save.save_form): the game data
(dice faces, Office Rewards, starting Reputation) and what the objectives need at the end of the game.
Inputs are named by their path in schemas.RobotariatTable (`data.dice.black.0`, `facts.cooperative`)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, request
from werkzeug.datastructures import MultiDict

from solvers.robotariat.objectives import OBJECTIVES, junked_per_turn

from ..web import paths, save
from ..web.forms import RESERVED
from . import pages
from .pages import GAME, Seen, normalize, read, render
from .schemas import RobotariatTable

bp = Blueprint("robotariat_facts", __name__)

FACES_WORDS = {"yellow_arrow": "yellow path", "blue_arrow": "blue path", "yellow_x": "Entry token, yellow",
               "blue_x": "Entry token, blue"}


def _typed(now: Any, text: Any) -> Any:
    """A posted text as the type the state holds at its path (the state model reads strictly)."""
    if not isinstance(text, str):
        return text
    if isinstance(now, bool):
        return text.strip().lower() in ("true", "1", "on", "yes")
    word = text.strip()
    if (now is None or isinstance(now, int)) and word.lstrip("-").isdecimal() and word.isascii() and len(word) < 10:
        return int(word)
    return text


def typed_form(form: MultiDict, current: dict[str, Any], prefix: str) -> MultiDict:
    out: MultiDict = MultiDict()
    for key in form.keys():
        for v in form.getlist(key):
            fieldish = key.startswith(prefix) and key not in RESERVED
            out.add(key, _typed(paths.get(current, key, None), v) if fieldish else v)
    return out


LABELS = {"data.dice.black": "the black die", "data.dice.red": "the red die", "data.office_rewards": "Office Rewards",
          "data.starting_reputation": "starting Reputation", "facts.objectives": "a secret objective",
          "facts.cards_played": "cards played", "facts.spy_correct": "the Spy's guesses"}


def label(path: str) -> str:
    head = ".".join(path.split(".")[:3 if path.startswith("data.dice") else 2])
    return LABELS.get(head, path.split(".")[-1].replace("_", " "))


def save_fields(seen: Seen, prefix: str, prepare: Any = None) -> save.FormResult:
    """Save the posted fields under `prefix` (only those the player changed, on the newest state); not at
    a table, answer from the state the page carried."""
    players, names = seen.players, seen.names
    carried = seen.rb
    extra = prepare or (lambda part: part)

    def ready(part: dict[str, Any]) -> dict[str, Any]:
        return extra(normalize(part if seen.table is not None else carried, players, names))

    form = typed_form(request.form, ready(carried), prefix)
    result = save.save_form(seen.table, RobotariatTable, GAME, form, prefix=prefix, prepare=ready, label=label)
    seen.table = result.table or seen.table
    seen.rb = normalize(result.state.model_dump(mode="json"), players, names)
    if result.problems:
        seen.status = 400
    return result


def _posted(prefix: str) -> bool:
    return request.method == "POST" and not request.form.get("do") and any(k.startswith(prefix) for k in request.form)


# ---- game data ----------------------------------------------------------------------------------

def dice_summary(faces: list[str]) -> list[tuple[str, int]]:
    """How often each kind of face comes up on a die, most often first (for the line under it)."""
    counts: dict[str, int] = {}
    for f in faces:
        counts[f] = counts.get(f, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])


@bp.route("/robotariat/data", methods=["GET", "POST"])
def game_data():
    seen = read()
    problems: list = []
    if _posted("data."):
        problems = save_fields(seen, "data.").problems
    else:
        seen = pages.act(seen, pages.DATA_ACTIONS)
    base = pages.defaults()
    d = seen.rb["data"]
    shown = [f"data.office_rewards.{i}" for i in range(1, 11)] + ["data.office_rewards"] + \
        [f"data.starting_reputation.{n}" for n in ("3", "4", "5")]
    return render("robotariat/data.html", seen, base=base, problems=problems, face_words=FACES_WORDS, shown=shown,
                  summary={c: dice_summary(d["dice"][c]) for c in ("black", "red")},
                  edited={"dice": d["dice"] != base["dice"], "office_rewards": d["office_rewards"] != base["office_rewards"],
                          "starting_reputation": d["starting_reputation"] != base["starting_reputation"]})


# ---- the objectives at the end --------------------------------------------------------------------

def _per_seat(players: int):
    """The facts' lists hold one value per seat (the form names them facts.objectives.0 ...)."""
    def prepare(part: dict[str, Any]) -> dict[str, Any]:
        facts = part["facts"]
        for key, empty in (("objectives", None), ("cards_played", 0), ("spy_correct", False)):
            if len(facts[key]) != players:
                facts[key] = [empty] * players
        return part
    return prepare


@bp.route("/robotariat/objectives", methods=["GET", "POST"])
def objectives():
    seen = read()
    problems: list = []
    if _posted("facts."):
        problems = save_fields(seen, "facts.", _per_seat(seen.players)).problems
    else:
        seen = pages.act(seen, {"facts"})
    rb = seen.rb
    facts = _per_seat(seen.players)(rb)["facts"]
    result, result_error = pages.objectives_result(rb)
    junked = max(junked_per_turn([(e["round"], e["player"], e["turn"], e["junked"], e["office"]) for e in rb["log"]])
                 or [0])
    return render("robotariat/objectives.html", seen, objectives=OBJECTIVES, result=result,
                  result_error=result_error, most_junked=junked, facts=facts, problems=problems)
