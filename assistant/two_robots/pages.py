"""Two Robots pages: the factory (who is winning, your factory and hand, the turn plan) and the draw odds.

Both follow the table (`?table=<id>`): each phone keeps its own seat (`?seat=n`) and enters its own
cards; every answer is worked out from the whole table (every seat's factory, the discard pile, the
deck) and rendered here; `static/js/tablebot.js` swaps the `data-live` parts in. Cards are entered with
buttons: an energy (it stays chosen), then a part on the row where the card goes. Without a table
the page keeps what was entered in a hidden field of its forms, and nothing is saved.
"""
from __future__ import annotations

import json

from flask import Blueprint, render_template, request
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from solvers.errors import InputError
from solvers.two_robots import named_cards, table
from solvers.two_robots.factory import Factory, analyse
from solvers.two_robots.game_data import COMBINATIONS, DATA

from .. import rules as rulebook
from ..api import ApiError
from ..web.page import Page
from ..web.problems import Problem, from_input_error, from_validation
from . import answers, present, state
from .schemas import (
    ENERGY_LETTER,
    LETTER_ENERGY,
    MAX_NAMED,
    MAX_PLAN_HAND,
    MAX_SEATS,
    FactoryIn,
    NamedCardIn,
    OddsIn,
    PlanIn,
    StackIn,
    TwoRobotsState,
    deck_json,
    energies_code,
)

bp = Blueprint("two_robots", __name__)
KEY = state.STATE_KEY
MAX_STACK_FIELDS = 5
SHORT = {"chemical": "Chem", "electrical": "Elec", "mechanical": "Mech", "nuclear": "Nucl", "solar": "Solar"}
EVENTS = {"none": "No Event", "power": "A: Power, pay 2 parts", "active_robot": "B: Robot card, pay 1 part"}
FACTORY_RULES = ["tr-energy-stacks", "tr-stacking-part-cards", "tr-liz-example", "tr-how-to-build-a-robot",
                 "tr-duplicate-parts", "tr-frozen-stacks", "tr-attack-defense-cards", "tr-note-lone-hybrid-counts",
                 "tr-clarification-space-pod"]
PLAN_RULES = ["tr-turn-overview", "tr-the-event-phase", "tr-note-sacrifice-anywhere", "tr-cleanup-phase"]
ODDS_RULES = ["tr-turn-overview", "tr-draw-phase", "tr-fact-component-counts", "tr-unverified-card-contents",
              "tr-clarification-public-info"]
GAME_RULES = ["tr-turn-order", "tr-reading-turn-order", "tr-turn-overview", "tr-note-flipped-power-health",
              "tr-reading-damage-power-card", "tr-objective", "tr-variation-simpler-game"]
STANDING_RULES = ["tr-objective", "tr-attack-cards", "tr-frozen-stacks", "tr-clarification-public-info"]
WANTS = {"robot": "A part that finishes a robot", "part": "A part card", "attack": "An Attack card",
         "defense": "A Defense card"}


def rule_titles() -> dict[str, str]:
    """Titles of the Two Robots rule entries, so links read as words."""
    return {e.id: e.title for e in rulebook.books()["two-robots"].entries}


def combos(recent: list[str] | tuple[str, ...] = ()) -> list[dict]:
    """The 15 energy combinations as the energy buttons show them: the ones used last first, then the
    cores, then the hybrids."""
    out = [{"code": energies_code(c), "energies": list(c),
            "label": SHORT[c[0]] if len(c) == 1 else "/".join(e[:2].title() for e in c)} for c in COMBINATIONS]
    rank = {code: i for i, code in enumerate(recent)}
    return sorted(out, key=lambda c: rank.get(c["code"], len(rank)))


# ---- the page's table (or, without one, the state its forms carry) ---------------------------------------

