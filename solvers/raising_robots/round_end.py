"""Round-end abilities of Raising Robots: Friends, applied in the order the player sets.

Rulebook sections: "Friends Inventor Explanations" (Johannes, Charlotte, Sacagawea), "Friendships"
(several round-end abilities: the player picks the order), "Friendship Ability Clarifications"
(Temple, Confucius, Johannes). Readings:
- an upgraded ability is two parts, the base part and the upgraded part; by default the base part
  runs first (the Johannes example), but the player may list the parts apart to order them freely;
- Charlotte: 2 wilds buy one special action, either assembling a robot from hand at its cheaper
  cost (fewest resources; round end has no energy, so only resources are paid) plus the slot's
  extra resource cost, or unlocking one upgrade token; upgraded: +1 wild and +1 VP;
- Sacagawea: a Search always ends with one card in hand (+1 robot card); upgraded: +1 battery and
  +1 robot card, or +2 VP. Her ongoing ability lets robot cards pay like duct tape, which here
  matters only for a Charlotte assembly's resource cost (robot cards sit in hand, not in the
  inventory, so Johannes never counts them as duct tape);
- a wild is one sensor, gear, microchip, program or robot card, never duct tape.
Pure: no Flask.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from solvers.errors import InputError

from .abilities import Who, display_name
from .model import RESOURCES, Inventory, Robot
from .scoring import COLUMNS, full_columns, place_robots

WILD_ITEMS = (*RESOURCES, "robot_cards")
PAY_ITEMS = (*RESOURCES, "duct_tape", "robot_cards")
JOHANNES_TYPES = ("battery", "duct_tape", "gear", "sensor", "microchip", "program")
JOHANNES_BASE_AT = 5
JOHANNES_UPGRADE_AT = 8
CHARLOTTE_WILDS = 2
TEMPLE_VP_PER_COLUMN = 2
SEARCH_PAGE = "/raising-robots/search"

ABILITIES = {  # id -> (display name, parts it has, may it be upgraded, rule id)
    "johannes": ("Johannes", ("base", "upgrade"), True, "rr-johannes-complexity-medium"),
    "charlotte": ("Charlotte", ("base", "upgrade"), True, "rr-charlotte-complexity-medium"),
    "sacagawea": ("Sacagawea", ("base", "upgrade"), True, "rr-sacagawea-complexity-medium"),
    "temple_friendship": ("Temple (Friendship)", ("base",), False, "rr-friendship-temple"),
    "confucius_friendship": ("Confucius (Friendship, when gained)", ("base",), False, "rr-friendship-confucius"),
    "johannes_friendship": ("Johannes (Friendship, when gained)", ("base",), False, "rr-friendship-johannes"),
}
RULE_ORDER = ("rr-important-round-end-order", "rr-reading-round-end-order")
RULE_JOHANNES_ORDER = "rr-reading-johannes"  # upgraded: the +1s first, then count the 8s
RULE_JOHANNES_CARDS = "rr-reading-johannes-robot-cards"  # robot cards are in hand, never counted
RULE_SACAGAWEA = "rr-sacagawea-complexity-medium"
RULE_SEARCH = "rr-search"
CHARLOTTE_ACTIONS = ("skip", "assemble", "unlock")
SACAGAWEA_REWARDS = ("battery_and_card", "vp")
SCROLL_LINE_REWARDS = ("battery_and_duct_tape", "vp")
RULE_YO_YO = "rr-friendship-example"  # an unlock triggers Yo-Yo: 1 battery and 2 VP
RULE_CONFUCIUS = "rr-confucius-complexity-hard"
ALIASES = {"temple": "temple_friendship", "confucius": "confucius_friendship"}  # abilities by name
ALL_RULES = (*RULE_ORDER, *(a[3] for a in ABILITIES.values()), RULE_JOHANNES_ORDER, RULE_JOHANNES_CARDS, RULE_SEARCH,
             RULE_YO_YO, RULE_CONFUCIUS)


class RoundEndInputError(InputError):
    """A choice that does not fit the state at its point in the order; `path` names the field
    relative to the request body (abilities[i]...)."""


@dataclass(frozen=True)
class Ability:
    """One entry of the player's order. Only the choice fields of its ability are read."""
    id: str
    upgraded: bool = False
    part: str = "all"  # "all" (base then upgrade), "base" or "upgrade"
    # Charlotte
    action: str = "skip"
    pay_wilds: dict[str, int] = field(default_factory=dict, hash=False, compare=False)
    robot: Robot | None = None
    payment: dict[str, int] = field(default_factory=dict, hash=False, compare=False)  # cheaper cost + extra
    extra_cost: int = 0  # the slot's extra resource cost (printed on the board: the player enters it)
    gain_wild: str | None = None
    # Sacagawea
    search: bool = True
    reward: str | None = None
    # Confucius friendship: per assembled robot, "batteries" or a wild item
    per_robot: tuple[str, ...] = ()
    # Confucius inventor, on a Charlotte assembly or unlock: the Scroll Board objective it meets (None: none),
    # the gain for it ("batteries" or a wild item) and, when it completes a row or column of the board, the
    # line's reward ("battery_and_duct_tape" or "vp")
    scroll_objective: str | None = None
    scroll_gain: str | None = None
    scroll_line: str | None = None


