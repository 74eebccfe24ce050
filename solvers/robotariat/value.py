"""How Tablebot scores a Robotariat state: the one yardstick behind every choice it makes for the table.

A state's value, in SPARK, with weights the players may change:

    V = spark * funds + reputation * reputation_track
        + office * (Office Rewards at the current contributions) * (expected civilian arrivals at a
                   Recruitment Office in the next `horizon` NPC turns)
        + poster * (for each poster on the board: expected civilian arrivals at its space in the next
                   `horizon` NPC turns)
        + win   if the Revolution has succeeded
        - loss  if it has failed
    (the two future-donation terms count only while the game goes on)

Option scores are E[V after] - V before. The same V decides the choices the rules leave to the
players inside an NPC turn: the path Alice Smith picks, whether MT-ρ re-rolls, where ArciTech puts a
torn poster back. Future donations are an estimate from the civilians' own Markov chain on the red
die: they ignore later tear-downs, later fines and NPCs entering later, and Überbot's doubling.

Looking past the coming NPC turn (`Ahead`, reading `planner-score`): what is already known to come
until each player's piece moves again is added, in SPARK at the spark weight:

    + (expected Civilian arrivals on each player's space) * 1 - (expected Oppressor arrivals there) * 2

counted for each seat over the NPC turns before that seat's next turn (the turns of the players still to
play this round, then the round start, then the next round's turns before it), with the NPC of the
entry track entering on the Entry token's space at the round start (where the X faces take the token)
and moving on from there; the game's end after round 6 cuts the count. The NPC turn right before a round
start is valued after that round start's entry, exactly (npc_turn.enter_npc: fines, suspicion, torn
posters, donations, the game's end). The arrivals are exact expectations of each NPC's own Markov chain
on its die; they leave out Move the Masses and the choices of later turns (Alice Smith, MT-ρ), a
Civilian stopped by an Oppressor, suspicion, and fines once the funds are at 0.

Everything is exact: values are kept as whole numbers over a common denominator (the weights'
denominators times 6**horizon, times 36**seats when looking past), so comparisons inside the NPC turn
cost integer arithmetic only.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from fractions import Fraction
from math import lcm

from .board import Board
from .model import SUCCESS, Dice, Rules, TableState, face_colour, is_arrow

MAX_HORIZON = 30  # a game has at most 6 rounds x 5 players NPC turns


@dataclass(frozen=True)
class Weights:
    """SPARK-equivalents the players may tune (defaults: solvers/robotariat/data/defaults.toml)."""
    spark: Fraction = Fraction(1)
    reputation: Fraction = Fraction(5)
    office: Fraction = Fraction(1)
    poster: Fraction = Fraction(1)
    win: Fraction = Fraction(100)
    loss: Fraction = Fraction(100)

    def as_dict(self) -> dict[str, Fraction]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Ahead:
    """The game's order, for looking past the coming NPC turn: how many seats play (in seat order from
    seat 0), the entry track, and the game's end (game.GameRules holds the same numbers)."""
    seats: int
    entry_track: tuple[str, ...]
    max_rounds: int = 6
    max_oppressors: int = 3
    max_civilians: int = 3


def default_horizon(players: int, state: TableState, max_rounds: int = 6) -> int:
    """One more round of NPC turns after the coming one, cut at the end of round 6 when the round is known
    (players take turns in seat order starting from seat 0, the first player)."""
    if state.round is None:
        return players
    left = (max_rounds - state.round) * players + (players - 1 - state.active)
    return max(0, min(players, left))


