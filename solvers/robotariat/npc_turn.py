"""The NPC turn, exactly (rulebook "NPC Turn", "Encounter Quick-Reference Table"; semantics.md).

1. Move: an arrow on the black die moves every Human Oppressor one step on that colour's path, then an
   arrow on the red die moves every Civilian Robot; an X moves the NPC Entry token one step on the X's
   colour path instead (black die first).
2. Resolve: each oppressor that moved meets its new space, in table order, then each civilian that
   moved. Oppressor: 4+ posters (doubled on Überbot's space) + civilians + players there -> reputation
   -1; -2 funds per player there; posters there to the junk pile; on a Recruitment Office
   contributions -2. Civilian: nothing if an oppressor is there; else +1 per player, +1 per poster
   (doubled with Überbot), and on a Recruitment Office with contributions > 0 the Office Reward.
3. Funds and reputation stop at 0; the game ends the moment funds reach the target or reputation
   reaches 0, and nothing after that point resolves.

Choices inside the turn (Alice Smith's path, MT-ρ's re-roll, ArciTech's re-posted poster) are made
with value.Valuer; ties go to the first option in a fixed order (documented at each choice).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

from .board import Board
from .model import FAILURE, SUCCESS, Dice, Rules, TableState, changed, face_colour, is_arrow
from .value import Valuer

OPPRESSOR, CIVILIAN = "oppressor", "civilian"
RULES_NPC_TURN = ("rb-npc-turn", "rb-encounter-quick-reference-table", "rb-game-end", "rb-revolution-table")


@dataclass(frozen=True)
class Encounter:
    """One NPC meeting the space it moved onto (or entered on), with what it changed."""
    npc: str  # OPPRESSOR or CIVILIAN
    index: int  # its place in the table's list of that kind
    space: int
    reputation: int = 0  # deltas, after the floors at 0
    funds: int = 0
    office: int = 0
    posters_junked: int = 0
    fined_players: int = 0  # players an oppressor fined (a fine happened when > 0)
    suspicious: bool = False  # an oppressor counted 4 or more
    blocked: bool = False  # a civilian found an oppressor there and did nothing
    ended: str | None = None  # the game ended during this encounter
    reposted_to: int | None = None  # ArciTech put one torn poster back up there, right after this encounter


@dataclass(frozen=True)
class TurnResult:
    """The NPC turn for one roll (face kinds), resolved to the end or to the moment the game ended."""
    black: str
    red: str
    state: TableState
    encounters: tuple[Encounter, ...]
    funds_delta: int
    reputation_delta: int
    office_delta: int
    posters_junked: int
    fines: int  # encounters that fined at least one player

    @property
    def arcitech(self) -> int | None:
        for e in self.encounters:
            if e.reposted_to is not None:
                return e.reposted_to
        return None


class _Run:
    """Mutable bookkeeping while one roll's encounters resolve (copied when ArciTech's choice branches)."""
    __slots__ = ("encounters", "ended", "funds", "junk", "office", "posters", "rep", "used")

    def __init__(self, s: TableState):
        self.funds, self.rep, self.office = s.funds, s.reputation, s.office
        self.posters, self.junk = list(s.posters), s.junk
        self.ended: str | None = None
        self.encounters: list[Encounter] = []
        self.used: tuple[int, int] | None = None  # ArciTech's once-per-NPC-turn re-post: (encounter, space)

    def copy(self) -> _Run:
        r = _Run.__new__(_Run)
        r.funds, r.rep, r.office, r.junk, r.ended, r.used = (self.funds, self.rep, self.office, self.junk,
                                                             self.ended, self.used)
        r.posters, r.encounters = list(self.posters), list(self.encounters)
        return r

    def final_encounters(self) -> tuple[Encounter, ...]:
        if self.used is None:
            return tuple(self.encounters)
        out = list(self.encounters)
        i, space = self.used
        out[i] = replace(out[i], reposted_to=space)
        return tuple(out)


class _Table:
    """What stays fixed while one roll resolves: positions after the move, players, rules."""
    __slots__ = ("board", "civ", "civ_at", "opp", "opp_on", "players_at", "rules", "target", "uber")

    def __init__(self, board: Board, rules: Rules, s: TableState, opp: tuple[int, ...], civ: tuple[int, ...],
                 players_at: list[int] | None = None, uber: int | None = -1):
        self.board, self.rules, self.opp, self.civ = board, rules, opp, civ
        if players_at is None:
            players_at = _players_at(board, s)
        self.players_at = players_at
        self.civ_at = [0] * board.n
        for c in civ:
            self.civ_at[c] += 1
        self.opp_on = set(opp)
        self.uber = s.where("uberbot") if uber == -1 else uber
        self.target = rules.target


def _players_at(board: Board, s: TableState) -> list[int]:
    at = [0] * board.n
    for p in s.players:
        at[p] += 1
    return at


def _oppressor_meets(t: _Table, r: _Run, index: int, x: int) -> int:
    """Resolve one oppressor's encounter; returns the posters it tore down."""
    before_funds, before_rep, before_office = r.funds, r.rep, r.office
    posters = r.posters[x]
    count = posters * (2 if t.uber == x else 1) + t.civ_at[x] + t.players_at[x]
    suspicious = count >= 4
    if suspicious:
        r.rep = max(0, r.rep - 1)
        if r.rep == 0:
            r.ended = FAILURE
            r.encounters.append(Encounter(OPPRESSOR, index, x, reputation=r.rep - before_rep, suspicious=True,
                                          ended=FAILURE))
            return 0
    fined = t.players_at[x]
    if fined:
        r.funds = max(0, r.funds - 2 * fined)
    if posters:
        r.junk += posters
        r.posters[x] = 0
    if x in t.board.offices:
        r.office = max(0, r.office - 2)
    r.encounters.append(Encounter(OPPRESSOR, index, x, reputation=r.rep - before_rep, funds=r.funds - before_funds,
                                  office=r.office - before_office, posters_junked=posters, fined_players=fined,
                                  suspicious=suspicious))
    return posters


