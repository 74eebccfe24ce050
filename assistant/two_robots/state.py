"""The Two Robots table state: reading it, the changes the pages save (each a function of the newest
state and, when a hand is involved, of the seat's private state, for `web.save`), and the request body
one seat's answers are computed from (that seat with its hand, and the rest of the table as far as it is
public: the others' hands are their phones' alone)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..tables import store
from ..web import save
from ..web.context import seat_names
from .schemas import SeatPrivate, TwoRobotsState, default_deck, energies_code

STATE_KEY = "two_robots"


def read(table: store.TableRecord | None) -> TwoRobotsState:
    """The table's Two Robots state (empty without a table): whatever was saved, it opens."""
    return TwoRobotsState.from_stored(table.state.get(STATE_KEY) if table is not None else None)


def read_private(raw: object, state: TwoRobotsState) -> SeatPrivate:
    """A seat's private state as its model, without cards of part names the table no longer uses."""
    return SeatPrivate.model_validate(save.lenient(SeatPrivate, raw).model_dump()).known(state.names())


def seat_body(state: TwoRobotsState, seat: int, labels: list[str] | None = None,
              private: SeatPrivate | None = None) -> dict:
    """The request body for one seat's answers: its factory and hand (`private`: read for its own phone
    only), the other seats' factories with what is public about them (hand sizes, health:
    "Clarifications"), the discard pile and the deck. Other seats' hands are never part of it."""
    mine = state.seat(seat)
    private = private or SeatPrivate()
    count = max(len(state.players), seat + 1, len(labels or []))
    labels = labels or [f"Player {k + 1}" for k in range(count)]
    others = []
    for k in range(count):
        if k == seat:
            continue
        other = state.seat(k)
        others.append({"name": labels[k] if k < len(labels) else f"Player {k + 1}",
                       "stacks": [s.model_dump() for s in other.stacks], "hand_count": other.hand_count,
                       "health": other.health_now, "powers_left": other.powers_left})
    body: dict[str, Any] = {"part_names": list(state.names()), "stacks": [s.model_dump() for s in mine.stacks],
                            "hand": [c.stored() for c in private.held()], "others": others,
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


# ---- changes -----------------------------------------------------------------------------------------
# Each is a function of the newest state: `save.save_change` applies it again when another phone saved
# in between, so it names cards by what they are, not only by where they were.

Part = dict[str, Any]
PrivateChange = Callable[[dict, dict[int, dict]], tuple[dict, dict[int, dict]]]


def changing(fn: Callable[[dict], None]) -> Callable[[dict], dict]:
    """A change of the Two Robots part (as JSON, read leniently), checked by the model before it is kept."""
    def mutate(state: dict) -> dict:
        part = save.read_state_json(state, TwoRobotsState, STATE_KEY)
        fn(part)
        state[STATE_KEY] = TwoRobotsState.model_validate(part).model_dump(mode="json")
        return state
    return mutate


def changing_hand(seat: int, fn: Callable[[dict, dict], None]) -> PrivateChange:
    """A change of the Two Robots part and of one seat's private state (`fn(part, mine)`, both as JSON,
    read leniently and checked by their models before they are kept); the seat's public hand size follows."""
    def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
        part = save.read_state_json(state, TwoRobotsState, STATE_KEY)
        mine = save.lenient(SeatPrivate, privates.get(seat)).model_dump(mode="json")
        fn(part, mine)
        mine = SeatPrivate.model_validate(mine).model_dump(mode="json")
        _seat(part, seat)["hand_count"] = len(mine["hand"]) + len(mine["drawn"])
        state[STATE_KEY] = TwoRobotsState.model_validate(part).model_dump(mode="json")
        return state, {**privates, seat: mine}
    return mutate


def seats_up_to(seat: int) -> Callable[[dict], dict]:
    """`save_form`'s `prepare`: the seats exist up to `seat`, so its fields have somewhere to go."""
    def prepare(part: dict) -> dict:
        players = part.setdefault("players", [])
        while len(players) <= seat:
            players.append(TwoRobotsState().seat(0).model_dump(mode="json"))
        return part
    return prepare


def _seat(part: dict, seat: int) -> dict:
    return seats_up_to(seat)(part)["players"][seat]


def card_code(card: Part) -> str:
    """A card in a few letters ("head:cs", "attack:3:Nuclear Explosion"): how the pages name one."""
    if card.get("kind", "part") == "part":
        return f"{card['part']}:{energies_code(card['energies'])}"
    return f"{card['kind']}:{card.get('stacks_required') or 0}:{card.get('name') or ''}"


def _remember(seat: dict, card: Part) -> None:
    if card.get("kind", "part") != "part":
        return
    combo = energies_code(card["energies"])
    seat["recent"] = [combo] + [c for c in seat.get("recent", []) if c != combo][:5]


def add_card(seat: int, where: str, card: Part, draw: int = 3) -> PrivateChange:
    """Add a card: to the hand, a stack (`stack:2`), a new stack, the discard pile, or the draw being
    entered (`drawn`: when it holds `draw` cards they all go into the hand, in this one save)."""
    def fn(part: dict, mine: dict) -> None:
        stacks = _seat(part, seat)["stacks"]
        if where == "hand":
            mine["hand"].append(card)
        elif where == "new":
            stacks.append({"cards": [card], "frozen": False})
        elif where.startswith("stack:"):
            i = int(where.split(":")[1])
            if i < len(stacks):
                stacks[i]["cards"].append(card)
        elif where == "discard":
            part.setdefault("discard", []).append(card)
            return
        elif where == "drawn":
            mine["drawn"].append(card)
            if len(mine["drawn"]) >= draw:
                mine["hand"] += mine["drawn"]
                mine["drawn"] = []
        _remember(mine, card)
    return changing_hand(seat, fn)


def finish_draw(seat: int) -> PrivateChange:
    def fn(part: dict, mine: dict) -> None:
        mine["hand"] += mine["drawn"]
        mine["drawn"] = []
    return changing_hand(seat, fn)


def _take(cards: list[Part], code: str) -> Part | None:
    """Remove the last card of this code from a list (the one laid last, or the sideways copy)."""
    for j in range(len(cards) - 1, -1, -1):
        if card_code(cards[j]) == code:
            return cards.pop(j)
    return None


def remove_card(seat: int, where: str, code: str) -> PrivateChange:
    """Take a card out: of the hand, the draw, a stack (`stack:2`; a stack left empty goes) or the discard pile."""
    def fn(part: dict, mine: dict) -> None:
        stacks = _seat(part, seat)["stacks"]
        if where in ("hand", "drawn"):
            _take(mine[where], code)
        elif where == "discard":
            _take(part.setdefault("discard", []), code)
        elif where.startswith("stack:"):
            i = int(where.split(":")[1])
            if i < len(stacks):
                _take(stacks[i]["cards"], code)
                if not stacks[i]["cards"]:
                    del stacks[i]
    return changing_hand(seat, fn)


def play_card(seat: int, code: str, stack: int | None) -> PrivateChange:
    """A card from the hand onto a stack (None: as a new stack), or an Attack or Defense card from the
    hand to the discard pile, where a played one goes ("Attack / Defense Cards")."""
    def fn(part: dict, mine: dict) -> None:
        stacks = _seat(part, seat)["stacks"]
        card = _take(mine["hand"], code)
        if card is None:
            return
        if card.get("kind", "part") != "part":
            part.setdefault("discard", []).append(card)
        elif stack is None:
            stacks.append({"cards": [card], "frozen": False})
        elif stack < len(stacks):
            stacks[stack]["cards"].append(card)
        else:
            mine["hand"].append(card)
    return changing_hand(seat, fn)


def discard_card(seat: int, code: str) -> PrivateChange:
    """A card from the hand to the discard pile (Cleanup Phase)."""
    def fn(part: dict, mine: dict) -> None:
        card = _take(mine["hand"], code)
        if card is not None:
            part.setdefault("discard", []).append(card)
    return changing_hand(seat, fn)


def set_frozen(seat: int, stack: int, frozen: bool) -> Callable[[dict], dict]:
    def fn(part: dict) -> None:
        stacks = _seat(part, seat)["stacks"]
        if stack < len(stacks):
            stacks[stack]["frozen"] = frozen
    return changing(fn)


def set_cards(seat: int, stacks: list[dict], hand: list[Part]) -> PrivateChange:
    """The seat's factory and hand as typed in the text fields (they replace what was there)."""
    def fn(part: dict, mine: dict) -> None:
        _seat(part, seat)["stacks"] = stacks
        mine["hand"] = hand
    return changing_hand(seat, fn)


def rename_parts(names: tuple[str, ...], seats: int) -> PrivateChange:
    """The table's part names: the two the rules do not print are the table's, so a new name replaces
    the old one in every seat's cards (its hand and draw included, though no other phone sees them), the
    discard pile and the deck."""
    def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
        part = save.read_state_json(state, TwoRobotsState, STATE_KEY)
        old = TwoRobotsState.model_validate({"part_names": part.get("part_names")}).names()
        mapping = {a: b for a, b in zip(old, names) if a != b}

        def rename(cards: list) -> None:
            for c in cards:
                if isinstance(c, dict) and c.get("part") in mapping:
                    c["part"] = mapping[c["part"]]
        for seat in part.get("players", []):
            for st in seat.get("stacks", []):
                rename(st.get("cards", []))
        rename(part.get("discard", []))
        if isinstance(part.get("deck"), dict):
            rename(part["deck"].get("parts", []))
        part["part_names"] = list(names)
        out = {}
        for k, raw in privates.items():
            mine = save.lenient(SeatPrivate, raw).model_dump(mode="json")
            rename(mine["hand"])
            rename(mine["drawn"])
            out[k] = mine
        state[STATE_KEY] = TwoRobotsState.model_validate(part).model_dump(mode="json")
        return state, out
    return mutate


def reset_deck() -> Callable[[dict], dict]:
    def fn(part: dict) -> None:
        part["deck"] = None
    return changing(fn)
