"""The forecast's rollout policy: the suggestions' best turn, found with far less work (readings
`game-forecast`; issue 25: a forecast that answers on the first view).

A whole game plays some 13 to 18 turns, and the suggestions score each of a turn's 30-odd candidate
turns exactly (every roll of the NPC turn after it, scoring.TurnScorer): most of a game's time. The
rollout policy generates the same candidates (suggest._Planner.plans, the same generation order) and
ranks them by a cheap linear estimate of the same score; it plays the first (ties: the first in
generation order, as the suggestions do), except where the NPC turn after one of the NEAR_END_SHORTLIST
best can end the game (`may_end`, a bound: every Oppressor costing a Reputation, every Civilian donating
on the best space its die can take it to, the round start's NPC too): there the estimate, which leaves the
game's end out, only shortlists them and the exact score picks among them. (Before, the exact score
decided whenever the funds were within NEAR_END SPARK of the target or Reputation at 2 or less:
`RolloutPolicy(near_end=NEAR_END)`, the strength bench's comparison row.) The estimate reads tables worked
out once per NPC placement:

- where the coming NPC turn's dice take the Oppressors and the Civilians (expected arrivals on each
  space, a Civilian sharing its space with an arriving Oppressor counted as blocked), and where the
  round start's NPC enters when this is the round's last NPC turn;
- each poster's expected future donations after the roll (the civilians' arrival rows, over the rolls);
- the look-past term (value.Ahead) after the roll, summed NPC by NPC: an NPC's space after the roll
  depends on its own die only, so each NPC's expected share is kept per space and number of turns.

A candidate's estimate is then its funds and Reputation plus the expected fines, donations and
suspicion of those arrivals on its spaces, its posters' future donations (less the ones expected to be
torn down), the office's and the look-past term. It leaves out a fine or donation capped at 0 or at the
target, the game's end, ArciTech's re-post and Alice Smith's and MT-ρ's choices of roll.
bench/bench_robotariat_strength.py (row "rollout", paired with the suggestions) measures how often the
games it plays succeed, and bench/bench_robotariat_rollout.py how far it moves the forecast of a
position.

The candidates are not built as tables (see _Turn): tests/solvers/robotariat/test_robotariat_rollout.py
holds every candidate, estimate and choice to the plain way (each turn of suggest._Planner.plans built
and estimated on its own).
"""
from __future__ import annotations

from operator import add

from .game import GameRules
from .model import FAILURE, SUCCESS, TableState
from .npc_turn import CIVILIAN, OPPRESSOR, Encounter, RollChances, roll_chances
from .policies import CACHE_LIMIT, _Scorers
from .scoring import ROLL_CHOOSERS, TurnScorer
from .suggest import POSTER_EXHAUSTIVE, _Planner
from .turn import Activation, Extra, apply_activation, moved, with_extra
from .value import Valuer

SHORTLIST = 1  # candidates scored exactly per turn (1: the estimate alone chooses)
NEAR_END = 20  # the earlier rule (RolloutPolicy(near_end=...)): within this many SPARK of the target
NEAR_END_SHORTLIST = 3
TABLES_KEPT = 20_000


# One NPC placement's coming NPC turn, as expectations over the 36 plain rolls (weights out of 36): a plain
# tuple of tuples of whole numbers, like every table the policy keeps, so that the garbage collector stops
# looking at it (a forecast keeps thousands, and each full collection, in any request, would walk them all;
# it leaves tuple subclasses tracked). Its items:
OPP = 0  # Oppressor arrivals on each space
CIV = 1  # Civilian arrivals on each space (not blocked by an Oppressor arriving there)
CROWD = 2  # Civilians standing where an Oppressor arrives, summed over those arrivals
ENTRY = 3  # where the round start's NPC enters (only when this NPC turn is the round's last)
ROW = 4  # a poster's future donations on each space (x 6**horizon), summed over the rolls
OFFICE = 5  # the same for the office's Civilian arrivals
TOUCHED = 6  # spaces some NPC may move onto or enter on
_Arrivals = tuple


