"""Issue 24: the questions asked before (assistant/rules/asked.py, assistant/data/rules/asked.toml): a question nearer
in meaning to one no rulebook answered than to anything a rulebook answers, and about the same thing, is "not covered"."""
from __future__ import annotations

import ast
import importlib
import tomllib
from pathlib import Path

import pytest

from assistant import rules
from assistant.rules import asked as asked_module
from assistant.rules import semantic
from assistant.rules.asked import ASKED_FILE, load_asked

index_module = importlib.import_module("assistant.rules.index")
ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "tests" / "rules" / "data" / "eval"


def _said(name: str) -> tuple[str, ...]:
    tree = ast.parse((ROOT / "bench" / "bench_rules_eval.py").read_text(encoding="utf-8"))
    return next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                for t in n.targets if isinstance(t, ast.Name) and t.id == name)


def test_the_questions_asked_before_are_the_parts_tuned_on_whole_and_never_the_unseen_one():
    asked = load_asked()
    tuned, unseen = _said("TUNED"), _said("UNSEEN")
    assert {a.part for a in asked} == set(tuned)
    for part in tuned:
        questions = tomllib.loads((EVAL / f"eval_{part}.toml").read_text(encoding="utf-8"))["question"]
        mine = [a for a in asked if a.part == part]
        assert [(a.q, a.game, a.covered, a.ids) for a in mine] == [
            (q["q"], q["game"], q.get("covered", True), tuple(q.get("ids", ()))) for q in questions]
    for part in unseen:
        if (EVAL / f"eval_{part}.toml").exists():
            kept = {(a.game, a.q) for a in asked}
            questions = tomllib.loads((EVAL / f"eval_{part}.toml").read_text(encoding="utf-8"))["question"]
            assert not [q for q in questions if (q["game"], q["q"]) in kept]


