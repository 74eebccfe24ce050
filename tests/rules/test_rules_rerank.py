"""Issue 24: the second look at the first results (assistant/rules/rerank.py), with the weights that
bench/train_rules_rerank.py learned on the eval parts tuned on (never on round 27, the unseen one)."""
from __future__ import annotations

import importlib
import tomllib

import pytest

from assistant import rules
from assistant.rules import rerank
from assistant.rules.asked import load_asked

index_module = importlib.import_module("assistant.rules.index")
TUNED = {"tune", "heldout", "fresh", "round4a", "round4", "round5", "round6", "round7", "round8", "round9", "round10",
         "round11", "round12", "round13", "round14", "round15", "round16", "round17", "round18", "round19",
         "round20", "round21", "round22", "round23", "round24", "round25", "round26"}


def both_ways(monkeypatch, q: str, game: str):
    # (the second look alone: not the entries that answered questions asked before put first or third after it)
    monkeypatch.setattr(index_module, "ASKED_RANK_ON", False)
    monkeypatch.setattr(index_module, "RERANK_ON", False)
    first_pass = rules.ask(q, game=game, limit=10)
    monkeypatch.setattr(index_module, "RERANK_ON", True)
    return first_pass, rules.ask(q, game=game, limit=10)


def test_the_shipped_weights_fit_the_features_and_were_learned_on_tuned_parts_only():
    data = tomllib.loads(rerank.WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert list(data["features"]) == list(rerank.FEATURES) and len(data["weights"]) == len(rerank.FEATURES)
    assert set(data["learned_on"]) == TUNED  # round 27 is measured, never learned from
    assert rerank.load_weights() and rules.index()._rerank == rerank.load_weights()


def test_weights_for_other_features_or_none_mean_no_second_look(tmp_path):
    stale = tmp_path / "rerank.toml"
    stale.write_text('learned_on = []\nquestions = 0\nfeatures = ["score"]\nweights = [1.0]\n', encoding="utf-8")
    assert rerank.load_weights(stale) == {}
    short = tmp_path / "short.toml"
    short.write_text(f"features = {list(rerank.FEATURES)!r}\nweights = [1.0]\n".replace("'", '"'), encoding="utf-8")
    assert rerank.load_weights(short) == {}
    assert rerank.load_weights(tmp_path / "absent.toml") == {}


def test_an_index_without_asks_takes_no_second_look(own_words_index):
    # (the weights were learned with the asks on: their strongest feature, the nearest ask, would be 0)
    assert own_words_index._rerank == {}


@pytest.mark.parametrize("q, game, general, specific", [
    # Robo Race: whether one robot counts for two costs is Tablebot's reading of the matching, not the cost card
    ("can one robot count for two different costs on robo race", "raising-robots",
     "rr-card-race-energy-costs", "rr-reading-robo-race-matching"),
    # the app's best move: the reading of how the planner scores a turn, not the one about Alice Smith's choice
    ("how does tablebot pick the best move", "robotariat", "rb-reading-alice-smith", "rb-reading-planner-score"),
    # Components: the board's count of spaces is printed in no source we read: the honest entry says so
    ("how many spaces are on the board", "robotariat", "rb-reading-traffic-director", "rb-unverified-board"),
])
def test_the_second_look_puts_the_entry_that_answers_first(monkeypatch, q, game, general, specific):
    # (a question of a part tuned on is measured with that part left out of the questions asked before, as the bench
    # does: else the second look would find the question itself there, with its answer)
    part = next((a.part for a in load_asked() if a.q == q and a.game == game), None)
    monkeypatch.setattr(rules.index()._asked, "left_out", part)
    first_pass, reply = both_ways(monkeypatch, q, game)
    assert first_pass.hits[0].entry.id == general
    assert reply.hits[0].entry.id == specific and reply.answered


@pytest.mark.parametrize("q, game", [
    ("traffic director played but there is no oppressor on the board", "robotariat"),
    ("my robot only reaches robo race 6-7 with its upgraded action, it has no upgrade token", "raising-robots"),
    ("does a flipped power card still count for health", "two-robots"),
])
def test_it_only_reorders_the_answering_results_each_with_its_own_confidence(monkeypatch, q, game):
    first_pass, reply = both_ways(monkeypatch, q, game)
    assert sorted((h.entry.id, h.score) for h in reply.hits) == sorted((h.entry.id, h.score) for h in first_pass.hits)
    # what answers and what is only related stays: a related entry keeps its place
    assert [h.answers for h in reply.hits] == [h.answers for h in first_pass.hits]
    assert [h for h in reply.hits if not h.answers] == [h for h in first_pass.hits if not h.answers]
    assert reply.answered == first_pass.answered


def test_a_related_entry_is_never_made_an_answer_by_the_new_order():
    """The first pass puts Tablebot's reading below the rule it reads, so its order is not by confidence: an order
    that handed the confidences down by place made the co-op entry (related, 0.22) an answer on this page."""
    reply = rules.ask("traffic director played but no oppressor on the board", prefer="robotariat")
    answers = [h.entry.id for h in reply.hits if h.answers]
    assert answers[:2] == ["rb-reading-traffic-director", "rb-traffic-director"]
    assert "rb-completely-cooperative-mode" not in answers


@pytest.mark.parametrize("q, game", [
    ("is the blue salvager just better than the red one", "two-robots"),   # a strategy opinion: no book answers
    ("what time does the pizza place close", "raising-robots"),             # off-topic
])
def test_a_reply_that_is_not_covered_keeps_the_first_pass_order(monkeypatch, q, game):
    first_pass, reply = both_ways(monkeypatch, q, game)
    assert not reply.answered and reply.hits == first_pass.hits
