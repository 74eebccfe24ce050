"""The solvers' results as the JSON the API answers and the pages render (plain dicts)."""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from solvers.exact import exact
from solvers.two_robots import named_cards, table
from solvers.two_robots.attacks import AttackAnswer, AttackOption, PartRef
from solvers.two_robots.cards import HandCard
from solvers.two_robots.defense import Chain, Holder, event_chain
from solvers.two_robots.factory import (
    ApocalypseCheck,
    Factory,
    FactoryView,
    Part,
    Placement,
    analyse,
)
from solvers.two_robots.game_data import DATA
from solvers.two_robots.hand import HandView
from solvers.two_robots.odds import Completion, DrawOdds, UnseenCard, UnseenPool
from solvers.two_robots.planner import Step, TurnPlan
from solvers.two_robots.robot_pile import two_without_reshuffle
from solvers.two_robots.standings import Standings
from solvers.two_robots.variations import HOUSE_RULES

from .schemas import NamedCardIn, TwoRobotsState


def part_json(card: Part) -> dict:
    return {"part": card.part, "energies": list(card.energies)}


def hand_card_json(card: HandCard) -> dict:
    if card.kind == "part" and card.part is not None:
        return {"kind": "part", **part_json(card.part)}
    out = {"kind": card.kind, "name": card.name, "stacks_required": card.stacks_required, "play": card.play}
    if card.energy is not None:
        out |= {"energy": card.energy, "destroy": card.destroy}
    return out


def ref_json(r: PartRef) -> dict:
    return {"factory": r.factory, "stack": r.stack, "card": r.card, "part": part_json(r.part)}


def target_json(o: AttackOption) -> list[dict]:
    if o.frozen is not None:
        return [{"factory": o.frozen.factory, "stack": o.frozen.stack, "card": None}]
    return [ref_json(r) for r in o.destroyed]


def attack_json(a: AttackAnswer) -> dict:
    """Every legal target set of an Attack card, the best one (ties listed) and why."""
    return {"effect": a.effect.kind, "energy": a.effect.energy, "destroy": a.effect.count or None,
            "source": a.effect.source or None, "playable": a.playable,
            "targets": [target_json(o) for o in a.options],
            "best": target_json(a.options[a.best[0]]) if a.best else None,
            "best_index": a.best[0] if a.best else None, "ties": list(a.best[1:]),
            "destroys_own": a.own_hit, "why": a.why, "rules": list(a.rules)}


def placement_json(p: Placement) -> dict:
    where: dict = {"stack": p.stack} if p.stack is not None else {"new_stack": p.energy}
    return {**where, "energy": p.energy, "possible": list(p.possible), "completes_robot": p.completes_robot,
            "duplicate": p.duplicate, "forces": [{"stack": k, "energy": e} for k, e in p.forces], "why": p.why}


def factory_json(factory: Factory, view: FactoryView) -> dict:
    stacks = []
    for s, v in zip(factory.stacks, view.stacks, strict=True):
        seen: set[str] = set()
        cards = []
        for c in s.cards:
            cards.append({**part_json(c), "duplicate": c.part in seen})
            seen.add(c.part)
        stacks.append({"index": v.index, "energy": v.energy, "locked": v.energy is not None,
                       "candidates": list(v.candidates), "possible": list(v.possible), "parts": list(v.parts),
                       "duplicates": list(v.duplicates), "missing": list(v.missing),
                       "active_robot": v.active_robot, "frozen": v.frozen, "deployable": v.deployable,
                       "cards": cards, "why": v.why})
    return {"stacks": stacks, "unique_stacks": view.unique_stacks, "active_robots": view.active_robots,
            "deployable_robots": view.deployable_robots, "won": view.won,
            "problems": [{"stacks": list(p.stacks), "message": p.message} for p in view.problems],
            "why": summary(view), "rules": list(view.rules)}


def summary(view: FactoryView) -> str:
    if view.problems:
        return view.problems[0].message
    n, r = view.unique_stacks, view.active_robots
    text = f"{n} unique stack{'s' if n != 1 else ''}, {r} active robot{'s' if r != 1 else ''}"
    if view.won:
        return text + ": two robots built, you win."
    frozen_robots = r - view.deployable_robots
    if frozen_robots:
        text += f" ({frozen_robots} frozen: counts for the win, cannot be deployed)"
    return text + "."


