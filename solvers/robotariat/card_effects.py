"""Upgrade and Sabotage cards' effects, as the players read them off the cards, applied to what the
solvers take (facts file §5-6: the card texts are not public, so every effect is entered by the players
and shown as read by them, unverified).

An effect is one of a few kinds the solvers can express, plus `other` (named under every answer as not
taken into account):

  move        an NPC (one, or every one of its kind), the NPC Entry token or a player's piece goes to a
              space, or a number of steps along the yellow or blue path. An NPC that moves onto a space
              meets it there at once (rulebook "NPC Turn": an NPC encounters everything on a space it
              moves onto; Tablebot's reading: only the space where it stops, as with Move the Masses)
  roll        one NPC die shows a given face for the NPC turn (the card sets the die)
  fine        SPARK taken from the Funds (or from the Office Contributions), never below 0
  donation    SPARK added to the Funds (the Revolution succeeds at the target) or to the Office
              Contributions (at most 10)
  reputation  the Reputation track up or down (0 ends the game: rulebook "Reputation")

When it happens (`when`), and for whom (`who`: the card's holder, or any player):
  this_turn      at the start of the player's turn
  next_npc_turn  as the NPC turn that player conducts starts (a roll: that NPC turn's die)
  round_start    at the next round start, once its NPC has entered and met its space

Which cards count (`in_play`): an Upgrade card is a lasting ability (facts §5: the kept card is a lasting
ability), so its effect happens at every such moment of its holder (or of every player); a Sabotage
card is used once (facts §5: it stays face up while its effect lasts, then turns face down), so a
played Sabotage card still face up happens once, at its next moment: `this_turn` at once (the table
applies it when the card is played), the others at the holder's next NPC turn or the next round start.

Everything here is a function from a table state (and dice) to a table state (and dice): the NPC turn,
the suggestions and the forecast take the transformed inputs; nothing in them knows about cards.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .board import Board
from .model import CHARACTER_NAMES, FACES, Dice, Rules, TableState, status_after
from .npc_turn import CIVILIAN, OPPRESSOR, _final_state, _resolve, _Table

KINDS = ("move", "roll", "fine", "donation", "reputation", "other")
WHEN = ("this_turn", "next_npc_turn", "round_start")
WHO = ("holder", "any")
PIECES = ("oppressor", "civilian", "entry", "player")
TRACKS = ("funds", "office")
DIES = ("black", "red")
OFFICE_MAX = 10
# The turns the forecast's quick policy scores exactly where a card sets a die of the coming NPC turn (EffectRollout).
# bench/bench_robotariat_rollout.py's four positions with the black die set (2,000 paired games each, seeds 0 and 1):
# success within 0.6 points of the exact choice at every card turn (every interval holds 0), games 1.5 to 2.1 times
# as fast.
ROLL_SHORTLIST = 5
NOW, TURN, NPC, ROUND_START = "now", "turn", "npc", "round_start"
EFFECT_RULES = ("rb-activation-sabotage", "rb-activation-upgrade", "rb-encounter-quick-reference-table",
                "rb-game-end")
FACE_WORDS = {"yellow_arrow": "a yellow arrow", "blue_arrow": "a blue arrow", "yellow_x": "a yellow X",
              "blue_x": "a blue X"}


@dataclass(frozen=True, kw_only=True)
class Effect:
    """What a card does, as the players read it. Spaces are board indices."""
    kind: str
    when: str = "this_turn"
    who: str = "holder"
    piece: str | None = None  # move
    index: int | None = None  # move: which NPC (0-based, in table order) or seat; None: every one of the kind
    to: int | None = None  # move: to this space, or
    path: str | None = None  # move: along this path ("yellow" / "blue")
    steps: int = 1  # move: this many steps
    die: str | None = None  # roll: "black" / "red"
    face: str | None = None  # roll: the face it shows
    amount: int = 0  # fine / donation (SPARK, > 0) / reputation (signed)
    track: str = "funds"  # fine / donation: "funds" or "office"
    text: str = ""  # the players' words (what an `other` effect is named by)


def effect_problem(e: Effect) -> tuple[str, str] | None:
    """(field, message) when the effect misses what its kind needs, else None."""
    if e.kind not in KINDS:
        return "kind", "one of: " + ", ".join(KINDS)
    if e.when not in WHEN:
        return "when", "one of: " + ", ".join(WHEN)
    if e.who not in WHO:
        return "who", "the card's holder or any player"
    if e.kind == "move":
        if e.piece not in PIECES:
            return "piece", "which piece moves: an Oppressor, a Civilian, the Entry token or a player"
        if e.to is None and e.path not in ("yellow", "blue"):
            return "to", "say where it moves: a space, or a path and a number of steps"
        if not 1 <= e.steps <= 12:
            return "steps", "1 to 12 steps"
    elif e.kind == "roll":
        if e.die not in DIES:
            return "die", "the black die (Oppressors) or the red die (Civilians)"
        if e.face not in FACES:
            return "face", "the face the die shows"
        if e.when != "next_npc_turn":
            return "when", "a die is set for an NPC turn: next NPC turn"
    elif e.kind in ("fine", "donation"):
        if not 1 <= e.amount <= 99:
            return "amount", "1 to 99 SPARK"
        if e.track not in TRACKS:
            return "track", "the Funds or the Office Contributions"
    elif e.kind == "reputation":
        if e.amount == 0 or not -20 <= e.amount <= 20:
            return "amount", "a change of Reputation: -20 to 20, not 0"
    return None


@dataclass(frozen=True, kw_only=True)
class InPlay:
    """A card whose effect counts: `once` for a Sabotage card (used once), else a lasting Upgrade."""
    seat: int
    deck: str
    name: str
    effect: Effect
    once: bool
    index: int = -1  # its place in the table's card list (the table turns a used Sabotage card face down)


def in_play(seat: int, deck: str, name: str, effect: Effect | None, played: bool, done: bool,
            index: int = -1) -> InPlay | None:
    """The card as it counts now, or None: no effect entered, face down, or a Sabotage card not played."""
    if effect is None or effect.kind == "other" or done or (deck == "sabotage" and not played):
        return None
    return InPlay(seat=seat, deck=deck, name=name, effect=effect, once=deck == "sabotage", index=index)


def round_of(s: TableState) -> int:
    """The round a state stands in (a state without one: the NPCs entered say, round 1 before any)."""
    return s.round if s.round is not None else max(1, s.entered)


Moment = tuple[str, int, int | None]  # (TURN | NPC | ROUND_START | NOW, round, seat)


def _moment_of(c: InPlay, s: TableState) -> Moment:
    """The one moment a used-once card happens at, seen from state `s` (seat s.active about to play)."""
    e, r = c.effect, round_of(s)
    if e.when == "this_turn":
        return NOW, r, None
    if e.when == "round_start":
        return ROUND_START, (r if s.entered < r else r + 1), None
    seat = s.active if e.who == "any" else c.seat
    return NPC, (r if seat >= s.active else r + 1), seat


@dataclass(frozen=True)
class Effects:
    """The cards in play at a table, each used-once card pinned to its moment as seen from the state the
    answer starts from (so a forecast's later rounds do not use it again)."""
    cards: tuple[InPlay, ...]
    moments: tuple[Moment | None, ...]  # per card: its one moment (used once), None (lasting)

    @classmethod
    def of(cls, cards: tuple[InPlay, ...] | list[InPlay], s: TableState) -> Effects:
        cards = tuple(cards)
        return cls(cards, tuple(_moment_of(c, s) if c.once else None for c in cards))

    def __bool__(self) -> bool:
        return bool(self.cards)

    def key(self) -> list:
        """What the effects are, as plain values (the forecast's games are kept under it)."""
        return [[c.seat, c.deck, c.once, m, sorted(vars(c.effect).items())] for c, m in zip(self.cards, self.moments)]

    def fires(self, i: int, moment: Moment) -> bool:
        c, pinned = self.cards[i], self.moments[i]
        kind, r, seat = moment
        if pinned is not None:
            return pinned == moment
        wanted = {TURN: "this_turn", NPC: "next_npc_turn", ROUND_START: "round_start"}.get(kind)
        return c.effect.when == wanted and (kind == ROUND_START or c.effect.who == "any" or c.seat == seat)

    def firing(self, moment: Moment) -> list[int]:
        return [i for i in range(len(self.cards)) if self.fires(i, moment)]

    # ---- the moments --------------------------------------------------------------------------------

    def now(self, board: Board, rules: Rules, s: TableState) -> TableState:
        """A played Sabotage card's this-turn effect not yet on the table: it happens at once."""
        return self._apply(board, rules, s, (NOW, round_of(s), None))

    def at_turn_start(self, board: Board, rules: Rules, s: TableState) -> TableState:
        """The start of seat s.active's turn: lasting this-turn effects of that seat (or of any player)."""
        return self._apply(board, rules, s, (TURN, round_of(s), s.active))

    def before_npc(self, board: Board, rules: Rules, s: TableState) -> TableState:
        """The start of the NPC turn seat s.active conducts: moves and track changes (not the roll)."""
        return self._apply(board, rules, s, (NPC, round_of(s), s.active))

    def dice_for(self, s: TableState, dice: Dice) -> Dice:
        """The dice of the NPC turn seat s.active conducts: a die a card sets shows that face only."""
        black, red = dice.black, dice.red
        for i in self.firing((NPC, round_of(s), s.active)):
            e = self.cards[i].effect
            if e.kind == "roll":
                if e.die == "black":
                    black = (e.face,) * 6
                else:
                    red = (e.face,) * 6
        return dice if (black, red) == (dice.black, dice.red) else Dice(black, red)

    def at_round_start(self, board: Board, rules: Rules, s: TableState) -> TableState:
        """Once round s.round's NPC has entered: the round-start effects."""
        return self._apply(board, rules, s, (ROUND_START, round_of(s), None))

    def _apply(self, board: Board, rules: Rules, s: TableState, moment: Moment) -> TableState:
        for i in self.firing(moment):
            if s.ended is not None:
                break
            e = self.cards[i].effect
            if e.kind != "roll":
                s = apply_effect(board, rules, s, e, self.cards[i].seat)
        return s

    def notes(self, s: TableState) -> list[str]:
        """What the answers add under the cards they count, when a character's choice meets a card."""
        out = []
        if any(c.effect.kind == "roll" and c.effect.die == "black" for c in self.cards) and \
                s.seat_of("alice_smith") is not None:
            out.append(f"{CHARACTER_NAMES['alice_smith']} chooses the Oppressors' path instead of rolling: when she "
                       "conducts the NPC turn, a card's face for the black die is not used.")
        for c in self.cards:
            e = c.effect
            if e.kind != "move" or e.index is None or e.piece not in ("oppressor", "civilian", "player"):
                continue
            there = {"oppressor": s.oppressors, "civilian": s.civilians, "player": s.players}[e.piece]
            if e.index >= len(there):
                who = (f"{e.piece.capitalize()} {e.index + 1}" if e.piece != "player" else f"Player {e.index + 1}")
                out.append(f"{c.name}: {who} is not on the board, so its move changes nothing for now.")
        return out


def apply_effect(board: Board, rules: Rules, s: TableState, e: Effect, holder: int) -> TableState:
    """The table after one effect (a `roll` changes no state; an `other` changes nothing)."""
    if s.ended is not None:
        return s
    if e.kind in ("fine", "donation"):
        sign = -1 if e.kind == "fine" else 1
        if e.track == "office":
            return replace(s, office=max(0, min(OFFICE_MAX, s.office + sign * e.amount)))
        funds = max(0, s.funds + sign * e.amount)
        return replace(s, funds=funds, ended=status_after(funds, s.reputation, rules.target))
    if e.kind == "reputation":
        rep = max(0, s.reputation + e.amount)
        return replace(s, reputation=rep, ended=status_after(s.funds, rep, rules.target))
    if e.kind == "move":
        return _move(board, rules, s, e)
    return s


def _destination(board: Board, e: Effect, x: int) -> int:
    if e.to is not None:
        return e.to
    path = board.path(e.path)
    for _ in range(e.steps):
        x = path[x]
    return x


def _move(board: Board, rules: Rules, s: TableState, e: Effect) -> TableState:
    if e.piece == "entry":
        return replace(s, entry=_destination(board, e, s.entry))
    if e.piece == "player":
        players = list(s.players)
        for i in range(len(players)) if e.index is None else [e.index] if 0 <= e.index < len(players) else []:
            players[i] = _destination(board, e, players[i])
        return replace(s, players=tuple(players))
    npc = OPPRESSOR if e.piece == "oppressor" else CIVILIAN
    group = list(s.oppressors if npc == OPPRESSOR else s.civilians)
    which = range(len(group)) if e.index is None else [e.index] if 0 <= e.index < len(group) else []
    queue = []
    for i in which:
        group[i] = _destination(board, e, group[i])
        queue.append((npc, i, group[i]))
    if not queue:
        return s  # the card names an NPC that is not on the board: nothing moves
    opp = tuple(group) if npc == OPPRESSOR else s.oppressors
    civ = tuple(group) if npc == CIVILIAN else s.civilians
    t = _Table(board, rules, s, opp, civ)
    run, _ = _resolve(s, t, queue, s.entry, None, False)
    return _final_state(s, t, run, s.entry)


# ---- the players' words for an effect ----------------------------------------------------------------

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def describe(board: Board, e: Effect, names: tuple[str, ...] = ()) -> str:
    """The effect in a few words: "moves Oppressor 1 two steps along the blue path"."""
    if e.kind == "other":
        return e.text or "an effect Tablebot cannot express"
    if e.kind == "roll":
        what = f"the {e.die} die shows {FACE_WORDS.get(e.face, e.face)}"
    elif e.kind in ("fine", "donation"):
        where = "the Funds" if e.track == "funds" else "the Office Contributions"
        what = (f"{e.amount} SPARK taken from {where}" if e.kind == "fine" else f"{e.amount} SPARK added to {where}")
    elif e.kind == "reputation":
        what = f"Reputation {e.amount:+d}"
    else:
        if e.piece == "entry":
            piece = "the NPC Entry token moves"
        elif e.piece == "player":
            piece = ("every player moves" if e.index is None else
                     f"{names[e.index] if e.index < len(names) else f'Player {e.index + 1}'} moves")
        else:
            kind = "Oppressor" if e.piece == "oppressor" else "Civilian"
            piece = f"every {kind} moves" if e.index is None else f"{kind} {e.index + 1} moves"
        if e.to is not None:
            what = f"{piece} to {board.names[e.to]}"
        else:
            steps = NUMBER_WORDS.get(e.steps, str(e.steps))
            what = f"{piece} {steps} step{'s' if e.steps != 1 else ''} along the {e.path} path"
    when = {"this_turn": "at the start of the turn", "next_npc_turn": "at the NPC turn",
            "round_start": "at the next round start"}[e.when]
    whose = " (any player's)" if e.who == "any" and e.when != "round_start" else ""
    return f"{what}, {when}{whose}"


def counted_line(board: Board, c: InPlay, names: tuple[str, ...]) -> str:
    who = names[c.seat] if c.seat < len(names) else f"Player {c.seat + 1}"
    deck = "Upgrade" if c.deck == "upgrade" else "Sabotage"
    how = "once" if c.once else ("each round" if c.effect.when == "round_start" else "each time")
    return (f"{deck} card “{c.name}” ({who}): {describe(board, c.effect, names)}, {how}; as read by the players "
            "(card texts unverified).")


# ---- the solvers with the effects: inputs transformed, one scorer hook -----------------------------------

class EffectTurns:
    """A suggestions' turn scorer (scoring.TurnScorer) whose NPC turn starts from the table with that NPC
    turn's card effects applied: the options' own `after` states stay the table as the players leave it."""

    def __init__(self, inner: Any, before: Callable[[TableState], TableState]):
        self.inner, self.before, self.dice = inner, before, inner.dice

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def expected(self, pre: TableState, start: TableState, immediate: Any = None, goal: Any = None) -> Any:
        return self.inner.expected(self.before(pre), start, immediate, goal)


def suggest_with(board: Board, rules: Rules, dice: Dice, s: TableState, valuer: Any, effects: Effects,
                 goal: Any = None, lean: bool = False, turns: Any = None) -> Any:
    """suggest.suggest with the cards in play: the turn's start effects applied to `s` (the options start
    there), the NPC turn's die set by a card, and its moves and track changes before it resolves."""
    from .scoring import TurnScorer
    from .suggest import _Planner

    s0 = effects.at_turn_start(board, rules, s)
    if s0.ended is not None:
        raise ValueError("the game is over")
    d = effects.dice_for(s0, dice)
    inner = turns if turns is not None else TurnScorer(board, rules, d, valuer)
    wrapped = EffectTurns(inner, lambda pre: effects.before_npc(board, rules, pre))
    return _Planner(board, rules, d, s0, valuer, wrapped, lean=lean, goal=goal).run()


class EffectPolicy:
    """The suggestions' best turn with the cards in play (the forecast's policy when cards count): what it
    returns is the table as its NPC turn starts, the NPC turn's moves and track changes applied."""
    name = "suggestions"

    def __init__(self, game: Any, effects: Effects):
        self.game, self.effects = game, effects
        self.valuers: dict = {}
        self.scorers: dict = {}
        self.cache: dict[TableState, TableState] = {}

    def choose(self, s: TableState) -> TableState:
        hit = self.cache.get(s)
        if hit is not None:
            return hit
        from .scoring import TurnScorer

        g, e = self.game, self.effects
        s0 = e.at_turn_start(g.board, g.rules, s)
        if s0.ended is not None:
            hit = s0
        else:
            v = g.valuer(s0, self.valuers)
            d = e.dice_for(s0, g.dice)
            t = self.scorers.get((v.horizon, d))
            if t is None or len(t._plans) > 50_000:
                t = self.scorers[(v.horizon, d)] = TurnScorer(g.board, g.rules, d, v)
            after = suggest_with(g.board, g.rules, g.dice, s, v, e, lean=True, turns=t).options[0].after
            hit = e.before_npc(g.board, g.rules, after) if after.ended is None else after
        if len(self.cache) > 50_000:
            self.cache.clear()
        self.cache[s] = hit
        return hit


class EffectRollout:
    """The forecast's quick policy (rollout.RolloutPolicy) with the cards in play: what it returns is, like
    EffectPolicy's, the table as its NPC turn starts. The turn-start effects are on the table the estimate
    reads, so it ranks the turns from there; where a card acts at this NPC turn the estimate, which reads the
    table the player leaves and the plain dice, cannot see it. Where the card only sets a die, the estimate's
    ROLL_SHORTLIST best turns are scored exactly on that die (the suggestions' score: a TurnScorer on the
    card's dice, later turns valued on the plain ones) and the best is played; where it moves a piece or
    changes a track as the NPC turn starts, EffectPolicy's exact choice is taken. Neither sees the cards of
    later moments (a round-start donation comes in the game's next round start, as in EffectPolicy's score)."""
    name = "rollout"

    def __init__(self, game: Any, effects: Effects):
        from .rollout import RolloutPolicy

        self.game, self.effects = game, effects
        # its tables read the plain dice (GameRules.dice) and know no card: the cards stay out of its game
        self.inner = RolloutPolicy(replace(game, effects=None))
        self.exact = EffectPolicy(game, effects)
        self.cache: dict[TableState, TableState] = {}
        self.on_dice: dict[tuple, Any] = {}  # the turn scorers of turns whose dice a card sets, by horizon and dice

    def choose(self, s: TableState) -> TableState:
        hit = self.cache.get(s)
        if hit is None:
            hit = self._choose(s)
            if len(self.cache) > 50_000:
                self.cache.clear()
            self.cache[s] = hit
        return hit

    def _choose(self, s: TableState) -> TableState:
        g, e = self.game, self.effects
        s0 = e.at_turn_start(g.board, g.rules, s)
        if s0.ended is not None:
            return s0
        firing = self.effects.firing((NPC, round_of(s0), s0.active))
        if firing and ROLL_SHORTLIST and all(self.effects.cards[i].effect.kind == "roll" for i in firing):
            # (the estimate alone on the card's dice was tried: at the round-5 position of
            # bench/bench_robotariat_rollout.py cards its games succeeded 9.0 and 10.8 points less often than the
            # exact turns' (seeds 0 and 1), against 4.0 and 3.8 with the exact turn kept there; it also valued
            # the later turns on the set die)
            after = self._on_dice(s0, e.dice_for(s0, g.dice))
        elif firing:
            return self.exact.choose(s)
        else:
            after = self.inner.choose(s0)
        return e.before_npc(g.board, g.rules, after) if after.ended is None else after

    def _on_dice(self, s0: TableState, d: Dice) -> TableState:
        from .scoring import TurnScorer

        g = self.game
        v = g.valuer(s0, self.exact.valuers)  # (later turns roll the plain dice: the valuer's)
        t = self.on_dice.get((v.horizon, d))
        if t is None or len(t._plans) > 50_000:
            t = self.on_dice[(v.horizon, d)] = TurnScorer(g.board, g.rules, d, v)
        best = choice = None
        for pre in self.inner.shortlist_of(s0, ROLL_SHORTLIST):
            x = t.expected(pre, s0)  # the suggestions' own expected value of the turn on the card's dice
            if best is None or x.value * best.denominator > best.value * x.denominator:
                best, choice = x, pre
        return choice

    def sees_past_estimate(self, s0: TableState) -> bool:
        """Whether a card acts at the NPC turn seat s0.active conducts (its die, or the table as it starts):
        the estimate of that turn would miss it."""
        return bool(self.effects.firing((NPC, round_of(s0), s0.active)))

    def chances_of(self, pre: TableState) -> Any:
        """rollout.RolloutPolicy.chances_of: the forecast asks only where the NPC turn's dice are the plain
        ones, and a table's chances are its own, whichever turn (the estimate's or the exact) reached it."""
        return self.inner.chances_of(pre)

    def rolls_of(self, pre: TableState) -> Any:
        """rollout.RolloutPolicy.rolls_of (asked, like chances_of, only with the plain dice)."""
        return self.inner.rolls_of(pre)

    def trim(self) -> None:
        """Drop the choices and scorers kept (they only save time; the forecast keeps its policy between views)."""
        self.cache.clear()
        self.inner.trim()
        self.on_dice.clear()
        self.exact = EffectPolicy(self.game, self.effects)


def quick_policy(game: Any) -> Any:
    """The forecast's sampled games' policy for `game` (its cards: GameRules.effects), the same in the request's
    process and in the games helper's: the quick estimate, with the cards when some count."""
    if game.effects:
        return EffectRollout(game, game.effects)
    from .rollout import RolloutPolicy

    return RolloutPolicy(game)