class Valuer:
    """V of states for one board, dice, rules and weights (cached civilian arrival rows)."""

    def __init__(self, board: Board, rules: Rules, dice: Dice, weights: Weights, horizon: int,
                 ahead: Ahead | None = None):
        if not 0 <= horizon <= MAX_HORIZON:
            raise ValueError(f"horizon must be 0..{MAX_HORIZON}")
        self.board, self.rules, self.dice, self.weights, self.horizon = board, rules, dice, weights, horizon
        self.ahead = ahead
        self.e = 36 ** ahead.seats if ahead is not None else 1  # the look-past term's denominator
        self.k = lcm(*(w.denominator for w in weights.as_dict().values()))
        self.d = 6 ** horizon
        w = {name: int(value * self.k) for name, value in weights.as_dict().items()}
        self.w_spark, self.w_rep, self.w_office = w["spark"], w["reputation"], w["office"]
        self.w_poster, self.w_win, self.w_loss = w["poster"], w["win"], w["loss"]
        red = dice.counts("red")
        self._red = (red.get("yellow_arrow", 0), red.get("blue_arrow", 0))
        self._rows: dict[int, list[int]] = {}
        self._future: dict[tuple, tuple[int, int]] = {}
        self._walks: dict[tuple, list] = {}  # (die, turns) -> each start's row
        self._entries: dict[tuple, tuple[int, ...]] = {}
        self._ahead: dict[tuple, int] = {}
        self._npc_shares: dict[tuple, int] = {}
        self._entry_shares: dict[tuple, int] = {}
        self.scale = self.k * self.d * self.e  # V = scaled value / scale

    def arrivals(self, start: int) -> list[int]:
        """Expected number of times a civilian now on `start` moves onto each space in the next `horizon`
        NPC turns, times 6**horizon (whole numbers)."""
        row = self._rows.get(start)
        if row is not None:
            return row
        n, cy, cb = self.board.n, *self._red
        stay = 6 - cy - cb
        yellow, blue = self.board.yellow, self.board.blue
        row = [0] * n
        dist = [0] * n
        dist[start] = 1
        for t in range(1, self.horizon + 1):
            new = [0] * n
            scale = 6 ** (self.horizon - t)
            for u, m in enumerate(dist):
                if not m:
                    continue
                if cy:
                    new[yellow[u]] += m * cy
                    row[yellow[u]] += m * cy * scale
                if cb:
                    new[blue[u]] += m * cb
                    row[blue[u]] += m * cb * scale
                if stay:
                    new[u] += m * stay
            dist = new
        self._rows[start] = row
        return row

    def future_scaled(self, civilians: tuple[int, ...] | list[int], posters: tuple[int, ...] | list[int],
                      office: int) -> tuple[int, int]:
        """(office donations, poster donations) expected over the horizon, each times 6**horizon."""
        if not self.horizon or not civilians:
            return 0, 0
        key = (tuple(civilians), tuple(posters), office)
        hit = self._future.get(key)
        if hit is not None:
            return hit
        offices = self.board.offices
        office_part = poster_part = 0
        reward = self.rules.office_rewards[office]
        for c in civilians:
            row = self.arrivals(c)
            if reward:
                office_part += reward * sum(row[o] for o in offices)
            for s, count in enumerate(posters):
                if count:
                    poster_part += count * row[s]
        if len(self._future) < 50_000:
            self._future[key] = (office_part, poster_part)
        return office_part, poster_part

    def base_scaled(self, funds: int, reputation: int, office: int, posters, civilians, ended: str | None) -> int:
        """V without the look-past term, times k * 6**horizon (not times 36**seats)."""
        v = self.d * (self.w_spark * funds + self.w_rep * reputation)
        if ended is None:
            office_part, poster_part = self.future_scaled(civilians, posters, office)
            return v + self.w_office * office_part + self.w_poster * poster_part
        return v + self.d * (self.w_win if ended == SUCCESS else -self.w_loss)

    def scaled(self, funds: int, reputation: int, office: int, posters, civilians, ended: str | None) -> int:
        """V without the look-past term, times scale."""
        return self.base_scaled(funds, reputation, office, posters, civilians, ended) * self.e

    def state_scaled(self, s: TableState) -> int:
        """V (times scale) of a table where seat `s.active` is about to play, or where the game is over."""
        return self.scaled_at(s, s.active)

    def after_scaled(self, s: TableState) -> int:
        """V (times scale) of a table just after seat `s.active`'s NPC turn (an outcome of npc_turn): when a
        round start comes next, of the table once its NPC has entered."""
        if self.ahead is None or s.ended is not None:
            return self.state_scaled(s)
        kind = self.entry_now(s)
        if kind is not None:
            return self.scaled_at(self.enter(s, kind), 0)
        return self.scaled_at(s, s.active + 1)

    def scaled_at(self, s: TableState, next_seat: int) -> int:
        """V (times scale) of a table where seat `next_seat` moves next (len(players): the round ends first)."""
        v = self.scaled(s.funds, s.reputation, s.office, s.posters, s.civilians, s.ended)
        if self.ahead is None or s.ended is not None:
            return v
        return v + self.w_spark * self.d * self.ahead_scaled(s.oppressors, s.civilians, s.players, s.entry,
                                                             s.entered, s.round, next_seat)

    def value(self, s: TableState) -> Fraction:
        return Fraction(self.state_scaled(s), self.scale)

    def future(self, s: TableState) -> tuple[Fraction, Fraction]:
        """Expected future donations (office, posters) in SPARK, unweighted, 0 once the game is over."""
        if s.ended is not None:
            return Fraction(0), Fraction(0)
        o, p = self.future_scaled(s.civilians, s.posters, s.office)
        return Fraction(o, self.d), Fraction(p, self.d)

    # ---- looking past the coming NPC turn (Ahead) ------------------------------------------------

    def next_entry(self, entered: int, oppressors: int, civilians: int) -> str | None:
        """The NPC the next round start brings ("oppressor" / "civilian"), or None (track empty, or all of
        that kind on the board already: game.start_round brings none then)."""
        a = self.ahead
        if a is None or entered >= len(a.entry_track):
            return None
        kind = a.entry_track[entered]
        have, most = (oppressors, a.max_oppressors) if kind == "oppressor" else (civilians, a.max_civilians)
        return kind if have < most else None

    def entry_now(self, s: TableState) -> str | None:
        """The NPC entering right after this NPC turn (seat `s.active` is the round's last), or None."""
        a = self.ahead
        if a is None or s.active != len(s.players) - 1 or (s.round is not None and s.round >= a.max_rounds):
            return None
        return self.next_entry(s.entered, len(s.oppressors), len(s.civilians))

    def enter(self, s: TableState, kind: str) -> TableState:
        """The table once the round start's NPC has entered (rulebook "Round Order" 1), seat 0 to play."""
        from .npc_turn import enter_npc  # npc_turn values its outcomes with this module

        after = enter_npc(self.board, self.rules, s, kind, s.entered + 1, self.ahead.max_rounds).state
        return replace(after, active=0, round=None if s.round is None else s.round + 1)

    def _walk(self, die: str, start: int, turns: int) -> tuple[int, ...]:
        """Expected arrivals of one NPC now on `start` at each space over `turns` NPC turns, times e."""
        rows = self._walks.get((die, turns))
        if rows is None:
            rows = self._walks[(die, turns)] = [None] * self.board.n
        hit = rows[start]
        if hit is None:
            factor = self.e // 6 ** turns
            hit = rows[start] = tuple(x * factor for x in self._walk_counts(die, start, turns))
        return hit

    def _walk_counts(self, die: str, start: int, turns: int) -> list[int]:
        """The same, times 6**turns (the die's own chain: an arrow moves the NPC, an X leaves it)."""
        counts = self.dice.counts(die)
        cy, cb = counts.get("yellow_arrow", 0), counts.get("blue_arrow", 0)
        stay = 6 - cy - cb
        yellow, blue = self.board.yellow, self.board.blue
        row = [0] * self.board.n
        dist = {start: 1}
        for t in range(1, turns + 1):
            new: dict[int, int] = {}
            scale = 6 ** (turns - t)
            for u, m in dist.items():
                for nxt, c in ((yellow[u], cy), (blue[u], cb)):
                    if c:
                        new[nxt] = new.get(nxt, 0) + m * c
                        row[nxt] += m * c * scale
                if stay:
                    new[u] = new.get(u, 0) + m * stay
            dist = new
        return row

    def _token(self, entry: int, turns: int) -> dict[int, int]:
        """Where the Entry token is after `turns` NPC turns (X faces: black die first), weights over 36**turns."""
        dist = {entry: 1}
        for _ in range(turns):
            for die in ("black", "red"):
                new: dict[int, int] = {}
                for face, c in self.dice.counts(die).items():
                    for u, m in dist.items():
                        there = u if is_arrow(face) else self.board.path(face_colour(face))[u]
                        new[there] = new.get(there, 0) + m * c
                dist = new
        return dist

    def _entering(self, die: str, entry: int, before: int, after: int) -> tuple[int, ...]:
        """Expected encounters, at each space, of the NPC entering at a round start `before` NPC turns
        from now on the Entry token's space (its entry counts) and moving on for `after` turns, times e."""
        key = (die, entry, before, after)
        hit = self._entries.get(key)
        if hit is not None:
            return hit
        row = [0] * self.board.n
        # weights over 36**before, then arrivals over 6**after: e is a multiple of both together
        to_e, walk_to_e = self.e // 36 ** before, self.e // (36 ** before * 6 ** after)
        for y, w in self._token(entry, before).items():
            row[y] += w * to_e
            if after:
                for x, a in enumerate(self._walk_counts(die, y, after)):
                    if a:
                        row[x] += w * a * walk_to_e
        out = self._entries[key] = tuple(row)
        return out

    def ahead_scaled(self, oppressors: tuple[int, ...], civilians: tuple[int, ...], players: tuple[int, ...],
                     entry: int, entered: int, rnd: int | None, next_seat: int) -> int:
        """The look-past term, in SPARK times e: for each seat, Civilian arrivals (+1) and Oppressor
        arrivals (-2) on its space until it moves again, seat `next_seat` moving next."""
        key = (oppressors, civilians, players, entry, entered, rnd, next_seat)
        hit = self._ahead.get(key)
        if hit is not None:
            return hit
        n = len(players)
        last = rnd is not None and rnd >= self.ahead.max_rounds
        before = n - next_seat  # NPC turns before the round ends
        kind = None if last else self.next_entry(entered, len(oppressors), len(civilians))
        # a sum over NPCs of each one's arrivals on every seat's space: kept NPC by NPC, since the
        # candidate turns of one suggestion share most NPC spaces and every seat but one
        npc = self._npc_share
        total = 0
        for o in oppressors:
            total -= 2 * npc("black", o, players, next_seat, last)
        for c in civilians:
            total += npc("red", c, players, next_seat, last)
        if kind is not None:
            ekey = (kind, entry, players, next_seat)
            got = self._entry_shares.get(ekey)
            if got is None:
                got = 0
                for i in range(next_seat):
                    got += self._entering("black" if kind == "oppressor" else "red", entry, before, i)[players[i]]
                if kind == "oppressor":
                    got = -2 * got
                if len(self._entry_shares) > 100_000:
                    self._entry_shares.clear()
                self._entry_shares[ekey] = got
            total += got
        if len(self._ahead) < 100_000:
            self._ahead[key] = total
        return total

    def _npc_share(self, die: str, start: int, players: tuple[int, ...], next_seat: int, last: bool) -> int:
        """One NPC on `start`: its expected arrivals (times e) on each seat's space until that seat moves
        again, summed over the seats (the part of ahead_scaled that NPC adds)."""
        key = (die, start, players, next_seat, last)
        hit = self._npc_shares.get(key)
        if hit is None:
            n = len(players)
            before = n - next_seat
            hit = 0
            for i, x in enumerate(players):
                turns = i - next_seat if i >= next_seat else before if last else before + i
                if turns:
                    hit += self._walk(die, start, turns)[x]
            if len(self._npc_shares) > 200_000:
                self._npc_shares.clear()
            self._npc_shares[key] = hit
        return hit