def hand_json(views: Sequence[HandView]) -> list[dict]:
    out = []
    for v in views:
        row = {"card": hand_card_json(v.card), "playable": v.playable,
               "placements": [placement_json(p) for p in v.placements], "why": v.why, "rules": list(v.rules)}
        if v.card.kind != "part":
            row |= {"requirement_met": v.requirement_met, "effect": v.effect.kind,
                    "when": "out_of_turn" if v.effect.reactive else "your_turn",
                    "attack": attack_json(v.attack) if v.attack is not None else None}
        out.append(row)
    return out


def apocalypse_json(check: ApocalypseCheck) -> dict:
    return {"qualifying_stacks": list(check.qualifying), "frozen_stacks": list(check.frozen),
            "may_trigger": check.may_trigger, "why": check.why,
            "rules": ["tr-clarifications", "tr-clarification-apocalypse-frozen", "tr-frozen-stacks"]}


def _rules(*groups: Sequence[str]) -> list[str]:
    out: list[str] = []
    for g in groups:
        for r in g:
            if r not in out:
                out.append(r)
    return out


def step_title(st: Step) -> str:
    if st.phase == "play" and st.action == "part":
        return f"Play {st.card} " + ("as a new stack" if st.new_stack else f"on stack {(st.stack or 0) + 1}")
    if st.phase == "play":
        return f"Play {st.card}"
    if st.phase == "event":
        return f"Sacrifice {st.card} from stack {(st.stack or 0) + 1}"
    return f"Discard {st.card}"


def plan_json(plan: TurnPlan, part_names: Sequence[str]) -> dict:
    s = plan.score
    steps = []
    for st in plan.steps:
        row = {"phase": st.phase, "action": st.action, "card": st.card, "hand_index": st.hand_index,
               "stack": st.stack, "new_stack": st.new_stack, "title": step_title(st), "why": st.why,
               "rules": list(st.rules)}
        if st.destroyed or st.frozen:
            row |= {"destroyed": [ref_json(r) for r in st.destroyed], "destroys_own": st.destroys_own,
                    "frozen": {"factory": st.frozen[0], "stack": st.frozen[1]} if st.frozen else None}
        steps.append(row)
    after = analyse(plan.factory_after, part_names)
    events = [{"event": o.event, "available": o.available, "breaks_robot": o.breaks_robot, "why": o.why,
               "sacrifice": [{"stack": i, "card": part_json(c), "why": w} for i, c, w in o.sacrifice]}
              for o in plan.event_options]
    return {
        "steps": steps,
        "score": {"won": s.won, "event": s.event, "robots": s.robots, "wanted_played": s.wanted,
                  "own_parts_destroyed": -s.own_lost,
                  "opponents_parts_to_two_robots": list(s.pressure[0]) if s.pressure else [],
                  "outs": s.outs, "ready": s.ready, "progress": list(s.progress), "discarded": -s.kept,
                  "plays": -s.plays},
        "summary": plan.summary,
        "why": plan.reasons,
        "runner_up": plan.runner_up,
        "ties": plan.ties,
        "event_options": events,
        "p_robot_next_draw": exact(plan.p_robot_next_draw),
        "hand_after": plan.hand_after,
        "discards": plan.discards,
        "factory_after": factory_json(plan.factory_after, after),
        "others_after": [factory_json(f, analyse(f, part_names)) for f in plan.others_after],
        "warnings": plan.warnings,
        "explored": plan.explored,
        "notes": plan.notes,
        "rules": _rules(["tr-turn-overview", "tr-stacking-part-cards", "tr-energy-stacks"],
                        *[st.rules for st in plan.steps],
                        ["tr-the-event-phase"] if any(o.available for o in plan.event_options) else []),
    }


def odds_json(odds: DrawOdds, unseen: Sequence[UnseenCard], wanted: Sequence[int],
              completions: Sequence[Completion], mode: str) -> dict:
    def card(u: UnseenCard) -> dict:
        if u.part is not None:
            return {"kind": "part", **part_json(u.part)}
        return {"kind": u.kind, "name": u.name}
    what = "a wanted card" if mode == "marked" else "a part that finishes a robot"
    pct = f"{float(odds.p_at_least_one) * 100:.1f} %"
    if mode == "marked":
        why = (f"{odds.wanted} of the {odds.total} unseen cards are marked as wanted; drawing {odds.draws}, "
               f"the chance of at least one is {pct} (exact: hypergeometric).")
    else:
        why = (f"{odds.wanted} of the {odds.total} unseen cards finish a robot; drawing {odds.draws}, "
               f"the chance of at least one is {pct} (exact: hypergeometric).")
    return {
        "mode": mode,
        "unseen_total": odds.total,
        "draws": odds.draws,
        "wanted_total": odds.wanted,
        "p_at_least_one": exact(odds.p_at_least_one),
        "distribution": [{"k": k, "p": exact(p)} for k, p in odds.distribution],
        "expected": exact(odds.expected),
        "wanted": [{"card": card(unseen[j]), "count": unseen[j].count} for j in wanted],
        "completions": [{"stack": c.stack, "missing": c.missing, "count": c.count, "p": exact(c.p),
                         "cards": [{"card": card(unseen[j]), "count": unseen[j].count} for j in c.cards]}
                        for c in completions],
        "why": why if odds.total else f"No unseen cards: nothing to draw ({what}).",
        "rules": ["tr-turn-overview", "tr-draw-phase", "tr-how-to-build-a-robot", "tr-stacking-part-cards"],
    }


