"""What happens to a Two Robots table when someone at it acts: the game's pure reducer.

`reduce(setting, table, hands, action)` returns `(table, hands)` after one action, or raises InputError
naming the action's bad field. `table` is the table's public state as plain JSON (the `two_robots` part:
`players` with each seat's stacks, `hand_count`, `health`, `powers_left`, `salvager`; the `discard`
pile; `turn` and `winner`); `hands` holds the private state (`{"hand", "drawn", "recent"}`) of the seats
the caller may touch: its own seat's, never another phone's. Neither input is changed.

A card is JSON as the table keeps it: a part `{"kind": "part", "part", "energies"}`, an Attack or Defense
card `{"kind", "name", "stacks_required", ...}`; actions name a card by its code (`card_code`).

The actions, one record per thing done at the table (rulebook sections in brackets):
  EnterCard     a card entered by hand: into the hand, the draw being entered, a stack, a new stack or
                the discard pile ("Stacking Part Cards" is checked for a stack)
  RemoveCard    a card taken out of any of those (a correction)
  FinishDraw    the cards of the draw go into the hand ("Turn Overview": Draw Phase)
  PlayCard      a card from the hand: a part onto a stack or a new one, an Attack or Defense card to the
                discard pile ("How to Build a Robot", "Attack / Defense Cards")
  PlayAttack    an Attack card on targets the player chose: the Part cards it destroys, or the stack it
                freezes ("Attack Cards", "Frozen Stacks")
  Freeze        a stack frozen or thawed by hand
  EventPower    Event option A: two parts sacrificed, one Power card used and flipped ("The Event Phase")
  EventRobot    Event option B: one part sacrificed with an Active Robot in the factory
  Discard       a card from the hand to the discard pile ("Cleanup Phase")
  SetCards      the seat's factory and hand as typed (they replace what was there)
  Damage        a seat suffers damage: a Power card per point leaves the game (note in "The Event Phase")
  NextPhase     Draw -> Play -> Event -> Cleanup -> the next Salvager still in the game ("Turn Order")
  Settle        nothing done: the winner and the turn worked out again after a change made by hand
  CancelEvent   an opponent's Sentry Gunship cancels the turn's Event: a Power card stays used up, a card
                that affects several players affects none ("Defense Cards", "Clarifications")
  Reveal        an Active Robot card revealed (option B; a second one with Katana, Shogun or the Orb, the pile
                not reshuffled in between: "Clarifications"; the Orb's needs a deployable Active Robot,
                checked, and the player's word that it carries the Orb unless a part is named Orb)
  EventDamage   the Event card's hits: one damage to each seat named (Cold Fusion and Balance: every tied
                player, their owner too: "Clarifications")
  MeltdownReply a player answers Meltdown: a discard, one damage, or with an empty hand nothing ("Clarifications")
  SpacePod      a Part card stolen into the player's factory, a hybrid on either of its energies ("Clarifications")
  ChangeSettings the variations: 2v2 teams and the two house rules ("Variations", `variations`)
  NewGame       a new game at the same seats: every hand emptied, health back, turn 1 ("Setup")
NextPhase and Damage may carry what the phone showed (`seen`): applied only while it still holds, so
two phones tapping at once move the game once (`Moved` otherwise).

Once a turn is being followed (`turn` is set), the turn's rules hold: only the turn's Salvager plays
cards, in its Play phase, three actions at most; a Defense card may be played out of turn and counts an
action only for the turn's Salvager ("Defense Cards"); one Event in the Event phase; the Cleanup phase
ends only at the hand limit. Before the first `NextPhase` nothing is counted (a table that only wants
the answers). The winner is worked out after every action: the last Salvager standing, else the seats
with two active robots ("Objective"), else a house rule that is on; in 2v2 the team ("Variations",
`variations`). The simpler game ("Variations", `Setting.simple`) has no Event
phase and no health: two robots is its only win.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from solvers.errors import InputError

from .attacks import resolve
from .cards import CANCEL_EVENT, DESTROY, FREEZE, HandCard, effect_of
from .factory import BIT, ENERGIES, Factory, Part, Stack, analyse, mask_of, or_list
from .game_data import DATA
from .variations import (
    FIVE_STACKS,
    UNIFORM_ROBOT,
    check_teams,
    has_five_stacks,
    has_uniform_robot,
    partner,
    team_seats,
)

PHASES = ("draw", "play", "event", "cleanup")
PHASE_NAMES = {"draw": "Draw", "play": "Play", "event": "Event", "cleanup": "Cleanup"}
LAST_STANDING, TWO_ROBOTS = "last_standing", "two_robots"
MAX_STACKS = len(ENERGIES)
MAX_HAND = 15
MAX_DRAWN = 3
MAX_PILE = 100

Card = dict[str, Any]
Hands = dict[int, dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class Setting:
    """What the reducer needs besides the table: its seats, its part names, the Salvagers' turn-order
    numbers (unverified: the table may change them) and the turn's numbers from the game data."""
    seats: int
    part_names: tuple[str, ...]
    turn_order: Mapping[str, int] = field(default_factory=dict)
    start_health: int = 3
    draw: int = 3
    actions: int = 3
    hand_limit: int = 7
    power_cost: int = 2
    robot_card_cost: int = 1
    simple: bool = False        # "Variations": the simpler game, without Powers, abilities or Active Robot cards
    teams: tuple[int, ...] | None = None    # "Variations": 2v2, each seat's team (0 or 1), four seats
    uniform_robot: bool = False  # "Variations", house rule: a perfectly uniform robot wins
    five_stacks: bool = False    # "Variations", house rule: five Stacks in a Factory win
    robot_pile: Mapping[str, int] | None = None   # the Active Robot pile for this player count (None: unknown)

    @property
    def phases(self) -> tuple[str, ...]:
        """The phases of a turn: the simpler game has no Event phase (nothing to trigger one with)."""
        return tuple(p for p in PHASES if p != "event") if self.simple else PHASES


# ---- actions -----------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class EnterCard:
    seat: int
    where: str          # "hand", "drawn", "new", "stack:<i>" or "discard"
    card: Card


@dataclass(frozen=True, kw_only=True)
class RemoveCard:
    seat: int
    where: str          # "hand", "drawn", "stack:<i>" or "discard"
    code: str


