"""The rule entry files: the loader refuses every broken link (rules_format.md), every rulebook
section has entries, and the Raising Robots file covers the whole Friends rulebook."""
from __future__ import annotations

import re
import textwrap
import tomllib
from pathlib import Path

import pytest

from assistant.rules import GAME_FILES, RulesDataError, load_books, slugify

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
RR_SEED = SEEDS / "000_4c812be1ed18c319.txt"


@pytest.fixture(scope="module")
def books():
    return load_books()


def rr(books):
    return books["raising-robots"]


# ---- the real files -----------------------------------------------------------------------------

def test_every_present_file_loads_and_raising_robots_is_there(books):
    assert "raising-robots" in books
    for game, book in books.items():
        assert book.entries, game


@pytest.mark.parametrize("gf", GAME_FILES, ids=lambda g: g.game)
def test_every_rulebook_section_has_its_main_entry_and_entries(books, gf):
    book = books[gf.game]  # every game has its file: a missing one fails here
    ids = {e.id for e in book.entries}
    for s in book.sections:
        assert s.main_id in ids, s.name
        assert book.entries_in(s), f"section {s.name!r} has no entry"


def test_fixed_ids_follow_the_format_examples():
    assert slugify("Search") == "search"
    assert slugify("Solo / 2P Gameplay Changes") == "solo-2p-gameplay-changes"
    assert slugify("Charlotte (Complexity: Medium)") == "charlotte-complexity-medium"


def test_raising_robots_two_changes_to_setup_take_their_parents_ids(books):
    mains = {s.main_id: s for s in rr(books).sections if s.name == "Changes to Setup"}
    assert set(mains) == {"rr-robots-inventors-changes-to-setup", "rr-competitions-friendships-changes-to-setup"}
    by_section = {e.id: e.section_id for e in rr(books).entries}
    # the notes of the module's setup sit under the module's heading, not the first one of that name
    assert by_section["rr-setup-paw-friendship-cards"] == "rr-competitions-friendships-changes-to-setup"


SHORTENED_HEADING = "Robot Cards for Any Phase Row"


def _toc(seed: str) -> list[str]:
    """The bullet headings of the Friends rulebook's table of contents, in order."""
    block = seed.split("Table of Contents", 2)[2].split("\nIntroduction\n", 1)[0]
    return [line.strip().lstrip("•").strip() for line in block.splitlines() if line.strip().startswith("•")]


@pytest.mark.skipif(not RR_SEED.exists(), reason="the rulebook text is not next to the repository")
def test_raising_robots_sections_are_the_table_of_contents_in_order(books):
    toc = _toc(RR_SEED.read_text(encoding="utf-8"))
    assert len(toc) == 33
    names = [s.name for s in rr(books).sections]
    at = -1
    for heading in toc:  # every heading is a section, spelled as in the book, in the book's order
        # but one: the ten-word heading on any-row robot cards is cited shortened (own words only)
        cited = SHORTENED_HEADING if heading.startswith("Robot Cards That") else heading
        at = names.index(cited, at + 1)


@pytest.mark.skipif(not RR_SEED.exists(), reason="the rulebook text is not next to the repository")
def test_raising_robots_has_an_entry_for_every_important_note(books):
    seed = RR_SEED.read_text(encoding="utf-8")
    # one IMPORTANT heading carries four bullets (How to Complete Competitions): 15 + 4 notes
    notes = seed.count("IMPORTANT") - 1 + 4
    assert sum(e.kind == "important" for e in rr(books).entries) == notes == 19


