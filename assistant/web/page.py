"""The one page machinery of every game: what a page shows and changes, and who is looking.

A page is either at a table (`?table=<id>`, or the `table` field of its form), whose state it reads from
the store and saves through `web.save`, or not at one, when its forms carry the state it shows in one
hidden field (`_state`, at most MAX_CARRIED characters) and nothing is kept. At a table the page knows
the phone's seat (`web.seat`): the page opens on it, and the seat's private state (a Two Robots hand) is
read for that phone alone. Without a table the seat is the one the page was asked for (`?seat=`), and
the private state travels with the carried state (`_private`), since the phone is the only one there.

Each game's page class builds on `Page` (its model and key, how a seat's fields are prepared, its own
answers); no game keeps a second copy of these rules.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from flask import request
from pydantic import BaseModel, ValidationError
from werkzeug.datastructures import MultiDict

from ..db import engine
from ..tables import seats, store
from . import paths, save
from . import seat as phone
from .context import seat_names, table_context
from .forms import RESERVED, posted_fields, shown_version
from .problems import Problem, from_validation
from .stored import lenient

M = TypeVar("M", bound=BaseModel)
MAX_CARRIED = 60_000
CARRIED = "_state"     # the hidden field of a page without a table: the game's part, as JSON
CARRIED_PRIVATE = "_private"


def posted_json(name: str) -> Any:
    """A JSON value a page without a table carried in a hidden field (None when absent or broken)."""
    raw = request.form.get(name, "") if request.method == "POST" else ""
    if not raw or len(raw) > MAX_CARRIED:
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def small_int(raw: Any, below: int, default: int = 0) -> int:
    """A seat number or the like from a form or address: `default` unless it is 0 <= n < below."""
    text = raw if isinstance(raw, str) else ""
    n = int(text) if text.isascii() and text.isdecimal() and len(text) < 3 else default
    return n if 0 <= n < below else default


class Page(Generic[M]):
    """`table` (or None), `state` (the game's model), `names`, `count` (seats), `phone_seat` (the seat this
    phone holds at the table, or None), `seat` (the seat the page shows), `private` (that seat's private
    state, when this phone may read it), `problems` and `status` (the HTTP status the page answers with)."""

    def __init__(self, game: str, model: type[M], key: str, min_seats: int = 1, max_seats: int = 6,
                 seat_arg: str = "seat") -> None:
        self.game, self.model, self.key = game, model, key
        self.ctx = table_context(game)
        self.table: store.TableRecord | None = self.ctx["table"]
        self.problems: list[Problem] = []
        self.status = 200
        self.state: M = self.read_state()
        self.phone_seat = phone.phone_seat(self.table)
        self._min, self._max, self._seat_arg = min_seats, max_seats, seat_arg
        self.count = self.seat_count()
        self.names = self.seat_names()
        self.seat = self.shown_seat()
        self.private: dict[str, Any] = self.read_private()
        self.ctx.update(phone_seat=self.phone_seat)

    # -- reading --

    def read_state(self) -> M:
        if self.table is not None:
            return save.read_state(self.table, self.model, self.key)
        return lenient(self.model, posted_json(CARRIED))

    def carried_count(self) -> int:
        """How many seats a page without a table shows (a game may read it from its state)."""
        return self._min

    def seat_count(self) -> int:
        if self.table is not None:
            return max(self._min, min(self._max, self.table.players))
        return max(self._min, min(self._max, self.carried_count()))

    def seat_names(self) -> list[str]:
        if self.table is not None:
            return seat_names(self.table, self.count)
        return [f"Player {k + 1}" for k in range(self.count)]

    def asked_seats(self) -> list[str]:
        """The seats the request names (a seat button's value comes after the form's own)."""
        return request.values.getlist(self._seat_arg) or request.values.getlist("_" + self._seat_arg)

    def shown_seat(self) -> int:
        """The seat the page shows: the one asked for, else this phone's, else the first."""
        asked = self.asked_seats()
        default = self.phone_seat if self.phone_seat is not None else 0
        return small_int(asked[-1], self.count, default) if asked else default

    def may_read_private(self, seat: int | None = None) -> bool:
        """Whether this phone may see a seat's private state: its own seat's, or any without a table."""
        seat = self.seat if seat is None else seat
        return self.table is None or (self.phone_seat is not None and seat == self.phone_seat)

    def read_private(self) -> dict[str, Any]:
        if self.table is None:
            carried = posted_json(CARRIED_PRIVATE)
            return carried if isinstance(carried, dict) else {}
        if not self.may_read_private():
            return {}
        return store.read_private(engine(), self.table, self.seat)

    @property
    def seat_infos(self) -> list[seats.SeatInfo]:
        """Every seat of the table (none without one): who holds which, by name."""
        return phone.seat_infos(self.table) if self.table is not None else []

    def refresh(self) -> None:
        """Read again after a save: the state, names and the private state of the seat shown."""
        phone.clear_cache()
        self.state = self.read_state()
        self.phone_seat = phone.phone_seat(self.table)
        self.count = self.seat_count()
        self.names = self.seat_names()
        self.private = self.read_private()
        self.ctx.update(phone_seat=self.phone_seat)

    @property
    def who(self) -> str:
        return self.names[self.seat] if self.count > 1 else "you"

    def carried(self) -> str:
        """The state, for the hidden field of a page without a table (only what differs from the defaults)."""
        if self.table is not None:
            return ""
        return json.dumps(self.state.model_dump(mode="json", exclude_defaults=True), separators=(",", ":"))

    def carried_private(self) -> str:
        return "" if self.table is not None else json.dumps(self.private, separators=(",", ":"))

    # -- saving --

    def _set_table(self, table: store.TableRecord) -> None:
        self.table = self.ctx["table"] = table

    def change(self, mutate: save.Mutate) -> None:
        """Apply one change (a function of the whole state): saved with the table on its newest state, or
        to the carried state."""
        if self.table is not None:
            self._set_table(save.save_change(self.table, mutate))
            self.refresh()
        else:
            out = mutate({self.key: self.state.model_dump(mode="json")})
            self.state = self.model.model_validate(out[self.key])

    def change_private(self, mutate: save.PrivateMutate, seats_: list[int] | None = None) -> None:
        """A change of the state and of the private state of the seat shown (a card from its hand onto a
        stack); refused at a table unless this phone holds that seat."""
        seats_ = seats_ or [self.seat]
        if self.table is not None:
            if not self.may_read_private():
                self.problem("", "Take your seat first: only its own phone changes a hand.")
                return
            self._set_table(save.save_private_change(self.table, seats_, mutate))
            self.refresh()
        else:
            state, privates = mutate({self.key: self.state.model_dump(mode="json")}, {self.seat: dict(self.private)})
            self.state = self.model.model_validate(state[self.key])
            self.private = privates.get(self.seat, self.private)

    def answer(self, version: int | None, mutate: save.Mutate, private: save.PrivateMutate | None = None) -> bool:
        """Apply a change worked out from the version the page showed (an Attack's targets) only on that
        version: False, a 409 and the newer table when another phone was first."""
        if self.table is None:
            if private is not None:
                self.change_private(private)
            else:
                self.change(mutate)
            return True
        try:
            if private is not None:
                self._set_table(save.save_private_answer(self.table, version, [self.seat], private))
            else:
                self._set_table(save.save_answer(self.table, version, mutate))
            ok = True
        except save.Stale as stale:
            self._set_table(stale.current)
            self.status = 409
            ok = False
        self.refresh()
        return ok

    def fields(self, form: MultiDict, prepare: Callable[[dict], dict] | None = None,
               label: Callable[[str], str] | None = None) -> save.FormResult:
        """Save the fields of a form named by paths: at a table only those the player changed, against the
        version the page showed; without one, on the carried state. Names that are not paths of the
        state (a seat button, a tap-mode radio) are no change."""
        form = MultiDict([(k, v) for k, v in form.items(multi=True)
                          if k.startswith("_") or k in RESERVED or k.split(".")[0] in self.model.model_fields])
        if self.table is not None:
            result = save.save_form(self.table, self.model, self.key, form, prepare=prepare, label=label)
            self._set_table(result.table or self.table)
            if result.problems:
                self.state = result.state
            else:
                self.refresh()
        else:
            result = self._fields_carried(form, prepare or (lambda part: part))
            self.state = result.state
        self.problems += result.problems
        if result.problems:
            self.status = 400
        return result

    def _fields_carried(self, form: MultiDict, prepare: Callable[[dict], dict]) -> save.FormResult:
        base = prepare(self.state.model_dump(mode="json"))
        posted = posted_fields(form)
        for path, value in posted.items():
            current = paths.get(base, path, None)
            try:
                paths.set_(base, path, None if value == "" and not isinstance(current, str) else value)
            except paths.PathError:
                continue
        try:
            return save.FormResult(self.model.model_validate(base), None, raw=posted)
        except ValidationError as err:
            return save.FormResult(lenient(self.model, base), None, from_validation(err, base), raw=posted)

    def shown_version(self) -> int | None:
        return shown_version(request.form) if request.method == "POST" else None

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))
        self.status = 400
