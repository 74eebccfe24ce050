"""Move suggestions for the active player (rulebook "Player Turn", "NPC Turn"; facts: space activations).

Every legal turn: stay or move along one black line; activate nothing, the space left (before moving)
or the space reached (after moving), unless an oppressor stands on it. Activations:
  poster              place one poster from the supply on any space
  sabotage / upgrade  draw 2 (the cards are unknown: the option is scored like no activation)
  scrap_yard          put every junk-pile poster back on the board
  recruitment_office  contribute 1..5 SPARK (funds permitting, contributions at most 10)
  move_the_masses     move one NPC along a black line; it meets its new space at once
Extras (the active player's own ability, once per turn, applied at the end of the turn): Mr. Postman
moves one poster, WallyST pays one contribution to place a poster.

Each option is scored exactly: E[V after the following NPC turn] - V now (value.py), the NPC turn
being the one the active player conducts (Alice Smith's path, MT-ρ's re-roll, ArciTech's re-post
included). Equal scores are ties and are reported as such.

Limits (said in each option's `search` note where they apply): scrap-yard placements are searched over
the spaces an NPC can reach next turn plus the best other space (all of them when that is at most
`SCRAP_EXHAUSTIVE` placements, else greedily); extras: the `EXTRA_CANDIDATES` extras that are best on
their own are tried on top of the `EXTRA_BASES` best options (for Mr. Postman, among the moves from the
3 best spaces to take a poster from to the 4 best spaces to put one on).
"""
from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

from solvers.exact import exact

from .board import Board
from .model import CHARACTER_NAMES, Dice, Rules, TableState
from .npc_turn import CIVILIAN, OPPRESSOR, Encounter
from .objective_advice import Goal
from .report import encounter_json, encounter_text, number_text, outcome_bits, state_json
from .rule_ids import CHARACTER_RULES
from .scoring import NpcTurnBound, TurnScorer
from .turn import Activation, Extra, apply_activation, moved, with_extra
from .value import Valuer

SCRAP_EXHAUSTIVE = 24
MASSES_TRIED = 6  # on those boards, Move the Masses' NPC moves tried with each move of the player
POSTER_EXHAUSTIVE = 16  # boards with more spaces: posters go where an NPC can come next, and the best other space
EXTRA_CANDIDATES = 3
EXTRA_BASES = 5
RULES_SUGGEST = ("rb-player-turn", "rb-movement", "rb-types-of-space-activations", "rb-npc-turn",
                 "rb-encounter-quick-reference-table", "rb-game-end")
ACTIVATION_RULES = {"poster": "rb-activation-poster", "sabotage": "rb-activation-sabotage",
                    "upgrade": "rb-activation-upgrade", "scrap_yard": "rb-activation-scrap-yard",
                    "recruitment_office": "rb-activation-recruitment-office",
                    "move_the_masses": "rb-activation-move-the-masses"}


@dataclass(frozen=True, kw_only=True)
class Option:
    move_to: int
    activation: Activation | None
    extra: Extra | None
    score: Fraction
    expected: dict[str, Fraction]
    after: TableState  # the table when the turn is done (Move the Masses' encounter resolved), before the NPC turn
    immediate: Encounter | None = None  # Move the Masses' encounter during the turn
    search: str | None = None


