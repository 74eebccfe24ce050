"""The order of a whole game (rulebook "Round Order", "Game End", "Set Up" 5-6): what comes after what.

A round starts with the next NPC of the entry track entering on the Entry token's space; then each
player in seat order takes a turn and conducts an NPC turn. The game ends the moment the Revolution
succeeds or Reputation reaches 0, and fails when round 6 is over without enough SPARK.

Positions in the game are TableStates with `round` set: the player `active` is about to take a turn,
and the round's entry is still to come while fewer NPCs have entered than the round's number (a new
game is round 1 with no NPC on the board).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import Board
from .model import Dice, Rules, TableState, changed
from .npc_turn import CIVILIAN, OPPRESSOR, enter_npc
from .value import Ahead, Valuer, Weights, default_horizon

TIME_UP = "time"  # the third way a game ends: round 6 is over and the funds fell short


@dataclass(frozen=True, kw_only=True)
class GameRules:
    """Everything a whole game needs beyond one NPC turn: the entry track and the number of rounds."""
    board: Board
    rules: Rules
    dice: Dice
    weights: Weights
    entry_track: tuple[str, ...]
    max_rounds: int = 6
    max_oppressors: int = 3
    max_civilians: int = 3
    look_past: bool = True  # value a turn with what is known to come (value.Ahead); False: this NPC turn only
    effects: Any = None  # card_effects.Effects: the Upgrade and Sabotage cards in play, or None

    def dice_for(self, s: TableState) -> Dice:
        """The dice of the NPC turn seat s.active conducts (a card in play may set a die)."""
        return self.dice if not self.effects else self.effects.dice_for(s, self.dice)

    def ahead(self, seats: int) -> Ahead | None:
        if not self.look_past:
            return None
        return Ahead(seats=seats, entry_track=self.entry_track, max_rounds=self.max_rounds,
                     max_oppressors=self.max_oppressors, max_civilians=self.max_civilians)

    def valuer(self, s: TableState, cache: dict[int, Valuer] | None = None) -> Valuer:
        """The suggestions' valuer for `s` (its horizon: one round of NPC turns, cut at the end of round 6)."""
        horizon = default_horizon(len(s.players), s, self.max_rounds)
        if cache is not None and horizon in cache:
            return cache[horizon]
        v = Valuer(self.board, self.rules, self.dice, self.weights, horizon, self.ahead(len(s.players)))
        if cache is not None:
            cache[horizon] = v
        return v


def entry_pending(g: GameRules, s: TableState) -> bool:
    """The round's NPC has still to enter (fewer NPCs entered than the round's number)."""
    return s.round is not None and s.entered < min(s.round, len(g.entry_track))


def start_round(g: GameRules, s: TableState) -> TableState:
    """The round-start entry: the next NPC of the track enters on the Entry token's space and meets it.
    An NPC whose pieces are all on the board already (placed by hand) does not enter."""
    row = s.entered + 1
    npc = g.entry_track[row - 1]
    have = len(s.oppressors) if npc == OPPRESSOR else len(s.civilians)
    if have >= (g.max_oppressors if npc == OPPRESSOR else g.max_civilians):
        return s
    after = changed(enter_npc(g.board, g.rules, s, npc if npc == OPPRESSOR else CIVILIAN, row, g.max_rounds).state,
                    round=s.round)
    return g.effects.at_round_start(g.board, g.rules, after) if g.effects else after


def next_turn(g: GameRules, s: TableState) -> TableState | str:
    """After the active player's NPC turn: the next seat's turn, or the next round (its entry resolved),
    or TIME_UP after the last seat of the last round."""
    if s.active + 1 < len(s.players):
        return changed(s, active=s.active + 1)
    if s.round >= g.max_rounds:
        return TIME_UP
    nxt = changed(s, active=0, round=s.round + 1)
    return start_round(g, nxt) if entry_pending(g, nxt) else nxt


def turns_left(g: GameRules, s: TableState) -> int:
    """Player turns still to come in the game, this one included."""
    return (g.max_rounds - s.round) * len(s.players) + len(s.players) - s.active
