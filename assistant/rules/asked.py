"""Questions asked before: the questions of the evaluation parts the search was tuned on (tests/rules/data/eval),
each with its game and whether a rulebook answers it, kept in assistant/data/rules/asked.toml
(bench/build_rules_asked.py writes it from the parts tuned on, never from the unseen one).

A question whose first results answer it is still told "not covered" when, in meaning (semantic.py), it comes
nearer to a question of its game that no rulebook answers than to anything a rulebook answers there: an entry's
text or one of its players' questions (asks), or an earlier question that was answered. Players keep asking the
same things the books are silent on (a hand limit the book never sets, two players wanting one character) in words
no pattern of synonyms.py foresaw.

The entries that answered each earlier question are kept too: the second look (rerank.py) weighs how near a question
comes to one an entry answered before (`nearest_asking`), and an entry that answered one very near comes first or
third (index.ASKED_FIRST): a question asked again in other words most often wants the same rule.
"""
from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import semantic
from .loader import DATA_DIR

ASKED_FILE = DATA_DIR / "asked.toml"
_KEYS = {"q", "game", "covered", "part"}  # and, for a question a rulebook answers, "ids": the entries that do
ALL_GAMES = "*"        # the key of every game's questions together
NEIGHBOURS = 5        # the nearest questions no book answers looked at for one about the same thing
VOTE, VOTE_SILENT = 3, 2  # ... or: of this many nearest questions asked before, this many no book answered. Leaving each
# part tuned on out in turn (24 parts, game filter), "not covered" said 1,706 -> 1,725 of 1,850, covered ones said
# too 113 -> 115 (both labelled not covered in other parts). Counting an unanswered neighbour that names another
# thing, +35 / +4, but "how many vp is a grade worth" went to "how many vp is zeus worth" on its shape


@dataclass(frozen=True)
class Asked:
    q: str
    game: str
    covered: bool
    part: str     # the evaluation part it comes from (a benchmark leaves a part out to measure it)
    ids: tuple[str, ...] = ()  # the entries that answer it (none when no rulebook does)


def load_asked(path: Path = ASKED_FILE) -> list[Asked]:
    """The questions asked before; none when the file is absent. A malformed record is a ValueError naming it."""
    if not path.exists():
        return []
    out = []
    for i, rec in enumerate(tomllib.loads(path.read_text(encoding="utf-8")).get("question", [])):
        ids = rec.get("ids", [])
        if set(rec) - {"ids"} != _KEYS or not isinstance(rec["q"], str) or not rec["q"].strip() \
                or not isinstance(rec["covered"], bool) or not isinstance(ids, list) \
                or not all(isinstance(x, str) and x for x in ids) or ids and not rec["covered"]:
            raise ValueError(f"{path.name}: question {i + 1} needs exactly q, game, covered (true/false), part, "
                             "and ids (entry ids) only when covered")
        out.append(Asked(rec["q"], rec["game"], rec["covered"], rec["part"], tuple(ids)))
    return out