class PageState(Page[TwoRobotsState]):
    """The page's table (or the state its forms carry) through the shared page machinery. At a table the
    page is this phone's seat: its hand (the seat's private state) is read for this phone alone, and a
    phone without a seat sees the seat picker instead of a factory."""

    def __init__(self) -> None:
        super().__init__("two-robots", TwoRobotsState, KEY, max_seats=MAX_SEATS)
        self.labels = self.names
        self.hand = state.read_private(self.private, self.state)
        self.confirm_new_game = False

    def carried_count(self) -> int:
        return max(1, len(self.state.players))

    def shown_seat(self) -> int:
        if self.table is not None:  # at a table a phone shows its own seat: the others' hands are theirs
            return self.phone_seat if self.phone_seat is not None else 0
        return super().shown_seat()

    @property
    def needs_seat(self) -> bool:
        return self.table is not None and self.phone_seat is None

    def refresh(self) -> None:
        super().refresh()
        self.labels = self.names
        self.hand = state.read_private(self.private, self.state)

    def change_private(self, mutate, seats_=None) -> None:
        super().change_private(mutate, seats_)
        self.hand = state.read_private(self.private, self.state)

    def act(self, action: table.Action, version: int | None = None, path: str = "") -> bool:
        """Apply one table action through the reducer: one that touches the seat's hand is this phone's
        own seat's; with `version`, only on the version the page showed (another phone first: a 409).
        A refusal of the rules is shown next to `path`."""
        hand = table.touches_hand(action)
        try:
            if isinstance(action, table.NewGame):  # every seat's hand is emptied (none is read)
                every = list(range(self.count))
                self.change_private(state.acting(self.count, action, tuple(every)), every)
                return True
            if hand:
                change = state.acting(self.count, action, (self.seat,))
                if version is None:
                    self.change_private(change)
                    return True
                if not self.may_read_private():
                    self.problem("", "Take your seat first: only its own phone changes a hand.")
                    return False
                return self.answer(version, None, private=change)
            change = state.acting_public(self.count, action)
            if version is None:
                self.change(change)
                return True
            return self.answer(version, change)
        except InputError as err:
            self.problem(path, err.message[:1].upper() + err.message[1:] + ".")
            if isinstance(err, table.Moved):
                self.status = 409
            return False

    def fields(self, form, prepare=None, label=None):
        """Save the fields of a form named by paths (`players.0.event`); `prepare` fills in what they rely
        on (by default, the seats up to this one)."""
        if self.table is not None:  # a hand's size is its holder's to say (each hand change keeps it)
            form = form.copy()
            for key in [k for k in form if k.endswith(".hand_count") and k != f"players.{self.phone_seat}.hand_count"]:
                form.poplist(key)
        seats = state.seats_up_to(self.seat)
        if prepare is None and any(k.startswith("turn_order.") for k in form):  # the numbers, once one is changed
            prepare = lambda part: with_turn_order(seats(part))  # noqa: E731
        result = super().fields(form, prepare or seats, label or field_label)
        if not result.problems and table.unsettled(state.setting(self.state, self.count), self.state.model_dump(mode="json")):
            self.act(table.Settle())  # a health typed in: the winner and whose turn it is follow ("Objective")
        return result

    def body(self) -> dict:
        return state.seat_body(self.state, self.seat, self.labels, self.hand if self.may_read_private() else None)

    def carried_private(self) -> str:
        return "" if self.table is not None else json.dumps(self.hand.model_dump(mode="json"), separators=(",", ":"))


def with_turn_order(part: dict) -> dict:
    """`save_form`'s `prepare` for the turn-order numbers: the game data's until the table changes one."""
    part["turn_order"] = TwoRobotsState.model_validate({"turn_order": part.get("turn_order")}).turn_numbers()
    return part


def field_label(path: str) -> str:
    if path.startswith("turn_order."):
        return f"{path.split('.')[-1].title()}'s turn-order number"
    words = {"event": "the Event option", "actions": "actions left", "powers_left": "unused Power cards",
             "health": "health", "salvager": "the Salvager", "hand_count": "cards in hand"}
    return words.get(path.rsplit(".", 1)[-1], path)


# ---- cards from the buttons ------------------------------------------------------------------------------

def part_card(part: str, combo: str, names: tuple[str, ...]) -> dict | None:
    """A part card from a part button and the energy chosen; None when either is not a real one."""
    if part not in names or not combo or not all(ch in LETTER_ENERGY for ch in combo) or len(set(combo)) != len(combo) \
            or not 1 <= len(combo) <= 2:
        return None
    energies = [e for e in ENERGY_LETTER if ENERGY_LETTER[e] in combo]
    return {"kind": "part", "part": part, "energies": energies}