def test_raising_robots_covers_cards_inventors_icons_clarifications_examples(books):
    by_kind: dict[str, list] = {}
    for e in rr(books).entries:
        by_kind.setdefault(e.kind, []).append(e)
    assert len(by_kind["card"]) == 16  # Completion Criteria: 3 + 3 + 4 + 6
    per_type = {s: sum(e.section == s for e in by_kind["card"])
                for s in ("Engineering Expo", "Mech Masters", "Think Tank", "Robo Race")}
    assert per_type == {"Engineering Expo": 3, "Mech Masters": 3, "Think Tank": 4, "Robo Race": 6}
    assert {e.section.split(" (")[0] for e in by_kind["inventor"]} == {
        "Charlotte", "Confucius", "Johannes", "Sacagawea", "Susan", "William"}
    assert len(by_kind["icon"]) == 5  # Game End Icons
    assert {e.title.split(" (")[0] for e in by_kind["clarification"]} == {
        "Ada", "Albert", "Charles", "Confucius", "Johannes", "John", "Nikola", "Stephen", "Temple"}
    assert {e.section for e in by_kind["example"]} == {
        "Finite Loops Example", "Search Example", "Competition Example", "Friendship Example"}


def test_raising_robots_readings_and_facts_carry_their_source(books):
    entries = rr(books).entries
    readings = [e for e in entries if e.kind == "reading"]
    # (a reading about values printed on the pieces that no source gives, which Tablebot takes as your defaults, is
    # also unverified: the page then says the value is printed nowhere Tablebot knows)
    assert len(readings) >= 10 and all(e.source == "tablebot" or e.source == "unverified" and "unverified" in e.text
                                       for e in readings)
    assert sum(e.source == "tablebot" for e in readings) >= 10
    facts = [e for e in entries if e.kind == "fact"]
    assert all(e.source in ("public", "unverified") for e in facts)
    assert all(e.url.startswith("https://") for e in facts if e.source == "public")
    assert any(e.source == "unverified" for e in facts)


def test_each_book_has_scope_entries_that_say_what_it_leaves_out_in_own_words(books):
    # FORMAT.md, "Addition: scope entries": named by its title and keywords (the search takes it only where those
    # name what the question asks), cited to a section of its book, never copying the rulebook
    seeds = {"raising-robots": "000_4c812be1ed18c319.txt", "robotariat": "001_33b193ad2ea09348.txt",
             "two-robots": "004_9fdc83e8ab605868.txt"}
    for game, book in books.items():
        scope = [e for e in book.entries if e.kind == "scope"]
        # what the book leaves to other books or the table (round 7), and how to mend a slip (round 8: "by mistake")
        assert len(scope) == 2 and sum("by mistake" in e.keywords for e in scope) == 1, game
        for e in scope:
            assert e.source == "rulebook" and e.keywords and e.title.startswith("Beyond ")
            assert e.section in {s.name for s in book.sections}
            if not SEEDS.exists():  # the rulebook texts are not next to the repository (a clean checkout)
                continue
            said = _words((SEEDS / seeds[game]).read_text(encoding="utf-8"))
            runs = {tuple(said[i:i + 6]) for i in range(len(said) - 5)}
            own = _words(e.text)
            assert not [own[i:i + 6] for i in range(len(own) - 5) if tuple(own[i:i + 6]) in runs], e.id


# ---- the players' questions (asks/) --------------------------------------------------------------

ASKS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "rules" / "asks"


def _asks(gf) -> list[dict]:
    path = ASKS / gf.filename
    return tomllib.loads(path.read_text(encoding="utf-8"))["asks"] if path.exists() else []


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@pytest.mark.parametrize("gf", GAME_FILES, ids=lambda g: g.game)
def test_asks_name_entries_of_their_game_each_once_with_one_to_twenty_four_questions(books, gf):
    blocks = _asks(gf)
    ids = {e.id for e in books[gf.game].entries}
    assert blocks, f"no asks for {gf.game}"
    assert len({b["id"] for b in blocks}) == len(blocks)
    for b in blocks:
        assert b["id"] in ids, b["id"]
        assert 1 <= len(b["q"]) <= 24, b["id"]  # five writers so far (the last added four to each)
    loaded = {e.id: e.asks for e in books[gf.game].entries}
    assert all(loaded[b["id"]] == tuple(q.strip() for q in b["q"]) for b in blocks)


