"""The Robotariat board: spaces, black lines, and the yellow and blue NPC paths.

The printed board is in no source we have (facts file, "1. Board"), so the board is data the table
enters. Its JSON form (the API's `board`):

    {"spaces": [{"id": "s1", "name": "Poster", "kind": "poster", "x": 50, "y": 10, "start": true}],
     "links": [["s1", "s2"]],                 # black lines, undirected
     "yellow_next": {"s1": "s2"},             # the next space on the yellow path, for every space
     "blue_next": {"s1": "s3"}}               # the next space on the blue path, for every space

`x`, `y` (0..100, where the page draws the space) and `start` (this is the space a character whose
sheet names this kind starts on, and for Move the Masses where the NPC Entry token starts) are
optional. `board_problems` is the spec of a valid board; `Board.from_json` builds the index-based
board the solvers use and refuses an invalid one.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import networkx as nx

KINDS = ("poster", "sabotage", "upgrade", "scrap_yard", "recruitment_office", "move_the_masses")
KIND_NAMES = {"poster": "Poster", "sabotage": "Sabotage", "upgrade": "Upgrade", "scrap_yard": "Scrap Yard",
              "recruitment_office": "Recruitment Office", "move_the_masses": "Move the Masses"}
PATHS = ("yellow", "blue")
MAX_SPACES = 60
MAX_LINKS = 300


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or worth a look) in entered data; `path` names the JSON field."""
    path: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}


class BoardError(ValueError):
    def __init__(self, problems: list[Problem]):
        super().__init__(problems[0].message if problems else "invalid board")
        self.problems = problems


def _space_ids(data: dict) -> tuple[list[str], list[Problem]]:
    problems: list[Problem] = []
    ids: list[str] = []
    spaces = data.get("spaces")
    if not isinstance(spaces, list) or not spaces:
        return [], [Problem("board.spaces", "the board needs at least one space")]
    if len(spaces) > MAX_SPACES:
        problems.append(Problem("board.spaces", f"at most {MAX_SPACES} spaces"))
    for i, space in enumerate(spaces):
        sid = space.get("id") if isinstance(space, dict) else None
        if not isinstance(sid, str) or not sid.strip():
            problems.append(Problem(f"board.spaces[{i}].id", "every space needs an id"))
            continue
        if sid in ids:
            problems.append(Problem(f"board.spaces[{i}].id", f"the id {sid!r} is used twice"))
        ids.append(sid)
        kind = space.get("kind")
        if kind not in KINDS:
            problems.append(Problem(f"board.spaces[{i}].kind", f"{kind!r} is not one of {', '.join(KINDS)}"))
    return ids, problems


def board_problems(data: Any) -> tuple[list[Problem], list[Problem]]:
    """(errors, warnings) for a board in its JSON form. No errors means the solvers can use it.

    Errors: a space without an id or with an unknown kind, a link naming an unknown space or linking a
    space to itself, a space without a yellow or a blue next space, a next space that is not joined to
    it by a black line (NPCs move along black lines). Warnings: spaces the players cannot reach from
    one another, a missing kind, two start marks for one kind, no Move the Masses space for the Entry
    token, a path entry for an id that is not a space.
    """
    if not isinstance(data, dict):
        return [Problem("board", "the board must be an object")], []
    ids, errors = _space_ids(data)
    warnings: list[Problem] = []
    known = set(ids)
    adjacent: dict[str, set[str]] = {sid: set() for sid in ids}  # the black lines read so far
    links = data.get("links", [])
    if not isinstance(links, list):
        errors.append(Problem("board.links", "links must be a list of [space, space] pairs"))
        links = []
    if len(links) > MAX_LINKS:
        errors.append(Problem("board.links", f"at most {MAX_LINKS} links"))
    for i, link in enumerate(links):
        if not (isinstance(link, (list, tuple)) and len(link) == 2):
            errors.append(Problem(f"board.links[{i}]", "a link is a pair of space ids"))
            continue
        a, b = link
        bad = [x for x in (a, b) if x not in known]
        if bad:
            errors.append(Problem(f"board.links[{i}]", f"{bad[0]!r} is not a space on this board"))
        elif a == b:
            errors.append(Problem(f"board.links[{i}]", "a black line joins two different spaces"))
        else:
            adjacent[a].add(b)
            adjacent[b].add(a)
    for colour in PATHS:
        key = f"{colour}_next"
        nexts = data.get(key, {})
        if not isinstance(nexts, dict):
            errors.append(Problem(f"board.{key}", "must map each space id to its next space id"))
            continue
        for sid in ids:
            nxt = nexts.get(sid)
            if nxt is None:
                errors.append(Problem(f"board.{key}.{sid}", f"{sid} has no next space on the {colour} path"))
            elif nxt not in known:
                errors.append(Problem(f"board.{key}.{sid}", f"{nxt!r} is not a space on this board"))
            elif nxt not in adjacent[sid]:
                errors.append(Problem(f"board.{key}.{sid}",
                                      f"the {colour} path from {sid} to {nxt} does not follow a black line"))
        for extra in sorted(set(nexts) - known, key=str):
            warnings.append(Problem(f"board.{key}.{extra}", f"{extra!r} is not a space; this entry is ignored"))
    parts = _parts(ids, adjacent) if ids and not errors else []
    if len(parts) > 1:
        parts = sorted(parts, key=len)
        warnings.append(Problem("board.links", f"the board falls into {len(parts)} parts: players on "
                                f"{', '.join(sorted(parts[0]))} cannot reach the rest"))
    kinds_seen = [s.get("kind") for s in data.get("spaces", []) if isinstance(s, dict)]
    for kind in KINDS:
        if kind not in kinds_seen:
            warnings.append(Problem("board.spaces", f"no {KIND_NAMES[kind]} space"))
        starts = [s.get("id") for s in data.get("spaces", [])
                  if isinstance(s, dict) and s.get("kind") == kind and s.get("start")]
        if len(starts) > 1:
            warnings.append(Problem("board.spaces", f"{len(starts)} {KIND_NAMES[kind]} spaces are marked as "
                                    f"the start; the first ({starts[0]}) is used"))
    return errors, warnings


