"""The state a Raising Robots page shows and changes: the table's (`?table=<id>`), or without a table
the one its forms carry in a hidden `_state` field (nothing is kept then). Every page saves through it:
fields named by paths with `web.save.save_form`, changes with `save_change`, answers worked out from one
version with `save_answer` (409 and the newer table when another phone was first)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import request

from ..db import engine
from ..tables import store
from ..web import paths, save
from ..web.page import Page, small_int
from . import state as rr
from .present import label
from .schemas import MAX_SEATS, STATE_KEY, RaisingRobotsState, Seat


class PageState(Page[RaisingRobotsState]):
    """The shared page machinery (web.page.Page) with the round: `state` (RaisingRobotsState), `table`
    (or None), `seat` (the seat shown: the one asked for, else this phone's), `form_seat` (the seat the
    posted form showed), `names`, `round`, `problems` and `status`."""

    def __init__(self, seat_arg: str = "seat") -> None:
        raw_round = request.form.get("_round", "") if request.method == "POST" else ""
        self._round = int(raw_round) if raw_round.isascii() and raw_round.isdecimal() and len(raw_round) < 3 else 1
        self.result: save.FormResult | None = None
        super().__init__("raising-robots", RaisingRobotsState, STATE_KEY, max_seats=MAX_SEATS, seat_arg=seat_arg)
        # the version an answer is worked out from: the one the page showed, or the one this request saved
        # on top of it (when no other phone wrote in between)
        self.answer_version = self.shown_version()
        self._refresh()

    def carried_count(self) -> int:
        return len(self.state.seats)

    def _refresh(self) -> None:
        self.count = self.seat_count()
        self.names = self.seat_names()
        self.round = rr.table_round(self.table.state, self.state) if self.table is not None else max(1, self._round)
        if len(self.state.seats) < self.count:  # shown as empty seats; kept once a field of theirs is saved
            self.state = self.state.model_copy(update={"seats": [*self.state.seats, *(
                Seat() for _ in range(self.count - len(self.state.seats)))]})
        asked = self.asked_seats()
        self.seat = self.shown_seat()
        # the seat the posted form showed (its own seat value, before a seat button's): its play area changes
        # go there even when the player then chose another seat
        default = self.phone_seat if self.phone_seat is not None else 0
        self.form_seat = small_int(asked[0], self.count, default) if asked else default
        self.comps, self.events = rr.caught_up(self.state.competitions, self.round)

    def refresh(self) -> None:
        super().refresh()
        self._refresh()

    def value(self, path: str, default: Any = "") -> Any:
        """A field's value: what was typed when it has a problem, else the state's."""
        if any(p.path == path for p in self.problems) and self.result is not None and path in self.result.raw:
            return self.result.raw[path]
        return paths.get(self.state.model_dump(mode="json"), path, default)

    # -- saving --

    def prepare(self) -> Callable[[dict], dict]:
        return rr.prepare_for(max(self.count, self.seat + 1), self.round)

    def fields(self, form, prepare: Callable[[dict], dict] | None = None, label_=None) -> save.FormResult:
        """Save the fields of a form named by paths; `prepare` fills in what the fields rely on (by default
        the seats and the tile flips the round passed)."""
        result = super().fields(form, prepare or self.prepare(), label_ or (lambda p: label(p, self.state)))
        self.result = result
        if result.changed:
            self._saved(self.table)
        if self.table is not None and result.changed and not result.problems \
                and self.state.competitions.marker is not None:
            # an older table's round marker: the first save moves it to the table's round
            self._set_table(save.save_change(self.table, rr.changing(lambda part, rnd: None)))
            self._saved(self.table)
            self.refresh()
        self._refresh()
        return result

    def change(self, mutate: rr.Mutate) -> None:
        """Apply one change: saved with the table (on its newest state), or to the carried state."""
        if self.table is not None:
            self._set_table(save.save_change(self.table, mutate))
            self._saved(self.table)
            self.refresh()
        else:
            out = mutate({STATE_KEY: self.state.model_dump(mode="json"), "table": {"round": self.round}})
            self.state = RaisingRobotsState.model_validate(out[STATE_KEY])
            self._round = rr.table_round(out, self.state)
            self._refresh()

    def _saved(self, saved: store.TableRecord | None) -> None:
        if saved is not None and self.answer_version is not None and saved.version == self.answer_version + 1:
            self.answer_version = saved.version  # saved right on top of what the page showed

    def answer(self, mutate: rr.Mutate, depends: Callable[[RaisingRobotsState], Any] | None = None,
               private: save.PrivateMutate | None = None) -> bool:
        """Apply a change worked out from the version the page showed (a Search recorded on that deck,
        the round that was ending); False, a 409 and the newer table when another phone was first.
        `depends(state)` is the part the answer was worked out from: when another phone changed only
        other parts (another seat's "Done") in the same round, the answer still holds and is applied.
        `private`: the change with the seat shown's private state, in place of `mutate` (at a table)."""
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
        return super().answer(version, mutate, private)

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
        version = self.shown_version()
        if self.table is None or version is None:
            return self.round
        raw = store.state_at(engine(), self.table.id, version)
        if not isinstance(raw, dict):
            return self.round
        return rr.table_round(raw, save.lenient(RaisingRobotsState, save.stored_part(raw, RaisingRobotsState, STATE_KEY)))

    def context(self) -> dict:
        """What every Raising Robots template gets."""
        return {"ps": self, "rr": self.state, "problems": self.problems, "names": self.names, "seat": self.seat,
                "n": self.count, "round": self.round, "carried": self.carried(), **self.ctx}
