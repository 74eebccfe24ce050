"""The score pages' game data (solvers/raising_robots/data/scoring.toml): the Friends class cards whose
count Tablebot knows, and each play-area column's extra resource cost. Read with tomllib and checked once
at import, so a broken file stops the app at start instead of failing a request."""
from __future__ import annotations

from dataclasses import dataclass

from solvers import gamedata

from .scoring import COLUMNS

DATA_NAME = "scoring.toml"
SOURCES = gamedata.SOURCES
COUNTS = ("competitions_completed", "inventory_vp")  # what a class card template counts
CARD_KEYS = {"id", "name", "counts", "text", "source", "section", "thresholds_source"}


@dataclass(frozen=True)
class ScoringData:
    class_cards: dict[str, dict]  # template id -> {id, name, counts, text, source, section, thresholds_source}
    slot_extra_cost: dict  # {by_column: [5 whole numbers], source, url?}


def parse(doc: dict, name: str = "scoring.toml") -> ScoringData:
    templates = {}
    for i, card in enumerate(doc.get("class_cards", [])):
        missing = CARD_KEYS - set(card)
        if missing:
            raise ValueError(f"{name}: class_cards[{i}] lacks {sorted(missing)}")
        if card["counts"] not in COUNTS or card["source"] not in SOURCES or card["thresholds_source"] not in SOURCES:
            raise ValueError(f"{name}: class_cards[{i}] has an unknown counts or source")
        if card["id"] in templates:
            raise ValueError(f"{name}: class_cards[{i}] repeats the id {card['id']!r}")
        templates[card["id"]] = card
    slot = doc.get("slot_extra_cost")
    if (not isinstance(slot, dict) or not isinstance(slot.get("by_column"), list)
            or len(slot["by_column"]) != COLUMNS or slot.get("source") not in SOURCES
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in slot["by_column"])):
        raise ValueError(f"{name}: slot_extra_cost needs {COLUMNS} whole numbers and a source")
    if slot["source"] == "public" and not slot.get("url"):
        raise ValueError(f"{name}: slot_extra_cost is public: give its url")
    return ScoringData(templates, slot)


def load(raw: dict | None = None) -> ScoringData:
    return parse(gamedata.read("raising_robots", DATA_NAME) if raw is None else raw, DATA_NAME)


SCORING_DATA = load()
