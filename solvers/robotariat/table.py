"""What happens to the table when someone at it acts: the Robotariat table's pure reducer.

`reduce(setting, game, action)` returns the game after one action, or raises InputError naming the
action's bad field. Actions are records, one per thing a player can do at the table:

  MovePiece      a piece put on another space by hand (a player, an NPC, the Entry token)
  PlaceNpc       the entry track's next NPC put on a space by hand (no encounter)
  RemoveNpc      an NPC taken off the board
  Posters        a poster put on or taken off a space by hand (the supply is 8)
  Tracks         Funds, Reputation, Office Contributions, the junk pile, the round, set by hand
  SetCharacter   a seat's character (before play it also puts the piece on the character's start space)
  SetActive      whose turn it is
  Setup          a new game (rulebook "Set Up")
  PlayTurn       the active player's turn: a move, an activation, an extra poster move (turn.py)
  Roll           the NPC turn with the faces rolled, resolved as npc_turn does; the next seat plays
  StartRound     the round-start entry, once every seat has had its turn this round
  AddCard, PlayCard, RenameCard, RemoveCard   Upgrade and Sabotage cards held and played, by name
  CardEffect, CardDone   what a card does as the players read it; a Sabotage card turned face down

A card's effect (card_effects.py) happens on the table at its moment: a played Sabotage card's
this-turn effect when it is played, a next-NPC-turn effect with its holder's Roll, a round-start
effect with StartRound (then a Sabotage card turns face down: used once); a held Upgrade card's at
every such moment (PlayTurn for this-turn effects).

The Game record holds the table's state and its history: the log of turns applied here (the Scrapper
counts tear-downs per turn, the objectives read it), every value the Office Contributions track took
(the Bursar), and the cards.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from solvers.errors import InputError

from . import card_effects as ce
from .board import Board
from .game import GameRules, entry_pending
from .model import FAILURE, Rules, TableState, status_after
from .npc_turn import CIVILIAN, OPPRESSOR, enter_npc, npc_turn
from .turn import Activation, Extra, play_turn

LOG_TURNS = ("player", "npc", "round_start")  # a turn played, an NPC turn applied, a round-start entry
DECKS = ("upgrade", "sabotage")
GAMBLER_CARDS = {"upgrade": "Sliding Scale", "sabotage": "Adjust Traffic Reports"}  # named by the Gambler's card
MAX_LOG = 500
MAX_CARDS = 40


@dataclass(frozen=True, kw_only=True)
class LogEntry:
    round: int
    player: int
    turn: str  # one of LOG_TURNS
    what: str
    junked: int = 0  # posters sent to the junk pile
    office: int = 0  # the Office Contributions track after it


@dataclass(frozen=True, kw_only=True)
class Card:
    """An Upgrade or Sabotage card a seat holds or has played. `name`: the card's title, or what the
    players call it when the title is unknown (free text). `setup`: A1-5's card from setup, which
    counts for no objective."""
    seat: int
    deck: str
    name: str
    played: bool = False
    setup: bool = False
    effect: ce.Effect | None = None  # what it does, as the players read it
    done: bool = False  # turned face down


@dataclass(frozen=True, kw_only=True)
class Game:
    state: TableState
    log: tuple[LogEntry, ...] = ()
    office_track: tuple[int, ...] = (0,)
    cards: tuple[Card, ...] = ()

    def played_this_round(self) -> set[int]:
        """Seats that have conducted their NPC turn in the current round (since its round-start entry)."""
        seats: set[int] = set()
        for e in reversed(self.log):
            if e.round != self.state.round or e.turn == "round_start":
                break
            if e.turn == "npc":
                seats.add(e.player)
        return seats

    def turn_played(self) -> bool:
        """The active player has played their turn; the NPC turn they conduct comes next."""
        if not self.log:
            return False
        e = self.log[-1]
        return e.turn == "player" and e.round == self.state.round and e.player == self.state.active

    def round_done(self) -> bool:
        """Every seat has had its turn in the current round (Round Order: the next round starts next)."""
        s = self.state
        return s.round is not None and self.played_this_round() >= set(range(len(s.players)))

    def round_start_due(self, game_rules: GameRules) -> bool:
        """The next step of the game is a round start: the round's NPC has still to enter, or every seat
        has had its turn and another round is left (no player turn or NPC turn is taken before it)."""
        return entry_pending(game_rules, self.state) or (self.round_done() and self.round_can_start(game_rules))

    def round_can_start(self, game_rules: GameRules) -> bool:
        """The next round's entry may be applied: every seat has had its turn this round (or round 1 has
        not started), a round is left, and the entry track still has an NPC."""
        s = self.state
        if s.ended is not None or s.entered >= len(game_rules.entry_track):
            return False
        if entry_pending(game_rules, s):
            return True
        return s.round < game_rules.max_rounds and self.played_this_round() >= set(range(len(s.players)))

    def effects(self) -> ce.Effects:
        """The cards whose effects count now (card_effects.in_play), pinned to their moments from here."""
        cards = [ce.in_play(c.seat, c.deck, c.name, c.effect, c.played, c.done, i) for i, c in enumerate(self.cards)]
        return ce.Effects.of([c for c in cards if c is not None], self.state)

    def cards_played(self, seats: int) -> list[int]:
        """Upgrade and Sabotage cards each seat has played (A1-5's setup card does not count)."""
        out = [0] * seats
        for c in self.cards:
            if c.played and not c.setup and 0 <= c.seat < seats:
                out[c.seat] += 1
        return out

    def gambler_cards_played(self) -> bool:
        """"Sliding Scale" or "Adjust Traffic Reports" has been played (not as A1-5's setup card)."""
        names = {n.casefold() for n in GAMBLER_CARDS.values()}
        return any(c.played and not c.setup and c.name.strip().casefold() in names for c in self.cards)


@dataclass(frozen=True, kw_only=True)
class Setting:
    """What the reducer needs besides the game: the game's rules and the table's starting Reputation and
    characters' start kinds (game data the table may have changed)."""
    game: GameRules
    starting_reputation: int
    character_starts: dict[str, str]

    @property
    def board(self) -> Board:
        return self.game.board

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def start_space(self, character: str | None) -> int:
        """Where a character's sheet puts it (the start mark of that kind), else the first space."""
        if character in self.character_starts:
            found = self.board.start_space(self.character_starts[character])
            if found is not None:
                return found
        return 0


# ---- actions -----------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class MovePiece:
    piece: str  # "player", "oppressor", "civilian" or "entry"
    index: int = 0
    to: int


@dataclass(frozen=True, kw_only=True)
class PlaceNpc:
    to: int


@dataclass(frozen=True, kw_only=True)
class RemoveNpc:
    npc: str
    index: int


@dataclass(frozen=True, kw_only=True)
class Posters:
    at: int
    delta: int  # +1 or -1


@dataclass(frozen=True, kw_only=True)
class Tracks:
    funds: int | None = None
    reputation: int | None = None
    office: int | None = None
    junk: int | None = None
    round: int | None = None


@dataclass(frozen=True, kw_only=True)
class SetCharacter:
    seat: int
    character: str | None


@dataclass(frozen=True, kw_only=True)
class SetActive:
    seat: int


@dataclass(frozen=True, kw_only=True)
class Setup:
    pass


@dataclass(frozen=True, kw_only=True)
class PlayTurn:
    move_to: int
    activation: Activation | None = None
    extra: Extra | None = None
    what: str = ""  # the turn in words, for the log


@dataclass(frozen=True, kw_only=True)
class Roll:
    black: str
    red: str
    what: str = ""


@dataclass(frozen=True, kw_only=True)
class StartRound:
    pass


@dataclass(frozen=True, kw_only=True)
class AddCard:
    seat: int
    deck: str
    name: str
    played: bool = False
    setup: bool = False  # A1-5's Upgrade card from setup
    effect: ce.Effect | None = None


@dataclass(frozen=True, kw_only=True)
class PlayCard:
    index: int


@dataclass(frozen=True, kw_only=True)
class CardEffect:
    index: int
    effect: ce.Effect | None


@dataclass(frozen=True, kw_only=True)
class CardDone:
    index: int
    done: bool = True


@dataclass(frozen=True, kw_only=True)
class RenameCard:
    index: int
    name: str


@dataclass(frozen=True, kw_only=True)
class RemoveCard:
    index: int


Action = (MovePiece | PlaceNpc | RemoveNpc | Posters | Tracks | SetCharacter | SetActive | Setup | PlayTurn | Roll
          | StartRound | AddCard | PlayCard | RenameCard | RemoveCard | CardEffect | CardDone)


# ---- the reducer -------------------------------------------------------------------------------------

def _log(g: Game, entry: LogEntry) -> tuple[LogEntry, ...]:
    return (g.log + (entry,))[-MAX_LOG:]


def _track(g: Game, office: int) -> tuple[int, ...]:
    return g.office_track if g.office_track and g.office_track[-1] == office else (g.office_track + (office,))[-1000:]


def _with_state(g: Game, s: TableState, rules: Rules) -> Game:
    """The game with a hand-set state: `ended` read from the tracks, the office track extended."""
    s = replace(s, ended=status_after(s.funds, s.reputation, rules.target))
    return replace(g, state=s, office_track=_track(g, s.office))


def _used(g: Game, effects: ce.Effects, moment: ce.Moment) -> tuple[Card, ...]:
    """The cards with the Sabotage cards that happened at `moment` turned face down (used once)."""
    fired = {effects.cards[i].index for i in effects.firing(moment) if effects.cards[i].once}
    return tuple(replace(c, done=True) if i in fired else c for i, c in enumerate(g.cards))


def _card(g: Game, i: int) -> Card:
    if not 0 <= i < len(g.cards):
        raise InputError("card", "no such card")
    return g.cards[i]


def _with_card(g: Game, i: int, **changes: Any) -> Game:
    """The table with card i changed (a 400 on "card" when there is no such card)."""
    cards = list(g.cards)
    cards[i] = replace(_card(g, i), **changes)
    return replace(g, cards=tuple(cards))


def _play_now(setting: Setting, g: Game, i: int) -> Game:
    """A Sabotage card just played: its this-turn effect happens at once, and it turns face down."""
    c = g.cards[i]
    if c.deck != "sabotage" or not c.played or c.effect is None or c.effect.when != "this_turn" or c.done:
        return g
    if c.effect.kind == "other" or g.state.ended is not None:
        return g
    after = ce.apply_effect(setting.board, setting.rules, g.state, c.effect, c.seat)
    cards = list(g.cards)
    cards[i] = replace(c, done=True)
    return replace(_with_state(g, after, setting.rules), cards=tuple(cards))


def _require_round_open(g: Game) -> None:
    if g.round_done():
        raise InputError("do", f"every player has had their turn in round {g.state.round}: "
                               f"start round {g.state.round + 1} first")


def _require_on_going(s: TableState) -> None:
    if s.ended is not None:
        raise InputError("do", "the game is over: the Revolution " + ("succeeded" if s.ended == "success" else "failed"))


def reduce(setting: Setting, g: Game, action: Action) -> Game:
    """The game after `action` (InputError naming the action's field when it cannot be done)."""
    board, rules, gr = setting.board, setting.rules, setting.game
    s = g.state
    match action:
        case MovePiece(piece=piece, index=i, to=to):
            if piece == "entry":
                return _with_state(g, replace(s, entry=to), rules)
            if piece == "player":
                if not 0 <= i < len(s.players):
                    raise InputError("piece", "no such player at this table")
                players = list(s.players)
                players[i] = to
                return _with_state(g, replace(s, players=tuple(players)), rules)
            group = list(s.oppressors if piece == OPPRESSOR else s.civilians)
            if not 0 <= i < len(group):
                raise InputError("piece", "that NPC is not on the board")
            group[i] = to
            key = "oppressors" if piece == OPPRESSOR else "civilians"
            return _with_state(g, replace(s, **{key: tuple(group)}), rules)
        case PlaceNpc(to=to):
            if s.entered >= len(gr.entry_track):
                raise InputError("to", f"all {len(gr.entry_track)} NPCs of the entry track are already on the board")
            kind = gr.entry_track[s.entered]
            if kind == OPPRESSOR:
                return _with_state(g, replace(s, oppressors=s.oppressors + (to,)), rules)
            return _with_state(g, replace(s, civilians=s.civilians + (to,)), rules)
        case RemoveNpc(npc=npc, index=i):
            group = list(s.oppressors if npc == OPPRESSOR else s.civilians)
            if not 0 <= i < len(group):
                raise InputError("piece", "that NPC is not on the board")
            group.pop(i)
            key = "oppressors" if npc == OPPRESSOR else "civilians"
            return _with_state(g, replace(s, **{key: tuple(group)}), rules)
        case Posters(at=at, delta=delta):
            if delta > 0 and s.poster_supply_left(rules) < 1:
                raise InputError("at", f"all {rules.poster_supply} posters are out (on the board or in the junk pile)")
            if delta < 0 and not s.posters[at]:
                raise InputError("at", "there is no poster on that space")
            return _with_state(g, s.with_poster(at, 1 if delta > 0 else -1), rules)
        case Tracks() as t:
            changes = {k: v for k, v in (("funds", t.funds), ("reputation", t.reputation), ("office", t.office),
                                         ("junk", t.junk), ("round", t.round)) if v is not None}
            after = replace(s, **changes)
            if after.junk + sum(after.posters) > rules.poster_supply:
                raise InputError("junk", f"the game has {rules.poster_supply} posters; the board and junk pile hold more")
            return _with_state(g, after, rules)
        case SetCharacter(seat=seat, character=character):
            if not 0 <= seat < len(s.players):
                raise InputError("seat", "no such player at this table")
            if character is not None and character in s.characters[:seat] + s.characters[seat + 1:]:
                raise InputError("character", "each character is played by one player only")
            chars = list(s.characters)
            chars[seat] = character
            players = list(s.players)
            if not g.log and s.round in (None, 1):  # before play a character stands on its start space
                players[seat] = setting.start_space(character)
            return replace(g, state=replace(s, characters=tuple(chars), players=tuple(players)))
        case SetActive(seat=seat):
            if not 0 <= seat < len(s.players):
                raise InputError("seat", "no such player at this table")
            return replace(g, state=replace(s, active=seat))
        case Setup():
            entry = board.start_space("move_the_masses")
            fresh = replace(s, oppressors=(), civilians=(), players=tuple(setting.start_space(c) for c in s.characters),
                            posters=(0,) * board.n, junk=0, funds=0, office=0, round=1, active=0,
                            reputation=setting.starting_reputation, entry=s.entry if entry is None else entry,
                            ended=None)
            # Set Up (Character Abilities): A1-5 draws the top Upgrade card, kept on A1-5's phone (its private
            # state), not in the table's card list
            return Game(state=fresh, log=(), office_track=(0,), cards=())
        case PlayTurn(move_to=to, activation=a, extra=e, what=what):
            _require_on_going(s)
            if entry_pending(gr, s):
                raise InputError("do", f"start round {s.round} first: its NPC has not entered yet")
            _require_round_open(g)
            if g.turn_played():
                raise InputError("do", "this player has played their turn: the NPC turn comes next")
            effects = g.effects()
            after, enc = play_turn(board, rules, effects.at_turn_start(board, rules, s) if effects else s, to, a, e)
            entry = LogEntry(round=s.round or 1, player=s.active, turn="player", what=what[:80],
                             junked=enc.posters_junked if enc else 0, office=after.office)
            return replace(g, state=after, log=_log(g, entry), office_track=_track(g, after.office))
        case Roll(black=black, red=red, what=what):
            _require_on_going(s)
            _require_round_open(g)
            effects = g.effects()
            cards = g.cards
            if effects:  # the cards of this NPC turn: moves and track changes first, a die a card sets
                dice, start = effects.dice_for(s, gr.dice), effects.before_npc(board, rules, s)
                cards = _used(g, effects, (ce.NPC, ce.round_of(s), s.active))
            else:
                dice, start = gr.dice, s
            if start.ended is not None:
                raise InputError("do", "a card's effect ended the game before the NPC turn: set the tracks")
            f = npc_turn(board, rules, dice, start, gr.valuer(start))
            match = [o for o in f.outcomes if o.black == black and o.red == red]
            if not match:
                raise InputError("black", "that pair of faces cannot come up with these dice")
            r = match[0].result
            after = r.state
            last_of_round = g.played_this_round() | {s.active} >= set(range(len(s.players)))
            if after.ended is None and last_of_round and (s.round or 1) >= gr.max_rounds:
                after = replace(after, ended=FAILURE)  # Game End: six rounds are over without enough SPARK
            if after.ended is None:
                after = replace(after, active=(s.active + 1) % len(s.players))
            entry = LogEntry(round=s.round or 1, player=s.active, turn="npc", what=what[:80],
                             junked=r.posters_junked, office=after.office)
            return replace(g, state=after, log=_log(g, entry), office_track=_track(g, after.office), cards=cards)
        case StartRound():
            _require_on_going(s)
            if s.entered >= len(gr.entry_track):
                raise InputError("do", "all six NPCs have entered: the entry track is empty")
            if not g.round_can_start(gr):
                waiting = sorted(set(range(len(s.players))) - g.played_this_round())
                if s.round is not None and s.round >= gr.max_rounds:
                    raise InputError("do", "round 6 is the last round")
                raise InputError("do", "every player has a turn first: seat" + ("s " if len(waiting) > 1 else " ")
                                 + ", ".join(str(w + 1) for w in waiting) + " still to play this round")
            row = s.entered + 1
            npc = gr.entry_track[row - 1]
            limit = gr.max_oppressors if npc == OPPRESSOR else gr.max_civilians
            if (len(s.oppressors) if npc == OPPRESSOR else len(s.civilians)) >= limit:
                raise InputError("do", f"all the {'Human Oppressors' if npc == OPPRESSOR else 'Civilian Robots'} "
                                 "are already on the board")
            e = enter_npc(board, rules, s, npc if npc == OPPRESSOR else CIVILIAN, row, gr.max_rounds)
            after = replace(e.state, active=0)
            effects, cards = g.effects(), g.cards
            if effects:
                after = effects.at_round_start(board, rules, after)
                cards = _used(g, effects, (ce.ROUND_START, row, None))
            entry = LogEntry(round=row, player=0, turn="round_start", what=f"{npc} enters on {board.names[e.space]}",
                             junked=e.encounter.posters_junked, office=after.office)
            return replace(g, state=after, log=_log(g, entry), office_track=_track(g, after.office), cards=cards)
        case AddCard(seat=seat, deck=deck, name=name, played=played, setup=setup, effect=effect):
            if not 0 <= seat < len(s.players):
                raise InputError("seat", "no such player at this table")
            if deck not in DECKS:
                raise InputError("deck", "an Upgrade or a Sabotage card")
            if len(g.cards) >= MAX_CARDS:
                raise InputError("name", f"at most {MAX_CARDS} cards are kept")
            if setup and (deck != "upgrade" or s.characters[seat] != "a1_5" or any(c.setup for c in g.cards)):
                raise InputError("setup", "only A1-5 draws one Upgrade card at setup")
            title = name.strip()[:60] or ("Upgrade card" if deck == "upgrade" else "Sabotage card")
            card = Card(seat=seat, deck=deck, name=title, played=played, setup=setup, effect=effect)
            return _play_now(setting, replace(g, cards=g.cards + (card,)), len(g.cards))
        case PlayCard(index=i):
            if _card(g, i).played:
                raise InputError("card", "that card has been played already")
            return _play_now(setting, _with_card(g, i, played=True), i)
        case CardEffect(index=i, effect=effect):
            return _with_card(g, i, effect=effect)
        case CardDone(index=i, done=done):
            return _with_card(g, i, done=done)
        case RenameCard(index=i, name=name):
            return _with_card(g, i, name=name.strip()[:60] or _card(g, i).name)
        case RemoveCard(index=i):
            _card(g, i)
            return replace(g, cards=g.cards[:i] + g.cards[i + 1:])
    raise InputError("do", "unknown action")