def test_a_malformed_question_asked_before_is_refused_by_its_number(tmp_path):
    bad = tmp_path / "asked.toml"
    bad.write_text('[[question]]\nq = "fine"\ngame = "robotariat"\ncovered = true\npart = "tune"\n\n'
                   '[[question]]\nq = "no part"\ngame = "robotariat"\ncovered = "yes"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="question 2"):
        load_asked(bad)
    assert load_asked(tmp_path / "absent.toml") == []
    assert ASKED_FILE.exists()


def test_a_question_no_book_answered_asked_again_in_other_words_is_not_covered(monkeypatch):
    # "which 4 energy cards does william kick out" (the cards William sets aside are printed on no page we have) was
    # asked before; asked with other words its first result, William's entry, still names him, and no pattern knows it
    q = "which four energy cards does william take out of his deck"
    monkeypatch.setattr(index_module, "ASKED_ON", False)
    assert rules.ask(q, game="raising-robots").answered
    monkeypatch.setattr(index_module, "ASKED_ON", True)
    reply = rules.ask(q, game="raising-robots")
    assert not reply.answered and reply.hits[0].entry.id == "rr-william-complexity-hard"


@pytest.mark.parametrize("q, game, first", [
    # near "how many vp is the oz robot worth" (no book prints it) in its shape only: it asks of another thing
    ("how many vp is the robo race worth", "raising-robots", "rr-card-race-vp-values"),
    ("how many vp is a grade worth", "raising-robots", "rr-icon-a-grade"),
    # near "can i toss extra cards at cleanup even tho im under 7" (no book says), but asks the rule itself
    ("do i have to discard even tho im under 7 cards at cleanup", "two-robots", "tr-cleanup-phase"),
])
def test_a_question_near_one_no_book_answered_in_its_shape_only_is_still_answered(q, game, first):
    reply = rules.ask(q, game=game)
    assert reply.answered and first in [h.entry.id for h in reply.hits[:2]], q


def test_a_part_left_out_is_not_found_among_the_questions_asked_before(monkeypatch):
    index = rules.index()
    q = next(a for a in load_asked() if not a.covered and a.q == "which 4 energy cards does william kick out")
    assert not rules.ask(q.q, game=q.game).answered
    monkeypatch.setattr(index._asked, "left_out", q.part)
    reply = rules.ask(q.q, game=q.game)
    assert reply.hits and reply.hits[0].entry.id == "rr-william-complexity-hard"



def test_the_page_and_the_api_say_the_question_was_asked_before(client):
    q = "which four energy cards does william take out of his deck"
    body = client.get("/api/rules/search", query_string={"q": q, "game": "raising-robots"}).get_json()
    assert body["answered"] is False and body["asked_before"] is True
    page = client.get("/rules/answer", query_string={"q": q, "game": "raising-robots"}).get_data(as_text=True)
    assert "asked it before in other" in page and "Not in the rulebooks" in page
    # a question the books answer says nothing of it
    body = client.get("/api/rules/search", query_string={"q": "how many vp is the robo race worth",
                                                         "game": "raising-robots"}).get_json()
    assert body["answered"] is True and body["asked_before"] is False


@pytest.mark.parametrize("part, q, game", [
    # two of its three nearest questions asked before went unanswered, the nearest of all among them, naming nothing
    # the question does not, though none holds every word of what its first result is about: round 23's "how long
    # does a 4 player game run with competitions added", round 13's "can reputation go higher than what we started
    # with", round 23's "how many turns does a frozen stack stay frozen, does it ever thaw out"
    ("round19", "how long does a 4p game with all the friends modules take", "raising-robots"),
    ("round19", "can rep go higher than what we started with", "robotariat"),
    ("round20", "does ice blast ever wear off or is the stack frozen forever", "two-robots"),
])
def test_a_question_most_of_whose_nearest_went_unanswered_is_not_covered(part, q, game, monkeypatch):
    monkeypatch.setattr(rules.index()._asked, "left_out", part)  # (measured as the bench does: its own part left out)
    monkeypatch.setattr(asked_module, "VOTE_SILENT", asked_module.VOTE + 1)  # (never)
    assert rules.ask(q, game=game).answered
    monkeypatch.setattr(asked_module, "VOTE_SILENT", 2)
    reply = rules.ask(q, game=game)
    assert not reply.answered and reply.asked_before


@pytest.mark.parametrize("part, q, game, first", [
    # the nearest question asked before went unanswered, but not most of the three nearest: answered by their rule
    # (the first with its own part left out: the questions asked before put the rule of four on a space before it)
    ("tune", "can 2 people be on the same space when a civilian arrives, +1 each?", "robotariat",
     "rb-encounter-row-player"),
    ("round14", "what happens when a salvager runs out of power cards", "two-robots", "tr-reading-damage-power-card"),
])
def test_a_question_whose_nearest_went_unanswered_alone_is_answered(part, q, game, first, monkeypatch):
    monkeypatch.setattr(rules.index()._asked, "left_out", part)
    reply = rules.ask(q, game=game)
    assert reply.answered and first in [h.entry.id for h in reply.hits[:2]], q


def test_a_question_asked_of_no_game_is_compared_with_every_games_questions_asked_before(monkeypatch):
    # Robotariat's upgrade deck; asked of no game, its first result is Raising Robots' Friendship deck, whose game
    # no one asked it of: the questions of every game tell that it went unanswered where it belongs
    monkeypatch.setattr(rules.index()._asked, "left_out", "round23")
    q = "upgrade deck ran dry, do we reshuffle anything"
    reply = rules.ask(q)
    assert not reply.answered and reply.asked_before and reply.hits[0].entry.game == "raising-robots"
    assert rules.ask(q, game="raising-robots").answered  # (that game's questions alone: nothing near)


@pytest.mark.parametrize("part, q, game, before, after", [
    # Two Robots, Draw Phase: the opening hand is the first draw; questions asked before about it (round 14's the same
    # but for a letter, round 15's "do we get a starting hand or start with nothing") were answered by the Draw Phase
    ("round23", "do we get dealt an opening hand or start with nothin", "two-robots", "tr-setup", "tr-draw-phase"),
    # Raising Robots, Robots & Inventors: the Friends robots join the robot deck, Pets robots in it or not (round 17's
    # "can i shuffle the friends robots into the same deck as my pets robots")
    ("round24", "ok to shuffle friends robots into a deck that already has pets robots?", "raising-robots",
     "rr-robots-inventors-changes-to-setup", "rr-robots-inventors"),
])
def test_the_entry_that_answered_a_question_asked_before_in_other_words_comes_first(part, q, game, before, after,
                                                                                   monkeypatch):
    monkeypatch.setattr(rules.index()._asked, "left_out", part)  # (never the question itself: its part left out)
    monkeypatch.setattr(index_module, "ASKED_RANK_ON", False)
    assert rules.ask(q, game=game).hits[0].entry.id == before
    monkeypatch.setattr(index_module, "ASKED_RANK_ON", True)
    reply = rules.ask(q, game=game)
    assert reply.answered and reply.hits[0].entry.id == after and reply.hits[0].answers


def test_the_entry_that_answered_a_question_asked_before_comes_third_when_less_near(monkeypatch):
    # Two Robots: the player count is a fact of the box; "whats the max number of players" does not find it by its
    # words, but round 19's "max number of players?" was answered by it
    q = "whats the max number of players"
    monkeypatch.setattr(rules.index()._asked, "left_out", "round23")
    monkeypatch.setattr(index_module, "ASKED_RANK_ON", False)
    assert "tr-fact-player-count" not in [h.entry.id for h in rules.ask(q, game="two-robots", limit=3).hits]
    monkeypatch.setattr(index_module, "ASKED_RANK_ON", True)
    got = [h.entry.id for h in rules.ask(q, game="two-robots", limit=3).hits]
    assert got[2] == "tr-fact-player-count"


def test_a_question_asked_before_of_another_thing_in_the_same_shape_does_not_lead():
    # "what does the poster space do" was answered by the Poster space's entry and comes 0.9 near "what does the
    # upgrade space do" by its shape alone: it names the poster, this one the upgrade, the first result's title
    idx = rules.index()
    near = idx._asked.nearest_asking(semantic.encoder().vector("what does the upgrade space do"), "robotariat")
    assert near["rb-activation-poster"] >= index_module.ASKED_FIRST
    assert near["rb-activation-poster"] >= near.get("rb-activation-upgrade", 0.0) + index_module.ASKED_FIRST_GAP
    got = [h.entry.id for h in rules.ask("what does the upgrade space do", game="robotariat", limit=3).hits]
    assert got[0] == "rb-activation-upgrade" and "rb-activation-poster" not in got


def test_a_question_asked_before_keeps_the_entries_that_answered_it_and_only_when_covered(tmp_path):
    asked = load_asked()
    assert all(a.ids for a in asked if a.covered) and not any(a.ids for a in asked if not a.covered)
    bad = tmp_path / "asked.toml"
    bad.write_text('[[question]]\nq = "nobody answers"\ngame = "robotariat"\ncovered = false\npart = "tune"\n'
                   'ids = ["rb-set-up"]\n', encoding="utf-8")
    with pytest.raises(ValueError, match="question 1"):
        load_asked(bad)
