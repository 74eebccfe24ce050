"""Reading a table's Robotariat state, turning it into the solvers' records and back, and applying actions.

`from_stored(raw, players, names)` reads whatever a table holds under `robotariat` (any age, any shape)
into a RobotariatTable that every page and endpoint can use: the model leniently (stored.lenient), then
what only the whole value can say (a link to a space that is not there, a player off the board, the
seats of the table). `apply(table, action, ...)` is the one implementation of what an action changes:
the table actions go to the solvers' reducer (solvers/robotariat/table.py); the board editor, the game
data and the objectives' facts are edits of the model itself.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from solvers.errors import InputError
from solvers.robotariat import table as rt
from solvers.robotariat.board import KIND_NAMES, MAX_SPACES, BoardError
from solvers.robotariat.board import Board as SolverBoard
from solvers.robotariat.card_effects import Effect
from solvers.robotariat.game import GameRules
from solvers.robotariat.model import Dice as SolverDice
from solvers.robotariat.model import TableState, status_after
from solvers.robotariat.turn import Activation, Extra

from ..web.stored import lenient
from . import actions as A
from . import present
from .schemas import (
    DATA,
    Board,
    Card,
    CardEffect,
    Facts,
    GameData,
    Guide,
    LogEntry,
    Pieces,
    Player,
    RobotariatTable,
    Space,
)

ID_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def example_board() -> Board:
    d = DATA.board.to_json()
    return Board.model_validate(d)


# ---- reading a stored value ---------------------------------------------------------------------------

def clean_board(board: Board) -> Board:
    """Keep what makes sense of a stored or imported board: unique ids, names, links and path steps between
    existing spaces, positions 0..100. Whether the board is complete is the validator's question."""
    spaces: list[Space] = []
    seen: set[str] = set()
    for s in board.spaces:
        if s.id in seen or not set(s.id) <= ID_CHARS or len(s.id) > 24 or len(spaces) >= MAX_SPACES:
            continue
        seen.add(s.id)
        keep = s.x is not None and s.y is not None
        spaces.append(Space(id=s.id, name=s.name.strip()[:24] or KIND_NAMES[s.kind], kind=s.kind,
                            x=round(max(0.0, min(100.0, s.x)), 1) if keep else None,
                            y=round(max(0.0, min(100.0, s.y)), 1) if keep else None, start=s.start))
    pairs: list[tuple[str, str]] = []
    for a, b in board.links:
        key = (a, b) if a < b else (b, a)
        if a in seen and b in seen and a != b and key not in pairs:
            pairs.append(key)
    paths = {colour: {a: b for a, b in getattr(board, colour).items() if a in seen and b in seen and a != b}
             for colour in ("yellow_next", "blue_next")}
    return Board(spaces=spaces, links=pairs, **paths)


def start_space(board: Board, character: str | None) -> str | None:
    """Where the character's sheet puts it (rulebook "Character Abilities"), else the first space."""
    if character in DATA.character_starts:
        kind = DATA.character_starts[character]
        found = first_of_kind(board, kind)
        if found:
            return found
    return board.spaces[0].id if board.spaces else None


def first_of_kind(board: Board, kind: str) -> str | None:
    """The space of this kind marked as the start, else the first of that kind (as solvers' Board does)."""
    of_kind = [s for s in board.spaces if s.kind == kind]
    marked = [s for s in of_kind if s.start]
    return (marked or of_kind or [None])[0].id if (marked or of_kind) else None


def _clean_pieces(p: Pieces, board: Board, players: int, names: list[str], rep_default: int) -> Pieces:
    ids = {s.id for s in board.spaces}
    first = board.spaces[0].id if board.spaces else None
    seats = []
    taken: set[str] = set()
    for i in range(players):
        old = p.players[i] if i < len(p.players) else Player()
        character = old.character if old.character not in taken else None
        if character:
            taken.add(character)
        name = (names[i] if i < len(names) and names[i] else "") or old.name.strip() or f"Player {i + 1}"
        at = old.at if old.at in ids else start_space(board, character)
        seats.append(Player(name=name[:40], at=at, character=character))
    posters = {sid: min(n, DATA.poster_supply) for sid, n in p.posters.items() if sid in ids and n > 0}
    return Pieces(oppressors=[x for x in p.oppressors if x in ids][:DATA.max_oppressors],
                  civilians=[x for x in p.civilians if x in ids][:DATA.max_civilians],
                  players=seats, active=min(p.active, max(0, players - 1)), posters=posters,
                  junk=min(p.junk, DATA.poster_supply), funds=p.funds, reputation=p.reputation, office=p.office,
                  entry=p.entry if p.entry in ids else (first_of_kind(board, "move_the_masses") or first),
                  round=p.round or 1)


