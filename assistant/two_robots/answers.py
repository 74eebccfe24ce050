"""The Two Robots answers the JSON API gives and the pages render: a request model becomes solver
input (the whole table: the seat's factory and hand, every other seat's factory, the discard pile, the
cards seen and the deck), the solvers run, and `present` turns their results into JSON."""
from __future__ import annotations

from dataclasses import dataclass

from solvers.errors import InputError
from solvers.two_robots.attacks import resolve
from solvers.two_robots.cards import COUNTER_ATTACK, HandCard, effect_of
from solvers.two_robots.defense import ATTACK_RULES, Holder, attack_chain, attack_threshold, event_chain
from solvers.two_robots.factory import Factory, FactoryView, Part, analyse, apocalypse_check, check_part_names
from solvers.two_robots.game_data import DATA
from solvers.two_robots.hand import REACTIVE_WHY, hand_problems, hand_view
from solvers.two_robots.named_cards import KINDS, not_modelled
from solvers.two_robots.odds import (
    Sighting,
    UnseenCard,
    UnseenPool,
    check_unseen_names,
    completing,
    draw_odds,
    unseen_pool,
)
from solvers.two_robots.planner import Turn, plan_turn
from solvers.two_robots.standings import Seat, standings
from solvers.two_robots.variations import HOUSE_RULES, won_by

from ..api import ApiError, bad_field
from ..db import engine
from ..tables import store
from ..web import seat as phone
from . import present
from .schemas import MAX_PLAN_HAND, AttackIn, CardIn, DefenseIn, FactoryIn, OddsIn, OtherSeatIn, PlanIn, default_deck
from .state import read, read_private, seat_body, table_labels


@dataclass(frozen=True)
class TableInput:
    """One seat's view of the table, checked: factories possible, part names the table's."""
    names: tuple[str, ...]
    factory: Factory
    view: FactoryView
    hand: tuple[HandCard, ...]
    others: tuple[OtherSeatIn, ...]
    other_factories: tuple[Factory, ...]
    labels: tuple[str, ...]          # "you", then the other seats
    sightings: tuple[Sighting, ...]  # every card in sight, place by place
    deck_source: str
    pool: UnseenPool


def from_table(body: FactoryIn) -> FactoryIn:
    """With `table` (and `seat`), the fields the body leaves out come from that table's state."""
    if body.table is None:
        return body
    table = store.get(engine(), body.table)
    if table is None or table.game != "two-robots":
        raise ApiError(404, "not_found", "No Two Robots table has that id.", [{"path": "table", "message": "unknown"}])
    state = read(table)
    if body.seat >= table.players:
        raise bad_field("seat", f"the table has {table.players} seats")
    if phone.phone_seat(table) != body.seat:  # a seat's hand is its own phone's ("Clarifications")
        raise ApiError(403, "not_your_seat", "Only the phone that holds this seat can ask about its hand: take the "
                       "seat first (POST /api/tables/<id>/seats/<n>), or send the cards yourself.",
                       [{"path": "seat", "message": "not held by this phone"}])
    private = read_private(store.read_private(engine(), table, body.seat), state)
    stored = seat_body(state, body.seat, table_labels(table, state), private)
    given = {k: getattr(body, k) for k in body.model_fields_set}
    return type(body).model_validate({**stored, **{k: v for k, v in body.model_dump().items() if k in given},
                                      "table": None})


def _sighting(place: str, cards: list[CardIn] | tuple[HandCard, ...] | list[Part]) -> Sighting:
    parts, attack, defense = [], 0, 0
    for c in cards:
        if isinstance(c, Part):
            parts.append(c)
        elif getattr(c, "kind", "part") == "part":
            p = c.part if isinstance(c, HandCard) else c.solver_part()
            if p is not None:
                parts.append(p)
        elif c.kind == "attack":
            attack += 1
        else:
            defense += 1
    return Sighting(place=place, parts=tuple(parts), attack=attack, defense=defense)