@dataclass(frozen=True)
class Step:
    ability: str  # an ability id, or "yo_yo" / "confucius_scroll" for what a Charlotte step set off
    part: str  # "base", "upgrade", or "trigger"
    name: str
    gained: dict[str, int]  # signed change of each inventory item that changed
    why: str
    rule: str
    link: str | None = None
    robot_added: Robot | None = None
    tokens_unlocked: int = 0
    index: int = 0  # which entry of the order it came from
    rules: tuple[str, ...] = ()  # every rule entry this step applies, its ability's first


@dataclass(frozen=True)
class RoundEnd:
    inventory_after: Inventory
    robots_after: tuple[Robot, ...]
    tokens_unlocked: int
    steps: tuple[Step, ...]
    notes: tuple[str, ...]


def _parts(ab: Ability, i: int) -> list[str]:
    if ab.id not in ABILITIES:
        raise RoundEndInputError(f"abilities[{i}].id", f"must be one of {', '.join(ABILITIES)}")
    _, parts, may_upgrade, _ = ABILITIES[ab.id]
    if ab.upgraded and not may_upgrade:
        raise RoundEndInputError(f"abilities[{i}].upgraded", f"{ABILITIES[ab.id][0]} cannot be upgraded")
    if ab.part not in ("all", "base", "upgrade"):
        raise RoundEndInputError(f"abilities[{i}].part", "must be all, base or upgrade")
    if ab.part == "upgrade" and not ab.upgraded:
        raise RoundEndInputError(f"abilities[{i}].part", "the upgraded part needs upgraded: true")
    if ab.part == "all":
        return list(parts) if ab.upgraded else ["base"]
    return [ab.part]


def _take(inv: Inventory, items: dict[str, int], path: str, why: str) -> Inventory:
    for item, n in items.items():
        if n > inv.get(item):
            raise RoundEndInputError(f"{path}.{item}",
                                     f"{why}: {n} {item} needed but you have {inv.get(item)} at this point")
    return inv.add(**{k: -v for k, v in items.items()})


def _check_items(items: dict[str, int], allowed: Sequence[str], path: str, total: int | None) -> None:
    for item, n in items.items():
        if item == "duct_tape" and item not in allowed:
            raise RoundEndInputError(f"{path}.{item}", "duct tape never pays a wild; use a resource or a robot card")
        if item not in allowed:
            raise RoundEndInputError(f"{path}.{item}", f"only {', '.join(allowed)} can pay here")
        if n < 0:
            raise RoundEndInputError(f"{path}.{item}", "must be 0 or more")
    if total is not None and sum(items.values()) != total:
        raise RoundEndInputError(path, f"must add up to {total} (it adds up to {sum(items.values())})")


