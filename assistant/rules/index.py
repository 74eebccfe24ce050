"""Full-text search over the rule entries: SQLite FTS5 with porter stemming, in memory.

A question is cut into words; stop words go, each remaining word becomes a group "word OR its
synonyms" (a misspelled word is replaced by the nearest words of the entries), and the groups are
OR-ed. FTS5's bm25 ranks the matches (title and keywords weigh most); an entry that matches more of
the question's groups moves up, and the broad overview entry of a heading that has sub-headings
moves down, so the specific entry comes before the general one.
"""
from __future__ import annotations

import re
import sqlite3
import threading
import unicodedata
from collections import Counter
from dataclasses import dataclass

from .model import Book, Entry
from .synonyms import PHRASES, STOPWORDS, SYNONYMS
from .typos import Speller

MAX_QUERY_CHARS = 200
MAX_GROUPS = 12
# bm25 weights of the columns, in table order: title, keywords, section, text, example
WEIGHTS = (6.0, 4.0, 2.5, 1.0, 0.5)
GENERAL_FACTOR = 0.75   # overview entries of a heading with sub-headings
FACT_FACTOR = 0.85      # background facts from other sources rank below the book's own rules

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def fold(text: str) -> str:
    """Lowercase without accents, as FTS5's unicode61 tokenizer (remove_diacritics 2) sees it."""
    text = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in text if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    out = []
    for w in _WORD.findall(fold(text)):
        w = w.removesuffix("'s")
        out.append(w.replace("'", ""))
    return [w for w in out if w]


@dataclass(frozen=True)
class Hit:
    entry: Entry
    score: float


def _quote(term: str) -> str:
    return '"' + term.replace('"', "") + '"'


class RulesIndex:
    """Built once from the loaded books; safe to share between request threads."""

    def __init__(self, books: dict[str, Book]):
        self.entries: list[Entry] = [e for b in books.values() for e in b.entries]
        self.by_id: dict[str, Entry] = {e.id: e for e in self.entries}
        general: set[str] = set()
        for book in books.values():
            parents = {s.parent for s in book.sections if s.parent}
            general |= {s.main_id for s in book.sections if s.name in parents}
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE rules USING fts5(title, keywords, section, text, example, "
            "game UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2')")
        parent_of = {(b.game, s.main_id): s.parent or "" for b in books.values() for s in b.sections}
        rows = []
        vocab: Counter[str] = Counter()
        for rowid, e in enumerate(self.entries):
            section = f"{e.section} {parent_of.get((e.game, e.section_id), '')}"
            keywords = " ".join(e.keywords)
            rows.append((rowid, e.title, keywords, section, e.text, e.example, e.game))
            vocab.update(set(words(f"{e.title} {keywords} {section} {e.text} {e.example}")))
        self._db.executemany(
            "INSERT INTO rules(rowid, title, keywords, section, text, example, game) VALUES (?,?,?,?,?,?,?)", rows)
        self._db.commit()
        for key, alts in SYNONYMS.items():
            vocab[key] += 1
            for alt in alts:
                vocab.update(words(alt))
        self.speller = Speller(vocab)
        self._factor = [
            (GENERAL_FACTOR if e.id in general else 1.0) * (FACT_FACTOR if e.kind == "fact" else 1.0)
            for e in self.entries
        ]

    # ------------------------------------------------------------------ the question

    def groups(self, question: str) -> list[tuple[str, ...]]:
        """The question as groups of alternative terms (each a word or a phrase)."""
        toks = words(question[:MAX_QUERY_CHARS])
        groups: list[tuple[str, ...]] = []
        i = 0
        while i < len(toks):
            pair = tuple(toks[i:i + 2])
            if len(pair) == 2 and pair in PHRASES:
                groups.append((" ".join(pair),) + PHRASES[pair])
                i += 2
                continue
            tok = toks[i]
            i += 1
            if tok in STOPWORDS or (len(tok) == 1 and not tok.isdigit() and tok != "x"):
                continue
            alts: list[str] = [tok]
            if tok not in SYNONYMS and tok not in self.speller and not tok.isdigit() and not self._has(tok):
                fixed = self.speller.corrections(tok)
                if fixed:
                    alts = list(fixed)
                elif len(tok) >= 3 and i == len(toks):
                    alts = [tok + "*"]  # still typing: treat the last word as a prefix
            for a in list(alts):
                alts.extend(SYNONYMS.get(a, ()))
            group = tuple(dict.fromkeys(alts))
            if group not in groups:
                groups.append(group)
        return groups[:MAX_GROUPS]

    def _has(self, term: str) -> bool:
        """Does any entry contain the word (after stemming)?"""
        with self._lock:
            row = self._db.execute("SELECT 1 FROM rules WHERE rules MATCH ? LIMIT 1",
                                   (_quote(term),)).fetchone()
        return row is not None

    @staticmethod
    def _match(group: tuple[str, ...]) -> str:
        terms = [_quote(t[:-1]) + "*" if t.endswith("*") else _quote(t) for t in group]
        return "(" + " OR ".join(terms) + ")"

    # ------------------------------------------------------------------ the answer

    def search(self, question: str, game: str | None = None, limit: int = 10) -> list[Hit]:
        groups = self.groups(question)
        if not groups:
            return []
        where = " AND game = ?" if game else ""
        params_game = (game,) if game else ()
        query = " OR ".join(self._match(g) for g in groups)
        with self._lock:
            rows = self._db.execute(
                f"SELECT rowid, bm25(rules, {', '.join(map(str, WEIGHTS))}) FROM rules "
                f"WHERE rules MATCH ?{where}", (query, *params_game)).fetchall()
            covered: Counter[int] = Counter()
            if len(groups) > 1:
                for g in groups:
                    for (rowid,) in self._db.execute(
                            f"SELECT rowid FROM rules WHERE rules MATCH ?{where}", (self._match(g), *params_game)):
                        covered[rowid] += 1
        n = len(groups)
        hits = []
        for rowid, rank in rows:
            coverage = covered[rowid] / n if n > 1 else 1.0
            # bm25 is negative, lower is better; turn it into a positive relevance
            score = -rank * self._factor[rowid] * (0.35 + coverage) ** 2
            hits.append(Hit(self.entries[rowid], score))
        hits.sort(key=lambda h: (-h.score, h.entry.order))
        return hits[:limit]