@dataclass(frozen=True, kw_only=True)
class Suggestions:
    start: TableState
    options: tuple[Option, ...]  # best first
    notes: tuple[str, ...]
    entering: str | None = None  # the NPC entering at the next round start, when the score looks past it
    generated: tuple[int, ...] = ()  # each option's place in generation order (the order of ties)

    def as_json(self, board: Board, limit: int | None = None, names: tuple[str, ...] = ()) -> dict:
        scores = [o.score for o in self.options]
        shown = self.options if limit is None else self.options[:limit]
        # the options are best first, so equal scores stand together: an option's rank is 1 + the place of
        # the first option of its run, its ties the rest of the run
        first = [0] * len(scores)
        runs: list[int] = []
        for i, x in enumerate(scores):
            if i and x == scores[i - 1]:
                first[i] = first[i - 1]
                runs[-1] += 1
            else:
                first[i] = i
                runs.append(1)
        size = [0] * len(scores)
        i = 0
        for n in runs:
            size[i:i + n] = [n] * n
            i += n
        out = [option_json(board, self.start, o, 1 + first[i], size[i] - 1, names) for i, o in enumerate(shown)]
        return {"options": out, "count": len(self.options),
                "best": list(range(size[0])) if scores else [],
                "player": {"seat": self.start.active, "character": self.start.active_character,
                           "at": board.ids[self.start.players[self.start.active]]},
                "looked_past": self.looked_past(board),
                "notes": list(self.notes), "rules": list(RULES_SUGGEST)}

    def looked_past(self, board: Board) -> dict | None:
        """Whether looking past the coming NPC turn changed the best turn: null when nothing was looked at
        past it; `changed` with the turn that is best for the coming NPC turn alone (`instead`)."""
        if not self.options or "ahead" not in self.options[0].expected or self.entering is None and not any(
                o.expected["ahead"] for o in self.options):
            return None
        alone = [o.score - o.expected["ahead"] for o in self.options]
        best, top = self.options[0], max(alone)
        first = min((i for i, a in enumerate(alone) if a == top), key=lambda i: self.generated[i])
        changed = first != 0  # without looking past, another turn would be listed first
        out: dict = {"changed": changed, "entering": self.entering, "instead": None,
                     "why": "Looking past the coming NPC turn does not change the best turn."}
        if changed:
            other = self.options[first]
            comes = "where the dice take the NPCs before each player moves again"
            if self.entering is not None:
                npc = "Human Oppressor" if self.entering == "oppressor" else "Civilian Robot"
                comes = (f"the {npc} that enters at the next round start on the Entry token's space (now "
                         f"{board.names[self.start.entry]}), and " + comes)
            out["instead"] = headline(board, self.start, other)
            than = "as well as this turn" if alone[0] == top else "best"
            out["why"] = (f"Steered around what is known to come: “{out['instead']}” scores {than} for the coming "
                          f"NPC turn alone, but counting {comes}, it is worth "
                          f"{number_text(other.expected['ahead'], True)} against "
                          f"{number_text(best.expected['ahead'], True)} for this turn.")
        return out


def activation_json(board: Board, a: Activation | None) -> dict | None:
    if a is None:
        return None
    out: dict = {"kind": a.kind, "space": board.ids[a.space], "when": a.when}
    if a.kind == "poster":
        out["place_on"] = board.ids[a.place_on]
    elif a.kind == "scrap_yard":
        out["placement"] = {board.ids[s]: n for s, n in a.placement}
    elif a.kind == "recruitment_office":
        out["contribute"] = a.contribute
    elif a.kind == "move_the_masses":
        out.update(npc=a.npc, index=a.npc_index, to=board.ids[a.npc_to])
    elif a.kind == "sabotage":
        out.update(draw=2, use=1)
    elif a.kind == "upgrade":
        out.update(draw=2, keep=1)
    return out


def extra_json(board: Board, e: Extra | None) -> dict | None:
    if e is None:
        return None
    out = {"ability": e.ability, "to": board.ids[e.to]}
    if e.source is not None:
        out["from"] = board.ids[e.source]
    return out


def headline(board: Board, s0: TableState, o: Option) -> str:
    """The turn in a few words, as a player would say it (no period): "Move to Poster, contribute 2 SPARK"."""
    here = s0.players[s0.active]
    moving = o.move_to != here
    parts = [f"Move to {board.names[o.move_to]}" if moving else f"Stay on {board.names[here]}"]
    a = o.activation
    if a is not None:
        what = {"poster": lambda: f"place a poster on {board.names[a.place_on]}",
                "sabotage": lambda: "draw 2 Sabotage cards and use 1",
                "upgrade": lambda: "draw 2 Upgrade cards and keep 1",
                "scrap_yard": lambda: "put the junk-pile posters on " + ", ".join(
                    f"{board.names[s]} ({n})" for s, n in a.placement),
                "recruitment_office": lambda: f"contribute {a.contribute} SPARK to the office",
                "move_the_masses": lambda: f"move {a.npc.capitalize()} {a.npc_index + 1} to {board.names[a.npc_to]}"}
        act = what[a.kind]()
        if a.when == "before_move":
            parts = [f"On {board.names[here]}, {act}, then move to {board.names[o.move_to]}"]
        else:
            parts.append(act)
    if o.extra is not None:
        e = o.extra
        who = CHARACTER_NAMES[e.ability]
        if e.ability == "mr_postman":
            parts.append(f"{who} moves a poster from {board.names[e.source]} to {board.names[e.to]}")
        else:
            parts.append(f"{who} pays 1 contribution to place a poster on {board.names[e.to]}")
    return ", ".join(parts)