def from_stored(raw: Any, players: int, names: list[str] | None = None) -> RobotariatTable:
    """The table's `robotariat` value as every page and endpoint reads it; never raises."""
    raw = raw if isinstance(raw, dict) else {}
    t = lenient(RobotariatTable, raw)
    example = t.example
    layout = dict(t.layout)
    if t.board is None:  # never entered: the shipped example stands in
        board, example = example_board(), True
    else:
        board = clean_board(t.board)
    rep_default = t.data.starting_reputation.get(str(players), DATA.starting_reputation.get(players, 5))
    stored_state = raw.get("state") if isinstance(raw.get("state"), dict) else {}
    pieces = t.state if "reputation" in stored_state else t.state.model_copy(update={"reputation": rep_default})
    pieces = _clean_pieces(pieces, board, players, names or [], rep_default)
    track = list(t.office_track)
    if not track or track[-1] != pieces.office:
        track.append(pieces.office)
    facts = t.facts
    per_seat = {k: v for k in ("objectives", "cards_played", "spy_correct")
                if len(v := getattr(facts, k)) == players}
    facts = Facts(**{**facts.model_dump(include={"cooperative", "gambler_cards", "revolution_over", "max_junked"}),
                     **per_seat})
    ids = {s.id for s in board.spaces}
    guide = t.guide
    if guide is not None:  # `at` names a space of the board on the paths step, and only there
        if not board.spaces:
            guide = Guide(step="spaces")
        elif guide.step == "paths" and guide.at not in ids:
            guide = Guide(step="paths", at=board.spaces[0].id)
        elif guide.step != "paths" and guide.at is not None:
            guide = Guide(step=guide.step)
    return RobotariatTable(board=board, example=example and bool(board.spaces),
                           layout=present.normalize_layout({k: list(v) for k, v in layout.items() if k in ids}, board),
                           data=t.data, state=pieces, log=t.log[-200:], office_track=track[-1000:], facts=facts,
                           cards=[c for c in t.cards if c.seat < players], guide=guide)


def value(t: RobotariatTable) -> dict:
    """The JSON value stored under `robotariat` (and given to the scripts)."""
    return t.model_dump(mode="json")


# ---- the solvers' records -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Solved:
    """The table as the solvers take it: a valid board, the game rules and the game record."""
    board: SolverBoard
    setting: rt.Setting
    game: rt.Game


def game_rules(board: SolverBoard, data: GameData, players: int) -> GameRules:
    return GameRules(board=board, rules=DATA.rules(players, tuple(data.office_rewards)),
                     dice=SolverDice(tuple(data.dice.black), tuple(data.dice.red)), weights=DATA.weights,
                     entry_track=DATA.entry_track, max_rounds=DATA.max_rounds, max_oppressors=DATA.max_oppressors,
                     max_civilians=DATA.max_civilians)


def draft_board(board: Board) -> SolverBoard:
    """A board still being entered, by index, for the actions that only move pieces by hand: black lines
    between known spaces, a missing path step read as staying put. The solvers refuse it."""
    ids = tuple(s.id for s in board.spaces)
    ix = {sid: i for i, sid in enumerate(ids)}
    nbrs: list[set[int]] = [set() for _ in ids]
    for a, b in board.links:
        nbrs[ix[a]].add(ix[b])
        nbrs[ix[b]].add(ix[a])
    return SolverBoard(ids=ids, names=tuple(s.name for s in board.spaces), kinds=tuple(s.kind for s in board.spaces),
                       neighbours=tuple(tuple(sorted(n)) for n in nbrs),
                       yellow=tuple(ix.get(board.yellow_next.get(sid), i) for i, sid in enumerate(ids)),
                       blue=tuple(ix.get(board.blue_next.get(sid), i) for i, sid in enumerate(ids)),
                       starts=tuple(s.start for s in board.spaces))


