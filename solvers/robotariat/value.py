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

Everything is exact: values are kept as whole numbers over a common denominator (the weights'
denominators times 6**horizon), so comparisons inside the NPC turn cost integer arithmetic only.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from math import lcm

from .board import Board
from .model import SUCCESS, Dice, Rules, TableState

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


def default_horizon(players: int, state: TableState, max_rounds: int = 6) -> int:
    """One more round of NPC turns after the coming one, cut at the end of round 6 when the round is known
    (players take turns in seat order starting from seat 0, the first player)."""
    if state.round is None:
        return players
    left = (max_rounds - state.round) * players + (players - 1 - state.active)
    return max(0, min(players, left))


class Valuer:
    """V of states for one board, dice, rules and weights (cached civilian arrival rows)."""

    def __init__(self, board: Board, rules: Rules, dice: Dice, weights: Weights, horizon: int):
        if not 0 <= horizon <= MAX_HORIZON:
            raise ValueError(f"horizon must be 0..{MAX_HORIZON}")
        self.board, self.rules, self.dice, self.weights, self.horizon = board, rules, dice, weights, horizon
        self.k = lcm(*(w.denominator for w in weights.as_dict().values()))
        self.d = 6 ** horizon
        w = {name: int(value * self.k) for name, value in weights.as_dict().items()}
        self.w_spark, self.w_rep, self.w_office = w["spark"], w["reputation"], w["office"]
        self.w_poster, self.w_win, self.w_loss = w["poster"], w["win"], w["loss"]
        red = dice.counts("red")
        self._red = (red.get("yellow_arrow", 0), red.get("blue_arrow", 0))
        self._rows: dict[int, list[int]] = {}
        self._future: dict[tuple, tuple[int, int]] = {}
        self.scale = self.k * self.d  # V = scaled value / scale

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

    def scaled(self, funds: int, reputation: int, office: int, posters, civilians, ended: str | None) -> int:
        v = self.d * (self.w_spark * funds + self.w_rep * reputation)
        if ended is None:
            office_part, poster_part = self.future_scaled(civilians, posters, office)
            return v + self.w_office * office_part + self.w_poster * poster_part
        return v + self.d * (self.w_win if ended == SUCCESS else -self.w_loss)

    def state_scaled(self, s: TableState) -> int:
        return self.scaled(s.funds, s.reputation, s.office, s.posters, s.civilians, s.ended)

    def value(self, s: TableState) -> Fraction:
        return Fraction(self.state_scaled(s), self.scale)

    def future(self, s: TableState) -> tuple[Fraction, Fraction]:
        """Expected future donations (office, posters) in SPARK, unweighted, 0 once the game is over."""
        if s.ended is not None:
            return Fraction(0), Fraction(0)
        o, p = self.future_scaled(s.civilians, s.posters, s.office)
        return Fraction(o, self.d), Fraction(p, self.d)
