"""The Friendship deck at a table (rulebook "Competitions & Friendships": Changes to Setup step 4, Completion
Rewards, Friendships): the page /raising-robots/friendship, the table action
`POST /api/raising-robots/tables/<id>/friendship` and the odds `POST /api/raising-robots/friendship/odds`.

What is secret: the cards a seat drew are kept in that seat's private state (`friendship.draws`), never in
the table's state; the public state keeps the log (how many cards each draw took, each reshuffle, each kept
card). The odds for a phone are worked out from the public log and that phone's own draws only.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flask import Blueprint, render_template, request

from solvers.errors import InputError
from solvers.exact import exact
from solvers.raising_robots import friendship as fr
from solvers.raising_robots import table as rr_table
from solvers.raising_robots.abilities import ability_id

from ..api import ApiError, bad_field, json_body, parse, parse_action
from ..db import engine
from ..tables import store
from ..web import save
from ..web import seat as phone
from ..web.stored import lenient
from . import present
from . import state as rr
from .friendship_schemas import PRIVATE_KEY, ActionIn, DrawAction, FriendshipDeck, KeepAction, OddsIn, SeatSeen
from .page_state import PageState
from .schemas import MAX_SEATS, STATE_KEY, RaisingRobotsState, Seat

bp = Blueprint("rr_friendship", __name__)

RULES = [fr.RULE_SETUP, fr.RULE_PAW, fr.RULE_REWARDS, fr.RULE_DECK, fr.RULE_CAP, fr.RULE_HIDDEN, fr.RULE_AT_CAP]
SHOWN_PATHS = ["draw", "draw.cards", *(f"draw.cards[{j}]" for j in range(3)), "keep.card", "record.seat",
               "record.card", "record"]  # shown next to their form; the page lists the rest at the top
ODDS_RULES = [fr.RULE_REWARDS, fr.RULE_DECK, fr.RULE_HIDDEN]

PrivateMutate = Callable[[dict, dict[int, dict]], tuple[dict, dict[int, dict]]]


# ---- JSON ----------------------------------------------------------------------------------------------

def setup_json(built: fr.Built, pets: bool, cards: Sequence[fr.Card] = fr.DEFAULT_CARDS) -> dict:
    """The deck at setup as `fr.build` gave it: the cards in it, those taken out and why (Changes to Setup,
    step 4)."""
    by_id = {c.id: c for c in cards}
    return {"pets": pets, "size": len(built.cards),
            "cards": [{"id": c, "name": by_id[c].name, "source": by_id[c].source} for c in built.cards],
            "removed": [{"card": r.card, "name": by_id[r.card].name, "why": r.why, "rule": r.rule}
                        for r in built.removed],
            "unverified": "the rulebook names 10 of the 26 cards and no source says which carry a paw: the other "
                          "names and every paw are defaults to check against your cards",
            "rules": [fr.RULE_SETUP, fr.RULE_PAW]}


def odds_json(odds: fr.Odds, names: dict[str, str], viewer: int | None) -> dict:
    return {
        "count": odds.count, "viewer": viewer, "from_deck": odds.plan.from_deck, "reshuffle": odds.plan.reshuffled,
        "after_reshuffle": odds.plan.after_reshuffle,
        "cards": [{"card": c, "name": names.get(c, c), "p": exact(p),
                   **({"where": dict(zip(("deck", "discard", "drawn"), map(exact, odds.where[c]), strict=True))}
                      if c in odds.where else {})} for c, p in odds.cards],
        "chosen": list(odds.chosen), "shown": [{"n": k, "p": exact(p)} for k, p in odds.shown],
        "p_any": exact(odds.p_any), "consistent": odds.consistent, "why": odds.why, "notes": list(odds.notes),
        "rules": ODDS_RULES}


def deck_json(fd: FriendshipDeck, deck: fr.Deck) -> dict:
    """The deck as every phone may see it."""
    names = fd.names()
    return {"built": fd.built, "pets": fd.pets, "deck": deck.deck, "discard": deck.discard,
            "reshuffles": deck.reshuffles, "pending": {str(s): n for s, n in deck.pending.items()},
            "kept": {str(s): [names.get(c, c) for c in cards] for s, cards in deck.kept.items()}}


# ---- changes -------------------------------------------------------------------------------------------

def _part(state: dict, seats: int) -> dict:
    part = save.read_state_json(state, RaisingRobotsState, STATE_KEY)
    players = part.setdefault("seats", [])
    while len(players) < min(seats, MAX_SEATS):
        players.append(Seat().model_dump(mode="json"))
    part["friendship"] = lenient(FriendshipDeck, part.get("friendship")).model_dump(mode="json")
    return part


def _store(state: dict, part: dict) -> dict:
    state[STATE_KEY] = RaisingRobotsState.model_validate(part).model_dump(mode="json")
    return state


def build_change(pets: bool, inventors: Sequence[str], seats: int) -> PrivateMutate:
    """Setup: the deck built afresh from the table's card list; every seat's draws forgotten."""
    def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
        part = _part(state, seats)
        fd = FriendshipDeck.model_validate(part["friendship"])
        built = fr.build(fd.card_list(), inventors, pets)
        part["friendship"].update(built=True, pets=pets, deck_cards=list(built.cards), log=[],
                                  removed=[{"card": r.card, "why": r.why, "rule": r.rule} for r in built.removed])
        return _store(state, part), {k: {key: v for key, v in (p or {}).items() if key != PRIVATE_KEY}
                                     for k, p in privates.items()}
    return mutate


def _deck_of(part: dict) -> tuple[FriendshipDeck, fr.Deck]:
    fd = FriendshipDeck.model_validate(part["friendship"])
    if not fd.built:
        raise InputError("", "build the deck first (setup, below)")
    return fd, fd.to_solver()


def _seen_of(privates: dict[int, dict], seat: int) -> fr.Seen:
    return SeatSeen.read(privates.get(seat)).to_solver()


def _with_seen(privates: dict[int, dict], seat: int, seen: fr.Seen) -> dict[int, dict]:
    return {**privates, seat: {**(privates.get(seat) or {}), PRIVATE_KEY: {"draws": [list(d) for d in seen.draws]}}}


def _keep_on_seat(part: dict, seat: int, fd: FriendshipDeck, card: str) -> None:
    """The kept card joins the seat's Friendship cards (read by the other pages), unless already named."""
    name = fd.names().get(card, card)
    record = part["seats"][seat]
    if ability_id(name) not in {ability_id(n) for n in record.get("friendships", []) if n}:
        part["seats"][seat] = rr_table.keep_friendship(part, seat, name)["seats"][seat]