def solved(t: RobotariatTable, by_hand: bool = False) -> Solved:
    """InputError("do") when the board is not complete yet (the solvers need a valid board); `by_hand`:
    the action only moves pieces or sets tracks, which a board still being entered allows."""
    if not t.board.spaces:
        raise InputError("do", "enter the board first (board editor)")
    try:
        board = SolverBoard.from_json(t.board.model_dump())
    except BoardError as e:
        if not by_hand:
            raise InputError("do", f"finish the board first (board editor): {e.problems[0].message}") from None
        board = draft_board(t.board)
    players = len(t.state.players)
    ix = board.index
    st = t.state
    posters = [0] * board.n
    for sid, n in st.posters.items():
        posters[ix[sid]] += n
    rules = DATA.rules(players, tuple(t.data.office_rewards))
    s = TableState(oppressors=tuple(ix[x] for x in st.oppressors), civilians=tuple(ix[x] for x in st.civilians),
                   players=tuple(ix[p.at] for p in st.players), characters=tuple(p.character for p in st.players),
                   posters=tuple(posters), junk=st.junk, funds=st.funds, reputation=st.reputation, office=st.office,
                   entry=ix[st.entry], active=st.active, round=st.round,
                   ended=status_after(st.funds, st.reputation, rules.target))
    log = tuple(rt.LogEntry(round=e.round, player=e.player, turn=e.turn, what=e.what, junked=e.junked, office=e.office)
                for e in t.log)
    cards = tuple(rt.Card(seat=c.seat, deck=c.deck, name=c.name, played=c.played, setup=c.setup,
                          effect=solver_effect(c.effect, board), done=c.done) for c in t.cards)
    setting = rt.Setting(game=game_rules(board, t.data, players),
                         starting_reputation=t.data.starting_reputation.get(str(players), 5),
                         character_starts=DATA.character_starts)
    return Solved(board=board, setting=setting,
                  game=rt.Game(state=s, log=log, office_track=tuple(t.office_track) or (0,), cards=cards))


def with_game(t: RobotariatTable, board: SolverBoard, g: rt.Game) -> RobotariatTable:
    """The model with the game record's state, log, office track and cards."""
    ids, s = board.ids, g.state
    players = [Player(name=old.name, at=ids[at], character=ch)
               for old, at, ch in zip(t.state.players, s.players, s.characters)]
    pieces = Pieces(oppressors=[ids[x] for x in s.oppressors], civilians=[ids[x] for x in s.civilians],
                    players=players, active=s.active, posters={ids[i]: n for i, n in enumerate(s.posters) if n},
                    junk=s.junk, funds=s.funds, reputation=s.reputation, office=s.office, entry=ids[s.entry],
                    round=s.round or 1)
    return t.model_copy(update={
        "state": pieces, "office_track": list(g.office_track),
        "log": [LogEntry(round=e.round, player=e.player, turn=e.turn, what=e.what, junked=e.junked, office=e.office)
                for e in g.log],
        # a setup card in the table's own card list is one A1-5 has shown (a secret one is never there)
        "cards": [Card(seat=c.seat, deck=c.deck, name=c.name, played=c.played, setup=c.setup,
                       effect=stored_effect(c.effect, board), done=c.done, shown=c.setup) for c in g.cards]})


def solver_effect(e: CardEffect | None, board: SolverBoard) -> Effect | None:
    """A card's effect as the solvers take it; a move to a space no longer on the board counts as none."""
    if e is None:
        return None
    if e.to is not None and e.to not in board.index:
        return None
    return e.to_solver(board.index[e.to] if e.to is not None else None)


def stored_effect(e: Effect | None, board: SolverBoard) -> CardEffect | None:
    if e is None:
        return None
    return CardEffect.model_validate({**vars(e), "to": board.ids[e.to] if e.to is not None else None})


# ---- actions ---------------------------------------------------------------------------------------------

def _space(board: SolverBoard, sid: str | None, field: str) -> int:
    if sid is None or sid not in board.index:
        raise InputError(field, "pick a space of the board")
    return board.index[sid]


def _piece(value: str) -> tuple[str, int]:
    if value == "entry":
        return "entry", 0
    return {"o": "oppressor", "c": "civilian", "p": "player"}[value[0]], int(value[1:])


