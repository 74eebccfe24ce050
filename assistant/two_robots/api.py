"""The Two Robots JSON API (contract: ../shared/design/api.md "Two Robots" and its "Additions")."""
from __future__ import annotations

from flask import Blueprint

from solvers.errors import InputError
from solvers.two_robots import table

from ..api import ApiError, bad_field, parse, parse_action
from ..db import engine
from ..tables import store
from ..web import seat as phone
from . import answers, present, schemas, state
from .schemas import AttackIn, FactoryIn, OddsIn, PlanIn

bp = Blueprint("two_robots_api", __name__)


@bp.post("/api/two-robots/factory")
def factory():
    return answers.factory_result(parse(FactoryIn))


@bp.post("/api/two-robots/plan")
def plan():
    return answers.plan_result(parse(PlanIn))


@bp.post("/api/two-robots/odds")
def odds():
    return answers.odds_result(parse(OddsIn))


@bp.post("/api/two-robots/attack")
def attack():
    return answers.attack_result(parse(AttackIn))


@bp.post("/api/two-robots/defense")
def defense():
    return answers.defense_result(parse(schemas.DefenseIn))


@bp.get("/api/two-robots/data")
def data():
    return present.game_data_json()


def _reducer_action(a: schemas.TableActionBody) -> table.Action:
    """The request's action as the reducer's record."""
    match a:
        case schemas.DamageIn():
            return table.Damage(seat=a.seat, amount=a.amount)
        case schemas.NextPhaseIn():
            return table.NextPhase()
        case schemas.FreezeIn():
            return table.Freeze(seat=a.seat, stack=a.stack, frozen=a.frozen)
        case schemas.EventPowerIn():
            return table.EventPower(seat=a.seat, sacrifices=tuple(table.PartAt(stack=p.stack, card=p.card)
                                                                  for p in a.sacrifices), power=a.power)
        case schemas.EventRobotIn():
            return table.EventRobot(seat=a.seat, sacrifice=table.PartAt(stack=a.sacrifice.stack, card=a.sacrifice.card))
        case schemas.PlayIn():
            return table.PlayCard(seat=a.seat, code=a.code, stack=a.stack)
        case schemas.AttackPlayIn():
            return table.PlayAttack(seat=a.seat, code=a.code, targets=None if a.targets is None else tuple(
                table.Target(seat=t.seat, stack=t.stack, card=t.card) for t in a.targets))
        case schemas.DiscardIn():
            return table.Discard(seat=a.seat, code=a.code)
        case schemas.EnterIn():
            return table.EnterCard(seat=a.seat, where=a.where, card=a.card.stored())
        case schemas.RemoveIn():
            return table.RemoveCard(seat=a.seat, where=a.where, code=a.code)
        case schemas.FinishDrawIn():
            return table.FinishDraw(seat=a.seat)
        case schemas.CancelEventIn():
            return table.CancelEvent(seat=a.seat, code=a.code)
        case schemas.RevealIn():
            return table.Reveal(seat=a.seat, card=a.card, via=a.via, orb_confirmed=a.orb_confirmed)
        case schemas.EventDamageIn():
            return table.EventDamage(seats=tuple(a.seats), card=a.card)
        case schemas.MeltdownReplyIn():
            return table.MeltdownReply(seat=a.seat, reply=a.reply, code=a.code)
        case schemas.SpacePodIn():
            return table.SpacePod(seat=a.seat, code=a.code, stack=a.stack,
                                  target=table.Target(seat=a.target.seat, stack=a.target.stack, card=a.target.card))
        case schemas.SettingsIn():
            return table.ChangeSettings(teams=tuple(a.teams) if a.teams else None, uniform_robot=a.uniform_robot,
                                        five_stacks=a.five_stacks)
        case schemas.NewGameIn():
            return table.NewGame()
    raise bad_field("action.type", "unknown action")


ACTION_TYPES = {m.model_fields["type"].annotation.__args__[0] for m in schemas.TableActionBody.__origin__.__args__}


def _parse_action() -> schemas.TableActionIn:
    return parse_action(schemas.TableActionIn, sorted(ACTION_TYPES))


@bp.post("/api/two-robots/tables/<table_id>/action")
def table_action(table_id: str):
    """One table action on the version the caller saw: 200 the table, 409 (with the table) when another
    phone saved first, 400 naming the field when the rules refuse it, 403 for another seat's hand."""
    body = _parse_action()
    record = store.get(engine(), table_id) if store.is_id(table_id) else None
    if record is None or record.game != "two-robots":
        raise ApiError(404, "not_found", "No Two Robots table has this id.")
    action = _reducer_action(body.action)
    seats = max(1, min(record.players, schemas.MAX_SEATS))
    if getattr(action, "seat", 0) >= seats:
        raise bad_field("action.seat", f"the table has {seats} seats")
    hand_seats: tuple[int, ...] = ()
    if isinstance(action, table.NewGame):  # every hand is emptied, none is read
        if phone.phone_seat(record) is None:  # as on the page: a player at the table starts one, not a passer-by
            raise ApiError(403, "not_your_seat", "Only a phone that holds a seat at this table starts a new game.",
                           [{"path": "action.type", "message": "this phone holds no seat at the table"}])
        hand_seats = tuple(range(seats))
    elif isinstance(action, table.MeltdownReply) and not table.touches_hand(action):
        # "damage" or "nothing" is the seat's own choice ("Clarifications": Meltdown): its phone answers, or
        # any phone for a seat no phone holds (nothing secret is read)
        held = any(i.seat == action.seat and i.claimed for i in phone.seat_infos(record))
        if held and phone.phone_seat(record) != action.seat:
            raise ApiError(403, "not_your_seat", "Only the phone that holds this seat answers Meltdown for it.",
                           [{"path": "action.seat", "message": "not held by this phone"}])
    elif table.touches_hand(action):
        if phone.phone_seat(record) != action.seat:  # a hand is its holder's alone ("Clarifications")
            raise ApiError(403, "not_your_seat", "Only the phone that holds this seat changes its hand.",
                           [{"path": "action.seat", "message": "not held by this phone"}])
        hand_seats = (action.seat,)
    try:
        saved = store.apply_private_change(engine(), record.id, list(hand_seats),
                                           state.acting(seats, action, hand_seats), read_version=body.version)
    except InputError as err:
        raise bad_field(f"action.{err.path}", err.message) from None
    except store.Conflict as c:
        raise ApiError(409, "conflict", f"Someone else saved this table first (it is now at version "
                       f"{c.current.version}); nothing was applied. Here is the table now.",
                       extra={"table": c.current.as_json()}) from None
    return saved.as_json()