def _diff(before: Inventory, after: Inventory) -> dict[str, int]:
    a, b = before.as_dict(), after.as_dict()
    return {k: b[k] - a[k] for k in a if b[k] != a[k]}


_PLURAL = {"battery": "batteries", "duct_tape": "duct tape", "vp": "VP", "robot_cards": "robot cards"}
_SINGULAR = {"duct_tape": "duct tape", "vp": "VP", "robot_cards": "robot card"}


def _count_of(n: int, item: str) -> str:
    """"6 batteries", "1 gear", "2 duct tape": a count with its item in players' words."""
    if n == 1:
        return f"1 {_SINGULAR.get(item, item)}"
    return f"{n} {_PLURAL.get(item, item + 's')}"


def _fmt(items: dict[str, int]) -> str:
    return ", ".join(f"{'+' if v > 0 else ''}{v} {k.replace('_', ' ')}" for k, v in items.items()) or "nothing"


def _count(items: dict[str, int]) -> str:
    return ", ".join(_count_of(v, k) for k, v in items.items() if v) or "nothing"


def _johannes_base(inv: Inventory) -> tuple[Inventory, str]:
    hits = [t for t in JOHANNES_TYPES if inv.get(t) >= JOHANNES_BASE_AT]
    after = inv.add(**{t: 1 for t in hits})
    if not hits:
        return after, f"no inventory type is at {JOHANNES_BASE_AT} or more, so nothing is gained"
    have = ", ".join(_count_of(inv.get(t), t) for t in hits)
    return after, f"{have}: each type at {JOHANNES_BASE_AT} or more gains 1 of itself"


def _johannes_upgrade(inv: Inventory) -> tuple[Inventory, str]:
    hits = [t for t in JOHANNES_TYPES if inv.get(t) >= JOHANNES_UPGRADE_AT]
    if not hits:
        return inv, f"no inventory type is at {JOHANNES_UPGRADE_AT} or more now, so no VP"
    have = ", ".join(_count_of(inv.get(t), t) for t in hits)
    return inv.add(vp=len(hits)), f"{have} now: 1 VP for each type at {JOHANNES_UPGRADE_AT} or more"


def _charlotte_base(ab: Ability, i: int, inv: Inventory, robots: list[Robot], sacagawea: bool
                    ) -> tuple[Inventory, list[Robot], str, Robot | None, int]:
    p = f"abilities[{i}]"
    if ab.action not in CHARLOTTE_ACTIONS:
        raise RoundEndInputError(f"{p}.action", f"must be one of {', '.join(CHARLOTTE_ACTIONS)}")
    if ab.action == "skip":
        return inv, robots, "you chose not to pay 2 wilds this round (it is optional)", None, 0
    _check_items(ab.pay_wilds, WILD_ITEMS, f"{p}.pay_wilds", CHARLOTTE_WILDS)
    inv = _take(inv, ab.pay_wilds, f"{p}.pay_wilds", "Charlotte's 2 wilds")
    paid = f"paid 2 wilds ({_count(ab.pay_wilds)})"
    if ab.action == "unlock":
        return inv, robots, f"{paid} to unlock one upgrade token (the 2 wilds are its whole price)", None, 1
    robot = ab.robot
    if robot is None:
        raise RoundEndInputError(f"{p}.robot", "name the robot to assemble (its row and cost columns)")
    if not robot.cost_resources:
        raise RoundEndInputError(f"{p}.robot.cost_resources", "give the resource count of each cost column")
    in_row = sum(r.row == robot.row for r in robots)
    if in_row >= COLUMNS:
        raise RoundEndInputError(f"{p}.robot.row", f"the {robot.row} row already holds {COLUMNS} robots")
    cheaper = min(robot.cost_resources)
    if ab.extra_cost < 0:
        raise RoundEndInputError(f"{p}.extra_cost", "must be 0 or more")
    _check_items(ab.payment, PAY_ITEMS, f"{p}.payment", cheaper + ab.extra_cost)
    # robot cards are wild, so they may pay the slot's extra cost; the robot's own (coloured) cost
    # only with Sacagawea, for whom they act as duct tape
    if not sacagawea and ab.payment.get("robot_cards", 0) > ab.extra_cost:
        raise RoundEndInputError(f"{p}.payment.robot_cards",
                                 f"robot cards can pay only the slot's extra cost ({ab.extra_cost}) here;"
                                 " the robot's own cost takes them only with Sacagawea (as duct tape)")
    if inv.robot_cards < 1:
        raise RoundEndInputError(f"{p}.robot", "the robot comes from your hand, and you hold no robot card now")
    inv = inv.add(robot_cards=-1)
    inv = _take(inv, ab.payment, f"{p}.payment", "the robot's cheaper cost and the slot's extra cost")
    taken = {r.column for r in robots if r.row == robot.row}
    column = min(c for c in range(1, COLUMNS + 1) if c not in taken)
    placed = replace(robot, column=column)
    why = (f"{paid}; assembled a {robot.row} robot from hand into column {column} (the leftmost free slot),"
           f" paying its cheaper cost of {cheaper} resource(s)"
           + (f" plus the slot's extra {ab.extra_cost}" if ab.extra_cost else "")
           + (" (robot cards paid like duct tape: Sacagawea)"
              if ab.payment.get("robot_cards", 0) > ab.extra_cost else ""))
    return inv, [*robots, placed], why, placed, 0


