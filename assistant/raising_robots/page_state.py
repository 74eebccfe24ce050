"""The state a Raising Robots page shows and changes: the table's (`?table=<id>`), or without a table
the one its forms carry in a hidden `_state` field (nothing is kept then). Every page saves through it:
fields named by paths with `web.save.save_form`, changes with `save_change`, answers worked out from one
version with `save_answer` (409 and the newer table when another phone was first)."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import request
from pydantic import ValidationError
from werkzeug.datastructures import MultiDict

from ..db import engine
from ..tables import store
from ..web import paths, save
from ..web.context import seat_names, table_context
from ..web.forms import RESERVED, posted_fields
from ..web.problems import Problem, from_validation
from . import state as rr
from .present import label
from .schemas import MAX_SEATS, STATE_KEY, RaisingRobotsState, Seat

MAX_CARRIED = 60_000


class PageState:
    """`state` (RaisingRobotsState), `table` (or None), `seat` (the seat shown), `names`, `round`,
    `problems` (web.problems.Problem) and `status` (the HTTP status the page answers with)."""

    def __init__(self, seat_arg: str = "seat") -> None:
        self.ctx = table_context("raising-robots")
        self.table = self.ctx["table"]
        raw_round = request.form.get("_round", "") if request.method == "POST" else ""
        self._round = int(raw_round) if raw_round.isascii() and raw_round.isdecimal() and len(raw_round) < 3 else 1
        self.state = rr.read(self.table) if self.table is not None else self._posted()
        self.problems: list[Problem] = []
        self.status = 200
        self.result: save.FormResult | None = None
        # the version an answer is worked out from: the one the page showed, or the one this request saved
        # on top of it (when no other phone wrote in between)
        self.answer_version = save.shown_version(request.form) if request.method == "POST" else None
        self._seat_arg = seat_arg
        self._refresh()

    # -- reading --

    def _posted(self) -> RaisingRobotsState:
        raw = request.form.get("_state", "") if request.method == "POST" else ""
        try:
            data = json.loads(raw) if raw and len(raw) < MAX_CARRIED else None
        except ValueError:
            data = None
        return save.lenient(RaisingRobotsState, data) if data is not None else RaisingRobotsState()

    def _refresh(self) -> None:
        if self.table is not None:
            self.count = max(1, min(MAX_SEATS, self.table.players))
            self.names = seat_names(self.table, self.count)
            self.round = rr.table_round(self.table.state, self.state)
        else:
            self.count = max(1, min(MAX_SEATS, len(self.state.seats)))
            self.names = [f"Player {k + 1}" for k in range(self.count)]
            self.round = max(1, self._round)
        if len(self.state.seats) < self.count:  # shown as empty seats; kept once a field of theirs is saved
            self.state = self.state.model_copy(update={"seats": [*self.state.seats, *(
                Seat() for _ in range(self.count - len(self.state.seats)))]})
        given = request.values.getlist(self._seat_arg)  # a seat button's value comes after the form's own
        def seat_of(raw: str) -> int:
            seat = int(raw) if raw.isascii() and raw.isdecimal() and len(raw) < 3 else 0
            return seat if seat < self.count else 0
        self.seat = seat_of(given[-1] if given else "0")
        # the seat the posted form showed (its own seat value, before a seat button's): its play area changes
        # go there even when the player then chose another seat
        self.form_seat = seat_of(given[0] if given else "0")
        self.comps, self.events = rr.caught_up(self.state.competitions, self.round)

    @property
    def who(self) -> str:
        return self.names[self.seat] if self.count > 1 else "you"

    def value(self, path: str, default: Any = "") -> Any:
        """A field's value: what was typed when it has a problem, else the state's."""
        if any(p.path == path for p in self.problems) and self.result is not None and path in self.result.raw:
            return self.result.raw[path]
        return paths.get(self.state.model_dump(mode="json"), path, default)

    def carried(self) -> str:
        """The state, for the hidden field of a page without a table (only what differs from the defaults)."""
        if self.table is not None:
            return ""
        return json.dumps(self.state.model_dump(mode="json", exclude_defaults=True), separators=(",", ":"))

    # -- saving --

    def prepare(self) -> Callable[[dict], dict]:
        return rr.prepare_for(max(self.count, self.seat + 1), self.round)

    def fields(self, form, prepare: Callable[[dict], dict] | None = None) -> None:
        """Save the fields of a form named by paths: with a table only those the player changed, against
        the version the page showed; without one, on the posted state. `prepare` fills in what the fields
        rely on (by default the seats and the tile flips the round passed)."""
        prepare = prepare or self.prepare()
        # only paths of the state are fields: a seat button or a tap-mode radio is not a change to save
        form = MultiDict([(k, v) for k, v in form.items(multi=True)
                          if k.startswith("_") or k in RESERVED or k.split(".")[0] in RaisingRobotsState.model_fields])
        if self.table is not None:
            result = save.save_form(self.table, RaisingRobotsState, STATE_KEY, form, prepare=prepare,
                                    label=lambda p: label(p, self.state))
            self.table = self.ctx["table"] = result.table or self.table
            self.result = result
            if result.changed:
                self._saved(self.table)
            self.state = result.state if result.problems else rr.read(self.table)
            if result.changed and not result.problems and self.state.competitions.marker is not None:
                # an older table's round marker: the first save moves it to the table's round
                self.table = self.ctx["table"] = save.save_change(self.table, rr.changing(lambda part, rnd: None))
                self._saved(self.table)
                self.state = rr.read(self.table)
        else:
            base = prepare(self.state.model_dump(mode="json"))
            posted = posted_fields(form)
            for path, value in posted.items():
                current = paths.get(base, path, None)
                try:
                    paths.set_(base, path, None if value == "" and not isinstance(current, str) else value)
                except paths.PathError:
                    continue
            try:
                self.state = RaisingRobotsState.model_validate(base)
                self.result = save.FormResult(self.state, None, raw=posted)
            except ValidationError as err:
                problems = from_validation(err, base)
                self.state = save.lenient(RaisingRobotsState, base)
                self.result = save.FormResult(self.state, None, problems, raw=posted)
        self.problems += self.result.problems
        if self.result.problems:
            self.status = 400
        self._refresh()

    def change(self, mutate: rr.Mutate) -> None:
        """Apply one change: saved with the table (on its newest state), or to the posted state."""
        if self.table is not None:
            self.table = self.ctx["table"] = save.save_change(self.table, mutate)
            self._saved(self.table)
            self.state = rr.read(self.table)
        else:
            out = mutate({STATE_KEY: self.state.model_dump(mode="json"), "table": {"round": self.round}})
            self.state = RaisingRobotsState.model_validate(out[STATE_KEY])
            self._round = rr.table_round(out, self.state)
        self._refresh()

    def _saved(self, saved: store.TableRecord) -> None:
        if self.answer_version is not None and saved.version == self.answer_version + 1:
            self.answer_version = saved.version  # saved right on top of what the page showed

    def answer(self, mutate: rr.Mutate, depends: Callable[[RaisingRobotsState], Any] | None = None) -> bool:
        """Apply a change worked out from the version the page showed (a Search recorded on that deck,
        the round that was ending); False, a 409 and the newer table when another phone was first.
        `depends(state)` is the part the answer was worked out from: when another phone changed only
        other parts (another seat's "Done") in the same round, the answer still holds and is applied."""
        if self.table is None:
            self.change(mutate)
            return True
        version = self.answer_version
        newest = store.get(engine(), self.table.id) or self.table
        if depends is not None and version is not None and version != newest.version:
            shown_raw = store.state_at(engine(), self.table.id, version)
            if isinstance(shown_raw, dict):
                shown = save.lenient(RaisingRobotsState, save.stored_part(shown_raw, RaisingRobotsState, STATE_KEY))
                now = rr.read(newest)
                if (depends(shown), rr.table_round(shown_raw, shown)) == (depends(now), rr.table_round(newest.state, now)):
                    version = newest.version
        try:
            self.table = self.ctx["table"] = save.save_answer(self.table, version, mutate)
            ok = True
        except save.Stale as stale:
            self.table = self.ctx["table"] = stale.current
            self.status = 409
            ok = False
        self.state = rr.read(self.table)
        self._refresh()
        return ok

    def shown_state(self) -> RaisingRobotsState:
        """The state as the posted page showed it (its version), for an answer applied only on that
        version; the state now when this request saved first or there is no table."""
        version = self.answer_version
        if self.table is None or version is None or version == self.table.version:
            return self.state
        raw = store.state_at(engine(), self.table.id, version)
        if not isinstance(raw, dict):
            return self.state
        return save.lenient(RaisingRobotsState, save.stored_part(raw, RaisingRobotsState, STATE_KEY))

    def shown_round(self) -> int:
        """The table's round in the version the posted page showed (the current one without a table)."""
        version = save.shown_version(request.form)
        if self.table is None or version is None:
            return self.round
        raw = store.state_at(engine(), self.table.id, version)
        if not isinstance(raw, dict):
            return self.round
        return rr.table_round(raw, save.lenient(RaisingRobotsState, save.stored_part(raw, RaisingRobotsState, STATE_KEY)))

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))
        self.status = 400

    def context(self) -> dict:
        """What every Raising Robots template gets."""
        return {"ps": self, "rr": self.state, "problems": self.problems, "names": self.names, "seat": self.seat,
                "n": self.count, "round": self.round, "carried": self.carried(), **self.ctx}