class ActionCardForm(BaseModel):
    """An Attack or Defense card added from the hand's small form."""
    model_config = ConfigDict(extra="ignore")
    kind: str = Field(pattern="^(attack|defense)$")
    name: str = Field(default="", max_length=60)
    stacks_required: int = Field(ge=0, le=5)
    play: bool = False
    energy: str | None = Field(default=None, pattern="^(chemical|electrical|mechanical|nuclear|solar)$")


def _action_card(form) -> tuple[dict | None, list[Problem]]:
    data = {"kind": form.get("a_kind", "attack"), "name": form.get("a_name", "").strip(),
            "stacks_required": form.get("gold", ""), "play": (form.getlist("a_play") or [""])[-1] == "true",
            "energy": form.get("a_energy") or None}
    if data["name"] == "other":
        data["name"] = form.get("a_other", "").strip()
    try:
        card = ActionCardForm.model_validate(data)
    except ValidationError as err:
        return None, [Problem("gold" if e["loc"][0] == "stacks_required" else f"a_{e['loc'][0]}",
                              "must be 0 to 5" if e["loc"][0] == "stacks_required" else "is not valid")
                      for e in err.errors()]
    out = {"kind": card.kind, "name": card.name, "stacks_required": card.stacks_required, "play": card.play}
    if card.energy and card.kind == "attack":
        out |= {"energy": card.energy, "destroy": 2}
    return out, []


