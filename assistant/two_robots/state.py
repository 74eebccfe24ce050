"""The Two Robots table state: reading it from a table, the changes pages save, and the request body
one seat's answers are computed from (that seat, and the rest of the table as it is public)."""
from __future__ import annotations

from typing import Any

from ..tables import store
from ..web.context import as_dict, as_list, seat_names
from .schemas import TwoRobotsState, default_deck

STATE_KEY = "two_robots"


def read(table: store.TableRecord | None) -> TwoRobotsState:
    """The table's Two Robots state (empty without a table): whatever was saved, it opens."""
    return TwoRobotsState.from_stored(table.state.get(STATE_KEY) if table is not None else None)


def seat_body(state: TwoRobotsState, seat: int, labels: list[str] | None = None) -> dict:
    """The request body for one seat's answers: its factory and hand, the other seats' factories with
    what is public about them (hand sizes, health: "Clarifications"), the discard pile and the deck.
    Other seats' hands are never part of it."""
    mine = state.seat(seat)
    count = max(len(state.players), seat + 1, len(labels or []))
    labels = labels or [f"Player {k + 1}" for k in range(count)]
    others = []
    for k in range(count):
        if k == seat:
            continue
        other = state.seat(k)
        others.append({"name": labels[k] if k < len(labels) else f"Player {k + 1}",
                       "stacks": [s.model_dump() for s in other.stacks], "hand_count": other.cards_in_hand,
                       "health": other.health_now, "powers_left": other.powers_left})
    body: dict[str, Any] = {"part_names": list(state.names()), "stacks": [s.model_dump() for s in mine.stacks],
                            "hand": [c.stored() for c in mine.hand], "others": others,
                            "discard": [c.model_dump() for c in state.discard], "health": mine.health_now}
    if mine.salvager:
        body["salvager"] = mine.salvager
    if state.deck is not None:
        body["deck"] = state.deck.model_dump()
    return body


def table_labels(table: store.TableRecord | None, state: TwoRobotsState) -> list[str]:
    return seat_names(table, max(len(state.players), table.players if table is not None else 1))


def deck_of(state: TwoRobotsState):
    return state.deck.to_solver() if state.deck is not None else default_deck(state.names())


# ---- changes (applied to the newest state by `update_table`) ------------------------------------------

def _renamed_cards(cards: object, mapping: dict[str, str]) -> object:
    """Stored cards with their part names renamed (the table renamed a part for everyone)."""
    if not isinstance(cards, list):
        return cards
    return [dict(c, part=mapping[c["part"]]) if isinstance(c, dict) and c.get("part") in mapping else c
            for c in cards]


def _renamed_seat(raw: object, mapping: dict[str, str]) -> object:
    if not isinstance(raw, dict):
        return raw
    seat = dict(raw)
    if isinstance(seat.get("stacks"), list):
        seat["stacks"] = [dict(st, cards=_renamed_cards(st["cards"], mapping)) if isinstance(st, dict)
                          and isinstance(st.get("cards"), list) else st for st in seat["stacks"]]
    if "hand" in seat:
        seat["hand"] = _renamed_cards(seat["hand"], mapping)
    unseen = seat.get("unseen")
    if isinstance(unseen, dict) and isinstance(unseen.get("parts"), dict):
        def key(k: str) -> str:
            part, sep, code = k.partition(":")
            return f"{mapping.get(part, part)}{sep}{code}"
        seat["unseen"] = dict(unseen, parts={key(k): v for k, v in unseen["parts"].items()})
    return seat


def seat_change(seat_index: int, fields: dict, names: tuple[str, ...] | None = None):
    """The change one post makes, as a function of the table state (`update_table` applies it again on
    a newer state when another phone saved first): this seat's changed fields, and with `names`, the
    table's part names renamed (in every seat's cards and the discard pile too, since a name is the
    table's). `unseen: None` is "back to the default deck"."""
    def mutate(state: dict) -> dict:
        mine = dict(as_dict(state.get(STATE_KEY)))
        players = list(as_list(mine.get("players")))
        if names is not None:
            stored = TwoRobotsState.from_stored({"part_names": mine.get("part_names")}).names()
            mapping = {old: new for old, new in zip(stored, names) if old != new}
            if mapping:
                players = [_renamed_seat(p, mapping) for p in players]
                if "discard" in mine:
                    mine["discard"] = _renamed_cards(mine["discard"], mapping)
                if isinstance(mine.get("deck"), dict) and "parts" in mine["deck"]:
                    mine["deck"] = dict(mine["deck"], parts=_renamed_cards(mine["deck"]["parts"], mapping))
            mine["part_names"] = list(names)
        while len(players) <= seat_index:
            players.append({})
        seat = dict(as_dict(players[seat_index]))
        for k, v in fields.items():
            if v is None and k == "unseen":
                seat.pop(k, None)
            else:
                seat[k] = v
        players[seat_index] = seat
        mine["players"] = players
        state[STATE_KEY] = mine
        return state
    return mutate


def table_change(fields: dict):
    """A change to the table's own Two Robots fields (the discard pile, the deck); None removes one."""
    def mutate(state: dict) -> dict:
        mine = dict(as_dict(state.get(STATE_KEY)))
        for k, v in fields.items():
            if v is None:
                mine.pop(k, None)
            else:
                mine[k] = v
        state[STATE_KEY] = mine
        return state
    return mutate