class AskedBefore:
    """The vectors of the questions asked before, by game, and of what each game's entries answer."""

    def __init__(self, asked: list[Asked], answered_by_game: dict[str, np.ndarray], stems: Callable[[str], set[str]],
                 kept: dict[str, np.ndarray] | None = None):
        self._by_game: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, list[set[str]]]] = {}
        self._answered_by_game = dict(answered_by_game)
        # by game: the entries that answered a question asked before, those questions' rows entry after entry, and
        # where each entry's rows start (and the last end)
        self._asking: dict[str, tuple[list[str], np.ndarray, np.ndarray]] = {}
        self._near: tuple[bytes, dict[str, np.ndarray]] = (b"", {})  # the last question's nearness, by game
        self.left_out: str | None = None  # a part left out of the bank (a benchmark measuring that part)
        if not asked:
            return
        games = sorted({a.game for a in asked})
        mine = [a for g in games for a in asked if a.game == g]
        every = (semantic.vectors_of([a.q for a in mine], kept)[0], np.array([a.covered for a in mine], dtype=bool),
                 np.array([a.part for a in mine]), [stems(a.q) for a in mine])
        # each game's questions are a slice of every game's (views: the vectors are kept once)
        self._by_game[ALL_GAMES] = every
        starts = {ALL_GAMES: 0}
        start = 0
        for g in games:
            end = start + sum(a.game == g for a in asked)
            self._by_game[g] = (every[0][start:end], every[1][start:end], every[2][start:end], every[3][start:end])
            starts[g], start = start, end
        for g in (ALL_GAMES, *games):
            asking: dict[str, list[int]] = {}
            for i, a in enumerate(mine):
                if g in (ALL_GAMES, a.game):
                    for entry in a.ids:
                        asking.setdefault(entry, []).append(i)
            if not asking:
                continue
            entries = sorted(asking)
            self._asking[g] = (entries, np.array([i - starts[g] for e in entries for i in asking[e]]),
                               np.cumsum([0] + [len(asking[e]) for e in entries]))
        if answered_by_game:
            self._answered_by_game[ALL_GAMES] = np.concatenate(list(answered_by_game.values()))

    def silent_nearer(self, about: set[str], vector: np.ndarray, game: str, margin: float,
                      words: set[str] = frozenset(), things: set[str] = frozenset()) -> bool:
        """The question (its unit vector) is nearer, by more than `margin` (cosine), to a question of `game` (ALL_GAMES:
        of any game) no rulebook answers than to anything of that game a rulebook answers, and that question says every word of `about` (what
        the first result is about, in the question's words); or VOTE_SILENT of its VOTE nearest questions asked before
        went unanswered, that one the nearest of all, and name none of the game's `things` (the words its entries are
        about) that the question's `words` (stems) do not. The sentence model weighs
        a question's shape much: "how many vp is the robo race worth" is near "how many vp is the oz robot worth", which
        no book answers, but asks of another thing."""
        if game not in self._by_game:
            return False
        vectors, covered, part, said = self._by_game[game]
        kept = part != self.left_out if self.left_out is not None else np.ones(len(part), dtype=bool)
        near = self.nearness(vector, game)
        answered = self._answered_by_game.get(game)
        said_before = near[kept & covered]
        nearest_answered = max(float(said_before.max()) if len(said_before) else -1.0,
                               float(np.einsum("ij,j->i", answered, vector).max())
                               if answered is not None and len(answered) else -1.0)
        silent = np.flatnonzero(kept & ~covered & (near > nearest_answered + margin))
        nearest = silent[np.argsort(-near[silent])][:NEIGHBOURS]
        if bool(about) and any(about <= said[i] for i in nearest):
            return True
        if len(nearest):
            # (one question no book answered, nearest alone, may share only the question's shape; two of the three
            # nearest that name nothing the question does not name say it was asked before: "how many vp is zeus
            # worth" names another thing than "how many vp is a grade worth")
            mine = np.flatnonzero(kept)
            few = mine[np.argpartition(-near[mine], VOTE - 1)[:VOTE]] if len(mine) >= VOTE else mine
            if near[nearest[0]] >= near[few].max() and sum(
                    not covered[i] and said[i] & things <= words for i in few) >= VOTE_SILENT:
                return True
        return False

    def nearness(self, vector: np.ndarray, game: str) -> np.ndarray:
        """The cosine of the question (its unit vector) to each question of `game` asked before; kept for the question
        (the check above and the second look both want it)."""
        key = vector.tobytes()
        last = self._near
        if last[0] != key:
            last = self._near = (key, {})
        near = last[1].get(game)
        if near is None:
            # (einsum, not BLAS: BLAS would run it on both cores and keep them spinning after, while the model, on the
            # encoder's thread, wants the other core for the next question)
            near = last[1][game] = np.einsum("ij,j->i", self._by_game[game][0], vector)
        return near

    def nearest_asking(self, vector: np.ndarray, game: str) -> dict[str, float]:
        """For each entry of `game` (ALL_GAMES: of every game) that answered a question asked before, the cosine of the
        question to the nearest of those (none of the part left out)."""
        if game not in self._asking:
            return {}
        entries, rows, bounds = self._asking[game]
        near = self.nearness(vector, game)[rows]
        if self.left_out is not None:
            near[self._by_game[game][2][rows] == self.left_out] = -1.0
        return dict(zip(entries, np.maximum.reduceat(near, bounds[:-1]).tolist()))

    def nearest_said(self, vector: np.ndarray, game: str, entry: str) -> set[str]:
        """The words (stems) of the question asked before, answered by `entry`, that comes nearest the question (none of
        the part left out)."""
        if game not in self._asking:
            return set()
        entries, rows, bounds = self._asking[game]
        at = entries.index(entry)
        mine = rows[bounds[at]:bounds[at + 1]]
        near = self.nearness(vector, game)[mine]
        if self.left_out is not None:
            near = np.where(self._by_game[game][2][mine] != self.left_out, near, -2.0)
        return self._by_game[game][3][mine[int(np.argmax(near))]]