PLACE_WORDS = {"your_factory": "your factory", "your_hand": "your hand", "other_factories": "the other factories",
               "discard": "the discard pile", "seen": "other cards seen"}


def unseen_json(pool: UnseenPool | None, entered: bool) -> dict:
    """Where the unseen cards come from: the deck (default or entered) minus each place in sight, or
    the counts the player entered."""
    if entered or pool is None:
        return {"source": "entered", "deck": None, "used": [], "total": None,
                "why": "The unseen cards are the counts you entered; nothing else is taken off them."}
    used = [{"place": place, "cards": n} for place, n in pool.used]
    words = ", ".join(f"{n} from {PLACE_WORDS.get(place, place)}" for place, n in pool.used if n)
    deck = "the default deck (one part of each name per energy combination, unverified)" \
        if pool.source == "default" else "the deck you entered"
    return {"source": pool.source, "deck": pool.source, "used": used, "total": pool.total,
            "why": f"Unseen: {deck} minus the cards in sight ({words or 'none yet'}): {pool.total} cards. "
                   "Other players' hands stay unseen."}


def standings_json(st: Standings) -> dict:
    def p(x: Fraction) -> dict:
        return exact(x)
    return {
        "summary": st.summary,
        "leaders": list(st.leaders),
        "seats": [{"seat": r.seat, "name": r.label, "you": r.you, "active_robots": r.active_robots,
                   "deployable_robots": r.deployable_robots, "parts_to_two_robots": r.parts_to_two_robots,
                   "won": r.won, "one_short": list(r.one_short), "finishing_cards": r.finishing_cards,
                   "p_robot_next_turn": p(r.p_robot_next_turn), "in_hand": r.in_hand, "would_win": r.would_win,
                   "health": r.health, "defeated": r.defeated, "why": r.why} for r in st.seats],
        "threats": [{"seat": t.seat, "kind": t.kind, "energy": t.energy, "hits": [ref_json(h) for h in t.hits],
                     "stack": t.stack.stack if t.stack is not None else None, "breaks_robot": t.breaks_robot,
                     "harm": t.harm, "every_choice": t.every_choice,
                     "p": p(t.p) if t.p is not None else None, "why": t.why} for t in st.threats],
        "notes": list(st.notes),
        "rules": list(st.rules),
        "winners": list(st.winners),
        "how": st.how,
        "teams": [{"team": t.team, "seats": list(t.seats), "you": t.you, "parts_to_two_robots": t.parts_to_two_robots,
                   "active_robots": t.active_robots, "health": t.health, "out": t.out, "why": t.why}
                  for t in st.teams],
    }


def robot_pile(players: int | None) -> list[dict]:
    """The Active Robot pile for the table's player count (or every known count), with the chance of
    revealing each card from a full pile; the 5-player pile is not known and says so."""
    counts = [players] if players in DATA.robot_pile else sorted(DATA.robot_pile)
    out = []
    for n in counts:
        mix = DATA.robot_pile[n]
        if mix is None:
            out.append({"players": n, "known": False, "cards": [], "total": 0})
            continue
        total = sum(mix.values())
        two = two_without_reshuffle(mix)
        names = DATA.robot_pile_names
        out.append({"players": n, "known": True, "total": total,
                    "cards": [{"id": k, "name": names[k], "count": v, "p": exact(Fraction(v, total))}
                              for k, v in mix.items()],
                    "two": {"after": [{"first": names[a.first], "p_first": exact(a.p_first),
                                       "second": [{"name": names[k], "p": exact(p)} for k, p in a.second]}
                                      for a in two.after],
                            "at_least_once": [{"name": names[k], "p": exact(p)} for k, p in two.at_least_once]}})
    return out