def _confucius(ab: Ability, i: int, inv: Inventory, robots: list[Robot]) -> tuple[Inventory, str]:
    p = f"abilities[{i}].per_robot"
    if len(ab.per_robot) != len(robots):
        raise RoundEndInputError(p, f"{len(robots)} robot(s) are assembled when this step runs;"
                                    " give one choice for each")
    gain: dict[str, int] = {}
    for j, choice in enumerate(ab.per_robot):
        if choice == "batteries":
            gain["battery"] = gain.get("battery", 0) + 2
        elif choice in WILD_ITEMS:
            gain[choice] = gain.get(choice, 0) + 1
        else:
            raise RoundEndInputError(f"{p}[{j}]", f"must be batteries or a wild: {', '.join(WILD_ITEMS)}")
    n_wild = sum(c != "batteries" for c in ab.per_robot)
    return inv.add(**gain), (f"{len(robots)} assembled robot(s): {n_wild} chose 1 wild,"
                             f" {len(robots) - n_wild} chose 2 batteries (your choice per robot)")


@dataclass(frozen=True)
class Seat:
    """What the round end needs to know of the seat beyond its inventory and robots."""
    sacagawea: bool = False  # Robot Cards pay like duct tape (Sacagawea's ongoing ability)
    yo_yo: bool = False  # holds the Yo-Yo Friendship card: an unlock gives 1 battery and 2 VP
    confucius: bool = False  # Confucius is the inventor: his Scroll Board pays for assemblies and unlocks
    scroll_objectives: tuple[str, ...] | None = None  # the board's objectives as entered (None: not entered)
    scroll_done: tuple[str, ...] = ()  # objectives already covered by a Confucius Token