class RolloutPolicy:
    """The suggestions' best turn among the `shortlist` candidates a linear estimate ranks first."""
    name = "rollout"

    def __init__(self, game: GameRules, shortlist: int = SHORTLIST, near_end: int | None = None):
        self.game, self.shortlist, self.limit = game, shortlist, CACHE_LIMIT
        self.near_end = near_end  # None: exact where the NPC turn can end the game; else within this many SPARK
        self.scorers = _Scorers(game)
        self.cache: dict[TableState, TableState] = {}
        self.tables: dict[tuple, _Arrivals] = {}
        self.seat_plans: dict[tuple, tuple] = {}
        self.npc_rows: dict[int, dict] = {}
        self.base_parts: dict[int, tuple] = {}
        d, board = game.dice, game.board
        # each face kind of a die: (faces showing it, moves the NPCs, the path it moves the NPCs or the token along)
        self.black_faces, self.red_faces = (tuple((c, f.endswith("_arrow"), board.path(f.split("_", 1)[0]))
                                                  for f, c in d.counts(die).items()) for die in ("black", "red"))
        self.plain_rolls = roll_chances(None, d, lambda b, r: 0)
        self.red_paths = tuple(path for _, arrow, path in self.red_faces if arrow)  # the red faces that move
        self.red_parts: dict[tuple, tuple] = {}
        self.civ_rows: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {}  # (space, horizon): a few hundred at most
        # the roll chances of the tables scored exactly or sampled from (a game's first turns come back in
        # every game); a table's chances are its own, whichever turn reached it
        self.rolled: dict[TableState, RollChances] = {}
        self.scored: dict[TableState, object] = {}  # the rolls the last exact score worked out (scoring._Rolls), by table
        self.entries: dict[int, tuple[tuple[int, int], ...]] = {}
        self.entry_rows: dict[int, tuple] = {}
        self.no_entry = (0,) * board.n
        self.weights = {(b, r): cb * cr for b, cb in d.counts("black").items() for r, cr in d.counts("red").items()}

    def trim(self) -> None:
        """Drop what holds tables and the exact scorer's caches (they only save time); the arrival and
        look-past tables, whole numbers only, stay."""
        self.cache.clear()
        self.scorers = _Scorers(self.game)
        self.rolled = {}
        self.scored = {}
        self.base_parts.clear()

    def choose(self, s: TableState) -> TableState:
        hit = self.cache.get(s)
        if hit is None:
            hit = self._choose(s)
            if len(self.cache) > self.limit:
                self.cache.clear()
            self.cache[s] = hit
        return hit

    def _choose(self, s: TableState) -> TableState:
        g = self.game
        v, t = self.scorers.for_state(s)
        self.scored = {}
        entering = v.entry_now(s)
        base = self.arrivals(s, t, v, entering)
        turn = _Turn(self, s, v, t, entering, base)
        cands, est = turn.candidates()
        if len(self.rolled) > self.limit:
            self.rolled.clear()
        # the estimate leaves out the game's end: where this NPC turn may end it, the exact score decides
        if self.near_end is not None:
            near_end = s.funds + self.near_end >= g.rules.target or s.reputation <= 2
            k = max(self.shortlist, NEAR_END_SHORTLIST if near_end else 1)
        else:
            k = max(self.shortlist, NEAR_END_SHORTLIST)
        best = None
        built: dict[int, TableState] = {}  # the candidates' tables built for the exact score
        if k == 1:  # the best estimate, the first in generation order on a tie
            best_i = max(range(len(cands)), key=est.__getitem__)
        else:  # the k best (a stable sort keeps generation order among ties), scored exactly
            picked = sorted(sorted(range(len(cands)), key=est.__getitem__, reverse=True)[:k])
            best_i = picked[0]
            if self.near_end is None and k > self.shortlist and not turn.any_may_end(picked):
                picked = [min(picked, key=lambda i: (-est[i], i))]  # no game's end to see: the estimate's best
                best_i = picked[0]
            if len(picked) > 1:
                scored: dict[TableState, tuple[int, int]] = {}  # two candidates may leave the same table
                for i in picked:
                    pre = built[i] = turn.build(cands[i])[2]
                    score = scored.get(pre)
                    if score is None:
                        score = scored[pre] = self.exact(t, v, pre)
                    if best is None or score[0] * best[1] > best[0] * score[1]:
                        best_i, best = i, score
        choice = built.get(best_i)
        if choice is None:
            choice = turn.build(cands[best_i])[2]
        if choice.ended is None and s.active_character in ("mr_postman", "wally_st"):
            # the extra poster move at the end of the turn: the one the estimate ranks first on the turn
            # chosen, kept when it scores better (exactly, or by the estimate with a shortlist of one)
            top = turn.best_extra(best_i, choice)
            if top is not None:
                with_e = with_extra(g.rules, choice, top[1])
                if best is None:
                    if top[0] > est[best_i]:
                        choice = with_e
                else:
                    score = self.exact(t, v, with_e)
                    if score[0] * best[1] > best[0] * score[1]:
                        choice = with_e
        return choice

    def shortlist_of(self, s: TableState, k: int) -> list[TableState]:
        """The tables of the `k` candidate turns from `s` the estimate ranks first (ties: generation order), in
        generation order, then, for Mr. Postman and Wally St., each of them with the extra poster move the
        estimate ranks first on it (the suggestions list every plain turn before any extra move: the order of
        their ties). A table two turns leave (a card draw scored like not activating) is listed once."""
        v, t = self.scorers.for_state(s)
        self.scored = {}
        entering = v.entry_now(s)
        turn = _Turn(self, s, v, t, entering, self.arrivals(s, t, v, entering))
        cands, est = turn.candidates()
        plain, extras = [], []
        for i in sorted(sorted(range(len(cands)), key=lambda i: (-est[i], i))[:k]):
            pre = turn.build(cands[i])[2]
            plain.append(pre)
            if pre.ended is None and s.active_character in ("mr_postman", "wally_st"):
                top = turn.best_extra(i, pre)
                if top is not None:
                    extras.append(with_extra(self.game.rules, pre, top[1]))
        return list(dict.fromkeys(plain + extras))

    def may_end(self, pre: TableState) -> bool:
        """Whether the NPC turn after `pre` (with the round start after it, when one comes next) can end the
        game, by a bound: each Oppressor's encounter and the entering one's costing a Reputation; each
        Civilian donating on the best space its die can take it to, the entering Civilian on the best the
        Entry token can stand on, ArciTech's re-post adding a poster where one of them comes."""
        if pre.ended is not None:
            return True
        players_at = [0] * self.game.board.n
        for p in pre.players:
            players_at[p] += 1
        return self.may_end_of(self.entering_after(pre), pre.oppressors, pre.civilians, pre.posters, pre.funds,
                               pre.reputation, pre.office, players_at, pre.where("uberbot"), pre.entry,
                               pre.seat_of("arcitech") is not None)

    def entering_after(self, pre: TableState) -> str | None:
        """The NPC of the round start right after the NPC turn from `pre` (game.next_turn's), or None."""
        g = self.game
        if pre.active == len(pre.players) - 1 and pre.round is not None and pre.round < g.max_rounds \
                and pre.entered < min(pre.round + 1, len(g.entry_track)):
            kind = g.entry_track[pre.entered]
            if len(pre.oppressors if kind == "oppressor" else pre.civilians) < (
                    g.max_oppressors if kind == "oppressor" else g.max_civilians):
                return kind
        return None

    def may_end_of(self, kind: str | None, opp: tuple[int, ...], civ: tuple[int, ...], posters: tuple[int, ...],
                   funds: int, rep: int, office: int, players_at: list[int], uber: int | None, entry: int,
                   arcitech: bool) -> bool:
        """may_end of a table given by its parts (`kind`: the round start's NPC after the NPC turn)."""
        if rep <= len(opp) + (kind == "oppressor"):
            return True
        rules = self.game.rules
        reward = rules.office_rewards[office] if office > 0 else 0
        offices = self.game.board.offices
        paths = self.red_paths
        gain = 0
        for c in civ:  # (every gift is 0 or more: the largest over the paths, 0 with none)
            most = 0
            for path in paths:
                x = path[c]
                got = players_at[x] + posters[x] * (2 if uber == x else 1) + (reward if x in offices else 0)
                if got > most:
                    most = got
            gain += most
        if kind == "civilian":
            gain += max(players_at[x] + posters[x] * (2 if uber == x else 1) + (reward if x in offices else 0)
                        for _, x in self.entry_rolls(entry))
        if arcitech and opp and any(posters):
            # ArciTech puts one torn poster back up anywhere: each Civilian arriving there (the entering one
            # too) may donate one more (two on Überbot's space)
            gain += (2 if uber is not None else 1) * (len(civ) + (kind == "civilian"))
        return funds + gain >= rules.target

    def chances_of(self, pre: TableState) -> RollChances:
        """The roll chances of the NPC turn after `pre` (the turn chosen) where its player chooses the roll
        from every roll's value (Alice Smith, MT-ρ): scoring.TurnScorer's values, kept by table (with
        those the exact score worked out)."""
        hit = self.rolled.get(pre)
        if hit is None:
            results = self.scorers.for_state(pre)[1].rolls(pre)
            hit = self.rolled[pre] = roll_chances(pre.active_character, self.game.dice,
                                                  lambda b, r: results(b, r).scaled)
        return hit

    def rolls_of(self, pre: TableState):
        """scoring.TurnScorer.rolls(pre) with the policy's scorer: the rolls the last exact score worked out for
        `pre`, where it scored it (kept by table: a table's rolls are its own; the NPC turn sampled next starts there)."""
        hit = self.scored.get(pre)
        if hit is None:
            hit = self.scorers.for_state(pre)[1].rolls(pre)
        return hit

    def exact(self, t: TurnScorer, v: Valuer, pre: TableState) -> tuple[int, int]:
        """The suggestions' exact score of `pre` up to their constant, as (numerator, denominator) over
        v.scale: E[V after the NPC turn], its rolls as scoring.TurnScorer.expected weighs them."""
        if pre.ended is not None:
            return v.state_scaled(pre), 1
        results = self.scored[pre] = t.rolls(pre)
        who = pre.active_character
        if who in ROLL_CHOOSERS:
            chances = self.rolled[pre] = roll_chances(who, t.dice, lambda b, r: results(b, r).scaled)
        else:
            chances = self.plain_rolls
        total = 0
        for b, r, w in chances.rolls:
            total += w * results(b, r).scaled
        return total, chances.denominator

    def arrivals(self, pre: TableState, t: TurnScorer, v: Valuer, entering: str | None) -> _Arrivals:
        return self.arrivals_of(pre.oppressors, pre.civilians, pre.entry, t, v, entering)

    def arrivals_of(self, oppressors: tuple[int, ...], civilians: tuple[int, ...], start: int, t: TurnScorer,
                    v: Valuer, entering: str | None) -> _Arrivals:
        """The _Arrivals of the NPCs on `oppressors` and `civilians`, the Entry token on `start`."""
        key = (oppressors, civilians, start if entering else -1, v.horizon)
        hit = self.tables.get(key)
        if hit is not None:
            return hit
        n = self.game.board.n
        opp, civ, crowd = [0] * n, [0] * n, [0] * n
        arrows, row, office, spaces = self.red_part(civilians, t, v)
        touched = set(spaces)
        still = 0  # the black die's X faces: no Oppressor moves, no Civilian is stopped by one arriving
        for cb, b_arrow, path in self.black_faces:
            if not b_arrow:
                still += cb
                continue
            opp_to = [path[x] for x in oppressors]
            on = set(opp_to)
            touched |= on
            for x in opp_to:
                opp[x] += 6 * cb
            for cr, counts, at in arrows:
                w = cb * cr
                for x in opp_to:
                    k = counts[x]
                    if k:
                        crowd[x] += w * k
                for x in at:
                    if x not in on:
                        civ[x] += w * counts[x]
        if still:
            for cr, counts, at in arrows:
                for x in at:
                    civ[x] += still * cr * counts[x]
        if entering:
            entry, at = self.entry_row(start)
            touched.update(at)
        else:
            entry = self.no_entry
        out = (tuple(opp), tuple(civ), tuple(crowd), entry, row, office, tuple(sorted(touched)))
        if len(self.tables) > TABLES_KEPT:
            self.tables.clear()
        self.tables[key] = out
        return out

    def red_part(self, civilians: tuple[int, ...], t: TurnScorer, v: Valuer) -> tuple:
        """What the red die does with the Civilians on `civilians`: for each face that moves them, (its
        faces, how many arrive on each space, the spaces they arrive on); a poster's future donations on each space summed over the
        faces (x 6**horizon) and the same for the office (the civilians' future arrivals depend on the red
        die only); the spaces they may arrive on."""
        key = (civilians, v.horizon)
        hit = self.red_parts.get(key)
        if hit is None:
            row = [0] * self.game.board.n
            office = 0
            arrows = []
            spaces = set()
            for cr, arrow, path in self.red_faces:
                civ_to = tuple([path[x] for x in civilians]) if arrow else civilians
                if arrow:
                    counts = [0] * self.game.board.n
                    for x in civ_to:
                        counts[x] += 1
                    arrows.append((cr, tuple(counts), tuple(sorted(set(civ_to)))))
                    spaces.update(civ_to)
            if v.horizon:  # the sum over the faces is a sum over the Civilians, each one's kept (TurnScorer.rows adds
                for c in civilians:  # up the Civilians' own rows)
                    own, at_office = self.civ_row(c, t, v)
                    row = list(map(add, row, own))
                    office += at_office
            if len(self.red_parts) > TABLES_KEPT:
                self.red_parts.clear()
            hit = self.red_parts[key] = (tuple(arrows), tuple(row), office, tuple(sorted(spaces)))
        return hit

    def civ_row(self, c: int, t: TurnScorer, v: Valuer) -> tuple[tuple[int, ...], int]:
        """A Civilian on `c`: its future arrivals on each space (x 6**horizon) after the coming roll, summed over
        the red faces (x their faces, x 6), and the same at the Recruitment Offices."""
        key = (c, v.horizon)
        hit = self.civ_rows.get(key)
        if hit is None:
            row = [0] * self.game.board.n
            office = 0
            for cr, arrow, path in self.red_faces:
                got, at_office = t.rows((path[c] if arrow else c,))
                for x, a in enumerate(got):
                    if a:
                        row[x] += 6 * cr * a
                office += 6 * cr * at_office
            hit = self.civ_rows[key] = (tuple(row), office)
        return hit

    def entry_row(self, start: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Where the round start's NPC enters after the coming NPC turn, the Entry token on `start`: the
        weight out of 36 on each space, and the spaces."""
        hit = self.entry_rows.get(start)
        if hit is None:
            row = [0] * self.game.board.n
            for w, x in self.entry_rolls(start):
                row[x] += w
            hit = self.entry_rows[start] = (tuple(row), tuple(x for x, w in enumerate(row) if w))
        return hit

    def entry_rolls(self, start: int) -> tuple[tuple[int, int], ...]:
        """(weight out of 36, where the Entry token stands after the roll) of each plain roll, the token on
        `start` (X faces move it: the black die's first)."""
        hit = self.entries.get(start)
        if hit is None:
            hit = self.entries[start] = tuple((cb * cr, (start if b_arrow else path[start]) if arrow
                                               else r_path[start if b_arrow else path[start]])
                                              for cb, b_arrow, path in self.black_faces
                                              for cr, arrow, r_path in self.red_faces)
        return hit

    def estimate(self, pre: TableState, v: Valuer, t: TurnScorer, entering: str | None, s0: TableState,
                 base: _Arrivals) -> float:
        """About E[V after the NPC turn] (in SPARK, up to a constant shared by the turn's candidates) of
        `pre`, one of the turns of the active player from `s0` (only their piece moved)."""
        if pre.ended is not None:
            return v.state_scaled(pre) / v.scale + (1e6 if pre.ended == "success" else -1e6)
        same = pre.oppressors is s0.oppressors and pre.civilians is s0.civilians
        arr = base if same else self.arrivals(pre, t, v, entering)
        if same and pre.office == s0.office and pre.funds == s0.funds and pre.reputation == s0.reputation:
            # the same NPCs and tracks: only the spaces the player left, reached or put a poster on differ
            # (WallyST paying back a contribution made this turn leaves the office as it was, not the funds)
            hit = self.base_parts.get(id(s0))
            if hit is None or hit[0] is not s0:
                self.base_parts.clear()
                hit = self.base_parts[id(s0)] = (s0, self._parts(s0, arr, entering, range(self.game.board.n)))
            parts0 = hit[1]
            changed = {s0.players[s0.active], pre.players[pre.active]}
            if pre.posters is not s0.posters:
                changed.update(x for x, (p, q) in enumerate(zip(pre.posters, s0.posters)) if p != q)
            funds, rep, torn, fines = parts0[0]
            future = parts0[1]
            row = arr[ROW]
            for x in changed:
                f, r, tn, fi = parts0[2][x]
                funds, rep, torn, fines = funds - f, rep - r, torn - tn, fines - fi
                future += (pre.posters[x] - s0.posters[x]) * row[x]
            (f, r, tn, fi), _, _ = self._parts(pre, arr, entering, changed, False)
            funds, rep, torn, fines = funds + f, rep + r, torn + tn, fines + fi
        else:
            (funds, rep, torn, fines), future, _ = self._parts(pre, arr, entering, arr[TOUCHED])
        future -= torn
        office_part = arr[OFFICE] * self.game.rules.office_rewards[max(0, pre.office - 2 * fines // 36)]
        value = (v.w_spark * funds + v.w_rep * rep) / 36 + (v.w_poster * future + v.w_office * office_part) / (36 * v.d)
        if v.ahead is not None:
            value += v.w_spark * self.ahead(arr, pre, v, entering, s0) / (36 * v.e)
        return value

    def _parts(self, pre: TableState, arr: _Arrivals, entering: str | None, spaces, whole: bool = True) -> tuple:
        """((funds, Reputation, torn posters' future, office fines) summed over `spaces`, the posters'
        future donations, each space's own share), all x 36: what the coming NPC turn's arrivals do."""
        rules, board = self.game.rules, self.game.board
        posters, offices = pre.posters, board.offices
        uber = pre.where("uberbot")
        players_at: dict[int, int] = {}
        for p in pre.players:
            players_at[p] = players_at.get(p, 0) + 1
        reward = rules.office_rewards[pre.office] if pre.office > 0 else 0
        funds, rep = (36 * pre.funds, 36 * pre.reputation) if whole else (0, 0)
        torn = fines = 0
        shares = {}
        for x in spaces:
            o, c, e = arr[OPP][x], arr[CIV][x], arr[ENTRY][x]
            if not (o or c or e):
                shares[x] = (0, 0, 0, 0)
                continue
            f, r, tn, fi = shares[x] = _space_parts(x, o, c, e, players_at.get(x, 0), posters[x], uber, reward,
                                                    offices, arr, entering, pre.oppressors, pre.civilians)
            funds, rep, torn, fines = funds + f, rep + r, torn + tn, fines + fi
        future = 0
        if whole:
            for x, here in enumerate(posters):
                if here:
                    future += here * arr[ROW][x]
        return (funds, rep, torn, fines), future, shares

    def ahead(self, arr: _Arrivals, pre: TableState, v: Valuer, entering: str | None, s0: TableState) -> int:
        """The look-past term after the coming NPC turn (x 36 * e): value.Valuer.ahead_scaled of each roll's
        NPC positions and Entry token, weighted by the roll's chance, with the round start's NPC entered
        first when it comes next. It is a sum over NPCs of each one's own walk, and an NPC's position after
        the roll depends on its own die only, so it is summed NPC by NPC (tables kept per NPC space)."""
        total = 0
        for (turns, entry_row), p in zip(self.seat_plan(pre, v, entering), pre.players):
            total += self._seat_term(v, pre.oppressors, pre.civilians, turns, entry_row, p)
        return total

    def seat_plan(self, pre: TableState, v: Valuer, entering: str | None) -> tuple:
        """_seat_plan's answer, kept per turn order position (the same for every NPC placement; a policy's
        valuer is the one of its horizon)."""
        last = pre.round is not None and pre.round >= v.ahead.max_rounds
        kind = None if last else v.next_entry(pre.entered, len(pre.oppressors), len(pre.civilians))
        key = (v.horizon, len(pre.players), pre.active, pre.entry, entering, last, kind)  # what _seat_plan reads
        plan = self.seat_plans.get(key)
        if plan is None:
            if len(self.seat_plans) > TABLES_KEPT:
                self.seat_plans.clear()
            plan = self.seat_plans[key] = tuple((turns, None if row is None else tuple(row))
                                                for turns, row in self._seat_plan(pre, v, entering))
        return plan

    def _seat_term(self, v: Valuer, oppressors: tuple[int, ...], civilians: tuple[int, ...], turns: int,
                   entry_row: list[int] | None, p: int) -> int:
        """One seat's look-past term, its piece on `p` (x 36 * e)."""
        total = 0 if entry_row is None else entry_row[p]
        if turns:
            rows, npc = self.npc_rows_of(v), self.npc_row
            for o in oppressors:
                row = rows.get(("black", o, turns)) or npc(v, "black", o, turns)
                total -= 2 * row[p]
            for c in civilians:
                row = rows.get(("red", c, turns)) or npc(v, "red", c, turns)
                total += row[p]
        return total

    def _seat_plan(self, pre: TableState, v: Valuer, entering: str | None) -> list:
        """For each seat: the NPC turns after the coming one until it moves again, and the entering NPC's
        expected encounters on each space (x 36 * e), or None."""
        seats, a, rnd = len(pre.players), pre.active, pre.round
        n = self.game.board.n
        out = []
        if entering:  # valued after the round start: seat i waits i NPC turns of the next round
            die, sign = ("black", -2) if entering == "oppressor" else ("red", 1)
            for i in range(seats):
                row = None
                if i:
                    row = [0] * n
                    for w, x in self.entry_rolls(pre.entry):
                        for y, got in enumerate(v._walk(die, x, i)):
                            if got:
                                row[y] += sign * w * got
                out.append((i, row))
            return out
        last = rnd is not None and rnd >= v.ahead.max_rounds
        nxt = a + 1
        before = seats - nxt
        kind = None if last else v.next_entry(pre.entered, len(pre.oppressors), len(pre.civilians))
        for i in range(seats):
            if i >= nxt:
                out.append((i - nxt, None))
                continue
            if last or kind is None:
                out.append((before if last else before + i, None))
                continue
            die, sign = ("black", -2) if kind == "oppressor" else ("red", 1)
            row = [0] * n
            for w, x in self.entry_rolls(pre.entry):
                for y, got in enumerate(v._entering(die, x, before, i)):
                    if got:
                        row[y] += sign * w * got
            out.append((before + i, row))
        return out

    def npc_rows_of(self, v: Valuer) -> dict[tuple[str, int, int], tuple[int, ...]]:
        """npc_row's rows for valuer v (the policy's of its horizon), by (die, start, turns)."""
        hit = self.npc_rows.get(v.horizon)
        if hit is None:
            hit = self.npc_rows[v.horizon] = {}
        return hit

    def npc_row(self, v: Valuer, die: str, start: int, turns: int) -> tuple[int, ...]:
        """An NPC on `start`: its expected encounters on each space over `turns` NPC turns after the coming
        one (x 36 * e), its own die moving it first."""
        rows = self.npc_rows_of(v)
        hit = rows.get((die, start, turns))
        if hit is None:
            board = self.game.board
            other = 6
            row = [0] * board.n
            for face, c in self.game.dice.counts(die).items():
                at = board.path(face.split("_", 1)[0])[start] if face.endswith("_arrow") else start
                for y, got in enumerate(v._walk(die, at, turns)):
                    if got:
                        row[y] += other * c * got
            if len(rows) > TABLES_KEPT:
                rows.clear()
            hit = rows[(die, start, turns)] = tuple(row)
        return hit


class _Turn:
    """One turn's candidates, the turns suggest._Planner.plans generates in its order, each with
    RolloutPolicy.estimate's number, without a TableState per candidate (one is built for the turns
    played or scored exactly: `build`).

    A candidate is the table of a group (everything but the active player's space: the turn's start, a
    poster placed on one space, a contribution to the office, one NPC moved by Move the Masses) with the
    active player's piece on one space. A group's parts are summed once without the active player, and
    each candidate adds back the one space its player stands on; the same integer sums as estimate(), so
    the same numbers. Move the Masses' encounter is worked out once per NPC move where the player's own
    space does not take part in it (`masses_after`: npc_turn's encounter rules for the one NPC)."""

    def __init__(self, policy: RolloutPolicy, s0: TableState, v: Valuer, t: TurnScorer, entering: str | None,
                 base: _Arrivals):
        self.policy, self.s0, self.v, self.t, self.entering, self.base = policy, s0, v, t, entering, base
        g = policy.game
        self.board, self.rules = g.board, g.rules
        self.offices, self.rewards = g.board.offices, g.rules.office_rewards
        self.n = g.board.n
        self.ws, self.wr, self.wp, self.wo, self.d36 = v.w_spark, v.w_rep, v.w_poster, v.w_office, 36 * v.d
        a = s0.active
        self.here = s0.players[a]
        people = [0] * g.board.n
        for i, p in enumerate(s0.players):
            if i != a:
                people[p] += 1
        self.people = people
        seat = s0.seat_of("uberbot")
        self.uber_active = seat == a
        self.uber_other = None if seat is None or seat == a else s0.players[seat]
        self.looking = v.ahead is not None
        self.arcitech = s0.seat_of("arcitech") is not None
        self.kind_after: str | None | bool = False  # the round start's NPC after the NPC turn (False: not known yet)
        self._planner: _Planner | None = None
        self.groups: dict[tuple, list] = {}
        self.of: list[tuple[list | None, int]] = []  # each candidate's group and the active player's space
        self.base_ahead_at = self.base_ahead()
        self.g0 = self.group(base, s0.oppressors, s0.civilians, s0.posters, s0.funds, s0.reputation, s0.office,
                             self.base_ahead_at)

    def planner(self) -> _Planner:
        if self._planner is None:
            g = self.policy.game
            p = self._planner = _Planner(g.board, g.rules, g.dice, self.s0, self.v, self.t, lean=True)
            # the scrap yard's greedy placement (too many placements to try) compares them by the estimate too
            p.placement_score = self.placement_value
        return self._planner

    def placement_value(self, pre: TableState) -> float:
        """estimate() of `pre`, the turn's start with posters placed and the player on a space."""
        key = ("posters", pre.posters)
        g = self.groups.get(key)
        if g is None:
            g = self.g0
            for x, (n, n0) in enumerate(zip(pre.posters, self.s0.posters)):
                if n != n0:
                    g = self.with_poster(g, x, n - n0)
            self.groups[key] = g
        return self.value(g, pre.players[self.s0.active])

    def group(self, arr: _Arrivals, opp: tuple[int, ...], civ: tuple[int, ...], posters: tuple[int, ...], funds: int,
              rep: int, office: int, ahead) -> list:
        """[arrivals, oppressors, civilians, posters, funds, Reputation, office, reward, the four sums of
        _parts without the active player, the posters' future, each touched space's share, the look-past
        term by space with its values kept, values by space, the value without the active player, the
        change of the four sums the active player makes on each space (by space and posters there, shared
        with the groups with_poster makes from this one: the same arrivals, NPCs, reward and players)]."""
        people, uber, offices, entering = self.people, self.uber_other, self.offices, self.entering
        reward = self.rewards[office] if office > 0 else 0
        f = r = tn = fi = 0
        shares = {}
        ao, ac, ae = arr[OPP], arr[CIV], arr[ENTRY]
        for x in arr[TOUCHED]:
            if ao[x] or ae[x]:
                sh = shares[x] = _space_parts(x, ao[x], ac[x], ae[x], people[x], posters[x], uber, reward, offices,
                                              arr, entering, opp, civ)
                f, r, tn, fi = f + sh[0], r + sh[1], tn + sh[2], fi + sh[3]
            else:  # Civilians alone arrive: _space_parts' donations only
                here = posters[x]
                got = ac[x] * (people[x] + (2 * here if uber == x else here) + (reward if x in offices else 0))
                shares[x] = (got, 0, 0, 0)
                f += got
        row = arr[ROW]
        future = 0
        for x, here in enumerate(posters):
            if here:
                future += here * row[x]
        return [arr, opp, civ, posters, funds, rep, office, reward, f, r, tn, fi, future, shares, ahead, {}, None, {}]

    def with_poster(self, g0: list, x: int, delta: int = 1) -> list:
        """The group `g0` with `delta` more posters on space x."""
        arr, opp, civ, posters, funds, rep, office, reward, f, r, tn, fi, future, shares, ahead, _, _, deltas = g0
        posters = posters[:x] + (posters[x] + delta,) + posters[x + 1:]
        future += delta * arr[ROW][x]
        old = shares.get(x)
        if old is not None:
            new = _space_parts(x, arr[OPP][x], arr[CIV][x], arr[ENTRY][x], self.people[x], posters[x], self.uber_other,
                               reward, self.offices, arr, self.entering, opp, civ)
            f, r, tn, fi = f + new[0] - old[0], r + new[1] - old[1], tn + new[2] - old[2], fi + new[3] - old[3]
            shares = dict(shares)
            shares[x] = new
        return [arr, opp, civ, posters, funds, rep, office, reward, f, r, tn, fi, future, shares, ahead, {}, None, deltas]

    def value(self, g: list, p: int) -> float:
        """estimate() of the group's table with the active player on space p."""
        memo = g[15]
        hit = memo.get(p)
        if hit is not None:
            return hit
        old = g[13].get(p)
        if old is None:  # no NPC comes to p: the group's own sums (their part of the value kept, g[16])
            plain = g[16]
            if plain is None:
                plain = g[16] = self._plain(g, g[8], g[9], g[10], g[11])
        else:  # the change the player makes on p: the same in every group of the family with as many posters on p
            here = g[3][p]
            key = p + self.n * here
            d = g[17].get(key)
            if d is None:
                arr = g[0]
                new = _space_parts(p, arr[OPP][p], arr[CIV][p], arr[ENTRY][p], self.people[p] + 1, here,
                                   p if self.uber_active else self.uber_other, g[7], self.offices, arr, self.entering,
                                   g[1], g[2])
                d = g[17][key] = (new[0] - old[0], new[1] - old[1], new[2] - old[2], new[3] - old[3])
            fi = g[11] + d[3]  # _plain's arithmetic, inline (the same operations, so the same float)
            plain = (self.ws * (36 * g[4] + g[8] + d[0]) + self.wr * (36 * g[5] + g[9] + d[1])) / 36 + (
                self.wp * (g[12] - (g[10] + d[2])) + self.wo * (g[0][OFFICE] * self.rewards[max(0, g[6] - 2 * fi // 36)])
            ) / self.d36
        if self.looking:  # the look-past term, kept per space by the groups sharing one
            at, terms = g[14]
            term = terms.get(p)
            if term is None:
                v = self.v
                term = terms[p] = v.w_spark * at(p) / (36 * v.e)
            plain += term
        memo[p] = plain
        return plain

    def _plain(self, g: list, f: int, r: int, tn: int, fi: int) -> float:
        """The value without the look-past term, from the sums of _parts (estimate()'s arithmetic)."""
        v = self.v
        funds, rep = 36 * g[4] + f, 36 * g[5] + r
        office_part = g[0][OFFICE] * self.rewards[max(0, g[6] - 2 * fi // 36)]
        return (v.w_spark * funds + v.w_rep * rep) / 36 + (v.w_poster * (g[12] - tn) + v.w_office * office_part) / (
            36 * v.d)

    def base_ahead(self):
        """The look-past term by the active player's space, with the turn's NPCs; `seat_terms` keeps each
        seat's part (the active seat's: None)."""
        if not self.looking:
            return None
        pol, s0, v = self.policy, self.s0, self.v
        plan = self.plan = pol.seat_plan(s0, v, self.entering)
        a = s0.active
        opp, civ, term = s0.oppressors, s0.civilians, pol._seat_term
        self.seat_terms = [None if i == a else term(v, opp, civ, turns, entry_row, p)
                           for i, ((turns, entry_row), p) in enumerate(zip(plan, s0.players))]
        const = self.const = sum(x for x in self.seat_terms if x is not None)
        turns, entry_row = plan[a]
        memo = self.active_terms = {}

        def at(p: int) -> int:
            hit = memo.get(p)
            if hit is None:
                hit = memo[p] = term(v, opp, civ, turns, entry_row, p)
            return const + hit
        return at, {}

    def masses_ahead(self, npc: str, i: int, to: int):
        """The same with one NPC moved to `to`: a sum over NPCs, so only that NPC's part changes."""
        if not self.looking:
            return None
        pol, s0, v = self.policy, self.s0, self.v
        die, sign, start = ("black", -2, s0.oppressors[i]) if npc == OPPRESSOR else ("red", 1, s0.civilians[i])
        rows = pol.npc_rows_of(v)
        row = pol.npc_row
        const = self.const
        for (turns, _), p, x in zip(self.plan, s0.players, self.seat_terms):
            if x is not None and turns:
                new, old = rows.get((die, to, turns)), rows.get((die, start, turns))
                if new is None:
                    new = row(v, die, to, turns)
                if old is None:
                    old = row(v, die, start, turns)
                const += sign * (new[p] - old[p])
        turns = self.plan[s0.active][0]
        base, shift = self.base_ahead_at[0], const - self.const
        if not turns:
            return (lambda p: base(p) + shift), {}
        old, new = row(v, die, start, turns), row(v, die, to, turns)
        return (lambda p: base(p) + shift + sign * (new[p] - old[p])), {}

    def masses_after(self, npc: str, i: int, to: int, q: int) -> tuple:
        """Move the Masses: one NPC steps to `to` and meets that space at once, the active player on q
        (npc_turn.move_npc's encounter, npc_turn._oppressor_meets / _civilian_meets): (oppressors,
        civilians, posters, funds, Reputation, office, ended)."""
        s0 = self.s0
        opp, civ, posters = s0.oppressors, s0.civilians, s0.posters
        funds, rep, office, ended = s0.funds, s0.reputation, s0.office, None
        people = self.people[to] + (to == q)
        uber = q if self.uber_active else self.uber_other
        here = posters[to]
        if npc == OPPRESSOR:
            opp = opp[:i] + (to,) + opp[i + 1:]
            if here * (2 if uber == to else 1) + civ.count(to) + people >= 4:
                rep = max(0, rep - 1)
                if rep == 0:
                    return opp, civ, posters, funds, rep, office, FAILURE
            if people:
                funds = max(0, funds - 2 * people)
            if here:
                posters = posters[:to] + (0,) + posters[to + 1:]
            if to in self.offices:
                office = max(0, office - 2)
            return opp, civ, posters, funds, rep, office, None
        civ = civ[:i] + (to,) + civ[i + 1:]
        if to not in opp:
            target = self.rules.target
            for gift in (people, here * (2 if uber == to else 1),
                         self.rewards[office] if to in self.offices and office > 0 else 0):
                if gift:
                    funds += gift
                    if funds >= target:
                        ended = SUCCESS
                        break
        return opp, civ, posters, funds, rep, office, ended

    def candidates(self) -> tuple[list[tuple], list[float]]:
        """The candidates (to, when, activation kind, its parameter) in _Planner.plans' order, and their
        estimates."""
        s0, board, rules, v = self.s0, self.board, self.rules, self.v
        kinds, neighbours = board.kinds, board.neighbours
        here, opp0 = self.here, s0.oppressors
        value, g0, groups, of = self.value, self.g0, self.groups, self.of
        cands: list[tuple] = []
        est: list[float] = []
        add_cand, add_est, add_of = cands.append, est.append, of.append
        targets = masses = moves = posted = None
        aheads: dict[tuple, tuple] = {}  # Move the Masses' look-past terms, by NPC move
        for to in (here,) + neighbours[here]:
            add_cand((to, None, None, None))
            add_est(value(g0, to))
            add_of((g0, to))
            for space, when in (((here, "here"),) if to == here else ((here, "before_move"), (to, "after_move"))):
                if space in opp0:
                    continue
                kind = kinds[space]
                p = here if when == "here" else to
                if kind == "sabotage" or kind == "upgrade":
                    add_cand((to, when, kind, None))
                    add_est(value(g0, p))
                    add_of((g0, p))
                elif kind == "poster":
                    if s0.poster_supply_left(rules) < 1:
                        continue
                    if targets is None:
                        targets = range(board.n) if board.n <= POSTER_EXHAUSTIVE else self.planner().poster_targets(s0)[0]
                    if posted is None:
                        posted = [None] * board.n  # the group of a poster placed on each space
                    for x in targets:
                        g = posted[x]
                        if g is None:
                            g = posted[x] = self.with_poster(g0, x)
                        add_cand((to, when, kind, x))
                        add_est(value(g, p))
                        add_of((g, p))
                elif kind == "recruitment_office":
                    top = min(rules.contribute_max, s0.funds, rules.office_max - s0.office)
                    for c in range(1, top + 1):
                        g = groups.get(("office", c))
                        if g is None:
                            g = groups[("office", c)] = self.group(self.base, s0.oppressors, s0.civilians, s0.posters,
                                                                   s0.funds - c, s0.reputation, s0.office + c,
                                                                   self.base_ahead_at)
                        add_cand((to, when, kind, c))
                        add_est(value(g, p))
                        add_of((g, p))
                elif kind == "move_the_masses":
                    if moves is None:
                        moves, seen = [], set()
                        for npc, group in ((OPPRESSOR, s0.oppressors), (CIVILIAN, s0.civilians)):
                            for i, x in enumerate(group):
                                for y in neighbours[x]:
                                    if (npc, x, y) not in seen:  # NPCs of a kind on one space are alike
                                        seen.add((npc, x, y))
                                        moves.append((npc, i, y))
                    tried = moves
                    if board.n > POSTER_EXHAUSTIVE:
                        if masses is None:
                            masses = self.planner().best_masses(
                                [(Activation(kind=kind, space=space, when=when, npc=npc, npc_index=i, npc_to=y), None)
                                 for npc, i, y in moves])
                        if when != "here":
                            tried = [m for m in moves if m in masses]
                    q = to if when == "after_move" else here  # where the player stands as the NPC moves
                    for npc, i, y in tried:
                        add_cand((to, when, kind, (npc, i, y)))
                        key = (npc, i, y, y == q)  # the player's space counts only where the NPC arrives
                        g = groups.get(key)
                        if g is None:
                            opp, civ, posters, funds, rep, office, ended = self.masses_after(npc, i, y, q)
                            if ended is not None:
                                g = groups[key] = [v.scaled(funds, rep, office, posters, civ, ended) / v.scale
                                                   + (1e6 if ended == SUCCESS else -1e6)]
                            else:
                                arr = self.policy.arrivals_of(opp, civ, s0.entry, self.t, v, self.entering)
                                ahead = aheads.get((npc, i, y))  # the look-past term: the move's, whatever q
                                if ahead is None:
                                    ahead = aheads[(npc, i, y)] = self.masses_ahead(npc, i, y)
                                g = groups[key] = self.group(arr, opp, civ, posters, funds, rep, office, ahead)
                        if len(g) == 1:  # the encounter ended the game: the player stays put
                            add_est(g[0])
                            add_of((None, p))
                        else:
                            add_est(value(g, p))
                            add_of((g, p))
                elif kind == "scrap_yard":
                    base = s0 if when != "after_move" else moved(s0, to)
                    for act, _ in self.planner().scrap_yard(base, space, when):
                        add_cand((to, when, kind, act))
                        g = groups.get(("scrap", act.placement))
                        if g is None:
                            g = g0
                            for x, count in act.placement:
                                g = self.with_poster(g, x, count)
                            groups[("scrap", act.placement)] = g
                        add_est(value(g, p))
                        add_of((g, p))
        return cands, est

    def any_may_end(self, picked: list[int]) -> bool:
        for i in picked:
            if self.may_end(i):
                return True
        return False

    def may_end(self, i: int) -> bool:
        """RolloutPolicy.may_end of candidate i's table, from its group."""
        g, p = self.of[i]
        if g is None:  # Move the Masses' encounter ended the game
            return True
        s0 = self.s0
        if self.kind_after is False:
            self.kind_after = self.policy.entering_after(s0)
        players_at = list(self.people)
        players_at[p] += 1
        return self.policy.may_end_of(self.kind_after, g[1], g[2], g[3], g[4], g[5], g[6], players_at,
                                      p if self.uber_active else self.uber_other, s0.entry, self.arcitech)

    def best_extra(self, i: int, pre: TableState) -> tuple[float, Extra] | None:
        """Candidate i's table `pre` with the active player's extra poster move (suggest._Planner.extras, in
        its order, those possible on `pre`): (estimate, extra) of the best, the first on a tie; None when
        none is possible."""
        g, p = self.of[i]
        who, n = self.s0.active_character, self.board.n
        best = None
        if who == "mr_postman":
            for source in range(n):
                if not self.s0.posters[source] or not pre.posters[source]:
                    continue
                taken = self.with_poster(g, source, -1)
                for to in range(n):
                    if to != source:
                        x = self.value(self.with_poster(taken, to), p)
                        if best is None or x > best[0]:
                            best = (x, source, to)
            return None if best is None else (best[0], Extra(ability=who, to=best[2], source=best[1]))
        s0, rules = self.s0, self.rules
        if s0.office < 1 or s0.poster_supply_left(rules) < 1 or pre.office < 1 or pre.poster_supply_left(rules) < 1:
            return None
        paid = self.group(g[0], g[1], g[2], g[3], g[4], g[5], g[6] - 1, g[14])
        for to in range(n):
            x = self.value(self.with_poster(paid, to), p)
            if best is None or x > best[0]:
                best = (x, to)
        return best[0], Extra(ability=who, to=best[1])

    def build(self, cand: tuple) -> tuple[int, Activation | None, TableState, Encounter | None]:
        """The candidate's (move_to, activation, table after the turn, Move the Masses' encounter), as
        _Planner.plans makes it."""
        to, when, kind, x = cand
        s0 = self.s0
        if kind is None:
            return to, None, moved(s0, to), None
        space = to if when == "after_move" else self.here
        if kind == "scrap_yard":
            act = x
        elif kind == "poster":
            act = Activation(kind=kind, space=space, when=when, place_on=x)
        elif kind == "recruitment_office":
            act = Activation(kind=kind, space=space, when=when, contribute=x)
        elif kind == "move_the_masses":
            act = Activation(kind=kind, space=space, when=when, npc=x[0], npc_index=x[1], npc_to=x[2])
        else:
            act = Activation(kind=kind, space=space, when=when)
        after, enc = apply_activation(self.board, self.rules, s0 if when != "after_move" else moved(s0, to), act)
        if when == "before_move" and after.ended is None:
            after = moved(after, to)
        return to, act, after, enc


def _space_parts(x: int, o: int, c: int, e: int, people: int, here: int, uber: int | None, reward: int, offices,
                 arr: _Arrivals, entering: str | None, oppressors: tuple[int, ...],
                 civilians: tuple[int, ...]) -> tuple[int, int, int, int]:
    """What the coming NPC turn's arrivals on space `x` do (x 36): funds, Reputation, the torn posters'
    future, office fines; `people` players and `here` posters stand there, the NPCs before the roll on
    `oppressors` and `civilians`."""
    doubled = here * (2 if uber == x else 1)
    gift = people + doubled + (reward if x in offices else 0)
    f = c * gift
    r = tn = fi = 0
    if o:
        f -= 2 * people * o
        if people + doubled + arr[CROWD][x] // o >= 4:
            r -= o
        tn = here * o * arr[ROW][x] // 36
        if x in offices:
            fi = o
    if e:
        if entering == "oppressor":
            f -= 2 * people * e
            if people + doubled + civilians.count(x) >= 4:
                r -= e
        elif x not in oppressors:
            f += e * gift
    return f, r, tn, fi