def to_solver_action(a: BaseModel, board: SolverBoard) -> rt.Action:
    """The reducer's record for a validated table action (space ids checked against the board)."""
    match a:
        case A.Move(piece=piece, to=to):
            kind, i = _piece(piece)
            return rt.MovePiece(piece=kind, index=i, to=_space(board, to, "to"))
        case A.PlaceNpc(to=to):
            return rt.PlaceNpc(to=_space(board, to, "to"))
        case A.RemoveNpc(piece=piece):
            kind, i = _piece(piece)
            return rt.RemoveNpc(npc=kind, index=i)
        case A.Poster(at=at, delta=delta):
            if delta == 0:
                raise InputError("delta", "add a poster (1) or take one off (-1)")
            return rt.Posters(at=_space(board, at, "at"), delta=delta)
        case A.Tracks():
            return rt.Tracks(funds=a.funds, reputation=a.reputation, office=a.office, junk=a.junk, round=a.round)
        case A.SetCharacter(seat=seat, character=character):
            return rt.SetCharacter(seat=seat, character=character)
        case A.SetActive(seat=seat):
            return rt.SetActive(seat=seat)
        case A.Setup():
            return rt.Setup()
        case A.PlayTurn():
            return play_turn_action(a, board)
        case A.Roll(black=black, red=red):
            return rt.Roll(black=black, red=red, what=f"{present.FACES[black]} / {present.FACES[red]}")
        case A.Enter():
            return rt.StartRound()
        case A.AddCard():
            return rt.AddCard(seat=a.seat, deck=a.deck, name=a.name, played=a.played, setup=a.setup,
                              effect=_effect(a.effect, board))
        case A.ShowSetupCard():
            return rt.AddCard(seat=a.seat, deck="upgrade", name=a.name, played=a.played, setup=True,
                              effect=_effect(a.effect, board))
        case A.SetCardEffect(card=i):
            return rt.CardEffect(index=i, effect=_effect(a.effect, board))
        case A.CardDone(card=i, done=done):
            return rt.CardDone(index=i, done=done)
        case A.PlayCard(card=i):
            return rt.PlayCard(index=i)
        case A.RenameCard(card=i, name=name):
            return rt.RenameCard(index=i, name=name)
        case A.RemoveCard(card=i):
            return rt.RemoveCard(index=i)
    raise InputError("do", "unknown action")


def _effect(e: CardEffect | None, board: SolverBoard) -> Effect | None:
    if e is None:
        return None
    return e.to_solver(_space(board, e.to, "effect.to") if e.to is not None else None)


def play_turn_action(a: A.PlayTurn, board: SolverBoard, what: str = "") -> rt.PlayTurn:
    act = None
    if a.activate is not None:
        x = a.activate
        act = Activation(kind=x.kind, space=_space(board, x.space, "activate.space"), when=x.when,
                         place_on=_space(board, x.place_on, "activate.place_on") if x.kind == "poster" else None,
                         placement=tuple(sorted((_space(board, sid, "activate.placement"), n)
                                                for sid, n in x.placement.items())),
                         contribute=x.contribute, npc=x.npc, npc_index=x.index,
                         npc_to=_space(board, x.to, "activate.to") if x.kind == "move_the_masses" else None)
    extra = None
    if a.extra is not None:
        e = a.extra
        extra = Extra(ability=e.ability, to=_space(board, e.to, "extra.to"),
                      source=_space(board, e.source, "extra.from") if e.ability == "mr_postman" else None)
    return rt.PlayTurn(move_to=_space(board, a.move_to, "move_to"), activation=act, extra=extra, what=what)


def apply(t: RobotariatTable, a: BaseModel, players: int, names: list[str],
          option_turn: Callable[[RobotariatTable, int], tuple[A.PlayTurn, str]] | None = None) -> RobotariatTable:
    """The table after one validated action (InputError naming the field when it cannot be done).
    `option_turn(table, n)`: the n-th suggested turn of the table as a PlayTurn and its headline
    (for "Do this"; the API's suggestions compute it)."""
    if isinstance(a, (*A.PLAY, A.Roll, A.Enter, A.DoOption, *A.CARDS, A.ShowSetupCard)):
        s = solved(t, by_hand=isinstance(a, (*A.HAND, *A.CARDS, A.ShowSetupCard)))
        if isinstance(a, A.DoOption):
            if option_turn is None:
                raise InputError("option", "no suggestions here")
            turn, headline = option_turn(t, a.option)
            action = play_turn_action(turn, s.board, headline)
        else:
            action = to_solver_action(a, s.board)
        g = rt.reduce(s.setting, s.game, action)
        return from_stored(value(with_game(t, s.board, g)), players, names)
    if isinstance(a, A.EDITOR):
        return from_stored(value(edit_board(t, a)), players, names)
    if isinstance(a, A.DATA_ACTIONS):
        return from_stored(value(edit_data(t, a)), players, names)
    if isinstance(a, A.FactsChange):
        return from_stored(value(edit_facts(t, a, players)), players, names)
    raise InputError("do", "unknown action")


