"""The expected outcome of the NPC turn after a player's turn, for many candidate turns at once.

Suggestions, the policies and the whole-game forecast score every turn a player could take by
E[V after the NPC turn that follows] (value.py). npc_turn() gives that turn in full (every encounter,
every resulting state); this module gives the same numbers without building them, because a
suggestion scores tens of candidate turns that share the NPCs' positions:

- the NPCs' moves for each face-kind pair depend only on where the NPCs stand, so they are worked
  out once per NPC placement (a `RollPlan`), with the civilians' future-arrival rows summed;
- a roll then only reads the spaces the NPCs move onto, and the future-donation term of V is linear
  in the posters (value.py), so V after the roll is the posters' dot product with the plan's row
  minus what the encounters tore down.

Exactly the numbers npc_turn gives, choices inside the NPC turn included (ArciTech's re-post weighs
each branch's V the same way): tests/solvers/robotariat/test_robotariat_scoring.py holds the two together.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from operator import add

from .board import Board
from .model import FAILURE, SUCCESS, Dice, Rules, TableState, face_colour, is_arrow
from .npc_turn import Encounter, RollChances, roll_chances
from .objective_advice import Goal
from .value import Valuer

ROLL_CHOOSERS = ("alice_smith", "mt_rho")
# how a roll's V was made, for reusing it on tables that differ only in posters away from the roll's NPCs:
# the game ended in the NPC turn; no round start next (or its entry changed no poster's value); the round
# start's Civilian entered (its future arrivals count every poster); the round start ended the game
ENDED, PLAIN, CIVILIAN_ENTERED, ENTRY_ENDED = range(4)
MEMO_LIMIT = 50_000  # the abilities whose roll distribution depends on each roll's value
NO_BONUS = Fraction(0)
AHEAD_PARTS_LIMIT = 4096  # seat order contexts kept (two rows of the board's size each; the forecast's scorers live long)


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ costs a call per field (tens per table)
class RollPlan:
    """One face-kind pair moving the NPCs from one placement: where they end, who meets what."""
    black: str
    red: str
    oppressors: tuple[int, ...]
    civilians: tuple[int, ...]
    queue: tuple[tuple[bool, int], ...]  # (is an oppressor, space) in the order the encounters resolve
    civilians_at: dict[int, int]  # civilians on each space they stand on after the move
    oppressor_on: frozenset[int]
    tears: bool  # an oppressor moves (so posters may be torn down)
    poster_row: tuple[int, ...]  # sum over civilians of their future arrivals at each space (x 6**horizon)
    office_arrivals: int  # the same, summed over the Recruitment Offices
    visited: tuple[int, ...] = ()  # the spaces the NPCs move onto (where posters change the encounters)


@dataclass(slots=True)  # not frozen, as RollPlan (one per table scored); never changed once made
class Expectation:
    """E[...] after the NPC turn, as whole-number sums over `denominator` (V over denominator * scale,
    future donations over denominator * 6**horizon)."""
    denominator: int
    value: int
    funds: int
    reputation: int
    office: int
    posters_junked: int
    reputation_loss: int  # weight of the rolls that end below the starting Reputation
    fine: int  # weight of the rolls with a fine (or the turn's own Move the Masses fined)
    success: int
    failure: int
    future: int
    objective: Fraction = Fraction(0)  # weighted sum of a secret objective's bonus (objective_advice.Goal)
    ahead: int = 0  # the part of `value` that looks past the NPC turn (value.Ahead), over denominator * scale

    def as_fractions(self, start: TableState, scale: int, d: int, value_before: Fraction) -> dict[str, Fraction]:
        """The suggestion's `expected` block: deltas against `start`, chances, the score."""
        n = self.denominator
        return {"score": Fraction(self.value, n * scale) - value_before,
                "funds_delta": Fraction(self.funds, n) - start.funds,
                "reputation_delta": Fraction(self.reputation, n) - start.reputation,
                "office_delta": Fraction(self.office, n) - start.office,
                "posters_junked": Fraction(self.posters_junked, n),
                "p_reputation_loss": Fraction(self.reputation_loss, n), "p_fine": Fraction(self.fine, n),
                "p_success": Fraction(self.success, n), "p_failure": Fraction(self.failure, n),
                "future_donations": Fraction(self.future, n * d), "ahead": Fraction(self.ahead, n * scale)}


@dataclass(slots=True)
class _RollResult:
    scaled: int
    funds: int
    reputation: int
    office: int
    junked: int
    fined: bool
    ended: str | None
    future: int
    ahead: int = 0  # the look-past part of `scaled`
    # ArciTech's re-post in this roll: (the tearing Oppressor's place in the roll's encounter queue, which is its
    # index among the Oppressors as they lead the queue, and the space the poster goes back up on), or None
    # (forecast.rolled replays the roll with it)
    repost: tuple[int, int] | None = None