def _impossible(view: FactoryView, prefix: str = "") -> ApiError:
    fields = [{"path": f"{prefix}stacks[{i}]", "message": p.message} for p in view.problems for i in p.stacks]
    first = view.problems[0]
    where = ", ".join(f"{prefix}stacks[{i}]" for i in first.stacks)
    return ApiError(400, "impossible_factory", f"{where}: {first.message}", fields,
                    extra={"problems": [{"stacks": list(p.stacks), "message": p.message} for p in view.problems]})


def _checked(factory: Factory, names: tuple[str, ...], prefix: str) -> FactoryView:
    try:
        check_part_names(factory, (), names)
    except InputError as err:
        raise InputError(prefix + err.path, err.message) from None
    view = analyse(factory, names)
    if view.problems:
        raise _impossible(view, prefix)
    return view


def table_input(body: FactoryIn) -> TableInput:
    """The seat's table, checked: a 400 names the card whose part name is not the table's, or the
    stacks that cannot be (in `stacks`, or in `others[k].stacks`)."""
    names = body.names()
    factory = Factory(tuple(s.to_solver() for s in body.stacks))
    hand = tuple(c.to_solver() for c in body.hand)
    check_part_names(factory, hand, names)
    view = analyse(factory, names)
    if view.problems:
        raise _impossible(view)
    others = tuple(body.others)
    other_factories = tuple(o.factory() for o in others)
    for k, f in enumerate(other_factories):
        _checked(f, names, f"others[{k}].")
    for field, cards in (("discard", body.discard), ("seen", body.seen)):
        for i, c in enumerate(cards):
            if c.kind == "part" and c.part not in names:
                raise InputError(f"{field}[{i}].part", f"{c.part!r} is not one of the four part names ({', '.join(names)})")
    labels = ("you", *[o.name or f"Seat {k + 2}" for k, o in enumerate(others)])
    sightings = (_sighting("your_factory", [c for s in factory.stacks for c in s.cards]),
                 _sighting("your_hand", hand),
                 _sighting("other_factories", [c for f in other_factories for s in f.stacks for c in s.cards]),
                 _sighting("discard", body.discard), _sighting("seen", body.seen))
    deck = body.deck.to_solver() if body.deck is not None else default_deck(names)
    if body.deck is not None:
        for i, p in enumerate(body.deck.parts):
            if p.part not in names:
                raise InputError(f"deck.parts[{i}].part", f"{p.part!r} is not one of the four part names")
    return TableInput(names=names, factory=factory, view=view, hand=hand, others=others,
                      other_factories=other_factories, labels=labels, sightings=sightings, deck_source=deck.source,
                      pool=unseen_pool(deck, sightings))


def unseen_cards(body: PlanIn | OddsIn, t: TableInput) -> tuple[tuple[UnseenCard, ...], list[str], dict]:
    """The unseen cards: those entered (`unseen`), or the deck minus every card in sight; with notes
    and where they come from (`present.unseen_json`)."""
    if body.unseen is not None:
        out = tuple(u.to_solver() for u in body.unseen)
        check_unseen_names(out, t.names)
        if sum(u.count for u in out) == 0:
            raise bad_field("unseen", "no unseen cards: enter how many of each card are left")
        return out, [], present.unseen_json(None, entered=True)
    notes = list(t.pool.notes)
    if t.pool.source == "default":
        notes.insert(0, "Unseen cards: the default deck (one part of each name per energy combination, unverified) "
                        "minus every factory, your hand and the discard pile; enter the deck for exact odds.")
    return t.pool.cards, notes, present.unseen_json(t.pool, entered=False)


def seats(body: FactoryIn, t: TableInput) -> list[Seat]:
    """Every seat as the standings read it; in the simpler game nobody has health ("Variations")."""
    def h(value: int | None) -> int | None:
        return None if body.simple else value
    mine = Seat(label="you", factory=t.factory, hand_count=len(t.hand), health=h(body.health))
    return [mine] + [Seat(label=t.labels[k + 1], factory=f, hand_count=o.hand_count, health=h(o.health),
                          powers_left=o.powers_left) for k, (o, f) in enumerate(zip(t.others, t.other_factories))]


