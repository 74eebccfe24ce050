"""The table page's part of a table's state (`state["table"]`): the players' names, the round, notes."""
from __future__ import annotations

from functools import cache

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

MAX_NAMES = 6


class TableInfo(BaseModel):
    model_config = ConfigDict(extra="ignore")  # a field this page does not have is not kept
    names: list[str] = Field(default_factory=list, max_length=MAX_NAMES)
    round: int = Field(default=1, ge=1, le=99)
    notes: str = Field(default="", max_length=4000)

    @field_validator("names", mode="before")
    @classmethod
    def _names(cls, value):
        # a name is at most 40 characters; a list of non-texts reads as no names (leniently, elsewhere)
        if isinstance(value, list):
            return [v.strip()[:40] if isinstance(v, str) else v for v in value]
        return value


@cache
def table_info_for(rounds: int | None) -> type[TableInfo]:
    """TableInfo with the round bounded by the game's number of rounds."""
    if not rounds:
        return TableInfo
    return create_model(f"TableInfo{rounds}", __base__=TableInfo,
                        round=(int, Field(default=1, ge=1, le=rounds)))