def _int(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdecimal() and len(raw) < 4 else None


def handle_cards(page: PageState, form) -> None:
    """One tap of the card buttons: `do` names what to do and with which card; the reducer does it."""
    do = form.get("do", "")
    verb, _, rest = do.partition(":")
    seat = page.seat
    names = page.state.names()
    if verb == "add":
        where, _, part = rest.rpartition(":")
        card = part_card(part, form.get("combo", ""), names)
        if card is None:
            page.problem("combo", "Choose the card's energy first, then its part.")
            return
        page.act(table.EnterCard(seat=seat, where=where, card=card), path="combo")
    elif verb == "addcard":
        card, problems = _action_card(form)
        page.problems += problems
        if card is not None:
            page.act(table.EnterCard(seat=seat, where=rest or "hand", card=card), path="combo")
    elif verb == "remove":
        where, _, code = rest.partition("|")
        page.act(table.RemoveCard(seat=seat, where=where, code=code), path="combo")
    elif verb == "play":
        code, _, target = rest.partition("|")
        page.act(table.PlayCard(seat=seat, code=code, stack=None if target == "new" else _int(target)), path="combo")
    elif verb == "discard":
        page.act(table.Discard(seat=seat, code=rest), path="combo")
    elif verb in ("freeze", "thaw") and _int(rest) is not None:
        page.act(table.Freeze(seat=seat, stack=int(rest), frozen=verb == "freeze"), path="combo")
    elif verb == "drawn":
        page.act(table.FinishDraw(seat=seat), path="combo")
    elif verb == "attack":
        _play_attack(page, form, rest)
    elif verb == "rename":
        _rename(page, form)
    elif verb == "text":
        _typed_cards(page, form)
    elif verb in TURN_VERBS:
        handle_turn(page, form, verb, rest)
    elif verb == "named":
        handle_named(page, form, rest)


TURN_VERBS = ("next_phase", "damage", "event_power", "event_robot", "cancel_event", "reveal", "event_damage",
              "meltdown", "space_pod", "settings", "new_game", "new_game_ask")


def handle_named(page: PageState, form, rest: str) -> None:
    """Add a card by name (what the form leaves as "as the rulebook suggests" comes from what the rulebook
    says of that name), or remove one."""
    if rest.startswith("remove:"):
        page.change(state.remove_named(rest.removeprefix("remove:")))
        return
    name = " ".join(form.get("nc_name", "").split())[:40]
    k = named_cards.known(name)
    whose = form.get("nc_salvager", "")
    data = {"name": k.name if k else name, "kind": form.get("nc_kind") or (k.kind if k else "power"),
            "salvager": None if whose == "-" else whose or (k.salvager if k else None),
            "phase": form.get("nc_phase") or (k.phase if k else "any"), "text": form.get("nc_text", "").strip()}
    try:
        card = NamedCardIn.model_validate(data)
    except ValidationError as err:
        what = {"name": "Give the card's name.", "text": "The words on a card fit in 400 letters."}
        page.problem("named", what.get(str(err.errors()[0]["loc"][0]), "Choose the kind, whose card and its phase "
                                                                         "from the lists."))
        return
    if len(page.state.named_cards) >= MAX_NAMED:
        page.problem("named", f"At most {MAX_NAMED} cards are kept.")
        return
    page.change(state.add_named(card.model_dump(mode="json")))


def handle_turn(page: PageState, form, verb: str, rest: str) -> None:
    """The game panel's buttons. "Next phase" and a damage carry what the phone showed (the turn, the
    health), so two phones tapping at once move the game on once, while another phone's unrelated change
    (a card entered) does not stop them; an Event's sacrifices are worked out from the version shown."""
    version = _shown_version(form)
    if verb == "next_phase":
        page.act(table.NextPhase(seen=rest or None), path="turn")
    elif verb in OUTCOME_VERBS:
        handle_outcome(page, form, verb, rest, version)
    elif verb == "damage":
        seat, _, seen = rest.partition(":")
        k = _int(seat)
        if k is None or k >= page.count:
            page.problem("turn", "Choose the seat that suffers the damage.")
            return
        page.act(table.Damage(seat=k, amount=1, seen=_int(seen)), path="turn")
    else:
        picked = [tuple(map(int, v.split("."))) for v in form.getlist("sacrifice")
                  if v.count(".") == 1 and all(x.isdecimal() and len(x) < 3 for x in v.split("."))]
        parts = tuple(table.PartAt(stack=i, card=j) for i, j in picked)
        if verb == "event_power":
            power = " ".join(form.get("power", "").split())[:40]
            page.act(table.EventPower(seat=page.seat, sacrifices=parts, power=power), version, path="turn")
        else:
            if len(parts) != 1:
                page.problem("turn", "Tick the one part you sacrifice.")
                return
            page.act(table.EventRobot(seat=page.seat, sacrifice=parts[0]), version, path="turn")


OUTCOME_VERBS = ("cancel_event", "reveal", "event_damage", "meltdown", "space_pod", "settings", "new_game",
                 "new_game_ask")


def handle_outcome(page: PageState, form, verb: str, rest: str, version: int | None) -> None:
    """The Event's outcomes, the settings and a new game: each parsed here and done by the reducer."""
    if verb == "cancel_event":
        page.act(table.CancelEvent(seat=page.seat, code=rest), path="turn")
    elif verb == "reveal":
        # the Orb's button says the player confirms one of the two Active Robots carries it
        page.act(table.Reveal(seat=page.seat, card=form.get("robot_card", ""), via=rest, orb_confirmed=rest == "orb"),
                 path="turn")
    elif verb == "event_damage":
        seats = tuple(k for k in (_int(v) for v in form.getlist("hit")) if k is not None)
        page.act(table.EventDamage(seats=seats, card=rest), version, path="turn")
    elif verb == "meltdown":
        reply, _, code = rest.partition("|")
        page.act(table.MeltdownReply(seat=page.seat, reply=reply, code=code), path="turn")
    elif verb == "space_pod":
        picked = form.get("pod_target", "").split(".")
        where = form.get("pod_stack", "new")
        if len(picked) != 3 or not all(x.isdecimal() and len(x) < 3 for x in picked):
            page.problem("turn", "Choose the Part card Space Pod takes.")
            return
        s, i, j = map(int, picked)
        page.act(table.SpacePod(seat=page.seat, code=rest, target=table.Target(seat=s, stack=i, card=j),
                                stack=None if where == "new" else _int(where)), version, path="turn")
    elif verb == "settings":
        teams = present.TEAM_CHOICES.get(form.get("teams", ""), None)
        on = {k: (form.getlist(k) or [""])[-1] == "true" for k in ("uniform_robot", "five_stacks")}
        page.act(table.ChangeSettings(teams=teams, **on), path="settings")
    elif verb == "new_game_ask":
        page.confirm_new_game = True
    elif verb == "new_game":
        page.act(table.NewGame(), version, path="turn")


def _play_attack(page: PageState, form, code: str) -> None:
    """Play an Attack card from the hand on the best targets, as the reducer picks them (the ones the
    page's answer showed: "Attack Cards", "Frozen Stacks"); applied only on the version shown."""
    page.act(table.PlayAttack(seat=page.seat, code=code), _shown_version(form), path="combo")


def _shown_version(form) -> int | None:
    raw = form.get("version", "")
    return int(raw) if raw.isdecimal() and len(raw) < 10 else None


def _rename(page: PageState, form) -> None:
    wanted = [*DATA.part_ids[:2], form.get("name2", ""), form.get("name3", "")]
    try:
        names = TwoRobotsState.model_validate({"part_names": wanted}).names()
    except ValidationError:
        page.problems.append(Problem("name2", "The two other part names must be different words (letters and "
                                              "digits), not HEAD or ARMS."))
        return
    if names != page.state.names():
        page.change_private(state.rename_parts(names, page.count), list(range(page.count)))


def parse_cards(text: str, names: tuple[str, ...], path: str, hand: bool) -> tuple[list[dict], list[Problem]]:
    """Cards typed as short text ("head:cs, arms:c"; in the hand also "attack:3:Nuclear Explosion!")."""
    cards: list[dict] = []
    problems: list[Problem] = []
    tokens = [t.strip() for t in text.replace("\n", ",").split(",") if t.strip()][:60]
    for token in tokens:
        head, _, rest = token.partition(":")
        head = head.strip().lower()
        if hand and head in ("attack", "defense"):
            play = rest.endswith("!")
            gold, _, name = rest.rstrip("!").partition(":")
            if not gold.strip().isdigit() or not 0 <= int(gold) <= 5:
                problems.append(Problem(path, f"“{token}”: write the gold number 0-5, like {head}:3"))
                continue
            cards.append({"kind": head, "name": name.strip()[:60], "stacks_required": int(gold), "play": play})
            continue
        part = next((n for n in names if n == head), None) or next(
            (n for n in names if head and n.startswith(head) and sum(m.startswith(head) for m in names) == 1), None)
        card = part_card(part or "", rest.strip().lower(), names)
        if part is None:
            problems.append(Problem(path, f"“{token}”: the part must be one of {', '.join(names)}"))
        elif card is None:
            problems.append(Problem(path, f"“{token}”: give one or two energy letters (c, e, m, n, s), like head:cs"))
        else:
            cards.append(card)
    return cards, problems


def _typed_cards(page: PageState, form) -> None:
    names = page.state.names()
    stacks, problems = [], []
    for i in range(MAX_STACK_FIELDS):
        cards, bad = parse_cards(form.get(f"stack{i}", "")[:2000], names, f"stack{i}", hand=False)
        problems += bad
        if cards:
            stacks.append({"cards": cards, "frozen": (form.getlist(f"frozen{i}") or [""])[-1] == "true"})
    hand, bad = parse_cards(form.get("hand", "")[:2000], names, "hand", hand=True)
    problems += bad
    if len(hand) > MAX_PLAN_HAND:
        problems.append(Problem("hand", f"at most {MAX_PLAN_HAND} cards"))
    view = analyse(Factory(tuple(StackIn.model_validate(s).to_solver() for s in stacks)), names) \
        if not problems else None
    if view is not None and view.problems:
        problems += [Problem(f"stack{i}", p.message) for p in view.problems for i in p.stacks]
    if problems:
        page.problems += problems
        page.status = 400
        return
    page.act(table.SetCards(seat=page.seat, stacks=tuple(stacks), hand=tuple(hand)), path="hand")


# ---- the factory page --------------------------------------------------------------------------------

def _solve(fn, model, body: dict, problems: list[Problem]) -> dict | None:
    try:
        return fn(model.model_validate(body))
    except ValidationError as err:
        problems += from_validation(err)
    except ApiError as err:  # an impossible factory: each stack's sentence, without the API's field names
        said = list(dict.fromkeys(f["message"] for f in err.fields or ())) or [err.message]
        problems += [Problem("", m) for m in said]
    except InputError as err:
        problems += from_input_error(err)
    return None


def card_text(card: dict) -> str:
    if card.get("kind", "part") == "part":
        return f"{card['part']}:{energies_code(card['energies'])}"
    text = f"{card['kind']}:{card.get('stacks_required', 0)}"
    if card.get("name"):
        text += f":{card['name']}"
    return text + ("!" if card.get("play") else "")


@bp.route("/two-robots/factory", methods=["GET", "POST"])
def factory_page():
    page = PageState()
    if request.method == "POST":
        if request.form.get("do"):
            handle_cards(page, request.form)
        else:
            page.fields(request.form)
        if page.problems and page.status == 200:
            page.status = 400
    seat = page.state.seat(page.seat)
    body = page.body()
    result = _solve(answers.factory_result, FactoryIn, body, page.problems)
    plan = None
    if result is not None:
        plan = _solve(answers.plan_result, PlanIn, dict(body, event=seat.event, actions=seat.actions,
                                                        powers_left=seat.powers_left), page.problems)
    chosen = request.form.get("combo") if request.method == "POST" else None
    hand = page.hand
    chosen = chosen if chosen in {c["code"] for c in combos()} else (hand.recent[0] if hand.recent else "")
    recent = hand.recent[:4]
    held = [c.stored() for c in hand.held()]
    # the stacks as answered, or as stored when the factory cannot be (so its cards can be taken out)
    stacks = result["stacks"] if result is not None else [
        {"energy": None, "possible": [], "parts": [], "frozen": st.frozen, "active_robot": False,
         "why": "This stack cannot be as entered: see above.",
         "cards": [{"part": c.part, "energies": list(c.energies), "duplicate": False} for c in st.cards]}
        for st in seat.stacks]
    return render_template(
        "two_robots/factory.html", page=page, seat=seat, seat_index=page.seat, seat_names=page.labels,
        result=result, stacks=stacks, plan=plan, problems=page.problems, names=page.state.names(), combos=combos(recent),
        chosen=chosen, recent=recent, held=held, hand_codes=[state.card_code(c) for c in held],
        drawn=len(hand.drawn), code=state.card_code, short=SHORT, events=EVENTS, salvagers=DATA.salvagers,
        action_cards=DATA.action_cards, energies=DATA.energies, part_sources=[p.source for p in DATA.part_names],
        default_names=DATA.part_ids, carried=page.carried(), carried_private=page.carried_private(), discard=[c.model_dump() for c in page.state.discard],
        texts={"stacks": [", ".join(card_text(c) for c in s["cards"]) for s in body["stacks"]],
               "hand": ", ".join(card_text(c.stored()) for c in hand.hand)},
        problem_paths=[p.path for p in page.problems], text_paths=[f"stack{i}" for i in range(MAX_STACK_FIELDS)] + ["hand"],
        factory_rules=FACTORY_RULES, plan_rules=PLAN_RULES, standing_rules=STANDING_RULES, rule_titles=rule_titles(),
        pile=present.robot_pile(page.table.players if page.table is not None else None),
        game=present.game_view(page.state, state.setting(page.state, page.count), page.labels, page.phone_seat),
        game_rules=GAME_RULES, turn_numbers=page.state.turn_numbers(),
        named=[present.named_json(c) for c in page.state.named_cards], known_cards=named_cards.KNOWN,
        named_kinds=named_cards.KINDS, named_phases=present.NAMED_PHASES, confirm_new_game=page.confirm_new_game,
        gunship=_in_hand(held, "Sentry Gunship"), pod=_in_hand(held, "Space Pod"),
        pod_targets=_pod_targets(page), **page.ctx), page.status


def _in_hand(held: list[dict], name: str) -> str | None:
    """The code of a card of this name in the phone's own hand (what its own buttons may play)."""
    return next((state.card_code(c) for c in held if c.get("kind") != "part"
                 and (c.get("name") or "").casefold() == name.casefold()), None)


def _pod_targets(page: PageState) -> list[dict]:
    """The Part cards in the other factories, as Space Pod's choices (public: every factory is)."""
    out = []
    for k in range(page.count):
        if k == page.seat:
            continue
        for i, st in enumerate(page.state.seat(k).stacks):
            for j, c in enumerate(st.cards):
                out.append({"value": f"{k}.{i}.{j}", "label": f"{page.labels[k] if k < len(page.labels) else k + 1}: "
                                                              f"{c.part.upper()} {'/'.join(e.title() for e in c.energies)}"
                                                              f" (stack {i + 1})"})
    return out


# ---- the odds page ---------------------------------------------------------------------------------------

def _wanted_flags(unseen: list[dict], want: dict, names: tuple[str, ...]) -> tuple[list[dict], str]:
    """Mark the unseen cards the chosen wish covers; returns (cards, what the wish is in words)."""
    kind = want.get("kind", "robot")
    if kind == "robot":
        return unseen, "a part that finishes a robot"
    if kind in ("attack", "defense"):
        return [dict(u, wanted=u["kind"] == kind) for u in unseen], "an Attack card" if kind == "attack" \
            else "a Defense card"
    part = want.get("part") if want.get("part") in names else None
    energy = want.get("energy") if want.get("energy") in ENERGY_LETTER else None
    out = [dict(u, wanted=u["kind"] == "part" and (part is None or u.get("part") == part)
                and (energy is None or energy in u.get("energies", []))) for u in unseen]
    words = f"{'a ' + part.upper() if part else 'a part'}{' that carries ' + energy.title() if energy else ''}"
    return out, words


@bp.route("/two-robots/odds", methods=["GET", "POST"])
def odds_page():
    page = PageState()
    names = page.state.names()
    if request.method == "POST":
        if request.form.get("do") == "reset_deck":
            page.change(state.reset_deck())
        else:
            seats = state.seats_up_to(page.seat)
            page.fields(request.form, prepare=lambda part: with_deck(seats(part), names))
        if page.problems:
            page.status = 400
    want = {"kind": request.values.get("want", "robot"), "part": request.values.get("want_part", ""),
            "energy": request.values.get("want_energy", "")}
    if want["kind"] not in WANTS:
        want["kind"] = "robot"
    body = page.body()
    odds = source = None
    wish = ""
    try:
        t = answers.table_input(FactoryIn.model_validate(body))
    except (ApiError, InputError, ValidationError) as err:
        t = None
        page.problems.append(Problem("", getattr(err, "message", "The factory cannot be read.")))
    if t is not None and not page.needs_seat:
        source = present.unseen_json(t.pool, entered=False)
        cards, wish = _wanted_flags(unseen_list(t), want, names)
        if sum(c["count"] for c in cards) > 0:
            odds = _solve(answers.odds_result, OddsIn, dict(body, unseen=cards), page.problems)
        else:
            page.problems.append(Problem("deck", "No unseen cards are left: check the deck below."))
    deck = deck_json(page.state.deck, names)
    width = len(COMBINATIONS)
    grid = [{"combo": c, "code": energies_code(c),
             "cells": [{"part": n, "index": i * width + j, "count": deck["parts"][i * width + j]["count"]}
                       for i, n in enumerate(names)]}
            for j, c in enumerate(COMBINATIONS)]
    return render_template(
        "two_robots/odds.html", page=page, odds=odds, source=source, wish=wish, want=want, wants=WANTS, grid=grid,
        deck=deck, entered=page.state.deck is not None, names=names, energies=DATA.energies, short=SHORT,
        seat_index=page.seat, seat_names=page.labels, problems=page.problems, carried=page.carried(),
        carried_private=page.carried_private(),
        game=present.game_view(page.state, state.setting(page.state, page.count), page.labels, page.phone_seat),
        odds_rules=ODDS_RULES, rule_titles=rule_titles(), **page.ctx), page.status


def unseen_list(t: answers.TableInput) -> list[dict]:
    """The unseen cards the solver finds for this seat (the deck minus every card in sight), as `unseen`."""
    out = []
    for u in t.pool.cards:
        if u.part is not None:
            out.append({"kind": "part", "part": u.part.part, "energies": list(u.part.energies), "count": u.count})
        else:
            out.append({"kind": u.kind, "name": u.name, "count": u.count})
    return out


def with_deck(part: dict, names: tuple[str, ...]) -> dict:
    """`save_form`'s `prepare` for the deck grid: the default composition until the table enters its
    own, so that every count (`deck.parts.7.count`) has a place; the first change keeps it."""
    if part.get("deck") is None:
        part["deck"] = deck_json(None, names)
    return part