def outcome(body: FactoryIn, t: TableInput) -> dict:
    """Won, how and defeated from every seat's health and the seat's own factory ("Objective"): every
    other Salvager at health 0 is a win as the last one standing; at 0 yourself you are out and win
    nothing; two active robots (or a house rule that is on: "Variations") win while you are in the game.
    In 2v2 the team wins: every opponent at 0, or a seat of the team still in the game that won, the
    partner's win being yours, even once you are out."""
    defeated = body.health == 0 and not body.simple
    teams = body.teams()
    house = body.house()
    healths = [o.health for o in t.others] if not body.simple else []
    if teams:
        mate = body.partner
        enemies = [h for k, h in enumerate(healths) if k != mate]
        mine = [] if defeated else [t.factory]
        if mate is not None and not (not body.simple and t.others[mate].health == 0):
            mine.append(t.other_factories[mate])
        if enemies and all(h == 0 for h in enemies) and len(mine) > 0:
            return {"won": True, "how": "last_standing", "defeated": defeated}
        for f in mine:
            how = won_by(f, t.names, house)
            if how:
                return {"won": True, "how": how, "defeated": defeated}
        return {"won": False, "how": None, "defeated": defeated}
    if not defeated and healths and all(h == 0 for h in healths):
        return {"won": True, "how": "last_standing", "defeated": False}
    how = won_by(t.factory, t.names, house) if not defeated else None
    if how:
        return {"won": True, "how": how, "defeated": False}
    return {"won": False, "how": None, "defeated": defeated}


def spared(body: FactoryIn) -> tuple[int, ...]:
    """The partner's factory in the answers' order (you first), spared by your Attack cards (2v2)."""
    return () if body.partner is None else (body.partner + 1,)


def unmodelled(body: FactoryIn) -> tuple[list[dict], str | None]:
    """The Power cards, abilities and Active Robot cards of the Salvagers at the table that the table
    entered by name: each could change this answer and Tablebot does not model it. A Salvager chosen
    without its cards entered is named too. Returns them and the sentence that says so."""
    if body.simple:  # the simpler game plays without them ("Variations")
        return [], None
    salvagers = [body.salvager, *[o.salvager for o in body.others]]
    cards = not_modelled([c.to_solver() for c in body.named_cards], salvagers)
    words = [f"{c.name} ({KINDS[c.kind]}{', ' + DATA.salvager(c.salvager).name if c.salvager else ''})" for c in cards]
    for s in dict.fromkeys(x for x in salvagers if x):  # what a chosen Salvager has that nobody entered
        sv = DATA.salvager(s)
        mine = [c for c in cards if c.salvager == s]
        missing = []
        if not any(c.kind == "ability" for c in mine):
            missing.append("what its Special ability does (only whether it may be triggered is checked)"
                           if s == "apocalypse" == body.salvager else "its Special ability")
        powers = sum(c.kind == "power" for c in mine)
        if powers < sv.health:
            missing.append("its other Power cards" if powers else "its Power cards")
        if missing:
            words.append(f"{sv.name}: " + " and ".join(missing))
    if not words:
        return [], None
    return ([{"name": c.name, "kind": c.kind, "salvager": c.salvager, "phase": c.phase} for c in cards],
            "Not taken into account (Tablebot does not model what they do): " + "; ".join(words) + ".")


OUT_OF_GAME = "You are out of the game (health 0): the factory stays on the table, and it wins nothing."
TEAM_WON_OUT = "You are out of the game (health 0), and your team wins all the same: the win is shared (2v2)."