def _require(t: RobotariatTable, sid: str, field: str) -> str:
    if sid not in {s.id for s in t.board.spaces}:
        raise InputError(field, "pick a space of the board")
    return sid


def _new_space_id(board: Board) -> str:
    used = {s.id for s in board.spaces}
    n = len(used) + 1
    while f"s{n}" in used:
        n += 1
    return f"s{n}"


def _drop_arrow_line(board: Board, sid: str, old: str) -> None:
    """An arrow of `sid` no longer leads to `old`: the black line it brought along goes too, unless an
    arrow still runs on it (a changed mind must not leave a line the printed board lacks)."""
    if old in (board.yellow_next.get(sid), board.blue_next.get(sid)) or sid in (
            board.yellow_next.get(old), board.blue_next.get(old)):
        return
    board.links = [ln for ln in board.links if tuple(sorted(ln)) != tuple(sorted((sid, old)))]


def edit_board(t: RobotariatTable, a: BaseModel) -> RobotariatTable:
    """The board editor's actions: spaces, black lines, path steps, positions, import, example, clear."""
    board = t.board.model_copy(deep=True)
    layout = {k: list(v) for k, v in t.layout.items()}
    st = t.state.model_copy(deep=True)
    match a:
        case A.AddSpace(kind=kind, name=name, x=x, y=y):
            if len(board.spaces) >= MAX_SPACES:
                raise InputError("kind", f"a board here holds at most {MAX_SPACES} spaces")
            sid = _new_space_id(board)
            board.spaces.append(Space(id=sid, kind=kind, name=name.strip() or KIND_NAMES[kind]))
            if x is not None and y is not None:
                layout[sid] = [x, y]
        case A.EditSpace(id=sid, kind=kind, name=name):
            _require(t, sid, "id")
            space = next(s for s in board.spaces if s.id == sid)
            if kind is not None:
                space.kind = kind
            if name is not None:
                space.name = name.strip() or KIND_NAMES[space.kind]
        case A.SaveSpace(id=sid, name=name, kind=kind, yellow=yellow, blue=blue):
            _require(t, sid, "id")
            space = next(s for s in board.spaces if s.id == sid)
            space.kind, space.name = kind, name.strip() or KIND_NAMES[kind]
            lines = {tuple(sorted(ln)) for ln in board.links}
            before = {c: getattr(board, f"{c}_next").get(sid) for c in ("yellow", "blue")}
            for colour, nxt in (("yellow", yellow), ("blue", blue)):
                nexts = getattr(board, f"{colour}_next")
                if nxt is None:
                    nexts.pop(sid, None)
                    continue
                _require(t, nxt, colour)
                if nxt == sid:
                    raise InputError(colour, "the next space on a path is another space")
                nexts[sid] = nxt
                if tuple(sorted((sid, nxt))) not in lines:  # paths run along black lines
                    board.links.append(tuple(sorted((sid, nxt))))
                    lines.add(tuple(sorted((sid, nxt))))
            for old in {p for p in before.values() if p is not None}:
                _drop_arrow_line(board, sid, old)
        case A.DeleteSpace(id=sid):
            _require(t, sid, "id")
            board.spaces = [s for s in board.spaces if s.id != sid]
            board.links = [ln for ln in board.links if sid not in ln]
            for colour in ("yellow_next", "blue_next"):
                setattr(board, colour, {x: y for x, y in getattr(board, colour).items() if sid not in (x, y)})
            layout.pop(sid, None)
            st.oppressors = [x for x in st.oppressors if x != sid]
            st.civilians = [x for x in st.civilians if x != sid]
            st.posters.pop(sid, None)
        case A.ToggleLink(a=x, b=y):
            _require(t, x, "a")
            _require(t, y, "b")
            if x == y:
                raise InputError("b", "a black line joins two different spaces")
            key = tuple(sorted((x, y)))
            board.links = [ln for ln in board.links if tuple(sorted(ln)) != key] if key in \
                {tuple(sorted(ln)) for ln in board.links} else board.links + [key]
        case A.Path(colour=colour, source=x, to=y):
            _require(t, x, "from")
            nexts = getattr(board, f"{colour}_next")
            before_path = nexts.get(x)
            if y is None:
                nexts.pop(x, None)
            else:
                _require(t, y, "to")
                if x == y:
                    raise InputError("to", "the next space on a path is another space")
                nexts[x] = y
                if tuple(sorted((x, y))) not in {tuple(sorted(ln)) for ln in board.links}:  # paths run along lines
                    board.links.append(tuple(sorted((x, y))))
            if before_path is not None and before_path != y:
                _drop_arrow_line(board, x, before_path)
        case A.MoveSpace(id=sid, x=x, y=y):
            _require(t, sid, "id")
            layout = present.move_space(layout, sid, x, y)
        case A.Import(board=raw, layout=raw_layout):
            if "board" in raw and isinstance(raw["board"], dict):  # a whole export file
                raw, raw_layout = raw["board"], raw.get("layout")
            imported = clean_board(lenient(Board, raw))
            if not imported.spaces:
                raise InputError("board", "the board has no spaces with an id and a kind")
            return t.model_copy(update={"board": imported, "layout": _layout_of(raw_layout), "example": False,
                                        "state": st, "guide": None})
        case A.Example():
            return t.model_copy(update={"board": example_board(), "layout": {}, "example": True, "guide": None})
        case A.Clear():
            return t.model_copy(update={"board": Board(), "layout": {}, "example": False, "guide": None})
        case A.CopyBoard():
            raise InputError("code", "the board page looks the table up first")  # pages.copy_board_action
        case A.GuideStart():
            return t.model_copy(update={"board": Board(), "layout": {}, "example": False, "guide": Guide()})
        case A.GuideAdd(kind=kind, name=name):
            if len(board.spaces) >= MAX_SPACES:
                raise InputError("kind", f"a board here holds at most {MAX_SPACES} spaces")
            label = KIND_NAMES[kind]
            same = [s for s in board.spaces if s.kind == kind]
            if len(same) == 1 and same[0].name == label:  # a second of its kind: the first becomes "… 1"
                same[0].name = f"{label} 1"
            board.spaces.append(Space(id=_new_space_id(board), kind=kind,
                                      name=name.strip() or (f"{label} {len(same) + 1}" if same else label)))
        case A.GuideGo(step="done"):
            return t.model_copy(update={"guide": None})
        case A.GuideGo(step=step, at=at):
            if step == "paths":
                if not board.spaces:
                    raise InputError("step", "enter the spaces first")
                at = _require(t, at, "at") if at is not None else board.spaces[0].id
            return t.model_copy(update={"guide": Guide(step=step, at=at if step == "paths" else None)})
    return t.model_copy(update={"board": board, "layout": _layout_of(layout), "example": False, "state": st})