def _why(board: Board, o: Option, rank: int, tied: int, head: str) -> str:
    x = o.expected
    text = head + "."
    if o.immediate is not None:
        text += " " + encounter_text(board, o.immediate)
    bits = outcome_bits(x)
    if x["future_donations"]:
        bits.append(f"then about {number_text(x['future_donations'])} SPARK of future donations")
    if x.get("ahead"):
        bits.append(f"what is known to come after it, until each player moves again, "
                    f"{number_text(x['ahead'], True)}")
    text += " After the NPC turn: " + "; ".join(bits) + f". Score {number_text(o.score, True)}"
    if o.activation is not None and o.activation.kind in ("sabotage", "upgrade"):
        text += " (the cards are unknown: scored like not activating)"
    text += "; " + ("best" if rank == 1 else f"rank {rank}")
    if tied:
        text += f", tied with {tied} other option{'s' if tied > 1 else ''}"
    return text + "."


def option_json(board: Board, s0: TableState, o: Option, rank: int, tied: int, names: tuple[str, ...] = ()) -> dict:
    """One option as the API gives it; `state_after` is the table once the turn is played (the move, the
    activation, Move the Masses' encounter, the extra poster move), before the NPC turn."""
    rules = list(RULES_SUGGEST)
    if o.activation is not None:
        rules.append(ACTIVATION_RULES[o.activation.kind])
    if o.extra is not None:
        rules += [CHARACTER_RULES[o.extra.ability], "rb-character-abilities"]
    head = headline(board, s0, o)
    out = {"move_to": board.ids[o.move_to], "activate": activation_json(board, o.activation),
           "extra": extra_json(board, o.extra), "expected": {k: exact(v) for k, v in o.expected.items()},
           "rank": rank, "tied_with": tied, "headline": head, "why": _why(board, o, rank, tied, head),
           "rules": rules, "state_after": state_json(board, o.after, names)}
    if o.immediate is not None:
        out["immediate"] = encounter_json(board, o.immediate)
    if o.search:
        out["search"] = o.search
    return out


