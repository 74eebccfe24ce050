"""Will we make it? The whole game played out from the table's state with a policy (rulebook "Round
Order", "Game End", "Revolution Table"; readings `game-forecast`).

From the state, every player in turn plays what the policy picks (the suggestions' best turn, for the
API), conducts the NPC turn (every roll with its exact chance, Alice Smith's path, MT-ρ's re-roll and
ArciTech's re-post as npc_turn resolves them), and each new round starts with the entry track's NPC,
until the Revolution succeeds, Reputation reaches 0, or round 6 is over.

Exact when the game tree is small enough (`exact_limit` distinct positions where the policy decides;
the late game and small boards): P(success), P(failure by Reputation), P(failure after round 6), each
by round, and the expected final SPARK as fractions. Otherwise seeded Monte Carlo: whole games sampled
with `random.Random(seed)`, in batches, until the 95 % interval of every probability is within
`half_width` (Wilson score interval) or `max_runs` / the time budget is spent; the answer gives each
estimate with its interval and the number of games played.

The sampled games may be played with a cheaper policy than the exact count's (`Forecaster(rollout=...)`:
the API's rollout.RolloutPolicy), and each sampled NPC turn resolves only the roll drawn (`rolled`; where
ArciTech's re-post weighs values, with the re-post scoring.TurnScorer chooses). A Forecaster stays in the
process between a page's views: each run ends by dropping what its policies keep only to go faster
(`trim`), since every object kept alive is walked by each full pass of the garbage collector, in any
request.

Not modelled (the answer says so): what a Sabotage or an Upgrade card does (a draw is played like not
activating, as in the suggestions), and a player's secret objective.
"""
from __future__ import annotations

import math
import pickle
import random
import threading
import time
import uuid
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .game import TIME_UP, GameRules, entry_pending, next_turn, start_round, turns_left
from .model import FAILURE, SUCCESS, TableState, changed, face_colour, is_arrow
from .npc_turn import npc_turn, roll_chances
from .scoring import ROLL_CHOOSERS, TurnScorer

ENDINGS = (SUCCESS, "reputation", TIME_UP)
Z95 = 1.959963984540054
BRANCHING = 9  # about how many positions one NPC turn leads to (3 x 3 face kinds on the default dice)


class TooBig(Exception):
    """The exact game tree has more decision positions than the limit allows."""


@dataclass(frozen=True, kw_only=True)
class Estimate:
    """A probability or mean: exact (a Fraction) or estimated (a float with its 95 % interval)."""
    exact: Fraction | None = None
    approx: float = 0.0
    interval: tuple[float, float] | None = None

    @classmethod
    def of(cls, value: Fraction) -> Estimate:
        return cls(exact=value, approx=float(value))


@dataclass(frozen=True, kw_only=True)
class RoundEnding:
    round: int
    p_success: Estimate
    p_fail_reputation: Estimate
    p_fail_time: Estimate


@dataclass(frozen=True, kw_only=True)
class GameForecast:
    method: str  # "exact" or "monte_carlo"
    p_success: Estimate
    p_fail_reputation: Estimate
    p_fail_time: Estimate
    expected_funds: Estimate
    by_round: tuple[RoundEnding, ...]
    runs: int | None  # games played out (Monte Carlo), None when exact
    decisions: int  # distinct positions where the policy chose a turn
    seconds: float
    stopped: str | None = None  # why Monte Carlo stopped before `half_width` ("max_runs", "time")
    seed: int | None = None


@dataclass
class _Tally:
    """Exact or sampled weights of the ways the game ends, by round, and the final funds."""
    endings: dict[tuple[str, int], Fraction] = field(default_factory=dict)
    funds: Fraction = Fraction(0)

    def add(self, other: _Tally, p: Fraction) -> None:
        for k, w in other.endings.items():
            self.endings[k] = self.endings.get(k, Fraction(0)) + p * w
        self.funds += p * other.funds


def _ending(kind: str, rnd: int, funds: int) -> _Tally:
    return _Tally({(kind, rnd): Fraction(1)}, Fraction(funds))


def _kind(s: TableState) -> str:
    return SUCCESS if s.ended == SUCCESS else "reputation"