def _triggers(ab: Ability, i: int, inv: Inventory, seat: Seat, done: frozenset[str]) -> tuple[Inventory, list[Step]]:
    """What a Charlotte assembly or unlock sets off: Yo-Yo (unlocks), Confucius's Scroll Board (both)."""
    steps: list[Step] = []
    p = f"abilities[{i}]"
    if ab.action == "unlock" and seat.yo_yo:
        before, inv = inv, inv.add(battery=1, vp=2)
        steps.append(Step("yo_yo", "trigger", "Yo-Yo (Friendship)", _diff(before, inv),
                          "Charlotte's unlock triggers Yo-Yo: 1 battery and 2 VP (as in the Friendship Example)",
                          RULE_YO_YO, index=i, rules=(RULE_YO_YO, "rr-friendships")))
    if ab.scroll_objective is not None:
        if not seat.confucius:
            raise RoundEndInputError(f"{p}.scroll_objective", "only Confucius (as inventor) has a Scroll Board")
        goal = ab.scroll_objective
        if seat.scroll_objectives is not None and goal not in seat.scroll_objectives:
            raise RoundEndInputError(f"{p}.scroll_objective", "is not one of the Scroll Board objectives entered")
        if goal in done:
            raise RoundEndInputError(f"{p}.scroll_objective", "already has a Confucius Token: each objective once")
        gain: dict[str, int]
        if ab.scroll_gain == "batteries":
            gain, got = {"battery": 2}, "2 batteries"
        elif ab.scroll_gain in WILD_ITEMS:
            gain, got = {ab.scroll_gain: 1}, f"1 wild ({ab.scroll_gain.replace('_', ' ')})"
        else:
            raise RoundEndInputError(f"{p}.scroll_gain", f"choose batteries or a wild: {', '.join(WILD_ITEMS)}")
        what = "assembly" if ab.action == "assemble" else "unlock"
        why = f"the {what} meets the Scroll Board objective “{goal}”: a Confucius Token on it and {got}"
        if ab.scroll_line == "battery_and_duct_tape":
            gain = {**gain, "battery": gain.get("battery", 0) + 1, "duct_tape": 1}
            why += "; it completes a row or column: 1 battery and 1 duct tape"
        elif ab.scroll_line == "vp":
            gain = {**gain, "vp": 2}
            why += "; it completes a row or column: 2 VP"
        elif ab.scroll_line is not None:
            raise RoundEndInputError(f"{p}.scroll_line", f"choose {' or '.join(SCROLL_LINE_REWARDS)}")
        before, inv = inv, inv.add(**gain)
        steps.append(Step("confucius_scroll", "trigger", "Confucius's Scroll Board", _diff(before, inv), why,
                          RULE_CONFUCIUS, index=i, rules=(RULE_CONFUCIUS,)))
    return inv, steps


def _run_part(ab: Ability, i: int, part: str, inv: Inventory, robots: list[Robot], sacagawea: bool
              ) -> tuple[Inventory, list[Robot], Step]:
    name, _, _, rule = ABILITIES[ab.id]
    before = inv
    link = None
    added = None
    unlocked = 0
    rules = [rule]
    if ab.id == "johannes":
        inv, why = _johannes_base(inv) if part == "base" else _johannes_upgrade(inv)
        if part == "upgrade":
            rules.append(RULE_JOHANNES_ORDER)
        at = JOHANNES_BASE_AT if part == "base" else JOHANNES_UPGRADE_AT
        if before.robot_cards >= at or (sacagawea and before.robot_cards):
            held = _count_of(before.robot_cards, "robot_cards")
            why += (f"; your {held} {'are' if before.robot_cards != 1 else 'is'} in your hand, not the inventory, so"
                    f" {'they never count' if before.robot_cards != 1 else 'it never counts'} here"
                    + (", not even as duct tape" if sacagawea else ""))
            rules.append(RULE_JOHANNES_CARDS)
    elif ab.id == "charlotte" and part == "base":
        inv, robots, why, added, unlocked = _charlotte_base(ab, i, inv, robots, sacagawea)
        if ab.action == "assemble" and ab.payment.get("robot_cards", 0) > ab.extra_cost:
            rules.append(RULE_SACAGAWEA)  # robot cards paid the robot's own cost, as duct tape
    elif ab.id == "charlotte":
        if ab.gain_wild not in WILD_ITEMS:
            raise RoundEndInputError(f"abilities[{i}].gain_wild", f"choose the wild: {', '.join(WILD_ITEMS)}")
        inv = inv.add(vp=1, **{ab.gain_wild: 1})
        why = f"upgraded: 1 wild (you chose {ab.gain_wild.replace('_', ' ')}) and 1 VP"
    elif ab.id == "sacagawea" and part == "base":
        if ab.search:
            inv = inv.add(robot_cards=1)
            link = SEARCH_PAGE
            rules.append(RULE_SEARCH)
            why = ("do a Search (pick a Phase Row and a basic-action energy range; the Search page gives"
                   " the odds); it always ends with one card in your hand")
        else:
            why = "you chose not to Search this round (it is optional)"
    elif ab.id == "sacagawea":
        if ab.reward not in SACAGAWEA_REWARDS:
            raise RoundEndInputError(f"abilities[{i}].reward", "choose 1 battery and 1 Robot Card, or 2 VP")
        if ab.reward == "vp":
            inv = inv.add(vp=2)
            why = "upgraded: you chose 2 VP (instead of 1 battery and 1 robot card)"
        else:
            inv = inv.add(battery=1, robot_cards=1)
            why = "upgraded: you chose 1 battery and 1 robot card (instead of 2 VP)"
    elif ab.id == "temple_friendship":
        cols = full_columns(robots)
        inv = inv.add(vp=TEMPLE_VP_PER_COLUMN * len(cols))
        why = (f"{len(cols)} completely filled column(s)" + (f" ({', '.join(map(str, cols))})" if cols else "")
               + f" x {TEMPLE_VP_PER_COLUMN} VP")
    elif ab.id == "confucius_friendship":
        inv, why = _confucius(ab, i, inv, robots)
    else:  # johannes_friendship
        inv = inv.add(sensor=1, gear=1, microchip=1, program=1, battery=1, duct_tape=1, vp=1)
        why = "when gained: 1 each of sensor, gear, microchip, program, battery, duct tape and VP"
    label = name + (" (upgraded)" if part == "upgrade" else "")
    step = Step(ability=ab.id, part=part, name=label, gained=_diff(before, inv), why=why, rule=rule, link=link,
                robot_added=added, tokens_unlocked=unlocked, index=i, rules=tuple(rules))
    return inv, robots, step


