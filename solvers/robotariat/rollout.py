"""The forecast's rollout policy: the suggestions' best turn, found with far less work (readings
`game-forecast`; issue 25: a forecast that answers on the first view).

A whole game plays some 13 to 18 turns, and the suggestions score each of a turn's 30-odd candidate
turns exactly (every roll of the NPC turn after it, scoring.TurnScorer): most of a game's time. The
rollout policy ranks the same candidates (suggest._Planner.plans, the same generation order) with a
cheap linear estimate of the same score, then scores only the `shortlist` best of them exactly and plays
the best of those (ties: the first in generation order, as the suggestions do). The estimate reads
tables worked out once per NPC placement from the TurnScorer's roll plans:

- where the coming NPC turn's dice take the Oppressors and the Civilians (expected arrivals on each
  space, a Civilian sharing its space with an arriving Oppressor counted as blocked), and where the
  round start's NPC enters when this is the round's last NPC turn;
- each poster's expected future donations after the roll (the plans' rows, averaged over the rolls).

A candidate's estimate is then its funds and Reputation plus the expected fines, donations and
suspicion of those arrivals on its spaces, its posters' future donations (less the ones expected to be
torn down), the office's, and the look-past term of the table as it stands. What it leaves out (a
fine or donation capped at 0 or at the target, ArciTech's re-post, Alice Smith's and MT-ρ's choices
of roll) is what the exact score of the shortlist puts back; bench/bench_robotariat_strength.py
measures that the games it plays end like the suggestions' (row "rollout").
"""
from __future__ import annotations

from dataclasses import dataclass

from .game import GameRules
from .model import TableState
from .scoring import TurnScorer
from .suggest import _Planner
from .value import Valuer

SHORTLIST = 3  # candidates scored exactly per turn
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


class RolloutPolicy:
    """The suggestions' best turn among the `shortlist` candidates a linear estimate ranks first."""
    name = "rollout"

    def __init__(self, game: GameRules, shortlist: int = SHORTLIST):
        from .policies import CACHE_LIMIT, _Scorers

        self.game, self.shortlist, self.limit = game, shortlist, CACHE_LIMIT
        self.scorers = _Scorers(game)
        self.cache: dict[TableState, TableState] = {}
        self.tables: dict[tuple, _Arrivals] = {}
        d = game.dice
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
        planner = _Planner(g.board, g.rules, g.dice, s, v, t, lean=True)
        plans = planner.plans()
        entering = v.entry_now(s)
        ranked = sorted(range(len(plans)), key=lambda i: (-self.estimate(plans[i][2], v, t, entering), i))
        picked = sorted(ranked[:self.shortlist])
        best_i, best = None, None
        for i in picked:
            _, a, pre, enc, _ = plans[i]
            score = planner.scorer.score(pre, enc, a)[0]
            if best is None or score > best:
                best_i, best = i, score
        choice = plans[best_i][2]
        extras = planner.extras(s)
        if extras and choice.ended is None:
            # the extra poster move, as the suggestions try it: on top of the best turns found
            bases = sorted(picked, key=lambda i: -planner.scorer.score(plans[i][2], plans[i][3], plans[i][1])[0])
            for o in planner.extra_options([plans[i] for i in bases], extras):
                if o.score > best:
                    best, choice = o.score, o.after
        return choice

    def arrivals(self, pre: TableState, t: TurnScorer, v: Valuer, entering: str | None) -> _Arrivals:
        key = (pre.oppressors, pre.civilians, pre.entry if entering else None, v.horizon)
        hit = self.tables.get(key)
        if hit is not None:
            return hit
        board = self.game.board
        n = board.n
        opp, civ, crowd, entry, row = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
        office = 0
        for (b, r), plan in t.plans(pre).items():
            w = self.weights.get((b, r), 0)
            if not w:
                continue
            for is_opp, x in plan.queue:
                if is_opp:
                    opp[x] += w
                    crowd[x] += w * plan.civilians_at.get(x, 0)
                elif x not in plan.oppressor_on:
                    civ[x] += w
            if entering:
                x = pre.entry
                for face in (b, r):
                    if not face.endswith("_arrow"):
                        x = board.path(face.split("_", 1)[0])[x]
                entry[x] += w
            if plan.civilians:
                for x, a in enumerate(plan.poster_row):
                    if a:
                        row[x] += w * a
                office += w * plan.office_arrivals
        touched = tuple(x for x in range(n) if opp[x] or civ[x] or entry[x])
        out = _Arrivals(opp=tuple(opp), civ=tuple(civ), crowd=tuple(crowd), entry=tuple(entry), row=tuple(row),
                        office=office, touched=touched)
        if len(self.tables) > TABLES_KEPT:
            self.tables.clear()
        self.tables[key] = out
        return out

    def estimate(self, pre: TableState, v: Valuer, t: TurnScorer, entering: str | None) -> float:
        """About E[V after the NPC turn] (in SPARK, up to a constant shared by the turn's candidates)."""
        if pre.ended is not None:
            return v.state_scaled(pre) / v.scale + (1e6 if pre.ended == "success" else -1e6)
        arr = self.arrivals(pre, t, v, entering)
        rules, board = self.game.rules, self.game.board
        posters, offices = pre.posters, board.offices
        uber = pre.where("uberbot")
        players_at: dict[int, int] = {}
        for p in pre.players:
            players_at[p] = players_at.get(p, 0) + 1
        civ_now: dict[int, int] = {}
        for c in pre.civilians:
            civ_now[c] = civ_now.get(c, 0) + 1
        reward = rules.office_rewards[pre.office]
        funds = 36 * pre.funds
        rep = 36 * pre.reputation
        torn = 0  # future donations of the posters expected to be torn down (x 36 * 6**horizon)
        office_fines = 0
        for x in arr.touched:
            people = players_at.get(x, 0)
            here = posters[x]
            doubled = here * (2 if uber == x else 1)
            gift = people + doubled + (reward if x in offices and pre.office > 0 else 0)
            o = arr.opp[x]
            if o:
                funds -= 2 * people * o
                if people + doubled + arr.crowd[x] // o >= 4:
                    rep -= o
                torn += here * o * arr.row[x] // 36
                if x in offices:
                    office_fines += o
            funds += arr.civ[x] * gift
            e = arr.entry[x]
            if e:
                if entering == "oppressor":
                    funds -= 2 * people * e
                    if people + doubled + civ_now.get(x, 0) >= 4:
                        rep -= e
                elif x not in pre.oppressors:
                    funds += e * gift
        future = -torn
        for x, here in enumerate(posters):
            if here:
                future += here * arr.row[x]
        office_part = arr.office * rules.office_rewards[max(0, pre.office - 2 * office_fines // 36)]
        w = v
        value = (w.w_spark * funds + w.w_rep * rep) / 36 + (w.w_poster * future + w.w_office * office_part) / (36 * w.d)
        if w.ahead is not None and not entering:
            value += w.w_spark * w.ahead_scaled(pre.oppressors, pre.civilians, pre.players, pre.entry, pre.entered,
                                                pre.round, pre.active + 1) / w.e
        return value