def factory_result(body: FactoryIn) -> dict:
    """The factory endpoint's answer (also rendered by the factory page)."""
    body = from_table(body)
    t = table_input(body)
    table = (t.factory, *t.other_factories)
    out = present.factory_json(t.factory, t.view)
    views = [hand_view(t.factory, c, t.names, table=table, player=0, labels=t.labels, spared=spared(body))
             for c in t.hand]
    out["hand"] = present.hand_json(views)
    counters = sum(effect_of(c).kind == COUNTER_ATTACK and c.stacks_required <= len(t.factory.stacks) for c in t.hand)
    for row, v in zip(out["hand"], views, strict=True):
        if v.attack is not None and v.playable:  # Defense Cards: does it go through their Homing Missiles
            row["defense"] = {"why": attack_threshold(counters, max(0, body.actions - 1)),
                              "rules": list(ATTACK_RULES)}
    # the factory is possible; what cannot work in it is said here, one sentence per card
    out["problems"] = [{"stacks": list(p.stacks), "hand": p.hand, "message": p.message}
                       for p in hand_problems(t.factory, views, DATA.actions)]
    out["part_names"] = list(t.names)
    if body.salvager == "apocalypse" and not body.simple:
        out["apocalypse"] = present.apocalypse_json(apocalypse_check(t.factory, t.names))
    out["standings"] = present.standings_json(standings(seats(body, t), 0, t.names, t.pool.cards, t.hand,
                                                        teams=body.teams(), house_rules=body.house()))
    out["unseen"] = present.unseen_json(t.pool, entered=False)
    out |= outcome(body, t)
    out["not_modelled"], said = unmodelled(body)
    if said:
        out["standings"]["notes"].append(said)
    if out["defeated"] and out["won"]:
        out["why"] = TEAM_WON_OUT
    elif out["defeated"]:
        out["why"] = OUT_OF_GAME
    elif out["how"] == "last_standing" and body.partner is not None:
        out["why"] = "Every opponent is out of the game: your team wins as the last one standing."
    elif out["how"] == "last_standing":
        out["why"] = "Every other Salvager is out of the game: you win as the last one standing."
    out["rules"] = [*out["rules"], "tr-objective"]
    return out


def plan_result(body: PlanIn) -> dict:
    body = from_table(body)
    if len(body.hand) > MAX_PLAN_HAND:
        raise bad_field("hand", f"the planner takes at most {MAX_PLAN_HAND} cards (your hand limit is 7)")
    t = table_input(body)
    unseen, notes, source = unseen_cards(body, t)
    event = "none" if body.simple else body.event  # the simpler game has no Event phase ("Variations")
    # 2v2: the plan weighs the opponents only, so its Attack cards spare the partner (a card that could only
    # be played on the partner's parts is left out, and the note says so)
    mate = body.partner
    others = tuple(f for k, f in enumerate(t.other_factories) if k != mate)
    labels = tuple(x for k, x in enumerate(t.labels) if k - 1 != mate)
    plan = plan_turn(Turn(factory=t.factory, hand=t.hand, part_names=t.names, unseen=unseen, actions=body.actions,
                          event=event, powers_left=body.powers_left, hand_limit=body.hand_limit,
                          others=others, labels=labels))
    out = present.plan_json(plan, t.names)
    variation_notes = []
    if mate is not None:
        variation_notes.append("2v2: the plan weighs the two opponents and spares your partner; an Attack card that "
                               "could only hit your partner's parts is not played (Tablebot's reading).")
        # the plan's factories after are the opponents' only: back in seat order, the partner's unchanged
        after = list(out["others_after"])
        after.insert(mate, present.factory_json(t.other_factories[mate], analyse(t.other_factories[mate], t.names)))
        out["others_after"] = after
        kept = [k + 1 for k in range(len(t.other_factories)) if k != mate]  # planner's factory j -> answer's
        for step in out["steps"]:
            for ref in step.get("destroyed") or []:
                ref["factory"] = kept[ref["factory"] - 1] if ref["factory"] else 0
            if step.get("frozen"):
                step["frozen"]["factory"] = kept[step["frozen"]["factory"] - 1] if step["frozen"]["factory"] else 0
    if body.house():
        variation_notes.append("House rules on (" + "; ".join(HOUSE_RULES[h] for h in body.house()) + "): the plan "
                               "aims for two robots; it does not count them.")
    if body.simple:
        out["event_options"] = []
    out |= outcome(body, t)
    out["not_modelled"], said = unmodelled(body)
    if said:
        out["notes"] = [*out["notes"], said]
    if out["defeated"]:
        out["warnings"] = [TEAM_WON_OUT if out["won"] else OUT_OF_GAME, *out.get("warnings", [])]
    out["notes"] = notes + out["notes"] + variation_notes
    out["unseen_source"] = source["source"] if source["source"] == "entered" else "default" \
        if t.deck_source == "default" else "deck"
    out["unseen"] = source
    return out


