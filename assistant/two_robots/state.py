"""The Two Robots table state: reading it, the changes the pages save (each a function of the newest
state and, when a hand is involved, of the seat's private state, for `web.save`), and the request body
one seat's answers are computed from (that seat with its hand, and the rest of the table as far as it is
public: the others' hands are their phones' alone)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvers.two_robots import table
from solvers.two_robots.game_data import DATA
from solvers.two_robots.variations import check_teams, partner

from ..tables import store
from ..web import save
from ..web.context import seat_names
from .schemas import MAX_SEATS, SeatPrivate, TwoRobotsState, default_deck

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
                       "health": other.health_now, "powers_left": other.powers_left, "salvager": other.salvager})
    body: dict[str, Any] = {"part_names": list(state.names()), "stacks": [s.model_dump() for s in mine.stacks],
                            "hand": [c.stored() for c in private.held()], "others": others,
                            "discard": [c.model_dump() for c in state.discard], "health": mine.health_now,
                            "actions": mine.actions,
                            "named_cards": [c.model_dump() for c in state.named_cards], "simple": state.simple,
                            "house_rules": state.house_rules.model_dump()}
    mate = partner(state.teams if check_teams(state.teams, count) is None else None, seat)
    if mate is not None:  # its index among the others
        body["partner"] = mate if mate < seat else mate - 1
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
# in between, so actions name cards by what they are, not only by where they were. The rules are the
# reducer's (solvers/two_robots/table.py); here the stored JSON is read, handed to it and checked.

PrivateChange = Callable[[dict, dict[int, dict]], tuple[dict, dict[int, dict]]]
card_code = table.card_code


def setting(part: TwoRobotsState, seats: int) -> table.Setting:
    """The reducer's setting for a table of `seats` seats with this state (its part names, its turn order,
    its variations: teams that do not fit the table's seats are not played)."""
    n = max(1, min(seats, MAX_SEATS))
    teams = tuple(part.teams) if part.teams and check_teams(part.teams, n) is None else None
    return table.Setting(seats=n, part_names=part.names(),
                         turn_order=part.turn_numbers(), start_health=DATA.default_health, draw=DATA.draw,
                         actions=DATA.actions, hand_limit=DATA.hand_limit, power_cost=DATA.power_cost,
                         robot_card_cost=DATA.robot_card_cost, simple=part.simple, teams=teams,
                         uniform_robot=part.house_rules.uniform_robot, five_stacks=part.house_rules.five_stacks,
                         robot_pile=DATA.robot_pile.get(n))


def acting(seats: int, action: table.Action, hand_seats: tuple[int, ...] = ()) -> PrivateChange:
    """One table action as a change of the state and of the private state of `hand_seats` (the seat whose
    hand the action touches: its own phone's). InputError when the action cannot be done."""
    def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
        part = save.read_state_json(state, TwoRobotsState, STATE_KEY)
        hands = {k: save.lenient(SeatPrivate, privates.get(k)).model_dump(mode="json") for k in hand_seats}
        part, hands = table.reduce(setting(TwoRobotsState.model_validate(part), seats), part, hands, action)
        state[STATE_KEY] = TwoRobotsState.model_validate(part).model_dump(mode="json")
        return state, {**privates, **{k: SeatPrivate.model_validate(h).model_dump(mode="json") for k, h in hands.items()}}
    return mutate


def acting_public(seats: int, action: table.Action) -> Callable[[dict], dict]:
    """A table action that touches no hand (damage, the next phase, a freeze, an Event), as a change."""
    private = acting(seats, action)
    return lambda state: private(state, {})[0]


def seats_up_to(seat: int) -> Callable[[dict], dict]:
    """`save_form`'s `prepare`: the seats exist up to `seat`, so its fields have somewhere to go."""
    def prepare(part: dict) -> dict:
        players = part.setdefault("players", [])
        while len(players) <= seat:
            players.append(TwoRobotsState().seat(0).model_dump(mode="json"))
        return part
    return prepare


def changing(fn: Callable[[dict], None]) -> Callable[[dict], dict]:
    """A change of the table's settings (as JSON, read leniently), checked by the model before it is kept."""
    def mutate(state: dict) -> dict:
        part = save.read_state_json(state, TwoRobotsState, STATE_KEY)
        fn(part)
        state[STATE_KEY] = TwoRobotsState.model_validate(part).model_dump(mode="json")
        return state
    return mutate


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


def add_named(card: dict) -> Callable[[dict], dict]:
    """A Power card, ability or Active Robot card entered by name (a table setting: no game action)."""
    def fn(part: dict) -> None:
        part.setdefault("named_cards", []).append(card)
    return changing(fn)


def remove_named(card_id: str) -> Callable[[dict], dict]:
    def fn(part: dict) -> None:
        part["named_cards"] = [c for c in part.get("named_cards", []) if c.get("id") != card_id]
    return changing(fn)