def _civilian_meets(t: _Table, r: _Run, index: int, x: int) -> None:
    if x in t.opp_on:
        r.encounters.append(Encounter(CIVILIAN, index, x, blocked=True))
        return
    before = r.funds
    # three donations in the order the rulebook lists them; each is added whole, then the target is checked
    office_gift = t.rules.office_rewards[r.office] if x in t.board.offices and r.office > 0 else 0
    for gift in (t.players_at[x], r.posters[x] * (2 if t.uber == x else 1), office_gift):
        if gift:
            r.funds += gift
            if r.funds >= t.target:
                r.ended = SUCCESS
                break
    r.encounters.append(Encounter(CIVILIAN, index, x, funds=r.funds - before, ended=r.ended))


def _final_state(s: TableState, t: _Table, r: _Run, entry: int) -> TableState:
    return changed(s, oppressors=t.opp, civilians=t.civ, posters=tuple(r.posters), junk=r.junk, funds=r.funds,
                   reputation=r.rep, office=r.office, entry=entry, ended=r.ended)


def _resolve(s: TableState, t: _Table, queue: list[tuple[str, int, int]], entry: int, valuer: Valuer | None,
             arcitech: bool, valued: bool = True) -> tuple[_Run, int | None]:
    """Resolve the encounters in `queue`; returns the run and its scaled value (ArciTech's best choice);
    `valued` False: the value is left out (None) where no ArciTech choice needs it."""

    def value(r: _Run) -> int:
        if valuer is None:
            return 0
        if valuer.ahead is not None:  # looking past: V reads the positions and the round too
            return valuer.after_scaled(_final_state(s, t, r, entry))
        return valuer.scaled(r.funds, r.rep, r.office, r.posters, t.civ, r.ended)

    def run(r: _Run, qi: int, need: bool = True) -> tuple[_Run, int | None]:
        while qi < len(queue) and r.ended is None:
            kind, index, x = queue[qi]
            qi += 1
            if kind == CIVILIAN:
                _civilian_meets(t, r, index, x)
                continue
            torn = _oppressor_meets(t, r, index, x)
            if torn and arcitech and r.used is None and valuer is not None:
                return _arcitech_choice(r, qi)
        return r, value(r) if need else None

    def _arcitech_choice(r: _Run, qi: int) -> tuple[_Run, int]:
        # Ties: declining first, then spaces in board order. Spaces no later encounter visits only differ
        # by their future-donation value, so one of them (the best, first in board order) stands for all.
        best = run(r.copy(), qi)
        visited = {x for _, _, x in queue[qi:]}
        quiet = [s_ for s_ in range(t.board.n) if s_ not in visited]
        candidates = set(visited)
        if quiet:
            if valuer is not None and valuer.horizon and valuer.w_poster:
                gain = [0] * t.board.n
                for c in t.civ:
                    row = valuer.arrivals(c)
                    for s_ in quiet:
                        gain[s_] += row[s_]
                candidates.add(max(quiet, key=lambda s_: (gain[s_], -s_)))
            else:
                candidates.add(quiet[0])
        for space in sorted(candidates):
            branch = r.copy()
            branch.used = (len(branch.encounters) - 1, space)
            branch.posters[space] += 1
            branch.junk -= 1
            result = run(branch, qi)
            if result[1] > best[1]:
                best = result
        return best

    return run(_Run(s), 0, valued)