def game_data_json() -> dict:
    return {
        "energies": [{"id": e.id, "name": e.name, "source": e.source} for e in DATA.energies],
        "part_names": [{"id": p.id, "name": p.name, "source": p.source} for p in DATA.part_names],
        "action_deck": {"robot_parts": DATA.deck_parts, "attack": DATA.deck_attack, "defense": DATA.deck_defense,
                        "source": "public", "url": DATA.deck_url},
        "default_parts": {"source": DATA.default_parts_source, "copies_per_combination": DATA.default_copies},
        "action_cards": [{"name": c.name, "kind": c.kind, "effect": c.effect, "energy": c.energy,
                          "destroy": c.destroy or None, "source": c.source, "section": c.section}
                         for c in DATA.action_cards],
        "turn": {"draw": DATA.draw, "actions": DATA.actions, "hand_limit": DATA.hand_limit,
                 "power_cost": DATA.power_cost, "robot_card_cost": DATA.robot_card_cost, "source": "rulebook"},
        "salvagers": [{"id": sv.id, "name": sv.name, "turn_order": sv.turn_order, "health": sv.health,
                       "source": sv.source, "url": sv.url, "turn_order_source": sv.turn_order_source,
                       "health_source": sv.health_source} for sv in DATA.salvagers],
        "active_robot_pile": {"source": "public", "url": DATA.robot_pile_url, "by_players": robot_pile(None)},
    }


def game_view(part: TwoRobotsState, setting: table.Setting, labels: Sequence[str], me: int | None) -> dict:
    """The game as every phone shows it: whose turn, which phase and what is left of it, each seat's
    health, the turn order and, once decided, the winner ("Turn Order", "Turn Overview", "Objective")."""
    raw = part.model_dump(mode="json")

    def name(k: int) -> str:
        return labels[k] if k < len(labels) else f"Player {k + 1}"
    order = table.turn_order(setting, raw)
    numbers = setting.turn_order
    seats = []
    for k in range(setting.seats):
        seat = part.seat(k)
        sv = DATA.salvager(seat.salvager)
        h = seat.health_now
        seats.append({"seat": k, "name": name(k), "you": k == me, "salvager": sv.name if sv else None,
                      "number": numbers.get(sv.id) if sv else None, "health": h, "defeated": h <= 0,
                      "powers_left": min(seat.powers_left, h), "hand_count": seat.hand_count,
                      "used_powers": list(seat.used_powers)})
    out: dict[str, Any] = {"started": part.turn is not None, "seats": seats, "seen": table.turn_key(raw),
                           "order": [name(k) for k in order if seats[k]["health"] > 0],
                           "phases": [{"id": p, "name": table.PHASE_NAMES[p]} for p in setting.phases],
                           "simple": setting.simple,
                           "turn": None, "winner": None, "over": None, "event_defense": " ".join(
                               f"Option {o}: " + event_chain("you", e, [Holder("an opponent", sentry_gunships=1)]).why
                               for o, e in (("A", "power"), ("B", "active_robot")))}
    out["variations"] = variations_view(setting, name)
    if part.winner is not None:
        names = [name(k) for k in part.winner.seats]
        how = WIN_WORDS[part.winner.how]
        if part.winner.how == table.LAST_STANDING and part.winner.team is not None:
            how = "the last team standing"
        team = " (their team)" if part.winner.team is not None else ""
        out["winner"] = {"seats": list(part.winner.seats), "how": part.winner.how, "names": names,
                         "text": f"{' and '.join(names)}{team} {'wins' if len(names) == 1 else 'win'}: {how}."}
    if part.winner is None and table.nobody_standing(setting, raw):
        out["over"] = {"how": "nobody_standing", "text": "Every Salvager is out at once, so nobody wins (how Tablebot "
                       "reads this: the rulebook names no winner then). Start a new game to play again."}
    if part.turn is not None:
        t = part.turn
        mine = t.seat == me
        out["turn"] = {"seat": t.seat, "name": name(t.seat), "mine": mine, "phase": t.phase,
                       "phase_name": table.PHASE_NAMES[t.phase], "number": t.number, "actions_left": t.actions_left,
                       "event": t.event, "left": table.left_in_turn(setting, raw),
                       "line": f"Turn {t.number}: {'your' if mine else name(t.seat) + '’s'} turn, "
                               f"{table.PHASE_NAMES[t.phase]} phase."}
        due = named_cards.reminders([c.to_solver() for c in part.named_cards], part.seat(t.seat).salvager, t.phase)
        out["turn"]["reminders"] = [named_json(c) for c in part.named_cards if c.to_solver() in due]
        phases = setting.phases
        nxt = phases.index(t.phase) + 1 if t.phase in phases else len(phases) - 1
        out["next"] = (f"Go to the {table.PHASE_NAMES[phases[nxt]]} phase" if nxt < len(phases) else "End the turn")
        if not setting.simple:
            out["event"] = event_view(part, setting, name, me)
            out["powers"] = power_names(part, t.seat)
    return out