@dataclass(frozen=True, kw_only=True)
class FinishDraw:
    seat: int


@dataclass(frozen=True, kw_only=True)
class PlayCard:
    seat: int
    code: str
    stack: int | None = None   # a part: the stack it goes on (None: a new stack)


@dataclass(frozen=True, kw_only=True)
class Target:
    """A target of an Attack card: a Part card (`card`) of a seat's stack, or the stack itself (None)."""
    seat: int
    stack: int
    card: int | None = None


@dataclass(frozen=True, kw_only=True)
class PlayAttack:
    seat: int
    code: str
    targets: tuple[Target, ...] | None = None   # None: the best targets as Tablebot picks them (`best_attack`)


@dataclass(frozen=True, kw_only=True)
class Freeze:
    seat: int
    stack: int
    frozen: bool = True


@dataclass(frozen=True, kw_only=True)
class PartAt:
    stack: int
    card: int


@dataclass(frozen=True, kw_only=True)
class EventPower:
    seat: int
    sacrifices: tuple[PartAt, ...]
    power: str = ""             # the Power card's name, when the table entered it (each is used once per game)


@dataclass(frozen=True, kw_only=True)
class EventRobot:
    seat: int
    sacrifice: PartAt


@dataclass(frozen=True, kw_only=True)
class Discard:
    seat: int
    code: str


@dataclass(frozen=True, kw_only=True)
class SetCards:
    seat: int
    stacks: tuple[dict, ...]
    hand: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class Damage:
    seat: int
    amount: int = 1
    seen: int | None = None     # the health the phone showed: applied only while it still is (no double tap)


@dataclass(frozen=True, kw_only=True)
class NextPhase:
    seen: str | None = None     # the turn the phone showed (`turn_key`): applied only while it still is


@dataclass(frozen=True, kw_only=True)
class CancelEvent:
    """An opponent plays Sentry Gunship from its hand on this turn's Event ("Defense Cards"): the Power card
    stays used up ("The Event Phase"), and the card affects nobody ("Clarifications")."""
    seat: int                   # who plays the Sentry Gunship (its hand)
    code: str


@dataclass(frozen=True, kw_only=True)
class Reveal:
    """An Active Robot card revealed in the turn's Event phase: `via` "option_b" (Event option B), or a
    second card without a reshuffle in between ("katana", "shogun", "orb": "Clarifications")."""
    seat: int
    card: str                   # the Active Robot card's id (game data: shots_fired, ...)
    via: str = "option_b"
    orb_confirmed: bool = False  # "orb": the player says one of the two Active Robots carries the Orb


@dataclass(frozen=True, kw_only=True)
class EventDamage:
    """What the turn's Event card (the Power used, or an Active Robot card revealed) does, as its words say:
    each seat named suffers one damage (Cold Fusion and Balance: every player in the tie, their owner too)."""
    seats: tuple[int, ...]
    card: str = ""              # the Active Robot card it comes from (default: the Power used this turn)


@dataclass(frozen=True, kw_only=True)
class MeltdownReply:
    """A player's answer to Meltdown: discard a card (`code`, from the own hand), suffer one damage, or,
    with no card in hand, discard nothing and suffer nothing ("Clarifications")."""
    seat: int
    reply: str                  # "discard", "damage" or "nothing"
    code: str = ""


@dataclass(frozen=True, kw_only=True)
class SpacePod:
    """Space Pod played from the hand: a Part card taken from another factory into the player's own, on
    `stack` (None: a new one); a hybrid may take either of its energies there, whatever it was where it
    came from ("Clarifications")."""
    seat: int
    code: str
    target: Target
    stack: int | None = None


@dataclass(frozen=True, kw_only=True)
class ChangeSettings:
    """The table's variations ("Variations"): 2v2 teams (each seat's team, or None) and the house rules."""
    teams: tuple[int, ...] | None = None
    uniform_robot: bool = False
    five_stacks: bool = False


@dataclass(frozen=True, kw_only=True)
class NewGame:
    """A new game at the same table and seats: factories, hands (every seat's), discard pile, health and the
    winner cleared; the Salvagers, part names, deck, cards entered by name and settings stay; turn 1."""


@dataclass(frozen=True, kw_only=True)
class Settle:
    """Nothing done: the winner and the turn worked out again after a change made by hand (a health typed)."""


def unsettled(setting: Setting, table: dict) -> bool:
    """Whether the stored winner or turn no longer follows from the table (a health changed by hand)."""
    turn = table.get("turn")
    out = turn is not None and table.get("winner") is None and turn["seat"] not in alive(setting, copy.deepcopy(table))
    return out or (table.get("winner") or None) != decided(setting, table)


class Moved(InputError):
    """The game moved on since the phone showed it (another phone was first): nothing was applied."""


def turn_key(table: dict) -> str:
    """The turn in a few letters ("3:play", "start" before the first): what a phone saw."""
    turn = table.get("turn")
    return f"{turn['number']}:{turn['phase']}" if turn else "start"


Action = (EnterCard | RemoveCard | FinishDraw | PlayCard | PlayAttack | Freeze | EventPower | EventRobot | Discard
          | SetCards | Damage | NextPhase | Settle | CancelEvent | Reveal | EventDamage | MeltdownReply | SpacePod
          | ChangeSettings | NewGame)
# touch a seat's hand (MeltdownReply only when it discards a card)
HAND_ACTIONS = (EnterCard, RemoveCard, FinishDraw, PlayCard, PlayAttack, Discard, SetCards, CancelEvent, SpacePod)


def touches_hand(action: Action) -> bool:
    return isinstance(action, HAND_ACTIONS) or (isinstance(action, MeltdownReply) and action.reply == "discard")


# ---- reading the table ---------------------------------------------------------------------------------

def card_code(card: Card) -> str:
    """A card in a few letters ("head:cs", "attack:3:Nuclear Explosion"): how actions name one."""
    if card.get("kind", "part") == "part":
        return f"{card['part']}:{''.join(e[0] for e in card['energies'])}"
    return f"{card['kind']}:{card.get('stacks_required') or 0}:{card.get('name') or ''}"