def odds_result(body: OddsIn) -> dict:
    body = from_table(body)
    t = table_input(body)
    unseen, notes, source = unseen_cards(body, t)
    marked = [j for j, u in enumerate(unseen) if u.wanted]
    completions = completing(t.factory, unseen, t.names, body.draws)
    if marked:
        mode, wanted = "marked", marked
    else:
        mode, wanted = "completes_robot", sorted({j for c in completions for j in c.cards})
    out = present.odds_json(draw_odds(unseen, wanted, body.draws), unseen, wanted, completions, mode)
    out["notes"] = notes
    if body.house():
        out["notes"].append("House rules on (" + "; ".join(HOUSE_RULES[h] for h in body.house()) + "): these odds "
                            "count the cards that finish a robot, not a uniform robot or a fifth Stack.")
    out["not_modelled"], said = unmodelled(body)
    out["not_modelled_note"] = said
    if said:
        out["notes"].append(said)
    out["unseen_source"] = source["source"] if source["source"] == "entered" else "default" \
        if t.deck_source == "default" else "deck"
    out["unseen"] = source
    return out


def attack_result(body: AttackIn) -> dict:
    """Every legal target set of one Attack card on the given factories, the best for `player`, and why."""
    names = body.names()
    factories = tuple(f.factory() for f in body.factories)
    for k, f in enumerate(factories):
        _checked(f, names, f"factories[{k}].")
    card = body.card.to_solver()
    effect = effect_of(card)
    labels = [f.name or f"Seat {k + 1}" for k, f in enumerate(body.factories)]
    labels[body.player] = "you"
    n = len(factories[body.player].stacks)
    if effect.reactive:
        return {"effect": effect.kind, "playable": False, "targets": [], "best": None, "best_index": None,
                "ties": [], "destroys_own": False, "why": REACTIVE_WHY[effect.kind], "rules": list(effect.rules)}
    answer = resolve(effect, factories, body.player, names, labels,
                     () if body.partner is None else (body.partner,))
    out = present.attack_json(answer)
    if not effect.modelled:
        out["why"] = "Tablebot does not know what this card does: it is yours to resolve."
    elif body.card.stacks_required is not None and n < body.card.stacks_required:
        out["playable"] = False
        out["why"] = (f"It needs {body.card.stacks_required} unique stacks and you have {n}, so it cannot be played "
                      f"yet. {answer.why}")
    out["rules"] = ["tr-attack-defense-cards", *out["rules"]]
    return out


def defense_result(body: DefenseIn) -> dict:
    """Does an Attack card or an Event go through the Defense cards the table says are held, link by link."""
    labels = [o.name or f"Player {k + 2}" for k, o in enumerate(body.others)]
    me = body.player.name or "you"
    holders = [Holder(label=n, homing_missiles=o.homing_missiles, sentry_gunships=o.sentry_gunships)
               for n, o in zip(labels, body.others, strict=True)]
    if body.play == "attack":
        if not holders:
            raise bad_field("others", "name at least one player whose parts the Attack card hits")
        chain = attack_chain(Holder(label=me, homing_missiles=body.player.homing_missiles), holders,
                             body.actions_left, body.card or "Attack card")
    else:
        chain = event_chain(me, body.event, holders)
    return present.defense_json(chain)
