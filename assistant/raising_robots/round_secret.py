"""Round Preparation's secret (player aid: Phase Cards are assigned face down and revealed together): at a
table, the cards of a seat a phone holds go to that seat's private state while it chooses, and its public
state says only that it is ready. When every seat is ready (a seat no phone holds is entered in public and
is ready once it says so), every seat's cards move to the public state at once."""
from __future__ import annotations

import re

from pydantic import ValidationError
from werkzeug.datastructures import MultiDict

from ..web import save
from ..web.problems import from_validation
from ..web.stored import lenient
from .page_state import PageState
from .schemas import STATE_KEY, RaisingRobotsState, RoundPrep, Seat

CARD_FIELD = re.compile(r"^seats\.(\d)\.prep\.cards\.([01])\.(phase|energy|cubes|multiplier|twice)$")
# the batteries a seat plans per phase tell which phases its cards open: secret with the cards
BATTERY_FIELD = re.compile(r"^seats\.(\d)\.prep\.batteries\.(upgrade|assemble|design|fabricate|recycle)$")
PRIVATE_KEY = "prep"


def held_seats(ps: PageState) -> set[int]:
    return {s.seat for s in ps.seat_infos if s.claimed}


def public_prep(ps: PageState, i: int) -> RoundPrep:
    return ps.state.seat(i).prep_in(ps.round)


def secret_mode(ps: PageState) -> bool:
    """This phone enters its own seat's cards in secret (at a table, its seat, not revealed yet)."""
    return (ps.table is not None and ps.phone_seat is not None and ps.seat == ps.phone_seat
            and not public_prep(ps, ps.seat).revealed)


def hidden_from_me(ps: PageState) -> bool:
    """The seat shown is another phone's, still choosing in secret: its cards are not this phone's to see."""
    return (ps.table is not None and ps.seat != ps.phone_seat and ps.seat in held_seats(ps)
            and not public_prep(ps, ps.seat).revealed)


def draft(ps: PageState) -> RoundPrep:
    """This phone's seat's cards and planned batteries as chosen in secret (blank when kept for another
    round). A table stored before the batteries were secret has them in public: they are read from there
    until the seat's next save moves them here."""
    raw = ps.private.get(PRIVATE_KEY) if isinstance(ps.private, dict) else None
    kept = lenient(RoundPrep, raw)
    if kept.round == ps.round:
        return kept
    return RoundPrep(round=ps.round, batteries=public_prep(ps, ps.seat).batteries)


def split_form(ps: PageState, form: MultiDict) -> tuple[MultiDict, dict[tuple[int | str, str], str]]:
    """The posted form without the seat's card and battery fields (saved in secret), and those fields
    (a card's as (index, field), a phase's batteries as ("batteries", phase))."""
    cards: dict[tuple[int | str, str], str] = {}
    rest = MultiDict()
    for key in form.keys():
        m = CARD_FIELD.match(key)
        b = BATTERY_FIELD.match(key)
        if m and int(m.group(1)) == ps.seat:
            cards[(int(m.group(2)), m.group(3))] = form.getlist(key)[-1]  # a ticked box comes after its "false"
        elif b and int(b.group(1)) == ps.seat:
            cards[("batteries", b.group(2))] = form.getlist(key)[-1]
        else:
            for v in form.getlist(key):
                rest.add(key, v)
    return rest, cards


def save_draft(ps: PageState, posted: dict[tuple[int | str, str], str]) -> RoundPrep:
    """Keep the cards and batteries typed in the seat's private state (validated by the same model as the
    public ones); batteries an older table kept in public leave it."""
    shown = draft(ps)
    base = shown.model_dump(mode="json")
    for (k, field), value in posted.items():
        if k == "batteries":
            base["batteries"][field] = 0 if value == "" else value
        else:
            base["cards"][k][field] = None if value == "" and field in ("energy", "phase") else value
    try:
        new = RoundPrep.model_validate(base)
    except ValidationError as err:
        for p in from_validation(err, base, f"seats.{ps.seat}.prep."):
            ps.problem(p.path, p.message)
        return shown
    old_public = public_prep(ps, ps.seat).batteries.given()
    if new != shown or old_public:
        seat, body, rnd = ps.seat, new.model_dump(mode="json"), ps.round

        def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
            seats = (state.get(STATE_KEY) or {}).get("seats") or []
            prep = seats[seat].get("prep") if seat < len(seats) and isinstance(seats[seat], dict) else None
            if isinstance(prep, dict) and prep.get("round") == rnd and isinstance(prep.get("batteries"), dict):
                prep["batteries"] = {p: 0 for p in prep["batteries"]}
            return state, {**privates, seat: {**(privates.get(seat) or {}), PRIVATE_KEY: body}}
        ps.change_private(mutate)
    return new


def reveal(ps: PageState) -> str | None:
    """This phone's seat has assigned: ready. When every seat a phone holds is, all their cards go public
    together (a seat no phone holds is entered in public and never holds the others up). A note for the
    page, or None (a problem is added instead)."""
    if not secret_mode(ps) or ps.table is None:
        ps.problem("", "Only a seat's own phone, at a table, assigns in secret.")
        return None
    if len(draft(ps).entered()) < 2:
        ps.problem("", "Enter both energy cards and the phase under each first.")
        return None
    i, rnd, n, held = ps.seat, ps.round, ps.count, held_seats(ps)
    everyone: dict[str, bool] = {}

    def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
        part = save.read_state_json(state, RaisingRobotsState, STATE_KEY)
        seats = part.setdefault("seats", [])
        while len(seats) < n:
            seats.append(Seat().model_dump(mode="json"))
        for seat in seats[:n]:
            if seat["prep"].get("round") != rnd:
                seat["prep"] = RoundPrep(round=rnd).model_dump(mode="json")
        seats[i]["prep"]["ready"] = True
        everyone["ready"] = all(seats[k]["prep"]["ready"] or seats[k]["prep"]["revealed"] for k in held if k < n)
        if everyone["ready"]:
            for k, seat in enumerate(seats[:n]):
                mine = lenient(RoundPrep, (privates.get(k) or {}).get(PRIVATE_KEY))
                if k in held and mine.round == rnd and not seat["prep"]["revealed"]:
                    seat["prep"]["cards"] = mine.model_dump(mode="json")["cards"]
                    seat["prep"]["batteries"] = mine.model_dump(mode="json")["batteries"]
                    privates[k] = {key: v for key, v in (privates.get(k) or {}).items() if key != PRIVATE_KEY}
                seat["prep"].update(ready=False, revealed=True)
        state[STATE_KEY] = RaisingRobotsState.model_validate(part).model_dump(mode="json")
        return state, privates

    ps._set_table(save.save_private_change(ps.table, list(range(n)), mutate))
    ps.refresh()
    if everyone.get("ready"):
        return "Everyone has assigned: every seat’s cards are revealed, and their cubes are on the board."
    return "Ready: your cards stay on this phone until every seat has assigned."
