"""The forecast's rollout policy: the suggestions' best turn, found with far less work (readings
`game-forecast`; issue 25: a forecast that answers on the first view).

A whole game plays some 13 to 18 turns, and the suggestions score each of a turn's 30-odd candidate
turns exactly (every roll of the NPC turn after it, scoring.TurnScorer): most of a game's time. The
rollout policy generates the same candidates (suggest._Planner.plans, the same generation order) and
ranks them by a cheap linear estimate of the same score; it plays the first (ties: the first in
generation order, as the suggestions do), except near the game's end (SPARK within NEAR_END of the
target, or Reputation at 2 or less), where the estimate, which leaves the game's end out, only shortlists
NEAR_END_SHORTLIST candidates and the exact score picks among them. The estimate reads tables worked out
once per NPC placement:

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
"""
from __future__ import annotations

from dataclasses import dataclass

from .game import GameRules
from .model import TableState
from .scoring import TurnScorer
from .suggest import _Planner
from .value import Valuer

SHORTLIST = 1  # candidates scored exactly per turn (1: the estimate alone chooses)
NEAR_END = 20  # SPARK: closer than this to the target, or Reputation at 2 or less, the game may end now
NEAR_END_SHORTLIST = 3
TABLES_KEPT = 20_000


@dataclass(frozen=True, slots=True)
class _Arrivals:
    """One NPC placement's coming NPC turn, as expectations over the 36 plain rolls (weights out of 36)."""
    opp: tuple[int, ...]  # Oppressor arrivals on each space
    civ: tuple[int, ...]  # Civilian arrivals on each space (not blocked by an Oppressor arriving there)
    crowd: tuple[int, ...]  # Civilians standing where an Oppressor arrives, summed over those arrivals
    entry: tuple[int, ...]  # where the round start's NPC enters (only when this NPC turn is the round's last)
    row: tuple[int, ...]  # a poster's future donations on each space (x 6**horizon), summed over the rolls
    office: int  # the same for the office's Civilian arrivals
    touched: tuple[int, ...]  # spaces some NPC may move onto or enter on
    rolls: tuple[tuple[int, tuple[int, ...], tuple[int, ...], int], ...]  # (weight, oppressors, civilians, entry)