class _Game:
    """Plays positions forward with one policy; NPC-turn distributions cached by the state they start from.
    `keep` False: the positions decided are counted by `position_key` (the sampled games' many positions
    are not kept alive for the count alone)."""

    def __init__(self, g: GameRules, policy, keep: bool = True):
        self.g, self.policy, self.keep = g, policy, keep
        self.turns: dict[TableState, list[tuple[int, int, TableState]]] = {}
        self.decided: set = set()
        self.valuers: dict = {}
        self.scorers: dict[tuple, TurnScorer] = {}
        self.chances_of = getattr(policy, "chances_of", None)  # rollout.RolloutPolicy shares its turn scorer
        self.rolls_of = getattr(policy, "rolls_of", None)
        d = g.dice
        self.pairs = [(b, r, cb * cr) for b, cb in d.counts("black").items() for r, cr in d.counts("red").items()]

    def npc_outcomes(self, pre: TableState) -> list[tuple[int, int, TableState]]:
        """[(weight, denominator, state after)] of the NPC turn the active player conducts from `pre`."""
        hit = self.turns.get(pre)
        if hit is None:
            g = self.g
            f = npc_turn(g.board, g.rules, g.dice_for(pre), pre, g.valuer(pre))  # dice_for: cards (card_effects)
            hit = [(o.weight, f.denominator, o.result.state) for o in f.outcomes]
            if len(self.turns) > 50_000:
                self.turns.clear()
            self.turns[pre] = hit
        return hit

    def sample_npc(self, pre: TableState, rng: random.Random) -> TableState:
        """The table after one roll of the NPC turn from `pre`, drawn with its chance: only the roll drawn
        is resolved. Where the active player's ability chooses the roll from every roll's value (Alice
        Smith, MT-ρ), the chances come from scoring.TurnScorer's values (npc_turn's, without building
        the states). A card in play may set a die (card_effects: GameRules.dice_for)."""
        g = self.g
        who = pre.active_character
        dice = g.dice_for(pre)
        plain = dice is g.dice or dice == g.dice
        if who in ROLL_CHOOSERS:  # their choice reads every roll's value: the scorer's, without the states
            if self.chances_of is not None and plain:  # the policy's scorer (what its exact score worked out)
                chances = self.chances_of(pre)
            else:
                results = self._rolls(pre, dice)
                chances = roll_chances(who, dice, lambda b, r: results(b, r).scaled)
            pairs, pick = chances.rolls, rng.randrange(chances.denominator)
        else:
            pairs = self.pairs if plain else [(b, r, cb * cr) for b, cb in dice.counts("black").items()
                                              for r, cr in dice.counts("red").items()]
            pick = rng.randrange(36)
        k = 0
        while pick >= pairs[k][2]:
            pick -= pairs[k][2]
            k += 1
        b, r, _ = pairs[k]
        return self.roll_table(pre, b, r, dice)

    def roll_table(self, pre: TableState, b: str, r: str, dice) -> TableState:
        """The table after the roll (face kinds `b`, `r`) of the NPC turn from `pre`: npc_turn.resolve_roll's."""
        g = self.g
        if pre.seat_of("arcitech") is None or not tears(g, pre, b):  # no choice inside the NPC turn: the
            return rolled(g, pre, b, r)  # encounters alone
        # ArciTech's re-post weighs every choice's value: the scorer's choice (npc_turn's, from the numbers
        # of scoring.TurnScorer, which works them out without building a table per choice), replayed
        if self.rolls_of is not None and (dice is g.dice or dice == g.dice):  # the policy's (its exact score's)
            results = self.rolls_of(pre)
        else:
            results = self._rolls(pre, dice)
        return rolled(g, pre, b, r, results(b, r).repost)

    def _rolls(self, pre: TableState, dice):
        """scoring.TurnScorer.rolls(pre) with these dice, from a scorer kept by horizon and dice."""
        g = self.g
        v = g.valuer(pre, self.valuers)
        t = self.scorers.get((v.horizon, dice))
        if t is None or len(t._plans) > 50_000:
            t = self.scorers[(v.horizon, dice)] = TurnScorer(g.board, g.rules, dice, v)
        return t.rolls(pre)

    def choose(self, s: TableState) -> TableState:
        self.decided.add(s if self.keep else position_key(s))
        return self.policy.choose(s)

    def trim(self) -> None:
        """Drop what is kept only to go faster (the NPC-turn distributions, the policy's own caches)."""
        self.turns.clear()
        self.scorers.clear()
        trim = getattr(self.policy, "trim", None)
        if trim is not None:
            trim()