WIN_WORDS = {"last_standing": "the last Salvager standing", "two_robots": "two active robots",
             "uniform_robot": "a perfectly uniform robot (house rule)", "five_stacks": "five Stacks (house rule)"}
TEAM_CHOICES = {"": None, "13-24": (0, 1, 0, 1), "12-34": (0, 0, 1, 1), "14-23": (0, 1, 1, 0)}
VIA_WORDS = {"option_b": "option B", "katana": "Katana", "shogun": "Shogun", "orb": "the Orb"}


def variations_view(setting: table.Setting, name) -> dict:
    """The table's variations as every phone shows them ("Variations")."""
    teams = setting.teams
    rows = []
    if teams:
        for t in (0, 1):
            seats = [k for k, x in enumerate(teams) if x == t]
            rows.append({"team": t, "seats": seats, "names": [name(k) for k in seats]})
    choice = next((k for k, v in TEAM_CHOICES.items() if v == teams), "")
    house = [label for key, label in HOUSE_RULES.items() if getattr(setting, key)]
    bits = []
    if rows:
        bits.append("2v2: " + " against ".join(" and ".join(r["names"]) for r in rows) + " (a shared win)")
    bits += [f"house rule: {h.lower()}" for h in house]
    return {"teams": rows, "choice": choice, "uniform_robot": setting.uniform_robot, "five_stacks": setting.five_stacks,
            "choices": [{"value": k, "label": _team_label(v, name)} for k, v in TEAM_CHOICES.items()],
            "can_team": setting.seats == 4, "line": _sentence("; ".join(bits)) if bits else ""}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _team_label(teams: tuple[int, ...] | None, name) -> str:
    if teams is None:
        return "No teams (every player for themselves)"
    return " against ".join(" and ".join(name(k) for k, x in enumerate(teams) if x == t) for t in (0, 1))


def power_names(part: TwoRobotsState, seat: int) -> list[str]:
    """The Power cards the turn's Salvager may name for option A: those entered for it, and those the
    rulebook ties to it, less the ones used (each once per game)."""
    sv = part.seat(seat).salvager
    used = {u.casefold() for u in part.seat(seat).used_powers}
    names = [c.name for c in part.named_cards if c.kind == "power" and (c.salvager in (sv, None))]
    names += [k.name for k in named_cards.KNOWN if k.kind == "power" and k.salvager == sv]
    return [n for n in dict.fromkeys(names) if n.casefold() not in used]