def _run(ab: Ability, i: int, part: str, inv: Inventory, robots: list[Robot], seat: Seat, done: frozenset[str]
         ) -> tuple[Inventory, list[Robot], list[Step], frozenset[str]]:
    """One part of an ability and what it sets off; `done`: Scroll Board objectives covered so far."""
    inv, robots, step = _run_part(ab, i, part, inv, robots, seat.sacagawea)
    steps = [step]
    if ab.id == "charlotte" and part == "base" and ab.action in ("assemble", "unlock"):
        inv, more = _triggers(ab, i, inv, seat, done)
        steps += more
        if ab.scroll_objective is not None:
            done = done | {ab.scroll_objective}
    elif ab.scroll_objective is not None:
        raise RoundEndInputError(f"abilities[{i}].scroll_objective",
                                 "the Scroll Board pays on a Charlotte assembly or unlock only")
    return inv, robots, steps, done


def run(inventory: Inventory, robots: Sequence[Robot], abilities: Sequence[Ability],
        sacagawea_ongoing: bool | None = None, seat: Seat | None = None) -> RoundEnd:
    """Apply the abilities in the order given. `sacagawea_ongoing` (robot cards pay like duct tape)
    defaults to: the seat is Sacagawea, or she is in the list."""
    placed = place_robots(robots)
    seat = seat or Seat()
    if sacagawea_ongoing is None:
        sacagawea_ongoing = seat.sacagawea or any(a.id == "sacagawea" for a in abilities)
    seat = replace(seat, sacagawea=sacagawea_ongoing)
    order = [(i, ab, part) for i, ab in enumerate(abilities) for part in _parts(ab, i)]
    _check_once(order)
    inv, now, steps = _apply(inventory, placed, order, seat)
    notes = list(_notes(abilities))
    better = better_order(inventory, placed, order, seat, inv)
    if better:
        notes.append(better)
    return RoundEnd(inv, tuple(now), sum(s.tokens_unlocked for s in steps), tuple(steps), tuple(notes))