class RolloutPolicy:
    """The suggestions' best turn among the `shortlist` candidates a linear estimate ranks first."""
    name = "rollout"

    def __init__(self, game: GameRules, shortlist: int = SHORTLIST):
        from .policies import CACHE_LIMIT, _Scorers

        self.game, self.shortlist, self.limit = game, shortlist, CACHE_LIMIT
        self.scorers = _Scorers(game)
        self.cache: dict[TableState, TableState] = {}
        self.tables: dict[tuple, _Arrivals] = {}
        self.seat_plans: dict[tuple, tuple] = {}
        self.npc_rows: dict[tuple, tuple] = {}
        self.base_ahead: dict[tuple, tuple] = {}
        self.base_parts: dict[int, tuple] = {}
        d, board = game.dice, game.board
        # each face kind of a die: (faces showing it, moves the NPCs, the path it moves the NPCs or the token along)
        self.black_faces, self.red_faces = ([(c, f.endswith("_arrow"), board.path(f.split("_", 1)[0]))
                                             for f, c in d.counts(die).items()] for die in ("black", "red"))
        self.weights = {(b, r): cb * cr for b, cb in d.counts("black").items() for r, cr in d.counts("red").items()}

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
        entering = v.entry_now(s)
        base = self.arrivals(s, t, v, entering)
        planner = _Planner(g.board, g.rules, g.dice, s, v, t, lean=True)
        # the scrap yard's greedy placement (too many placements to try) compares them by the estimate too
        planner.placement_score = lambda pre: self.estimate(pre, v, t, entering, s, base)
        plans = planner.plans()
        est = self.estimates(plans, v, t, entering, s, base)
        ranked = sorted(range(len(plans)), key=lambda i: (-est[i], i))
        # the estimate leaves out the game's end: where this NPC turn may end it, the exact score decides
        near_end = s.funds + NEAR_END >= g.rules.target or s.reputation <= 2
        picked = sorted(ranked[:max(self.shortlist, NEAR_END_SHORTLIST if near_end else 1)])
        best_i, best = picked[0], None
        if len(picked) > 1:
            for i in picked:
                _, a, pre, enc, _ = plans[i]
                score = planner.scorer.score(pre, enc, a)[0]
                if best is None or score > best:
                    best_i, best = i, score
        choice = plans[best_i][2]
        extras = planner.extras(s)
        if extras and choice.ended is None:
            # the extra poster move at the end of the turn: the one the estimate ranks first on the turn
            # chosen, kept when it scores better (exactly, or by the estimate with a shortlist of one)
            _, a, pre, enc, _ = plans[best_i]
            tried = [(self.estimate(with_e, v, t, entering, s, base), k, with_e) for k, e in enumerate(extras)
                     if (with_e := planner.with_extra(pre, e)) is not None]
            if tried:
                top, _, with_e = max(tried, key=lambda x: (x[0], -x[1]))
                if best is None:
                    if top > est[best_i]:
                        choice = with_e
                elif planner.scorer.score(with_e, enc, a)[0] > best:
                    choice = with_e
        return choice

    def arrivals(self, pre: TableState, t: TurnScorer, v: Valuer, entering: str | None) -> _Arrivals:
        key = (pre.oppressors, pre.civilians, pre.entry if entering else -1, v.horizon)
        hit = self.tables.get(key)
        if hit is not None:
            return hit
        n = self.game.board.n
        opp, civ, crowd, entry, row = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
        office = 0
        rolls = []
        reds = []
        civilians, oppressors, start = pre.civilians, pre.oppressors, pre.entry
        for cr, arrow, path in self.red_faces:
            civ_to = tuple([path[x] for x in civilians]) if arrow else civilians
            reds.append((cr, arrow, civ_to, path))
            if civ_to and v.horizon:  # the civilians' future arrivals depend on the red die only
                got, at_office = t.rows(civ_to)
                for x, a in enumerate(got):
                    if a:
                        row[x] += 6 * cr * a
                office += 6 * cr * at_office
        for cb, b_arrow, path in self.black_faces:
            opp_to = tuple([path[x] for x in oppressors]) if b_arrow else ()
            for x in opp_to:
                opp[x] += 6 * cb
            b_entry = start if b_arrow else path[start]
            for cr, arrow, civ_to, r_path in reds:
                w = cb * cr
                if arrow:
                    for x in opp_to:
                        crowd[x] += w * civ_to.count(x)
                    for x in civ_to:
                        if x not in opp_to:
                            civ[x] += w
                    x = b_entry
                else:
                    x = r_path[b_entry]
                if entering:
                    entry[x] += w
                rolls.append((w, opp_to or oppressors, civ_to, x))
        touched = tuple(x for x in range(n) if opp[x] or civ[x] or entry[x])
        out = _Arrivals(opp=tuple(opp), civ=tuple(civ), crowd=tuple(crowd), entry=tuple(entry), row=tuple(row),
                        office=office, touched=touched, rolls=tuple(rolls))
        if len(self.tables) > TABLES_KEPT:
            self.tables.clear()
        self.tables[key] = out
        return out

    def estimates(self, plans: list, v: Valuer, t: TurnScorer, entering: str | None, s0: TableState,
                  base: _Arrivals) -> list[float]:
        """estimate() of every candidate (the same numbers), without its per-call work for the candidates
        that keep the turn's NPCs and office (moves, posters, cards: most of a turn's): the start's parts
        and look-past share are read once, and each such candidate's own parts are only the spaces its
        player left and reached and its posters changed."""
        s_opp, s_civ, s_office, posters0 = s0.oppressors, s0.civilians, s0.office, s0.posters
        a = s0.active
        p0 = s0.players[a]
        n = self.game.board.n
        offices = self.game.board.offices
        rules = self.game.rules
        reward = rules.office_rewards[s_office] if s_office > 0 else 0
        uber_seat = s0.seat_of("uberbot")
        opp, civ, ent, row = base.opp, base.civ, base.entry, base.row
        w_sp, w_rep, w_po, w_of = v.w_spark, v.w_rep, v.w_poster, v.w_office
        d36, e36 = 36 * v.d, 36 * v.e
        looking = v.ahead is not None
        parts0 = None
        ahead_at: dict[int, int] = {}
        groups: dict[tuple, tuple] = {}
        out = []
        for plan in plans:
            pre = plan[2]
            if pre.ended is not None:
                out.append(self.estimate(pre, v, t, entering, s0, base))
                continue
            if pre.oppressors is not s_opp or pre.civilians is not s_civ or pre.office != s_office:
                out.append(self._other(pre, v, t, entering, s0, groups))
                continue
            if parts0 is None:
                hit = self.base_parts.get(id(s0))
                if hit is None or hit[0] is not s0:
                    self.base_parts.clear()
                    hit = self.base_parts[id(s0)] = (s0, self._parts(s0, base, entering, range(n)))
                parts0 = hit[1]
                (funds0, rep0, torn0, fines0), future0, shares0 = parts0
            players, posters = pre.players, pre.posters
            p1 = players[a]
            funds, rep, torn, fines, future = funds0, rep0, torn0, fines0, future0
            spaces = {p0, p1}
            if posters is not posters0:
                for x in range(n):
                    if posters[x] != posters0[x]:
                        spaces.add(x)
                        future += (posters[x] - posters0[x]) * row[x]
            uber = None if uber_seat is None else players[uber_seat]
            for x in spaces:
                f, r, tn, fi = shares0[x]
                funds, rep, torn, fines = funds - f, rep - r, torn - tn, fines - fi
                o, c, e = opp[x], civ[x], ent[x]
                if o or c or e:
                    f, r, tn, fi = _space_parts(x, o, c, e, players.count(x), posters[x], uber, reward, offices, base,
                                                entering, pre)
                    funds, rep, torn, fines = funds + f, rep + r, torn + tn, fines + fi
            future -= torn
            office_part = base.office * rules.office_rewards[max(0, s_office - 2 * fines // 36)]
            value = (w_sp * funds + w_rep * rep) / 36 + (w_po * future + w_of * office_part) / d36
            if looking:
                ahead = ahead_at.get(p1)
                if ahead is None:
                    ahead = ahead_at[p1] = self.ahead(base, pre, v, entering, s0)
                value += w_sp * ahead / e36
            out.append(value)
        return out

    def _other(self, pre: TableState, v: Valuer, t: TurnScorer, entering: str | None, s0: TableState,
               groups: dict[tuple, tuple]) -> float:
        """estimate() of a candidate that moved an NPC or paid into the office (the same number): the
        candidates that leave the same table but for the active player's space (Move the Masses before
        the player's move, with each move) share their parts, worked out for the first of them."""
        key = (pre.oppressors, pre.civilians, pre.posters, pre.funds, pre.reputation, pre.office)
        group = groups.get(key)
        if group is None:
            arr = self.arrivals(pre, t, v, entering)
            totals, future, shares = self._parts(pre, arr, entering, arr.touched)
            group = groups[key] = (pre, arr, totals, future, shares)
        ref, arr, (funds, rep, torn, fines), future, shares = group
        a = s0.active
        p, p_ref = pre.players[a], ref.players[a]
        rules = self.game.rules
        if p != p_ref:
            players, posters = pre.players, pre.posters
            seat = pre.seat_of("uberbot")
            uber = None if seat is None else players[seat]
            reward = rules.office_rewards[pre.office] if pre.office > 0 else 0
            offices = self.game.board.offices
            for x in (p_ref, p):
                sh = shares.get(x)
                if sh is not None:
                    f, r, tn, fi = sh
                    funds, rep, torn, fines = funds - f, rep - r, torn - tn, fines - fi
                o, c, e = arr.opp[x], arr.civ[x], arr.entry[x]
                if o or c or e:
                    f, r, tn, fi = _space_parts(x, o, c, e, players.count(x), posters[x], uber, reward, offices, arr,
                                                entering, pre)
                    funds, rep, torn, fines = funds + f, rep + r, torn + tn, fines + fi
        future -= torn
        office_part = arr.office * rules.office_rewards[max(0, pre.office - 2 * fines // 36)]
        value = (v.w_spark * funds + v.w_rep * rep) / 36 + (v.w_poster * future + v.w_office * office_part) / (36 * v.d)
        if v.ahead is not None:
            value += v.w_spark * self.ahead(arr, pre, v, entering, s0) / (36 * v.e)
        return value

    def estimate(self, pre: TableState, v: Valuer, t: TurnScorer, entering: str | None, s0: TableState,
                 base: _Arrivals) -> float:
        """About E[V after the NPC turn] (in SPARK, up to a constant shared by the turn's candidates) of
        `pre`, one of the turns of the active player from `s0` (only their piece moved)."""
        if pre.ended is not None:
            return v.state_scaled(pre) / v.scale + (1e6 if pre.ended == "success" else -1e6)
        same = pre.oppressors is s0.oppressors and pre.civilians is s0.civilians
        arr = base if same else self.arrivals(pre, t, v, entering)
        if same and pre.office == s0.office:
            # the same NPCs and office: only the spaces the player left, reached or put a poster on differ
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
            row = arr.row
            for x in changed:
                f, r, tn, fi = parts0[2][x]
                funds, rep, torn, fines = funds - f, rep - r, torn - tn, fines - fi
                future += (pre.posters[x] - s0.posters[x]) * row[x]
            (f, r, tn, fi), _, _ = self._parts(pre, arr, entering, changed, False)
            funds, rep, torn, fines = funds + f, rep + r, torn + tn, fines + fi
        else:
            (funds, rep, torn, fines), future, _ = self._parts(pre, arr, entering, arr.touched)
        future -= torn
        office_part = arr.office * self.game.rules.office_rewards[max(0, pre.office - 2 * fines // 36)]
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
            o, c, e = arr.opp[x], arr.civ[x], arr.entry[x]
            if not (o or c or e):
                shares[x] = (0, 0, 0, 0)
                continue
            f, r, tn, fi = shares[x] = _space_parts(x, o, c, e, players_at.get(x, 0), posters[x], uber, reward,
                                                    offices, arr, entering, pre)
            funds, rep, torn, fines = funds + f, rep + r, torn + tn, fines + fi
        future = 0
        if whole:
            for x, here in enumerate(posters):
                if here:
                    future += here * arr.row[x]
        return (funds, rep, torn, fines), future, shares

    def ahead(self, arr: _Arrivals, pre: TableState, v: Valuer, entering: str | None, s0: TableState) -> int:
        """The look-past term after the coming NPC turn (x 36 * e): value.Valuer.ahead_scaled of each roll's
        NPC positions and Entry token, weighted by the roll's chance, with the round start's NPC entered
        first when it comes next. It is a sum over NPCs of each one's own walk, and an NPC's position after
        the roll depends on its own die only, so it is summed NPC by NPC (tables kept per NPC space)."""
        seats, a, rnd = len(pre.players), pre.active, pre.round
        key = (id(v), seats, a, pre.entered, rnd, pre.entry, entering, len(pre.oppressors), len(pre.civilians))
        plan = self.seat_plans.get(key)
        if plan is None or plan[0] is not v:
            if len(self.seat_plans) > TABLES_KEPT:
                self.seat_plans.clear()
            plan = self.seat_plans[key] = (v, self._seat_plan(arr, pre, v, entering))
        if pre.oppressors is s0.oppressors and pre.civilians is s0.civilians:
            # only the active player's piece differs from the turn's start: their share space by space
            hit = self.base_ahead.get(key)
            if hit is None or hit[0] is not s0:
                const, row = 0, None
                for i, ((turns, entry_row), p) in enumerate(zip(plan[1], s0.players)):
                    share = self._share(v, s0, turns, entry_row)
                    if i == a:
                        row = share
                    else:
                        const += share[p]
                if len(self.base_ahead) > TABLES_KEPT:
                    self.base_ahead.clear()
                hit = self.base_ahead[key] = (s0, const, row)
            return hit[1] + hit[2][pre.players[a]]
        total = 0
        npc = self.npc_row
        for (turns, entry_row), p in zip(plan[1], pre.players):
            if entry_row is not None:
                total += entry_row[p]
            if turns:
                for o in pre.oppressors:
                    total -= 2 * npc(v, "black", o, turns)[p]
                for c in pre.civilians:
                    total += npc(v, "red", c, turns)[p]
        return total

    def _share(self, v: Valuer, s: TableState, turns: int, entry_row: list[int] | None) -> list[int]:
        """One seat's look-past share on each space, with the NPCs of `s` (x 36 * e)."""
        row = list(entry_row) if entry_row is not None else [0] * self.game.board.n
        if turns:
            for die, sign, group in (("black", -2, s.oppressors), ("red", 1, s.civilians)):
                for x in group:
                    for y, got in enumerate(self.npc_row(v, die, x, turns)):
                        if got:
                            row[y] += sign * got
        return row

    def _seat_plan(self, arr: _Arrivals, pre: TableState, v: Valuer, entering: str | None) -> list:
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
                    for w, _, _, x in arr.rolls:
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
            for w, _, _, x in arr.rolls:
                for y, got in enumerate(v._entering(die, x, before, i)):
                    if got:
                        row[y] += sign * w * got
            out.append((before + i, row))
        return out

    def npc_row(self, v: Valuer, die: str, start: int, turns: int) -> tuple[int, ...]:
        """An NPC on `start`: its expected encounters on each space over `turns` NPC turns after the coming
        one (x 36 * e), its own die moving it first."""
        key = (id(v), die, start, turns)
        hit = self.npc_rows.get(key)
        if hit is None or hit[0] is not v:
            board = self.game.board
            other = 6
            row = [0] * board.n
            for face, c in self.game.dice.counts(die).items():
                at = board.path(face.split("_", 1)[0])[start] if face.endswith("_arrow") else start
                for y, got in enumerate(v._walk(die, at, turns)):
                    if got:
                        row[y] += other * c * got
            if len(self.npc_rows) > TABLES_KEPT:
                self.npc_rows.clear()
            hit = self.npc_rows[key] = (v, tuple(row))
        return hit[1]


def _space_parts(x: int, o: int, c: int, e: int, people: int, here: int, uber: int | None, reward: int, offices,
                 arr: _Arrivals, entering: str | None, pre: TableState) -> tuple[int, int, int, int]:
    """What the coming NPC turn's arrivals on space `x` do (x 36): funds, Reputation, the torn posters'
    future, office fines; `people` players and `here` posters stand there."""
    doubled = here * (2 if uber == x else 1)
    gift = people + doubled + (reward if x in offices else 0)
    f = c * gift
    r = tn = fi = 0
    if o:
        f -= 2 * people * o
        if people + doubled + arr.crowd[x] // o >= 4:
            r -= o
        tn = here * o * arr.row[x] // 36
        if x in offices:
            fi = o
    if e:
        if entering == "oppressor":
            f -= 2 * people * e
            if people + doubled + pre.civilians.count(x) >= 4:
                r -= e
        elif x not in pre.oppressors:
            f += e * gift
    return f, r, tn, fi