def event_view(part: TwoRobotsState, setting: table.Setting, name, me: int | None) -> dict | None:
    """This turn's Event as every phone shows it: the Power used or the Active Robot cards revealed, a
    Sentry Gunship's cancel, the next card's odds from the pile as it is (not reshuffled in between), who
    may still answer Meltdown, and what this phone may do about it ("The Event Phase", "Clarifications")."""
    t = part.turn
    if t is None or not t.event:
        return None
    mine = t.seat == me
    alive = table.alive(setting, part.model_dump(mode="json"))
    power = t.power.casefold()
    cancelled = t.cancelled_by is not None
    mate = table.partner_of(setting, t.seat)
    out: dict[str, Any] = {"kind": t.event, "power": t.power, "cancelled": cancelled,
                           "cancelled_by": name(t.cancelled_by) if cancelled else None,
                           "revealed": [{"id": c, "name": DATA.robot_pile_names[c], "via": VIA_WORDS[v]} for c, v in t.revealed]}
    lines = []
    what = f"the Power card {t.power}" if t.power else ("a Power card" if t.event == "power" else "an Active Robot card")
    lines.append(f"{name(t.seat)} triggered {what}.")
    if cancelled:
        lines.append(f"Cancelled by {name(t.cancelled_by)}’s Sentry Gunship: it affects none of the players"
                     + (", and the Power card stays used up." if t.event == "power" else "."))
    if t.revealed:
        lines.append("Revealed: " + ", ".join(f"{r['name']} ({r['via']})" for r in out["revealed"]) + ".")
    out["lines"] = lines
    pile = setting.robot_pile
    out["next_odds"] = []
    if pile is not None and t.phase == "event" and not cancelled:
        rest = dict(pile)
        for c, _ in t.revealed:
            if rest.get(c, 0) > 0:  # a stored reveal the pile does not hold (odd state) takes nothing away
                rest[c] -= 1
        total = sum(rest.values())
        if total:
            out["next_odds"] = [{"name": DATA.robot_pile_names[c], "p": exact(Fraction(n, total))}
                                for c, n in rest.items() if n]
    # what this phone may do
    in_event = t.phase == "event"
    untouched = not (t.resolved or t.replied)
    out["may_cancel"] = (me is not None and in_event and not cancelled and untouched and me != t.seat
                         and me != mate and me in alive)
    vias = []
    if mine and in_event and not cancelled and len(t.revealed) < 2:
        done = [v for _, v in t.revealed]
        sv = part.seat(t.seat).salvager
        if t.event == "active_robot" and "option_b" not in done:
            vias.append("option_b")
        if (t.event == "active_robot" and sv == "peacemaker" and "option_b" in done and "orb" not in done
                and table.deployable_robots(setting, part.model_dump(mode="json"), t.seat) >= 1):
            vias.append("orb")
        if power == "shogun":
            vias.append("shogun")
        if sv == "samurai" and t.revealed:
            vias.append("katana")
    out["vias"] = [{"id": v, "label": VIA_WORDS[v]} for v in vias]
    if "orb" in vias and not table.orb_is_a_part(setting.part_names):
        # the table cannot show which robot carries the Orb: the button is the player's word for it
        out["vias"][vias.index("orb")]["label"] = "the Orb: I confirm my Active Robot carries it"
    out["cards"] = [{"id": c, "name": n} for c, n in DATA.robot_pile_names.items()
                    if pile is None or c in pile]
    # the Event's damage: Cold Fusion and Balance reach every player, their owner too (Clarifications)
    sources = []
    if not cancelled and power != "meltdown":
        if t.event == "power" and "power" not in t.resolved:
            sources.append({"id": "", "name": t.power or "the Power card"})
        shown = [c for c, _ in t.revealed]
        for c in dict.fromkeys(shown):
            if t.resolved.count(c) < shown.count(c):
                sources.append({"id": c, "name": DATA.robot_pile_names[c]})
    owner_too = power in table.COLD_FUSION_BALANCE
    out["damage"] = {"sources": sources, "owner_too": owner_too,
                     "seats": [{"seat": k, "name": name(k)} for k in alive if owner_too or k != t.seat]}
    if owner_too and not cancelled and "power" not in t.resolved:
        lines.append(f"{t.power} reaches every player, {name(t.seat)} too: tick every player in the tie, "
                     "each suffers one damage.")
    if power == "meltdown" and not cancelled:
        waiting = [k for k in alive if k != t.seat and k not in t.replied]
        out["meltdown"] = {"waiting": [name(k) for k in waiting], "mine": me in waiting,
                           "empty": me is not None and (part.seat(me).hand_count or 0) == 0}
        if waiting:
            lines.append("Meltdown: " + ", ".join(name(k) for k in waiting) + " still to answer (a discard, or one "
                         "damage; with an empty hand, nothing).")
    return out


def defense_json(chain: Chain) -> dict:
    return {"goes_through": chain.goes_through, "actions_used": chain.actions_used, "why": chain.why,
            "chain": [{"by": link.by, "card": link.card, "cancels": link.cancels, "action": link.action}
                      for link in chain.links],
            "notes": list(chain.notes), "rules": list(chain.rules)}


def named_json(card: NamedCardIn) -> dict:
    """An entered card as the pages show it, with what the rulebook says of a card of that name."""
    sv = DATA.salvager(card.salvager)
    k = named_cards.known(card.name)
    return {"id": card.id, "name": card.name, "kind": card.kind, "kind_label": named_cards.KINDS[card.kind],
            "salvager": card.salvager, "salvager_name": sv.name if sv else None, "phase": card.phase,
            "phase_label": NAMED_PHASES[card.phase], "text": card.text, "says": k.says if k else "",
            "rule": k.rule if k else None}


NAMED_PHASES = {"draw": "Draw phase", "play": "Play phase", "event": "Event phase", "cleanup": "Cleanup phase",
                "any": "any phase"}