def _move(board: Board, s: TableState, black: str, red: str) -> tuple[tuple[int, ...], tuple[int, ...], int,
                                                                        list[tuple[str, int, int]]]:
    opp, civ, entry = s.oppressors, s.civilians, s.entry
    queue: list[tuple[str, int, int]] = []
    if is_arrow(black):
        path = board.path(face_colour(black))
        opp = tuple(path[p] for p in opp)
        queue += [(OPPRESSOR, i, x) for i, x in enumerate(opp)]
    else:
        entry = board.path(face_colour(black))[entry]
    if is_arrow(red):
        path = board.path(face_colour(red))
        civ = tuple(path[c] for c in civ)
        queue += [(CIVILIAN, i, x) for i, x in enumerate(civ)]
    else:
        entry = board.path(face_colour(red))[entry]
    return opp, civ, entry, queue


@dataclass(frozen=True)
class Outcome:
    black: str
    red: str
    weight: int  # p = weight / Forecast.denominator
    result: TurnResult
    scaled: int  # V after this roll times Valuer.scale (value.py)
    denominator: int
    scale: int

    @property
    def p(self) -> Fraction:
        return Fraction(self.weight, self.denominator)

    @property
    def value(self) -> Fraction:
        return Fraction(self.scaled, self.scale)


@dataclass(frozen=True)
class Forecast:
    """Every outcome of one NPC turn, merged by face kinds, with exact expectations (whole-number
    weights over `denominator`: 36, 6 for Alice Smith, 36 * 36 for MT-ρ)."""
    outcomes: tuple[Outcome, ...]
    value_before: Fraction
    denominator: int
    alice: dict | None = None  # {"chosen": "yellow_arrow", "expected": {face: Fraction}, "tied": bool}
    mt_rho: dict | None = None  # {"reroll": [(black, red)], "p_reroll": Fraction, "fresh_value": Fraction}

    def expect(self, f) -> Fraction:
        return Fraction(sum(o.weight * f(o) for o in self.outcomes), self.denominator)

    def prob(self, pred) -> Fraction:
        return Fraction(sum(o.weight for o in self.outcomes if pred(o)), self.denominator)

    @property
    def expected_value(self) -> Fraction:
        """E[V after] - V before: the score of this NPC turn in SPARK-equivalents."""
        scale = self.outcomes[0].scale
        return Fraction(sum(o.weight * o.scaled for o in self.outcomes), self.denominator * scale) - self.value_before

    def summary(self) -> dict[str, Fraction]:
        return {
            "funds_delta": self.expect(lambda o: o.result.funds_delta),
            "reputation_delta": self.expect(lambda o: o.result.reputation_delta),
            "office_delta": self.expect(lambda o: o.result.office_delta),
            "posters_junked": self.expect(lambda o: o.result.posters_junked),
            "p_reputation_loss": self.prob(lambda o: o.result.reputation_delta < 0),
            "p_fine": self.prob(lambda o: o.result.fines > 0),
            "p_success": self.prob(lambda o: o.result.state.ended == SUCCESS),
            "p_failure": self.prob(lambda o: o.result.state.ended == FAILURE),
            "value": self.expected_value,
        }