def test_no_ask_is_asked_of_two_entries_of_a_game():
    # (one game's and another's may share one, "who goes first": the game asked about tells them apart)
    twice = []
    for gf in GAME_FILES:
        seen: dict[str, str] = {}
        for b in _asks(gf):
            for q in b["q"]:
                said = " ".join(_words(q))
                if said in seen and seen[said] != b["id"]:
                    twice.append((q, seen[said], b["id"]))
                seen.setdefault(said, b["id"])
    assert not twice


@pytest.mark.skipif(not SEEDS.exists(), reason="the rulebook texts are not next to the repository")
def test_asks_are_own_words_no_six_words_in_a_row_from_a_rulebook():
    runs: set[tuple[str, ...]] = set()
    for seed in SEEDS.glob("*.txt"):
        said = _words(seed.read_text(encoding="utf-8"))
        runs |= {tuple(said[i:i + 6]) for i in range(len(said) - 5)}
    copied = [(b["id"], q) for gf in GAME_FILES for b in _asks(gf) for q in b["q"]
              if any(tuple(w[i:i + 6]) in runs for w in [_words(q)] for i in range(len(w) - 5))]
    assert not copied


# ---- the loader on broken files -----------------------------------------------------------------

GOOD = """
game = "raising-robots"
book = "Test book"

[[section]]
name = "Search"

[[section]]
name = "Search Example"
parent = "Search"

[[entry]]
id = "rr-search"
section = "Search"
title = "Search"
text = "Look through the deck."
related = ["rr-search-example"]

[[entry]]
id = "rr-search-example"
section = "Search Example"
title = "Example"
text = "An example."
kind = "example"
"""