def factory_of(seat: dict) -> Factory:
    return Factory(tuple(Stack(tuple(Part.of(c["part"], c["energies"]) for c in s["cards"]), bool(s.get("frozen")))
                         for s in seat.get("stacks", [])))


def health(setting: Setting, seat: dict) -> int:
    """Health entered, else the starting three Power cards ("Setup")."""
    h = seat.get("health")
    return setting.start_health if h is None else h


def alive(setting: Setting, table: dict) -> list[int]:
    """The seats still in the game: health above 0 (a Salvager at 0 is out: "Objective"); in the simpler
    game nobody has Power cards, so nobody is out."""
    if setting.simple:
        return list(range(setting.seats))
    return [k for k in range(setting.seats) if health(setting, _seat(table, k)) > 0]


def turn_order(setting: Setting, table: dict) -> list[int]:
    """Seats in turn order: the smaller Salvager number first ("Turn Order"); a seat without a Salvager
    after those with one, by seat."""
    def key(k: int) -> tuple[int, int]:
        sv = _seat(table, k).get("salvager")
        return (setting.turn_order.get(sv, 99) if sv else 100, k)
    return sorted(range(setting.seats), key=key)


def decided(setting: Setting, table: dict) -> dict | None:
    """The winner, once the game is decided: the last Salvager standing, else every seat still in the game
    with two active robots (frozen ones count: "Frozen Stacks"), else, with a house rule on, a perfectly
    uniform robot or five Stacks ("Variations"). In 2v2 the team wins: the last team standing, or the
    partners of a seat that won (`team`)."""
    standing = alive(setting, table)
    teams = setting.teams
    if setting.seats > 1 and not setting.simple:
        left = {teams[k] for k in standing} if teams else set(standing)
        if len(left) == 1:
            if teams:
                t = left.pop()
                return {"seats": team_seats(teams, t), "how": LAST_STANDING, "team": t}
            return {"seats": standing, "how": LAST_STANDING}
    ways = [(TWO_ROBOTS, lambda f: analyse(f, setting.part_names).won)]
    if setting.uniform_robot:
        ways.append((UNIFORM_ROBOT, lambda f: has_uniform_robot(f, setting.part_names)))
    if setting.five_stacks:
        ways.append((FIVE_STACKS, has_five_stacks))
    for how, wins in ways:
        built = [k for k in standing if wins(factory_of(_seat(table, k)))]
        if not built:
            continue
        if not teams:
            return {"seats": built, "how": how}
        won = sorted({teams[k] for k in built})
        return {"seats": [k for k in range(setting.seats) if teams[k] in won], "how": how,
                "team": won[0] if len(won) == 1 else None}
    return None


def nobody_standing(setting: Setting, table: dict) -> bool:
    """Every Salvager out at once (a Cold Fusion or Balance tie damages its own player too: "Clarifications").
    The rulebook names no winner then; Tablebot reads it as nobody wins (rule entry "tr-reading-nobody-standing")."""
    return setting.seats > 1 and not setting.simple and not alive(setting, table)


def partner_of(setting: Setting, k: int) -> int | None:
    return partner(setting.teams, k)


# ---- the reducer ---------------------------------------------------------------------------------------

def reduce(setting: Setting, table: dict, hands: Hands, action: Action) -> tuple[dict, Hands]:
    """The table and hands after `action` (InputError naming the action's field when it cannot be done)."""
    table = copy.deepcopy(table)
    hands = {k: _hand_of(v) for k, v in copy.deepcopy(dict(hands)).items()}
    seat = getattr(action, "seat", None)
    if seat is not None:
        if not 0 <= seat < setting.seats:
            raise InputError("seat", f"the table has {setting.seats} seats")
        _seat(table, seat)
        if touches_hand(action) and seat not in hands:
            raise InputError("seat", "only the phone holding this seat changes its hand")
    if isinstance(action, ChangeSettings):
        problem = check_teams(action.teams, setting.seats)
        if problem:
            raise InputError("teams", problem)
        setting = replace(setting, teams=tuple(action.teams) if action.teams else None,
                          uniform_robot=action.uniform_robot, five_stacks=action.five_stacks)
    _apply(setting, table, hands, action)
    for h in hands.values():
        if len(h["hand"]) > MAX_HAND:
            raise InputError("hand", f"at most {MAX_HAND} cards in a hand")
    count_hands(table, hands)
    if len(table.get("discard", [])) > MAX_PILE:
        del table["discard"][:-MAX_PILE]
    table["winner"] = decided(setting, table)
    turn = table.get("turn")
    if turn is not None and table["winner"] is None and turn["seat"] not in alive(setting, table):
        _next_seat(setting, table)  # the turn's Salvager is out: the next one plays
    return table, hands


def count_hands(table: dict, hands: Hands) -> None:
    """What the rules make public of each hand: how many cards it holds, the draw being entered included
    (Clarifications)."""
    for k, h in hands.items():
        _seat(table, k)["hand_count"] = len(h.get("hand") or []) + len(h.get("drawn") or [])


