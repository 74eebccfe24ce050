"""The one save path of every page.

- `save_form`: the fields a player changed on a form, applied to the newest state. What changed is
  found against the version the page showed (its hidden `version` field: the store keeps every
  version), so a field another phone changed meanwhile and this phone did not touch keeps the other
  phone's value, and nothing this phone typed is lost.
- `save_change`: a change described as a function ("add this card"), applied to the newest state;
  re-applied when another phone saved in between.
- `save_answer`: a solver's answer worked out from one version (apply this roll), applied only on that
  version; otherwise `Stale`, and the page says so and shows the newer table.
Each sets the notice the table bar shows ("Saved ...", "Another phone ...").
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from flask import g, has_request_context, request
from pydantic import BaseModel, ValidationError
from werkzeug.datastructures import MultiDict

from ..db import engine
from ..tables import store
from . import paths
from .forms import posted_fields, shown_version
from .problems import Problem, from_validation
from .stored import lenient

M = TypeVar("M", bound=BaseModel)
Mutate = Callable[[dict], dict]


class Stale(Exception):
    """The answer was worked out from an older version of the table; nothing was saved."""

    def __init__(self, current: store.TableRecord):
        super().__init__("stale")
        self.current = current


@dataclass
class FormResult(Generic[M]):
    state: M  # what the page shows now: the newest state with this change, or the posted state
    table: store.TableRecord | None
    problems: list[Problem] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)  # what was typed, to show again in fields with a problem
    changed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # changed here, but gone on the newest state
    overwritten: dict[str, Any] = field(default_factory=dict)  # another phone's values this save replaced

    def value(self, path: str, default: Any = "") -> Any:
        """A field's value for the page: what was typed when it has a problem, else the state's."""
        if any(p.path == path for p in self.problems) and path in self.raw:
            return self.raw[path]
        return paths.get(self.state.model_dump(mode="json"), path, default)


def notice(kind: str, text: str) -> None:
    g.tablebot_notice = (kind, text)


def _merged(saved: store.TableRecord, shown: int | None) -> None:
    """Tell the page (body data-merged) that its answer holds another phone's newer change as well."""
    if shown is not None and saved.version - 1 > shown:
        g.tablebot_merged = True


def stored_part(state: Any, model: type[BaseModel], key: str) -> Any:
    """The raw part `key` of a stored state (the store has brought it to the current format)."""
    return state.get(key) if isinstance(state, dict) else None


def read_state(table: store.TableRecord | None, model: type[M], key: str) -> M:
    """The page's part of a table's state as its model (the defaults without a table)."""
    return lenient(model, stored_part(table.state, model, key) if table is not None else None)


def read_state_json(state: dict, model: type[M], key: str) -> dict:
    """Inside a change function: the part `key` of `state`, read leniently, as JSON to change."""
    return lenient(model, stored_part(state, model, key)).model_dump(mode="json")


def _apply(base: dict, posted: dict[str, Any]) -> tuple[dict, list[str]]:
    out, skipped = copy.deepcopy(base), []
    for path, value in posted.items():
        current = paths.get(out, path, None)
        if value == "" and not isinstance(current, str):
            value = None  # an emptied number field
        try:
            paths.set_(out, path, value)
        except paths.PathError:
            skipped.append(path)
    return out, skipped