def position_key(s: TableState) -> int:
    """A number for a position of one game, the same in every process (the forecast's second process counts
    what it decided with it): the hash of its whole numbers. A dataclass's own hash is not: strings hash
    with a seed per process, and None by its address. The characters are left out: they are the same in
    every position of one forecast."""
    return hash((s.oppressors, s.civilians, s.players, s.posters, s.junk, s.funds, s.reputation, s.office,
                 s.entry, s.active, -1 if s.round is None else s.round, s.ended is not None))


def tears(g: GameRules, s: TableState, black: str) -> bool:
    """Whether an Oppressor moved by the black face kind `black` lands on a space with posters on `s`. Only
    then can ArciTech's re-post come up in that roll (rulebook "Character Abilities": ArciTech puts back
    up a poster an Oppressor tore down; posters only go down in the NPC turn until then, so a space bare
    on `s` is bare when its Oppressor meets it): where none does, the roll's table is `rolled`'s."""
    if not is_arrow(black) or not s.oppressors:
        return False
    path, posters = g.board.path(face_colour(black)), s.posters
    return any(posters[path[x]] for x in s.oppressors)


def rolled(g: GameRules, s: TableState, black: str, red: str, repost: tuple[int, int] | None = None) -> TableState:
    """The table after the roll (face kinds `black`, `red`) of the NPC turn from `s`, at a table where ArciTech's
    re-post (which weighs values) does not come up, or with the re-post given (`repost`: (k, space), a poster
    back up on space right after the k-th Oppressor's encounter, as scoring.TurnScorer chooses it; None:
    declined or impossible):
    npc_turn.resolve_roll's table (rulebook "NPC Turn": the Oppressors move, then the Civilians; their
    encounters in that order, each Oppressor's, then each Civilian's; an X face moves the Entry token),
    without its record of the encounters."""
    board, rules = g.board, g.rules
    opp, civ, entry = s.oppressors, s.civilians, s.entry
    if is_arrow(black):
        path = board.path(face_colour(black))
        opp = tuple([path[x] for x in opp])
    else:
        entry = board.path(face_colour(black))[entry]
        black = None
    if is_arrow(red):
        path = board.path(face_colour(red))
        civ = tuple([path[x] for x in civ])
    else:
        entry = board.path(face_colour(red))[entry]
        red = None
    players_at = [0] * board.n
    for p in s.players:
        players_at[p] += 1
    civ_at = [0] * board.n
    for c in civ:
        civ_at[c] += 1
    uber = s.where("uberbot")
    offices, rewards, target = board.offices, rules.office_rewards, rules.target
    posters = list(s.posters)
    funds, rep, office, junk, ended = s.funds, s.reputation, s.office, s.junk, None
    for k, x in enumerate(opp if black else ()):
        here = posters[x]
        if here * (2 if uber == x else 1) + civ_at[x] + players_at[x] >= 4:
            rep = max(0, rep - 1)
            if rep == 0:
                ended = FAILURE
                break
        if players_at[x]:
            funds = max(0, funds - 2 * players_at[x])
        if here:
            junk += here
            posters[x] = 0
        if x in offices:
            office = max(0, office - 2)
        if repost is not None and repost[0] == k:
            posters[repost[1]] += 1
            junk -= 1
    if ended is None and red:
        for x in civ:
            if x in opp:  # an Oppressor there (moved there or not): the Civilian meets nothing else
                continue
            for gift in (players_at[x], posters[x] * (2 if uber == x else 1),
                         rewards[office] if x in offices and office > 0 else 0):
                if gift:
                    funds += gift
                    if funds >= target:
                        ended = SUCCESS
                        break
            if ended is not None:
                break
    return changed(s, oppressors=opp, civilians=civ, posters=tuple(posters), junk=junk, funds=funds,
                   reputation=rep, office=office, entry=entry, ended=ended)


def _start(g: GameRules, s: TableState) -> TableState:
    s = s if s.round is not None else _with_round(s)
    return start_round(g, s) if entry_pending(g, s) else s


def _with_round(s: TableState) -> TableState:
    """A state without a round number: the round of the NPCs that have entered (round 1 before any)."""
    return replace(s, round=max(1, s.entered))