def _write(tmp_path: Path, text: str, name: str = "raising_robots.toml") -> Path:
    (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def _problems(tmp_path: Path) -> str:
    with pytest.raises(RulesDataError) as err:
        load_books(tmp_path)
    return "\n".join(err.value.problems)


def test_loader_accepts_a_good_file_and_skips_missing_ones(tmp_path):
    books = load_books(_write(tmp_path, GOOD))
    assert set(books) == {"raising-robots"}
    assert [e.section_id for e in books["raising-robots"].entries] == ["rr-search", "rr-search-example"]
    assert load_books(tmp_path / "nothing-here") == {}


@pytest.mark.parametrize("change, expected", [
    (lambda t: t.replace('section = "Search Example"', 'section = "Serch Example"'), "is not a [[section]]"),
    (lambda t: t.replace('related = ["rr-search-example"]', 'related = ["rr-nope"]'), "'rr-nope', which does not exist"),
    (lambda t: t.replace('id = "rr-search-example"', 'id = "rr-search"'), "has no main entry"),
    (lambda t: t.replace('id = "rr-search-example"', 'id = "rr-search"'), "used twice"),
    (lambda t: t.replace('kind = "example"', 'kind = "story"'), "kind 'story'"),
    (lambda t: t.replace('kind = "example"', 'source = "public"'), "needs the source url"),
    (lambda t: t.replace('game = "raising-robots"', 'game = "robotariat"'), "game must be 'raising-robots'"),
    (lambda t: t.replace('parent = "Search"', 'parent = "Nowhere"'), "not a section declared before it"),
    (lambda t: t.replace('title = "Example"', 'titel = "Example"'), "unknown key 'titel'"),
    (lambda t: t.replace('id = "rr-search-example"', 'id = "tr-search-example"'), "must be kebab-case and start with 'rr-'"),
    (lambda t: t.replace('text = "An example."', 'text = "  "'), "needs a non-empty 'text'"),
    (lambda t: t.replace('related = ["rr-search-example"]', 'related = "rr-search-example"'), "must be a list"),
    (lambda t: t + "\n[[entry]]\nid = \"rr-x\"\nsection = \"Search\"\ntitle = \"x\"\ntext = \"y\"\nrelated = [\"rr-x\"]\n",
     "lists itself"),
    (lambda t: t + "\n[[section]]\nname = \"Search\"\n", "occurs twice, so each needs a parent"),
    (lambda t: t.replace("[[entry]]", "[entry]", 1), "not valid TOML"),
])
def test_loader_names_each_broken_link(tmp_path, change, expected):
    problems = _problems(_write(tmp_path, change(GOOD)))
    assert expected in problems


def test_loader_checks_related_ids_across_files(tmp_path):
    other = """
    game = "two-robots"
    book = "Other"
    [[section]]
    name = "Objective"
    [[entry]]
    id = "tr-objective"
    section = "Objective"
    title = "Win"
    text = "Build two robots."
    related = ["rr-search", "rb-missing"]
    """
    _write(tmp_path, GOOD)
    _write(tmp_path, other, "two_robots.toml")
    problems = _problems(tmp_path)
    assert "'rb-missing', which does not exist" in problems
    assert "rr-search'" not in problems  # an id of another game's file is a valid link


def test_duplicate_section_names_get_parent_ids_and_entries_follow_their_heading(tmp_path):
    text = """
    game = "raising-robots"
    book = "Test"
    [[section]]
    name = "Robots"
    [[section]]
    name = "Changes to Setup"
    parent = "Robots"
    [[section]]
    name = "Competitions"
    [[section]]
    name = "Changes to Setup"
    parent = "Competitions"
    [[entry]]
    id = "rr-robots"
    section = "Robots"
    title = "a"
    text = "a"
    [[entry]]
    id = "rr-robots-changes-to-setup"
    section = "Changes to Setup"
    title = "b"
    text = "b"
    [[entry]]
    id = "rr-competitions"
    section = "Competitions"
    title = "c"
    text = "c"
    [[entry]]
    id = "rr-competitions-changes-to-setup"
    section = "Changes to Setup"
    title = "d"
    text = "d"
    [[entry]]
    id = "rr-a-note"
    section = "Changes to Setup"
    title = "e"
    text = "e"
    """
    book = load_books(_write(tmp_path, text))["raising-robots"]
    assert {e.id: e.section_id for e in book.entries}["rr-a-note"] == "rr-competitions-changes-to-setup"



def _write_asks(tmp_path: Path, text: str) -> Path:
    (tmp_path / "asks").mkdir(exist_ok=True)
    (tmp_path / "asks" / "raising_robots.toml").write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def test_loader_puts_the_asks_on_their_entries_and_needs_no_asks_file(tmp_path):
    _write(tmp_path, GOOD)
    assert all(e.asks == () for e in load_books(tmp_path)["raising-robots"].entries)
    _write_asks(tmp_path, '[[asks]]\nid = "rr-search"\nq = ["how do i look thru the deck", " search 2 things? "]\n')
    asks = {e.id: e.asks for e in load_books(tmp_path)["raising-robots"].entries}
    assert asks == {"rr-search": ("how do i look thru the deck", "search 2 things?"), "rr-search-example": ()}


@pytest.mark.parametrize("asks, expected", [
    ('[[asks]]\nid = "rr-nope"\nq = ["x"]\n', "id 'rr-nope' is no entry of raising_robots.toml"),
    ('[[asks]]\nid = "tr-objective"\nq = ["x"]\n', "id 'tr-objective' is no entry of raising_robots.toml"),
    ('[[asks]]\nid = "rr-search"\nq = ["x"]\n[[asks]]\nid = "rr-search"\nq = ["y"]\n', "listed twice"),
    ('[[asks]]\nid = "rr-search"\nq = "x"\n', "'q' must be a list of non-empty strings"),
    ('[[asks]]\nid = "rr-search"\nq = []\n', "'q' must be a list of non-empty strings"),
    ('[[asks]]\nid = "rr-search"\nq = ["x", " "]\n', "'q' must be a list of non-empty strings"),
    ('[[asks]]\nid = "rr-search"\nq = ["x"]\nkeywords = ["y"]\n', "unknown key 'keywords'"),
    ('[[ask]]\nid = "rr-search"\nq = ["x"]\n', "unknown top-level key 'ask'"),
    ('[[asks]\nid = "rr-search"\n', "asks/raising_robots.toml: not valid TOML"),
])
def test_loader_names_each_broken_asks_block(tmp_path, asks, expected):
    _write(tmp_path, GOOD)
    assert expected in _problems(_write_asks(tmp_path, asks))
