"""Rules search: players' questions find the section that answers them (top 3), with their words,
their typos, a game filter, and the specific entry before the general one."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant import rules
from assistant.rules.typos import osa_distance

QUESTIONS = Path(__file__).resolve().parent / "data"
FILES = {g.game: QUESTIONS / f"rules_questions_{g.filename.removesuffix('.toml')}.toml" for g in rules.GAME_FILES}


def _questions(game: str) -> list[dict]:
    path = FILES[game]
    return tomllib.loads(path.read_text(encoding="utf-8"))["question"]


def top3_rate(game: str, game_filter: bool = True) -> tuple[float, list[str]]:
    misses = []
    questions = _questions(game)
    for q in questions:
        found = rules.search(q["q"], game if game_filter else None, 3)
        if not any(e.section in q["sections"] for e in found):
            misses.append(f"{q['q']!r} -> {[e.id for e in found]} (wanted {q['sections']})")
    return 1 - len(misses) / len(questions), misses


@pytest.mark.parametrize("game", list(FILES))
def test_top3_hit_rate_per_game_is_at_least_90_percent(game):
    rate, misses = top3_rate(game)
    assert rate >= 0.9, f"{game}: {rate:.0%}\n" + "\n".join(misses)


def test_top3_hit_rate_over_all_question_files_without_a_game_filter():
    hits = total = 0
    for game, path in FILES.items():
        if not path.exists():
            continue
        rate, _ = top3_rate(game, game_filter=False)
        n = len(_questions(game))
        hits, total = hits + round(rate * n), total + n
    assert total >= 20 and hits / total >= 0.9


def test_every_question_names_sections_its_file_has():
    for game, path in FILES.items():
        if not path.exists() or game not in rules.books():
            continue
        names = set(rules.books()[game].section_names())
        for q in tomllib.loads(path.read_text(encoding="utf-8"))["question"]:
            assert q["q"].strip() and set(q["sections"]) <= names, q


def test_raising_robots_has_at_least_20_questions():
    assert len(_questions("raising-robots")) >= 20


# ---- ranking ------------------------------------------------------------------------------------

def ids(question: str, game: str | None = "raising-robots", n: int = 3) -> list[str]:
    return [e.id for e in rules.search(question, game, n)]


def test_specific_entry_comes_before_the_general_one():
    # Search: the note that only the basic action counts answers this, not the whole Search rule
    assert ids("can i use the upgraded energy for search")[0] == "rr-search-basic-action-only"
    # a Mech Masters card before the Mech Masters overview
    found = ids("mech masters 13 batteries")
    assert found[0] == "rr-card-mech-13-batteries"
    assert found.index("rr-card-mech-13-batteries") < (found.index("rr-mech-masters") if "rr-mech-masters" in found else 9)


def test_players_words_find_the_books_words():
    assert any(e.section in ("Human Oppressors", "Check for and Resolve Encounters", "Encounter Quick-Reference Table")
               for e in rules.search("cop fine", "robotariat", 3))
    assert "rr-run-a-phase-row-energy-action" in ids("juice for run a phase row")
    assert "rr-important-max-two-friendships" in ids("max friends")
    assert any(e.section == "Completion Rewards" for e in rules.search("comp prize", "raising-robots", 3))


@pytest.mark.parametrize("typo, fixed_to", [
    ("wiliam", "william"), ("sarch", "search"), ("frendship", "friendship"), ("johanes", "johannes"),
])
def test_short_misspelled_questions_still_find_the_rule(typo, fixed_to):
    assert any(fixed_to in alt for group in rules.index().groups(typo) for alt in group)
    assert rules.search(typo, "raising-robots", 3)


def test_typo_fallback_leaves_known_and_tiny_words_alone():
    groups = rules.index().groups("vp tie search")
    assert groups[0][0] == "vp" and groups[1][0] == "tie" and groups[2] == ("search",)


def test_the_last_word_being_typed_is_a_prefix():
    assert "rr-competition-example" in ids("competition exam", n=5)


def test_game_filter_keeps_to_one_game_and_all_games_mixes():
    assert {e.game for e in rules.search("setup", "raising-robots", 10)} == {"raising-robots"}
    if len(rules.books()) > 1:
        assert len({e.game for e in rules.search("setup", None, 30)}) > 1


@pytest.mark.parametrize("q", ["", "   ", "the a of", "?!", '"', "*", "AND OR NOT", "NEAR(x y)", "col:search",
                               "^search", "search\x00", "é" * 300])
def test_odd_questions_never_break_the_search(q):
    assert isinstance(rules.search(q, None, 5), list)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_a_safe_question(q):
    assert len(rules.search(q, None, 3)) <= 3


def test_edit_distance_counts_a_swap_as_one():
    assert osa_distance("frist", "first", 2) == 1
    assert osa_distance("oppressor", "opressor", 2) == 1
    assert osa_distance("cat", "dog", 1) == 2  # over the limit: limit + 1


# ---- a group put together from its phrases ---------------------------------------------------------

def _whole_group(index, g) -> tuple:
    """What one FTS5 query of the whole group returns (the way _lookup asked before it summed phrases): the
    oracle of `RulesIndex._lookup`."""
    import importlib

    m = importlib.import_module("assistant.rules.index")
    expr = index._match(g)
    flags = [", ".join(f) for f in (
        ["1" if c in m.STRONG_COLUMNS else "0" for c in m.COLUMNS],
        ["1" if c in m.STRONG_COLUMNS and c != "names" else "0" for c in m.COLUMNS],
        ["1" if c == "asks" else "0" for c in m.COLUMNS],
        ["0" if c == "asks" else "1" for c in m.COLUMNS])]
    in_scope = index._db.execute("SELECT 1 FROM scope_only WHERE scope_only MATCH ? LIMIT 1", (expr,)).fetchone()
    tables = ("rules", "scope") if in_scope else ("rules",)
    where = {"rules": "", "scope": f" AND rowid IN ({index._scope_rows})"}
    rows, titled, headed, asks, only_asks = {}, set(), set(), set(), set()
    for t in tables:
        weights = ", ".join(map(str, m.WEIGHTS)) + f", {m.ASKS_WEIGHT}"
        sql = (f"SELECT rowid, bm25({t}, {weights}), " + ", ".join(f"bm25({t}, {f})" for f in flags)
               + f" FROM {t} WHERE {t} MATCH ?{where[t]}")
        for r, rank, strong, head, asked, other in index._db.execute(sql, (expr,)):
            rows[r] = -rank
            titled |= {r} if strong < 0 or g.column else set()
            headed |= {r} if head < 0 else set()
            if index._asks_on and asked < 0 and not g.column:
                asks.add(r)
                only_asks |= {r} if other >= 0 else set()
    own = None
    if g.own:
        own = {r for t in tables for (r,) in index._db.execute(
            f"SELECT rowid FROM {t} WHERE {t} MATCH ?{where[t]}", (index._match(g, own_only=True),))}
    return rows, titled, own, headed, asks, only_asks


@pytest.mark.parametrize("asks_on", [True, False], ids=["asks", "own words"])
def test_a_group_summed_from_its_phrases_is_the_whole_groups_query_to_the_last_bit(asks_on, own_words_index):
    """FTS5's bm25 of an OR of phrases is the sum of each phrase's, in their order: the rows, their flags and every
    bm25 match a query of the whole group exactly, on every group of the players' and the rules' question files
    (words of the entries, synonyms, typos mended, prefixes being typed, words no entry has)."""
    index = rules.index() if asks_on else own_words_index
    questions = [q["q"] for g in FILES for q in _questions(g)]
    questions += [q["q"] for f in QUESTIONS.glob("player_questions_*.toml")
                  for q in tomllib.loads(f.read_text(encoding="utf-8"))["question"]]
    questions += ["can i plya wil", "what does the precision strik", "how long is a game in minutes", "counted cards"]
    groups = {g for q in questions for g in index.parse(q).groups}
    assert len(groups) > 300 and any(t.endswith("*") for g in groups for t in g.terms)
    assert any(len(g.terms) > 1 for g in groups) and any(g.column for g in groups)
    index._cache.clear()
    for g in groups:
        assert index._lookup(g) == _whole_group(index, g), g