def _apply(setting: Setting, table: dict, hands: Hands, action: Action) -> None:
    match action:
        case EnterCard(seat=k, where=where, card=card):
            _enter(setting, table, hands, k, where, card)
        case RemoveCard(seat=k, where=where, code=code):
            _remove(table, hands, k, where, code)
        case FinishDraw(seat=k):
            hands[k]["hand"] += hands[k]["drawn"]
            hands[k]["drawn"] = []
        case PlayCard(seat=k, code=code, stack=stack):
            _play(setting, table, hands, k, code, stack)
        case PlayAttack(seat=k, code=code, targets=targets):
            _attack(setting, table, hands, k, code, targets)
        case Freeze(seat=k, stack=i, frozen=frozen):
            stacks = _seat(table, k)["stacks"]
            if not 0 <= i < len(stacks):
                raise InputError("stack", "that stack is not there any more")
            stacks[i]["frozen"] = frozen
        case EventPower(seat=k, sacrifices=parts, power=power):
            _event(setting, table, k, parts, setting.power_cost, "power", power)
        case EventRobot(seat=k, sacrifice=part):
            _event(setting, table, k, (part,), setting.robot_card_cost, "active_robot")
        case Discard(seat=k, code=code):
            card = _take(hands[k]["hand"], code)
            if card is None:
                raise InputError("code", "that card is not in the hand")
            table.setdefault("discard", []).append(card)
        case SetCards(seat=k, stacks=stacks, hand=hand):
            after = copy.deepcopy(list(stacks))
            view = analyse(factory_of({"stacks": after}), setting.part_names)
            if view.problems:
                raise InputError("stacks", view.problems[0].message)
            _seat(table, k)["stacks"] = after
            hands[k]["hand"] = copy.deepcopy(list(hand))
        case Damage(seat=k, amount=amount, seen=seen):
            if seen is not None and health(setting, _seat(table, k)) != seen:
                raise Moved("seat", f"seat {k + 1}'s health changed meanwhile (another phone): nothing was applied")
            _damage(setting, table, k, amount)
        case Settle():
            pass
        case ChangeSettings(teams=teams, uniform_robot=uniform, five_stacks=five):
            table["teams"] = list(teams) if teams else None
            table["house_rules"] = {UNIFORM_ROBOT: uniform, FIVE_STACKS: five}
        case NewGame():
            _new_game(setting, table, hands)
        case CancelEvent(seat=k, code=code):
            _cancel(setting, table, hands, k, code)
        case Reveal(seat=k, card=card, via=via, orb_confirmed=orb_confirmed):
            _reveal(setting, table, k, card, via, orb_confirmed)
        case EventDamage(seats=seats, card=card):
            _event_damage(setting, table, seats, card)
        case MeltdownReply(seat=k, reply=reply, code=code):
            _meltdown(setting, table, hands, k, reply, code)
        case SpacePod(seat=k, code=code, target=target, stack=stack):
            _space_pod(setting, table, hands, k, code, target, stack)
        case NextPhase(seen=seen):
            if seen is not None and seen != turn_key(table):
                raise Moved("type", "the game moved on meanwhile (another phone was first): nothing was applied")
            _next_phase(setting, table)
        case _:
            raise InputError("type", "unknown action")


def _seat(table: dict, k: int) -> dict:
    players = table.setdefault("players", [])
    while len(players) <= k:
        players.append({"stacks": [], "hand_count": None})
    players[k].setdefault("stacks", [])
    return players[k]


def _hand_of(raw: Any) -> dict:
    raw = raw if isinstance(raw, dict) else {}
    return {"hand": list(raw.get("hand") or []), "drawn": list(raw.get("drawn") or []),
            "recent": list(raw.get("recent") or [])}


def _take(cards: list[Card], code: str) -> Card | None:
    """Remove the last card of this code (the one laid last, or the sideways copy)."""
    for j in range(len(cards) - 1, -1, -1):
        if card_code(cards[j]) == code:
            return cards.pop(j)
    return None


def _stack_index(where: str, stacks: list) -> int:
    raw = where.split(":", 1)[1]
    i = int(raw) if raw.isdecimal() else -1
    if not 0 <= i < len(stacks):
        raise InputError("where", "that stack is not there any more")
    return i


def _placed(setting: Setting, seat: dict, card: Card, stack: int | None) -> None:
    """Put a part on a stack (None: a new one) if "Stacking Part Cards" allows it."""
    stacks = seat["stacks"]
    if card.get("kind", "part") != "part":
        raise InputError("card", "only Part cards go into a factory")
    if stack is not None:
        if not 0 <= stack < len(stacks):
            raise InputError("stack", "that stack is not there any more")
        if stacks[stack].get("frozen"):
            raise InputError("stack", f"stack {stack + 1} is frozen: it takes no new parts (Frozen Stacks)")
    elif len(stacks) >= MAX_STACKS:
        raise InputError("stack", "a factory has at most five stacks, one per energy (Energy Stacks)")
    if card.get("part") not in setting.part_names:
        raise InputError("card", f"the part must be one of {', '.join(setting.part_names)}")
    after = factory_of(seat).add(Part.of(card["part"], card["energies"]), stack)
    view = analyse(after, setting.part_names)
    if view.problems:
        raise InputError("stack", view.problems[0].message)
    if stack is None:
        stacks.append({"cards": [card], "frozen": False})
    else:
        stacks[stack]["cards"].append(card)


def _remember(hand: dict, card: Card) -> None:
    if card.get("kind", "part") == "part":
        combo = "".join(e[0] for e in card["energies"])
        hand["recent"] = [combo] + [c for c in hand["recent"] if c != combo][:5]


def _enter(setting: Setting, table: dict, hands: Hands, k: int, where: str, card: Card) -> None:
    seat, mine = _seat(table, k), hands[k]
    if where == "hand":
        mine["hand"].append(card)
    elif where == "drawn":  # the third card of a draw puts all three in the hand
        mine["drawn"].append(card)
        if len(mine["drawn"]) >= setting.draw:
            mine["hand"] += mine["drawn"]
            mine["drawn"] = []
    elif where == "new":
        _placed(setting, seat, card, None)
    elif where.startswith("stack:"):
        _placed(setting, seat, card, _stack_index(where, seat["stacks"]))
    elif where == "discard":
        table.setdefault("discard", []).append(card)
        return
    else:
        raise InputError("where", "a card goes into the hand, the draw, a stack or the discard pile")
    _remember(mine, card)


def _remove(table: dict, hands: Hands, k: int, where: str, code: str) -> None:
    stacks = _seat(table, k)["stacks"]
    if where in ("hand", "drawn"):
        found = _take(hands[k][where], code)
    elif where == "discard":
        found = _take(table.setdefault("discard", []), code)
    elif where.startswith("stack:"):
        i = _stack_index(where, stacks)
        found = _take(stacks[i]["cards"], code)
        if not stacks[i]["cards"]:
            del stacks[i]
    else:
        raise InputError("where", "not a place a card is kept")
    if found is None:
        raise InputError("code", "that card is not there")


# ---- turns ---------------------------------------------------------------------------------------------

def _over(table: dict) -> None:
    w = table.get("winner")
    if w:
        who = or_list([f"seat {k + 1}" for k in w["seats"]], "and")
        raise InputError("type", f"the game is over: {who} won")


