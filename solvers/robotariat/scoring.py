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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
    _entry_after: dict[tuple[int, str, str], int] = field(default_factory=dict)  # the Entry token after a roll

    def plans(self, s: TableState) -> dict[tuple[str, str], RollPlan]:
        """The RollPlan of every face-kind pair the NPC turn from `s` can show (Alice Smith's two paths too)."""
        key = (s.oppressors, s.civilians)
        hit = self._plans.get(key)
        if hit is not None:
            return hit
        blacks = set(self.dice.counts("black")) | {"yellow_arrow", "blue_arrow"}
        # the black die moves the oppressors and the red die the civilians: each die's part worked out once
        board = self.board
        opp_parts = []
        for b in sorted(blacks):
            opp = s.oppressors
            if is_arrow(b):
                path = board.path(face_colour(b))
                opp = tuple(path[p] for p in opp)
                opp_parts.append((b, opp, tuple((True, x) for x in opp), frozenset(opp), bool(opp), set(opp)))
            else:
                opp_parts.append((b, opp, (), frozenset(opp), False, set()))
        civ_parts = []
        for r in self.dice.counts("red"):
            civ = s.civilians
            moved = is_arrow(r)
            if moved:
                path = board.path(face_colour(r))
                civ = tuple(path[c] for c in civ)
            civ_at: dict[int, int] = {}
            for c in civ:
                civ_at[c] = civ_at.get(c, 0) + 1
            civ_parts.append((r, civ, tuple((False, x) for x in civ) if moved else (), civ_at, self.rows(civ),
                              set(civ) if moved else set()))
        out = {}
        for b, opp, opp_queue, opp_on, tears, opp_seen in opp_parts:
            for r, civ, civ_queue, civ_at, rows, civ_seen in civ_parts:
                out[(b, r)] = RollPlan(black=b, red=r, oppressors=opp, civilians=civ, queue=opp_queue + civ_queue,
                                       civilians_at=civ_at, oppressor_on=opp_on, tears=tears, poster_row=rows[0],
                                       office_arrivals=rows[1], visited=tuple(sorted(opp_seen | civ_seen)))
        self._plans[key] = out
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
                    row = [x + a for x, a in zip(row, arrivals)]
                    office += sum(arrivals[o] for o in board.offices)
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
        bonus = Fraction(0)
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

    def rolls(self, pre: TableState):
        """A function (black, red) -> _RollResult for the NPC turn from `pre`, each roll worked out once."""
        plans = self.plans(pre)
        board, rules, v = self.board, self.rules, self.valuer
        players_at: dict[int, int] = {}
        for p in pre.players:
            players_at[p] = players_at.get(p, 0) + 1
        uber = pre.where("uberbot")
        arcitech = pre.seat_of("arcitech") is not None
        posters = pre.posters
        nonzero = [(x, n) for x, n in enumerate(posters) if n]
        offices, rewards, target = board.offices, rules.office_rewards, rules.target
        d, ws, wr = v.d, v.w_spark, v.w_rep
        done: dict[tuple[str, str], _RollResult] = {}
        base_dot: dict[tuple[str, str], int] = {}  # the posters' future-arrival sum before any encounter

        e, looking = v.e, v.ahead is not None
        entering = v.entry_now(pre) if looking else None
        entered, rnd, next_seat = pre.entered, pre.round, pre.active + 1

        def finish(plan: RollPlan, funds: int, rep: int, office: int, ended: str | None, cur: dict[int, int],
                   junked: int, fined: bool) -> _RollResult:
            if ended is None:
                row = plan.poster_row
                poster_part = base_dot[(plan.black, plan.red)] + sum((n - posters[x]) * row[x] for x, n in cur.items())
                office_part = rewards[office] * plan.office_arrivals if plan.civilians else 0
                scaled = (d * (ws * funds + wr * rep) + v.w_office * office_part + v.w_poster * poster_part) * e
                ahead = 0
                branch[0] = PLAIN
                if entering is not None:  # the round start comes next: valued once its NPC has entered
                    after = round_start(plan, funds, rep, office, cur, poster_part, office_part)
                    ahead, scaled = after - scaled, after
                elif looking:
                    ahead = ws * d * v.ahead_scaled(plan.oppressors, plan.civilians, pre.players, plan_entry(plan),
                                                    entered, rnd, next_seat)
                    scaled += ahead
                return _RollResult(scaled=scaled, funds=funds, reputation=rep, office=office, junked=junked,
                                   fined=fined, ended=None, future=office_part + poster_part, ahead=ahead)
            scaled = d * (ws * funds + wr * rep + (v.w_win if ended == SUCCESS else -v.w_loss)) * e
            return _RollResult(scaled=scaled, funds=funds, reputation=rep, office=office, junked=junked,
                               fined=fined, ended=ended, future=0)

        def round_start(plan: RollPlan, funds: int, rep: int, office: int, cur: dict[int, int], poster_part: int,
                        office_part: int) -> int:
            """V (times scale) once the round start's NPC has entered on the Entry token's space and met it
            (value.Valuer.after_scaled, the steps of npc_turn.enter_npc)."""
            x = plan_entry(plan)
            here = cur.get(x, posters[x])
            people = players_at.get(x, 0)
            doubled = here * (2 if uber == x else 1)
            opp, civ = plan.oppressors, plan.civilians
            branch[0] = ENTRY_ENDED
            if entering == "oppressor":
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
                branch[0] = PLAIN
            else:
                civ = civ + (x,)
                if x not in plan.oppressor_on:
                    for gift in (people, doubled, rewards[office] if office > 0 and x in offices else 0):
                        if gift:
                            funds += gift
                            if funds >= target:
                                return d * (ws * funds + wr * rep + v.w_win) * e
                branch[0] = PLAIN
                if v.horizon:
                    branch[0] = CIVILIAN_ENTERED
                    arrivals = v.arrivals(x)
                    now = list(posters)
                    for y, n in cur.items():
                        now[y] = n
                    poster_part += sum(n * arrivals[y] for y, n in enumerate(now) if n)
                    office_part = rewards[office] * (plan.office_arrivals + sum(arrivals[o] for o in offices))
            scaled = (d * (ws * funds + wr * rep) + v.w_office * office_part + v.w_poster * poster_part) * e
            return scaled + ws * d * v.ahead_scaled(opp, civ, pre.players, x, entered + 1,
                                                    None if rnd is None else rnd + 1, 0)

        entries, start_entry = self._entry_after, pre.entry
        branch = [ENDED]  # how the last roll worked out was valued (for the memo's shifts)

        def plan_entry(plan: RollPlan) -> int:
            key = (start_entry, plan.black, plan.red)
            x = entries.get(key)
            if x is None:
                x = start_entry
                for face in (plan.black, plan.red):
                    if not is_arrow(face):
                        x = board.path(face_colour(face))[x]
                entries[key] = x
            return x

        def run(plan: RollPlan, qi: int, funds: int, rep: int, office: int, cur: dict[int, int], junked: int,
                fined: bool, repost: bool) -> _RollResult:
            """Resolve plan.queue from qi on; `cur` holds the posters of the spaces changed so far; `repost`:
            ArciTech's once-per-NPC-turn re-post is still to come (npc_turn._resolve, the same choices)."""
            queue, civ_at, opp_on = plan.queue, plan.civilians_at, plan.oppressor_on
            while qi < len(queue):
                is_opp, x = queue[qi]
                qi += 1
                here = cur.get(x, posters[x])
                players = players_at.get(x, 0)
                if is_opp:
                    if here * (2 if uber == x else 1) + civ_at.get(x, 0) + players >= 4:
                        rep = max(0, rep - 1)
                        if rep == 0:
                            return finish(plan, funds, rep, office, FAILURE, cur, junked, fined)
                    if players:
                        funds = max(0, funds - 2 * players)
                        fined = True
                    if here:
                        junked += here
                        cur[x] = 0
                    if x in offices:
                        office = max(0, office - 2)
                    if here and repost:
                        return arcitech_choice(plan, qi, funds, rep, office, cur, junked, fined)
                    continue
                if x in opp_on:
                    continue
                for gift in (players, here * (2 if uber == x else 1),
                             rewards[office] if office > 0 and x in offices else 0):
                    if gift:
                        funds += gift
                        if funds >= target:
                            return finish(plan, funds, rep, office, SUCCESS, cur, junked, fined)
            return finish(plan, funds, rep, office, None, cur, junked, fined)

        def arcitech_choice(plan: RollPlan, qi: int, funds: int, rep: int, office: int, cur: dict[int, int],
                            junked: int, fined: bool) -> _RollResult:
            # declining first (which keeps the re-post for a later tear-down in this NPC turn), then the spaces
            # later encounters visit and the best quiet one, in board order
            best = run(plan, qi, funds, rep, office, dict(cur), junked, fined, True)
            visited = {x for _, x in plan.queue[qi:]}
            candidates = set(visited)
            if len(visited) < board.n:  # the best space no later encounter visits (first in board order on a tie)
                order = by_row(plan) if v.horizon and v.w_poster else range(board.n)
                candidates.add(next(x for x in order if x not in visited))
            for x in sorted(candidates):
                branch = dict(cur)
                branch[x] = branch.get(x, posters[x]) + 1
                got = run(plan, qi, funds, rep, office, branch, junked, fined, False)
                if got.scaled > best.scaled:
                    best = got
            return best

        memo = self._rolls_memo
        same = (pre.oppressors, pre.civilians, pre.players, pre.characters, pre.funds, pre.reputation, pre.office,
                pre.entry, pre.active, pre.round)

        def by_row(plan: RollPlan) -> list[int]:
            """The spaces, most future donations per poster first, then in board order."""
            order = self._row_order.get(plan.civilians)
            if order is None:
                row = plan.poster_row
                order = self._row_order[plan.civilians] = sorted(range(board.n), key=lambda x: (-row[x], x))
            return order

        def result(b: str, r: str) -> _RollResult:
            hit = done.get((b, r))
            if hit is None:
                plan = plans[(b, r)]
                row = plan.poster_row
                dot = base_dot[(b, r)] = sum(n * row[x] for x, n in nonzero)
                key = None
                # ArciTech's re-post weighs every poster: no reuse where an Oppressor of this roll tears some down
                if not (arcitech and any(posters[x] for is_opp, x in plan.queue if is_opp)):
                    visited = plan.visited if entering is None else plan.visited + (plan_entry(plan),)
                    key = (b, r, same, tuple(posters[x] for x in visited))
                    found = memo.get(key)
                    if found is not None:
                        hit = done[(b, r)] = _shifted(found, plan, dot, posters)
                        return hit
                branch[0] = ENDED
                hit = done[(b, r)] = run(plan, 0, pre.funds, pre.reputation, pre.office, {}, 0, False, arcitech)
                if key is not None:
                    if len(memo) > MEMO_LIMIT:
                        memo.clear()
                    memo[key] = (hit, dot, posters, branch[0])
            return hit

        def _shifted(found, plan: RollPlan, dot: int, now: tuple[int, ...]) -> _RollResult:
            """The memo's roll on a table whose posters differ only where no NPC of this roll comes: the
            encounters are the same; the posters' future donations (linear in the posters) shift V."""
            res, dot0, posters0, how = found
            if how == ENDED:
                return res
            moved = dot - dot0
            if not moved and now == posters0:
                return res
            wp = v.w_poster * e
            scaled, ahead = res.scaled, res.ahead
            if how == PLAIN:
                scaled += wp * moved
            elif how == CIVILIAN_ENTERED:
                arrivals = v.arrivals(plan_entry(plan))
                extra = sum((n - m) * arrivals[y] for y, (n, m) in enumerate(zip(now, posters0)) if n != m)
                scaled += wp * (moved + extra)
                ahead += wp * extra
            else:  # ENTRY_ENDED: the round start ended the game, V has no posters' part; the look-past part
                ahead -= wp * moved  # is V after it less V before it
            return _RollResult(scaled=scaled, funds=res.funds, reputation=res.reputation, office=res.office,
                               junked=res.junked, fined=res.fined, ended=None, future=res.future + moved, ahead=ahead)

        return result