class RollKey(NamedTuple):
    """Everything one roll's encounters read: with this key equal, they resolve the same way."""
    black: str
    red: str
    oppressors: tuple[int, ...]  # after the move
    civilians: tuple[int, ...]
    funds: int
    reputation: int
    office: int
    uberbot: int | None  # Überbot's space when an NPC moves onto it, else None
    visited: tuple[tuple[int, int, int], ...]  # (space, posters, players) of each space an NPC moves onto
    posters_elsewhere: int | None = None  # ArciTech's re-post weighs the posters' value away from the encounters


@dataclass(frozen=True, slots=True)
class RollMemo:
    """What one roll's encounters did, to replay on another state with the same RollKey."""
    encounters: tuple[Encounter, ...]
    funds: int
    reputation: int
    office: int
    to_junk: int
    ended: str | None
    poster_changes: tuple[tuple[int, int], ...]  # (space, change in posters)


def _local_key(s: TableState, b: str, r: str, opp: tuple[int, ...], civ: tuple[int, ...],
               queue: list[tuple[str, int, int]], valuer: Valuer, arcitech: bool, players_at: list[int],
               uber: int | None) -> RollKey:
    """The roll's RollKey. With ArciTech at the table and posters an oppressor can tear down, the re-post
    choice also weighs the future value of the posters elsewhere (a constant for every branch that does
    not end the game), so that constant joins the key."""
    visited = sorted({x for _, _, x in queue})
    elsewhere = None
    if arcitech and valuer.horizon and valuer.w_poster and any(s.posters[x] for k, _, x in queue if k == OPPRESSOR):
        rows = [valuer.arrivals(c) for c in civ]
        elsewhere = sum(n * sum(row[x] for row in rows) for x, n in enumerate(s.posters) if n and x not in visited)
    return RollKey(black=b, red=r, oppressors=opp, civilians=civ, funds=s.funds, reputation=s.reputation,
                   office=s.office, uberbot=uber if uber in visited else None,
                   visited=tuple((x, s.posters[x], players_at[x]) for x in visited), posters_elsewhere=elsewhere)


def resolve_roll(board: Board, rules: Rules, s: TableState, b: str, r: str, valuer: Valuer, memo: dict | None = None,
                 arcitech: bool | None = None, players_at: list[int] | None = None,
                 uber: int | None = -1, valued: bool = True) -> tuple[TurnResult, int | None]:
    """One roll (face kinds `b` on the black die, `r` on the red) of the NPC turn from `s`, resolved: the
    result and V after it (scaled; None with `valued` False, for a caller that only reads the table: the
    value is then worked out only where ArciTech's re-post weighs its choices). `memo` as in npc_turn; the
    three before `valued` are `s`'s, when known."""
    if arcitech is None:
        arcitech = s.seat_of("arcitech") is not None
    if players_at is None:
        players_at = _players_at(board, s)
    if uber == -1:
        uber = s.where("uberbot")
    opp, civ, entry, queue = _move(board, s, b, r)
    if valuer.ahead is not None:  # the key leaves out what the look-past term reads (positions, round)
        memo = None
    local = _local_key(s, b, r, opp, civ, queue, valuer, arcitech, players_at, uber) if memo is not None else None
    found = memo.get(local) if local is not None else None
    if found is None:
        t = _Table(board, rules, s, opp, civ, players_at, uber)
        run, v = _resolve(s, t, queue, entry, valuer, arcitech, valued)
        after = _final_state(s, t, run, entry)
        encounters = run.final_encounters()
        if local is not None:
            differ = tuple((x, n - s.posters[x]) for x, n in enumerate(after.posters) if n != s.posters[x])
            memo[local] = RollMemo(encounters=encounters, funds=after.funds, reputation=after.reputation,
                                   office=after.office, to_junk=after.junk - s.junk, ended=after.ended,
                                   poster_changes=differ)
    else:
        encounters = found.encounters
        posters = list(s.posters)
        for x, delta in found.poster_changes:
            posters[x] += delta
        after = changed(s, oppressors=opp, civilians=civ, posters=tuple(posters), junk=s.junk + found.to_junk,
                        funds=found.funds, reputation=found.reputation, office=found.office, entry=entry,
                        ended=found.ended)
        v = valuer.after_scaled(after) if valued else None
    junked = fines = 0
    for e in encounters:
        junked += e.posters_junked
        fines += e.fined_players > 0
    return TurnResult(black=b, red=r, state=after, encounters=encounters, funds_delta=after.funds - s.funds,
                      reputation_delta=after.reputation - s.reputation, office_delta=after.office - s.office,
                      posters_junked=junked, fines=fines), v