def _playing(setting: Setting, table: dict, k: int, reactive: bool = False) -> None:
    """A card played from the hand: with a turn followed, only the turn's Salvager in its Play phase with an
    action left (a Defense card also out of turn, counting an action only for the turn's Salvager)."""
    turn = table.get("turn")
    if turn is None:
        return
    _over(table)
    if reactive and turn["seat"] != k:
        return
    if turn["seat"] != k:
        raise InputError("seat", f"it is seat {turn['seat'] + 1}'s turn: cards are played in your own Play phase")
    if turn["phase"] != "play":
        raise InputError("seat", f"cards are played in the Play phase; this is the {PHASE_NAMES[turn['phase']]} phase")
    left = turn.get("actions_left", setting.actions)
    if left <= 0:
        raise InputError("seat", f"all {setting.actions} actions of this Play phase are used")
    turn["actions_left"] = left - 1
    _seat(table, k)["actions"] = left - 1


def _gold(seat: dict, card: Card) -> None:
    need = card.get("stacks_required") or 0
    have = len(seat["stacks"])
    if have < need:
        raise InputError("code", f"it needs {need} unique stacks and the factory has {have} (Attack / Defense Cards)")


def _play(setting: Setting, table: dict, hands: Hands, k: int, code: str, stack: int | None) -> None:
    mine, seat = hands[k], _seat(table, k)
    card = next((c for c in reversed(mine["hand"]) if card_code(c) == code), None)
    if card is None:
        raise InputError("code", "that card is not in the hand")
    if card.get("kind", "part") == "part":
        _playing(setting, table, k)
        _placed(setting, seat, card, stack)
    else:
        _gold(seat, card)
        _playing(setting, table, k, reactive=card.get("kind") == "defense")
        table.setdefault("discard", []).append(card)
    _take(mine["hand"], code)


def _attack_card(hands: Hands, k: int, code: str) -> Card:
    card = next((c for c in reversed(hands[k]["hand"]) if card_code(c) == code), None)
    if card is None or card.get("kind") != "attack":
        raise InputError("code", "that Attack card is not in the hand")
    return card


def _effect(card: Card):
    return effect_of(HandCard(kind="attack", name=card.get("name") or "", energy=card.get("energy"),
                              destroy=card.get("destroy") or 0))


def best_attack(setting: Setting, table: dict, k: int, card: Card) -> tuple[Target, ...]:
    """The targets Tablebot picks for seat k's Attack card: the first of the tied best (`attacks.resolve`,
    on the factories in the answers' order, the player's first, so the pick is the one its answer shows;
    in 2v2 the partner spared unless nothing else is legal); () when it has none or is not modelled."""
    effect = _effect(card)
    if effect.kind not in (DESTROY, FREEZE):
        return ()
    order = [k] + [s for s in range(setting.seats) if s != k]
    factories = [factory_of(_seat(table, s)) for s in order]
    mate = partner_of(setting, k)
    answer = resolve(effect, factories, 0, setting.part_names, spared=() if mate is None else (order.index(mate),))
    if not answer.playable or not answer.best:
        return ()
    best = answer.options[answer.best[0]]
    if best.frozen is not None:
        return (Target(seat=order[best.frozen.factory], stack=best.frozen.stack),)
    return tuple(Target(seat=order[r.factory], stack=r.stack, card=r.card) for r in best.destroyed)


def _attack(setting: Setting, table: dict, hands: Hands, k: int, code: str,
            targets: Sequence[Target] | None) -> None:
    """An Attack card on the targets chosen (None: Tablebot's best, `best_attack`): a card that destroys
    (by the energy entered, or by its name: Nuclear Explosion) takes exactly its count of Part cards
    carrying its energy, from any factory, frozen stacks too ("Attack Cards"); Ice Blast freezes one enemy
    stack not frozen yet ("Frozen Stacks"; Tablebot's reading: one stack per card). In 2v2 the partner is
    hit only when nothing else is legal (`variations`). A card Tablebot does not know is resolved by hand."""
    mine = hands[k]
    card = _attack_card(hands, k, code)
    _gold(_seat(table, k), card)
    effect = _effect(card)
    if effect.kind not in (DESTROY, FREEZE):
        raise InputError("code", "Tablebot does not know what this card does: resolve it by hand")
    if targets is None:
        targets = best_attack(setting, table, k, card)
        if not targets:
            raise InputError("code", "that card has nothing to hit on the table as it is now")
    if not targets:
        raise InputError("targets", "choose what the card hits")
    for t in targets:
        if not 0 <= t.seat < setting.seats:
            raise InputError("targets", f"the table has {setting.seats} seats")
        stacks = _seat(table, t.seat)["stacks"]
        if not 0 <= t.stack < len(stacks) or (t.card is not None and not 0 <= t.card < len(stacks[t.stack]["cards"])):
            raise InputError("targets", "that card is not there any more")
    mate = partner_of(setting, k)
    if effect.kind == DESTROY:
        energy = effect.energy or ""
        refs = {(t.seat, t.stack, t.card) for t in targets}
        matching = [(s, i, j) for s in range(setting.seats) for i, st in enumerate(_seat(table, s)["stacks"])
                    for j, c in enumerate(st["cards"]) if mask_of(c["energies"]) & BIT[energy]]
        need = effect.count
        if any(t.card is None for t in targets) or len(refs) != len(targets) or not refs <= set(matching):
            raise InputError("targets", f"it destroys {energy.title()} Part cards (a hybrid when either energy matches)")
        if len(refs) != need:
            raise InputError("targets", f"it destroys exactly {need} Part cards (Attack Cards)")
        if mate is not None:
            others = sum(s != mate for s, _, _ in matching)
            if sum(s == mate for s, _, _ in refs) > max(0, need - others):
                raise InputError("targets", "2v2: your partner's parts are hit only when the card has no other "
                                            "legal target (Variations, Tablebot's reading)")
        _playing(setting, table, k)
        taken = []
        for s, i, j in sorted(refs, reverse=True):  # highest positions first: no removal moves another
            stacks = _seat(table, s)["stacks"]
            taken.append(stacks[i]["cards"].pop(j))
            if not stacks[i]["cards"]:
                del stacks[i]
        table.setdefault("discard", []).extend(taken)
    else:
        if len(targets) != 1 or targets[0].card is not None:
            raise InputError("targets", "it freezes one stack")
        t = targets[0]
        stack = _seat(table, t.seat)["stacks"][t.stack]
        if t.seat == k:
            raise InputError("targets", "Ice Blast freezes an enemy stack (Frozen Stacks)")
        if stack.get("frozen"):
            raise InputError("targets", "that stack is frozen already")
        if t.seat == mate and any(not st.get("frozen") for s in range(setting.seats) if s not in (k, mate)
                                  for st in _seat(table, s)["stacks"]):
            raise InputError("targets", "2v2: Ice Blast spares your partner while an opponent's stack can be "
                                        "frozen (Variations, Tablebot's reading)")
        _playing(setting, table, k)
        stack["frozen"] = True
    _take(mine["hand"], code)
    table.setdefault("discard", []).append(card)