def draw_change(seat: int, count: int, cards: Sequence[str] | None, seats: int, keep: str | None = None,
                own: bool = True) -> PrivateMutate:
    """A seat draws (and enters its cards, or names none); with `keep`, it keeps that card at once (a seat
    entered by another phone: only the kept card is named). `own` False: the acting phone does not hold the
    seat; it works from the public record only and the seat's private state stays as it was."""
    def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
        part = _part(state, max(seats, seat + 1))
        fd, deck = _deck_of(part)
        held = RaisingRobotsState.model_validate(part).seat(seat).friendships_held()
        deck, seen = fr.draw(deck, seat, count, cards, _seen_of(privates, seat) if own else fr.Seen(), held=held)
        if keep is not None:
            deck, seen = fr.keep(deck, seat, keep, seen if own else None)
            _keep_on_seat(part, seat, fd, keep)
        part["friendship"]["log"] = FriendshipDeck.log_of(deck)
        return _store(state, part), (_with_seen(privates, seat, seen) if own and seen is not None else privates)
    return mutate


def keep_change(seat: int, card: str, seats: int, own: bool = True) -> PrivateMutate:
    def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
        part = _part(state, max(seats, seat + 1))
        fd, deck = _deck_of(part)
        deck, _ = fr.keep(deck, seat, card, _seen_of(privates, seat) if own else None)
        _keep_on_seat(part, seat, fd, card)
        part["friendship"]["log"] = FriendshipDeck.log_of(deck)
        return _store(state, part), privates
    return mutate


def card_named(fd: FriendshipDeck, name: str) -> str | None:
    """The deck's card a player typed: its id, or its name as the abilities read names."""
    key = ability_id(name)
    return next((c for c, n in fd.names().items() if key and (c == name.strip() or ability_id(n) == key)), None)