def _parts(ids: list[str], adjacent: dict[str, set[str]]) -> list[set[str]]:
    """The board's connected parts, each found from its first space in board order."""
    seen: set[str] = set()
    parts = []
    for sid in ids:
        if sid in seen:
            continue
        part, todo = {sid}, [sid]
        while todo:
            for nxt in adjacent[todo.pop()]:
                if nxt not in part:
                    part.add(nxt)
                    todo.append(nxt)
        seen |= part
        parts.append(part)
    return parts


@dataclass(frozen=True)
class Board:
    """A valid board, by space index (0..n-1) for speed; `ids[i]` is the JSON id of space i."""
    ids: tuple[str, ...]
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]  # black lines, sorted
    yellow: tuple[int, ...]  # yellow[i]: the next space on the yellow path
    blue: tuple[int, ...]
    xy: tuple[tuple[float, float] | None, ...] = ()
    starts: tuple[bool, ...] = ()

    @classmethod
    def from_json(cls, data: dict) -> Board:
        errors, _ = board_problems(data)
        if errors:
            raise BoardError(errors)
        spaces = data["spaces"]
        ids = tuple(s["id"] for s in spaces)
        index = {sid: i for i, sid in enumerate(ids)}
        nbrs: list[set[int]] = [set() for _ in ids]
        for a, b in data.get("links", []):
            nbrs[index[a]].add(index[b])
            nbrs[index[b]].add(index[a])
        xy = tuple((float(s["x"]), float(s["y"])) if s.get("x") is not None and s.get("y") is not None else None
                   for s in spaces)
        return cls(ids=ids,
                   names=tuple(s.get("name") or KIND_NAMES[s["kind"]] for s in spaces),
                   kinds=tuple(s["kind"] for s in spaces),
                   neighbours=tuple(tuple(sorted(n)) for n in nbrs),
                   yellow=tuple(index[data["yellow_next"][sid]] for sid in ids),
                   blue=tuple(index[data["blue_next"][sid]] for sid in ids),
                   xy=xy, starts=tuple(bool(s.get("start")) for s in spaces))

    def to_json(self) -> dict:
        spaces = []
        for i, sid in enumerate(self.ids):
            space: dict[str, Any] = {"id": sid, "name": self.names[i], "kind": self.kinds[i]}
            if self.xy and self.xy[i] is not None:
                space["x"], space["y"] = self.xy[i]
            if self.starts and self.starts[i]:
                space["start"] = True
            spaces.append(space)
        links = [[self.ids[a], self.ids[b]] for a in range(self.n) for b in self.neighbours[a] if a < b]
        return {"spaces": spaces, "links": links,
                "yellow_next": {sid: self.ids[self.yellow[i]] for i, sid in enumerate(self.ids)},
                "blue_next": {sid: self.ids[self.blue[i]] for i, sid in enumerate(self.ids)}}

    @cached_property  # read in the solvers' inner loops: an attribute once known
    def n(self) -> int:
        return len(self.ids)

    @cached_property
    def index(self) -> dict[str, int]:
        return {sid: i for i, sid in enumerate(self.ids)}

    @cached_property
    def offices(self) -> frozenset[int]:
        return frozenset(i for i, k in enumerate(self.kinds) if k == "recruitment_office")

    def path(self, colour: str) -> tuple[int, ...]:
        return self.yellow if colour == "yellow" else self.blue

    def start_space(self, kind: str) -> int | None:
        """The space of this kind marked as the start, else the first of that kind, else None."""
        of_kind = [i for i, k in enumerate(self.kinds) if k == kind]
        marked = [i for i in of_kind if self.starts and self.starts[i]]
        return (marked or of_kind or [None])[0]

    def graph(self) -> nx.Graph:
        """The black lines as a networkx graph (nodes: space ids, with `kind` and `name`)."""
        g = nx.Graph()
        for i, sid in enumerate(self.ids):
            g.add_node(sid, kind=self.kinds[i], name=self.names[i])
        g.add_edges_from((self.ids[a], self.ids[b]) for a in range(self.n) for b in self.neighbours[a] if a < b)
        return g

    def path_cycles(self, colour: str) -> list[list[str]]:
        """The loops an NPC that keeps to one path ends up circling (each path is a function on spaces)."""
        g = nx.DiGraph()
        nxt = self.path(colour)
        g.add_edges_from((self.ids[i], self.ids[nxt[i]]) for i in range(self.n))
        loops = []
        for cycle in nx.simple_cycles(g):
            first = min(range(len(cycle)), key=lambda i: self.index[cycle[i]])
            loops.append(cycle[first:] + cycle[:first])  # in path order, from the earliest space
        return sorted(loops, key=lambda c: self.index[c[0]])

    def summary(self) -> dict:
        counts = {k: self.kinds.count(k) for k in KINDS}
        return {"spaces": self.n, "links": sum(len(x) for x in self.neighbours) // 2, "kinds": counts,
                "yellow_loops": self.path_cycles("yellow"), "blue_loops": self.path_cycles("blue")}