@dataclass
class TurnScorer:
    """Scores pre-NPC-turn states of one board, rules, dice and valuer (caches kept across calls)."""
    board: Board
    rules: Rules
    dice: Dice
    valuer: Valuer
    _plans: dict[tuple, dict[tuple[str, str], RollPlan]] = field(default_factory=dict)
    _memo: dict = field(default_factory=dict)  # npc_turn's roll memo, for the ArciTech rolls
    _rows: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = field(default_factory=dict)  # by civilians
    _plain: RollChances | None = None  # the roll chances of a player without a roll-choosing ability
    _rolls_memo: dict = field(default_factory=dict)  # a roll's result, by what its encounters read
    _row_order: dict[tuple[int, ...], list[int]] = field(default_factory=dict)  # spaces by a poster's value
    _entry_after: dict[tuple[str, str], tuple[int, ...]] = field(default_factory=dict)  # Entry token, after a roll
    _nonzero: dict[tuple[int, ...], list[tuple[int, int]]] = field(default_factory=dict)  # posters' spaces
    _opp_parts: dict[tuple[int, ...], list[tuple]] = field(default_factory=dict)  # RollPlan parts, by placement
    _civ_parts: dict[tuple[int, ...], list[tuple]] = field(default_factory=dict)
    _same_ids: dict[tuple, int] = field(default_factory=dict)  # the memo's table part, as a number (hashed once)
    _next_id: int = 0
    _aheads: dict[tuple, _AheadParts] = field(default_factory=dict)  # look-past shares, by seat order context
    _ahead_others: dict[tuple, int] = field(default_factory=dict)  # _AheadParts.share's sums over the seats not moving

    def plans(self, s: TableState) -> dict[tuple[str, str], RollPlan]:
        """The RollPlan of every face-kind pair the NPC turn from `s` can show (Alice Smith's two paths too)."""
        key = (s.oppressors, s.civilians)
        hit = self._plans.get(key)
        if hit is not None:
            return hit
        # the black die moves the oppressors and the red die the civilians: each die's part worked out once
        # per placement of its NPCs (Move the Masses' candidates move one NPC and share the other group's)
        opp_parts = self._opp_parts.get(s.oppressors)
        if opp_parts is None:
            opp_parts = self._opp_parts[s.oppressors] = self.opp_parts(s.oppressors)
        civ_parts = self._civ_parts.get(s.civilians)
        if civ_parts is None:
            civ_parts = self._civ_parts[s.civilians] = self.civ_parts(s.civilians)
        out = {}
        for b, opp, opp_queue, opp_on, tears, opp_seen in opp_parts:
            for r, civ, civ_queue, civ_at, rows, civ_seen in civ_parts:
                out[(b, r)] = RollPlan(black=b, red=r, oppressors=opp, civilians=civ, queue=opp_queue + civ_queue,
                                       civilians_at=civ_at, oppressor_on=opp_on, tears=tears, poster_row=rows[0],
                                       office_arrivals=rows[1], visited=tuple(sorted(opp_seen | civ_seen)))
        if len(self._plans) > MEMO_LIMIT:
            self._opp_parts.clear()
            self._civ_parts.clear()
        self._plans[key] = out
        return out

    def opp_parts(self, oppressors: tuple[int, ...]) -> list[tuple]:
        blacks = set(self.dice.counts("black")) | {"yellow_arrow", "blue_arrow"}  # Alice Smith's two paths too
        board = self.board
        out = []
        for b in sorted(blacks):
            opp = oppressors
            if is_arrow(b):
                path = board.path(face_colour(b))
                opp = tuple([path[p] for p in opp])
                out.append((b, opp, tuple([(True, x) for x in opp]), frozenset(opp), bool(opp), set(opp)))
            else:
                out.append((b, opp, (), frozenset(opp), False, set()))
        return out

    def civ_parts(self, civilians: tuple[int, ...]) -> list[tuple]:
        board = self.board
        out = []
        for r in self.dice.counts("red"):
            civ = civilians
            moved = is_arrow(r)
            if moved:
                path = board.path(face_colour(r))
                civ = tuple([path[c] for c in civ])
            civ_at: dict[int, int] = {}
            for c in civ:
                civ_at[c] = civ_at.get(c, 0) + 1
            out.append((r, civ, tuple([(False, x) for x in civ]) if moved else (), civ_at, self.rows(civ),
                        set(civ) if moved else set()))
        return out

    def rows(self, civ: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        """The civilians' future arrivals from `civ` on each space, summed (x 6**horizon), and at the
        Recruitment Offices: the same for every roll that leaves them there."""
        rows = self._rows.get(civ)
        if rows is None:
            board, v = self.board, self.valuer
            row = [0] * board.n
            office = 0
            if v.horizon:
                for c in civ:
                    arrivals = v.arrivals(c)
                    row = list(map(add, row, arrivals))
                    office += sum([arrivals[o] for o in board.offices])
            rows = self._rows[civ] = (tuple(row), office)
        return rows

    def expected(self, pre: TableState, start: TableState, immediate: Encounter | None = None,
                 goal: Goal | None = None) -> Expectation:
        """E[...] after the NPC turn from `pre` (the table once the player's turn is done); `start` is the
        table before that turn (the deltas and the Reputation-loss chance are against it), `immediate`
        Move the Masses' encounter during the turn (its fine and torn posters count for the turn)."""
        v = self.valuer
        pre_junked = immediate.posters_junked if immediate else 0
        pre_fine = bool(immediate and immediate.fined_players)
        if pre.ended is not None:
            scaled = v.state_scaled(pre)  # over: no look-past term
            bonus = Fraction(0) if goal is None else goal.roll_term(
                reputation=pre.reputation, ended=pre.ended, office=pre.office, junked=pre_junked,
                oppressors=pre.oppressors)
            return Expectation(denominator=1, value=scaled, funds=pre.funds, reputation=pre.reputation,
                               office=pre.office, posters_junked=pre_junked,
                               reputation_loss=int(pre.reputation < start.reputation), fine=int(pre_fine),
                               success=int(pre.ended == SUCCESS), failure=int(pre.ended == FAILURE), future=0,
                               objective=bonus)
        results = self.rolls(pre)
        who = pre.active_character
        if who in ROLL_CHOOSERS:
            chances = roll_chances(who, self.dice, lambda b, r: results(b, r).scaled)
        else:
            if self._plain is None:
                self._plain = roll_chances(None, self.dice, lambda b, r: 0)
            chances = self._plain
        value = funds = rep = office = junked = rep_loss = fine = success = failure = future = ahead = 0
        bonus = NO_BONUS
        plans = self.plans(pre) if goal is not None else None
        for b, r, w in chances.rolls:
            res = results(b, r)
            if goal is not None:
                bonus += w * goal.roll_term(reputation=res.reputation, ended=res.ended, office=res.office,
                                            junked=pre_junked + res.junked, oppressors=plans[(b, r)].oppressors)
            value += w * res.scaled
            ahead += w * res.ahead
            funds += w * res.funds
            rep += w * res.reputation
            office += w * res.office
            junked += w * (pre_junked + res.junked)
            if res.reputation < start.reputation:
                rep_loss += w
            if res.fined or pre_fine:
                fine += w
            if res.ended == SUCCESS:
                success += w
            elif res.ended == FAILURE:
                failure += w
            else:
                future += w * res.future
        return Expectation(denominator=chances.denominator, value=value, funds=funds, reputation=rep, office=office,
                           posters_junked=junked, reputation_loss=rep_loss, fine=fine, success=success,
                           failure=failure, future=future, objective=bonus, ahead=ahead)

    def rolls(self, pre: TableState) -> _Rolls:
        """A function (black, red) -> _RollResult for the NPC turn from `pre`, each roll worked out once."""
        return _Rolls(self, pre)

    def same_id(self, pre: TableState) -> int:
        """A number for what the roll memo's key reads of `pre` besides the posters (never reused)."""
        same = (pre.oppressors, pre.civilians, pre.players, pre.characters, pre.funds, pre.reputation, pre.office,
                pre.entry, pre.active, pre.round)
        ids = self._same_ids
        got = ids.get(same)
        if got is None:
            if len(ids) > MEMO_LIMIT:
                ids.clear()  # numbers are never handed out twice: a cleared table only loses reuse
            self._next_id += 1
            got = ids[same] = self._next_id
        return got

    def ahead_parts(self, players: tuple[int, ...], entered: int, rnd: int | None, next_seat: int) -> _AheadParts:
        key = (players, entered, rnd, next_seat)
        hit = self._aheads.get(key)
        if hit is None:
            if len(self._aheads) > AHEAD_PARTS_LIMIT:
                self._aheads.clear()
            hit = self._aheads[key] = _AheadParts(self.valuer, players, entered, rnd, next_seat, self._ahead_others)
        return hit


class _AheadParts:
    """value.Valuer.ahead_scaled for one seat order context (the players' spaces, the NPCs entered, the round,
    the seat moving next), NPC by NPC. The look-past term is a sum over the NPCs of each one's own arrivals
    on the seats' spaces (-2 per Oppressor, +1 per Civilian) plus the entering NPC's (value.py), so each
    NPC's share (value.Valuer._npc_share: a sum over the seats) is worked out once per space, and the entering
    NPC's once per Entry token space (ahead_scaled with no NPC on the board). A share's seats other than the
    one that just moved (next_seat - 1) are the same for every candidate turn of that seat: their sum is kept
    in `others` (shared by the contexts that differ only in that seat's space), that seat's own term added."""
    __slots__ = ("civ", "entered", "entry", "kinds", "mover", "opp", "others", "others_key", "players", "rnd",
                 "seat", "v")

    def __init__(self, v: Valuer, players: tuple[int, ...], entered: int, rnd: int | None, next_seat: int,
                 others: dict):
        self.v, self.players, self.entered, self.rnd, self.seat = v, players, entered, rnd, next_seat
        n = v.board.n
        self.opp: list[int | None] = [None] * n
        self.civ: list[int | None] = [None] * n
        self.entry: dict[int, int] = {}
        self.kinds: dict[tuple[int, int], bool] = {}  # (oppressors, civilians) -> an NPC enters
        # each seat's NPC turns until it moves again (_npc_share's), the moving seat's apart
        seats = len(players)
        last = rnd is not None and rnd >= v.ahead.max_rounds
        before = seats - next_seat
        turns = [i - next_seat if i >= next_seat else before if last else before + i for i in range(seats)]
        a = next_seat - 1
        self.mover = (turns[a], players[a]) if a >= 0 and turns[a] else None
        rest = tuple((t, x) for i, (t, x) in enumerate(zip(turns, players)) if t and i != a)
        self.others, self.others_key = others, rest

    def share(self, die: str, x: int) -> int:
        """One NPC's share on `x` (value.Valuer._npc_share, the same sum)."""
        others = self.others
        key = (die, x, self.others_key)
        got = others.get(key)
        walk = self.v._walk
        if got is None:
            got = 0
            for t, p in self.others_key:
                got += walk(die, x, t)[p]
            if len(others) > MEMO_LIMIT:
                others.clear()
            others[key] = got
        mover = self.mover
        if mover is not None:
            got += walk(die, x, mover[0])[mover[1]]
        return got

    def opp_share(self, x: int) -> int:
        """An Oppressor's part of the look-past term, standing on `x`."""
        got = self.opp[x]
        if got is None:
            got = self.opp[x] = -2 * self.share("black", x)
        return got

    def civ_share(self, x: int) -> int:
        """A Civilian's part of the look-past term, standing on `x`."""
        got = self.civ[x]
        if got is None:
            got = self.civ[x] = self.share("red", x)
        return got

    def total(self, opp: tuple[int, ...], civ: tuple[int, ...], entry: int) -> int:
        """v.ahead_scaled(opp, civ, players, entry, entered, rnd, next_seat), the same number."""
        t = 0
        shares = self.opp
        for o in opp:
            x = shares[o]
            t += self.opp_share(o) if x is None else x
        shares = self.civ
        for c in civ:
            x = shares[c]
            t += self.civ_share(c) if x is None else x
        counts = (len(opp), len(civ))
        enters = self.kinds.get(counts)
        if enters is None:
            v, rnd = self.v, self.rnd
            last = rnd is not None and rnd >= v.ahead.max_rounds
            enters = self.kinds[counts] = not last and v.next_entry(self.entered, *counts) is not None
        if enters:  # the same NPC enters with no NPC on the board (fewer than the most of its kind)
            x = self.entry.get(entry)
            if x is None:
                x = self.entry[entry] = self.v.ahead_scaled((), (), self.players, entry, self.entered, self.rnd,
                                                            self.seat)
            t += x
        return t


class _Rolls:
    """The NPC turn's rolls from one table (TurnScorer.rolls): called with (black, red), that roll's
    _RollResult, each roll worked out once. (A class, not nested functions: functions that call each other
    from one enclosing scope form reference cycles, which only the garbage collector frees.)"""
    __slots__ = ("ahead_next", "ahead_of", "aheads", "arcitech", "base_dot", "board", "branch", "d", "done", "e", "entered",
                 "entering", "entries", "looking", "memo", "next_seat", "nonzero", "offices", "plans", "players",
                 "players_at", "posters", "pre", "rewards", "rnd", "same", "start_entry", "t", "target", "uber", "v",
                 "wo", "wp", "wr", "ws")

    def __init__(self, t: TurnScorer, pre: TableState):
        self.t, self.pre = t, pre
        self.plans = t.plans(pre)
        self.board, v = t.board, t.valuer
        self.v = v
        players_at: dict[int, int] = {}
        for p in pre.players:
            players_at[p] = players_at.get(p, 0) + 1
        self.players_at = players_at
        self.uber = pre.where("uberbot")
        self.arcitech = pre.seat_of("arcitech") is not None
        self.posters = posters = pre.posters
        nonzero = t._nonzero.get(posters)
        if nonzero is None:
            if len(t._nonzero) > MEMO_LIMIT:
                t._nonzero.clear()
            nonzero = t._nonzero[posters] = [(x, n) for x, n in enumerate(posters) if n]
        self.nonzero = nonzero
        self.offices, self.rewards, self.target = t.board.offices, t.rules.office_rewards, t.rules.target
        self.d, self.ws, self.wr, self.wo, self.wp = v.d, v.w_spark, v.w_rep, v.w_office, v.w_poster
        self.done: dict[tuple[str, str], _RollResult] = {}
        self.base_dot: dict[tuple[str, str], int] = {}  # the posters' future-arrival sum before any encounter
        self.e, self.looking = v.e, v.ahead is not None
        self.entering = v.entry_now(pre) if self.looking else None
        self.entered, self.rnd, self.next_seat, self.players = pre.entered, pre.round, pre.active + 1, pre.players
        self.aheads = t.ahead_parts(pre.players, pre.entered, pre.round, pre.active + 1) if self.looking else None
        self.ahead_next = None  # the same after the round start (seat 0 next), when one comes
        self.ahead_of: dict[tuple[str, str], int] = {}  # a roll's look-past term: it reads the NPCs' spaces only
        self.entries, self.start_entry = t._entry_after, pre.entry
        self.branch = ENDED  # how the last roll worked out was valued (for the memo's shifts)
        self.memo = t._rolls_memo
        self.same = t.same_id(pre)

    def finish(self, plan: RollPlan, funds: int, rep: int, office: int, ended: str | None, cur: dict[int, int],
               junked: int, fined: bool) -> _RollResult:
        d, ws, wr, e = self.d, self.ws, self.wr, self.e
        if ended is None:
            row, posters = plan.poster_row, self.posters
            poster_part = self.base_dot[(plan.black, plan.red)]
            for x, n in cur.items():
                poster_part += (n - posters[x]) * row[x]
            office_part = self.rewards[office] * plan.office_arrivals if plan.civilians else 0
            scaled = (d * (ws * funds + wr * rep) + self.wo * office_part + self.wp * poster_part) * e
            ahead = 0
            self.branch = PLAIN
            if self.entering is not None:  # the round start comes next: valued once its NPC has entered
                after = self.round_start(plan, funds, rep, office, cur, poster_part, office_part)
                ahead, scaled = after - scaled, after
            elif self.looking:  # the same in every branch of ArciTech's re-post
                key = (plan.black, plan.red)
                ahead = self.ahead_of.get(key)
                if ahead is None:
                    ahead = self.ahead_of[key] = ws * d * self.aheads.total(plan.oppressors, plan.civilians,
                                                                            self.plan_entry(plan))
                scaled += ahead
            return _RollResult(scaled=scaled, funds=funds, reputation=rep, office=office, junked=junked,
                               fined=fined, ended=None, future=office_part + poster_part, ahead=ahead)
        v = self.v
        scaled = d * (ws * funds + wr * rep + (v.w_win if ended == SUCCESS else -v.w_loss)) * e
        return _RollResult(scaled=scaled, funds=funds, reputation=rep, office=office, junked=junked,
                           fined=fined, ended=ended, future=0)

    def round_start(self, plan: RollPlan, funds: int, rep: int, office: int, cur: dict[int, int], poster_part: int,
                    office_part: int) -> int:
        """V (times scale) once the round start's NPC has entered on the Entry token's space and met it
        (value.Valuer.after_scaled, the steps of npc_turn.enter_npc)."""
        v, d, ws, wr, e = self.v, self.d, self.ws, self.wr, self.e
        posters, offices, rewards = self.posters, self.offices, self.rewards
        x = self.plan_entry(plan)
        here = cur.get(x, posters[x])
        people = self.players_at.get(x, 0)
        doubled = here * (2 if self.uber == x else 1)
        opp, civ = plan.oppressors, plan.civilians
        self.branch = ENTRY_ENDED
        if self.entering == "oppressor":
            opp = opp + (x,)
            if doubled + plan.civilians_at.get(x, 0) + people >= 4:
                rep = max(0, rep - 1)
                if rep == 0:
                    return d * (ws * funds - v.w_loss) * e
            funds = max(0, funds - 2 * people)
            poster_part -= here * plan.poster_row[x]
            if x in offices:
                office = max(0, office - 2)
            office_part = rewards[office] * plan.office_arrivals if civ else 0
            self.branch = PLAIN
        else:
            civ = civ + (x,)
            if x not in plan.oppressor_on:
                for gift in (people, doubled, rewards[office] if office > 0 and x in offices else 0):
                    if gift:
                        funds += gift
                        if funds >= self.target:
                            return d * (ws * funds + wr * rep + v.w_win) * e
            self.branch = PLAIN
            if v.horizon:
                self.branch = CIVILIAN_ENTERED
                arrivals = v.arrivals(x)
                now = list(posters)
                for y, n in cur.items():
                    now[y] = n
                for y, n in enumerate(now):
                    if n:
                        poster_part += n * arrivals[y]
                at_offices = plan.office_arrivals
                for o in offices:
                    at_offices += arrivals[o]
                office_part = rewards[office] * at_offices
        scaled = (d * (ws * funds + wr * rep) + self.wo * office_part + self.wp * poster_part) * e
        key = (plan.black, plan.red)  # the look-past term: the same in every branch of ArciTech's re-post
        ahead = self.ahead_of.get(key)
        if ahead is None:
            parts = self.ahead_next
            if parts is None:
                rnd = self.rnd
                parts = self.ahead_next = self.t.ahead_parts(self.players, self.entered + 1,
                                                             None if rnd is None else rnd + 1, 0)
            ahead = self.ahead_of[key] = ws * d * parts.total(opp, civ, x)
        return scaled + ahead

    def plan_entry(self, plan: RollPlan) -> int:
        """Where the Entry token is after this roll (an X face moves it along its colour's path)."""
        key = (plan.black, plan.red)
        row = self.entries.get(key)
        if row is None:
            row = list(range(self.board.n))
            for face in key:
                if not is_arrow(face):
                    path = self.board.path(face_colour(face))
                    row = [path[x] for x in row]
            row = self.entries[key] = tuple(row)
        return row[self.start_entry]

    def run(self, plan: RollPlan, qi: int, funds: int, rep: int, office: int, cur: dict[int, int], junked: int,
            fined: bool, repost: bool) -> _RollResult:
        """Resolve plan.queue from qi on; `cur` holds the posters of the spaces changed so far; `repost`:
        ArciTech's once-per-NPC-turn re-post is still to come (npc_turn._resolve, the same choices)."""
        queue, civ_at, opp_on = plan.queue, plan.civilians_at, plan.oppressor_on
        posters, players_at, uber, offices = self.posters, self.players_at, self.uber, self.offices
        rewards, target = self.rewards, self.target
        while qi < len(queue):
            is_opp, x = queue[qi]
            qi += 1
            here = cur.get(x, posters[x])
            players = players_at.get(x, 0)
            if is_opp:
                if here * (2 if uber == x else 1) + civ_at.get(x, 0) + players >= 4:
                    rep = max(0, rep - 1)
                    if rep == 0:
                        return self.finish(plan, funds, rep, office, FAILURE, cur, junked, fined)
                if players:
                    funds = max(0, funds - 2 * players)
                    fined = True
                if here:
                    junked += here
                    cur[x] = 0
                if x in offices:
                    office = max(0, office - 2)
                if here and repost:
                    return self.arcitech_choice(plan, qi, funds, rep, office, cur, junked, fined)
                continue
            if x in opp_on:
                continue
            for gift in (players, here * (2 if uber == x else 1),
                         rewards[office] if office > 0 and x in offices else 0):
                if gift:
                    funds += gift
                    if funds >= target:
                        return self.finish(plan, funds, rep, office, SUCCESS, cur, junked, fined)
        return self.finish(plan, funds, rep, office, None, cur, junked, fined)

    def arcitech_choice(self, plan: RollPlan, qi: int, funds: int, rep: int, office: int, cur: dict[int, int],
                        junked: int, fined: bool) -> _RollResult:
        # declining first (which keeps the re-post for a later tear-down in this NPC turn), then the spaces
        # later encounters visit and the best quiet one, in board order
        best = self.run(plan, qi, funds, rep, office, dict(cur), junked, fined, True)
        visited = {x for _, x in plan.queue[qi:]}
        candidates = set(visited)
        board, v, posters = self.board, self.v, self.posters
        if len(visited) < board.n:  # the best space no later encounter visits (first in board order on a tie)
            order = self.by_row(plan) if v.horizon and v.w_poster else range(board.n)
            for x in order:
                if x not in visited:
                    candidates.add(x)
                    break
        for x in sorted(candidates):
            branch = dict(cur)
            branch[x] = branch.get(x, posters[x]) + 1
            got = self.run(plan, qi, funds, rep, office, branch, junked, fined, False)
            if got.scaled > best.scaled:
                best = got
                got.repost = (qi - 1, x)  # (a branch's own result: no other roll holds it)
        return best

    def by_row(self, plan: RollPlan) -> list[int]:
        """The spaces, most future donations per poster first, then in board order."""
        orders = self.t._row_order
        order = orders.get(plan.civilians)
        if order is None:
            row = plan.poster_row
            order = orders[plan.civilians] = sorted(range(self.board.n), key=lambda x: (-row[x], x))
        return order

    def __call__(self, b: str, r: str) -> _RollResult:
        hit = self.done.get((b, r))
        if hit is not None:
            return hit
        plan = self.plans[(b, r)]
        row, posters = plan.poster_row, self.posters
        dot = 0
        for x, n in self.nonzero:
            dot += n * row[x]
        self.base_dot[(b, r)] = dot
        key = None
        # ArciTech's re-post weighs every poster: no reuse where an Oppressor of this roll tears some down
        tears = False
        if self.arcitech:
            for is_opp, x in plan.queue:
                if is_opp and posters[x]:
                    tears = True
                    break
        if not tears:
            visited = plan.visited if self.entering is None else plan.visited + (self.plan_entry(plan),)
            key = (b, r, self.same, tuple([posters[x] for x in visited]))
            found = self.memo.get(key)
            if found is not None:
                hit = self.done[(b, r)] = self.shifted(found, plan, dot)
                return hit
        self.branch = ENDED
        pre = self.pre
        hit = self.done[(b, r)] = self.run(plan, 0, pre.funds, pre.reputation, pre.office, {}, 0, False,
                                           self.arcitech)
        if key is not None:
            memo = self.memo
            if len(memo) > MEMO_LIMIT:
                memo.clear()
            memo[key] = (hit, dot, posters, self.branch)
        return hit

    def shifted(self, found, plan: RollPlan, dot: int) -> _RollResult:
        """The memo's roll on a table whose posters differ only where no NPC of this roll comes: the
        encounters are the same; the posters' future donations (linear in the posters) shift V."""
        res, dot0, posters0, how = found
        if how == ENDED:
            return res
        now = self.posters
        moved = dot - dot0
        if not moved and now == posters0:
            return res
        v = self.v
        wp = v.w_poster * self.e
        scaled, ahead = res.scaled, res.ahead
        if how == PLAIN:
            scaled += wp * moved
        elif how == CIVILIAN_ENTERED:
            arrivals = v.arrivals(self.plan_entry(plan))
            extra = sum((n - m) * arrivals[y] for y, (n, m) in enumerate(zip(now, posters0)) if n != m)
            scaled += wp * (moved + extra)
            ahead += wp * extra
        else:  # ENTRY_ENDED: the round start ended the game, V has no posters' part; the look-past part
            ahead -= wp * moved  # is V after it less V before it
        return _RollResult(scaled=scaled, funds=res.funds, reputation=res.reputation, office=res.office,
                           junked=res.junked, fined=res.fined, ended=None, future=res.future + moved, ahead=ahead)


class NpcTurnBound:
    """Upper bounds on E[V after the NPC turn], cheap next to the exact expectation, for the tables Move the
    Masses leaves from one table `base` (the same table with one NPC moved one step and its encounter met):
    suggest._Planner.best_masses skips the NPC moves whose bound cannot reach its shortlist.

    Why it is an upper bound, roll by roll (face kinds (black, red): where every NPC moves and where the
    Entry token goes are known): Move the Masses' encounter only lowers the posters and the contributions
    of `base` (Oppressor: tear-down, -2 on an Office) and the NPC turn only lowers Reputation, so V after
    the roll, when the game goes on, is at most
        funds: the table's own less the fines of the Oppressors that move (they resolve first: the funds
        stop at 0 once, max(0, funds - fines)), plus, for every Civilian that moves and finds no Oppressor
        there (one that does is stopped), its largest donation: the players there, the posters there
        (doubled on Überbot's space; the table's own, at most those of `base`), the Office Reward on an
        Office (at the contributions the Oppressors leave, -2 for each on an Office, stopping at 0);
        Reputation: the table's own;
        the Office's future donations: exact (the contributions once the NPCs are through, times the
        Civilians' expected arrivals at the Offices: the positions are known);
        the posters' future donations: the Civilians' expected arrivals times the posters, less those on
        the spaces an Oppressor moves onto (it tears them down, or the game ends first);
        the look-past term: exact (it reads only positions, value.py), with the round start's NPC,
        whose own encounter counts like a Civilian's (its donation, its arrivals) or an Oppressor's (its
        fine, -2 on an Office);
        ArciTech, where an Oppressor tears posters down: the poster put back up on the best space for
        every Civilian, and doubled, in the donation of every Civilian that moves;
    and the game's end: the success value with those funds (before the round start's Oppressor fines),
    where they reach the target; the failure value, where as many Oppressor encounters as Reputation points
    can come, with the largest funds the table has on the way. The roll's bound is the
    largest of the three; the expectation's follows the player's roll rule (Alice Smith takes the better
    path: the larger sum; MT-ρ keeps a roll worth at least a fresh roll's mean: E = sum p * max(V, mean),
    growing with every V). No weight is negative (the API's bounds), which every step above needs.
    tests/solvers/robotariat/test_robotariat_masses_bound.py checks bound >= exact and the suggestions
    with and without the bounds."""

    def __init__(self, t: TurnScorer, base: TableState):
        v, board, rules, dice = t.valuer, t.board, t.rules, t.dice
        self.base, self.v = base, v
        who = base.active_character
        red = dice.counts("red")
        blacks = {"yellow_arrow": 1, "blue_arrow": 1} if who == "alice_smith" else dice.counts("black")
        self.who = who if who in ROLL_CHOOSERS else None
        self.denominator = 6 if who == "alice_smith" else 1296 if who == "mt_rho" else 36
        players_at: dict[int, int] = {}
        for p in base.players:
            players_at[p] = players_at.get(p, 0) + 1
        posters, uber, offices = base.posters, base.where("uberbot"), board.offices
        self.rewards, self.offices = rules.office_rewards, offices
        self.arcitech = base.seat_of("arcitech") is not None
        n = board.n
        self.players_at = [players_at.get(x, 0) for x in range(n)]
        self.mult = [2 if uber == x else 1 for x in range(n)]
        self.gift = [players_at.get(x, 0) + k * self.mult[x] for x, k in enumerate(posters)]  # without the Office
        # a Civilian's future arrivals from each space: at the Offices, at its best space, times the posters
        # (worked out for the spaces the Civilians reach only: each row is a walk of the horizon's turns)
        self.arrivals: list[list[int] | None] | None = [None] * n if v.horizon else None
        zeros = [0] * n
        self.office_arr, self.best_arr, self.dot = (list(zeros), list(zeros), list(zeros)) if v.horizon else (
            zeros, zeros, zeros)
        self.nonzero = [(x, k) for x, k in enumerate(posters) if k]
        looking = v.ahead is not None
        self.entering = entering = v.entry_now(base) if looking else None
        parts = t.ahead_parts(base.players, base.entered, base.round, base.active + 1) if looking else None
        if entering is not None:
            rnd = base.round
            parts = t.ahead_parts(base.players, base.entered + 1, None if rnd is None else rnd + 1, 0)
        self.parts = parts
        self.rolls = []
        for b, cb in blacks.items():
            for r, cr in red.items():
                opp, civ, entry = base.oppressors, base.civilians, base.entry
                opp_path = board.path(face_colour(b)) if is_arrow(b) else None
                civ_path = board.path(face_colour(r)) if is_arrow(r) else None
                if opp_path:
                    opp = tuple(opp_path[x] for x in opp)
                else:
                    entry = board.path(face_colour(b))[entry]
                if civ_path:
                    civ = tuple(civ_path[x] for x in civ)
                else:
                    entry = board.path(face_colour(r))[entry]
                ahead = 0
                if entering == "oppressor":
                    ahead = parts.total(opp + (entry,), civ, entry)
                elif entering == "civilian":
                    ahead = parts.total(opp, civ + (entry,), entry)
                elif looking:
                    ahead = parts.total(opp, civ, entry)
                self.rolls.append((b, cb * cr, opp_path, civ_path, opp, civ, entry, ahead))

    def reach(self, z: int) -> list[int]:
        """A Civilian's future arrivals from `z` (value.Valuer.arrivals), with its three sums kept."""
        a = self.arrivals[z]
        if a is None:
            a = self.arrivals[z] = self.v.arrivals(z)
            self.office_arr[z] = sum(a[o] for o in self.offices)
            self.best_arr[z] = max(a)
            self.dot[z] = sum(k * a[x] for x, k in self.nonzero)
        return a

    def moved(self, pre: TableState, npc: str, index: int) -> int | None:
        """The bound (times scale, over self.denominator) for `pre`: `base` with the `index`-th NPC of kind
        `npc` moved and its encounter met; None when `pre` is not such a table, or the game is over (its
        value is exact and cheap)."""
        base = self.base
        if pre.ended is not None or pre.players != base.players or pre.entry != base.entry:
            return None
        is_opp = npc == "oppressor"
        group, other = (pre.oppressors, pre.civilians) if is_opp else (pre.civilians, pre.oppressors)
        before, other_before = (base.oppressors, base.civilians) if is_opp else (base.civilians, base.oppressors)
        if other != other_before or len(group) != len(before) or any(
                x != y for i, (x, y) in enumerate(zip(group, before)) if i != index) or any(
                k > m for k, m in zip(pre.posters, base.posters)):
            return None
        z, to = before[index], group[index]
        parts = self.parts
        share = None if parts is None else parts.opp_share if is_opp else parts.civ_share
        values = []
        for b, w, opp_path, civ_path, opp, civ, entry, ahead in self.rolls:
            path = opp_path if is_opp else civ_path
            old, new = (path[z], path[to]) if path else (z, to)
            if is_opp:
                opp = list(opp)
                opp[index] = new
            else:
                civ = list(civ)
                civ[index] = new
            if share is not None:
                ahead += share(new) - share(old)
            values.append((b, w, self.roll(pre, opp, civ, opp_path, civ_path, entry, ahead, base.posters,
                                           self.gift, self.dot)))
        return self.expectation(values)

    def roll(self, pre: TableState, opp, civ, opp_path, civ_path, entry: int, ahead: int, posters: tuple[int, ...],
             gift: list[int], dot: list[int]) -> int:
        """The bound on V (times scale) after one roll: the NPCs on `opp` and `civ` after their move (the
        groups moved when their path is given), the Entry token on `entry`, the look-past term `ahead`;
        `posters` at least the table's, `gift` and `dot` (per space) read with them."""
        v = self.v
        d, e, ws, wr = v.d, v.e, v.w_spark, v.w_rep
        office_arr, best_arr, arrivals = self.office_arr, self.best_arr, self.arrivals
        players_at, offices, rewards = self.players_at, self.offices, self.rewards
        on = set(opp)
        funds, office = pre.funds, pre.office
        torn: set[int] | tuple = ()
        encounters = 0
        if opp_path:  # every Oppressor moves and meets its space, before any Civilian
            torn, encounters = on, len(opp)
            fines = hits = 0
            for x in opp:
                fines += 2 * players_at[x]
                hits += x in offices
            funds, office = max(0, funds - fines), max(0, office - 2 * hits)
        reward = rewards[office] if office > 0 else 0
        gifts = donors = 0
        if civ_path:
            for c in civ:
                if c not in on:
                    gifts += gift[c] + (reward if c in offices else 0)
                    donors += 1
        future = arriving = best = 0
        if arrivals is not None:
            for c in civ:
                if arrivals[c] is None:
                    self.reach(c)
            if self.entering == "civilian" and arrivals[entry] is None:
                self.reach(entry)
        for c in civ:
            future += dot[c]
            arriving += office_arr[c]
            best += best_arr[c]
        tears = [(x, posters[x]) for x in torn if posters[x]]
        if arrivals is not None:
            for x, k in tears:
                for c in civ:
                    future -= k * arrivals[c][x]
        fine = 0
        if self.entering == "oppressor":
            encounters += 1
            fine = 2 * players_at[entry]
            if entry in offices:
                office = max(0, office - 2)
        elif self.entering == "civilian":
            x = entry
            if x not in on:
                gifts += gift[x] + (reward if x in offices else 0)
                donors += 1
            future += dot[x]
            if arrivals is not None:
                for y, k in tears:
                    future -= k * arrivals[x][y]
            arriving += office_arr[x]
            best += best_arr[x]
        if tears and self.arcitech:
            gifts += 2 * donors
            future += best
        top, rep = funds + gifts, pre.reputation
        value = e * (d * (ws * max(0, top - fine) + wr * rep) + v.w_office * rewards[office] * arriving
                     + v.w_poster * future) + ws * d * ahead
        if rep <= encounters:  # at the failure, the funds are at most the table's or those after the NPC turn
            value = max(value, e * d * (ws * max(pre.funds, top) - v.w_loss))
        if top >= v.rules.target:
            value = max(value, e * d * (ws * top + wr * rep + v.w_win))
        return value

    def expectation(self, values: list[tuple[str, int, int]]) -> int:
        """The rolls' bounds combined as the player's roll rule combines V (over self.denominator)."""
        if self.who == "alice_smith":
            totals: dict[str, int] = {}
            for b, w, value in values:
                totals[b] = totals.get(b, 0) + w * value
            return max(totals.values())
        total = sum(w * value for _, w, value in values)
        if self.who == "mt_rho":
            return sum(w * max(36 * value, total) for _, w, value in values)
        return total