def canonical(g: GameRules, s: TableState, policy, npc_turn_next: bool = False) -> tuple[TableState, bool]:
    """The position every game of a forecast from `s` passes through before its first roll: a round start
    that is due applied, and the active player's turn as the policy plays it (unless it was played, or it
    ends the game). Returns (that position, whether the NPC turn comes next): forecasts of positions with
    the same canonical position play the same games (the table before and after "Do this" share one)."""
    st = _start(g, s)
    if st.ended is None and not npc_turn_next:
        pre = policy.choose(st)
        if pre.ended is None:
            return pre, True
    return st, npc_turn_next


def exact_forecast(g: GameRules, s: TableState, policy, exact_limit: int = 400, npc_turn_next: bool = False,
                   game: _Game | None = None, deadline: float | None = None) -> _Tally:
    """Every roll of every NPC turn to the end of the game (TooBig past `exact_limit` decision positions,
    or past `deadline`, a time.perf_counter() value)."""
    play = game or _Game(g, policy)
    memo: dict[tuple[TableState, bool], _Tally] = {}

    def after_npc(st: TableState) -> _Tally:
        if st.ended is not None:
            return _ending(_kind(st), st.round, st.funds)
        nxt = next_turn(g, st)
        if nxt == TIME_UP:
            return _ending(TIME_UP, st.round, st.funds)
        if nxt.ended is not None:  # the round-start entry ended it
            return _ending(_kind(nxt), nxt.round, nxt.funds)
        return solve(nxt, False)

    def solve(st: TableState, npc_next: bool) -> _Tally:
        key = (st, npc_next)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if npc_next:
            pre = st
        else:
            if st not in play.decided and (len(play.decided) >= exact_limit
                                           or (deadline is not None and time.perf_counter() > deadline)):
                raise TooBig
            pre = play.choose(st)
        if pre.ended is not None:
            out = _ending(_kind(pre), pre.round, pre.funds)
        else:
            out = _Tally()
            for w, denom, after in play.npc_outcomes(pre):
                out.add(after_npc(after), Fraction(w, denom))
        memo[key] = out
        return out

    first = _start(g, s)
    if first.ended is not None:
        return _ending(_kind(first), first.round, first.funds)
    return solve(first, npc_turn_next)


class OutOfTime(Exception):
    """A sampled game was cut off at the deadline (it is not counted)."""


def _sample_game(g: GameRules, play: _Game, s: TableState, rng: random.Random, npc_next: bool,
                 deadline: float | None = None) -> tuple[str, int, int]:
    """One game to its end: (how it ended, round, final funds); OutOfTime past `deadline`."""
    st = _start(g, s)
    if st.ended is not None:
        return _kind(st), st.round, st.funds
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            raise OutOfTime
        pre = st if npc_next else play.choose(st)
        npc_next = False
        if pre.ended is not None:
            return _kind(pre), pre.round, pre.funds
        after = play.sample_npc(pre, rng)
        if after.ended is not None:
            return _kind(after), after.round, after.funds
        nxt = next_turn(g, after)
        if nxt == TIME_UP:
            return TIME_UP, after.round, after.funds
        if nxt.ended is not None:
            return _kind(nxt), nxt.round, nxt.funds
        st = nxt


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == n else min(1.0, centre + half))


def runs_for(half_width: float, p: float = 0.5) -> int:
    """Games needed for a 95 % interval of +-half_width around p (normal approximation)."""
    return math.ceil(Z95 ** 2 * p * (1 - p) / half_width ** 2)


def _approx(k: int, n: int) -> Estimate:
    return Estimate(approx=k / n if n else 0.0, interval=wilson(k, n))


