"""Raising Robots end-of-game score: the base game's four sources plus the Friends Game End icons.

Readings (semantics.md "Raising Robots: scoring"; rulebook "Game End Ability", "Game End Icons"):
- total = robot VP + class-card VP + inventory VP + leftovers + Game End VP;
- leftovers = floor((batteries + the four resources + duct tape + robot cards in hand) / 3);
- a Game End icon sits on one of the robot's two actions (`game_end.action`, default "upgraded"): on
  the Upgraded Robot Action it scores only once the robot is upgraded, on the basic action always
  ("Game End Ability": only an ability of the Upgraded Robot Action needs the upgrade); pairs round
  down, and each robot with an icon scores it once (two robots with the same icon score it twice);
- Extra Credit raises the grade one row; an A stays an A, and no grade becomes a D
  (the row below D is "no grade", so one row up is D: how Tablebot reads it);
- ties: robot VP, then class VP, then shared.
Pure: no Flask. Plain dataclasses in and out.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from solvers.errors import InputError

from .model import RESOURCES, ROWS, Inventory, Robot

GRADES = ("none", "D", "C", "B", "A")  # lowest to highest; "none" = no grade met
COLUMNS = 5
GAME_END_KINDS = ("a_grade", "microchip_robots", "resource_pairs", "vp56_robots", "full_columns")
GAME_END_ACTIONS = ("upgraded", "basic")  # which of the robot's actions shows the icon
# a Game End line in players' words (the icon as printed)
GAME_END_NAMES = {"a_grade": "3 VP per A grade", "microchip_robots": "3 VP per 2 microchip robots",
                  "resource_pairs": "1 VP per 2 {resource}s", "vp56_robots": "3 VP per 2 robots worth 5-6 VP",
                  "full_columns": "4 VP per full column"}
PAIR_RESOURCES = RESOURCES  # the icon names one of the four resources ("2 Gear = 1 VP" in the rulebook)

# Game End icon values, rulebook "Game End Icons"
A_GRADE_VP = 3
MICROCHIP_PAIR_VP = 3
RESOURCE_PAIR_VP = 1
VP56_PAIR_VP = 3
FULL_COLUMN_VP = 4

# Rule entries (rules assistant) each line relies on
RULE_ICONS = "rr-game-end-icons"
RULE_ABILITY = "rr-game-end-ability"
RULE_NEEDS_UPGRADE = "rr-game-end-ability-needs-upgrade"
RULE_UPGRADED_ONLY = "rr-reading-game-end-upgraded-only"  # upgraded only, pairs round down, nothing spent
RULE_END_SCORING = "rr-fact-end-scoring"
RULE_FINAL_SCORE = "rr-reading-final-score"
RULE_CLASS_CARDS = "rr-fact-class-cards"
RULE_EXTRA_CREDIT = "rr-reading-extra-credit-no-grade"  # no grade + Extra Credit = D; A stays A
ICON_RULES = {"a_grade": "rr-icon-a-grade", "microchip_robots": "rr-icon-microchip-robots",
              "resource_pairs": "rr-icon-resource-pairs", "vp56_robots": "rr-icon-vp56-robots",
              "full_columns": "rr-icon-full-columns"}
PAIR_ICONS = ("microchip_robots", "resource_pairs", "vp56_robots")


class ScoreInputError(InputError):
    """The play area cannot exist (two robots in one slot, a sixth robot in a row, ...).
    `path` names the offending input, relative to the request body."""


@dataclass(frozen=True)
class ClassCard:
    grade: str  # grade met before Extra Credit: "none", "D", "C", "B", "A"
    vp_by_grade: dict[str, int] = field(default_factory=dict, hash=False, compare=False)
    extra_credit: bool = False
    name: str = ""

    def final_grade(self) -> str:
        return raise_grade(self.grade) if self.extra_credit else self.grade

    def vp(self) -> int:
        g = self.final_grade()
        return 0 if g == "none" else self.vp_by_grade[g]


def raise_grade(grade: str) -> str:
    """One row up the grade table (Extra Credit); A is the top row."""
    i = GRADES.index(grade)
    return GRADES[min(i + 1, len(GRADES) - 1)]


def grade_for(count: int, thresholds: dict[str, int]) -> str:
    """The best grade whose threshold `count` reaches ("none" if none): for cards whose count is known."""
    best = "none"
    for g in GRADES[1:]:
        if g in thresholds and count >= thresholds[g]:
            best = g
    return best


@dataclass(frozen=True)
class Line:
    what: str
    vp: int
    why: str
    kind: str  # robots, class_cards, inventory, leftovers, game_end (the bar chart's groups)
    rules: tuple[str, ...] = ()  # the rule entries this line applies, most specific first

    @property
    def rule(self) -> str | None:
        return self.rules[0] if self.rules else None


@dataclass(frozen=True)
class Score:
    robots: int
    class_cards: int
    inventory_vp: int
    leftovers: int
    game_end: int
    total: int
    lines: tuple[Line, ...]
    columns: tuple[int, ...]  # the completely filled columns of the play area (1..5)


def place_robots(robots: Sequence[Robot]) -> list[Robot]:
    """Every robot with its column: a given column is kept, a missing one is the leftmost free slot of
    the row, in the order listed (a new robot always takes the leftmost free slot). Raises
    ScoreInputError for a clash or a row over five robots."""
    taken: dict[str, set[int]] = {r: set() for r in ROWS}
    for i, r in enumerate(robots):
        if r.row not in taken:
            raise ScoreInputError(f"robots[{i}].row", f"must be one of {', '.join(ROWS)}")
        if r.column is not None:
            if not 1 <= r.column <= COLUMNS:
                raise ScoreInputError(f"robots[{i}].column", f"must be 1 to {COLUMNS}")
            if r.column in taken[r.row]:
                raise ScoreInputError(f"robots[{i}].column",
                                      f"another robot already sits in {r.row} column {r.column}")
            taken[r.row].add(r.column)
    placed: list[Robot] = []
    for i, r in enumerate(robots):
        if r.column is None:
            free = [c for c in range(1, COLUMNS + 1) if c not in taken[r.row]]
            if not free:
                raise ScoreInputError(f"robots[{i}]", f"the {r.row} row already holds {COLUMNS} robots")
            taken[r.row].add(free[0])
            r = replace(r, column=free[0])
        placed.append(r)
    return placed


def full_columns(robots: Sequence[Robot]) -> tuple[int, ...]:
    """Columns with a robot in every one of the three rows (robots already placed)."""
    filled = {(r.row, r.column) for r in robots}
    return tuple(c for c in range(1, COLUMNS + 1) if all((row, c) in filled for row in ROWS))


def leftover_count(inv: Inventory) -> int:
    return inv.battery + sum(inv.get(r) for r in RESOURCES) + inv.duct_tape + inv.robot_cards


def _check_game_end(i: int, spec: dict) -> tuple[str, str | None, str]:
    kind = spec.get("kind")
    if kind not in GAME_END_KINDS:
        raise ScoreInputError(f"robots[{i}].game_end.kind", f"must be one of {', '.join(GAME_END_KINDS)}")
    resource = spec.get("resource")
    if kind == "resource_pairs" and resource not in PAIR_RESOURCES:
        raise ScoreInputError(f"robots[{i}].game_end.resource",
                              f"must be one of {', '.join(PAIR_RESOURCES)}")
    action = spec.get("action") or "upgraded"
    if action not in GAME_END_ACTIONS:
        raise ScoreInputError(f"robots[{i}].game_end.action", f"must be one of {', '.join(GAME_END_ACTIONS)}")
    return kind, resource, action


def _robot_name(r: Robot) -> str:
    return f"{r.row.capitalize()} robot in column {r.column}"


def score(inventory: Inventory, robots: Sequence[Robot], class_cards: Sequence[ClassCard]) -> Score:
    """The end-of-game score of one player, line by line with the reason for each line."""
    for j, card in enumerate(class_cards):
        if card.grade not in GRADES:
            raise ScoreInputError(f"class_cards[{j}].grade", f"must be one of {', '.join(GRADES)}")
        g = card.final_grade()
        if g != "none" and g not in card.vp_by_grade:
            raise ScoreInputError(f"class_cards[{j}].vp_by_grade.{g}",
                                  f"the card's VP for grade {g} is needed (the grade it scores)")
    placed = place_robots(robots)
    lines: list[Line] = []

    robot_vp = sum(r.vp for r in placed)
    lines.append(Line("Robots in the play area", robot_vp,
                      f"printed VP of {len(placed)} assembled robot(s)"
                      + (": " + " + ".join(str(r.vp) for r in placed) if placed else ""), "robots",
                      (RULE_END_SCORING,)))

    class_vp = 0
    a_grades = 0
    for j, card in enumerate(class_cards):
        g = card.final_grade()
        a_grades += g == "A"
        vp = card.vp()
        class_vp += vp
        label = card.name or f"Class card {j + 1}"
        if card.extra_credit:
            why = (f"grade {card.grade} met, raised to {g} by Extra Credit" if g != card.grade
                   else "grade A met; Extra Credit cannot go above A")
        else:
            why = f"grade {g} met" if g != "none" else "no grade met"
        why += f": {vp} VP from the card" if g != "none" else ": 0 VP"
        rules = (RULE_CLASS_CARDS,) + ((RULE_EXTRA_CREDIT,) if card.extra_credit and card.grade in ("none", "A") else ())
        lines.append(Line(label, vp, why, "class_cards", rules))

    lines.append(Line("VP in inventory", inventory.vp, "the VP track at game end (competition rewards included)",
                      "inventory", (RULE_END_SCORING,)))

    n_left = leftover_count(inventory)
    leftovers = n_left // 3
    lines.append(Line("Leftovers", leftovers,
                      f"{inventory.battery} batteries + {sum(inventory.get(r) for r in RESOURCES)} resources"
                      f" + {inventory.duct_tape} duct tape + {inventory.robot_cards} robot cards = {n_left};"
                      f" 1 VP per 3, rounded down", "leftovers", (RULE_END_SCORING,)))

    cols = full_columns(placed)
    microchip_robots = sum(r.needs_microchip for r in placed)
    vp56 = sum(r.vp in (5, 6) for r in placed)
    game_end = 0
    for i, r in enumerate(placed):
        if not r.game_end:
            continue
        kind, resource, action = _check_game_end(i, r.game_end)
        name = _robot_name(r)
        icon = GAME_END_NAMES[kind].format(resource=resource)
        if action == "upgraded" and not r.upgraded:
            lines.append(Line(f"{name}: Game End ({icon})", 0,
                              "the icon is on its Upgraded Robot Action and the robot is not upgraded, so it "
                              "does not score", "game_end", (RULE_NEEDS_UPGRADE, RULE_UPGRADED_ONLY)))
            continue
        if kind == "a_grade":
            vp = A_GRADE_VP * a_grades
            why = f"{a_grades} class card(s) at grade A after Extra Credit x {A_GRADE_VP} VP"
        elif kind == "microchip_robots":
            vp = MICROCHIP_PAIR_VP * (microchip_robots // 2)
            why = (f"{microchip_robots} assembled robot(s) need a microchip: {microchip_robots // 2} pair(s)"
                   f" x {MICROCHIP_PAIR_VP} VP")
        elif kind == "resource_pairs":
            have = inventory.get(resource)
            vp = RESOURCE_PAIR_VP * (have // 2)
            why = f"{have} {resource} in inventory: {have // 2} pair(s) x {RESOURCE_PAIR_VP} VP (not spent)"
        elif kind == "vp56_robots":
            vp = VP56_PAIR_VP * (vp56 // 2)
            why = f"{vp56} assembled robot(s) worth 5 or 6 VP: {vp56 // 2} pair(s) x {VP56_PAIR_VP} VP"
        else:
            vp = FULL_COLUMN_VP * len(cols)
            why = (f"{len(cols)} completely filled column(s)"
                   + (f" ({', '.join(map(str, cols))})" if cols else "") + f" x {FULL_COLUMN_VP} VP")
        game_end += vp
        if action == "basic":
            why += " (on its basic action: no upgrade needed)"
        lines.append(Line(f"{name}: Game End ({icon})", vp, why, "game_end",
                          (ICON_RULES[kind],) + ((RULE_UPGRADED_ONLY,) if kind in PAIR_ICONS else ())
                          + ((RULE_ABILITY,) if action == "basic" else ())))

    total = robot_vp + class_vp + inventory.vp + leftovers + game_end
    return Score(robot_vp, class_vp, inventory.vp, leftovers, game_end, total, tuple(lines), cols)


# ---- comparing players -------------------------------------------------------------------------

@dataclass(frozen=True)
class Standing:
    name: str
    place: int  # 1 = winner; equal places share
    total: int
    robots: int
    class_cards: int
    decided_by: str  # against the player just above: "total", "robot VP", "class VP", "shared", "" for the first


def standings(players: Sequence[tuple[str, Score]]) -> list[Standing]:
    """Best first. Ties on total go to robot VP, then class VP; a tie on all three is shared
    (rulebook base game end; the same order in facts/raising_robots.md §6)."""
    def key(s: Score) -> tuple[int, int, int]:
        return (s.total, s.robots, s.class_cards)

    order = sorted(players, key=lambda p: key(p[1]), reverse=True)
    out: list[Standing] = []
    for idx, (name, s) in enumerate(order):
        place = 1 + sum(key(o) > key(s) for _, o in players)
        if idx == 0:
            decided = ""
        else:
            above = order[idx - 1][1]
            if above.total != s.total:
                decided = "total"
            elif above.robots != s.robots:
                decided = "robot VP"
            elif above.class_cards != s.class_cards:
                decided = "class VP"
            else:
                decided = "shared"
        out.append(Standing(name, place, s.total, s.robots, s.class_cards, decided))
    return out


# ---- solo target ---------------------------------------------------------------------------------

SOLO_ADJUSTMENT = {"single": 20, "campaign": 50}  # rulebook "Solo / 2P Gameplay Changes"
RULE_SOLO = "rr-solo-scoring-thresholds"
RULE_SOLO_EXACT = "rr-reading-solo-target"  # a score equal to the target reaches it



@dataclass(frozen=True)
class SoloResult:
    threshold: int  # as printed / entered
    adjustment: int
    target: int
    total: int
    margin: int  # total - target
    reached: bool  # total >= target (Tablebot's reading: meeting the target counts)
    why: str


def solo_target(total: int, threshold: int, mode: str, competitions: bool) -> SoloResult:
    """The solo target: the entered threshold, raised by 20 (single game) or 50 (campaign) when the
    Competitions & Friendships module is in play."""
    if mode not in SOLO_ADJUSTMENT:
        raise ValueError(f"mode must be one of {', '.join(SOLO_ADJUSTMENT)}")
    adj = SOLO_ADJUSTMENT[mode] if competitions else 0
    target = threshold + adj
    why = (f"{threshold} entered + {adj} for Competitions & Friendships ({mode})" if competitions
           else f"{threshold} entered; no adjustment without Competitions & Friendships")
    return SoloResult(threshold, adj, target, total, total - target, total >= target, why)


def solo_rules(result: SoloResult) -> tuple[str, ...]:
    return (RULE_SOLO,) + ((RULE_SOLO_EXACT,) if result.margin == 0 else ())


def score_rules(result: Score) -> tuple[str, ...]:
    """Every rule entry the score relies on: the reading of the total, then each line's, in order."""
    ids = [RULE_FINAL_SCORE]
    if any(ln.kind == "game_end" for ln in result.lines):
        ids += [RULE_ICONS, RULE_ABILITY]
    for ln in result.lines:
        ids += [i for i in ln.rules if i not in ids]
    return tuple(ids)


ALL_RULES = (RULE_FINAL_SCORE, RULE_END_SCORING, RULE_ICONS, RULE_ABILITY, *ICON_RULES.values(), RULE_NEEDS_UPGRADE,
             RULE_UPGRADED_ONLY, RULE_CLASS_CARDS, RULE_EXTRA_CREDIT, RULE_SOLO, RULE_SOLO_EXACT)
