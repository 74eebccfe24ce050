"""Issue 24: the sentence model the second look weighs (assistant/rules/semantic.py): what it says of meaning, the
vectors kept for the entries, and an answer it puts first."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from assistant import rules
from assistant.rules import rerank, semantic

index_module = importlib.import_module("assistant.rules.index")


def test_a_vector_is_a_unit_vector_and_the_same_each_time():
    one = semantic.encoder().vector("can i build the same robot twice")
    again = semantic.encoder().vector("can i build the same robot twice")
    assert one.shape == (384,) and abs(float(np.linalg.norm(one)) - 1.0) < 1e-3
    assert np.array_equal(one, again)
    # (the kept vectors are encoded one text at a time too: int8 activations are scaled by each run's range)
    assert np.array_equal(semantic.encoder().encode(["can i build the same robot twice", "who goes first"])[0], one)


def test_every_entry_and_players_question_has_its_vector_kept():
    # (a vector missing is encoded when the index is built: right, but slow; bench/build_rules_vectors.py writes them)
    assert rules.index()._meanings.encoded_at_build == 0


def test_vectors_another_model_made_are_set_aside(tmp_path):
    kept = semantic.VECTORS_FILE
    assert semantic.load_vectors(kept)  # the shipped file was made by the shipped model
    other_model = tmp_path / "other.onnx"
    other_model.write_bytes(b"not the shipped model")
    assert semantic.load_vectors(kept, model=other_model) == {}


def test_an_entry_edited_since_the_vectors_were_kept_is_encoded_when_the_index_is_built(monkeypatch):
    monkeypatch.setattr(semantic, "_encoder", None)
    meanings = semantic.Meanings(["Search: look through the robot deck"], [("how does search work",)], kept={})
    assert meanings.encoded_at_build == 2
    assert semantic._encoder is None  # the shared model is not loaded by a build (the server forks after it)
    vector = semantic.encoder().vector("how does searching work")
    best = max(float(vector @ semantic.encoder().vector(t)) for t in
               ("Search: look through the robot deck", "how does search work"))
    assert meanings.nearness(vector, [0]) == pytest.approx([best], abs=1e-4)


def test_the_second_look_weighs_meaning():
    weights = rules.index()._rerank
    assert "semantic" in rerank.FEATURES and weights["semantic"] > 0


def test_meaning_puts_the_moment_the_game_ends_first(monkeypatch):
    # Game End (rulebook): the revolution succeeds when the Funds reach the target; Tablebot's reading says that it
    # ends at that very moment, mid NPC turn. Without the model's nearness the target's numbers come first.
    q = "we reach 60 spark halfway through the npc turn, is the game won then"
    assert rules.ask(q, game="robotariat").hits[0].entry.id == "rb-reading-game-end-moment"
    monkeypatch.setattr(index_module.RulesIndex, "nearness", lambda self, question, rows: [0.0] * len(rows))
    # (nor, in meaning, to any question asked before)
    monkeypatch.setattr(rules.index()._asked, "nearest_asking", lambda vector, game: {})
    assert rules.ask(q, game="robotariat").hits[0].entry.id != "rb-reading-game-end-moment"


def test_warming_up_loads_the_model_once_for_every_search_after(monkeypatch):
    monkeypatch.setattr(semantic, "_encoder", None)
    semantic.warm_up().join(timeout=30)
    loaded = semantic._encoder
    assert loaded is not None and semantic.encoder() is loaded


def test_the_result_nearest_in_meaning_takes_third_place(monkeypatch):
    # Encounters (rulebook) and Tablebot's reading of them: a fine takes the Recruitment Office down to 0, no lower;
    # the reading's words are not the question's, its sense is
    q = "office is at 1 and a cop comes in, does it go to -1"
    # (the reading answered questions asked before near this one: without them, the nearness to its text alone)
    monkeypatch.setattr(rules.index()._asked, "nearest_asking", lambda vector, game: {})
    assert "rb-reading-encounters" in [h.entry.id for h in rules.ask(q, game="robotariat", limit=3).hits]
    monkeypatch.setattr(index_module, "NEAREST_THIRD_ON", False)
    assert "rb-reading-encounters" not in [h.entry.id for h in rules.ask(q, game="robotariat", limit=3).hits]


@pytest.mark.parametrize("margin, moved", [(index_module.NEAREST_THIRD + 0.01, True),
                                           (index_module.NEAREST_THIRD - 0.01, False)])
def test_only_a_clearly_nearer_answer_of_the_same_game_moves_up(monkeypatch, margin, moved):
    index = rules.index()
    hits = [index_module.Hit(index.by_id[i], 0.9 - 0.05 * n) for n, i in enumerate(
        ["rb-human-oppressors", "rb-civilian-robots", "rb-npc-turn", "tr-attack-cards", "rb-reading-encounters"])]
    # the Two Robots entry is nearest of all, but another game's rule is no third answer to this one's question
    near = {"rb-npc-turn": 0.5, "tr-attack-cards": 0.99, "rb-reading-encounters": 0.5 + margin}
    monkeypatch.setattr(index_module.RulesIndex, "nearness",
                        lambda self, question, rows: [near.get(self.entries[r].id, 0.5) for r in rows])
    third = index._nearest_third("any question", hits)[2].entry.id
    assert third == ("rb-reading-encounters" if moved else "rb-npc-turn")


def test_a_related_section_or_another_games_third_is_left_as_it_is(monkeypatch):
    index = rules.index()
    monkeypatch.setattr(index_module.RulesIndex, "nearness", lambda self, question, rows: [0.0] + [0.9] * (len(rows) - 1))
    below = index_module.ANSWERED - 0.01
    # a result below ANSWERED is a related section: it never takes an answer's place
    related = [index_module.Hit(index.by_id[i], s) for i, s in (
        ("rb-human-oppressors", 0.9), ("rb-civilian-robots", 0.8), ("rb-npc-turn", 0.8), ("rb-reading-encounters", below))]
    assert index._nearest_third("any question", related) == related
    # a third of another game (the page's game first, then another's answers): nothing moves
    mixed = [index_module.Hit(index.by_id[i], 0.8) for i in (
        "rb-human-oppressors", "rb-civilian-robots", "tr-attack-cards", "rb-reading-encounters")]
    assert index._nearest_third("any question", mixed) == mixed


def test_a_result_the_first_pass_is_far_less_sure_of_stays_below_the_third(monkeypatch):
    index = rules.index()
    hits = [index_module.Hit(index.by_id[i], s) for i, s in (
        ("rb-human-oppressors", 0.9), ("rb-civilian-robots", 0.8), ("rb-npc-turn", 0.8), ("rb-reading-encounters", 0.5))]
    monkeypatch.setattr(index_module.RulesIndex, "nearness", lambda self, question, rows: [0.5] + [0.9] * (len(rows) - 1))
    assert index._nearest_third("any question", hits) == hits