def planner_keep_change(seat: int, card: str, draw: int, then: rr.Mutate, seats: int, own: bool = True
                        ) -> PrivateMutate:
    """The planner's "I kept <card>" at a table whose deck is built: the keep goes into the deck (after a
    draw of `draw` cards, entered without names, when the seat has none waiting; nothing when the Friendship
    page recorded this keep already), then `then` applies the plan, naming the card once. `own` False: another
phone, for a seat no phone holds: the public record only, the seat's private state unchanged."""
    def mutate(state: dict, privates: dict[int, dict]) -> tuple[dict, dict[int, dict]]:
        part = _part(state, max(seats, seat + 1))
        fd, deck = _deck_of(part)
        if card not in deck.kept_by(seat):
            seen = _seen_of(privates, seat) if own else fr.Seen()
            if not deck.pending_of(seat):
                held = RaisingRobotsState.model_validate(part).seat(seat).friendships_held()
                deck, seen = fr.draw(deck, seat, draw, None, seen, held=held)
            deck, _ = fr.keep(deck, seat, card, seen if own else None)
            part["friendship"]["log"] = FriendshipDeck.log_of(deck)
            state = _store(state, part)
            if own:
                privates = _with_seen(privates, seat, seen)
        return then(state), privates
    return mutate


# ---- the API -------------------------------------------------------------------------------------------

def _table(table_id: str) -> store.TableRecord:
    record = store.get(engine(), table_id) if store.is_id(table_id) else None
    if record is None or record.game != "raising-robots":
        raise ApiError(404, "not_found", "No Raising Robots table has this id.")
    return record


def _not_yours(path: str) -> ApiError:
    return ApiError(403, "not_your_seat", "Only the phone that holds this seat enters the cards it drew.",
                    [{"path": path, "message": "not held by this phone"}])


def _may_act(record: store.TableRecord, action: DrawAction | KeepAction) -> None:
    """A seat's drawn cards are entered by its own phone; a seat no phone holds may be entered by any phone,
    naming only the card it kept."""
    mine = phone.phone_seat(record)
    if action.seat == mine:
        return
    held = {s.seat for s in phone.seat_infos(record) if s.claimed}
    if action.seat in held or (isinstance(action, DrawAction) and action.cards is not None):
        raise _not_yours("action.seat")
    if isinstance(action, KeepAction) and not keep_allowed(record, action.seat):
        raise _not_yours("action.seat")


def keep_allowed(record: store.TableRecord, seat: int) -> bool:
    """Whether this phone may record `seat`'s kept card: its own seat, or one no phone holds (checked then
    against the public record only: the answer must not depend on what the seat drew in secret, or trying
    cards one by one would tell another phone which cards it holds)."""
    return seat == phone.phone_seat(record) or seat not in {s.seat for s in phone.seat_infos(record) if s.claimed}


ACTION_TYPES = ("setup", "draw", "keep")


def _parse_action() -> ActionIn:
    return parse_action(ActionIn, ACTION_TYPES)


@bp.post("/api/raising-robots/tables/<table_id>/friendship")
def api_action(table_id: str):
    """A Friendship deck action on the version the caller saw: 200 the table, 409 stale, 400 naming the field
    when the rules refuse it, 403 for another phone's seat."""
    body = _parse_action()
    record = _table(table_id)
    seats = max(1, min(record.players, MAX_SEATS))
    a = body.action
    if isinstance(a, DrawAction | KeepAction):
        if a.seat >= seats:
            raise bad_field("action.seat", f"the table has {seats} seats")
        _may_act(record, a)
    own = isinstance(a, DrawAction | KeepAction) and a.seat == phone.phone_seat(record)
    if isinstance(a, DrawAction):
        mutate, touched = draw_change(a.seat, a.count, a.cards, seats, own=own), [a.seat]
    elif isinstance(a, KeepAction):
        mutate, touched = keep_change(a.seat, a.card, seats, own=own), [a.seat]
    else:
        part = rr.read(record)
        inventors = a.inventors if a.inventors is not None else [part.seat(i).inventor.name for i in range(seats)]
        mutate, touched = build_change(a.pets, inventors, seats), list(range(seats))
    try:
        saved = store.apply_private_change(engine(), record.id, touched, mutate, read_version=body.version)
    except InputError as err:
        raise bad_field(f"action.{err.path}" if err.path else "action", err.message) from None
    except store.Conflict as c:
        raise ApiError(409, "conflict", f"Someone else saved this table first (it is now at version "
                       f"{c.current.version}); nothing was applied. Here is the table now.",
                       extra={"table": c.current.as_json()}) from None
    fd = rr.read(saved).friendship
    return {**saved.as_json(), "friendship": deck_json(fd, fd.to_solver())}