def _layout_of(raw: Any) -> dict[str, tuple[float, float]]:
    out = {}
    if isinstance(raw, dict):
        for k, xy in raw.items():
            if isinstance(k, str) and isinstance(xy, (list, tuple)) and len(xy) == 2:
                try:
                    x, y = float(xy[0]), float(xy[1])
                except (TypeError, ValueError):
                    continue
                if math.isfinite(x) and math.isfinite(y):
                    out[k] = (x, y)
    return out


def edit_data(t: RobotariatTable, a: BaseModel) -> RobotariatTable:
    if isinstance(a, A.DataReset):
        return t.model_copy(update={"data": GameData()})
    data = t.data.model_copy(deep=True)
    if a.dice.black is not None:
        data.dice.black = list(a.dice.black)
    if a.dice.red is not None:
        data.dice.red = list(a.dice.red)
    if a.office_rewards is not None:
        if a.office_rewards[0] != 0:
            raise InputError("office_rewards[0]", "contributions 0 give no SPARK: 0 at level 0")
        data.office_rewards = list(a.office_rewards)
    data.starting_reputation.update(a.starting_reputation)
    return t.model_copy(update={"data": data})


def edit_facts(t: RobotariatTable, a: A.FactsChange, players: int) -> RobotariatTable:
    facts = t.facts.model_copy(deep=True)
    for key in ("cooperative", "gambler_cards", "revolution_over", "max_junked"):
        if getattr(a, key) is not None:
            setattr(facts, key, getattr(a, key))
    for key in ("objectives", "cards_played", "spy_correct"):
        values = getattr(a, key)
        if values is not None:
            if len(values) != players:
                raise InputError(key, f"one value for each of the {players} players")
            if key == "objectives":
                picked = [o for o in values if o]
                if len(picked) != len(set(picked)):
                    raise InputError(key, "each secret objective card is drawn by one player only")
            setattr(facts, key, list(values))
    return t.model_copy(update={"facts": facts})