def npc_turn(board: Board, rules: Rules, dice: Dice, s: TableState, valuer: Valuer,
             memo: dict | None = None) -> Forecast:
    """Every outcome of the NPC turn the active player conducts, with its exact probability.

    Alice Smith (active) chooses the oppressors' path instead of rolling the black die: the path with the
    higher expected V (yellow on a tie). MT-ρ (active) re-rolls both dice once when the first roll's V is
    below the expected V of a fresh roll (keeps on a tie). `memo` (a dict kept by the caller across
    states of one board, rules and valuer) reuses a roll's encounters between states that differ only
    away from the spaces the NPCs move onto."""
    if s.ended is not None:
        raise ValueError("the game is over; no NPC turn follows")
    arcitech = s.seat_of("arcitech") is not None
    cache: dict[tuple[str, str], tuple[TurnResult, int]] = {}
    players_at, uber = _players_at(board, s), s.where("uberbot")

    def roll(b: str, r: str) -> tuple[TurnResult, int]:
        hit = cache.get((b, r))
        if hit is None:
            hit = cache[(b, r)] = resolve_roll(board, rules, s, b, r, valuer, memo, arcitech, players_at, uber)
        return hit

    before = valuer.value(s)
    scale = valuer.scale
    chances = roll_chances(s.active_character, dice, lambda b, r: roll(b, r)[1])
    outcomes = tuple(Outcome(black=b, red=r, weight=w, result=roll(b, r)[0], scaled=roll(b, r)[1],
                             denominator=chances.denominator, scale=scale) for b, r, w in chances.rolls)
    alice = mt_rho = None
    if chances.alice_totals is not None:
        totals = chances.alice_totals
        alice = {"chosen": chances.rolls[0][0], "tied": totals["yellow_arrow"] == totals["blue_arrow"],
                 "expected": {b: Fraction(v, 6 * scale) - before for b, v in totals.items()}}
    if chances.fresh36 is not None:
        mt_rho = {"reroll": list(chances.reroll), "p_reroll": Fraction(chances.rerolled, 36),
                  "fresh_value": Fraction(chances.fresh36, 36 * scale) - before}
    return Forecast(outcomes, before, chances.denominator, alice=alice, mt_rho=mt_rho)


@dataclass(frozen=True)
class RollChances:
    """Which face-kind pairs the active player's NPC turn can show and with what whole-number weight over
    `denominator` (36; 6 when Alice Smith chooses the black die's path; 36 * 36 with MT-ρ's re-roll)."""
    denominator: int
    rolls: tuple[tuple[str, str, int], ...]  # (black, red, weight), weight > 0
    alice_totals: dict[str, int] | None = None  # Alice Smith: 6 * scale * E[V] for each path
    fresh36: int | None = None  # MT-ρ: 36 * scale * E[V of a fresh roll]
    reroll: tuple[tuple[str, str], ...] = ()  # MT-ρ re-rolls these first rolls
    rerolled: int = 0  # out of 36


