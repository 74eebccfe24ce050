"""Ways to play a player's turn, for playing whole games out (the game forecast and the strength bench).

A policy maps the table at the start of the active player's turn to the table once that turn is played
(before the NPC turn). All three choose among the turns the suggestions consider (suggest.py):

- SuggestionPolicy: the suggestions' first option (what "Do this" on the best move does);
- RandomPolicy: one of those turns uniformly at random (and, for Mr. Postman or WallyST, their extra
  poster move or none, uniformly);
- GreedyPolicy: the turn with the most SPARK expected after its NPC turn (first in generation order on
  a tie), without the extra poster move.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from .game import GameRules
from .model import TableState
from .scoring import TurnScorer
from .suggest import _Planner, best_turn, legal_turns
from .value import Valuer

CACHE_LIMIT = 50_000


@dataclass
class _Scorers:
    """One valuer and turn scorer per horizon, kept across turns and games of one GameRules."""
    game: GameRules
    valuers: dict[int, Valuer] = field(default_factory=dict)
    scorers: dict[int, TurnScorer] = field(default_factory=dict)

    def for_state(self, s: TableState) -> tuple[Valuer, TurnScorer]:
        v = self.game.valuer(s, self.valuers)
        t = self.scorers.get(v.horizon)
        if t is None or len(t._plans) > CACHE_LIMIT:
            t = self.scorers[v.horizon] = TurnScorer(self.game.board, self.game.rules, self.game.dice, v)
        return v, t


class SuggestionPolicy:
    """Play the suggestions' best turn; decisions are cached by state (they do not depend on anything else)."""
    name = "suggestions"

    def __init__(self, game: GameRules):
        self.game, self.scorers = game, _Scorers(game)
        self.cache: dict[TableState, TableState] = {}

    def choose(self, s: TableState) -> TableState:
        hit = self.cache.get(s)
        if hit is None:
            v, t = self.scorers.for_state(s)
            hit = best_turn(self.game.board, self.game.rules, self.game.dice, s, v, t).after
            if len(self.cache) > CACHE_LIMIT:
                self.cache.clear()
            self.cache[s] = hit
        return hit

    def trim(self) -> None:
        """Drop the choices and scores kept (they only save time)."""
        self.cache.clear()
        self.scorers = _Scorers(self.game)


class RandomPolicy:
    name = "random"

    def __init__(self, game: GameRules, rng: random.Random):
        self.game, self.rng, self.scorers = game, rng, _Scorers(game)

    def choose(self, s: TableState) -> TableState:
        g = self.game
        v, _ = self.scorers.for_state(s)
        plans = legal_turns(g.board, g.rules, g.dice, s, v)
        after = self.rng.choice(plans)[2]
        if after.ended is not None:
            return after
        planner = _Planner(g.board, g.rules, g.dice, s, v)
        extras = planner.extras(s)
        pick = self.rng.randrange(len(extras) + 1) if extras else 0
        if pick:
            with_extra = planner.with_extra(after, extras[pick - 1])
            if with_extra is not None:
                return with_extra
        return after


class GreedyPolicy:
    """Most SPARK expected once this turn's NPC turn is over."""
    name = "greedy"

    def __init__(self, game: GameRules):
        self.game, self.scorers = game, _Scorers(game)

    def choose(self, s: TableState) -> TableState:
        g = self.game
        v, t = self.scorers.for_state(s)
        best, best_funds = None, None
        for _, _, after, enc, _ in legal_turns(g.board, g.rules, g.dice, s, v):
            e = t.expected(after, s, enc)
            funds = Fraction(e.funds, e.denominator)
            if best_funds is None or funds > best_funds:
                best, best_funds = after, funds
        return best


def __getattr__(name: str):
    if name == "RolloutPolicy":  # the forecast's cheaper way to the suggestions' best turn (rollout.py)
        from .rollout import RolloutPolicy
        return RolloutPolicy
    raise AttributeError(name)