def _event(setting: Setting, table: dict, k: int, parts: Sequence[PartAt], cost: int, kind: str,
           power: str = "") -> None:
    """Event option A (two parts, one Power card flipped) or B (one part, with an Active Robot in the
    factory): the parts sacrificed come from anywhere in the factory, a robot too, never a frozen stack
    ("The Event Phase" and its note, "Frozen Stacks"). A Power card named is used once per game."""
    seat = _seat(table, k)
    if setting.simple:
        raise InputError("type", "the simpler game has no Power cards or Active Robot cards: no Event (Variations)")
    turn = table.get("turn")
    if turn is not None:
        _over(table)
        if turn["seat"] != k or turn["phase"] != "event":
            raise InputError("type", "an Event is triggered in your own Event phase")
        if turn.get("event"):
            raise InputError("type", "one Event per Event phase: this turn's is done")
    if len(parts) != cost or len({(p.stack, p.card) for p in parts}) != cost:
        raise InputError("sacrifices", f"sacrifice {cost} different Part card{'s' if cost != 1 else ''}")
    stacks = seat["stacks"]
    for p in parts:
        if not 0 <= p.stack < len(stacks) or not 0 <= p.card < len(stacks[p.stack]["cards"]):
            raise InputError("sacrifices", "that card is not there any more")
        if stacks[p.stack].get("frozen"):
            raise InputError("sacrifices", f"stack {p.stack + 1} is frozen: its parts pay for no Event (Frozen Stacks)")
    if kind == "power":
        left = seat.get("powers_left")
        left = min(health(setting, seat), setting.start_health) if left is None else left
        if left <= 0:
            raise InputError("type", "no unused Power card is left (each is used once per game)")
        power = " ".join(power.split())[:40]
        used = seat.setdefault("used_powers", [])
        if power and power.casefold() in (u.casefold() for u in used):
            raise InputError("power", f"{power} is used already: each Power card once per game (The Event Phase)")
        seat["powers_left"] = left - 1
        if power:
            used.append(power)
    elif not analyse(factory_of(seat), setting.part_names).deployable_robots:
        raise InputError("type", "option B needs an Active Robot in your factory that is not frozen")
    taken = []
    for p in sorted(parts, key=lambda p: (p.stack, p.card), reverse=True):
        taken.append(stacks[p.stack]["cards"].pop(p.card))
    seat["stacks"] = [s for s in stacks if s["cards"]]
    table.setdefault("discard", []).extend(taken)
    if turn is not None:
        turn["event"] = kind
        turn["power"] = power if kind == "power" else ""


def _damage(setting: Setting, table: dict, k: int, amount: int) -> None:
    """Each point of damage takes one Power card out of the game, flipped or not; Tablebot's reading:
    a flipped one goes first, so the unused Power cards never outnumber the health."""
    if amount < 1:
        raise InputError("amount", "damage is at least 1")
    if setting.simple:
        raise InputError("type", "the simpler game has no Power cards, so no health to lose (Variations)")
    seat = _seat(table, k)
    before = health(setting, seat)
    if before <= 0:
        raise InputError("seat", f"seat {k + 1} is out of the game already")
    seat["health"] = max(0, before - amount)
    if seat.get("powers_left") is not None:
        seat["powers_left"] = min(seat["powers_left"], seat["health"])


# ---- the Event's outcomes ("Clarifications") -------------------------------------------------------------

COLD_FUSION_BALANCE = ("cold fusion", "balance")   # they reach every player, their owner too
VIAS = ("option_b", "katana", "shogun", "orb")


def _event_turn(table: dict, what: str) -> dict:
    """The turn whose Event is being resolved: followed, an Event triggered, not over."""
    _over(table)
    turn = table.get("turn")
    if turn is None:
        raise InputError("type", f"{what}: follow the turn first (Next phase), so the table knows whose Event it is")
    if not turn.get("event"):
        raise InputError("type", f"{what}: no Event was triggered this turn")
    return turn


def _not_cancelled(turn: dict, what: str) -> None:
    by = turn.get("cancelled_by")
    if by is not None:
        raise InputError("type", f"{what}: the Event was cancelled by seat {by + 1}'s Sentry Gunship, so it affects "
                                 "none of the players, not even one of them (Clarifications)")


def _cancel(setting: Setting, table: dict, hands: Hands, k: int, code: str) -> None:
    """Sentry Gunship from seat k's hand cancels the turn's Event: played out of turn by an opponent (a 2v2
    partner is none), uninterrupted; a Power card stays used up, the parts stay spent ("Defense Cards",
    "The Event Phase"). Tablebot's reading: it cancels the Event (a revealed card too) before its damage is
    dealt or anyone answered it."""
    turn = _event_turn(table, "Sentry Gunship")
    if turn["phase"] != "event":
        raise InputError("type", "Sentry Gunship cancels an Event in the Event phase")
    if k == turn["seat"] or k == partner_of(setting, turn["seat"]):
        raise InputError("seat", "Sentry Gunship cancels an opponent's Event (Defense Cards)")
    if health(setting, _seat(table, k)) <= 0 and not setting.simple:
        raise InputError("seat", f"seat {k + 1} is out of the game")
    if turn.get("cancelled_by") is not None:
        raise InputError("type", "this Event is cancelled already")
    if turn.get("resolved") or turn.get("replied"):  # a revealed card may still be cancelled, not a dealt one
        raise InputError("type", "this Event has taken effect already: cancel it before its damage is dealt")
    card = next((c for c in reversed(hands[k]["hand"]) if card_code(c) == code), None)
    if card is None or card.get("kind") != "defense" or effect_of(HandCard(kind="defense", name=card.get("name") or "")
                                                                  ).kind != CANCEL_EVENT:
        raise InputError("code", "that Sentry Gunship is not in the hand")
    _gold(_seat(table, k), card)
    _take(hands[k]["hand"], code)
    table.setdefault("discard", []).append(card)
    turn["cancelled_by"] = k


