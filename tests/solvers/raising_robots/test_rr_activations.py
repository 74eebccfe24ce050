"""Raising Robots activation chains (solver). Rulebook: "Run a Phase Row (Energy Action)" (each robot
once per robot activation, no infinite loops) and its "Finite Loops Example"."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.raising_robots.activations import (
    FINITE_LOOPS_EXAMPLE,
    ChainInputError,
    Node,
    check,
    finite_loops_variant,
    parse_steps,
)


def chain(data: dict):
    return check(parse_steps(data["steps"], "steps"), data.get("phase"), data.get("energy"))


def test_finite_loops_example_is_legal():
    """Finite Loops Example: Hallyu's activation reaches Bingo, Zeus and Sir Kit once each; Sir Kit's
    own activation at step 4 is separate, so it may run again."""
    r = chain(FINITE_LOOPS_EXAMPLE)
    assert r.ok and not r.problems
    assert [(a["path"], a["robots"]) for a in r.activations] == [
        ("3", ["Hallyu", "Bingo", "Zeus", "Sir Kit"]), ("4", ["Sir Kit"])]
    assert {n.path: n.label for n in r.nodes if n.kind != "run"} == {
        "1": "Take a program or a robot card",
        "2": "Swap X robot cards for X+1 new ones, then +1 robot card and +1 battery",
        "3": "Hallyu", "3.A": "Take a microchip or a gear", "3.B": "Take a gear or a sensor",
        "3.C": "Bingo", "3.C.1": "Zeus", "3.C.1.A": "Take a program or a robot card", "3.C.1.B": "Sir Kit",
        "4": "Sir Kit"}


def test_finite_loops_example_bingo_may_not_choose_hallyu():
    """Finite Loops Example: Bingo may NOT activate Hallyu, already activated earlier in step 3."""
    r = chain(finite_loops_variant())
    assert not r.ok
    flagged = [(n.path, n.label, n.status) for n in r.nodes if n.status != "ok"]
    assert flagged == [("3.C.1", "Hallyu", "repeat")]
    assert "step 3" in r.problems[0]


def test_nothing_under_a_refused_robot_happens():
    """Run a Phase Row: a robot that may not be activated sets nothing off."""
    data = {"steps": [{"robot": "A", "then": [{"robot": "B", "then": [{"robot": "a ", "then": [
        {"run": "design", "energy": 3, "steps": [{"robot": "C"}]}]}]}]}]}
    r = chain(data)
    assert [(n.label, n.status) for n in r.nodes] == [
        ("A", "ok"), ("B", "ok"), ("a", "repeat"), ("design", "skipped"), ("C", "skipped")]


def test_same_robot_in_two_separate_activations_is_fine():
    """Finite Loops Example, step 4: a separate robot activation may use a robot again."""
    r = chain({"steps": [{"robot": "Zeus", "then": [{"robot": "Sir Kit"}]}, {"robot": "Sir Kit"}]})
    assert r.ok


def test_a_robot_repeated_in_another_branch_of_one_activation_is_flagged():
    """Run a Phase Row: once per robot activation, whichever branch reaches it again."""
    data = {"steps": [{"robot": "Hub", "then": [
        {"run": "recycle", "energy": 6, "steps": [{"robot": "Left"}, {"robot": "Right", "then": [{"robot": "Left"}]}]}]}]}
    r = chain(data)
    assert [(n.path, n.status) for n in r.nodes if n.kind == "robot"] == [
        ("1", "ok"), ("1.A", "ok"), ("1.B", "ok"), ("1.B.1", "repeat")]


def test_robot_needing_more_energy_than_the_row_run_is_flagged():
    """Run a Phase Row: the row runs at the energy shown; a robot whose action needs more does not run
    (batteries and energy cubes cannot add to it)."""
    data = {"steps": [{"robot": "Hallyu", "then": [{"run": "fabricate", "energy": 4, "steps": [
        {"robot": "Big", "energy": 5}, {"robot": "Small", "energy": 4}]}]}]}
    r = chain(data)
    assert [(n.label, n.status) for n in r.nodes if n.kind == "robot"] == [
        ("Hallyu", "ok"), ("Big", "energy"), ("Small", "ok")]


def test_adjacent_activation_ignores_row_energy():
    """Pets (S1): activating an adjacent robot ignores energy, so its need is not checked."""
    data = {"steps": [{"robot": "Bingo", "then": [{"robot": "Zeus", "energy": 7}]}], "energy": 2}
    assert chain(data).ok


@pytest.mark.parametrize("bad,path", [
    ({"steps": [{"robot": "A", "board": "x"}]}, "steps[0]"),
    ({"steps": [{"run": "upgrade", "energy": 3}]}, "steps[0].run"),
    ({"steps": [{"run": "design"}]}, "steps[0].energy"),
    ({"steps": [{"robot": ""}]}, "steps[0].robot"),
    ({"steps": [{"robot": "A", "then": [{"robot": "B", "colour": 1}]}]}, "steps[0].then[0].colour"),
    ({"steps": [{"robot": "A", "energy": True}]}, "steps[0].energy"),
    ({"steps": [5]}, "steps[0]"),
])
def test_bad_chains_name_the_field(bad, path):
    with pytest.raises(ChainInputError) as e:
        chain(bad)
    assert e.value.path == path


def _tree(names):
    leaf = st.builds(lambda n: Node("robot", n), names)
    return st.recursive(leaf, lambda kids: st.builds(
        lambda n, ch: Node("robot", n, children=tuple(ch)), names, st.lists(kids, max_size=3)), max_leaves=8)


def _oracle(steps) -> bool:
    """Legal iff no robot name appears twice in the subtree of any top-level robot."""
    def names(node):
        out = [node.label.casefold()]
        for c in node.children:
            out += names(c)
        return out
    return all(len(set(names(s))) == len(names(s)) for s in steps)


@settings(max_examples=60, deadline=None)
@given(st.lists(_tree(st.sampled_from(["A", "B", "C", "D"])), max_size=3))
def test_checker_against_subtree_oracle(steps):
    """Property (Run a Phase Row): a chain is legal exactly when no top-level robot activation
    contains the same robot twice."""
    assert check(steps).ok == _oracle(steps)
