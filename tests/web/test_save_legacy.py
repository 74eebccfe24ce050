"""A game that once kept its part of a table's state under other keys (Raising Robots: `rr_players`, ...)
reads such a table through its model's `legacy_part`: the first save of a field keeps everything else the
old keys held, and says nothing about another phone (nobody else changed anything)."""
from __future__ import annotations

from pydantic import BaseModel, Field
from werkzeug.datastructures import MultiDict

from assistant.db import engine
from assistant.tables import store
from assistant.web import save


class Part(BaseModel):
    gear: int = Field(default=0, ge=0)
    vp: int = Field(default=0, ge=0)

    @classmethod
    def legacy_part(cls, state: dict) -> dict | None:
        old = state.get("old_counts")
        return {"gear": old.get("g"), "vp": old.get("v")} if isinstance(old, dict) else None


def test_a_first_save_keeps_what_the_old_keys_held(app):
    with app.test_request_context(method="POST"):
        table = store.create(engine(), "two-robots", 2, {"old_counts": {"g": 3, "v": 7}})
        assert save.read_state(table, Part, "part") == Part(gear=3, vp=7)
        result = save.save_form(table, Part, "part", MultiDict({"version": str(table.version), "gear": "4",
                                                                "vp": "7"}))
        assert result.changed == ["gear"] and not result.overwritten
        saved = store.get(engine(), table.id)
        assert saved.state["part"] == {"gear": 4, "vp": 7}
        assert save.read_state(saved, Part, "part") == Part(gear=4, vp=7)  # the new key wins from now on


def test_without_legacy_part_a_missing_key_reads_as_the_defaults(app):
    class Plain(BaseModel):
        gear: int = 0

    with app.test_request_context():
        table = store.create(engine(), "two-robots", 2, {"old_counts": {"g": 3}})
        assert save.read_state(table, Plain, "part") == Plain()