@bp.post("/api/raising-robots/friendship/odds")
def api_odds():
    """The chance that the next draw shows each card (and how many of `cards`): for this phone's seat at a
    table, from what it has seen; or for a deck sent whole."""
    data = json_body()
    body = parse(OddsIn, data if data is not None else {})
    if body.table is not None:
        record = _table(body.table)
        fd = rr.read(record).friendship
        if not fd.built:
            raise bad_field("table", "this table's Friendship deck is not built yet")
        deck, names = fd.to_solver(), fd.names()
        viewer = phone.phone_seat(record)
        seen = SeatSeen.read(store.read_private(engine(), record, viewer)).to_solver() if viewer is not None else None
    elif body.deck is not None:
        events = [fr.Drew(r.seat, r.from_deck, r.reshuffled, r.after_reshuffle) if r.type == "draw"
                  else fr.Kept(r.seat, r.card) for r in body.deck.log]
        unknown = next((j for j, c in enumerate(body.deck.cards) if c not in fr.DEFAULT_CARDS_BY_ID), None)
        if unknown is not None:
            raise bad_field(f"deck.cards[{unknown}]", "not a Friendship card id")
        if len(set(body.deck.cards)) != len(body.deck.cards):
            raise bad_field("deck.cards", "a card is listed twice")
        deck, applied = fr.replayed(body.deck.cards, events)
        if applied < len(events):
            raise bad_field(f"deck.log[{applied}]", "this draw or keep cannot happen after the ones before it")
        names = {c.id: c.name for c in fr.DEFAULT_CARDS}
        viewer = body.viewer
        if body.seen and viewer is None:
            raise bad_field("viewer", "say whose draws `seen` holds")
        seen = fr.Seen(draws=tuple(tuple(d) for d in body.seen)) if viewer is not None else None
    else:
        raise bad_field("table", "send a table id or a deck")
    try:
        odds = fr.odds(deck, body.count, body.cards, viewer=viewer, seen=seen)
    except InputError as err:
        raise bad_field(err.path, err.message) from None
    return odds_json(odds, names, viewer)


# ---- the page ------------------------------------------------------------------------------------------

@dataclass
class Mine:
    """This phone's seat and what it may do with the deck now."""
    seat: int | None
    pending: tuple[str, ...] = ()  # its drawn cards, not chosen yet
    waiting: int = 0  # cards pending without names (a draw entered by count only)
    held: int = 0
    can_draw: bool = False
    why_not: str = ""


def _wanted() -> tuple[list[str], int]:
    """The cards this phone asks the odds of and the draw size: private fields (kept in its browser)."""
    ids = {c.id for c in fr.DEFAULT_CARDS}
    want = [w for w in (request.values.get(f"want{k}", "") for k in range(3)) if w in ids]
    count = 2 if request.values.get("odds_count") == "2" else 3
    return list(dict.fromkeys(want)), count


def _posted_cards(form) -> list[str]:
    """The cards tapped, in the order drawn: the deck's last ones, then those after a reshuffle."""
    return [*form.getlist("drawn"), *form.getlist("drawn_after")]