def roll_chances(who: str | None, dice: Dice, scaled: Callable[[str, str], int]) -> RollChances:
    """The roll distribution of the NPC turn `who` conducts; `scaled(black, red)` is V after that roll.

    Alice Smith chooses the oppressors' path instead of rolling the black die: the path with the higher
    expected V (yellow on a tie). MT-ρ re-rolls both dice once when the first roll's V is below the
    expected V of a fresh roll (keeps on a tie)."""
    red = dice.counts("red")
    if who == "alice_smith":
        totals = {b: sum(cr * scaled(b, r) for r, cr in red.items()) for b in ("yellow_arrow", "blue_arrow")}
        chosen = "yellow_arrow" if totals["yellow_arrow"] >= totals["blue_arrow"] else "blue_arrow"
        return RollChances(denominator=6, rolls=tuple((chosen, r, cr) for r, cr in red.items()), alice_totals=totals)
    pairs = _PAIRS.get((dice.black, dice.red))
    if pairs is None:
        if len(_PAIRS) >= _PAIRS_KEPT:  # a request's dice are its own: keep a bounded few
            _PAIRS.clear()
        pairs = _PAIRS[(dice.black, dice.red)] = [(b, r, cb * cr) for b, cb in dice.counts("black").items()
                                                  for r, cr in red.items()]
    if who != "mt_rho":
        return RollChances(denominator=36, rolls=tuple(pairs))
    values = [scaled(b, r) for b, r, _ in pairs]
    fresh36 = 0
    for (_, _, c), x in zip(pairs, values):
        fresh36 += c * x
    kept = [36 * x >= fresh36 for x in values]
    reroll = tuple((b, r) for (b, r, _), k in zip(pairs, kept) if not k)
    rerolled = sum(c for (_, _, c), k in zip(pairs, kept) if not k)
    # P(pair) = P(first roll shows it and is kept) + P(re-roll) * P(pair), over 36 * 36
    weights = [(36 * c if k else 0) + rerolled * c for (_, _, c), k in zip(pairs, kept)]
    return RollChances(denominator=1296, rolls=tuple((b, r, w) for (b, r, _), w in zip(pairs, weights) if w),
                       fresh36=fresh36, reroll=reroll, rerolled=rerolled)


_PAIRS: dict[tuple, list[tuple[str, str, int]]] = {}  # each dice's face-kind pairs and their weights over 36
_PAIRS_KEPT = 256


@dataclass(frozen=True)
class EntryResult:
    """The round-start entry: which NPC came in, where, and what its encounter did."""
    npc: str
    space: int
    encounter: Encounter
    state: TableState
    last_round: bool


def enter_npc(board: Board, rules: Rules, s: TableState, npc: str, row: int, rows: int = 6) -> EntryResult:
    """Round start (rulebook "Round Order" 1): the next NPC of the entry track is placed on the Entry
    token's space and meets it like an NPC that moved there. It joins the end of the table's list.
    ArciTech's re-post is for NPC turns only, so it does not apply here."""
    if s.ended is not None:
        raise ValueError("the game is over; no round starts")
    x = s.entry
    opp, civ = s.oppressors, s.civilians
    if npc == OPPRESSOR:
        opp = opp + (x,)
        queue = [(OPPRESSOR, len(opp) - 1, x)]
    else:
        civ = civ + (x,)
        queue = [(CIVILIAN, len(civ) - 1, x)]
    t = _Table(board, rules, s, opp, civ)
    r, _ = _resolve(s, t, queue, s.entry, None, False)
    after = changed(_final_state(s, t, r, s.entry), round=row)
    return EntryResult(npc, x, r.encounters[0], after, last_round=row >= rows)


def move_npc(board: Board, rules: Rules, s: TableState, npc: str, index: int, to: int) -> tuple[Encounter, TableState]:
    """Move the Masses: one NPC steps along a black line to `to` and meets that space at once (during the
    player's turn: not an NPC turn, so no ArciTech re-post)."""
    if s.ended is not None:
        raise ValueError("the game is over")
    opp, civ = list(s.oppressors), list(s.civilians)
    group = opp if npc == OPPRESSOR else civ
    if to not in board.neighbours[group[index]]:
        raise ValueError("Move the Masses moves an NPC to a space joined to its own by a black line")
    group[index] = to
    t = _Table(board, rules, s, tuple(opp), tuple(civ))
    r, _ = _resolve(s, t, [(npc, index, to)], s.entry, None, False)
    return r.encounters[0], _final_state(s, t, r, s.entry)