def orb_is_a_part(part_names: Sequence[str]) -> bool:
    """Whether the table's part names include the Orb: then every Active Robot carries it (a robot holds
    all four part names). Otherwise nothing on the table says which robot carries it."""
    return any(n.strip().casefold() == "orb" for n in part_names)


def deployable_robots(setting: Setting, table: dict, k: int) -> int:
    """Seat k's Active Robots that are not frozen (the factory analysis)."""
    return analyse(factory_of(_seat(table, k)), setting.part_names).deployable_robots


def _reveal(setting: Setting, table: dict, k: int, card: str, via: str, orb_confirmed: bool = False) -> None:
    """An Active Robot card revealed in seat k's Event phase. Option B reveals one; Samurai's Katana and
    Shogun more than one. The Orb's second card is Peacemaker's, after option B's, with a deployable
    Active Robot in the factory (checked). Two robots built the usual way already win ("Objective"), so
    Tablebot reads the Orb as counting for the second robot (reading tr-reading-event-outcomes); that the
    robot carries the Orb is checked only when the Orb is one of the part names, else the player confirms
    it (`orb_confirmed`). The pile is not
    reshuffled in between, so a card shows no more often than the pile holds it ("The Event Phase",
    "Clarifications"; how many Katana and Shogun reveal is on their cards: Tablebot allows two in all)."""
    turn = _event_turn(table, "A reveal")
    if turn["seat"] != k or turn["phase"] != "event":
        raise InputError("seat", "Active Robot cards are revealed in your own Event phase")
    _not_cancelled(turn, "No card is revealed")
    names = DATA.robot_pile_names
    if card not in names:
        raise InputError("card", "choose one of the Active Robot cards: " + ", ".join(names.values()))
    if via not in VIAS:
        raise InputError("via", "option_b, katana, shogun or orb")
    revealed: list = turn.setdefault("revealed", [])
    vias = [v for _, v in revealed]
    salvager = _seat(table, k).get("salvager")
    if via == "option_b":
        if turn["event"] != "active_robot" or "option_b" in vias:
            raise InputError("via", "option B reveals one card, after its part is sacrificed (The Event Phase)")
    elif via == "orb":
        if salvager != "peacemaker" or turn["event"] != "active_robot" or "option_b" not in vias or "orb" in vias:
            raise InputError("via", "the Orb's second card: Peacemaker's, after option B's first (Clarifications)")
        robots = deployable_robots(setting, table, k)
        if robots < 1:
            raise InputError("via", "the Orb's second card needs an Active Robot in the factory, not frozen, "
                                    "carrying the Orb (Clarifications)")
        if not orb_is_a_part(setting.part_names) and not orb_confirmed:
            raise InputError("orb_confirmed", "Tablebot cannot see on the table which robot carries the Orb: "
                                              "confirm that your Active Robot does (Clarifications)")
    elif via == "shogun":
        if (turn.get("power") or "").casefold() != "shogun":
            raise InputError("via", "Shogun reveals cards in the Event phase it is used in")
    elif salvager != "samurai":
        raise InputError("via", "Katana is Samurai's Special ability (Clarifications)")
    if len(revealed) >= 2:
        raise InputError("card", "two cards are revealed at most in one Event phase (Tablebot's reading)")
    pile = setting.robot_pile
    shown = sum(c == card for c, _ in revealed)
    if pile is not None and shown >= pile.get(card, 0):
        raise InputError("card", f"the pile holds {pile.get(card, 0)} {names[card]} and is not reshuffled in "
                                 "between (Clarifications)")
    revealed.append([card, via])


def _event_damage(setting: Setting, table: dict, seats: Sequence[int], card: str) -> None:
    """The turn's Event card hits: each seat named suffers one damage. A cancelled card affects nobody;
    Cold Fusion and Balance reach their owner too and hit every player in a tie ("Clarifications");
    Tablebot's reading: no other card hits its owner, and Meltdown is answered player by player."""
    turn = _event_turn(table, "Damage from the Event")
    _not_cancelled(turn, "No damage")
    resolved: list = turn.setdefault("resolved", [])
    if card:
        shown = [c for c, _ in turn.get("revealed", [])]
        if card not in shown:
            raise InputError("card", "that Active Robot card was not revealed this Event phase")
        if resolved.count(card) >= shown.count(card):
            raise InputError("card", "that card's damage is dealt already")
        owner_ok = False
    else:
        if turn["event"] != "power":
            raise InputError("card", "name the Active Robot card revealed")
        power = (turn.get("power") or "").casefold()
        if power == "meltdown":
            raise InputError("type", "Meltdown is answered by each player: a discard, or one damage")
        if "power" in resolved:
            raise InputError("type", "this Power card's damage is dealt already")
        owner_ok = power in COLD_FUSION_BALANCE
    if not seats or len(set(seats)) != len(seats):
        raise InputError("seats", "name each player who suffers the damage once")
    standing = alive(setting, table)
    for s in seats:
        if s not in standing:
            raise InputError("seats", f"seat {s + 1} is not in the game")
        if s == turn["seat"] and not owner_ok:
            raise InputError("seats", "only Cold Fusion and Balance reach their own Salvager (Clarifications)")
    for s in seats:
        _damage(setting, table, s, 1)
    resolved.append(card or "power")