def save_form(table: store.TableRecord | None, model: type[M], key: str, form: MultiDict,
              prefix: str = "", prepare: Callable[[dict], dict] | None = None,
              label: Callable[[str], str] | None = None) -> FormResult[M]:
    """Read a posted form of fields named by paths into `model` (stored under `key` of the table's state)
    and save what the player changed. Without a table, the posted state is read and nothing is saved.

    `prepare(part)` fills in what the page's fields rely on (one seat per player, say) on the model's
    JSON before the fields are set, both on the version shown and on the newest one. `label(path)` names
    a field in players' words in the notice (the path itself by default)."""
    prepare = prepare or (lambda part: part)
    label = label or (lambda path: path)
    posted = posted_fields(form, prefix)
    version = shown_version(form)
    shown_raw = None
    if table is not None:
        shown_raw = store.state_at(engine(), table.id, version) if version else None
        shown_raw = table.state if shown_raw is None else shown_raw
    base = prepare(lenient(model, stored_part(shown_raw, model, key)).model_dump(mode="json"))
    candidate, skipped = _apply(base, posted)
    try:
        typed = model.model_validate(candidate)
    except ValidationError as err:
        problems = from_validation(err, candidate)
        return FormResult(lenient(model, candidate), table, problems, raw=posted, skipped=skipped)
    typed_json = typed.model_dump(mode="json")
    changed = []
    for p in posted:
        if p in skipped:
            continue
        value = paths.get(typed_json, p, paths.MISSING)
        if value is paths.MISSING:  # not a field of the state (a seat menu, a button): the model dropped it
            skipped.append(p)
        elif value != paths.get(base, p, paths.MISSING):
            changed.append(p)
    if table is None:
        return FormResult(typed, None, raw=posted, changed=changed, skipped=skipped)
    if not changed:  # already saved (the form saves itself as the player types): say so, save nothing
        newest = store.get(engine(), table.id) or table
        if version is not None and newest.version > version:
            g.tablebot_merged = True
        notice("ok", f"Saved with table {newest.code} (version {newest.version}).")
        return FormResult(read_state(newest, model, key), newest, raw=posted, skipped=skipped)
    gone: list[str] = []
    theirs: dict[str, Any] = {}

    def mutate(state: dict) -> dict:
        gone.clear()
        theirs.clear()
        mine = prepare(lenient(model, stored_part(state, model, key)).model_dump(mode="json"))
        for p in changed:
            newest = paths.get(mine, p, paths.MISSING)
            if newest is not paths.MISSING and newest != paths.get(base, p, paths.MISSING):
                theirs[p] = newest  # another phone changed this very field since this page showed it
            try:
                paths.set_(mine, p, paths.get(typed_json, p))
            except paths.PathError:
                gone.append(p)
        state[key] = model.model_validate(mine).model_dump(mode="json")
        return state

    try:
        saved = store.apply_change(engine(), table.id, mutate)
    except ValidationError as err:  # valid alone, but not together with another phone's newer change
        return FormResult(read_state(store.get(engine(), table.id), model, key), table,
                          from_validation(err), raw=posted, skipped=skipped)
    _merged(saved, version)
    text = f"Saved with table {saved.code} (version {saved.version})."
    if theirs:
        text += " Another phone had changed the same field meanwhile; yours replaced it (" + "; ".join(
            f"{label(p)} held {_short(v)}" for p, v in theirs.items()) + ")."
    if gone:
        text += " Not applied, because another phone removed what it was about: " + ", ".join(map(label, gone)) + "."
    notice("conflict" if theirs or gone else "ok", text)
    return FormResult(read_state(saved, model, key), saved, raw=posted, changed=changed, skipped=skipped + gone,
                      overwritten=theirs)


def _short(value: Any) -> str:
    if not isinstance(value, str):
        return "empty" if value is None else str(value)[:40]
    return f"“{value[:40]}{'…' if len(value) > 40 else ''}”"


def save_change(table: store.TableRecord, mutate: Mutate) -> store.TableRecord:
    """Apply `mutate` (a change of this page's part, on a copy of the state) to the newest state."""
    saved = store.apply_change(engine(), table.id, mutate)
    _merged(saved, shown_version(request.form) if has_request_context() else None)
    return _saved(saved)


PrivateMutate = Callable[[dict, dict[int, dict]], tuple[dict, dict[int, dict]]]


STALE = ("Another phone changed the table first, so nothing was applied. "
         "Here is the table now; the answer below is worked out again from it.")


def _saved(saved: store.TableRecord) -> store.TableRecord:
    notice("ok", f"Saved with table {saved.code} (version {saved.version}).")
    return saved


def save_private_change(table: store.TableRecord, seats: list[int], mutate: PrivateMutate) -> store.TableRecord:
    """`save_change` for a change of seats' private states as well (a card from a hand onto a stack):
    `mutate(state, {seat: private})` on the newest ones, all kept in one version."""
    saved = store.apply_private_change(engine(), table.id, seats, mutate)
    _merged(saved, shown_version(request.form) if has_request_context() else None)
    return _saved(saved)


def save_private_answer(table: store.TableRecord, version: int | None, seats: list[int],
                        mutate: PrivateMutate) -> store.TableRecord:
    """An answer worked out from `version` (apply this roll; this Attack's targets), applied only on that
    version, under the table's lock: `mutate(state, {seat: private})` for the seats in `seats`; `Stale`
    with the newer table otherwise."""
    if version is None:
        notice("conflict", STALE)
        raise Stale(store.get(engine(), table.id) or table)
    try:
        saved = store.apply_private_change(engine(), table.id, seats, mutate, read_version=version)
    except store.Conflict as c:
        notice("conflict", STALE)
        raise Stale(c.current) from None
    return _saved(saved)


def save_answer(table: store.TableRecord, version: int | None, mutate: Mutate) -> store.TableRecord:
    """Apply `mutate` (a change of the public state) only on `version`, the state the answer was worked
    out from; `Stale` otherwise."""
    return save_private_answer(table, version, [], lambda state, privates: (mutate(state), privates))
