"""A small page on the shared page machinery (web.save, tablebot.js), for the tests of that machinery
alone: a seat with a stepper and a note per robot, and an answer worked out from them."""
from __future__ import annotations

from flask import Blueprint, render_template, request
from pydantic import BaseModel, ConfigDict, Field

from assistant.web import save
from assistant.web.context import table_context

bp = Blueprint("demo", __name__, template_folder="templates")
KEY = "demo"


class Robot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=8)
    vp: int = Field(default=0, ge=0, le=20)


class DemoState(BaseModel):
    model_config = ConfigDict(extra="forbid")
    gear: int = Field(default=0, ge=0, le=99)
    notes: str = Field(default="", max_length=200)
    robots: list[Robot] = Field(default_factory=list, max_length=5)


@bp.route("/demo-live", methods=["GET", "POST"])
def page():
    ctx = table_context()
    table = ctx["table"]
    status = 200
    if request.method == "POST":
        if request.form.get("do") == "add_robot" and table is not None:
            n = len(save.read_state(table, DemoState, KEY).robots)

            def add(state):
                part = DemoState.model_validate(save.read_state_json(state, DemoState, KEY))
                part.robots.append(Robot(id=f"r{n + 1}", vp=1))
                state[KEY] = part.model_dump(mode="json")
                return state

            ctx["table"] = save.save_change(table, add)
            result = save.FormResult(save.read_state(ctx["table"], DemoState, KEY), ctx["table"])
        else:
            result = save.save_form(table, DemoState, KEY, request.form)
            ctx["table"] = result.table or table
            status = 400 if result.problems else 200
    else:
        result = save.FormResult(save.read_state(table, DemoState, KEY), table)
    answer = result.state.gear * 2 + sum(r.vp for r in result.state.robots)
    return render_template("demo.html", result=result, answer=answer, **ctx), status