class _Scorer:
    """Scores pre-NPC-turn states against the turn's start state (scoring.TurnScorer, cached per state)."""

    def __init__(self, board: Board, rules: Rules, dice: Dice, s0: TableState, valuer: Valuer,
                 turns: TurnScorer | None = None, lean: bool = False, goal: Goal | None = None):
        self.s0, self.valuer, self.lean, self.goal = s0, valuer, lean, goal
        self.v0 = valuer.value(s0)
        self.turns = turns if turns is not None else TurnScorer(board, rules, dice, valuer)
        self.cache: dict[tuple, tuple[Fraction, dict[str, Fraction]]] = {}
        self.scaled_cache: dict[TableState, tuple[int, int]] = {}
        self.expectations: dict[tuple, object] = {}

    def scaled(self, pre: TableState) -> tuple[int, int]:
        """(sum of weight x scaled V, denominator): the comparison key without Fractions."""
        hit = self.scaled_cache.get(pre)
        if hit is None:
            e = self.turns.expected(pre, self.s0)
            hit = self.scaled_cache[pre] = (e.value, e.denominator)
        return hit

    def expectation(self, pre: TableState, immediate: Encounter | None = None):
        key = (pre, immediate)
        e = self.expectations.get(key)
        if e is None:
            e = self.expectations[key] = self.turns.expected(pre, self.s0, immediate, self.goal)
        return e

    def rank(self, pre: TableState, immediate: Encounter | None = None,
             activation: Activation | None = None) -> Fraction:
        """score(...)[0] without the other numbers (the same Fraction), for ranking candidates."""
        hit = self.cache.get((pre, activation is not None and activation.kind in ("sabotage", "upgrade"), immediate))
        if hit is not None:
            return hit[0]
        e, goal = self.expectation(pre, immediate), self.goal
        out = Fraction(e.value, e.denominator * self.valuer.scale)
        if not self.lean:  # lean scores leave the constant V before out, as score() does
            out -= self.v0
        if goal is not None:
            draws = activation is not None and activation.kind in ("sabotage", "upgrade")
            out += Fraction(e.objective, e.denominator) + goal.turn_term(draws)
        return out

    def score(self, pre: TableState, immediate: Encounter | None = None,
              activation: Activation | None = None) -> tuple[Fraction, dict[str, Fraction]]:
        draws = activation is not None and activation.kind in ("sabotage", "upgrade")
        key = (pre, draws, immediate)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        v, goal = self.valuer, self.goal
        e = self.expectation(pre, immediate)
        bonus = Fraction(0) if goal is None else Fraction(e.objective, e.denominator) + goal.turn_term(draws)
        if self.lean:  # only the order matters: E[V after] (the score plus a constant), no other numbers
            out = (Fraction(e.value, e.denominator * v.scale) + bonus, {})
        else:
            expected = e.as_fractions(self.s0, v.scale, v.d, self.v0)
            if goal is not None:
                expected["objective"] = bonus
                expected["score"] += bonus
            out = (expected["score"], expected)
        self.cache[key] = out
        return out


def _hot_spaces(board: Board, s: TableState) -> set[int]:
    """Spaces an NPC can move onto in the next NPC turn (where posters change that turn's encounters)."""
    hot = set()
    for x in s.oppressors + s.civilians:
        hot.add(board.yellow[x])
        hot.add(board.blue[x])
    return hot


Plan = tuple[int, "Activation | None", TableState, "Encounter | None", "str | None"]  # move_to, activation, after, encounter, note