class Forecaster:
    """The forecast of one position, computed in steps: `run(budget_s)` tries the exact count first (if
    the tree turns out too big or too slow, it is dropped for good), then samples more games, and can
    be called again to narrow the intervals. Game k always uses the random stream `f"{seed}:{k}"`, so
    the answer after n games is the same however the runs were split."""

    def __init__(self, g: GameRules, s: TableState, policy, *, seed: int = 0, half_width: float = 0.02,
                 max_runs: int | None = None, exact_limit: int = 400, npc_turn_next: bool = False,
                 rollout=None, helper=None):
        if s.ended is not None:
            raise ValueError("the game is over")
        self.g, self.s, self.seed, self.half_width = g, s, seed, half_width
        self.max_runs = max_runs if max_runs is not None else runs_for(half_width)
        self.exact_limit, self.npc_next = exact_limit, npc_turn_next
        self.play = _Game(g, policy)  # the exact count's
        # the sampled games' (rollout.RolloutPolicy estimates the suggestions' score with far less work; it
        # picks another turn about one time in seven, measured in bench/bench_robotariat_rollout.py)
        self.rollout = rollout
        self.sampler = self.play if rollout is None else _Game(g, rollout, keep=False)
        self.exact: _Tally | None = None
        self.exact_tried = False
        self.counts: dict[tuple[str, int], int] = {}
        self.funds: list[int] = []
        self.games: list[tuple[str, int, int]] = []  # game k's (ending, round, final funds)
        self.seconds = 0.0
        self.lock = threading.Lock()  # one request at a time goes on sampling
        # games_helper.GamesHelper: a second process plays about half of the sampled games (the rollout's only)
        self.helper = helper if rollout is not None else None
        self.token = uuid.uuid4().hex  # the helper keeps this forecast's policy warm under it
        self.pending: dict[int, tuple[str, int, int]] = {}  # games played past one not played yet
        self._setup: bytes | None = None
        self.helped = 0  # games the helper played (counted or waiting for an earlier one)
        self.last: GameForecast | None = None  # the answer of the last run (a request that cannot wait gives it)

    @property
    def runs(self) -> int:
        return len(self.funds)

    def done(self) -> bool:
        if self.exact is not None:
            return True
        n = self.runs
        if n >= self.max_runs:
            return True
        if n < 2 * 50:
            return False
        totals = [sum(c for (k, _), c in self.counts.items() if k == kind) for kind in ENDINGS]
        return max((hi - lo) / 2 for lo, hi in (wilson(k, n) for k in totals)) <= self.half_width

    def run(self, budget_s: float | None = None, until_runs: int | None = None) -> GameForecast:
        """Go on: the exact count (first call), then sampling until done, `budget_s` seconds pass, or
        `until_runs` games have been played in all."""
        t0 = time.perf_counter()
        deadline = None if budget_s is None else t0 + budget_s
        decisions = turns_left(self.g, _start(self.g, self.s)) - self.npc_next - 1
        if not self.exact_tried and BRANCHING ** decisions > self.exact_limit:
            self.exact_tried = True  # far more positions than the limit: the whole budget goes to sampling
        if not self.exact_tried:
            self.exact_tried = True
            try:  # the exact count gets half the budget; what it decided is reused by the sampling
                half = None if budget_s is None else t0 + budget_s / 2
                self.exact = exact_forecast(self.g, self.s, self.play.policy, self.exact_limit, self.npc_next,
                                            self.play, half)
            except TooBig:
                self.exact = None
        limit = self.max_runs if until_runs is None else min(self.max_runs, until_runs)
        job = None
        if self.helper is not None and deadline is not None and not self.done() and self.runs + 1 < limit:
            if self._setup is None:
                self._setup = pickle.dumps((self.g, self.s, self.npc_next, self.seed))
            job = self.helper.begin(self._setup, self.token, self.runs, limit, set(self.pending),
                                    deadline - time.perf_counter())
        try:
            k = self.runs
            while True:
                if job is not None:  # the helper's games so far: counted as they come, as one process counts
                    self._add_helped(job.collect())
                if self.done() or (deadline is not None and time.perf_counter() >= deadline):
                    break
                if job is not None:  # the next game neither side has taken
                    k = job.take()
                    while k in self.pending:
                        k = job.take()
                if k >= limit:
                    break
                try:
                    self.pending[k] = _sample_game(self.g, self.sampler, self.s, random.Random(f"{self.seed}:{k}"),
                                                   self.npc_next, deadline)
                except OutOfTime:
                    break
                self._take_pending()
                k = self.runs
                while k in self.pending:
                    k += 1
        finally:
            if job is not None:
                self._add_helped(job.finish(deadline))
                self.sampler.decided.update(job.decided)
        # what the games kept only to go faster goes: a forecast stays in the process between a page's views,
        # and every object it keeps is walked by each full pass of the garbage collector (of any request)
        self.play.trim()
        if self.sampler is not self.play:
            self.sampler.trim()
        self.seconds += time.perf_counter() - t0
        self.last = self.result()
        return self.last

    def _take_pending(self) -> None:
        """Count the games played, in index order (game k only once games 0 to k - 1 are counted), up to
        where one process would have stopped (`done`)."""
        while self.runs in self.pending and not self.done():
            self._count(*self.pending.pop(self.runs))

    def _add_helped(self, games: list[tuple[int, str, int, int]]) -> None:
        for k, kind, rnd, f in games:
            self.pending[k] = (kind, rnd, f)
        self.helped += len(games)
        self._take_pending()

    def decisions(self) -> int:
        if self.sampler is self.play:
            return len(self.play.decided)
        return len(self.play.decided) + len(self.sampler.decided - {position_key(s) for s in self.play.decided})

    def _count(self, kind: str, rnd: int, funds: int) -> None:
        self.games.append((kind, rnd, funds))
        self.counts[(kind, rnd)] = self.counts.get((kind, rnd), 0) + 1
        self.funds.append(funds)

    def absorb(self, games: list[tuple[str, int, int]]) -> bool:
        """Take the games another process played for this same forecast, when it played more: game k is
        the same wherever it is played (its random stream is `f"{seed}:{k}"`), so the longer list holds
        the shorter. Returns whether anything was taken."""
        if len(games) <= self.runs:
            return False
        self.counts, self.funds, self.games = {}, [], []
        for kind, rnd, funds in games:
            self._count(kind, rnd, funds)
        self.pending = {k: g for k, g in self.pending.items() if k >= self.runs}
        self._take_pending()
        return True

    def result(self) -> GameForecast:
        if self.exact is not None:
            tally = self.exact

            def p_of(kind: str, rnd: int | None = None) -> Fraction:
                return sum((w for (k, r), w in tally.endings.items() if k == kind and (rnd is None or r == rnd)),
                           Fraction(0))

            rounds = sorted({r for _, r in tally.endings})
            return GameForecast(
                method="exact", p_success=Estimate.of(p_of(SUCCESS)),
                p_fail_reputation=Estimate.of(p_of("reputation")), p_fail_time=Estimate.of(p_of(TIME_UP)),
                expected_funds=Estimate.of(tally.funds),
                by_round=tuple(RoundEnding(round=r, p_success=Estimate.of(p_of(SUCCESS, r)),
                                           p_fail_reputation=Estimate.of(p_of("reputation", r)),
                                           p_fail_time=Estimate.of(p_of(TIME_UP, r))) for r in rounds),
                runs=None, decisions=self.decisions(), seconds=self.seconds)
        n, counts, funds = self.runs, self.counts, self.funds
        totals = [sum(c for (k, _), c in counts.items() if k == kind) for kind in ENDINGS]
        mean = sum(funds) / n if n else 0.0
        sd = math.sqrt(sum((f - mean) ** 2 for f in funds) / (n - 1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n) if n else 0.0
        stopped = None
        if not self.done():
            stopped = "time"
        elif n >= self.max_runs and max((hi - lo) / 2 for lo, hi in (wilson(k, n) for k in totals)) > self.half_width:
            stopped = "max_runs"
        return GameForecast(
            method="monte_carlo", p_success=_approx(totals[0], n), p_fail_reputation=_approx(totals[1], n),
            p_fail_time=_approx(totals[2], n),
            expected_funds=Estimate(approx=mean, interval=(mean - half, mean + half)),
            by_round=tuple(RoundEnding(round=r, p_success=_approx(counts.get((SUCCESS, r), 0), n),
                                       p_fail_reputation=_approx(counts.get(("reputation", r), 0), n),
                                       p_fail_time=_approx(counts.get((TIME_UP, r), 0), n))
                           for r in sorted({r for _, r in counts})),
            runs=n, decisions=self.decisions(), seconds=self.seconds, stopped=stopped, seed=self.seed)


def game_forecast(g: GameRules, s: TableState, policy, *, seed: int = 0, half_width: float = 0.02,
                  max_runs: int | None = None, budget_s: float | None = None, exact_limit: int = 400,
                  npc_turn_next: bool = False) -> GameForecast:
    """The forecast of the rest of the game from `s` (the active player's turn next, or their NPC turn
    when `npc_turn_next`): exact when the tree allows, else Monte Carlo (see the module docstring)."""
    return Forecaster(g, s, policy, seed=seed, half_width=half_width, max_runs=max_runs, exact_limit=exact_limit,
                      npc_turn_next=npc_turn_next).run(budget_s)