def _check_once(order: Sequence[tuple[int, Ability, str]]) -> None:
    """Each part of an ability runs once per round end (one inventor, one copy of each Friendship card):
    a part listed twice would count its gain twice."""
    first: dict[tuple[str, str], tuple[int, Ability]] = {}
    for i, ab, part in order:
        if (ab.id, part) in first:
            j, other = first[(ab.id, part)]
            what = ABILITIES[ab.id][0] + (" (upgraded part)" if part == "upgrade" else "")
            field = "part" if other.part != ab.part else "id"
            raise RoundEndInputError(f"abilities[{i}].{field}",
                                     f"{what} is already listed at abilities[{j}]: each part runs once per round end")
        first[(ab.id, part)] = (i, ab)


def _apply(inv: Inventory, robots: list[Robot], order: Sequence[tuple[int, Ability, str]], seat: Seat
           ) -> tuple[Inventory, list[Robot], list[Step]]:
    steps: list[Step] = []
    done = frozenset(seat.scroll_done)
    for i, ab, part in order:
        inv, robots, more, done = _run(ab, i, part, inv, robots, seat, done)
        steps += more
    return inv, robots, steps


def _notes(abilities: Sequence[Ability]) -> list[str]:
    out = []
    if any(a.id in ("confucius_friendship", "johannes_friendship") for a in abilities):
        out.append("Confucius's and Johannes's Friendship gains happen once, when the card is gained;"
                   " list them here only in the round you gain the card.")
    if any(a.id == "charlotte" and a.action == "unlock" for a in abilities):
        out.append("An unlock that empties a space of the upgrade section still gives its inspiration.")
    return out


MAX_REORDER_PARTS = 8  # orders are searched depth-first, merging prefixes that reach the same state


def better_order(inventory: Inventory, robots: list[Robot], order: Sequence[tuple[int, Ability, str]],
                 seat: Seat, result: Inventory) -> str | None:
    """A sentence naming another order of the same parts and choices that ends with at least as much
    of every item and more of something (None if there is none, or the list is too long to try)."""
    if len(order) > MAX_REORDER_PARTS or len(order) < 2:
        return None
    base = result.as_dict()
    best: tuple[int, tuple[int, ...], Inventory] | None = None
    seen: set = set()

    def search(inv: Inventory, now: list[Robot], left: frozenset[int], path: tuple[int, ...],
               done: frozenset[str]) -> None:
        nonlocal best
        if not left:
            got = inv.as_dict()
            if all(got[k] >= base[k] for k in base) and got != base:
                gain = sum(got[k] - base[k] for k in base)
                if best is None or gain > best[0]:
                    best = (gain, path, inv)
            return
        key = (left, inv, tuple(now), done)  # two prefixes that reach the same state have the same futures
        if key in seen:
            return
        seen.add(key)
        for j in sorted(left):
            i, ab, part = order[j]
            try:
                inv2, now2, _, done2 = _run(ab, i, part, inv, now, seat, done)
            except RoundEndInputError:
                continue
            search(inv2, now2, left - {j}, (*path, j), done2)

    search(inventory, list(robots), frozenset(range(len(order))), (), frozenset(seat.scroll_done))
    if best is None:
        return None
    names = " → ".join(ABILITIES[order[j][1].id][0] + (" (upgraded)" if order[j][2] == "upgrade" else "")
                       for j in best[1])
    extra = {k: v - base[k] for k, v in best[2].as_dict().items() if v != base[k]}
    return f"The order {names} ends with {_fmt(extra)} more, with the same choices."


def inventor_notes(order: Sequence[tuple[str, str]], who: Who, name: str) -> list[str]:
    """What the order says that the seat's entry does not: an inventor's ability for a seat with another
    inventor, an upgraded part for an inventor not marked upgraded. Worked out as given, but said."""
    out = []
    for a in dict.fromkeys(a for a, _ in order if a in ABILITIES and ABILITIES[a][2]):
        title = display_name(a)
        if who.inventor and who.inventor != a:
            out.append(f"{title}'s ability is in the order, but {name}'s inventor is "
                       f"{display_name(who.inventor)}.")
        elif (a, "upgrade") in order and not who.inventor_upgraded:
            out.append(f"{title}'s upgraded part is in the order, but {name}'s inventor is not marked upgraded "
                       "(the seat's inventor, on the Competitions planner).")
    return out