class _Planner:
    def __init__(self, board: Board, rules: Rules, dice: Dice, s0: TableState, valuer: Valuer,
                 turns: TurnScorer | None = None, lean: bool = False, goal: Goal | None = None):
        self.board, self.rules, self.s0 = board, rules, s0
        self.scorer = _Scorer(board, rules, dice, s0, valuer, turns, lean, goal)
        self.valuer = valuer
        self.notes: list[str] = []
        self.greedy: dict[TableState, tuple[tuple[int, int], ...]] = {}  # the scrap yard's, by table

    def activations(self, s: TableState, space: int, when: str) -> list[tuple[Activation, str | None]]:
        """Every activation of `space` in state `s` (with a search note where the list is not exhaustive)."""
        board, rules = self.board, self.rules
        if space in s.oppressors:
            return []
        kind = board.kinds[space]
        if kind in ("sabotage", "upgrade"):
            return [(Activation(kind=kind, space=space, when=when), None)]
        if kind == "poster":
            if s.poster_supply_left(rules) < 1:
                return []
            targets, note = self.poster_targets(s)
            return [(Activation(kind=kind, space=space, when=when, place_on=t), note) for t in targets]
        if kind == "recruitment_office":
            top = min(rules.contribute_max, s.funds, rules.office_max - s.office)
            return [(Activation(kind=kind, space=space, when=when, contribute=c), None) for c in range(1, top + 1)]
        if kind == "move_the_masses":
            out, seen = [], set()
            for npc, group in ((OPPRESSOR, s.oppressors), (CIVILIAN, s.civilians)):
                for i, x in enumerate(group):
                    for to in board.neighbours[x]:
                        if (npc, x, to) not in seen:  # NPCs of a kind on one space are alike
                            seen.add((npc, x, to))
                            out.append((Activation(kind=kind, space=space, when=when, npc=npc, npc_index=i, npc_to=to), None))
            return out
        if kind == "scrap_yard":
            return self.scrap_yard(s, space, when)
        return []

    def best_masses(self, activations: list[tuple[Activation, str | None]]) -> set[tuple]:
        """The MASSES_TRIED NPC moves of Move the Masses that score best with the active player staying put
        (the moves' own encounters and the NPC turn after them; the player's own move changes little of it;
        ties to the earlier move). Scored exactly in the order of an upper bound on their score
        (scoring.NpcTurnBound), until no bound left reaches the last of the best: the same moves as scoring
        them all."""
        s0 = self.s0
        stay = moved(s0, s0.players[s0.active])
        tried = [(a, *apply_activation(self.board, self.rules, stay, a)) for a, _ in activations]
        bound = self.masses_bound(stay)
        if bound is None:
            scored = sorted((-self.scorer.rank(after, enc, a), i) for i, (a, after, enc) in enumerate(tried))
            best = [i for _, i in scored[:MASSES_TRIED]]
        else:
            top: list[tuple[Fraction, int]] = []  # (-E[V after], place), best first

            def score(i: int) -> None:
                _, after, enc = tried[i]
                e = self.scorer.expectation(after, enc)
                insort(top, (-Fraction(e.value, e.denominator), i))
                del top[MASSES_TRIED:]

            rest = []
            for i, (a, after, _) in enumerate(tried):
                ub = bound.moved(after, a.npc, a.npc_index)
                if ub is None:
                    score(i)
                else:
                    rest.append((-ub, i))
            rest.sort()  # highest bound first, then generation order
            for neg, i in rest:
                if len(top) == MASSES_TRIED:
                    worst, j = top[-1]
                    ub = Fraction(-neg, bound.denominator)
                    if ub < -worst or ub == -worst and i > j:  # it cannot rank before the last of the best
                        break
                score(i)
            best = [i for _, i in top]
        return {(tried[i][0].npc, tried[i][0].npc_index, tried[i][0].npc_to) for i in best}

    def masses_bound(self, base: TableState) -> NpcTurnBound | None:
        """The bound best_masses skips moves with, where it holds: the plain NPC turn (no card changes it),
        no objective's bonus, no negative weight."""
        v = self.valuer
        if self.scorer.goal is not None or type(self.scorer.turns) is not TurnScorer or min(
                v.w_spark, v.w_rep, v.w_office, v.w_poster, v.w_win, v.w_loss) < 0:
            return None
        return NpcTurnBound(self.scorer.turns, base)

    def poster_targets(self, s: TableState) -> tuple[list[int], str | None]:
        """Where a placed poster is tried: every space on a board of at most POSTER_EXHAUSTIVE spaces; else
        the spaces an NPC can move onto in the coming NPC turn or enter on at a round start (the Entry token
        and where its X faces take it), plus the best other space: elsewhere a poster only adds its future
        donations, so the others are ranked by those (the civilians' arrivals after each roll)."""
        board = self.board
        if board.n <= POSTER_EXHAUSTIVE:
            return list(range(board.n)), None
        hot = _hot_spaces(board, s)
        for x in (s.entry, board.yellow[s.entry], board.blue[s.entry]):
            hot |= {x, board.yellow[x], board.blue[x]}
        quiet = [x for x in range(board.n) if x not in hot]
        if quiet:
            gain = [0] * board.n
            dice = self.scorer.turns.dice
            weights = {(b, r): cb * cr for b, cb in dice.counts("black").items() for r, cr in dice.counts("red").items()}
            for (b, r), plan in self.scorer.turns.plans(s).items():
                w = weights.get((b, r), 0)
                if w:
                    for x in quiet:
                        gain[x] += w * plan.poster_row[x]
            hot.add(max(quiet, key=lambda x: (gain[x], -x)))
        note = (f"poster placed on the {len(hot) - bool(quiet)} spaces an NPC can move onto or enter on next, and on "
                f"the best of the {len(quiet)} others (elsewhere a poster only adds its future donations)")
        return sorted(hot), note

    def scrap_yard(self, s: TableState, space: int, when: str) -> list[tuple[Activation, str | None]]:
        j = s.junk
        if j < 1:
            return []
        board = self.board
        hot = sorted(_hot_spaces(board, s))
        quiet = [x for x in range(board.n) if x not in hot]
        if quiet:
            # away from every NPC's next step a poster only adds future donations: the best such space
            gain = [sum(self.valuer.arrivals(c)[x] for c in s.civilians) for x in range(board.n)]
            hot.append(max(quiet, key=lambda x: (gain[x], -x)))
        spaces = sorted(hot)
        total = _multisets(len(spaces), j)
        if total <= SCRAP_EXHAUSTIVE:
            out = []
            for combo in combinations_with_replacement(spaces, j):
                placement = tuple((x, combo.count(x)) for x in sorted(set(combo)))
                out.append((Activation(kind="scrap_yard", space=space, when=when, placement=placement), None))
            return out
        placement = self.greedy.get(s)
        if placement is None:
            placement = self.greedy[s] = self.greedy_placement(s, spaces)
        note = f"greedy placement ({total} placements were too many to try)"
        return [(Activation(kind="scrap_yard", space=space, when=when, placement=placement), note)]

    def greedy_placement(self, s: TableState, spaces: list[int]) -> tuple[tuple[int, int], ...]:
        """The junk pile's posters added one at a time where the exact score is best (the first such space
        on a tie); kept per table (the scrap yard left before each move of the player is the same one)."""
        board = self.board
        counts: dict[int, int] = {}
        for _ in range(s.junk):
            best = None
            for x in spaces:
                trial = dict(counts)
                trial[x] = trial.get(x, 0) + 1
                pre = replace(s, posters=tuple(s.posters[i] + trial.get(i, 0) for i in range(board.n)),
                              junk=s.junk - sum(trial.values()))
                sc = self.placement_score(pre)
                if best is None or sc > best[0]:
                    best = (sc, x)
            counts[best[1]] = counts.get(best[1], 0) + 1
        return tuple(sorted(counts.items()))

    def placement_score(self, pre: TableState) -> Fraction:
        """How the scrap yard's greedy placement compares two placements (the exact score)."""
        return self.scorer.rank(pre)

    def extras(self, s: TableState) -> list[Extra]:
        """The active player's extra poster move, if they have one and it is possible in state s."""
        who, board = s.active_character, self.board
        if who == "mr_postman":
            return [Extra(ability="mr_postman", to=to, source=source) for source in range(board.n) if s.posters[source]
                    for to in range(board.n) if to != source]
        if who == "wally_st" and s.office >= 1 and s.poster_supply_left(self.rules) >= 1:
            return [Extra(ability="wally_st", to=to) for to in range(board.n)]
        return []

    def with_extra(self, s: TableState, e: Extra) -> TableState | None:
        return with_extra(self.rules, s, e)

    def plans(self) -> list[Plan]:
        """Every turn without the extra poster move, in generation order (stay first, no activation first)."""
        s0, board = self.s0, self.board
        here = s0.players[s0.active]
        plans: list[Plan] = []
        masses = None  # on a large board, the NPC moves of Move the Masses tried with the player's moves
        for to in (here,) + board.neighbours[here]:
            there = moved(s0, to)
            plans.append((to, None, there, None, None))
            if to == here:
                steps = [(here, "here", s0, False)]
            else:
                steps = [(here, "before_move", s0, True), (to, "after_move", there, False)]
            for space, when, base, move_after in steps:
                activations = self.activations(base, space, when)
                if activations and activations[0][0].kind == "move_the_masses" and board.n > POSTER_EXHAUSTIVE:
                    if masses is None:
                        masses = self.best_masses(activations)
                    if when != "here":
                        note = (f"Move the Masses: the {len(masses)} NPC moves that score best with the player "
                                "staying are tried with each move")
                        activations = [(a, note) for a, _ in activations if (a.npc, a.npc_index, a.npc_to) in masses]
                for a, note in activations:
                    after, enc = apply_activation(board, self.rules, base, a)
                    if move_after and after.ended is None:
                        after = moved(after, to)
                    plans.append((to, a, after, enc, note))
        return plans

    def run(self) -> Suggestions:
        s0 = self.s0
        plans = self.plans()
        options: list[Option] = []
        for to, a, pre, enc, note in plans:
            score, expected = self.scorer.score(pre, enc, a)
            options.append(Option(move_to=to, activation=a, extra=None, score=score, expected=expected, after=pre,
                                  immediate=enc, search=note))
        extras = self.extras(s0)
        if extras:
            best_first = sorted(range(len(plans)), key=lambda i: (-options[i].score, i))
            options += self.extra_options([plans[i] for i in best_first], extras)
        order = sorted(range(len(options)), key=lambda i: (-options[i].score, i))
        v = self.valuer
        entering = v.next_entry(s0.entered, len(s0.oppressors), len(s0.civilians)) if v.ahead is not None else None
        if entering is not None and s0.round is not None and s0.round >= v.ahead.max_rounds:
            entering = None
        return Suggestions(start=s0, options=tuple(options[i] for i in order), notes=tuple(self.notes),
                           entering=entering, generated=tuple(order))

    def extra_options(self, plans, extras: list[Extra]) -> list[Option]:
        s0 = self.s0
        base_state = moved(s0, s0.players[s0.active])
        base_score = self.scorer.score(base_state)[0]
        if extras[0].ability == "mr_postman":
            # a move is a removal plus a placement: shortlist the 3 best of each, then score the pairs
            def alone(state: TableState) -> Fraction:
                return self.scorer.score(state)[0]

            sources = sorted({e.source for e in extras},
                             key=lambda x: -alone(base_state.with_poster(x, -1)))[:EXTRA_CANDIDATES]
            dests = sorted(range(self.board.n), key=lambda x: -alone(base_state.with_poster(x)))[:EXTRA_CANDIDATES + 1]
            extras = [e for e in extras if e.source in sources and e.to in dests]
        ranked = []
        for e in extras:
            pre = self.with_extra(base_state, e)
            if pre is not None:
                ranked.append((self.scorer.score(pre)[0] - base_score, e))
        ranked.sort(key=lambda x: -x[0])
        picked = [e for _, e in ranked[:EXTRA_CANDIDATES]]
        who = CHARACTER_NAMES[s0.active_character]
        self.notes.append(f"{who}'s extra poster move: the {len(picked)} best on their own are tried, at the end "
                          f"of the turn, with the {EXTRA_BASES} best options without it.")
        out = []
        for to, a, pre, enc, note in plans[:EXTRA_BASES]:
            if pre.ended is not None:
                continue
            for e in picked:
                with_e = self.with_extra(pre, e)
                if with_e is None:
                    continue
                score, expected = self.scorer.score(with_e, enc, a)
                out.append(Option(move_to=to, activation=a, extra=e, score=score, expected=expected, after=with_e,
                                  immediate=enc, search=note or "extra: best few only"))
        return out


def _multisets(k: int, j: int) -> int:
    return comb(k + j - 1, j)


def suggest(board: Board, rules: Rules, dice: Dice, s: TableState, valuer: Valuer,
            goal: Goal | None = None) -> Suggestions:
    """Every legal turn of the active player, best first, scored by the exact following NPC turn (plus
    the bonus of the player's secret objective `goal`, for that player's own phone)."""
    if s.ended is not None:
        raise ValueError("the game is over")
    return _Planner(board, rules, dice, s, valuer, goal=goal).run()


def best_turn(board: Board, rules: Rules, dice: Dice, s: TableState, valuer: Valuer,
              turns: TurnScorer | None = None) -> Option:
    """The suggestions' first option (the same search and ties as suggest()), without the numbers the
    answer shows: for playing games out. `turns` may be kept across calls with the same valuer."""
    if s.ended is not None:
        raise ValueError("the game is over")
    return _Planner(board, rules, dice, s, valuer, turns, lean=True).run().options[0]


def legal_turns(board: Board, rules: Rules, dice: Dice, s: TableState, valuer: Valuer) -> list[Plan]:
    """Every turn the suggestions consider, without the extra poster move, unscored (generation order)."""
    return _Planner(board, rules, dice, s, valuer).plans()