@bp.route("/raising-robots/friendship", methods=["GET", "POST"])
def page():
    ps = PageState()
    note = None
    if request.method == "POST" and ps.table is not None:
        note = _post(ps)
    fd = ps.state.friendship
    deck = fd.to_solver()
    names = fd.names()
    me = ps.phone_seat if ps.table is not None else None
    private = store.read_private(engine(), ps.table, me) if me is not None else {}
    seen = SeatSeen.read(private).to_solver()
    mine = Mine(seat=me)
    if me is not None and fd.built:
        mine.pending = seen.pending(deck, me)
        mine.waiting = deck.pending_of(me) if not mine.pending else 0
        mine.held = max(ps.state.seat(me).friendships_held(), len(deck.kept_by(me)))
        if deck.pending_of(me):
            mine.why_not = "keep one of your cards first"
        elif mine.held >= 2:
            mine.why_not = "you hold 2 Friendship Cards, the most allowed: take a VP reward instead"
        elif deck.plan_draw(2).count == 0:
            mine.why_not = "the deck and the discard pile are both empty"
        else:
            mine.can_draw = True
    want, count = _wanted()
    odds = None
    problems_odds = None
    if fd.built:
        try:
            odds = fr.odds(deck, count, want, viewer=me, seen=seen if me is not None else None)
        except (InputError, fr.Inconsistent):
            problems_odds = "The stored deck does not add up: build it again below."
    belief = fr.Belief.of(deck, me, seen if me is not None else None) if odds is not None else None
    possible_now = possible_after = []
    if belief is not None:
        possible_now = [c for c in deck.cards if belief.where(c)[0] > 0]
        possible_after = [c for c in deck.cards if belief.where(c)[1] > 0]
    held_seats = {s.seat for s in ps.seat_infos if s.claimed}
    free_seats = [i for i in range(ps.count) if i not in held_seats and i != me]
    inventors = [ps.state.seat(i).inventor.name for i in range(ps.count)]
    preview = fr.build(fd.card_list(), inventors, fd.pets)
    ids = RULES
    ctx = ps.context()
    ctx["names_of_seats"] = ctx.pop("names")
    return render_template(
        "raising_robots/friendship.html", fd=fd, deck=deck, names=names, frac=_frac, mine=mine, odds=odds, want=want,
        count=count, plan3=deck.plan_draw(3), plan2=deck.plan_draw(2), possible_now=possible_now,
        possible_after=possible_after, free_seats=free_seats, inventors=inventors, preview=preview,
        odds_problem=problems_odds, note=note, cards=fd.card_list(), edited=fd.edited(),
        default_cards=fr.DEFAULT_CARDS, kept_anywhere=deck.all_kept(), rule_titles=present.rule_titles(ids),
        rules=ids, odds_rules=ODDS_RULES, shown_paths=SHOWN_PATHS, **ctx), ps.status


def _frac(p) -> str:
    return exact(p)["exact"]


def _post(ps: PageState) -> str | None:
    form = request.form
    do = form.get("do", "")
    n = ps.count
    me = ps.phone_seat
    try:
        if do == "cards":
            ps.fields(form)
            return None if ps.problems else "The card list is saved with the table."
        if do == "setup":
            pets = form.get("pets") == "true" or "true" in form.getlist("pets")
            inventors = [ps.state.seat(i).inventor.name for i in range(n)]
            ps._set_table(save.save_private_change(ps.table, list(range(n)), build_change(pets, inventors, n)))
            ps.refresh()
            return "The Friendship deck is built and shuffled: every phone follows it from here."
        if do in ("draw", "keep"):
            if me is None:
                ps.problem("", "Take your seat first: only its own phone enters the cards it drew.")
                return None
            if do == "draw":
                count = 2 if form.get("count") == "2" else 3
                cards = _posted_cards(form)
                mutate = draw_change(me, count, cards, n)
                done = "Drawn: only this phone sees the cards. Keep one."
            else:
                card = form.get("keep", "")
                mutate = keep_change(me, card, n)
                done = (f"Kept {ps.state.friendship.names().get(card, card)}: every phone sees it, and it is listed "
                        "with your Friendship Cards; the others went to the discard pile. What it gives when kept "
                        "(an item, a battery lost) is not entered by the deck: enter it on your seat.")
            ps._set_table(save.save_private_change(ps.table, [me], mutate))
            ps.refresh()
            return done
        if do == "record":
            seat = int(form.get("for_seat", "-1")) if form.get("for_seat", "").isdecimal() else -1
            if seat not in [i for i in range(n) if i not in {s.seat for s in ps.seat_infos if s.claimed} or i == me]:
                ps.problem("record.seat", "Choose a seat no other phone holds.")
                return None
            count = 2 if form.get("record_count") == "2" else 3
            kept = form.get("record_kept", "")
            change = draw_change(seat, count, None, n, keep=kept, own=seat == me)
            ps._set_table(save.save_private_change(ps.table, [seat], change))
            ps.refresh()
            return f"{ps.names[seat]} drew {count} and kept {ps.state.friendship.names().get(kept, kept)}."
    except InputError as err:
        path = {"": "", "seat": "draw", "count": "draw"}.get(err.path, err.path)
        prefix = "record." if do == "record" else ("draw." if do == "draw" else ("keep." if do == "keep" else ""))
        ps.problem(prefix + path if path else prefix.rstrip("."), err.message[:1].upper() + err.message[1:] + ".")
    return None