def _meltdown(setting: Setting, table: dict, hands: Hands, k: int, reply: str, code: str) -> None:
    """A player's answer to Meltdown: a card discarded, or one damage; with no card in hand, nothing
    discarded and no damage ("Clarifications"). Tablebot's reading: every other player answers once."""
    turn = _event_turn(table, "Meltdown")
    if (turn.get("power") or "").casefold() != "meltdown":
        raise InputError("type", "no Meltdown was used this turn")
    _not_cancelled(turn, "Nobody answers Meltdown")
    if k == turn["seat"]:
        raise InputError("seat", "Meltdown is answered by the other players")
    if k not in alive(setting, table):
        raise InputError("seat", f"seat {k + 1} is out of the game")
    replied: list = turn.setdefault("replied", [])
    if k in replied:
        raise InputError("seat", f"seat {k + 1} has answered Meltdown already")
    held = len(hands[k]["hand"]) + len(hands[k]["drawn"]) if k in hands else _seat(table, k).get("hand_count") or 0
    if reply == "nothing":
        if held:
            raise InputError("reply", "only a player with no cards in hand may discard nothing (Clarifications)")
    elif reply == "discard":
        card = _take(hands[k]["hand"], code)
        if card is None:
            raise InputError("code", "that card is not in the hand")
        table.setdefault("discard", []).append(card)
    elif reply == "damage":
        _damage(setting, table, k, 1)
    else:
        raise InputError("reply", "discard, damage or nothing")
    replied.append(k)


def _space_pod(setting: Setting, table: dict, hands: Hands, k: int, code: str, target: Target,
               stack: int | None) -> None:
    """Space Pod takes a Part card from another factory into the player's: a hybrid may go on a stack of
    either of its energies whatever it was where it came from ("Clarifications"). Tablebot's readings: it
    is played like any card (an action, its gold number); in 2v2 it spares the partner while another
    factory has a part."""
    card = next((c for c in reversed(hands[k]["hand"]) if card_code(c) == code), None)
    if card is None or card.get("kind") == "part" or (card.get("name") or "").casefold() != "space pod":
        raise InputError("code", "that Space Pod is not in the hand")
    if target.seat == k or not 0 <= target.seat < setting.seats or target.card is None:
        raise InputError("target", "choose a Part card in another factory")
    stacks = _seat(table, target.seat)["stacks"]
    if not 0 <= target.stack < len(stacks) or not 0 <= target.card < len(stacks[target.stack]["cards"]):
        raise InputError("target", "that card is not there any more")
    mate = partner_of(setting, k)
    if target.seat == mate and any(_seat(table, s)["stacks"] for s in range(setting.seats) if s not in (k, mate)):
        raise InputError("target", "2v2: Space Pod spares your partner while an opponent has a part "
                                   "(Variations, Tablebot's reading)")
    me = _seat(table, k)
    _gold(me, card)
    _playing(setting, table, k)
    part = stacks[target.stack]["cards"].pop(target.card)
    if not stacks[target.stack]["cards"]:
        del stacks[target.stack]
    _placed(setting, me, part, stack)
    _take(hands[k]["hand"], code)
    table.setdefault("discard", []).append(card)


def _new_game(setting: Setting, table: dict, hands: Hands) -> None:
    """A new game at the same seats: every hand (each seat's private state) emptied, factories and the
    discard pile cleared, health back to the start, the winner gone and turn 1 begun ("Setup")."""
    missing = [k + 1 for k in range(setting.seats) if k not in hands]
    if missing:
        raise InputError("seat", "a new game empties every seat's hand: " + ", ".join(map(str, missing)) + " missing")
    for k, seat in enumerate(table.get("players", [])):
        table["players"][k] = {"stacks": [], "hand_count": 0, "salvager": seat.get("salvager")}
    for h in hands.values():
        h["hand"], h["drawn"] = [], []
    table["discard"] = []
    table["winner"] = None
    table["turn"] = None
    _next_phase(setting, table)


def _next_phase(setting: Setting, table: dict) -> None:
    _over(table)
    turn = table.get("turn")
    if turn is None:
        standing = [k for k in turn_order(setting, table) if k in alive(setting, table)]
        if not standing:
            raise InputError("type", "no Salvager is left in the game")
        table["turn"] = {"seat": standing[0], "phase": "draw", "number": 1, "actions_left": setting.actions,
                         "event": None}
        return
    phase = turn["phase"]
    if phase == "cleanup":
        held = _seat(table, turn["seat"]).get("hand_count") or 0
        if held > setting.hand_limit:
            raise InputError("type", f"discard down to {setting.hand_limit} cards first (Cleanup Phase): "
                                     f"seat {turn['seat'] + 1} holds {held}")
        _next_seat(setting, table)
        return
    phases = setting.phases
    if phase == "event":
        turn.pop("revealed", None)  # the Active Robot pile is reshuffled after the Event phase (The Event Phase)
    turn["phase"] = phases[phases.index(phase) + 1] if phase in phases else "cleanup"
    if turn["phase"] == "play":
        turn["actions_left"] = setting.actions
        _seat(table, turn["seat"])["actions"] = setting.actions


def _next_seat(setting: Setting, table: dict) -> None:
    """The turn passes to the next Salvager in turn order still in the game, at its Draw phase."""
    turn = table["turn"]
    order = turn_order(setting, table)
    standing = set(alive(setting, table))
    at = order.index(turn["seat"]) if turn["seat"] in order else -1
    for step in range(1, len(order) + 1):
        k = order[(at + step) % len(order)]
        if k in standing:
            table["turn"] = {"seat": k, "phase": "draw", "number": turn.get("number", 1) + 1,
                             "actions_left": setting.actions, "event": None}
            return
    table["turn"] = None


def left_in_turn(setting: Setting, table: dict) -> str:
    """What is left of the turn, in words (the page's line under whose turn it is)."""
    turn = table.get("turn")
    if turn is None:
        return ""
    phase = turn["phase"]
    if phase == "draw":
        return f"Draw {setting.draw} cards from the Action deck."
    if phase == "play":
        n = turn.get("actions_left", setting.actions)
        return f"{n} of {setting.actions} actions left: play a card (a part, an Attack or a Defense card)."
    if phase == "event":
        if turn.get("event"):
            return "This turn's Event is done."
        return (f"Option A: sacrifice {setting.power_cost} parts to use a Power card; option B: sacrifice "
                f"{setting.robot_card_cost} part to reveal an Active Robot card; or no Event.")
    held = _seat(table, turn["seat"]).get("hand_count") or 0
    over = held - setting.hand_limit
    if over > 0:
        return f"Discard {over} card{'s' if over != 1 else ''}: the hand limit is {setting.hand_limit}."
    return f"The hand is within the limit of {setting.hand_limit}: the turn can end."

